// Pile numbers as the server numbers them, and their names for people.

export const STOCK = 7;
export const WASTE = 8;
export const FOUNDATION = 9;
/** Columns 1 to 10 by pile number: Klondike's seven, then 8 to 10 after the first foundations. */
export const COLUMNS = Object.freeze([0, 1, 2, 3, 4, 5, 6, 13, 14, 15]);
/** Foundations by pile number, ``deck * 4 + suit``: C D H S, then the second deck's. */
export const FOUNDATIONS = Object.freeze([9, 10, 11, 12, 16, 17, 18, 19]);
export const SUITS = "CDHS";
export const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const RANK_NAMES = {
  A: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
  8: "Eight", 9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King",
};
export const RANKS = "A23456789TJQK";

/** The column's index from 0 (-1 for any other pile). */
export const columnIndex = (pile) => COLUMNS.indexOf(pile);
/** The foundation's index, ``deck * 4 + suit`` (-1 for any other pile). */
export const foundationIndex = (pile) => FOUNDATIONS.indexOf(pile);
export const isTableau = (pile) => columnIndex(pile) >= 0;
export const isFoundation = (pile) => foundationIndex(pile) >= 0;
/** The suit letter of a foundation pile. */
export const foundationSuit = (pile) => SUITS[foundationIndex(pile) % SUITS.length];

/** The column a tableau pile is in ``position`` (``position.columns`` is by index). */
export const columnOf = (position, pile) => position.columns[columnIndex(pile)];
/** The top card of a foundation pile in ``position``, or null. */
export const foundationTop = (position, pile) => position.foundations[foundationIndex(pile)] ?? null;

export function pileName(pile) {
  if (isTableau(pile)) return `Column ${columnIndex(pile) + 1}`;
  if (pile === STOCK) return "Stock";
  if (pile === WASTE) return "Waste";
  const index = foundationIndex(pile);
  const suit = SUIT_NAMES[index % SUIT_NAMES.length];
  const name = `${suit} foundation`;
  return index >= SUIT_NAMES.length ? `Second ${name}` : `${name[0].toUpperCase()}${name.slice(1)}`;
}

export function cardName(code) {
  return `${RANK_NAMES[code[0]]} of ${SUIT_NAMES[SUITS.indexOf(code[1])]}`;
}

export const isRed = (code) => code[1] === "D" || code[1] === "H";
export const rankLabel = (code) => (code[0] === "T" ? "10" : code[0]);

/** The foundation card under ``code`` (``7H`` gives ``6H``), or null for an ace. */
export function cardBelow(code) {
  const rank = RANKS.indexOf(code[0]);
  return rank > 0 ? RANKS[rank - 1] + code[1] : null;
}
