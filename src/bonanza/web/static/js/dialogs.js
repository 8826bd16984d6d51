// Dialogs: new deal, statistics, win, no moves, confirmations and the deal link.
import { api } from "./api.js";
import { CARD_BACKS } from "./cards.js";
import { dailyStreakLine, dayName, readDealField, showDaily } from "./daily.js";
import { formatMoney, formatScore, formatTime, VEGAS } from "./format.js";
import { gameById, gameOf, GAMES, onTable } from "./games.js";
import { words } from "./page_data.js";
import { keepRules, savedRules } from "./saved_rules.js";
import { apply as applySettings, load as loadSettings, save as saveSettings } from "./settings.js";


/** Open a <dialog> modally and resolve with the button value that closed it. */
export function ask(dialog) {
  return new Promise((resolve) => {
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(dialog.returnValue || "cancel"), { once: true });
    dialog.showModal();
  });
}

function readForm(form) {
  const data = new FormData(form);
  const passes = form.elements.passes.value;
  const rules = {
    draw: Number(form.elements.draw.value),
    passes: passes ? Number(passes) : null,
    empty_column: data.get("empty_column"),
    recall: data.get("recall") === "on",
    partial_runs: data.get("whole_runs") !== "on",
    thoughtful: data.get("thoughtful") === "on",
    scoring: data.get("scoring"),
  };
  return onTable(rules, gameById(form.elements.game.value));
}

function fillForm(form, rules) {
  const { game } = form.elements;
  if (!game.options.length) game.append(...GAMES.map(({ id, label }) => new Option(label, id)));
  game.value = gameOf(rules).id;
  form.elements.draw.value = String(rules.draw === 3 ? 3 : 1);
  form.elements.passes.value = rules.passes ? String(rules.passes) : "";
  form.elements.empty_column.value = rules.empty_column;
  form.elements.recall.checked = !!rules.recall;
  form.elements.whole_runs.checked = rules.partial_runs === false;
  form.elements.thoughtful.checked = !!rules.thoughtful;
  form.elements.scoring.value = rules.scoring;
}

/** The passes Vegas plays with unless the player picks others (the server says, by draw). */
export function vegasPasses(draw) {
  return words.vegas?.passes?.[draw] ?? null;
}

/** Choosing Vegas scoring sets the passes control to Vegas's default (still changeable). */
function wireVegasPasses(form) {
  const { draw, passes, scoring } = form.elements;
  const isVegas = () => VEGAS.has(scoring.value);
  const putDefault = () => {
    form.dataset.vegasDefault = String(vegasPasses(Number(draw.value)));
    passes.value = form.dataset.vegasDefault;
  };
  // At each opening: the passes shown follow the draw while they are Vegas's default.
  form.dataset.vegasDefault = isVegas() && passes.value === String(vegasPasses(Number(draw.value)))
    ? passes.value : "";
  if (form.dataset.vegasWired) return;
  form.dataset.vegasWired = "1";
  scoring.addEventListener("change", () => {
    if (isVegas()) putDefault();
  });
  for (const radio of draw) {
    radio.addEventListener("change", () => {
      if (isVegas() && passes.value === form.dataset.vegasDefault) putDefault();
    });
  }
}

/**
 * The form follows the game chosen: its rules are set (draw, passes, empty column, recall),
 * those it fixes are locked, and the winnable and daily deals, Klondike's only, give way to
 * words that say so. ``changed``: the player picked the game now (else the form shows saved rules).
 */
function showGame(form, changed) {
  const chosen = gameById(form.elements.game.value);
  const { draw, passes } = form.elements;
  if (changed) {
    for (const [name, value] of Object.entries(chosen.rules)) {
      const control = form.elements[name];
      if (name === "recall") control.checked = value;
      else control.value = value === null ? "" : String(value);
    }
  }
  const drawFixed = chosen.fixed.includes("draw");
  for (const radio of draw) radio.disabled = drawFixed;
  passes.disabled = chosen.fixed.includes("passes");
  document.getElementById("game-note").textContent = chosen.note ?? "";
  const klondike = chosen.id === "klondike";
  const only = document.getElementById("klondike-only");
  only.hidden = klondike;
  only.textContent = klondike ? "" : `Winnable and daily deals are Klondike's only: ${chosen.label.split(",")[0]} deals are random, or typed below.`;
  document.getElementById("klondike-deals").hidden = !klondike;
  document.getElementById("klondike-daily").hidden = !klondike;
}

