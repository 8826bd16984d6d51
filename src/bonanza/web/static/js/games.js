// The games the new-deal dialog offers: Klondike and its relatives, each a table and the
// rules it starts with, as the server's presets have them (its page words, docs/variants.md).
import { words } from "./page_data.js";

/** The rule fields that lay a table out (the server's ``Rules`` leaves them out for Klondike). */
export const TABLE_FIELDS = Object.freeze(words.table_fields ?? []);

/**
 * Each game: ``id`` and ``label``; ``table``, its table fields; ``rules``, what choosing it
 * sets; ``fixed``, the fields the game allows no choice in; ``note``, what the dialog says of it.
 */
export const GAMES = Object.freeze(words.games ?? []);

const KLONDIKE = GAMES[0];

/** The game with this id (Klondike for any other). */
export function gameById(id) {
  return GAMES.find((g) => g.id === id) ?? KLONDIKE;
}

/** The game ``rules`` are played on: its table, and for a table offered with more than one draw, its draw. */
export function gameOf(rules) {
  const sameTable = (g) => TABLE_FIELDS.every((name) => (rules?.[name] ?? null) === (g.table[name] ?? null));
  const found = GAMES.filter(sameTable);
  return found.find((g) => g.rules.draw === rules?.draw) ?? found[0] ?? KLONDIKE;
}

/** ``rules`` without the table fields, then the table of ``g`` (its fixed fields too). */
export function onTable(rules, g) {
  const played = Object.fromEntries(Object.entries(rules).filter(([name]) => !TABLE_FIELDS.includes(name)));
  for (const name of g.fixed) played[name] = g.rules[name];
  return { ...played, ...g.table };
}
