// The player's settings, kept by the server, on <html> before the first paint: the
// server's come with the page (boot.js), else a copy kept in localStorage.
import { api } from "./api.js";
import { words } from "./page_data.js";

const COPY = "bonanza.settings";
const UNSAVED = "bonanza.settings.unsaved";

/** The settings in force: the server's defaults (with the page) until known. */
export const settings = { ...words.defaults?.settings };

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}

function keep(key, value) {
  try {
    if (Object.keys(value).length) localStorage.setItem(key, JSON.stringify(value));
    else localStorage.removeItem(key);
  } catch {
    // a copy only
  }
}

/** Put ``values`` (any settings) on the page. */
export function apply(values) {
  for (const name in settings) if (name in values) settings[name] = values[name];
  const data = document.documentElement.dataset;
  data.theme = settings.theme;
  data.back = settings.card_back;
  data.size = settings.card_size;
  if (settings.left_handed) data.hand = "left";
  else delete data.hand;
  keep(COPY, settings);
  window.dispatchEvent(new Event("bonanza:settings"));
}

/** Apply ``changes`` and save them (kept in localStorage until the server has them). */
export async function save(changes) {
  const sent = { ...read(UNSAVED), ...changes };
  keep(UNSAVED, sent);
  apply(changes);
  const settled = () => JSON.stringify(read(UNSAVED)) === JSON.stringify(sent) && keep(UNSAVED, {});
  const answer = await api.saveSettings(sent).catch((error) => {
    // refused, not lost: not sent again
    if (error.status) settled();
    throw error;
  });
  // unless changed since
  settled();
  apply({ ...answer, ...read(UNSAVED) });
  return answer;
}

/**
 * On the page before its first paint: ``given``, the server's settings that came
 * with the page (none: the copy kept in this browser), under the changes the
 * server has not confirmed yet.
 */
export function show(given) {
  apply({ ...read(COPY), ...given, ...read(UNSAVED) });
}

/** Whether a change the server has not confirmed waits here (load() sends it). */
export function hasUnsaved() {
  return !!read(UNSAVED);
}

/** The server's settings, on the page. */
export async function load() {
  const unsaved = read(UNSAVED);
  if (unsaved) {
    try {
      return await save(unsaved);
    } catch {
      // refused (the server's copy stands), or the server is away
    }
  }
  const answer = await api.settings();
  apply(answer);
  return answer;
}

