// Where every pile and card goes on a table of a given size.
import { cardBelow, FOUNDATION, STOCK, WASTE } from "./piles.js";

const RATIO = 1.4;

/** Card size, gaps and the rectangle of each pile's slot. */
export function geometry(width, height) {
  const gap = Math.max(4, Math.round(width * 0.012));
  let cw = Math.floor((width - gap * 8) / 7);
  // Leave room for the top row and a column of about 3.3 card heights.
  cw = Math.min(cw, Math.floor((height - gap * 3) / (RATIO * 4.3)), 124);
  cw = Math.max(cw, 30);
  const ch = Math.round(cw * RATIO);
  const total = cw * 7 + gap * 6;
  const left = Math.max(gap, Math.floor((width - total) / 2));
  const x = (i) => left + i * (cw + gap);
  const rowTop = gap;
  const colTop = rowTop + ch + Math.round(gap * 1.8);
  const slots = {};
  for (let i = 0; i < 7; i++) slots[i] = { x: x(i), y: colTop, w: cw, h: ch };
  slots[STOCK] = { x: x(0), y: rowTop, w: cw, h: ch };
  slots[WASTE] = { x: x(1), y: rowTop, w: cw, h: ch };
  for (let s = 0; s < 4; s++) slots[FOUNDATION + s] = { x: x(3 + s), y: rowTop, w: cw, h: ch };
  return { width, height, gap, cw, ch, colTop, slots };
}

/** Every card to show: key, face (code or null for a back), place and pile. */
export function cardPlaces(state, geo) {
  const pos = state.position;
  const { cw, ch, slots } = geo;
  const items = [];
  const columnBottoms = {};
  const bottom = geo.height - geo.gap;
  pos.columns.forEach((column, col) => {
    const down = column.down;
    const up = column.up.length;
    let dDown = ch * 0.11;
    let dUp = ch * 0.3;
    const need = (n, d, u) => n * d + Math.max(0, u - 1) * dUp + ch;
    const room = bottom - slots[col].y;
    if (need(down, dDown, up) > room && up > 1) {
      dUp = Math.max(ch * 0.16, (room - ch - down * dDown) / (up - 1));
    }
    if (down * dDown + Math.max(0, up - 1) * dUp + ch > room && down > 0) {
      dDown = Math.max(ch * 0.05, (room - ch - Math.max(0, up - 1) * dUp) / down);
    }
    let y = slots[col].y;
    const x = slots[col].x;
    for (let i = 0; i < down; i++) {
      const code = column.down_cards ? column.down_cards[i] : null;
      items.push({ key: code ?? `down-${col}-${i}`, face: code, down: true, x, y, pile: col, index: i });
      y += dDown;
    }
    column.up.forEach((code, j) => {
      items.push({ key: code, face: code, down: false, x, y, pile: col, index: down + j });
      if (j < up - 1) y += dUp;
    });
    columnBottoms[col] = (down + up ? y : slots[col].y) + ch;
  });

  // Stock: a few backs for thickness.
  const stockShown = Math.min(3, pos.stock.count);
  for (let i = 0; i < stockShown; i++) {
    const off = (stockShown - 1 - i) * -1.5;
    items.push({
      key: `stock-${i}`, face: null, down: true, stock: true,
      x: slots[STOCK].x + off, y: slots[STOCK].y + off, pile: STOCK, index: i,
    });
  }

  // Waste: the top three fanned under draw 3; otherwise stacked.
  const waste = pos.waste;
  const fanned = state.rules.draw > 1;
  const start = Math.max(0, waste.length - 3);
  for (let i = start; i < waste.length; i++) {
    const offset = fanned ? (i - start) * cw * 0.34 : 0;
    items.push({
      key: waste[i], face: waste[i], down: false,
      x: slots[WASTE].x + offset, y: slots[WASTE].y, pile: WASTE, index: i,
    });
  }

  // Foundations: the top card and the one under it.
  pos.foundations.forEach((top, s) => {
    if (!top) return;
    const below = cardBelow(top);
    const pile = FOUNDATION + s;
    if (below) items.push({ key: below, face: below, down: false, x: slots[pile].x, y: slots[pile].y, pile, index: -1, under: true });
    items.push({ key: top, face: top, down: false, x: slots[pile].x, y: slots[pile].y, pile, index: 0 });
  });
  return { items, columnBottoms };
}

/** The rectangle where a drop on ``pile`` lands. */
export function dropZone(geo, pile, columnBottoms) {
  const slot = geo.slots[pile];
  if (pile < 7) {
    const bottom = Math.max(columnBottoms[pile] ?? 0, slot.y + slot.h);
    return { x: slot.x - geo.gap / 2, y: slot.y - geo.gap, w: slot.w + geo.gap, h: bottom - slot.y + geo.gap * 2 };
  }
  return { x: slot.x - geo.gap / 2, y: slot.y - geo.gap / 2, w: slot.w + geo.gap, h: slot.h + geo.gap };
}
