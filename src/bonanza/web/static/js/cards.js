// Card elements: faces drawn as on real cards (corner indices, pip layouts, court emblems till js/courts.js brings the figures), backs in cards.css.
import { cardName, isRed, rankLabel } from "./piles.js";

const SVG = "http://www.w3.org/2000/svg";

/** The back designs ``<html data-back>`` selects (drawn in cards.css); the first is the default. */
export const CARD_BACKS = Object.freeze([
  Object.freeze({ id: "classic", label: "Classic blue lattice" }),
  Object.freeze({ id: "red", label: "Red dots" }),
  Object.freeze({ id: "green-waves", label: "Green waves" }),
]);

// The pip area is drawn in a box of ART_W by ART_H units (cards.css sizes it between the indices).
const ART_W = 34;
const ART_H = 100;
// a pip's size in those units
const PIP = 13;
const ACE_PIP = 28;
const PIP_COLUMNS = { l: PIP / 2 + 1, c: ART_W / 2, r: ART_W - PIP / 2 - 1 };
// rows are given in twelfths of the pip area's height, top to bottom
const PIP_ROWS = 12;

/** Standard pip layouts: column (left, centre, right) and row in twelfths; pips below the middle are inverted. */
const PIP_LAYOUTS = {
  A: "c6", 2: "c0 c12", 3: "c0 c6 c12", 4: "l0 r0 l12 r12", 5: "l0 r0 c6 l12 r12",
  6: "l0 r0 l6 r6 l12 r12", 7: "l0 r0 c3 l6 r6 l12 r12", 8: "l0 r0 c3 l6 r6 c9 l12 r12",
  9: "l0 r0 l4 r4 c6 l8 r8 l12 r12", T: "l0 r0 c2 l4 r4 l8 r8 c10 l12 r12",
};
const COURT = "JQK";
// the crown, tiara or plumed cap (index.html #court-K, -Q, -J)
const COURT_EMBLEM = 30;
const COURT_PIP = 11;

function svgElement(name, attributes = {}) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  return el;
}

/** A ``<use>`` of ``symbol`` centred on (cx, cy), ``size`` wide, upside down when ``inverted``. */
function symbolAt(symbol, cx, cy, size, className, inverted = false) {
  // turned round about its centre by cards.css (.inv), which may also scale it there
  return svgElement("use", {
    href: `#${symbol}`, class: inverted ? `${className} inv` : className, x: cx - size / 2, y: cy - size / 2, width: size, height: size,
    "transform-origin": `${cx} ${cy}`,
  });
}

function artBox(className) {
  return svgElement("svg", {
    class: className, viewBox: `0 0 ${ART_W} ${ART_H}`, "aria-hidden": "true", focusable: "false",
  });
}

/** The pips of a number card (A to 10) in their standard places. */
function pipArt(rank, suit) {
  const art = artBox("art pips");
  const ace = rank === "A";
  const size = ace ? ACE_PIP : PIP;
  for (const spot of PIP_LAYOUTS[rank].split(" ")) {
    const row = Number(spot.slice(1));
    const cy = ace ? ART_H / 2 : PIP / 2 + (row / PIP_ROWS) * (ART_H - PIP);
    art.append(symbolAt(`suit-${suit}`, PIP_COLUMNS[spot[0]], cy, size, `pip ${spot[0]}`, row > PIP_ROWS / 2));
  }
  return art;
}

/** A court card: its emblem over a suit, in a frame, mirrored in the lower half as on real cards. */
function courtArt(rank, suit) {
  const art = artBox("art court-art");
  art.append(svgElement("rect", { class: "frame", x: 1, y: 1, width: ART_W - 2, height: ART_H - 2, rx: 3 }));
  art.append(svgElement("path", { class: "divide", d: `M4 ${ART_H / 2}H${ART_W - 4}` }));
  for (const inverted of [false, true]) {
    const half = svgElement("g");
    half.append(
      symbolAt(`court-${rank}`, ART_W / 2, 3 + COURT_EMBLEM / 2, COURT_EMBLEM, "emblem"),
      symbolAt(`suit-${suit}`, ART_W / 2, 3 + COURT_EMBLEM + COURT_PIP / 2, COURT_PIP, "court-pip"),
    );
    if (inverted) half.setAttribute("transform", `rotate(180 ${ART_W / 2} ${ART_H / 2})`);
    art.append(half);
  }
  return art;
}

/** A corner index: the rank above a small suit (``idx`` top left, ``corner`` its copy turned round). */
function cornerIndex(code, className) {
  const box = document.createElement("div");
  box.className = className;
  box.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.className = code[0] === "T" ? "rank ten" : "rank";
  rank.textContent = rankLabel(code);
  const suit = svgElement("svg", { class: "suit", viewBox: "0 0 100 100", focusable: "false" });
  suit.append(svgElement("use", { href: `#suit-${code[1]}` }));
  box.append(rank, suit);
  return box;
}

// code -> a built face, cloned for each use
const faces = new Map();
// draws a court card's figure (js/courts.js, loaded after the first render); the emblems till then
let courtFigure = courtArt;

/** Draw the court cards with ``draw`` (rank, suit -> art) from now on, those shown included. */
export function useCourtFigures(draw) {
  courtFigure = draw;
  for (const code of faces.keys()) if (COURT.includes(code[0])) faces.delete(code);
  for (const art of document.querySelectorAll(".card.court > .art")) {
    const code = art.parentElement.dataset.card;
    art.replaceWith(draw(code[0], code[1]));
  }
}

/** A face-up card element for ``code`` such as ``7H``. */
export function faceCard(code) {
  if (!faces.has(code)) {
    const el = document.createElement("div");
    const court = COURT.includes(code[0]);
    el.className = `card face${isRed(code) ? " red" : ""}${court ? " court" : ""}`;
    el.dataset.card = code;
    const art = court ? courtFigure(code[0], code[1]) : pipArt(code[0], code[1]);
    el.append(cornerIndex(code, "idx"), art, cornerIndex(code, "corner"));
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", cardName(code));
    faces.set(code, el);
  }
  const el = faces.get(code).cloneNode(true);
  el.tabIndex = -1;
  return el;
}

/** A face-down card: no identity at all. */
export function backCard() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  return el;
}
