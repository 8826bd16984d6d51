// The Statistics dialog: the headline figures per rule set, chosen deals and assisted games apart.
// Loaded at its first opening (by import(), from main.js): it is no part of the first load. It
// takes dialogs.js's functions from main.js rather than import a second copy of that module.
import { api } from "./api.js";
import { formatMoney, formatScore, formatTime } from "./format.js";
import { words } from "./page_data.js";

function cell(table, label, value) {
  const row = table.insertRow();
  const th = document.createElement("th");
  th.scope = "row";
  th.textContent = label;
  row.append(th);
  row.insertCell().textContent = value ?? "–";
}

/** A statistics group's caption, which names its game: "Westcliff: draw 1, 1 pass…". */
export function groupTitle(g) {
  const label = g.label[0].toUpperCase() + g.label.slice(1);
  if (!g.game || label.startsWith(`${g.game}: `)) return label;
  return `${g.game}: ${g.label}`;
}

function groupTable(g) {
  const table = document.createElement("table");
  table.dataset.rules = JSON.stringify(g.rules);
  table.createCaption().textContent = groupTitle(g);
  cell(table, "Played", g.played);
  cell(table, "Won", g.won);
  cell(table, "Win rate", `${g.win_rate}%`);
  cell(table, "Current streak", g.current_streak);
  cell(table, "Best streak", g.best_streak);
  cell(table, "Best time", g.best_time === null ? null : formatTime(g.best_time));
  cell(table, "Best score", g.best_score === null ? null : formatScore(g.rules, g.best_score));
  cell(table, "Fewest moves", g.fewest_moves);
  if ("bankroll" in g) cell(table, "Vegas bankroll", formatMoney(g.bankroll));
  return table;
}

/** The games the player chose (typed, shared, replayed), apart from the headline figures. */
function chosenSection(groups) {
  const section = document.createElement("section");
  section.className = "stats-chosen";
  section.setAttribute("aria-labelledby", "stats-chosen-title");
  const title = document.createElement("h3");
  title.id = "stats-chosen-title";
  title.textContent = "Chosen deals (typed, shared or replayed) — not counted above";
  section.append(title, ...groups.map(groupTable));
  return section;
}

function showStats(body, { groups = [], chosen = [], assisted = { played: 0, won: 0 } }) {
  body.textContent = "";
  if (!groups.length && !chosen.length && !assisted.played) {
    body.textContent = "No finished games yet.";
    return;
  }
  const headline = document.createElement("section");
  headline.className = "stats-headline";
  if (groups.length) headline.append(...groups.map(groupTable));
  else headline.textContent = "No finished games of random deals yet.";
  body.append(headline);
  if (chosen.length) body.append(chosenSection(chosen));
  if (assisted.played) body.append(assistedSection(assisted));
}

const DAILY_DRAWS = [1, 3];

/** The daily deals' own figures, per draw mode played (none: nothing shown). */
async function dailySection() {
  const found = await Promise.all(DAILY_DRAWS.map((draw) => api.daily(draw).catch(() => null)));
  const played = found.map((answer, i) => [DAILY_DRAWS[i], answer?.stats]).filter(([, s]) => s?.played);
  if (!played.length) return null;
  const section = document.createElement("section");
  section.className = "stats-chosen stats-daily";
  const title = document.createElement("h3");
  title.textContent = "Daily deals — counted apart";
  section.append(title);
  for (const [draw, s] of played) {
    const table = document.createElement("table");
    table.createCaption().textContent = `Daily deals (${draw}-card draw)`;
    cell(table, "Played", s.played);
    cell(table, "Won", s.won);
    cell(table, "Current streak", s.current_streak);
    cell(table, "Best streak", s.best_streak);
    cell(table, "Best time", s.best_time === null ? null : formatTime(s.best_time));
    section.append(table);
  }
  return section;
}

/** The games in which the player asked the question that peeks (assisted): only counted. */
function assistedSection({ played, won }) {
  const section = document.createElement("section");
  section.className = "stats-chosen stats-assisted";
  const title = document.createElement("h3");
  title.textContent = words.winnable?.assisted_games ?? "";
  const line = document.createElement("p");
  line.textContent = `Played ${played}, won ${won}`;
  section.append(title, line);
  return section;
}

/** The dialog; ``toast``, ``ask`` and ``confirmDialog``: main.js's and dialogs.js's. */
export async function statsDialog(toast, { ask, confirmDialog }) {
  const dialog = document.getElementById("dlg-stats");
  const body = document.getElementById("stats-body");
  body.textContent = "Loading…";
  const show = async () => {
    const [figures, daily] = await Promise.all([api.stats(), dailySection()]);
    showStats(body, figures);
    if (daily) {
      if (body.textContent === "No finished games yet.") body.textContent = "";
      body.append(daily);
    }
    const board = await import("./leaderboard.js").then((m) => m.leaderboardSection(DAILY_DRAWS), () => null);
    // (its module is not in the first load)
    if (board) body.append(board);
  };
  const reset = document.getElementById("btn-stats-reset");
  reset.onclick = async () => {
    const answer = await confirmDialog({
      title: "Reset all statistics?",
      text: "Your finished games leave your statistics: records, streaks and bankroll start afresh. This cannot be undone.",
      ok: "Reset",
      cancel: "Keep them",
    });
    if (answer !== "ok") return;
    try {
      await api.resetStats();
      await show();
    } catch (error) {
      toast(error.message);
    }
  };
  const closed = ask(dialog);
  try {
    await show();
  } catch (error) {
    body.textContent = error.message;
  }
  return closed;
}
