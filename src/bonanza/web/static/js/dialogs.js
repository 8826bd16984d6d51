// Dialogs: new deal, statistics, win, no moves and restart confirmation.
import { api } from "./api.js";
import { formatTime } from "./game.js";

const RULES_KEY = "bonanza.rules";

/** Open a <dialog> modally and resolve with the button value that closed it. */
export function ask(dialog) {
  return new Promise((resolve) => {
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(dialog.returnValue || "cancel"), { once: true });
    dialog.showModal();
  });
}

export function savedRules() {
  try {
    const rules = JSON.parse(localStorage.getItem(RULES_KEY));
    if (rules && typeof rules === "object") return rules;
  } catch {
    // Fall through to the default.
  }
  return {
    draw: 1, passes: null, empty_column: "king", recall: true,
    partial_runs: true, thoughtful: false, scoring: "standard",
  };
}

function readForm(form) {
  const data = new FormData(form);
  const passes = data.get("passes");
  return {
    draw: Number(data.get("draw")),
    passes: passes ? Number(passes) : null,
    empty_column: data.get("empty_column"),
    recall: data.get("recall") === "on",
    partial_runs: data.get("whole_runs") !== "on",
    thoughtful: data.get("thoughtful") === "on",
    scoring: data.get("scoring"),
  };
}

function fillForm(form, rules) {
  form.elements.draw.value = String(rules.draw === 3 ? 3 : 1);
  form.elements.passes.value = rules.passes ? String(rules.passes) : "";
  form.elements.empty_column.value = rules.empty_column;
  form.elements.recall.checked = !!rules.recall;
  form.elements.whole_runs.checked = rules.partial_runs === false;
  form.elements.thoughtful.checked = !!rules.thoughtful;
  form.elements.scoring.value = rules.scoring;
}

/** The new-deal dialog: resolves with {deal, rules} or null when cancelled. */
export async function newDealDialog(currentState) {
  const dialog = document.getElementById("dlg-new");
  const form = document.getElementById("form-new");
  const error = document.getElementById("new-error");
  const input = document.getElementById("deal-input");
  fillForm(form, savedRules());
  error.textContent = "";
  input.value = "";
  document.getElementById("btn-replay").disabled = !currentState;
  for (;;) {
    const action = await ask(dialog);
    if (action === "cancel") return null;
    const rules = readForm(form);
    localStorage.setItem(RULES_KEY, JSON.stringify(rules));
    if (action === "replay") return { deal: currentState.deal, rules };
    if (action === "random") return { deal: null, rules };
    const deal = input.value.trim();
    if (deal) return { deal, rules };
    error.textContent = "Type a deal number or deal code first.";
  }
}

function cell(table, label, value) {
  const row = table.insertRow();
  const th = document.createElement("th");
  th.scope = "row";
  th.textContent = label;
  row.append(th);
  row.insertCell().textContent = value ?? "–";
}

export async function statsDialog(toast) {
  const dialog = document.getElementById("dlg-stats");
  const body = document.getElementById("stats-body");
  body.textContent = "Loading…";
  const show = async () => {
    const { groups } = await api.stats();
    body.textContent = "";
    if (!groups.length) {
      body.textContent = "No finished games yet.";
      return;
    }
    for (const g of groups) {
      const table = document.createElement("table");
      table.dataset.rules = JSON.stringify(g.rules);
      table.createCaption().textContent = g.label[0].toUpperCase() + g.label.slice(1);
      cell(table, "Played", g.played);
      cell(table, "Won", g.won);
      cell(table, "Win rate", `${g.win_rate}%`);
      cell(table, "Current streak", g.current_streak);
      cell(table, "Best streak", g.best_streak);
      cell(table, "Best time", g.best_time === null ? null : formatTime(g.best_time));
      cell(table, "Best score", g.best_score);
      cell(table, "Fewest moves", g.fewest_moves);
      if ("bankroll" in g) cell(table, "Vegas bankroll", `$${g.bankroll}`);
      body.append(table);
    }
  };
  const reset = document.getElementById("btn-stats-reset");
  reset.onclick = async () => {
    if (!window.confirm("Reset all statistics?")) return;
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

export function winDialog(state) {
  document.getElementById("win-time").textContent = formatTime(state.elapsed);
  document.getElementById("win-moves").textContent = String(state.moves);
  document.getElementById("win-score").textContent = String(state.score);
  return ask(document.getElementById("dlg-win"));
}

export function noMovesDialog() {
  const dialog = document.getElementById("dlg-nomoves");
  if (dialog.open) return Promise.resolve("cancel");
  return ask(dialog);
}

export function confirmRestart() {
  return ask(document.getElementById("dlg-confirm"));
}
