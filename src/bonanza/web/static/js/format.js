// How the page writes figures and a few sentences: money, scores, times, draws, rule labels.
import { words } from "./page_data.js";
import { cardName, STOCK, WASTE } from "./piles.js";

/** The scorings that play for money, as the server names them. */
export const VEGAS = new Set(words.vegas?.scorings ?? []);

/** ``text`` naming the cards a draw put face up on the waste of ``moved`` (the table after it). */
export function namedDraw(text, moved) {
  const last = moved.last;
  if (!text || last?.source !== STOCK || last.dest !== WASTE) return text;
  const names = moved.position.waste.slice(-last.count).map(cardName);
  const top = names.length > 1 ? `; ${names.at(-1)} on top` : "";
  return text.replace(/\b([Dd])rew \d+ cards?/, (_, d) => `${d}rew ${names.join(", ")}${top}`);
}

/** What the table's rules label says: the server's words for the rules, and what the passes still allow. */
export function tableLabel(state) {
  return [state.rules_words?.label, state.position?.passes_left].filter(Boolean).join(" · ");
}

/** Money as players read it: "$52", "−$104" (a true minus sign before the dollar). */
export function formatMoney(amount) {
  return `${amount < 0 ? "\u2212" : ""}$${Math.abs(amount)}`;
}

/** A game's score as shown: money under Vegas scoring, points otherwise. */
export function formatScore(rules, score) {
  return rules && VEGAS.has(rules.scoring) ? formatMoney(score) : String(score);
}

export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}
