// Where every pile and card goes on a table of a given size, and how big the cards and their indices are.
import { cardBelow, isTableau, STOCK, SUITS, WASTE } from "./piles.js";
import { tableShape } from "./shape.js";

// card height over width
const RATIO = 1.4;
const MAX_CARD_WIDTH = 124;
// still easy to tap: below it the table scrolls instead
const MIN_CARD_WIDTH = 44;
// on a screen too narrow even for that
const FLOOR_CARD_WIDTH = 30;
// card heights kept for the top row and a column at the natural size
const COLUMN_HEIGHTS = 4.3;
// between piles, of the table width
const GAP_RATIO = 0.012;
const GAP_MIN_PX = 4;
// gaps between the top row and the columns
const ROW_GAP = 1.8;
/** Card width scale of each ``<html data-size>`` value; medium when it is absent. */
export const CARD_SIZES = Object.freeze({ small: 0.85, medium: 1, large: 1.15 });
const DEFAULT_SIZE = "medium";
// <html data-hand="left">: stock and waste on the right
const LEFT_HAND = "left";
// foundations a deck has
const SUIT_COUNT = SUITS.length;

// The corner index: the rank above a small suit, in a box of these proportions.
// rank font size over card width
const INDEX_FONT_RATIO = 0.2;
// readable on a phone
const INDEX_FONT_MIN_PX = 16;
// the bottom-right copy, on cards too small for two full indices
const CORNER_FONT_MIN_PX = 9;
// inset of the index from the card's edges
const INDEX_PAD_RATIO = 0.045;
const INDEX_PAD_MIN_PX = 2;
// "10" is condensed to fit
const INDEX_WIDTH_EM = 0.92;
// rank line (1em) and the suit under it (0.62em)
const INDEX_HEIGHT_EM = 1.62;
// kept between an index and the card over it
const INDEX_CLEAR_PX = 1;
// between the indices and the pips
const ART_GAP_RATIO = 0.05;
// narrower than this between the indices: pips move beside them
const ART_MIN_WIDTH_RATIO = 0.4;

// Fans: what each card shows of itself under the next, as a share of the card's size.
// a face-down card (a back)
const DOWN_FAN = 0.11;
const DOWN_FAN_MIN = 0.05;
// a face-up card, at most; never less than its index
const UP_FAN = 0.3;
// draw-3 waste, of the card width; never less than the index width
const WASTE_FAN = 0.34;
// a face-up card inside a long run, on a short landscape table
const SQUEEZE_FAN = 0.12;
// still a visible sliver of each card of the run
const SQUEEZE_MIN_PX = 7;
// a table at most this tall, and wider than tall: a phone on its side
const SQUEEZE_HEIGHT_PX = 500;
const STOCK_THICKNESS_PX = 1.5;
const STOCK_SHOWN = 3;

/** The player's table settings, from ``<html data-hand data-size>``. */
export function layoutPrefs() {
  const { hand, size } = document.documentElement.dataset;
  return { left: hand === LEFT_HAND, scale: CARD_SIZES[size] ?? CARD_SIZES[DEFAULT_SIZE] };
}

/** Card size and the boxes of its drawing: corner indices and the pip area (px, from the card's top left). */
export function cardMetrics(cw) {
  const ch = Math.round(cw * RATIO);
  const pad = Math.max(INDEX_PAD_MIN_PX, Math.round(cw * INDEX_PAD_RATIO));
  const font = Math.max(INDEX_FONT_MIN_PX, Math.round(cw * INDEX_FONT_RATIO));
  const index = { font, w: font * INDEX_WIDTH_EM, h: font * INDEX_HEIGHT_EM };
  const artGap = Math.max(1, cw * ART_GAP_RATIO);
  const side = pad + index.w + artGap;
  let corner = index;
  let art = { x: side, y: pad, w: cw - 2 * side, h: ch - 2 * pad };
  if (art.w < cw * ART_MIN_WIDTH_RATIO) {
    // A small card: a smaller bottom corner, and the pips beside the top index, above it.
    const cornerFont = Math.max(CORNER_FONT_MIN_PX, Math.round(cw * INDEX_FONT_RATIO));
    corner = { font: cornerFont, w: cornerFont * INDEX_WIDTH_EM, h: cornerFont * INDEX_HEIGHT_EM };
    art = { x: side, y: pad, w: cw - side - pad, h: ch - 2 * pad - corner.h - artGap };
  }
  return {
    cw, ch, pad, index, corner, art,
    // the least a tableau card shows: its index
    fanUp: pad + index.h + INDEX_CLEAR_PX,
    // the least a draw-3 waste card shows
    fanSide: pad + index.w + INDEX_CLEAR_PX,
  };
}

