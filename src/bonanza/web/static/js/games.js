// The games the new-deal dialog offers: Klondike and its relatives, each a table and the rules it starts with.

/** The rule fields that lay a table out (the server's ``Rules`` leaves them out for Klondike). */
export const TABLE_FIELDS = Object.freeze(["decks", "columns", "deal_shape", "stock_mode", "waste_start"]);

const game = (id, label, table, rules, fixed = []) => Object.freeze({ id, label, table, rules, fixed });

/**
 * Each game as the server's presets have it (docs/variants.md): ``table``, its table fields;
 * ``rules``, what choosing it sets; ``fixed``, the fields the game allows no choice in.
 */
export const GAMES = Object.freeze([
  game("klondike", "Klondike", {}, { draw: 1, passes: null, empty_column: "king", recall: true }),
  game("double-klondike", "Double Klondike", { decks: 2, columns: 9 },
    { draw: 1, passes: null, empty_column: "king", recall: true }),
  game("double-klondike-3", "Double Klondike, 3-card draw", { decks: 2, columns: 9 },
    { draw: 3, passes: null, empty_column: "king", recall: true }),
  game("westcliff", "Westcliff", { columns: 10, deal_shape: "three", waste_start: 1 },
    { draw: 1, passes: 1, empty_column: "any", recall: false }),
  game("easthaven", "Easthaven", { deal_shape: "three", stock_mode: "columns" },
    { draw: 1, passes: 1, empty_column: "any", recall: true }, ["draw", "passes"]),
]);

const KLONDIKE = GAMES[0];

/** The game with this id (Klondike for any other). */
export function gameById(id) {
  return GAMES.find((g) => g.id === id) ?? KLONDIKE;
}

/** The game ``rules`` are played on: its table, and for Double Klondike its draw. */
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
