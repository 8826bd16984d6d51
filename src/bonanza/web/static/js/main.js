// Start the game: wire the view, input, dialogs and controls to the controller.
import { api, OFFLINE } from "./api.js";
import { LINK_PARAMS, opening } from "./boot.js";
import { useCourtFigures } from "./cards.js";
import {
  ask, confirmDialog, confirmRestart, inProgress, linkDialog, newDealDialog, noMovesDialog, reviewDialog,
  settingsDialog, recordLines, winDialog,
} from "./dialogs.js";
import { formatScore, formatTime } from "./format.js";
import { catchUp } from "./elsewhere.js";
import { Controller } from "./game.js";
import { attachPointer } from "./input.js";
import { attachKeyboard } from "./keyboard.js";
import { words } from "./page_data.js";
import { savedRules } from "./saved_rules.js";
import { hasUnsaved, load as loadSettings, save as saveSettings, settings } from "./settings.js";
import { Sound } from "./sound.js";
import { TableView } from "./table.js";

const $ = (id) => document.getElementById(id);
const live = $("live");
const toastEl = $("toast");
let toastTimer = null;
// what the toast on show is, when it may be taken down early
let toastTag = null;
const TOAST_MS = 2600;
/** A link's deal that could not be started: long enough to read why. */
const LINK_ERROR_MS = 7000;
// a hint's words stay long enough to read them
const HINT_MS_PER_CHAR = 70;
const HINT_MS_MAX = 12000;

/**
 * A dialog whose module is no part of the first load (``LATER_MODULES`` in ``page.py``): fetched
 * at its first opening (a local request) and shown as soon as it comes. An opening asked for while
 * it comes is the same one; none is shown over a dialog opened meanwhile.
 */
function onFirstUse(load, open) {
  let coming = false;
  return async () => {
    if (coming) return undefined;
    coming = true;
    let module;
    try {
      module = await load();
    } catch {
      toast(OFFLINE);
      return undefined;
    } finally {
      coming = false;
    }
    if (document.querySelector("dialog[open]")) return undefined;
    return open(module);
  };
}

function announce(text) {
  live.textContent = "";
  setTimeout(() => {
    live.textContent = text;
  }, 30);
}

/**
 * Show ``text`` in the message box for ``ms``. ``tag`` names it for
 * ``untoast``; ``quiet`` keeps screen readers from reading it as an alert
 * (for words the live region says already).
 */
function toast(text, { ms = TOAST_MS, tag = null, quiet = false } = {}) {
  toastEl.textContent = text;
  toastEl.classList.remove("at-top");
  toastEl.hidden = false;
  toastEl.classList.toggle("hint-words", tag === "hint");
  if (quiet) toastEl.setAttribute("aria-hidden", "true");
  else toastEl.removeAttribute("aria-hidden");
  toastTag = tag;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => untoast(tag), ms);
}

/** Take the message box down if it still shows what ``tag`` names. */
function untoast(tag) {
  if (toastTag !== tag || toastEl.hidden) return;
  clearTimeout(toastTimer);
  toastEl.hidden = true;
  toastTag = null;
}

/** A hint's words: in the message box until the position changes (or read). */
function showHint(text) {
  const ms = Math.min(HINT_MS_MAX, Math.max(TOAST_MS, text.length * HINT_MS_PER_CHAR));
  // the live region says it
  toast(text, { ms, tag: "hint", quiet: true });
  placeClearOfMarks();
}

/** Keep the bars' heights where the message box's place reads them (``--header-h``, ``--controls-h``). */
function watchBars() {
  const root = document.documentElement.style;
  const bars = [[document.querySelector(".bar"), "--header-h"], [document.querySelector(".controls"), "--controls-h"]];
  const measure = () => {
    for (const [bar, name] of bars) if (bar) root.setProperty(name, `${bar.getBoundingClientRect().height}px`);
  };
  measure();
  const observer = new ResizeObserver(measure);
  for (const [bar] of bars) if (bar) observer.observe(bar);
}
watchBars();

