// The server API: every game action is a request; the answer is the new visible state.

export class ApiError extends Error {
  /** ``status``: the HTTP status (0: no answer); ``message``: said as a sentence. */
  constructor(status, message) {
    super(message.charAt(0).toUpperCase() + message.slice(1));
    this.status = status;
  }
}

/** What a player reads when the server cannot be reached (not the browser's own words). */
export const OFFLINE = "Can't reach the server: check your connection, then try again.";

// Every request but a GET carries a JSON body ({} when there is nothing to say):
// the server refuses writes that are not JSON, as no cross-site form can send JSON.
async function request(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (method !== "GET") {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    // the network failed ("Failed to fetch" in Chrome)
    throw new ApiError(0, OFFLINE);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const fallback = `The server could not answer (HTTP ${response.status}): try again.`;
    throw new ApiError(response.status, (data && data.error) || fallback);
  }
  return data;
}

export const api = {
  current: () => request("GET", "/api/games/current"),
  newGame: (deal, rules) => request("POST", "/api/games", { deal: deal ?? null, rules }),
  get: (id) => request("GET", `/api/games/${id}`),
  play: (id, move) =>
    request("POST", `/api/games/${id}/moves`, {
      source: move.source,
      dest: move.dest,
      count: move.count,
    }),
  undo: (id) => request("POST", `/api/games/${id}/undo`),
  redo: (id) => request("POST", `/api/games/${id}/redo`),
  restart: (id) => request("POST", `/api/games/${id}/restart`),
  auto: (id) => request("POST", `/api/games/${id}/auto`),
  hint: (id) => request("GET", `/api/games/${id}/hint`),
  progress: (id) => request("GET", `/api/games/${id}/progress`),
  // Looks at the hidden cards: the server marks the game assisted.
  winnable: (id) => request("POST", `/api/games/${id}/winnable`),
  review: (id) => request("GET", `/api/games/${id}/review`),
  settings: () => request("GET", "/api/settings"),
  saveSettings: (settings) => request("POST", "/api/settings", settings),
  stats: () => request("GET", "/api/stats"),
  daily: (draw) => request("GET", `/api/daily?draw=${draw}`),
  // The daily leaderboard of a draw mode, today's or a past day's; the player's display name.
  leaderboard: (draw, day) => request("GET", `/api/daily/leaderboard?draw=${draw}${day ? `&day=${day}` : ""}`),
  setName: (name) => request("POST", "/api/daily/name", { name }),
  resetStats: () => request("DELETE", "/api/stats"),
  // Start a game: {rules} for a random deal, {deal, rules} for a typed one,
  // {share} for a shared deal (its rules come with it), {replay: gameId} for a deal again.
  start: (how) => request("POST", "/api/games", how),
  share: (id) => request("POST", `/api/games/${id}/share`),
};
