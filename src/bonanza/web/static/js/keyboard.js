// Keyboard play: shortcuts, and moving focus between piles and cards.
import { columnOf, isTableau, STOCK, WASTE } from "./piles.js";

/** The digit keys that jump to columns 1 to 10 ("0" is column 10). */
const COLUMN_KEYS = "1234567890";

function focusedSpot(view) {
  const el = document.activeElement;
  if (!el || !view.root.contains(el)) return null;
  if (el.classList.contains("card")) return { pile: Number(el.dataset.pile), index: Number(el.dataset.index), el };
  if (el.classList.contains("slot")) return { pile: Number(el.dataset.pile), index: null, el };
  return null;
}

/** The pile of ``piles`` whose slot is nearest ``slot`` across the table. */
function nearest(geo, slot, piles) {
  const distance = (pile) => Math.abs(geo.slots[pile].x - slot.x);
  return piles.reduce((best, pile) => (distance(pile) < distance(best) ? pile : best));
}

/** Every pile in play as the player sees them: row by row, left to right (left-handed, the stock is last). */
function seenOrder(geo) {
  const at = (pile) => geo.slots[pile];
  return [...geo.shape.piles].sort((a, b) => at(a).y - at(b).y || at(a).x - at(b).x);
}

export function attachKeyboard(view, game, commands) {
  function focusPile(pile) {
    view.focusTarget(pile).focus();
  }

  function moveFocus(spot, key) {
    const pos = game.state.position;
    const { geo } = view;
    const { piles, columns } = geo.shape;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const seen = seenOrder(geo);
      const i = seen.indexOf(spot.pile);
      const next = seen[(i + (key === "ArrowRight" ? 1 : seen.length - 1)) % seen.length];
      focusPile(next);
      return;
    }
    const up = key === "ArrowUp";
    const topRow = piles.filter((pile) => !isTableau(pile) && geo.slots[pile].y === geo.slots[STOCK].y);
    if (isTableau(spot.pile)) {
      const c = columnOf(pos, spot.pile);
      const top = c.down + c.up.length - 1;
      const index = spot.index ?? top;
      if (up && index > c.down && spot.index !== null) {
        view.cardElement(spot.pile, index - 1)?.focus();
        return;
      }
      if (!up && spot.index !== null && index < top) {
        view.cardElement(spot.pile, index + 1)?.focus();
        return;
      }
      if (up) focusPile(nearest(geo, geo.slots[spot.pile], topRow));
      return;
    }
    if (!up) focusPile(nearest(geo, geo.slots[spot.pile], columns));
  }

  function activate(spot) {
    if (spot.pile === STOCK) {
      game.tapStock();
      return;
    }
    if (game.selection) {
      if (game.targets.has(spot.pile)) {
        // Then the focus goes to the pile's new top card, the one just put there, so its
        // ring does not cut across it from the card under it.
        Promise.resolve(game.dropSelection(spot.pile)).then(() => focusPile(spot.pile));
        return;
      }
      if (game.selection.pile === spot.pile) {
        game.clearSelection();
        game.dom.announce("Put down");
        return;
      }
    }
    const pos = game.state.position;
    let index = spot.index;
    if (index === null) {
      if (isTableau(spot.pile)) {
        const c = columnOf(pos, spot.pile);
        if (!c.up.length) return;
        index = c.down + c.up.length - 1;
      } else if (spot.pile === WASTE) {
        if (!pos.waste.length) return;
        index = pos.waste.length - 1;
      } else {
        index = 0;
      }
    }
    game.select(spot.pile, index, { keyboard: true });
  }

  document.addEventListener("keydown", (event) => {
    if (document.querySelector("dialog[open]")) return;
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    if (!game.state) return;
    const spot = focusedSpot(view);
    const key = event.key;
    if (event.ctrlKey || event.metaKey || event.altKey) {
      if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "z") {
        event.preventDefault();
        if (event.shiftKey) commands.redo();
        else commands.undo();
      } else if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "y") {
        event.preventDefault();
        commands.redo();
      }
      return;
    }
    if (spot && (key === "Enter" || key === " ")) {
      event.preventDefault();
      activate(spot);
      return;
    }
    if (spot && key.startsWith("Arrow")) {
      event.preventDefault();
      moveFocus(spot, key);
      return;
    }
    if (key.startsWith("Arrow") && !spot) {
      event.preventDefault();
      focusPile(STOCK);
      return;
    }
    if (document.activeElement instanceof HTMLButtonElement && (key === " " || key === "Enter")) return;
    switch (key) {
      case " ":
        event.preventDefault();
        game.tapStock();
        break;
      case "Escape":
        if (game.selection) game.dom.announce("Put down");
        game.clearSelection();
        break;
      case "u": case "U": commands.undo(); break;
      case "y": case "Y": commands.redo(); break;
      case "h": case "H": commands.hint(); break;
      // Shift+W: it peeks, so it asks first
      case "W": commands.winnable(); break;
      case "a": case "A": commands.auto(); break;
      case "n": case "N": commands.newDeal(); break;
      case "m": case "M": commands.mute(); break;
      case "?": commands.help(); break;
      default: {
        const at = key.length === 1 ? COLUMN_KEYS.indexOf(key) : -1;
        const column = at >= 0 ? view.geo?.shape.columns[at] : undefined;
        if (column === undefined) return;
        event.preventDefault();
        focusPile(column);
      }
    }
  });
}
