// Moves shown before the server answers: the table a legal move leads to, as far as the page
// can see it. A card the server has not named (a draw's, a deal's, one a move turns up) stays
// unnamed (null) until the answer names it: nothing hidden is guessed.
import { cardBelow, COLUMNS, FOUNDATIONS, isFoundation, isRed, RANKS, STOCK, SUITS, WASTE } from "./piles.js";

const rank = (code) => RANKS.indexOf(code[0]) + 1;
const same = (a, b) => a.source === b.source && a.dest === b.dest && a.count === b.count;
const top = (list) => (list.length ? list[list.length - 1] : null);
/** A column's top card: null when it is face down or not named yet, undefined when the column is empty. */
const columnTop = (c) => (c.up.length ? c.up[c.up.length - 1] : c.down ? null : undefined);

/** The card ``move`` takes from ``pos`` (the deepest of a run; null when it is not named). */
export function movingCard(pos, move) {
  const column = COLUMNS.indexOf(move.source);
  if (column >= 0) {
    const up = pos.columns[column].up;
    return up[up.length - move.count] ?? null;
  }
  if (move.source === WASTE) return move.dest === STOCK ? STOCK : top(pos.waste);
  if (move.source === STOCK) return STOCK;
  return pos.foundations[FOUNDATIONS.indexOf(move.source)];
}

/** Whether ``move`` is legal in ``pos`` and takes the card ``card`` (when given). */
export function playable(pos, move, card = undefined) {
  if (!pos.legal.some((m) => same(m, move))) return false;
  return card === undefined || movingCard(pos, move) === card;
}

/**
 * The state ``move`` leads to from ``state``, with the legal moves of that table and the figures
 * the server will give (``figures``); null when the move is not legal in it. The words wait for
 * the answer. ``shown``: the score shown now (timed scoring's clock takes from it).
 */
export function predict(state, move, shown = state.score) {
  const pos = state.position;
  if (state.status !== "playing" || !playable(pos, move)) return null;
  const next = {
    ...pos,
    columns: pos.columns.map((c) => ({ ...c, up: [...c.up], ...(c.down_cards ? { down_cards: [...c.down_cards] } : {}) })),
    stock: { ...pos.stock, ...(pos.stock.cards ? { cards: [...pos.stock.cards] } : {}) },
    waste: [...pos.waste],
    foundations: [...pos.foundations],
  };
  const { source, dest, count } = move;
  const stockCards = next.stock.cards;
  const fromStock = () => (stockCards ? stockCards.pop() : null);
  let cards;
  let revealed = false;
  if (dest === STOCK) {
    if (stockCards) next.stock.cards = [...next.waste].reverse();
    next.stock.count = next.waste.length;
    next.waste = [];
    next.recycles += 1;
    if (next.recycles_left !== null) next.recycles_left -= 1;
  } else if (source === STOCK) {
    next.stock.count -= count;
    if (dest === WASTE) for (let i = 0; i < count; i++) next.waste.push(fromStock());
    else next.columns.slice(0, count).forEach((c) => c.up.push(fromStock()));
  } else {
    const column = COLUMNS.indexOf(source);
    if (column >= 0) {
      const c = next.columns[column];
      cards = c.up.splice(-count);
      revealed = !c.up.length && c.down;
      if (revealed && c.down_cards) {
        // named already (thoughtful)
        c.up.push(c.down_cards.pop());
        c.down -= 1;
      // else the card under stays face down until the answer names it
      }
    } else if (source === WASTE) {
      cards = [next.waste.pop()];
    } else {
      const home = FOUNDATIONS.indexOf(source);
      cards = [next.foundations[home]];
      next.foundations[home] = cardBelow(cards[0]);
      next.home -= 1;
    }
    if (isFoundation(dest)) {
      next.foundations[FOUNDATIONS.indexOf(dest)] = cards[0];
      next.home += 1;
    } else {
      next.columns[COLUMNS.indexOf(dest)].up.push(...cards);
    }
  }
  next.legal = legalMoves(next, state);
  const { announce, steps, progress, records, in_records, first_win, ...rest } = state;
  return { ...rest, ...figures(state, move, revealed, shown, next.home === next.foundations.length * RANKS.length), position: next, last: move, guessed: true };
}

