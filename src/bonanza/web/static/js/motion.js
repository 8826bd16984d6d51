// Cards slide, flip and fly (not with reduced motion); a press or key snaps all to the end.
import { columnOf, isFoundation, isTableau, STOCK, WASTE } from "./piles.js";

const SLIDE_MS = 230;
const FLIP_MS = 300;
const FLY_MS = 260;
// between the cards of one draw or recycle
const FAN_MS = 60;
// between cards sent home in turn
export const STEP_MS = 140;
const LIFT = 1.08;
export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
const at = (p) => `translate(${p.x}px, ${p.y}px)`;
const turn = (p, deg) => `${at(p)} perspective(900px) rotateY(${deg}deg)`;
const path = (a, b, easing = "ease-out") => [{ transform: a, offset: 0, easing }, { transform: b, offset: 1 }];

export class Motion {
  constructor(root) {
    this.root = root;
    // element -> its motion
    this.tracks = new Map();
    // (press) => whether it is the second half of a double tap already played
    this.held = null;
    root.addEventListener("pointerdown", (event) => this.press(event), true);
    addEventListener("keydown", () => this.finish(), true);
  }

  /** The motion from ``before`` to ``after``: none for a game's first table. */
  scene(before, after, geo, beat) {
    const same = before && before !== after && before.id === after.id && !reducedMotion();
    return same ? new Scene(this, before.position, after.position, geo, beat) : null;
  }

  /** Play ``frames`` on ``el`` from ``start`` (timeline ms), after its motion. */
  run(el, frames, start, duration, done, fill = "backwards") {
    const old = this.tracks.get(el);
    if (old) {
      const [before, after] = [old.done, done];
      done = before && after ? () => (before(), after()) : before ?? after;
      old.animation.cancel();
      start = Math.max(start, old.end);
      const total = start + duration - old.start;
      const fit = (from, span) => (f) => ({ ...f, offset: Math.min(1, (from - old.start + f.offset * span) / total) });
      frames = [...old.frames.map(fit(old.start, old.end - old.start)), ...frames.map(fit(start, duration))];
      [start, duration] = [old.start, total];
    }
    let animation;
    try {
      animation = el.animate(frames, { duration, fill });
    } catch {
      // the table is right without motion
      return this.tracks.delete(el);
    }
    animation.startTime = start;
    const track = { animation, frames, start, end: start + duration, done };
    this.tracks.set(el, track);
    animation.onfinish = () => {
      if (this.tracks.get(el) === track) this.tracks.delete(el);
      done?.();
    };
  }

  /** The card motions under way (animations and transform transitions). */
  moving() {
    const slide = (a) => !(a instanceof CSSAnimation) && (a.transitionProperty ?? "transform") === "transform";
    return this.root.getAnimations({ subtree: true }).filter(slide);
  }

  /** Snap all motion to its end; whether any was under way. */
  finish() {
    const moving = this.moving();
    moving.forEach((a) => a.finish());
    this.tracks.forEach((track) => track.done?.());
    this.tracks.clear();
    return moving.length > 0;
  }

  /**
   * A press during motion goes to what is then under it; but the second press of a double
   * tap whose first has played its move (``held``) is no press at all: the move goes on.
   */
  press(event) {
    if (this.held?.(event) && this.moving().length) {
      event.stopImmediatePropagation();
      event.preventDefault();
      return;
    }
    if (!this.finish()) return;
    const hit = document.elementFromPoint(event.clientX, event.clientY);
    const thing = (el) => el?.closest(".card, .slot") ?? el;
    if (!this.root.contains(hit) || thing(hit) === thing(event.target)) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    hit.dispatchEvent(new PointerEvent(event.type, event));
  }
}

/** One change of the table: cards noted in ``shown`` as drawn, then set going. */
class Scene {
  constructor(motion, was, now, geo, beat) {
    Object.assign(this, { motion, was, now, geo, shown: [], backs: new Map() });
    this.start = document.timeline.currentTime + beat * STEP_MS;
  }

  /** A card leaving: the back of a card turned up, or of one not named before, stays to turn over. */
  adopt(el, { pile, index }) {
    const down = isTableau(pile) && columnOf(this.now, pile).down;
    const turned = index === down && down < columnOf(this.was, pile).down;
    if (!el.classList.contains("back") || !(turned || el.classList.contains("pending"))) return false;
    el.classList.add("ghost");
    delete el.dataset.pile;
    this.backs.set(`${pile}:${index}`, el);
    return true;
  }

  play() {
    const { was, now, motion, start, geo } = this;
    const drawn = now.stock.count < was.stock.count;
    // a card onto every column
    const dealt = drawn && now.waste.length === was.waste.length;
    const gathered = now.waste.length < was.waste.length && now.stock.count > was.stock.count;
    const newOnColumn = (item) => {
      const column = isTableau(item.pile) && columnOf(was, item.pile);
      return column && item.index >= column.down + column.up.length;
    };
    let fan = start - FAN_MS;
    // A card from the stock turns up on its way; one the server has not named yet comes face down.
    const fromStock = (item) => (item.face ? path(turn(geo.slots[STOCK], -90), turn(item, 0)) : path(at(geo.slots[STOCK]), at(item)));
    for (const [el, item, { fresh, prev, from }] of this.shown) {
      const spot = `${item.pile}:${item.index}`;
      const back = this.backs.get(spot);
      const flight = back?.classList.contains("pending") && motion.tracks.get(back);
      if (fresh && flight && item.face && flight.end > document.timeline.currentTime) {
        // named while still on its way from the stock: the face takes its flight over, turning up
        this.backs.delete(spot);
        motion.run(el, fromStock(item), flight.start, flight.end - flight.start, () => back.remove());
      } else if (fresh && item.pile === WASTE && drawn && item.index >= was.waste.length) {
        motion.run(el, fromStock(item), (fan += FAN_MS), SLIDE_MS);
      } else if (fresh && dealt && newOnColumn(item)) {
        motion.run(el, fromStock(item), (fan += FAN_MS), SLIDE_MS);
      } else if (fresh && item.stock && gathered) {
        motion.run(el, path(at(geo.slots[WASTE]), at(item), "ease-in-out"), (fan += FAN_MS), SLIDE_MS);
      } else if (fresh && back) {
        // the back turns edge on, then the face
        this.backs.delete(spot);
        const edgeOn = path(turn(item, 0), turn(item, 90), "ease-in");
        motion.run(back, edgeOn, start, FLIP_MS / 2, () => back.remove(), "both");
        motion.run(el, path(turn(item, -90), turn(item, 0)), start + FLIP_MS / 2, FLIP_MS / 2);
      } else if (from && isFoundation(item.pile) && !isFoundation(prev.pile)) {
        const [lift, land] = path(from, at(item), "ease-in-out");
        motion.run(el, [lift, { scale: LIFT, offset: 0.5 }, land], start, FLY_MS);
      }
    }
    for (const el of this.backs.values()) el.remove();
  }
}
