// Undo and redo shown at once. The page keeps the tables the server answered before and after
// each move (``past``; ``future``: those undone), and shows the one an undo goes back to (a redo
// on to) before the answer, which then replaces it; a refusal brings the table back. Every card
// shown is one the server named on that table: a card a move turned up goes face down again
// with the table from before it, which never named it.
import { api } from "./api.js";

// moves kept to go back at once
const KEPT = 40;
const same = (a, b) => a?.id === b.id && JSON.stringify(a.position) === JSON.stringify(b.position);

/** Keep the server's ``answer`` to a move (or a redo) played on ``before``, its last answer. */
export function remember(game, before, answer, redo = false) {
  if (!redo) game.future = [];
  if (before?.id === answer.id) game.past = [...game.past.slice(1 - KEPT), { before, after: answer }];
}

/** Undo (``back``) or redo: shown at once when the page has the table it leads to. */
export function step(game, back) {
  const [from, to] = back ? [game.past, game.future] : [game.future, game.past];
  const pair = from.at(-1);
  const s = game.state;
  game.stopAutoIfManual();
  game.clearSelection();
  game.forgetTaps();
  if (game.pending.length || !(back ? s.can_undo : s.can_redo) || !same(back ? pair?.after : pair?.before, s)) {
    return game.run(async () => {
      if (!(back ? game.state.can_undo : game.state.can_redo)) return;
      const answer = await (back ? api.undo : api.redo)(game.state.id);
      game.past = [];
      game.future = [];
      if (back) game.setState(answer);
      else game.show(answer);
      if (back) game.sound.play("undo");
    });
  }
  to.push(from.pop());
  // The table an undo goes back to (a redo on to), with the clock as it is; timed scoring's
  // score waits for the answer (the clock's part of it is not given back).
  const { announce, steps, progress, records, in_records, first_win, last, ...table } = back ? pair.before : pair.after;
  const score = s.timed ? s.score : table.score;
  game.state = {
    ...table, score, elapsed: s.elapsed, running: s.running, idle_cap: s.idle_cap, assisted: s.assisted,
    bankroll: s.bankroll == null ? s.bankroll : s.bankroll + score - s.score,
    can_redo: back || game.future.length > 0,
  };
  game.render();
  game.updateStatus();
  game.updateControls();
  game.sound.play(back ? "undo" : "place");
  return game.run(async () => {
    let answer;
    try {
      answer = await (back ? api.undo : api.redo)(s.id);
    } catch (error) {
      game.past = [];
      game.future = [];
      return game.refused(error);
    }
    if (!back) pair.after = answer;
    game.setState(answer, { guessed: !back });
  });
}
