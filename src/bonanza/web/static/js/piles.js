// Pile numbers as the server numbers them, and their names for people.

export const STOCK = 7;
export const WASTE = 8;
export const FOUNDATION = 9;
export const SUITS = "CDHS";
export const SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"];
const RANK_NAMES = {
  A: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven",
  8: "Eight", 9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King",
};
export const RANKS = "A23456789TJQK";

export const isTableau = (pile) => pile >= 0 && pile < 7;
export const isFoundation = (pile) => pile >= FOUNDATION && pile < FOUNDATION + 4;

export function pileName(pile) {
  if (isTableau(pile)) return `Column ${pile + 1}`;
  if (pile === STOCK) return "Stock";
  if (pile === WASTE) return "Waste";
  return `${SUIT_NAMES[pile - FOUNDATION][0].toUpperCase()}${SUIT_NAMES[pile - FOUNDATION].slice(1)} foundation`;
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
