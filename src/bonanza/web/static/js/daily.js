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
  days.replaceChildren(...calendar(answer.data.days.slice(1)));
}

const WEEK = 7;
const NOT_PLAYED = "not played";

/** The past days as month calendars, oldest first: each month named, its days in weekday columns (Monday first), each marked won, lost or not played. */
function calendar(days) {
  const months = new Map();
  for (const day of [...days].reverse()) {
    const month = day.day.slice(0, 7);
    if (!months.has(month)) months.set(month, []);
    months.get(month).push(day);
  }
  return [...months.values()].map((monthDays) => {
    const first = new Date(`${monthDays[0].day}T00:00:00Z`);
    const section = document.createElement("section");
    section.className = "daily-month";
    const title = document.createElement("h4");
    title.textContent = first.toLocaleDateString(undefined, { month: "long", year: "numeric", timeZone: "UTC" });
    const grid = document.createElement("div");
    grid.className = "daily-grid";
    // a Monday
    const monday = new Date(Date.UTC(2024, 0, 1));
    for (let d = 0; d < WEEK; d++) {
      const head = document.createElement("span");
      head.className = "weekday";
      head.setAttribute("aria-hidden", "true");
      head.textContent = new Date(monday.getTime() + d * 86400000)
        .toLocaleDateString(undefined, { weekday: "narrow", timeZone: "UTC" });
      grid.append(head);
    }
    // Monday first
    const offset = (first.getUTCDay() + WEEK - 1) % WEEK;
    for (let i = 0; i < offset; i++) grid.append(document.createElement("span"));
    for (const day of monthDays) grid.append(dayButton(day));
    section.append(title, grid);
    return section;
  });
}

function dayButton(day) {
  const button = document.createElement("button");
  const date = new Date(`${day.day}T00:00:00Z`);
  const name = date.toLocaleDateString(undefined, { day: "numeric", month: "long", timeZone: "UTC" });
  const result = day.result ? WORDS[day.result] : NOT_PLAYED;
  button.type = "submit";
  button.value = `daily:${day.day}`;
  button.className = `day ${day.result ?? "unplayed"}`;
  button.textContent = `${date.getUTCDate()}${day.result ? ` ${MARKS[day.result]}` : ""}`;
  button.setAttribute("aria-label", `${name}, ${result}`);
  button.title = `Daily deal of ${name} (${result}): a replay counts as a chosen deal`;
  return button;
}