/** Wired once: choosing a game sets its rules; on a table offered with each draw
 * (Double Klondike's), the draw picks its game. */
function wireGame(form) {
  if (form.dataset.gameWired) return;
  form.dataset.gameWired = "1";
  const { game, draw } = form.elements;
  game.addEventListener("change", () => {
    showGame(form, true);
    dealChoice(form, false);
  });
  for (const radio of draw) {
    radio.addEventListener("change", () => {
      const found = gameOf({ ...gameById(game.value).table, draw: Number(draw.value) });
      if (found.id === game.value || found.rules.draw !== Number(draw.value)) return;
      game.value = found.id;
      showGame(form, false);
    });
  }
}

const CHOICE_KEY = "bonanza.dealChoice";
const NOT_A_DEAL = "That is not a deal number, code or share link";
// the daily buttons' values: daily:today, daily:2026-12-01
const DAILY = "daily:";

/** Any or winnable deals (and their grade), kept apart from the rules. */
function dealChoice(form, save) {
  const { kind, grade } = form.elements;
  if (save) localStorage.setItem(CHOICE_KEY, JSON.stringify({ kind: kind.value, grade: grade.value }));
  else {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(CHOICE_KEY)); } catch { /* the default */ }
    kind.value = saved?.kind === "winnable" ? "winnable" : "any";
    grade.value = ["easy", "hard"].includes(saved?.grade) ? saved.grade : "medium";
  }
  const winnable = kind.value === "winnable" && form.elements.game.value === "klondike";
  grade.disabled = !winnable;
  document.getElementById("btn-random").textContent = winnable ? "New winnable deal" : "New random deal";
}

/** Wired once: the grade follows "Winnable only", the daily part the draw, and a
 * deal ID is checked before the dialog closes (a bad one keeps it open). */
function wireDealChoice(dialog, form, error) {
  if (form.dataset.dealWired) return;
  form.dataset.dealWired = "1";
  for (const control of [...form.elements.kind, form.elements.grade]) {
    control.addEventListener("change", () => dealChoice(form, true));
  }
  for (const radio of form.elements.draw) {
    radio.addEventListener("change", () => showDaily(Number(form.elements.draw.value)).catch(() => {}));
  }
  form.addEventListener("submit", async (event) => {
    if (event.submitter?.value !== "deal") return;
    event.preventDefault();
    const text = form.elements.deal.value.trim();
    error.textContent = text ? "" : "Type a deal number, code or share link first.";
    if (!text) return;
    try {
      const found = await readDealField(text, readForm(form).decks ?? 1);
      if (found) {
        form.dataset.found = JSON.stringify(found);
        dialog.close("deal");
        return;
      }
      error.textContent = NOT_A_DEAL;
    } catch (failure) {
      error.textContent = failure.message;
    }
    form.elements.deal.focus();
  });
}

/**
 * The new-deal dialog: resolves with what to start, or null when cancelled:
 * {rules} for a random deal, {rules, grade} for a winnable one, {deal, rules} for
 * a typed one, {share} for a pasted share link, {daily, draw} for a daily deal
 * (a day, or "today"), {replay} for the current deal again.
 */
/** Whether leaving this game costs the player: it counts as lost once a move is made (in Vegas, from the deal). */
export function inProgress(state) {
  return !!state && state.status === "playing" && (state.moves > 0 || VEGAS.has(state.rules.scoring));
}

