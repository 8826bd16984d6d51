// The controller: the current state from the server, the player's selection, and every action.
import { api } from "./api.js";
import { reducedMotion, STEP_MS } from "./motion.js";
import { formatMoney, formatScore, formatTime, namedDraw, tableLabel } from "./format.js";
import { movingCard, playable, predict } from "./optimistic.js";
import { columnOf, isFoundation, isTableau, STOCK, WASTE } from "./piles.js";
import { near, tapCard, tapPile, tapStock } from "./taps.js";

const TIMED_TICK_SECONDS = 10; // timed scoring takes 2 points for every full 10 s played
const TIMED_TICK_POINTS = 2;
const REDUCED_PAUSE_MS = 30; // auto finish pace
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class Controller {
  constructor({ view, sound, ui }) {
    this.view = view;
    this.sound = sound;
    this.dom = ui; // status elements, dialogs, announce(), toast()
    this.state = null; // the table shown: the server's last answer, with the moves still waiting on it
    this.truth = null; // the server's last answer
    this.pending = []; // moves shown and not yet answered, in order: {id, move, card}
    this.receivedAt = 0;
    this.selection = null;
    this.targets = new Set();
    this.hintMark = null;
    this.queue = Promise.resolve();
    this.lastTap = { key: null, time: 0 };
    this.suppressUntil = { pile: null, key: null, point: null, time: 0 };
    this.prefs = {}; // the player's settings: main.js hands in the live ones
    this.autoRunning = false;
    this.stuckDismissedAt = -1;
    this.progressTimer = null;
    this.previousDeal = null; // the ID of the game before this one, once it is over
    this.previousLost = null; // that game's ID when it ended lost: it can be reviewed
    this.previousAsked = 0;
    this.unavailableSaid = null; // the game whose progress check was said to be unavailable
    if (view.motion) view.motion.held = (press) => this.secondTap(press);
  }

  /** Whether ``press`` is the second tap of a double tap whose first played a move (taps.js holds it). */
  secondTap({ clientX, clientY }) {
    const held = this.suppressUntil;
    return near(held.point, { x: clientX, y: clientY }) && performance.now() < held.time;
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
    this.view.root.toggleAttribute("data-waiting", this.state !== this.truth); // shown before its answer
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
    if (this.pending.length) return; // the moves waiting are judged in turn
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

  /**
   * The ID of a game that ended when another began: its answer names its deal
   * once it is over, so ask the server for it again when the last answer did not.
   */
  noteEnded(old) {
    const asked = ++this.previousAsked;
    const show = (ended) => {
      if (!ended.deal || asked !== this.previousAsked) return;
      this.previousDeal = ended.deal;
      this.previousLost = ended.status === "lost" ? ended.id : null;
      this.updateDealBox();
    };
    if (old.deal) {
      show(old);
      return;
    }
    api.get(old.id).then(show, () => {});
  }

  elapsed() {
    if (!this.state) return 0;
    const away = (performance.now() - this.receivedAt) / 1000;
    const extra = this.state.running ? Math.min(away, this.state.idle_cap) : 0;
    return this.state.elapsed + extra;
  }

  /** The score now: in timed scoring, 2 points go with every full 10 s since the answer. */
  score() {
    const s = this.state;
    if (!s || !s.timed || !s.running) return s ? s.score : 0;
    const ticks = Math.floor(this.elapsed() / TIMED_TICK_SECONDS)
      - Math.floor(s.elapsed / TIMED_TICK_SECONDS);
    return Math.max(0, s.score - TIMED_TICK_POINTS * Math.max(0, ticks));
  }

  /** Keep the clock (and a timed score) running between answers. */
  tick() {
    if (!this.state || !this.state.running) return;
    this.dom.time.textContent = formatTime(this.elapsed());
    this.dom.score.textContent = formatScore(this.state.rules, this.score());
  }

  updateStatus() {
    const s = this.state;
    if (!s) return;
    const d = this.dom;
    if (d.rulesLabel) d.rulesLabel.textContent = tableLabel(s);
    if (d.gameTitle) d.gameTitle.textContent = s.table?.title ?? "Klondike";
    d.score.textContent = formatScore(s.rules, this.score());
    d.time.textContent = formatTime(this.elapsed());
    d.moves.textContent = String(s.moves);
    const passes = s.rules.passes;
    d.passes.parentElement.hidden = s.table?.waste === false; // a stock dealt onto the columns has no passes
    d.passes.textContent = passes === null
      ? String(s.position.recycles + 1)
      : `${s.position.recycles + 1}/${passes}`;
    const hasBankroll = typeof s.bankroll === "number";
    d.bankrollBox.hidden = !hasBankroll;
    d.bankroll.textContent = hasBankroll ? formatMoney(s.bankroll) : "";
    d.assisted.hidden = !s.assisted;
    this.updateDealBox();
  }

  /**
   * The header's deal place. While a game is played its deal stays unknown to
   * the page (the ID names every hidden card): only the text the player typed
   * is shown, beside the button that copies a link to the deal. Once over, the
   * server gives the deal's ID, shown to copy.
   */
  updateDealBox() {
    const s = this.state;
    const d = this.dom;
    const deal = s.deal || "";
    d.dealId.hidden = !deal;
    d.dealId.textContent = deal;
    d.dealId.dataset.deal = deal;
    d.dealId.title = deal ? "Copy the deal ID" : "";
    d.dealId.setAttribute("aria-label", deal ? `Deal ID ${deal}, copy` : "Deal ID");
    const typed = !deal && s.typed ? s.typed : "";
    // A stocked deal shows what the player asked for: its grade, or its day.
    const label = s.daily ? `Daily ${s.daily}` : s.grade ? `Winnable, ${s.grade}` : "";
    const shown = typed || (deal ? "" : label);
    d.dealTyped.hidden = !shown;
    d.dealTyped.textContent = shown;
    // A replay is of a deal seen before: the last game's ID might be this one's.
    const previous = s.status === "playing" && s.origin === "replay" ? "" : this.previousDeal || "";
    d.prevDeal.hidden = !previous;
    d.prevDeal.textContent = previous ? `Last deal ${previous}` : "";
    d.prevDeal.dataset.deal = previous;
    d.prevDeal.title = previous ? "Copy the last game's deal ID" : "";
    d.review.hidden = !this.previousLost;
    d.review.dataset.game = this.previousLost || "";
  }

  updateControls() {
    const s = this.state;
    const d = this.dom;
    const playing = s && s.status === "playing";
    d.undo.disabled = !(playing && s.can_undo);
    d.redo.disabled = !(playing && s.can_redo);
    d.hint.disabled = !playing;
    d.winnable.disabled = !playing;
    d.restart.disabled = !(playing && s.can_restart);
    d.auto.hidden = !(playing && (s.auto_finish || this.autoRunning));
    d.auto.classList.toggle("running", this.autoRunning);
    d.autoLabel.textContent = this.autoRunning ? "Stop" : "Finish";
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
      this.dom.toast(answer.unavailable);
      this.dom.announce(answer.unavailable);
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
    const guess = this.state && predict(this.state, move, this.score());
    if (!guess) {
      return this.run(async () => {
        await this.show(await api.play(this.state.id, move));
      });
    }
    const entry = { id: this.state.id, move, card: movingCard(this.state.position, move) };
    this.pending.push(entry);
    this.showGuess(guess);
    return this.run(async () => {
      if (this.pending[0] !== entry) return; // taken back with a move before it
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
    const last = guess.last;
    const sound = isFoundation(last.dest) ? "home" : last.source === STOCK || last.dest === STOCK ? "draw" : "place";
    requestAnimationFrame(() => setTimeout(() => this.sound.play(sound))); // after the frame: sound may start slowly
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
    this.lastTap = { key: null, time: 0 }; // the cards are back: a tap on them is a new one
    this.suppressUntil = { pile: null, key: null, point: null, time: 0 };
    this.selection = null;
    this.targets = new Set();
    this.render();
    this.updateStatus();
    this.updateControls();
    this.refusedWords(error);
    try {
      this.setState(await api.get(this.truth.id)); // the server's table, as it is now
    } catch {
      // The last answer stands.
    }
  }

  refusedWords(error) {
    const text = error?.message || "The table changed before your move: it was taken back.";
    this.dom.toast(text);
    this.dom.announce(text);
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
    this.stopAutoIfManual();
    this.clearSelection();
    return this.run(async () => {
      if (!this.state.can_undo) return;
      this.setState(await api.undo(this.state.id));
      this.sound.play("undo");
    });
  }

  redo() {
    this.stopAutoIfManual();
    this.clearSelection();
    return this.run(async () => {
      if (!this.state.can_redo) return;
      await this.show(await api.redo(this.state.id));
    });
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
      if (this.state !== shown || this.pending.length) return; // the table has moved on
      this.dom.announce(answer.text);
      if (!answer.move) {
        this.dom.showHint(answer.text);
        return;
      }
      const m = answer.move;
      const source = answer.source ?? m.source;
      const deals = source === STOCK && m.dest !== WASTE && m.dest !== STOCK; // onto every column
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
      this.dom.showHint(answer.text); // placed once the marks are drawn, clear of them
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
        if (!this.autoRunning) return;
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
    this.autoRunning = false;
    this.updateControls();
  }

  /** Start a game: ``how`` is what api.start sends ({rules}, {deal, rules}, {share} or {replay}). */
  newGame(how) {
    this.autoRunning = false;
    return this.run(async () => {
      this.setState(await api.start(how));
    });
  }
}
