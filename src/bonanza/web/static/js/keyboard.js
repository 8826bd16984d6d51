// Keyboard play: shortcuts, and moving focus between piles and cards.
import { FOUNDATION, isTableau, STOCK, WASTE } from "./piles.js";
import { PILE_ORDER } from "./table.js";

const TOP_ROW = [STOCK, WASTE, null, FOUNDATION, FOUNDATION + 1, FOUNDATION + 2, FOUNDATION + 3];

function focusedSpot(view) {
  const el = document.activeElement;
  if (!el || !view.root.contains(el)) return null;
  if (el.classList.contains("card")) return { pile: Number(el.dataset.pile), index: Number(el.dataset.index), el };
  if (el.classList.contains("slot")) return { pile: Number(el.dataset.pile), index: null, el };
  return null;
}

function columnOf(pile) {
  if (isTableau(pile)) return pile;
  return TOP_ROW.indexOf(pile);
}

export function attachKeyboard(view, game, commands) {
  function focusPile(pile) {
    view.focusTarget(pile).focus();
  }

  function moveFocus(spot, key) {
    const pos = game.state.position;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      const i = PILE_ORDER.indexOf(spot.pile);
      const next = PILE_ORDER[(i + (key === "ArrowRight" ? 1 : PILE_ORDER.length - 1)) % PILE_ORDER.length];
      focusPile(next);
      return;
    }
    const up = key === "ArrowUp";
    if (isTableau(spot.pile)) {
      const c = pos.columns[spot.pile];
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
      if (up) {
        const target = TOP_ROW[spot.pile] ?? WASTE;
        focusPile(target);
      }
      return;
    }
    if (!up) focusPile(Math.max(0, columnOf(spot.pile)));
  }

  function activate(spot) {
    if (spot.pile === STOCK) {
      game.tapStock();
      return;
    }
    if (game.selection) {
      if (game.targets.has(spot.pile)) {
        game.dropSelection(spot.pile);
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
        const c = pos.columns[spot.pile];
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
        game.clearSelection();
        break;
      case "u": case "U": commands.undo(); break;
      case "y": case "Y": commands.redo(); break;
      case "h": case "H": commands.hint(); break;
      case "W": commands.winnable(); break; // Shift+W: it peeks, so it asks first
      case "a": case "A": commands.auto(); break;
      case "n": case "N": commands.newDeal(); break;
      case "m": case "M": commands.mute(); break;
      case "?": commands.help(); break;
      default: return;
    }
  });
}
