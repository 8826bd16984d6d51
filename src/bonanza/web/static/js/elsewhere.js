// Another tab or window of the same player may play on the game this page shows, or start
// another game, which ends this one. The page takes the server's current game when it is shown
// again and when a move is refused on a game that has ended, so that no move of the player's,
// and no New deal warning, is about a game they cannot see.
import { api } from "./api.js";

export const ELSEWHERE = "Your game went on in another tab or window: it is shown here.";

const sameTable = (a, b) => a.id === b.id && JSON.stringify(a.position) === JSON.stringify(b.position);

/** The player's game in progress when it is not the table ``shown`` (null: it is, or none). */
async function inProgressElsewhere(shown) {
  let current;
  try {
    current = await api.current();
  } catch {
    return null;
  }
  return current && current.status === "playing" && !sameTable(current, shown) ? current : null;
}

/** Show ``current``, the game in progress, in place of the table shown; said if it is another game. */
function take(game, current) {
  const other = current.id !== game.truth.id;
  game.past = [];
  game.future = [];
  game.setState(current);
  if (!other) return;
  game.dom.say(ELSEWHERE);
}

/** The page is shown again: the game in progress, if another tab played on or started one. */
export function catchUp(game) {
  return game.run(async () => {
    if (!game.truth || game.pending.length || game.autoRunning) return;
    const current = await inProgressElsewhere(game.truth);
    if (current && !game.pending.length) take(game, current);
  });
}

/** After a refused move: the server's table as it is now, or the game in progress if that one is over. */
export async function showServerTable(game) {
  let now;
  try {
    now = await api.get(game.truth.id);
  } catch {
    // The last answer stands.
    return;
  }
  const current = now.status === "playing" ? null : await inProgressElsewhere(now);
  if (current) take(game, current);
  else game.setState(now);
}
