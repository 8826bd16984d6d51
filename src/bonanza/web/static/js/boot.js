// The page's opening, run before its first paint and before the rest of its code has
// loaded: the settings and the player's latest game came with the page (its
// page-data block, filled by the server), and a new random deal is asked for at once.
import { api } from "./api.js";
import { savedRules } from "./saved_rules.js";
import { show as showSettings } from "./settings.js";

/** The address's parameters that name a deal to start: a shared one, a typed one. */
export const LINK_PARAMS = ["share", "deal"];

function pageData() {
  try {
    const data = JSON.parse(document.getElementById("page-data").textContent);
    return data && typeof data === "object" ? data : {};
  } catch {
    return {}; // the page came without its data: the API is asked
  }
}

const data = pageData();
const params = new URL(window.location.href).searchParams;
const linked = LINK_PARAMS.some((name) => params.get(name));

/**
 * How the page opens. ``settings``: the server's, or undefined when they did not
 * come with the page. ``current``: the player's latest game, null before the first,
 * undefined when the page does not know. ``started``: the new random deal already
 * asked for (a promise of its state), when no game is in play and no link names a deal.
 */
export const opening = { settings: data.settings, current: data.current, started: null };

showSettings(data.settings);
if (!linked && data.current !== undefined && data.current?.status !== "playing") {
  opening.started = api.start({ rules: savedRules() });
  opening.started.catch(() => {}); // main.js reports a failure
}
