// Start the game: wire the view, input, dialogs and controls to the controller.
import { api } from "./api.js";
import { confirmRestart, newDealDialog, noMovesDialog, savedRules, statsDialog, winDialog } from "./dialogs.js";
import { Controller, formatTime } from "./game.js";
import { attachPointer } from "./input.js";
import { attachKeyboard } from "./keyboard.js";
import { Sound } from "./sound.js";
import { TableView } from "./table.js";

const $ = (id) => document.getElementById(id);
const live = $("live");
const toastEl = $("toast");
let toastTimer = null;

function announce(text) {
  live.textContent = "";
  setTimeout(() => {
    live.textContent = text;
  }, 30);
}

function toast(text) {
  toastEl.textContent = text;
  toastEl.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    toastEl.hidden = true;
  }, 2600);
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

const view = new TableView($("table"));
const sound = new Sound();
const game = new Controller({
  view,
  sound,
  ui: {
    score: $("st-score"),
    time: $("st-time"),
    moves: $("st-moves"),
    passes: $("st-passes"),
    dealId: $("deal-id"),
    undo: $("btn-undo"),
    redo: $("btn-redo"),
    hint: $("btn-hint"),
    restart: $("btn-restart"),
    auto: $("btn-auto"),
    autoLabel: $("auto-label"),
    announce,
    toast,
    showStuck: () => {
      $("stuck-note").hidden = false;
    },
    hideStuck: () => {
      $("stuck-note").hidden = true;
    },
    noMoves: async () => {
      const choice = await noMovesDialog();
      if (choice === "undo") game.undo();
      else if (choice === "new") commands.newDeal();
    },
    celebrate: async (state) => {
      document.body.classList.add("celebrating");
      confetti();
      announce(`You won in ${formatTime(state.elapsed)} with ${state.moves} moves. Score ${state.score}.`);
      const choice = await winDialog(state);
      document.body.classList.remove("celebrating");
      if (choice === "stats") await statsDialog(toast);
      if (choice === "new") commands.newDeal();
    },
  },
});

const commands = {
  undo: () => game.state && game.undo(),
  redo: () => game.state && game.redo(),
  hint: () => game.state && game.hint(),
  auto: () => game.state && game.toggleAuto(),
  mute: () => {
    const muted = sound.toggle();
    showMute();
    announce(muted ? "Sound off" : "Sound on");
  },
  newDeal: async () => {
    const choice = await newDealDialog(game.state);
    if (choice) game.newGame(choice.deal, choice.rules);
  },
  restart: async () => {
    if (!game.state || game.state.moves === 0) return;
    if ((await confirmRestart()) === "ok") game.restart();
  },
  stats: () => statsDialog(toast),
};

function showMute() {
  $("btn-mute").setAttribute("aria-pressed", String(sound.muted));
  $("btn-mute").setAttribute("aria-label", sound.muted ? "Sound off (M)" : "Sound on (M)");
}

function bind(id, command) {
  $(id).addEventListener("click", (event) => {
    if (event.detail > 0) event.currentTarget.blur(); // pointer clicks leave the keyboard free
    command();
  });
}
bind("btn-new", commands.newDeal);
bind("btn-restart", commands.restart);
bind("btn-undo", commands.undo);
bind("btn-redo", commands.redo);
bind("btn-hint", commands.hint);
bind("btn-auto", commands.auto);
bind("btn-stats", commands.stats);
bind("btn-mute", commands.mute);
$("stuck-close").addEventListener("click", () => {
  $("stuck-note").hidden = true;
  if (game.state) game.stuckDismissedAt = game.state.moves;
});

$("deal-id").addEventListener("click", async (event) => {
  if (event.detail > 0) event.currentTarget.blur();
  if (!game.state) return;
  const text = game.state.deal;
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    ok = document.execCommand("copy");
    area.remove();
  }
  toast(ok ? `Deal ID ${text} copied` : `Deal ID: ${text}`);
  announce(ok ? "Deal ID copied" : `Deal ID ${text}`);
});

attachPointer($("table"), view, game);
attachKeyboard(view, game, commands);
showMute();

let resizeFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resizeFrame);
  resizeFrame = requestAnimationFrame(() => game.state && game.render());
});
setInterval(() => {
  if (game.state && game.state.running) $("st-time").textContent = formatTime(game.elapsed());
}, 500);

async function start() {
  const wanted = new URL(window.location.href).searchParams.get("deal");
  let current = null;
  try {
    current = await api.current();
  } catch {
    current = null;
  }
  const matches = current && wanted && (current.deal === wanted || current.deal_code === wanted);
  if (current && (matches || (!wanted && current.status === "playing"))) {
    game.setState(current);
    return;
  }
  try {
    game.setState(await api.newGame(wanted || null, savedRules()));
  } catch (error) {
    toast(error.message);
    game.setState(await api.newGame(null, savedRules()));
  }
}

start().then(() => document.body.setAttribute("data-ready", "1"));