/** Put the card size and index boxes where cards.css reads them, and let a table too tall scroll. */
export function applyCardSize(root, geo) {
  const { cw, ch, pad, index, corner, art } = geo.card;
  const px = (value) => `${Math.round(value * 100) / 100}px`;
  const vars = {
    "--cw": cw, "--ch": ch, "--idx-pad": pad,
    "--idx-font": index.font, "--idx-w": index.w, "--idx-h": index.h,
    "--corner-font": corner.font, "--corner-w": corner.w, "--corner-h": corner.h,
    "--art-x": art.x, "--art-y": art.y, "--art-w": art.w, "--art-h": art.h,
  };
  for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, px(value));
  // cards.css draws bigger pips, spread wider, beside the index of a small card
  root.classList.toggle("small-cards", corner !== index);
  root.classList.toggle("overflowing", geo.contentHeight > geo.height);
}

/** Call ``callback`` (once a frame at most) when the hand or card size setting changes. */
export function onLayoutChange(callback) {
  let frame = 0;
  const later = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => callback());
  };
  window.addEventListener("bonanza:settings", later);
  new MutationObserver(later).observe(document.documentElement, {
    attributes: true, attributeFilter: ["data-hand", "data-size"],
  });
}

/**
 * How far apart a column's cards sit so that it fits ``room`` (px), and whether it does.
 * ``squeeze`` (a short landscape table, where scrolling would hide playable cards under the
 * bars): a long run that cannot show every index keeps its first card's index and its last
 * card whole, and shows the cards between as slivers (a run's middle follows from its ends).
 * ``dFirst``: the gap after the first face-up card; ``dUp``: after each later one.
 */
function columnFan(column, card, room, squeeze = false) {
  const { ch } = card;
  const down = column.down;
  const up = column.up.length;
  const upGaps = Math.max(0, up - 1);
  const upMin = card.fanUp;
  const upMax = Math.max(ch * UP_FAN, upMin);
  // A face-down card whose name is shown (thoughtful) needs its index to show as well.
  const known = Array.isArray(column.down_cards);
  const downMin = known ? upMin : ch * DOWN_FAN_MIN;
  const downMax = known ? upMax : Math.max(ch * DOWN_FAN, downMin);
  const length = (dDown, dUp) => (down + up ? down * dDown + upGaps * dUp + ch : 0);
  let dDown = downMax;
  let dUp = upMax;
  if (length(dDown, dUp) > room && down) {
    dDown = Math.max(downMin, (room - ch - upGaps * dUp) / down);
  }
  if (length(dDown, dUp) > room && upGaps) {
    dUp = Math.max(upMin, (room - ch - down * dDown) / upGaps);
  }
  // gaps after the run's first card
  const middle = upGaps - 1;
  if (!squeeze || length(dDown, dUp) <= room || middle < 1) {
    return { dDown, dUp, dFirst: dUp, length: length(dDown, dUp), fits: length(downMin, upMin) <= room };
  }
  const sliver = Math.max(SQUEEZE_MIN_PX, ch * SQUEEZE_FAN);
  const squeezed = (dMiddle) => down * dDown + upMin + middle * dMiddle + ch;
  const dMiddle = Math.max(sliver, Math.min(dUp, (room - ch - down * dDown - upMin) / middle));
  const fits = down * downMin + upMin + middle * sliver + ch <= room;
  return { dDown, dUp: dMiddle, dFirst: upMin, length: squeezed(dMiddle), fits };
}

/**
 * The ways the top row may be arranged for ``shape``: the foundations in one row beside the
 * stock and waste, or, with eight, in two rows of four (narrower, for a tall narrow table).
 * ``units``: card widths across; ``rows``: card heights the top row takes.
 */
function arrangements(shape, draw) {
  const nColumns = shape.columns.length;
  const nFoundations = shape.foundations.length;
  const found = [];
  for (const rows of nFoundations > SUIT_COUNT ? [1, 2] : [1]) {
    const perRow = Math.ceil(nFoundations / rows);
    // The stock, the waste, and room for a draw-3 fan: kept whenever it costs no width.
    let lead = shape.waste ? 3 : 1;
    if (shape.waste && draw === 1 && lead + perRow > nColumns) lead -= 1;
    found.push({ rows, perRow, lead, units: Math.max(nColumns, lead + perRow) });
  }
  return found;
}