/**
 * The count of moves, score and bankroll after ``move`` (``revealed``: it turns a card up; ``won``:
 * it wins), as bonanza/core/scoring.py counts them. Timed scoring keeps the score shown when
 * the clock may have taken what is above 0 (a point won might pay its debt) and on a win (the
 * bonus is the server's clock's): the answer tells.
 */
function figures({ rules, score, moves, bankroll, position }, { source, dest }, revealed, shown, won) {
  const kind = rules.scoring;
  const home = isFoundation(dest) ? 1 : isFoundation(source) ? -1 : 0;
  let points = home * 5;
  if (kind === "none") points = 0;
  else if (kind[0] !== "v") {
    points = (revealed ? 5 : 0) + (home > 0 ? 10 : home ? -15 : source === WASTE && dest !== STOCK ? 5 : 0);
    if (dest === STOCK && (rules.draw === 1 || position.recycles > 1)) points -= rules.draw === 1 ? 100 : 20;
  }
  let next = kind[0] === "v" ? score + points : Math.max(0, score + points);
  if (kind === "timed" && (won || (points > 0 && !shown))) next = score;
  // Vegas keeps a card seen from the stock seen: no undo of a draw or a recycle.
  const drew = source === STOCK || dest === STOCK;
  return { moves: moves + 1, score: next, bankroll: bankroll == null ? bankroll : bankroll + next - score, can_undo: kind[0] !== "v" || !drew, can_redo: false };
}

/** Every legal move of ``pos`` under the rules of ``state``, as far as its named cards show. */
export function legalMoves(pos, { rules, table }) {
  const homes = pos.foundations.length;
  if (pos.home >= (homes / SUITS.length) * RANKS.length * SUITS.length) return [];
  const moves = [];
  const add = (source, dest, count = 1) => moves.push({ source, dest, count });
  const anyToEmpty = rules.empty_column === "any";
  // dealt onto every column: face-up cards need not be a run
  const loose = table.stock === "columns";
  const height = (home) => (pos.foundations[home] ? rank(pos.foundations[home]) : 0);
  const home = (card, source) => {
    for (let h = SUITS.indexOf(card[1]); h < homes; h += SUITS.length) {
      if (height(h) === rank(card) - 1) add(source, FOUNDATIONS[h]);
    }
  };
  const fits = (card, c) => {
    const onto = columnTop(c);
    if (onto === undefined) return anyToEmpty || card[0] === "K";
    return onto !== null && rank(onto) === rank(card) + 1 && isRed(onto) !== isRed(card);
  };
  const toColumns = (card, source, count = 1, from = -1) => {
    pos.columns.forEach((c, i) => {
      if (i !== from && fits(card, c)) add(source, COLUMNS[i], count);
    });
  };
  pos.columns.forEach((c, i) => {
    const up = c.up;
    if (!up.length || top(up) === null) return;
    home(top(up), COLUMNS[i]);
    let first = up.length - 1;
    if (!loose) first = 0;
    else {
      while (first > 0 && up[first - 1] && rank(up[first - 1]) === rank(up[first]) + 1
        && isRed(up[first - 1]) !== isRed(up[first])) first -= 1;
    }
    const last = rules.partial_runs ? up.length : first + 1;
    for (let at = first; at < last; at++) toColumns(up[at], COLUMNS[i], up.length - at, i);
  });
  const card = top(pos.waste);
  if (card) {
    home(card, WASTE);
    toColumns(card, WASTE);
  }
  if (rules.recall) {
    pos.foundations.forEach((code, h) => {
      if (code) toColumns(code, FOUNDATIONS[h]);
    });
  }
  if (pos.stock.count) {
    if (loose) add(STOCK, COLUMNS[0], Math.min(pos.columns.length, pos.stock.count));
    else add(STOCK, WASTE, Math.min(rules.draw, pos.stock.count));
  } else if (pos.waste.length && (pos.recycles_left === null || pos.recycles_left > 0)) {
    add(WASTE, STOCK, pos.waste.length);
  }
  return moves;
}
