// Court figures (issue 35, item 19): each Jack, Queen and King a flat-vector bust (head,
// headwear, robe in the suit's colour with the suit on its breast), mirrored in the lower half
// as on real cards. Drawn from shared parts, set by rank; the suit's colour is the card's
// currentColor (cards.css and the themes set it), the rest a small palette.
//
// No part of the first load: main.js imports this module after the first render and hands
// ``courtFigure`` to cards.js, which shows the emblems until then. It imports nothing, so it
// is one small file (the page's other modules come joined into one script).

const SVG = "http://www.w3.org/2000/svg";
// a half's drawing, in units: the headwear at the top, the breast at the bottom
const W = 60;
const H = 80;
const INK = "#2b1d12";
const GOLD = "#e2b13c";
const GOLD_DEEP = "#b7862a";
const SKIN = "#f7d9bd";
const CREAM = "#fffaf0";
const LINE = 1.1;
// room above the headwear
const TOP = 2.5;

function svg(name, attributes = {}, children = []) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}

/** A path filled with ``fill`` (the suit's colour when "currentColor"), outlined in ink. */
function part(d, fill, more = {}) {
  return svg("path", { d, fill, stroke: INK, "stroke-width": LINE, "stroke-linejoin": "round", ...more });
}

/** A line with no fill. */
function stroke(d, color = INK, width = LINE) {
  return svg("path", { d, fill: "none", stroke: color, "stroke-width": width, "stroke-linecap": "round" });
}

function dot(cx, cy, r, fill, more = {}) {
  return svg("circle", { cx, cy, r, fill, ...more });
}

/** The suit, ``size`` wide, centred on (cx, cy), drawn from the page's own symbol. */
function suitAt(suit, cx, cy, size, fill = "currentColor") {
  return svg("use", { href: `#suit-${suit}`, x: cx - size / 2, y: cy - size / 2, width: size, height: size, fill });
}

/** The shoulders and robe, the suit on a medallion at the breast. */
function robe(suit, trim) {
  return [
    part("M1 80V71C1 62 12 56 30 56S59 62 59 71V80Z", "currentColor"),
    ...trim,
    dot(30, 71, 7.4, CREAM, { stroke: GOLD_DEEP, "stroke-width": LINE }),
    suitAt(suit, 30, 71, 9.6),
  ];
}

function neck() {
  return part("M26 45V57H34V45Z", SKIN);
}

/** The face: its outline and features; ``lips`` a colour for painted lips. */
function face(lips) {
  return [
    part("M19.5 35C19.5 26 24 22 30 22S40.5 26 40.5 35C40.5 44 36 49 30 49S19.5 44 19.5 35Z", SKIN),
    dot(26, 35, 1.25, INK),
    dot(34, 35, 1.25, INK),
    stroke("M30.6 36.6Q28.4 40 30.9 40.6", INK, 0.9),
    lips ? part("M27.2 44Q30 45.6 32.8 44Q30 46.8 27.2 44Z", lips, { "stroke-width": 0.5 }) : stroke("M27.5 44Q30 45.3 32.5 44"),
  ];
}

/** A King: silver hair and full beard, a tall crown, an ermine collar. */
function king(suit) {
  const ermine = [[17, 61], [24, 58.6], [36, 58.6], [43, 61]].map(([x, y]) => dot(x, y, 0.9, INK));
  return [
    ...robe(suit, [
      part("M9 66C13 58 21 55 30 55S47 58 51 66L47 68C43 62 37 60 30 60S17 62 13 68Z", CREAM),
      ...ermine,
      stroke("M30 60V80", GOLD, 2.2),
    ]),
    neck(),
    part("M18.5 28C17 36 18 40 19.5 42 19 31 22 26 30 26S41 31 40.5 42C42 40 43 36 41.5 28Z", "#cfcac0"),
    ...face(null),
    // the beard and moustache over the lower face
    part("M19.6 37C20 50 25 56 30 56S40 50 40.4 37C38 42 35 44.5 30 43.5 25 44.5 22 42 19.6 37Z", "#ddd8cd"),
    part("M24.5 42.5Q30 39 35.5 42.5Q30 41.8 24.5 42.5Z", "#ddd8cd"),
    // the crown: a band and three points, jewels in the suit's colour
    part("M18 27 16 9 23.5 16 30 5 36.5 16 44 9 42 27Z", GOLD),
    part("M17.5 23H42.5V28.5H17.5Z", GOLD_DEEP),
    dot(16, 8.5, 2, GOLD, { stroke: INK, "stroke-width": LINE }),
    dot(30, 4.5, 2.2, GOLD, { stroke: INK, "stroke-width": LINE }),
    dot(44, 8.5, 2, GOLD, { stroke: INK, "stroke-width": LINE }),
    dot(30, 25.7, 1.8, "currentColor"),
    dot(22.5, 25.7, 1.3, "currentColor"),
    dot(37.5, 25.7, 1.3, "currentColor"),
  ];
}

