// Pointer input on the table: drag a card or run by its top card, or tap it.
import { columnOf, isTableau, STOCK } from "./piles.js";

const DRAG_START_PX = 6;
// keys held with another, which do nothing by themselves
const MODIFIER_KEYS = new Set(["Shift", "Control", "Alt", "Meta"]);

function overlap(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

export function attachPointer(root, view, game) {
  // {pile, index, key, x, y, id, els, starts, dragging, moves}
  let press = null;

  root.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || press) return;
    const cardEl = event.target.closest(".card");
    const slotEl = event.target.closest(".slot");
    if (!cardEl && !slotEl) {
      game.clearSelection();
      return;
    }
    if (cardEl) {
      const pile = Number(cardEl.dataset.pile);
      const index = Number(cardEl.dataset.index);
      press = { pile, index, key: cardEl.dataset.key, x: event.clientX, y: event.clientY, id: event.pointerId, dragging: false, card: true };
    } else {
      press = { pile: Number(slotEl.dataset.pile), x: event.clientX, y: event.clientY, id: event.pointerId, dragging: false, card: false };
    }
    try {
      root.setPointerCapture(event.pointerId);
    } catch {
      // Capture is a nicety (synthetic events may not allow it).
    }
    event.preventDefault();
  });

  root.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id || !press.card) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < DRAG_START_PX) return;
      if (!startDrag()) return;
    }
    press.els.forEach((el, i) => {
      const s = press.starts[i];
      el.style.transform = `translate(${s.x + dx}px, ${s.y + dy}px)`;
    });
  });

  function startDrag() {
    const { pile, index } = press;
    if (pile === STOCK || Number.isNaN(index) || index < 0) return false;
    if (isTableau(pile)) {
      const c = columnOf(game.state.position, pile);
      if (index < c.down) return false;
    }
    const els = view.runElements(pile, index);
    // not named yet
    if (!els.length || els.some((el) => el.classList.contains("pending"))) return false;
    press.dragging = true;
    // the run may be carried over the bars, drawn above them
    root.classList.add("dragging");
    press.els = els;
    press.starts = els.map((el) => view.place(el.dataset.key));
    press.moves = game.movesFor(pile, index);
    game.selection = null;
    game.targets = new Set(press.moves.map((m) => m.dest));
    game.hintMark = null;
    game.render();
    els.forEach((el, i) => {
      el.classList.add("lifted");
      el.style.zIndex = String(1000 + i);
    });
    return true;
  }

  function finish(event, cancelled) {
    if (!press || event.pointerId !== press.id) return;
    const p = press;
    press = null;
    root.classList.remove("dragging");
    if (!p.dragging) {
      if (cancelled) return;
      if (p.card) game.tapCard(p.pile, p.index, p.key, { x: p.x, y: p.y });
      else game.tapPile(p.pile);
      return;
    }
    const dx = event.clientX - p.x;
    const dy = event.clientY - p.y;
    const first = p.starts[0];
    const rect = { x: first.x + dx, y: first.y + dy, w: view.geo.cw, h: view.geo.ch };
    let best = null;
    let bestArea = 0;
    if (!cancelled) {
      for (const move of p.moves) {
        const area = overlap(rect, view.zone(move.dest));
        if (area > bestArea) {
          best = move;
          bestArea = area;
        }
      }
    }
    game.targets = new Set();
    if (best) {
      game.play(best);
    } else {
      // snap back
      game.render();
      if (!cancelled && Math.hypot(dx, dy) > view.geo.cw / 2) game.sound.play("bad");
    }
  }

  /** Let go of the press: the run dragged goes back, and the pointer's release plays nothing. */
  function cancel() {
    const p = press;
    press = null;
    root.classList.remove("dragging");
    try {
      root.releasePointerCapture(p.id);
    } catch {
      // not captured
    }
    if (!p.dragging) return;
    game.targets = new Set();
    game.render();
  }

  // A key pressed mid-drag (Escape, or a command such as undo) ends the drag first.
  document.addEventListener("keydown", (event) => {
    if (press && !MODIFIER_KEYS.has(event.key)) cancel();
  }, { capture: true });

  root.addEventListener("pointerup", (event) => finish(event, false));
  root.addEventListener("pointercancel", (event) => finish(event, true));
  root.addEventListener("contextmenu", (event) => event.preventDefault());
}