export async function newDealDialog(currentState) {
  const dialog = document.getElementById("dlg-new");
  document.getElementById("new-lost-note").hidden = !inProgress(currentState);
  const form = document.getElementById("form-new");
  const error = document.getElementById("new-error");
  fillForm(form, savedRules());
  wireVegasPasses(form);
  wireDealChoice(dialog, form, error);
  wireGame(form);
  showGame(form, false);
  dealChoice(form, false);
  error.textContent = "";
  form.elements.deal.value = "";
  document.getElementById("btn-replay").disabled = !currentState;
  showDaily(Number(form.elements.draw.value)).catch(() => {});
  const action = await ask(dialog);
  if (action === "cancel") return null;
  const rules = readForm(form);
  keepRules(rules);
  // The deal itself is not known to the page while it is played: the server replays it.
  if (action === "replay") return { replay: currentState.id };
  if (action.startsWith(DAILY)) return { daily: action.slice(DAILY.length), draw: rules.draw };
  if (action === "deal") {
    const found = JSON.parse(form.dataset.found);
    return found.share ? found : { ...found, rules };
  }
  const klondike = form.elements.game.value === "klondike";
  if (klondike && form.elements.kind.value === "winnable") return { rules, grade: form.elements.grade.value };
  return { rules };
}

/** Show the deal ID in a dialog's deal line once the server gives it (the game is over). */
function showDealLine(prefix, state) {
  const line = document.getElementById(`${prefix}-deal-line`);
  const button = document.getElementById(`${prefix}-deal`);
  line.hidden = !state.deal;
  button.textContent = state.deal || "";
  button.dataset.deal = state.deal || "";
  button.title = state.deal ? "Copy the deal ID" : "";
}

const RECORD_WORDS = {
  best_time: "best time", best_score: "best score", fewest_moves: "fewest moves", longest_streak: "longest streak",
};

/**
 * What the winning answer says of records (the server finds them in the stored games):
 * one line a record set, else "First win", else why this game counts apart.
 */
export function recordLines(state) {
  if (!Array.isArray(state.records)) return [];
  const shown = (name, value) => {
    if (name === "best_time") return formatTime(value);
    return name === "best_score" ? formatScore(state.rules, value) : String(value);
  };
  const lines = state.records.map(({ name, value, previous }) =>
    `New record: ${RECORD_WORDS[name] ?? name} ${shown(name, value)} (was ${shown(name, previous)})`);
  if (state.first_win) lines.push("First win under these rules");
  else if (state.in_records === false) {
    if (state.assisted) lines.push(words.winnable?.asked ?? "");
    else if (state.daily) lines.push(`The daily deal of ${dayName(state.daily)}: it counts in your daily statistics`);
    else if (state.rules?.thoughtful) lines.push("A thoughtful game, every card face up: it counts apart from your records");
    else lines.push("A chosen deal: it counts apart from your records");
  }
  return lines;
}

export function winDialog(state) {
  const records = document.getElementById("win-records");
  records.replaceChildren(...recordLines(state).map((line) => {
    const p = document.createElement("p");
    p.append(document.createElement(/^(New record|First win)/.test(line) ? "strong" : "span"));
    p.firstChild.textContent = line;
    return p;
  }));
  document.getElementById("dlg-win-title").textContent = state.daily ? "Daily deal won!" : "You won!";
  if (state.daily && !state.assisted) {
    dailyStreakLine(state.rules.draw).then((line) => {
      if (!line) return;
      const p = document.createElement("p");
      p.className = "daily-streak";
      p.append(document.createElement("strong"));
      p.firstChild.textContent = line;
      records.append(p);
    });
  }
  document.getElementById("win-time").textContent = formatTime(state.elapsed);
  document.getElementById("win-moves").textContent = String(state.moves);
  document.getElementById("win-score").textContent = formatScore(state.rules, state.score);
  const hasBankroll = typeof state.bankroll === "number";
  document.getElementById("win-bankroll-box").hidden = !hasBankroll;
  document.getElementById("win-bankroll").textContent = hasBankroll ? formatMoney(state.bankroll) : "";
  showDealLine("win", state);
  const dialog = document.getElementById("dlg-win");
  // an earlier daily win's
  dialog.querySelector(".leaderboard")?.remove();
  if (state.daily) import("./leaderboard.js").then((board) => board.showWinLeaderboard(dialog, state), () => {});
  return ask(dialog);
}

