// The new-deal dialog's daily deal (statistics and calendar) and its deal ID check.
import { formatTime } from "./format.js";

const MARKS = { won: "✓", lost: "✗", playing: "…" };
const WORDS = { won: "won", lost: "lost", playing: "in play" };

async function call(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => null);
  return { ok: response.ok, status: response.status, data };
}

/**
 * What the deal field asks for: {share} for a share link, {deal} for a deal
 * number or code of ``decks`` decks (or a ?deal= link), or null when the server says it is none.
 */
export async function readDealField(text, decks = 1) {
  if (/[?&]share=/.test(text)) {
    const share = new URL(text, window.location.origin).searchParams.get("share");
    return share ? { share } : null;
  }
  if (/[?&]deal=/.test(text)) text = new URL(text, window.location.origin).searchParams.get("deal") || "";
  const answer = await call("POST", "/api/deals/check", { deal: text, decks });
  if (answer.ok) return { deal: text };
  if (answer.status === 422) return null;
  throw new Error((answer.data && answer.data.error) || `HTTP ${answer.status}`);
}

/** A day ("2026-12-05") as the player's locale writes it: "December 5, 2026", "5 December 2026". */
export function dayName(day) {
  const date = new Date(`${day}T00:00:00Z`);
  return date.toLocaleDateString(undefined, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

/** The daily streak line of a won daily deal's dialog, from the server's daily statistics (null: unknown). */
export async function dailyStreakLine(draw) {
  const answer = await call("GET", `/api/daily?draw=${draw}`);
  if (!answer.ok) return null;
  const s = answer.data.stats;
  const days = (n) => `${n} day${n === 1 ? "" : "s"}`;
  return `Daily streak ${days(s.current_streak)} (best ${days(s.best_streak)}); ${s.won} of ${s.played} daily deals won`;
}

/** Fill the daily part of the dialog for a draw mode: its statistics and the calendar. */
export async function showDaily(draw) {
  const stats = document.getElementById("daily-stats");
  const days = document.getElementById("daily-days");
  document.getElementById("daily-draw").textContent = `(${draw}-card draw)`;
  const answer = await call("GET", `/api/daily?draw=${draw}`);
  if (!answer.ok) {
    stats.textContent = (answer.data && answer.data.error) || "The daily deals cannot be shown now.";
    days.replaceChildren();
    return;
  }
  const s = answer.data.stats;
  const best = s.best_time === null ? "–" : formatTime(s.best_time);
  stats.textContent = `Daily deals played ${s.played}, won ${s.won}, best time ${best}, ` +
    `streak ${s.current_streak} (best ${s.best_streak})`;
  days.replaceChildren(...answer.data.days.slice(1).map((day) => {
    const button = document.createElement("button");
    const date = new Date(`${day.day}T00:00:00Z`);
    const name = date.toLocaleDateString(undefined, { day: "numeric", month: "long", timeZone: "UTC" });
    button.type = "submit";
    button.value = `daily:${day.day}`;
    button.textContent = `${date.getUTCDate()}${day.result ? ` ${MARKS[day.result]}` : ""}`;
    button.setAttribute("aria-label", `${name}${day.result ? `, ${WORDS[day.result]}` : ""}`);
    button.title = `Daily deal of ${name}: a replay counts as a chosen deal`;
    return button;
  }));
}
