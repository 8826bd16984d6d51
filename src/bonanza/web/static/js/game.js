// The controller: the current state from the server, the player's selection, and every action.
import { api } from "./api.js";
import { showServerTable } from "./elsewhere.js";
import { reducedMotion, STEP_MS } from "./motion.js";
import { namedDraw } from "./format.js";
import { noteEnded, score, showControls, showDealBox, showStatus, tick } from "./header.js";
import { movingCard, playable, predict } from "./optimistic.js";
import { columnOf, isFoundation, isTableau, STOCK, WASTE } from "./piles.js";
import { near, tapCard, tapPile, tapStock } from "./taps.js";
import { remember, step } from "./undo.js";

// auto finish pace
const REDUCED_PAUSE_MS = 30;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class Controller {
  constructor({ view, sound, ui }) {
    this.view = view;
    this.sound = sound;
    // status elements, dialogs, announce(), toast(), say()
    this.dom = ui;
    // the table shown: the server's last answer, with the moves still waiting on it
    this.state = null;
    // the server's last answer
    this.truth = null;
    // moves shown and not yet answered, in order: {id, move, card}
    this.pending = [];
    // {before, after}: the answers around each move, for undo.js
    this.past = [];
    // the same, of the moves undone
    this.future = [];
    this.receivedAt = 0;
    this.selection = null;
    this.targets = new Set();
    this.hintMark = null;
    this.queue = Promise.resolve();
    this.forgetTaps();
    // the player's settings: main.js hands in the live ones
    this.prefs = {};
    this.autoRunning = false;
    this.stuckDismissedAt = -1;
    this.progressTimer = null;
    // the ID of the game before this one, once it is over
    this.previousDeal = null;
    // that game's ID when it ended lost: it can be reviewed
    this.previousLost = null;
    this.previousAsked = 0;
    // the game whose progress check was said to be unavailable
    this.unavailableSaid = null;
    if (view.motion) view.motion.held = (press) => this.secondTap(press);
  }

  /** Whether ``press`` is the second tap of a double tap whose first played a move (taps.js holds it). */
  secondTap({ clientX, clientY }) {
    const held = this.suppressUntil;
    return near(held.point, { x: clientX, y: clientY }) && performance.now() < held.time;
  }

  /** The cards are back (or moved by other means): a tap on them is a new one, no double tap's half. */
  forgetTaps() {
    this.lastTap = { key: null, time: 0 };
    this.suppressUntil = { pile: null, key: null, point: null, time: 0 };
  }

  /** Run ``task`` after every earlier action: the server sees actions in order. */
  run(task) {
    this.queue = this.queue.then(task).catch((error) => this.failed(error));
    return this.queue;
  }

  failed(error) {
    this.dom.toast(error.message || String(error));
    this.sound.play("bad");
    if (this.state) this.render();
  }

  render(beat = 0) {
    this.view.render(this.state, { selection: this.selection, targets: this.targets, hint: this.hintMark }, { beat });
    // shown before its answer
    this.view.root.toggleAttribute("data-waiting", this.state !== this.truth);
    this.dom.showTurn?.(this.view.geo?.narrow ?? false);
  }

  // -- state ---------------------------------------------------------------

  /**
   * Take the server's answer ``state``. ``beat``: turns its motion waits; ``moved``: the
   * table after the player's move; ``guessed``: that move was shown already (its sound too).
   */
  setState(state, { beat = 0, moved = state, guessed = false } = {}) {
    const before = this.truth;
    this.truth = state;
    const dropped = this.reconcile();
    this.receivedAt = performance.now();
    // A card picked up on a move's table before its answer stays picked up while it can still move.
    const picked = guessed && !dropped && this.selection;
    const targets = picked ? this.movesFor(picked.pile, picked.index).map((m) => m.dest) : [];
    this.selection = targets.length ? picked : null;
    this.targets = new Set(targets);
    this.hintMark = null;
    if (!picked) this.dom.hideHint();
    this.render(beat);
    this.updateStatus();
    this.updateControls();
    if (state.announce) this.dom.announce(namedDraw(state.announce, moved));
    if (dropped) this.refusedWords(null);
    else this.soundFor(state, beat, guessed);
    if (before && before.id !== state.id) this.noteEnded(before);
    this.dom.hideStuck();
    // the moves waiting are judged in turn
    if (this.pending.length) return;
    if (state.won && before && before.id === state.id && !before.won) {
      this.autoRunning = false;
      this.updateControls();
      this.dom.celebrate(state);
      this.sound.play("win");
    } else if (state.status === "playing" && !state.has_moves) {
      this.dom.noMoves(state);
    } else if (state.status === "playing") {
      this.scheduleProgressCheck(state.progress);
    }
  }

  /**
   * Show an answer. With safe auto-play, a move's answer carries ``steps``: the
   * table after the player's move and after each card sent home but the last;
   * the answer itself is the last. All are drawn at once, each one's motion in turn.
   */
  show(answer, guessed = false) {
    // With moves still waiting, the table goes at once to the answer with them on it.
    remember(this, this.truth, answer);
    const steps = this.pending.length ? [] : (answer.steps || []).map((step) => ({ ...answer, ...step }));
    steps.forEach((step, beat) => {
      this.view.render(step, {}, { beat });
      this.soundFor(step, beat, guessed);
    });
    this.setState(answer, { beat: steps.length, moved: steps[0] ?? answer, guessed: guessed && !steps.length });
  }

  /** ``guessed``: the move was shown, and sounded, before its answer: only a card turned up is heard. */
  soundFor(state, beat = 0, guessed = false) {
    if (beat) return void setTimeout(() => this.soundFor(state), beat * STEP_MS);
    const last = state.last;
    if (!last) return;
    const revealed = state.announce && state.announce.includes("revealed");
    if (guessed) {
      if (revealed) this.sound.play("flip");
    } else if (isFoundation(last.dest)) this.sound.play("home");
    else if (last.source === STOCK || last.dest === STOCK) this.sound.play("draw");
    else if (revealed) this.sound.play("flip");
    else this.sound.play("place");
  }

  noteEnded(old) {
    noteEnded(this, old);
  }

  // The header's figures, deal place and buttons (header.js).
  tick() {
    tick(this);
  }

  updateStatus() {
    showStatus(this);
  }

  updateDealBox() {
    showDealBox(this);
  }

  updateControls() {
    showControls(this);
  }

  /**
   * Ask whether progress is still possible, unless ``known``: the check the
   * answer brought (a move is then one request).
   */
  scheduleProgressCheck(known) {
    clearTimeout(this.progressTimer);
    const id = this.state.id;
    const moves = this.state.moves;
    if (known) {
      this.applyProgress(known, id, moves);
      return;
    }
    this.progressTimer = setTimeout(async () => {
      try {
        this.applyProgress(await api.progress(id), id, moves);
      } catch {
        // The stuck note is advice: stay quiet when it cannot be had.
      }
    }, 350);
  }

  /** What the progress check found for the game ``id`` at ``moves`` moves. */
  applyProgress(answer, id, moves) {
    const current = this.state.id === id && this.state.moves === moves;
    // A game the progress check cannot look at yet: said once a game, in words.
    if (answer.unavailable && current && this.unavailableSaid !== id) {
      this.unavailableSaid = id;
      this.dom.say(answer.unavailable);
    }
    if (answer.progress === false && current && this.stuckDismissedAt !== moves) {
      this.dom.showStuck();
    }
    // The solver's auto finish is offered here, once every card is known and it is proven.
    if (answer.auto_finish && current && this.state.status === "playing" && !this.state.auto_finish) {
      this.state.auto_finish = true;
      this.updateControls();
      this.dom.announce("Auto finish is ready: press A or Finish");
    }
  }

  // -- moves ---------------------------------------------------------------

  /** Legal moves that take the card at (pile, index) and what lies on it. */
  movesFor(pile, index) {
    if (!this.state || this.state.status !== "playing" || pile === STOCK) return [];
    const pos = this.state.position;
    let count = 1;
    if (isTableau(pile)) {
      const c = columnOf(pos, pile);
      if (index < c.down) return [];
      count = c.down + c.up.length - index;
    } else if (pile === WASTE && index !== pos.waste.length - 1) {
      return [];
    }
    return pos.legal.filter((m) => m.source === pile && m.count === count && m.dest !== STOCK);
  }

  /**
   * Play ``move``: shown at once on the table in view, then sent; the server's answer
   * is the judge. A refused move is taken back, with every move made after it.
   */
  play(move) {
    this.stopAutoIfManual();
    const guess = this.state && predict(this.state, move, score(this));
    if (!guess) {
      return this.run(async () => {
        await this.show(await api.play(this.state.id, move));
      });
    }
    const entry = { id: this.state.id, move, card: movingCard(this.state.position, move) };
    this.pending.push(entry);
    this.showGuess(guess);
    return this.run(async () => {
      // taken back with a move before it
      if (this.pending[0] !== entry) return;
      let answer;
      try {
        answer = await api.play(entry.id, move);
      } catch (error) {
        await this.refused(error);
        return;
      }
      this.pending.shift();
      this.show(answer, true);
    });
  }

  /** Show a move before its answer: the table, the figures known, and its sound. */
  showGuess(guess) {
    clearTimeout(this.progressTimer);
    this.state = guess;
    this.selection = null;
    this.targets = new Set();
    this.hintMark = null;
    this.dom.hideHint();
    this.dom.hideStuck();
    this.render();
    this.updateStatus();
    this.updateControls();
    const last = guess.last;
    const sound = isFoundation(last.dest) ? "home" : last.source === STOCK || last.dest === STOCK ? "draw" : "place";
    // after the frame: sound may start slowly
    requestAnimationFrame(() => setTimeout(() => this.sound.play(sound)));
  }

  /**
   * The table shown for the server's last answer: the moves still waiting, played on it in
   * turn. A move that no longer fits (another game, or the answer's table differs, as when
   * cards went home by themselves) is taken back with those after it: they are returned.
   */
  reconcile() {
    let shown = this.truth;
    for (const [i, entry] of this.pending.entries()) {
      const next = entry.id === shown.id && playable(shown.position, entry.move, entry.card) && predict(shown, entry.move);
      if (!next) {
        this.state = shown;
        const dropped = this.pending.splice(i);
        return entry.id === shown.id ? dropped : null;
      }
      shown = next;
    }
    this.state = shown;
    return null;
  }

  /** The server refused a move (or could not be reached): every move waiting is taken back. */
  async refused(error) {
    this.pending = [];
    this.state = this.truth;
    this.forgetTaps();
    this.selection = null;
    this.targets = new Set();
    this.render();
    this.updateStatus();
    this.updateControls();
    this.refusedWords(error);
    await showServerTable(this);
  }

  refusedWords(error) {
    const text = error?.message || "The table changed before your move: it was taken back.";
    this.dom.say(text);
    this.sound.play("bad");
  }

  tapStock() {
    return tapStock(this);
  }

  /** A tap (or click) on the card at (pile, index); ``point``: where it landed (``taps``). */
  tapCard(pile, index, key, point = null) {
    if (!key?.startsWith("pending-")) return void tapCard(this, pile, index, key, point);
    // A card not named yet (a move's, before its answer): the tap counts once it is.
    this.queue.then(() => {
      const el = this.view.cardElement(pile, index);
      if (el?.dataset.card) tapCard(this, pile, index, el.dataset.key, point);
    });
  }

  /** A tap on an empty part of a pile (its slot). */
  tapPile(pile) {
    tapPile(this, pile);
  }

  select(pile, index, { keyboard = false } = {}) {
    const moves = this.movesFor(pile, index);
    this.selection = { pile, index };
    this.targets = new Set(moves.map((m) => m.dest));
    this.hintMark = null;
    this.render();
    const el = this.view.cardElement(pile, index);
    const name = el ? el.getAttribute("aria-label").split(",")[0] : "card";
    this.dom.announce(
      moves.length
        ? `Picked up ${name}. ${moves.length} place${moves.length > 1 ? "s" : ""} to drop it.`
        : `Picked up ${name}. It cannot move now.`,
    );
    if (keyboard && moves.length) this.view.focusTarget(moves[0].dest).focus();
  }

  clearSelection() {
    if (!this.selection && !this.targets.size && !this.hintMark) return;
    this.selection = null;
    this.targets = new Set();
    this.hintMark = null;
    if (this.state) this.render();
  }

  dropSelection(dest) {
    const sel = this.selection;
    const move = sel && this.movesFor(sel.pile, sel.index).find((m) => m.dest === dest);
    this.selection = null;
    this.targets = new Set();
    if (move) return this.play(move);
    this.render();
    return this.queue;
  }

  // -- commands ---------------------------------------------------------------

  undo() {
    return step(this, true);
  }

  redo() {
    return step(this, false);
  }

  restart() {
    return this.run(async () => {
      this.setState(await api.restart(this.state.id));
    });
  }

  /**
   * Ask for a hint: the engine's words go to the message box and the live
   * region, and its move's piles light up (the cards it moves, and the pile
   * they go to; for a draw, the stock). The words stay until the position changes.
   */
  hint() {
    return this.run(async () => {
      if (this.state.status !== "playing") return;
      const shown = this.state;
      const answer = await api.hint(shown.id);
      // the table has moved on
      if (this.state !== shown || this.pending.length) return;
      this.dom.announce(answer.text);
      if (!answer.move) {
        this.dom.showHint(answer.text);
        return;
      }
      const m = answer.move;
      const source = answer.source ?? m.source;
      // onto every column
      const deals = source === STOCK && m.dest !== WASTE && m.dest !== STOCK;
      const dest = deals ? null : answer.dest ?? m.dest;
      const pos = this.state.position;
      let index = 0;
      if (isTableau(source)) {
        const c = columnOf(pos, source);
        index = c.down + c.up.length - m.count;
      } else if (source === WASTE) {
        index = pos.waste.length - 1;
      }
      this.selection = null;
      this.targets = new Set();
      this.hintMark = { source, index, dest };
      this.render();
      // placed once the marks are drawn, clear of them
      this.dom.showHint(answer.text);
    });
  }

  /**
   * "Still winnable?" (the page asked first): the server marks the game
   * assisted and answers a verdict word and a sentence, never a card or a move.
   * The sentence goes to the message box and the live region.
   */
  winnable() {
    return this.run(async () => {
      if (this.state.status !== "playing") return;
      const id = this.state.id;
      const answer = await api.winnable(id);
      if (!this.state || this.state.id !== id) return;
      this.state.assisted = answer.assisted;
      this.updateStatus();
      this.dom.showWinnable(answer.text);
      this.dom.announce(answer.text);
    });
  }

  stopAutoIfManual() {
    if (this.autoRunning && !this.autoStepping) {
      this.autoRunning = false;
      this.updateControls();
    }
  }

  async toggleAuto() {
    if (this.autoRunning) {
      this.autoRunning = false;
      this.updateControls();
      this.dom.announce("Auto finish stopped");
      return;
    }
    if (!this.state || !this.state.auto_finish) return;
    this.autoRunning = true;
    this.updateControls();
    this.dom.announce("Auto finish started");
    const delay = reducedMotion() ? REDUCED_PAUSE_MS : STEP_MS;
    while (this.autoRunning && this.state.auto_finish && !this.state.won) {
      const before = this.state;
      await this.run(async () => {
        // a dialog the player opened (a new deal, a restart...) holds the game: the finish stops
        if (!this.autoRunning || this.dom.dialogOpen()) return;
        this.autoStepping = true;
        try {
          this.setState(await api.auto(this.state.id));
        } finally {
          this.autoStepping = false;
        }
      });
      if (this.state === before) break;
      await sleep(delay);
    }
    const held = this.autoRunning && !this.state.won && this.dom.dialogOpen();
    this.autoRunning = false;
    this.updateControls();
    if (held) this.dom.announce("Auto finish stopped");
  }

  /** Start a game: ``how`` is what api.start sends ({rules}, {deal, rules}, {share} or {replay}). */
  newGame(how) {
    this.autoRunning = false;
    return this.run(async () => {
      this.setState(await api.start(how));
    });
  }
}