export function noMovesDialog(state) {
  const dialog = document.getElementById("dlg-nomoves");
  if (dialog.open) return Promise.resolve("cancel");
  showDealLine("nomoves", state);
  // In Vegas a draw cannot be taken back: then only a new game is offered.
  document.getElementById("nomoves-undo").disabled = !state.can_undo;
  return ask(dialog);
}

/**
 * The review of a lost game: the move that lost it and a winning line from
 * the position before it (the game is over: its cards are no secret).
 * ``load`` fetches the review; the dialog opens at once and fills in.
 */
export async function reviewDialog(load) {
  const dialog = document.getElementById("dlg-review");
  const text = document.getElementById("review-text");
  const critical = document.getElementById("review-critical");
  const title = document.getElementById("review-line-title");
  const list = document.getElementById("review-line");
  text.textContent = "Reviewing…";
  critical.hidden = title.hidden = true;
  list.replaceChildren();
  const closed = ask(dialog);
  let review;
  try {
    review = await load();
  } catch (error) {
    text.textContent = error.message;
    return closed;
  }
  text.textContent = review.text;
  if (review.critical) {
    const c = review.critical;
    critical.textContent = `Move ${c.number} lost it: ${c.move.text} (${c.words}).`;
    critical.hidden = false;
  }
  if (review.line.length) {
    const after = review.after_moves;
    title.textContent = after ? `A line that wins after move ${after}:` : "A line that wins from the deal:";
    title.hidden = false;
    list.replaceChildren(...review.line.map((step) => {
      const item = document.createElement("li");
      const code = document.createElement("code");
      code.textContent = step.text;
      item.append(code, step.words);
      return item;
    }));
  }
  return closed;
}

/** The page's yes/no question: resolves with "ok" or "cancel". */
export function confirmDialog({ title, text, ok, cancel }) {
  document.getElementById("dlg-confirm-title").textContent = title;
  document.getElementById("confirm-text").textContent = text;
  document.getElementById("confirm-ok").textContent = ok;
  document.getElementById("confirm-cancel").textContent = cancel;
  return ask(document.getElementById("dlg-confirm"));
}

export function confirmRestart() {
  return confirmDialog({
    title: "Restart this deal?",
    text: "All cards go back to the start. Redo can replay your moves.",
    ok: "Restart",
    cancel: "Cancel",
  });
}

/** Where the clipboard cannot be used: the link in a field, selected, to copy by hand. */
export function linkDialog(link, note = "") {
  const dialog = document.getElementById("dlg-link");
  const field = document.getElementById("link-field");
  field.value = link;
  document.getElementById("link-help").textContent =
    `Copy this link to share the deal. It does not show the cards.${note ? ` ${note}` : ""}`;
  const closed = ask(dialog);
  field.focus();
  field.select();
  return closed;
}

/** The settings the settings form shows. */
function readSettings(form) {
  const values = {};
  for (const { name, type, checked, value } of form.elements) {
    if (name) values[name] = type === "checkbox" ? checked : type === "range" ? Number(value) : value;
  }
  return values;
}

/** The settings dialog: a change shows at once; resolves with the settings saved, or null. */
export async function settingsDialog(toast, sound) {
  const dialog = document.getElementById("dlg-settings");
  const form = dialog.querySelector("form");
  const backs = form.elements.card_back;
  if (!backs.options.length) backs.append(...CARD_BACKS.map(({ id, label }) => new Option(label, id)));
  let before;
  try {
    before = await loadSettings();
  } catch (error) {
    toast(error.message);
    return null;
  }
  for (const field of form.elements) {
    if (field.name) field[field.type === "checkbox" ? "checked" : "value"] = before[field.name];
  }
  form.oninput = () => applySettings(readSettings(form));
  form.onchange = (event) => event.target.name === "volume" && sound.play("place");
  const choice = await ask(dialog);
  const changes = Object.entries(readSettings(form)).filter(([name, value]) => value !== before[name]);
  if (choice !== "save" || !changes.length) {
    applySettings(before);
    return choice === "save" ? before : null;
  }
  try {
    return await saveSettings(Object.fromEntries(changes));
  } catch (error) {
    toast(error.message);
    // the server's copy; if it is away, the change waits
    loadSettings().catch(() => {});
    return null;
  }
}