/** Whether two rectangles share any area. */
function overlaps(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * Put the message box where it hides no card or pile the hint marks: above the controls
 * (its place), else under the header, else whichever hides less of them.
 */
function placeClearOfMarks() {
  const marks = [...document.querySelectorAll(".card.hint, .slot.hint")].map((e) => e.getBoundingClientRect());
  const hidden = () => {
    const box = toastEl.getBoundingClientRect();
    return marks.filter((mark) => overlaps(box, mark)).length;
  };
  const below = hidden();
  if (!below) return;
  toastEl.classList.add("at-top");
  if (hidden() > below) toastEl.classList.remove("at-top");
}

function confetti() {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const box = $("celebrate");
  const colours = ["#ffd34d", "#ff6b6b", "#7cf0a4", "#6bb7ff", "#ffffff", "#c77dff"];
  for (let i = 0; i < 90; i++) {
    const bit = document.createElement("i");
    bit.style.left = `${Math.random() * 100}vw`;
    bit.style.background = colours[i % colours.length];
    bit.style.animationDuration = `${2 + Math.random() * 2.5}s`;
    bit.style.animationDelay = `${Math.random() * 0.8}s`;
    box.append(bit);
  }
  setTimeout(() => box.replaceChildren(), 5500);
}

// the player closed "Turn your phone": not shown again on this page
let turnDismissed = false;
const view = new TableView($("table"));
const sound = new Sound();
const game = new Controller({
  view,
  sound,
  ui: {
    rulesLabel: $("rules-label"),
    gameTitle: $("game-title"),
    score: $("st-score"),
    time: $("st-time"),
    moves: $("st-moves"),
    passes: $("st-passes"),
    bankroll: $("st-bankroll"),
    bankrollBox: $("st-bankroll-box"),
    dealId: $("deal-id"),
    dealTyped: $("deal-typed"),
    prevDeal: $("prev-deal"),
    undo: $("btn-undo"),
    redo: $("btn-redo"),
    hint: $("btn-hint"),
    winnable: $("btn-winnable"),
    assisted: $("st-assisted"),
    review: $("btn-review"),
    restart: $("btn-restart"),
    auto: $("btn-auto"),
    autoLabel: $("auto-label"),
    announce,
    toast,
    // words for everyone: the box shows them, the live region says them (once)
    say: (text) => {
      toast(text, { quiet: true });
      announce(text);
    },
    dialogOpen: () => document.querySelector("dialog[open]") !== null,
    showHint,
    hideHint: () => {
      untoast("hint");
      untoast("winnable");
    },
    showWinnable: (text) => toast(text, { ms: HINT_MS_MAX, tag: "winnable", quiet: true }),
    showStuck: () => {
      $("stuck-note").hidden = false;
    },
    hideStuck: () => {
      $("stuck-note").hidden = true;
    },
    showTurn: (narrow) => {
      // Cards below a comfortable size on a phone held upright: turning it gives a larger table.
      const turn = narrow && window.matchMedia("(orientation: portrait)").matches;
      $("turn-note").hidden = !turn || turnDismissed;
    },
    noMoves: async (state) => {
      const choice = await noMovesDialog(state);
      if (choice === "undo") game.undo();
      else afterGame(choice);
    },
    celebrate: async (state) => {
      document.body.classList.add("celebrating");
      confetti();
      const records = recordLines(state).map((line) => ` ${line}.`).join("");
      announce(`You won in ${formatTime(state.elapsed)} with ${state.moves} moves. Score ${formatScore(state.rules, state.score)}.${records}`);
      const choice = await winDialog(state);
      document.body.classList.remove("celebrating");
      if (choice === "stats") await commands.stats();
      else afterGame(choice);
    },
  },
});

/**
 * What a game's end dialog chose: "new" deals at once, a random deal under the rules
 * the player last chose (as the best apps' "New game" does); "choose" opens the New
 * deal dialog, for another kind of deal.
 */
function afterGame(choice) {
  if (choice === "new") game.newGame({ rules: savedRules() });
  else if (choice === "choose") commands.newDeal();
}

const commands = {
  undo: () => game.state && game.undo(),
  redo: () => game.state && game.redo(),
  hint: () => game.state && game.hint(),
  winnable: async () => {
    if (!game.state || game.state.status !== "playing") return;
    if (!game.state.assisted) {
      const answer = await confirmDialog({
        title: words.winnable?.label, text: words.winnable?.confirm, ok: "Look", cancel: "Cancel",
      });
      if (answer !== "ok") return;
    }
    game.winnable();
  },
  review: () => {
    const id = $("btn-review").dataset.game;
    if (id) reviewDialog(() => api.review(id));
  },
  auto: () => game.state && game.toggleAuto(),
  mute: () => {
    const on = !settings.sound;
    saveSettings({ sound: on }).catch((error) => toast(error.message));
    announce(on ? "Sound on" : "Sound off");
  },
  newDeal: async () => {
    const choice = await newDealDialog(game.state);
    if (choice) game.newGame(choice);
  },
  restart: async () => {
    if (!game.state || !game.state.can_restart) return;
    if ((await confirmRestart()) === "ok") game.restart();
  },
  stats: onFirstUse(() => import("./stats_dialog.js"), (m) => m.statsDialog(toast, { ask, confirmDialog })),
  settings: async () => {
    const saved = await settingsDialog(toast, sound);
    if (!saved) return;
    if (game.state) game.state.safe_home = saved.safe_home;
    announce("Settings saved");
  },
  share: () => shareDeal(),
  help: onFirstUse(() => import("./help.js"), (m) => m.helpDialog(game.state, ask)),
};

/** Copy ``text`` to the clipboard; false where the page may not. */
async function copyText(text) {
  if (!navigator.clipboard) return false;
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A link to this game's deal that does not name it: the server keeps the deal
 * behind an opaque ID, and opens it only once this game is over (else the
 * player could look under the cards from another browser).
 */
async function shareDeal() {
  if (!game.state) return;
  let answer;
  try {
    answer = await api.share(game.state.id);
  } catch (error) {
    toast(error.message);
    return;
  }
  const link = window.location.origin + answer.url;
  const later = answer.opens_now === false ? " It opens once this game is over." : "";
  if (await copyText(link)) {
    toast(`Deal link copied.${later}`, { quiet: true });
    announce(`Deal link copied.${later}`);
  } else {
    announce(`Deal link ready to copy.${later}`);
    await linkDialog(link, later.trim());
  }
}

/** Copy a finished game's deal ID, named by the button's data-deal. */
async function copyDealId(event) {
  const button = event.currentTarget;
  if (event.detail > 0 && !button.closest("dialog")) button.blur();
  const text = button.dataset.deal;
  if (!text) return;
  const ok = await copyText(text);
  toast(ok ? `Deal ID ${text} copied` : `Deal ID: ${text}`, { quiet: true });
  announce(ok ? "Deal ID copied" : `Deal ID ${text}`);
}

/** The sound follows the settings (the table does by itself). */
function followSettings() {
  sound.configure({ on: settings.sound, volume: settings.volume });
  $("btn-mute").setAttribute("aria-pressed", String(sound.muted));
  $("btn-mute").setAttribute("aria-label", sound.muted ? "Sound off (M)" : "Sound on (M)");
}

function bind(id, command) {
  $(id).addEventListener("click", (event) => {
    // pointer clicks leave the keyboard free
    if (event.detail > 0) event.currentTarget.blur();
    command();
  });
}
bind("btn-new", commands.newDeal);
bind("btn-restart", commands.restart);
bind("btn-undo", commands.undo);
bind("btn-redo", commands.redo);
bind("btn-hint", commands.hint);
bind("btn-winnable", commands.winnable);
bind("btn-review", commands.review);
bind("btn-auto", commands.auto);
bind("btn-stats", commands.stats);
bind("btn-settings", commands.settings);
bind("btn-mute", commands.mute);
bind("btn-share", commands.share);
bind("btn-help", commands.help);
for (const id of ["deal-id", "prev-deal", "win-deal", "nomoves-deal"]) {
  $(id).addEventListener("click", copyDealId);
}
$("turn-close").addEventListener("click", () => {
  turnDismissed = true;
  $("turn-note").hidden = true;
});
$("stuck-close").addEventListener("click", () => {
  $("stuck-note").hidden = true;
  if (game.state) game.stuckDismissedAt = game.state.moves;
});

game.prefs = settings;
attachPointer($("table"), view, game);
attachKeyboard(view, game, commands);
window.addEventListener("bonanza:settings", followSettings);
// another tab may have played on, or started another game, meanwhile
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") catchUp(game);
});
followSettings();

let resizeFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(() => game.state && game.render());
});
setInterval(() => game.tick(), 500);

// -- opening the page: resume, or start the deal a link names ---------------------


/** What the page's address asks to start: a shared deal (?share=) or a typed one (?deal=). */
function linkedDeal() {
  const params = new URL(window.location.href).searchParams;
  const share = params.get("share");
  if (share) return { how: { share }, title: "Start the shared deal?" };
  const deal = params.get("deal");
  if (deal) return { how: { deal, rules: savedRules() }, typed: deal, title: "Start the deal from this link?" };
  return null;
}

function forgetLink() {
  const url = new URL(window.location.href);
  for (const name of LINK_PARAMS) url.searchParams.delete(name);
  window.history.replaceState(null, "", url);
}

/** The player's latest game, as it came with the page, else from the API (null: none, or unknown). */
async function currentGame() {
  if (opening.current !== undefined) return opening.current;
  try {
    return await api.current();
  } catch {
    return null;
  }
}

/** The server's settings, unless they came with the page; a change it has not confirmed is sent again. */
function syncSettings() {
  if (opening.settings !== undefined && !hasUnsaved()) return null;
  return loadSettings().catch(() => null);
}

/** Resume the game in progress, else start a random deal (``started``: already asked for). */
async function resumeOrDeal(current, started = null) {
  if (current && current.status === "playing") {
    if (game.state !== current) game.setState(current);
    return;
  }
  game.setState(await (started ?? api.start({ rules: savedRules() })));
  if (current) game.noteEnded(current);
}

