// The table of the game in play: its columns, foundations and whether it has a waste.
import { words } from "./page_data.js";
import { COLUMNS, FOUNDATIONS, STOCK, WASTE } from "./piles.js";

/** The standard game's table, as the server lays it out: what is laid out before a game is in. */
const STANDARD = Object.freeze({ ...words.defaults?.table });

/**
 * The table ``state`` is played on: ``columns`` and ``foundations`` as pile numbers, left to
 * right; ``piles``, every pile in play in the order the keyboard walks them.
 */
export function tableShape(state) {
  const table = { ...STANDARD, ...(state?.table ?? {}) };
  const columns = COLUMNS.slice(0, table.columns);
  const foundations = FOUNDATIONS.slice(0, table.foundations);
  const top = table.waste ? [STOCK, WASTE] : [STOCK];
  return { ...table, columns, foundations, piles: [...top, ...foundations, ...columns] };
}
