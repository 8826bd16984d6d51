// The table view: pile slots and card elements, kept in step with the state.
import { backCard, faceCard } from "./cards.js";
import { applyCardSize, cardPlaces, dropZone, geometry, onLayoutChange } from "./layout.js";
import { Motion } from "./motion.js";
import {
  cardName, columnOf, COLUMNS, FOUNDATIONS, foundationSuit, foundationTop, isFoundation, isTableau, pileName, STOCK, WASTE,
} from "./piles.js";

/** Every pile any game has: each gets its slot, shown when the game in play has the pile. */
const ALL_PILES = [STOCK, WASTE, ...FOUNDATIONS, ...COLUMNS];

export class TableView {
  constructor(root) {
    this.root = root;
    // key -> element
    this.cards = new Map();
    // key -> item
    this.places = new Map();
    this.slots = {};
    this.geo = null;
    this.state = null;
    this.columnBottoms = {};
    this.motion = new Motion(root);
    for (const pile of ALL_PILES) this.slots[pile] = this.makeSlot(pile);
    onLayoutChange(() => this.relayout());
  }

  /** Lay the table out again for the hand and card size settings. */
  relayout() {
    if (this.state) this.render(this.state, this.ui);
  }

  makeSlot(pile) {
    const el = document.createElement("div");
    el.className = "slot";
    el.dataset.pile = String(pile);
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    if (isTableau(pile)) el.classList.add("column");
    if (pile === WASTE) el.classList.add("waste");
    if (pile === STOCK) {
      el.classList.add("stock");
      const recycle = document.createElement("span");
      recycle.className = "recycle";
      recycle.textContent = "↻";
      recycle.setAttribute("aria-hidden", "true");
      const count = document.createElement("span");
      count.className = "count";
      count.setAttribute("aria-hidden", "true");
      el.append(recycle, count);
    }
    if (isFoundation(pile)) {
      el.classList.add("foundation");
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", "0 0 100 100");
      svg.setAttribute("class", "mark");
      svg.setAttribute("aria-hidden", "true");
      const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
      use.setAttribute("href", `#suit-${foundationSuit(pile)}`);
      svg.append(use);
      el.append(svg);
    }
    this.root.append(el);
    return el;
  }

  /**
   * Redraw for ``state``; ``ui`` holds the selection, targets and hint marks.
   * ``beat``: how many moves of the same answer move first.
   */
  render(state, ui = {}, { beat = 0 } = {}) {
    const before = this.state;
    this.state = state;
    this.ui = ui;
    const rect = this.root.getBoundingClientRect();
    // The same game on the same table and settings keeps its card size while it fits.
    const { size = "", hand = "" } = document.documentElement.dataset;
    const tableKey = `${rect.width}x${rect.height} ${size} ${hand} ${state?.id}`;
    const keep = tableKey === this.tableKey && this.geo ? this.geo.cw : null;
    this.tableKey = tableKey;
    this.geo = geometry(rect.width, rect.height, state, undefined, keep);
    const geo = this.geo;
    applyCardSize(this.root, geo);
    for (const [pile, el] of Object.entries(this.slots)) {
      const slot = geo.slots[pile];
      el.hidden = !slot;
      if (!slot) continue;
      el.style.left = `${slot.x}px`;
      el.style.top = `${slot.y}px`;
      el.style.width = `${slot.w}px`;
      el.style.height = `${slot.h}px`;
    }
    const scene = this.motion.scene(before, state, geo, beat);
    const { items, columnBottoms } = cardPlaces(state, geo, this.places);
    for (const item of items) {
      // A card face up that the server has not named yet (a move's, before its answer): a back.
      item.pending = item.face === null && !item.down && !item.stock;
      if (item.pending) item.key = `pending-${item.pile}-${item.index}`;
    }
    this.columnBottoms = columnBottoms;
    const seen = new Set();
    const selected = ui.selection ? this.runKeys(ui.selection.pile, ui.selection.index, items) : new Set();
    const hinted = ui.hint ? this.runKeys(ui.hint.source, ui.hint.index, items) : new Set();
    if (ui.hint?.source === STOCK) {
      // a draw: the stock
      for (const item of items) if (item.stock) hinted.add(item.key);
    }
    const targets = new Set(ui.targets ?? []);
    if (ui.hint) targets.add(ui.hint.dest);
    // pile -> key of its top card (marked when the pile is a target)
    const topOf = new Map();
    for (const item of items) {
      if (item.stock || item.under) continue;
      const top = topOf.get(item.pile);
      if (!top || item.index >= top.index) topOf.set(item.pile, item);
    }
    const marked = new Set([...targets].map((p) => topOf.get(p)?.key).filter(Boolean));
    items.forEach((item, order) => {
      seen.add(item.key);
      let el = this.cards.get(item.key);
      const wantFace = item.face !== null;
      if (el && (el.classList.contains("back") === wantFace)) {
        el.remove();
        el = null;
      }
      const fresh = !el;
      if (fresh) {
        el = wantFace ? faceCard(item.face) : backCard();
        el.dataset.key = item.key;
        this.root.append(el);
        this.cards.set(item.key, el);
      }
      const prev = this.places.get(item.key);
      this.places.set(item.key, item);
      el.dataset.pile = String(item.pile);
      el.dataset.index = String(item.index);
      el.classList.toggle("down-visible", wantFace && item.down && !item.stock);
      el.classList.toggle("stock-card", !!item.stock);
      el.classList.toggle("pending", item.pending);
      el.classList.toggle("foundation-card", isFoundation(item.pile));
      el.classList.toggle("selected", selected.has(item.key));
      el.classList.toggle("hint", hinted.has(item.key));
      el.classList.toggle("target", marked.has(item.key) && !selected.has(item.key));
      el.classList.remove("lifted");
      el.style.zIndex = String(this.zFor(item, order));
      const at = `translate(${item.x}px, ${item.y}px)`;
      el.style.setProperty("--at", at);
      const from = fresh ? null : el.style.transform;
      // a card new to the page starts no transition: it is simply there
      el.style.transform = at;
      scene?.shown.push([el, item, { fresh, prev, from }]);
      if (wantFace) {
        el.setAttribute("aria-label", this.cardLabel(item, prev));
        el.tabIndex = -1;
      }
    });
    for (const [key, el] of this.cards) {
      if (!seen.has(key)) {
        if (!scene?.adopt(el, this.places.get(key))) el.remove();
        this.cards.delete(key);
        this.places.delete(key);
      }
    }
    this.labelSlots(state, ui);
    scene?.play();
  }

