// Card elements: faces drawn with text and inline SVG suit symbols, backs with CSS.
import { cardName, isRed, rankLabel } from "./piles.js";

const SVG = "http://www.w3.org/2000/svg";

function suitIcon(suit, className) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  if (className) svg.setAttribute("class", className);
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `#suit-${suit}`);
  svg.append(use);
  return svg;
}

/** A face-up card element for ``code`` such as ``7H``. */
export function faceCard(code) {
  const el = document.createElement("div");
  el.className = `card face${isRed(code) ? " red" : ""}`;
  el.dataset.card = code;
  const court = "JQK".includes(code[0]);
  if (court) el.classList.add("court");
  const idx = document.createElement("div");
  idx.className = "idx";
  const rank = document.createElement("span");
  rank.textContent = rankLabel(code);
  idx.append(rank, suitIcon(code[1]));
  el.append(idx, suitIcon(code[1], "pip"));
  if (court) {
    const letter = document.createElement("div");
    letter.className = "court-letter";
    letter.textContent = code[0];
    el.append(letter);
  }
  const corner = document.createElement("div");
  corner.className = "corner";
  corner.textContent = rankLabel(code);
  el.append(corner);
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", cardName(code));
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
