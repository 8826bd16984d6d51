// The rules the player last chose for a new deal, kept in this browser.
import { words } from "./page_data.js";

const RULES_KEY = "bonanza.rules";

/** The rules of the next random deal: the last ones chosen, else the server's standard game. */
export function savedRules() {
  try {
    const rules = JSON.parse(localStorage.getItem(RULES_KEY));
    if (rules && typeof rules === "object") return rules;
  } catch {
    // Fall through to the default.
  }
  return { ...words.defaults?.rules };
}

/** Keep ``rules`` for the next random deal. */
export function keepRules(rules) {
  localStorage.setItem(RULES_KEY, JSON.stringify(rules));
}
