// The header: the game's figures (score, time, moves, passes, bankroll), its deal place, and
// which buttons may be pressed, for the table the controller shows (game.js).
import { api } from "./api.js";
import { formatMoney, formatScore, formatTime, tableLabel } from "./format.js";

// timed scoring takes 2 points for every full 10 s played
const TIMED_TICK_SECONDS = 10;
const TIMED_TICK_POINTS = 2;

/**
 * The ID of a game that ended when another began: its answer names its deal
 * once it is over, so ask the server for it again when the last answer did not.
 */
export function noteEnded(game, old) {
  const asked = ++game.previousAsked;
  const show = (ended) => {
    if (!ended.deal || asked !== game.previousAsked) return;
    game.previousDeal = ended.deal;
    game.previousLost = ended.status === "lost" ? ended.id : null;
    showDealBox(game);
  };
  if (old.deal) {
    show(old);
    return;
  }
  api.get(old.id).then(show, () => {});
}

export function elapsed(game) {
  if (!game.state) return 0;
  const away = (performance.now() - game.receivedAt) / 1000;
  const extra = game.state.running ? Math.min(away, game.state.idle_cap) : 0;
  return game.state.elapsed + extra;
}

/** The score now: in timed scoring, 2 points go with every full 10 s since the answer. */
export function score(game) {
  const s = game.state;
  if (!s || !s.timed || !s.running) return s ? s.score : 0;
  const ticks = Math.floor(elapsed(game) / TIMED_TICK_SECONDS)
    - Math.floor(s.elapsed / TIMED_TICK_SECONDS);
  return Math.max(0, s.score - TIMED_TICK_POINTS * Math.max(0, ticks));
}

/** Keep the clock (and a timed score) running between answers. */
export function tick(game) {
  if (!game.state || !game.state.running) return;
  game.dom.time.textContent = formatTime(elapsed(game));
  game.dom.score.textContent = formatScore(game.state.rules, score(game));
}

export function showStatus(game) {
  const s = game.state;
  if (!s) return;
  const d = game.dom;
  const title = s.table?.title ?? "Klondike";
  d.rulesLabel.textContent = tableLabel(s);
  // whole, where a narrow header cuts the words short or leaves the game's name out
  d.rulesLabel.title = `${title} · ${tableLabel(s)}`;
  d.gameTitle.textContent = title;
  d.score.textContent = formatScore(s.rules, score(game));
  d.time.textContent = formatTime(elapsed(game));
  d.moves.textContent = String(s.moves);
  const passes = s.rules.passes;
  // a stock dealt onto the columns has no passes
  d.passes.parentElement.hidden = s.table?.waste === false;
  d.passes.textContent = passes === null
    ? String(s.position.recycles + 1)
    : `${s.position.recycles + 1}/${passes}`;
  const hasBankroll = typeof s.bankroll === "number";
  d.bankrollBox.hidden = !hasBankroll;
  d.bankroll.textContent = hasBankroll ? formatMoney(s.bankroll) : "";
  d.assisted.hidden = !s.assisted;
  showDealBox(game);
}

/**
 * The header's deal place. While a game is played its deal stays unknown to
 * the page (the ID names every hidden card): only the text the player typed
 * is shown, beside the button that copies a link to the deal. Once over, the
 * server gives the deal's ID, shown to copy.
 */
export function showDealBox(game) {
  const s = game.state;
  const d = game.dom;
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
  d.dealTyped.title = shown;
  // A replay is of a deal seen before: the last game's ID might be this one's.
  const previous = s.status === "playing" && s.origin === "replay" ? "" : game.previousDeal || "";
  d.prevDeal.hidden = !previous;
  d.prevDeal.textContent = previous ? `Last deal ${previous}` : "";
  d.prevDeal.dataset.deal = previous;
  d.prevDeal.title = previous ? "Copy the last game's deal ID" : "";
  d.review.hidden = !game.previousLost;
  d.review.dataset.game = game.previousLost || "";
}

export function showControls(game) {
  const s = game.state;
  const d = game.dom;
  const playing = s && s.status === "playing";
  d.undo.disabled = !(playing && s.can_undo);
  d.redo.disabled = !(playing && s.can_redo);
  d.hint.disabled = !playing;
  d.winnable.disabled = !playing;
  d.restart.disabled = !(playing && s.can_restart);
  d.auto.hidden = !(playing && (s.auto_finish || game.autoRunning));
  d.auto.classList.toggle("running", game.autoRunning);
  d.autoLabel.textContent = game.autoRunning ? "Stop" : "Finish";
}
