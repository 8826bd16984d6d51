// The daily leaderboard: the day's best times and fewest moves per draw mode, from the server,
// with the player's display name. Every name is the players' own text: set as text, never HTML.
// Loaded when first shown (by import()), with its style sheet: it is no part of the first load.
import { api } from "./api.js";
import { dayName } from "./daily.js";
import { formatTime } from "./format.js";

const SHOWN_IN_WIN = "win-leaderboard";
const STYLE_URL = "/static/leaderboard.css";

function useStyle() {
  if (document.querySelector(`link[href="${STYLE_URL}"]`)) return;
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: STYLE_URL }));
}

function table(caption, rows, columns) {
  const t = document.createElement("table");
  t.className = "board";
  t.createCaption().textContent = caption;
  const head = t.createTHead().insertRow();
  for (const [label] of columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = label;
    head.append(th);
  }
  const body = t.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    if (row.you) tr.className = "you";
    for (const [, value] of columns) tr.insertCell().textContent = value(row);
  }
  return t;
}

const PLACE = ["#", (row) => String(row.place)];
const NAME = ["Name", (row) => (row.you ? `${row.name} (you)` : row.name)];
const TIME = ["Time", (row) => formatTime(row.elapsed)];
const MOVES = ["Moves", (row) => String(row.moves)];

/** One draw mode's board: its title, the rule of who enters, and its two rankings. */
function boardPart(board, withDay) {
  const part = document.createElement("div");
  part.className = "board-part";
  part.dataset.draw = String(board.draw);
  const title = document.createElement("h4");
  title.textContent = withDay
    ? `Daily leaderboard of ${dayName(board.day)} (${board.draw_words})`
    : `Today's daily leaderboard (${board.draw_words})`;
  part.append(title);
  if (!board.fastest.length) {
    const none = document.createElement("p");
    none.className = "board-empty";
    none.textContent = "No one has won this daily deal yet.";
    part.append(none);
  } else {
    part.append(
      table("Fastest", board.fastest, [PLACE, NAME, TIME, MOVES]),
      table("Fewest moves", board.fewest_moves, [PLACE, NAME, MOVES, TIME]),
    );
  }
  return part;
}

/** The display-name field: Enter or Save stores it (it never submits the dialog), then ``saved``. */
function nameField(board, saved) {
  const box = document.createElement("div");
  box.className = "board-name";
  const label = document.createElement("label");
  label.textContent = "Your name on the leaderboard ";
  const input = document.createElement("input");
  input.type = "text";
  input.name = "display-name";
  input.maxLength = board.name_length;
  input.placeholder = board.anonymous;
  input.autocomplete = "nickname";
  input.value = board.name ?? "";
  label.append(input);
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Save name";
  const said = document.createElement("span");
  said.className = "board-said";
  said.setAttribute("role", "status");
  const save = async () => {
    try {
      const answer = await api.setName(input.value);
      input.value = answer.name ?? "";
      said.textContent = answer.name ? "Saved" : `Saved: you show as ${board.anonymous}`;
      await saved();
    } catch (error) {
      said.textContent = error.message;
    }
  };
  button.addEventListener("click", save);
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    // not the dialog's own form
    event.preventDefault();
    save();
  });
  box.append(label, button, said);
  return box;
}

/**
 * A section with the leaderboards of ``draws`` on ``day`` (null: today) and the name field;
 * it fills in as the answers come (a board that cannot be read says why).
 */
export function leaderboardSection(draws, day = null) {
  useStyle();
  const section = document.createElement("section");
  section.className = "leaderboard";
  const boards = document.createElement("div");
  let field = null;
  const load = async () => {
    const found = await Promise.all(draws.map((draw) => api.leaderboard(draw, day).catch((error) => error)));
    const good = found.filter((board) => !(board instanceof Error));
    boards.replaceChildren(...found.map((board) => {
      if (!(board instanceof Error)) return boardPart(board, day !== null);
      const p = document.createElement("p");
      p.textContent = board.message;
      return p;
    }));
    if (good.length && !field) {
      const rule = document.createElement("p");
      rule.className = "board-rule";
      rule.textContent = good[0].rule;
      field = nameField(good[0], load);
      section.append(rule, field);
    }
  };
  section.append(boards);
  section.loaded = load();
  return section;
}

/** Under a won daily deal's win dialog's figures: that day's board of its draw mode. */
export function showWinLeaderboard(dialog, state) {
  dialog.querySelector(`#${SHOWN_IN_WIN}`)?.remove();
  const section = leaderboardSection([state.rules.draw], state.daily);
  section.id = SHOWN_IN_WIN;
  dialog.querySelector(".actions").before(section);
}
