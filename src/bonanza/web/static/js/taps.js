// Taps and clicks on the table: one tap plays a card's only move (or picks it up),
// a double tap sends it home, and a double tap is one gesture, never two moves.
import { isFoundation, STOCK } from "./piles.js";

/** The longest gap between the two taps of a double tap. */
const DOUBLE_TAP_MS = 380;
/** How far apart (CSS px) the two taps of a double tap may land, as a finger wanders. */
const DOUBLE_TAP_SLOP_PX = 30;

/** Whether two tap points lie within a double tap's reach of each other. */
export function near(a, b) {
  return Boolean(a && b) && Math.hypot(a.x - b.x, a.y - b.y) <= DOUBLE_TAP_SLOP_PX;
}

/** A tap on the stock: a draw, else the recycle, else why neither. */
export function tapStock(game) {
  game.clearSelection();
  const move = game.state.position.legal.find((m) => m.source === STOCK || m.dest === STOCK);
  if (move) return game.play(move);
  const pos = game.state.position;
  if (!pos.stock.count && pos.waste.length) {
    game.dom.say("No more passes through the stock");
    game.sound.play("bad");
  }
  return game.queue;
}

/** A tap (or click) on the card at (pile, index); ``point``: where it landed. */
export function tapCard(game, pile, index, key, point = null) {
  const now = performance.now();
  // A double tap or double-click is one gesture. Once its first tap has played a
  // card, a quick second tap on that card, or at the same place on its pile (where
  // the card it uncovered now lies), is its second half: it plays nothing more.
  // A quick tap elsewhere, or on the stock, counts.
  const held = game.suppressUntil;
  if (held.pile === pile && now < held.time && (held.key === key || near(held.point, point))) {
    return;
  }
  if (pile === STOCK) {
    tapStock(game);
    return;
  }
  const isDouble = game.lastTap.key === key && now - game.lastTap.time < DOUBLE_TAP_MS;
  game.lastTap = { key, time: now };
  if (game.selection && game.targets.has(pile)) {
    game.dropSelection(pile);
    return;
  }
  const moves = game.movesFor(pile, index);
  if (isDouble) {
    const home = moves.find((m) => isFoundation(m.dest));
    if (home) {
      game.clearSelection();
      game.suppressUntil = { pile, key, point, time: now + DOUBLE_TAP_MS };
      game.play(home);
      return;
    }
  }
  if (game.selection && game.selection.pile === pile && game.selection.index === index) {
    game.clearSelection();
    return;
  }
  if (moves.length === 1 && game.prefs.one_tap) {
    game.clearSelection();
    game.suppressUntil = { pile, key, point, time: now + DOUBLE_TAP_MS };
    game.play(moves[0]);
  // one tap off: pick it up; a target, a drag or a double tap plays it
  } else if (moves.length >= 1) {
    game.select(pile, index);
  } else {
    game.clearSelection();
    const el = game.view.cardElement(pile, index);
    if (el) {
      el.classList.remove("shake");
      void el.offsetWidth;
      el.classList.add("shake");
    }
    game.sound.play("bad");
  }
}

/** A tap on an empty part of a pile (its slot). */
export function tapPile(game, pile) {
  if (pile === STOCK) {
    tapStock(game);
    return;
  }
  if (game.selection && game.targets.has(pile)) {
    game.dropSelection(pile);
    return;
  }
  game.clearSelection();
}