/** Start the deal the link names, asking first when that ends a game in progress. */
async function startLinked(link, current) {
  const playing = current && current.status === "playing";
  if (playing && link.typed !== undefined && current.typed === link.typed) {
    // this very deal, already under way
    game.setState(current);
    return true;
  }
  if (inProgress(current)) {
    game.setState(current);
    const answer = await confirmDialog({
      title: link.title,
      text: "Your game in progress will count as lost.",
      ok: "Yes",
      cancel: "No",
    });
    if (answer !== "ok") {
      announce("Your game in progress goes on");
      return true;
    }
  }
  try {
    game.setState(await api.start(link.how));
    if (current && !playing) game.noteEnded(current);
    return true;
  } catch (error) {
    await resumeOrDeal(current);
    // after the new deal's own announcement, not under it
    toast(error.message, { ms: LINK_ERROR_MS });
    announce(error.message);
    // A shared deal whose game is still played opens later: keep the link for a reload.
    return !(link.how.share && error.status === 409);
  }
}

async function start() {
  const link = linkedDeal();
  const synced = syncSettings();
  const current = await currentGame();
  // the table is drawn with the server's settings
  if (opening.settings === undefined) await synced;
  if (link) {
    if (await startLinked(link, current)) forgetLink();
  } else {
    await resumeOrDeal(current, opening.started);
  }
}

start().then(() => {
  document.body.setAttribute("data-ready", "1");
  // The court figures are no part of the first load (js/courts.js): asked for once the table is
  // drawn, the emblems shown till they come.
  import("./courts.js").then((m) => useCourtFigures(m.courtFigure), () => {});
});