/** The widest card an arrangement allows, before the player's card size setting. */
function naturalWidth(width, height, gap, { units, rows }) {
  const widthFit = Math.floor((width - gap * (units + 1)) / units);
  const heightFit = Math.floor((height - gap * (2 + rows)) / (RATIO * (COLUMN_HEIGHTS + rows - 1)));
  return { widthFit, natural: Math.min(widthFit, heightFit, MAX_CARD_WIDTH) };
}

/**
 * Card size, gaps and the rectangle of each pile's slot; with ``state``, cards shrink until
 * every column fits. ``narrow``: whether the cards are below a comfortable size because the
 * table is too narrow for its columns (a phone in portrait: turning it helps). ``keep``: the
 * card width the same game had on the same table a move ago, kept while every column fits
 * at it, so the cards do not grow and shrink from move to move.
 */
export function geometry(width, height, state = null, prefs = layoutPrefs(), keep = null) {
  const shape = tableShape(state);
  const squeeze = width > height && height <= SQUEEZE_HEIGHT_PX;
  const gap = Math.max(GAP_MIN_PX, Math.round(width * GAP_RATIO));
  let best = null;
  for (const arrangement of arrangements(shape, state?.rules?.draw ?? 1)) {
    const fit = { ...arrangement, ...naturalWidth(width, height, gap, arrangement) };
    if (!best || fit.natural > best.natural) best = fit;
  }
  const { units, rows, perRow, widthFit, natural } = best;
  let cw = Math.max(FLOOR_CARD_WIDTH, Math.min(widthFit, Math.round(natural * prefs.scale)));
  const topHeight = (ch) => rows * ch + (rows - 1) * gap;
  const colTopFor = (ch) => gap + topHeight(ch) + Math.round(gap * ROW_GAP);
  const fitsAt = (w, squeezing) => {
    const card = cardMetrics(w);
    const room = height - gap - colTopFor(card.ch);
    return state.position.columns.every((column) => columnFan(column, card, room, squeezing).fits);
  };
  const fitsSomehow = (w) => fitsAt(w, false) || (squeeze && fitsAt(w, true));
  if (state && keep !== null && keep <= cw && fitsSomehow(keep)) {
    cw = keep;
  } else if (state) {
    const smallest = Math.min(cw, MIN_CARD_WIDTH);
    const largest = cw;
    while (cw > smallest && !fitsAt(cw, false)) cw -= 1;
    // no card size shows every index: squeeze the long runs
    if (squeeze && !fitsAt(cw, false)) {
      cw = largest;
      while (cw > smallest && !fitsAt(cw, true)) cw -= 1;
    }
  }
  const card = cardMetrics(cw);
  const ch = card.ch;
  const total = cw * units + gap * (units - 1);
  const left = Math.max(gap, Math.floor((width - total) / 2));
  const x = (i) => left + i * (cw + gap);
  const rowTop = gap;
  const colTop = colTopFor(ch);
  const slots = {};
  // Fewer columns than the top row (Double Klondike's 9 under 10): centred by whole piles,
  // so each column lies under a top-row pile, not half a pile off.
  const columnsLeft = Math.floor((units - shape.columns.length) / 2);
  shape.columns.forEach((pile, i) => {
    slots[pile] = { x: x(columnsLeft + i), y: colTop, w: cw, h: ch };
  });
  const [stockAt, wasteAt, firstFoundation] = prefs.left ? [units - 1, units - 2, 0] : [0, 1, units - perRow];
  slots[STOCK] = { x: x(stockAt), y: rowTop, w: cw, h: ch };
  if (shape.waste) slots[WASTE] = { x: x(wasteAt), y: rowTop, w: cw, h: ch };
  shape.foundations.forEach((pile, s) => {
    const row = Math.floor(s / perRow);
    slots[pile] = { x: x(firstFoundation + (s % perRow)), y: rowTop + row * (ch + gap), w: cw, h: ch };
  });
  const fans = [];
  let contentHeight = colTop + ch + gap;
  if (state) {
    const room = height - gap - colTop;
    for (const column of state.position.columns) {
      const fan = columnFan(column, card, room, squeeze);
      fans.push(fan);
      contentHeight = Math.max(contentHeight, colTop + fan.length + gap);
    }
  }
  const narrow = cw < MIN_CARD_WIDTH && widthFit < MIN_CARD_WIDTH;
  return { width, height, gap, cw, ch, card, colTop, slots, fans, left: prefs.left, contentHeight, shape, narrow, squeeze };
}

