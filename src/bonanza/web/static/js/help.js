// Help: the rules of the game in play, the controls, scoring, tips and the odds, in tabs.
// Its words (help.html) and style (help.css) are fetched on the first opening, and so is this
// module itself (by import(), from main.js): it is no part of the first load, and imports nothing.

const WORDS_URL = "/static/help.html";
const STYLE_URL = "/static/help.css";
// the help's words, once asked for
let loading = null;

/** The game in play and its rules, in the server's words: "Draw 1 · …" for Klondike, "Westcliff · Draw 1 · …" for the others. */
function gameLabel(state) {
  const { table } = state;
  const label = state.rules_words?.label ?? "";
  return table && table.game !== "klondike" ? `${table.title} · ${label}` : label;
}

/** Fill the Rules section of the help's words in for the game in play (each rule's term comes from the server). */
function fillRules(section, words, state) {
  const { rules, position, rules_words: named } = state;
  const fill = {
    draw: rules.draw,
    recycles: named?.recycles ?? "",
    left: (position.passes_left ?? "").toLowerCase(),
  };
  section.querySelector("[data-this-game]").textContent = `This game: ${gameLabel(state)}`;
  const game = state.table?.game ?? "klondike";
  const gameWords = words.querySelector(`[data-game="${game}"]`)?.textContent;
  const place = section.querySelector("[data-game-words]");
  if (place && gameWords) {
    place.textContent = gameWords;
    place.hidden = false;
  }
  const list = section.querySelector(".help-rules");
  for (const { term, key } of named?.terms ?? []) {
    const text = words.querySelector(`[data-rule="${key}"]`)?.textContent ?? "";
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = term;
    dd.textContent = text.replace(/\{(\w+)\}/g, (_, name) => fill[name]);
    list.append(dt, dd);
  }
}

function loadStyle() {
  if (document.querySelector(`link[href="${STYLE_URL}"]`)) return Promise.resolve();
  return new Promise((resolve) => {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: STYLE_URL });
    link.addEventListener("load", resolve, { once: true });
    // unstyled help is still help
    link.addEventListener("error", resolve, { once: true });
    document.head.append(link);
  });
}

/** The help's words as a document, fetched once (null when they cannot be had). */
function loadWords() {
  loading ??= Promise.all([fetch(WORDS_URL), loadStyle()])
    .then(([response]) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.text();
    })
    .then((html) => new DOMParser().parseFromString(html, "text/html"))
    .catch(() => {
      // try again at the next opening
      loading = null;
      return null;
    });
  return loading;
}

/** The sections to show: the help's words, the Rules made for ``state``. */
function sectionsFor(words, state) {
  if (!words) {
    const section = document.createElement("section");
    section.dataset.title = "Rules";
    section.textContent = `This game: ${gameLabel(state)}. The rest of the help could not be loaded: try again later.`;
    return [section];
  }
  const sections = [...words.querySelectorAll("section")].map((s) => document.importNode(s, true));
  const rules = sections.find((s) => s.hasAttribute("data-rules"));
  if (rules) fillRules(rules, words, state);
  return sections;
}

/** Show ``sections`` as tabs in ``box``, the first selected; arrows, Home and End move along. */
function showTabs(box, sections) {
  const tabs = document.createElement("div");
  tabs.className = "help-tabs";
  tabs.setAttribute("role", "tablist");
  tabs.setAttribute("aria-label", "Help sections");
  const buttons = sections.map((section, i) => {
    const button = document.createElement("button");
    Object.assign(button, { type: "button", id: `help-tab-${i}`, textContent: section.dataset.title });
    button.setAttribute("role", "tab");
    button.setAttribute("aria-controls", `help-panel-${i}`);
    Object.assign(section, { id: `help-panel-${i}`, className: "help-panel", tabIndex: 0 });
    section.setAttribute("role", "tabpanel");
    section.setAttribute("aria-labelledby", button.id);
    return button;
  });
  const select = (index, focus = false) => {
    buttons.forEach((button, i) => {
      button.setAttribute("aria-selected", String(i === index));
      button.tabIndex = i === index ? 0 : -1;
      sections[i].hidden = i !== index;
    });
    if (focus) buttons[index].focus();
  };
  tabs.addEventListener("click", (event) => {
    const i = buttons.indexOf(event.target.closest("[role=tab]"));
    if (i >= 0) select(i);
  });
  tabs.addEventListener("keydown", (event) => {
    const now = buttons.indexOf(document.activeElement);
    const n = buttons.length;
    const next = { ArrowRight: now + 1, ArrowLeft: now - 1 + n, Home: 0, End: n - 1 }[event.key];
    if (now < 0 || next === undefined) return;
    event.preventDefault();
    select(next % n, true);
  });
  tabs.append(...buttons);
  box.replaceChildren(tabs, ...sections);
  select(0);
}

/**
 * The help dialog, opened on the Rules of the game in play; Esc or Close shuts it
 * and the focus goes back where it was. ``ask``: dialogs.js's, handed in by main.js.
 */
export async function helpDialog(state, ask) {
  const dialog = document.getElementById("dlg-help");
  if (dialog.open || !state) return;
  const back = document.activeElement;
  const words = await loadWords();
  // another opened meanwhile
  if (dialog.open || document.querySelector("dialog[open]")) return;
  showTabs(document.getElementById("help-body"), sectionsFor(words, state));
  await ask(dialog);
  if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus();
}