  zFor(item, order) {
    if (isFoundation(item.pile)) return 100 + order;
    return 10 + order;
  }

  cardLabel(item) {
    let where = pileName(item.pile);
    if (item.down) where += ", face down";
    return `${cardName(item.face)}, ${where}`;
  }

  labelSlots(state, ui) {
    const pos = state.position;
    const targets = new Set(ui.targets ?? []);
    for (const [pile, el] of Object.entries(this.slots)) {
      const p = Number(pile);
      if (el.hidden) continue;
      el.classList.toggle("target", targets.has(p));
      const hinted = ui.hint?.source === p || ui.hint?.dest === p;
      el.classList.toggle("hint", hinted);
      let label = pileName(p);
      if (isTableau(p)) {
        const c = columnOf(pos, p);
        if (!c.down && !c.up.length) label += ", empty";
        else {
          // none, or not named yet, before a move's answer
          const top = c.up[c.up.length - 1];
          if (c.down) label += `, ${c.down} face down`;
          if (top) label += `, top ${cardName(top)}`;
          if (top && c.up.length > 1 && c.up[0]) label += `, run from ${cardName(c.up[0])}`;
        }
      } else if (p === STOCK) {
        const n = pos.stock.count;
        const press = this.geo.shape.waste ? "press to draw" : "press to deal a card onto every column";
        const spent = n === 0 && pos.recycles_left === 0;
        if (n) label += `, ${n} cards, ${press}`;
        else if (spent) label += ", empty, no passes left";
        else label += pos.waste.length ? ", empty, press to turn the waste over" : ", empty";
        el.querySelector(".count").textContent = n ? String(n) : "";
        el.classList.toggle("empty", n === 0);
        el.classList.toggle("spent", spent);
        // nothing to turn over: no ↻
        el.classList.toggle("no-waste", !this.geo.shape.waste);
      } else if (p === WASTE) {
        const top = pos.waste[pos.waste.length - 1];
        label += top ? `, top ${cardName(top)}` : pos.waste.length ? "" : ", empty";
      } else {
        const top = foundationTop(pos, p);
        label += top ? `, up to ${cardName(top)}` : ", empty";
      }
      if (targets.has(p)) label += ", drop here";
      if (ui.hint?.source === p) label += ", hint: move from here";
      else if (ui.hint?.dest === p) label += ", hint: move here";
      el.setAttribute("aria-label", label);
    }
  }

  /** The keys of the run from (pile, index) to the top of the pile. */
  runKeys(pile, index, items = [...this.places.values()]) {
    const keys = new Set();
    for (const item of items) {
      if (item.pile !== pile || item.under || pile === STOCK) continue;
      if (isTableau(pile) ? item.index >= index : item.index === index) keys.add(item.key);
    }
    return keys;
  }

  /** Elements of the run from (pile, index), deepest first. */
  runElements(pile, index) {
    const keys = this.runKeys(pile, index);
    return [...keys]
      .map((key) => this.cards.get(key))
      .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
  }

  cardElement(pile, index) {
    for (const [key, item] of this.places) {
      if (item.pile === pile && item.index === index && !item.under) return this.cards.get(key);
    }
    return null;
  }

  /** The element to focus for a pile: its top card, else its slot. */
  focusTarget(pile) {
    const pos = this.state?.position;
    if (!pos) return this.slots[pile];
    if (isTableau(pile)) {
      const c = columnOf(pos, pile);
      if (c?.up.length) return this.cardElement(pile, c.down + c.up.length - 1) ?? this.slots[pile];
    } else if (pile === WASTE && pos.waste.length) {
      return this.cardElement(pile, pos.waste.length - 1) ?? this.slots[pile];
    } else if (isFoundation(pile) && foundationTop(pos, pile)) {
      return this.cardElement(pile, 0) ?? this.slots[pile];
    }
    return this.slots[pile];
  }

  zone(pile) {
    return dropZone(this.geo, pile, this.columnBottoms);
  }

  /** Where the run's cards sit, for dragging. */
  place(key) {
    return this.places.get(key);
  }
}