/**
 * Give twin cards (two decks, or a foundation's card under its top) keys of their own:
 * ``7H``, ``7H~2``... Each keeps the key it had on the same pile in ``previous`` (key to
 * item), so a card that stays where it is does not swap places with its twin in motion.
 */
function uniqueKeys(items, previous) {
  const byKey = new Map();
  for (const item of items) byKey.set(item.key, [...(byKey.get(item.key) ?? []), item]);
  for (const [key, twins] of byKey) {
    if (twins.length < 2) continue;
    const free = twins.map((_, n) => (n ? `${key}~${n + 1}` : key));
    const left = twins.filter((item) => {
      const kept = free.find((k) => previous?.get(k)?.pile === item.pile);
      if (kept === undefined) return true;
      item.key = kept;
      free.splice(free.indexOf(kept), 1);
      return false;
    });
    left.forEach((item, n) => {
      item.key = free[n];
    });
  }
  return items;
}

/** Every card to show: key, face (code or null for a back), place and pile; ``previous``: the last keys' items. */
export function cardPlaces(state, geo, previous = null) {
  const pos = state.position;
  const { cw, ch, slots, shape } = geo;
  const items = [];
  const columnBottoms = {};
  pos.columns.forEach((column, col) => {
    const pile = shape.columns[col];
    const room = geo.height - geo.gap - slots[pile].y;
    const { dDown, dUp, dFirst } = geo.fans[col] ?? columnFan(column, geo.card, room, geo.squeeze);
    const down = column.down;
    const up = column.up.length;
    let y = slots[pile].y;
    const x = slots[pile].x;
    for (let i = 0; i < down; i++) {
      const code = column.down_cards ? column.down_cards[i] : null;
      items.push({ key: code ?? `down-${pile}-${i}`, face: code, down: true, x, y, pile, index: i });
      y += dDown;
    }
    column.up.forEach((code, j) => {
      items.push({ key: code, face: code, down: false, x, y, pile, index: down + j });
      if (j < up - 1) y += j === 0 ? dFirst : dUp;
    });
    columnBottoms[pile] = (down + up ? y : slots[pile].y) + ch;
  });

  // Stock: a few cards for thickness, the next to draw on top (named under thoughtful rules).
  const stockCards = pos.stock.cards ?? null;
  const stockShown = Math.min(STOCK_SHOWN, pos.stock.count);
  for (let i = 0; i < stockShown; i++) {
    const off = (stockShown - 1 - i) * -STOCK_THICKNESS_PX;
    const code = stockCards ? stockCards[stockCards.length - stockShown + i] : null;
    items.push({
      key: code ?? `stock-${i}`, face: code, down: true, stock: true,
      x: slots[STOCK].x + off, y: slots[STOCK].y + off, pile: STOCK, index: i,
    });
  }

  // Waste: the top three fanned under draw 3, each showing its index strip; otherwise stacked.
  // Left-handed, the fan ends on the waste slot, beside the stock.
  const waste = pos.waste;
  const fanned = state.rules.draw > 1;
  const start = Math.max(0, waste.length - 3);
  const step = fanned ? Math.max(cw * WASTE_FAN, geo.card.fanSide) : 0;
  const shift = geo.left ? (waste.length - 1 - start) * step : 0;
  for (let i = start; i < waste.length && slots[WASTE]; i++) {
    items.push({
      key: waste[i], face: waste[i], down: false,
      x: slots[WASTE].x + (i - start) * step - shift, y: slots[WASTE].y, pile: WASTE, index: i,
    });
  }

  // Foundations: the top card and the one under it.
  pos.foundations.forEach((top, s) => {
    if (!top) return;
    const below = cardBelow(top);
    const pile = shape.foundations[s];
    if (below) items.push({ key: below, face: below, down: false, x: slots[pile].x, y: slots[pile].y, pile, index: -1, under: true });
    items.push({ key: top, face: top, down: false, x: slots[pile].x, y: slots[pile].y, pile, index: 0 });
  });
  return { items: uniqueKeys(items, previous), columnBottoms };
}

/** The rectangle where a drop on ``pile`` lands. */
export function dropZone(geo, pile, columnBottoms) {
  const slot = geo.slots[pile];
  if (isTableau(pile)) {
    const bottom = Math.max(columnBottoms[pile] ?? 0, slot.y + slot.h);
    return { x: slot.x - geo.gap / 2, y: slot.y - geo.gap, w: slot.w + geo.gap, h: bottom - slot.y + geo.gap * 2 };
  }
  return { x: slot.x - geo.gap / 2, y: slot.y - geo.gap / 2, w: slot.w + geo.gap, h: slot.h + geo.gap };
}
