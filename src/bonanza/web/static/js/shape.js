// The table of the game in play: its columns, foundations and whether it has a waste.
import { COLUMNS, FOUNDATIONS, STOCK, WASTE } from "./piles.js";

/** Klondike's table: what a state without a ``table`` (an older answer) is laid out as. */
const KLONDIKE = Object.freeze({
  game: "klondike", title: "Klondike", columns: 7, foundations: 4, decks: 1, waste: true, stock: "waste",
});

/**
 * The table ``state`` is played on: ``columns`` and ``foundations`` as pile numbers, left to
 * right; ``piles``, every pile in play in the order the keyboard walks them.
 */
export function tableShape(state) {
  const table = { ...KLONDIKE, ...(state?.table ?? {}) };
  const columns = COLUMNS.slice(0, table.columns);
  const foundations = FOUNDATIONS.slice(0, table.foundations);
  const top = table.waste ? [STOCK, WASTE] : [STOCK];
  return { ...table, columns, foundations, piles: [...top, ...foundations, ...columns] };
}