/** A Queen: long hair, a jewelled tiara, pearls at the neck, a gown with a cream neckline. */
function queen(suit) {
  const pearls = [22, 26, 30, 34, 38].map((x, i) => dot(x, 56.4 + (i === 2 ? 1.4 : i % 4 === 0 ? -0.6 : 0.8), 1.3, CREAM, { stroke: INK, "stroke-width": 0.5 }));
  return [
    // her hair falls behind the shoulders
    part("M17 36C15 20 22 17 30 17S45 20 43 36L46 58C40 58 37 54 36 48H24C23 54 20 58 14 58Z", "#9b5a2c"),
    ...robe(suit, [part("M14 62Q30 70 46 62L44 59Q30 66 16 59Z", CREAM)]),
    neck(),
    ...pearls,
    ...face("#c8323c"),
    // the hair over her brow, parted in the middle
    part("M19.5 34C19 25 24 21 30 21S41 25 40.5 34C38 29 34 26.5 30 27 26 26.5 22 29 19.5 34Z", "#9b5a2c"),
    dot(23.5, 40, 1.8, "#f1a9a0", { opacity: 0.7 }),
    dot(36.5, 40, 1.8, "#f1a9a0", { opacity: 0.7 }),
    // the tiara: a low band of points, pearls on their tips, a jewel in the suit's colour
    part("M19.5 25.5 20.5 18 24.5 21 27 14.5 30 9.5 33 14.5 35.5 21 39.5 18 40.5 25.5Q30 22 19.5 25.5Z", GOLD),
    dot(20.5, 17.6, 1.4, CREAM, { stroke: INK, "stroke-width": 0.6 }),
    dot(39.5, 17.6, 1.4, CREAM, { stroke: INK, "stroke-width": 0.6 }),
    dot(30, 9, 1.6, CREAM, { stroke: INK, "stroke-width": 0.6 }),
    dot(30, 19, 2.4, "currentColor", { stroke: INK, "stroke-width": 0.6 }),
  ];
}

/** A Jack: a young face, short curled hair, a cap in the suit's colour with a plume, a ruff. */
function jack(suit) {
  return [
    ...robe(suit, [
      part("M16 59 20 54 24 58 27 53.5 30 57.5 33 53.5 36 58 40 54 44 59 40 62.5H20Z", CREAM),
      stroke("M19 67H41", GOLD, 1.8),
    ]),
    neck(),
    // curls at the sides
    part("M19.5 30C16 33 16 40 18 44 21 45 21.5 42 20.5 38Z", "#6b3f1d"),
    part("M40.5 30C44 33 44 40 42 44 39 45 38.5 42 39.5 38Z", "#6b3f1d"),
    ...face(null),
    part("M19.8 31C20 25 24 23 30 23S40 25 40.2 31C37 28 33 28.5 30 28.5S23 28 19.8 31Z", "#6b3f1d"),
    // the cap, tilted, with a gold band and a plume
    part("M16 27C15 17 22 12 31 12S46 16 45 25C38 22 24 23 16 27Z", "currentColor"),
    part("M16 27C24 23 38 22 45 25L45.5 28C38 25.5 24 26 16.2 30Z", GOLD),
    part("M38 18C40 10 46 5 54 3 50 8 47 13 45 20 43 21 40 20 38 18Z", CREAM),
    stroke("M40 18.5C43 12 47 8 52.5 4.2", GOLD_DEEP, 0.8),
    dot(38.5, 20.5, 1.8, GOLD, { stroke: INK, "stroke-width": 0.6 }),
  ];
}

const FIGURES = { K: king, Q: queen, J: jack };

/** One half of the figure, in the top (or, ``turned``, bottom) half of the frame: cut to fit
 * its box (a wide box, a phone's, keeps the head and headwear; a narrow one, the whole bust). */
function half(rank, suit, turned) {
  const box = svg("svg", {
    class: "court-half", x: "3%", y: turned ? "50%" : "1.5%", width: "94%", height: "48.5%",
    viewBox: `0 ${-TOP} ${W} ${H + TOP}`, preserveAspectRatio: turned ? "xMidYMax slice" : "xMidYMin slice",
  });
  const figure = svg("g", {}, FIGURES[rank](suit));
  if (turned) figure.setAttribute("transform", `rotate(180 ${W / 2} ${(H - TOP) / 2})`);
  box.append(figure);
  return box;
}

/** The art of a court card ``rank`` of ``suit``: a framed bust, mirrored top and bottom, as an
 * ``svg`` the size of the card's art box (cards.css ``.art``). */
export function courtFigure(rank, suit) {
  const art = svg("svg", {
    class: "art court-art court-figure", "data-figure": rank, "aria-hidden": "true", focusable: "false",
  });
  // the frame and the line between the halves, stretched to the box, their strokes unscaled
  const frame = svg("svg", { viewBox: "0 0 100 100", preserveAspectRatio: "none", width: "100%", height: "100%" }, [
    svg("rect", {
      x: 0.8, y: 0.6, width: 98.4, height: 98.8, rx: 3, fill: "#fbf3de", stroke: "currentColor",
      "stroke-width": 1.2, "vector-effect": "non-scaling-stroke",
    }),
    svg("path", { d: "M3 50H97", stroke: "currentColor", "stroke-width": 1, opacity: 0.5, "vector-effect": "non-scaling-stroke" }),
  ]);
  art.append(frame, half(rank, suit, false), half(rank, suit, true));
  return art;
}
