// The page's opening, run before its first paint and before the rest of its code has
// loaded: the settings and the player's latest game came with the page (its
// page-data block, filled by the server), and so did a new player's first deal;
// otherwise a new random deal is asked for at once.
import { api } from "./api.js";
import { pageData } from "./page_data.js";
import { savedRules } from "./saved_rules.js";
import { show as showSettings } from "./settings.js";

/** The address's parameters that name a deal to start: a shared one, a typed one. */
export const LINK_PARAMS = ["share", "deal"];

/** Whether the deal that came with the page (``started``) is under the rules the player last chose. */
function dealtAsSaved(started) {
  if (!started || typeof started !== "object" || !started.rules) return false;
  const rules = savedRules();
  return Object.keys(rules).every((name) => rules[name] === started.rules[name]);
}

const data = pageData;
const params = new URL(window.location.href).searchParams;
const linked = LINK_PARAMS.some((name) => params.get(name));

/**
 * How the page opens. ``settings``: the server's, or undefined when they did not
 * come with the page. ``current``: the player's latest game, null before the first,
 * undefined when the page does not know. ``started``: the new random deal (a promise
 * of its state), when no game is in play and no link names a deal: the one that came
 * with the page, if it did under the player's rules, else one asked for at once.
 */
export const opening = { settings: data.settings, current: data.current, started: null };

showSettings(data.settings);
if (!linked && data.current !== undefined && data.current?.status !== "playing") {
  opening.started = dealtAsSaved(data.started)
    ? Promise.resolve(data.started)
    : api.start({ rules: savedRules() });
  // main.js reports a failure
  opening.started.catch(() => {});
}
