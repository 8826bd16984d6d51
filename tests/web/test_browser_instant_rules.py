"""The page's own judgement of a move shown before its answer (js/optimistic.js) agrees with
the engine's: on positions of random games under every kind of rule set, the legal moves the
page finds are the server's, and the table it shows after each move is the server's, but for
the cards the server has not named yet (a draw's, a deal's, a card uncovered), which it never
names.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from bonanza.core import Deal, Game, Rules
from bonanza.web.view import position_view, rules_views

from .browser import Table

RULE_SETS = {
    "klondike": Rules.preset("klondike"),
    "draw 3, 2 passes": Rules(draw=3, passes=2),
    "any card to an empty column, no recall, whole runs": Rules.from_dict(
        {"empty_column": "any", "recall": False, "partial_runs": False}
    ),
    "thoughtful": Rules.preset("thoughtful"),
    "double klondike": Rules.preset("double-klondike-3"),
    "westcliff": Rules.preset("westcliff"),
    "easthaven": Rules.preset("easthaven"),
}
GAMES = 3
MOVES = 120

# For each case (the state before, and for each legal move the position after): the moves
# the page finds that the server does not and the reverse, and where its table differs.
COMPARE = """
async (cases) => {
  const { legalMoves, predict } = await import("/static/js/optimistic.js");
  const key = (m) => `${m.source}>${m.dest}x${m.count}`;
  const problems = [];
  for (const { state, after } of cases) {
    const pos = state.position;
    const found = new Set(legalMoves(pos, state).map(key));
    const served = new Set(pos.legal.map(key));
    const extra = [...found].filter((k) => !served.has(k));
    const missing = [...served].filter((k) => !found.has(k));
    if (extra.length || missing.length) problems.push({ what: "legal", extra, missing, pos });
    for (const [i, move] of pos.legal.entries()) {
      const guess = predict(state, move);
      const truth = after[i];
      if (!guess) {
        problems.push({ what: "no guess", move });
        continue;
      }
      const g = guess.position;
      const named = (shown, real) =>
        shown.length === real.length && shown.every((c, j) => c === null || c === real[j]);
      const unknown = g.waste.includes(null)
        || g.columns.some((c) => c.up.includes(null) || (c.down && !c.up.length));
      const figures = (p) =>
        JSON.stringify([p.stock.count, p.foundations, p.home, p.recycles, p.recycles_left]);
      const same = figures(g) === figures(truth);
      const columns = g.columns.every((c, j) => {
        const t = truth.columns[j];
        if (c.down && !c.up.length) return c.down === t.down + 1 && t.up.length === 1; // not named
        return c.down === t.down && named(c.up, t.up);
      });
      const guessed = new Set(g.legal.map(key));
      const real = new Set(truth.legal.map(key));
      const legal = unknown
        ? [...guessed].every((k) => real.has(k)) // what the page cannot see, it does not offer
        : guessed.size === real.size && [...guessed].every((k) => real.has(k));
      const stock = JSON.stringify(g.stock.cards ?? null);
      const cards = !g.stock.cards || stock === JSON.stringify(truth.stock.cards);
      if (!(same && columns && named(g.waste, truth.waste) && legal && cards)) {
        problems.push({ what: "table", move, guess: g, truth });
      }
    }
  }
  return problems;
}
"""


def view(position: Any) -> Any:
    return msgspec.to_builtins(position_view(position))


def cases(rules: Rules, seed: int) -> list[Any]:
    """Positions of a random game, each with the position after each of its legal moves."""
    rng = random.Random(seed)
    views = rules_views(rules)
    head = {"status": "playing", "rules": msgspec.to_builtins(views.data)}
    head["table"] = msgspec.to_builtins(views.table)
    game = Game(Deal.from_number(seed, rules.decks), rules)
    found = []
    for _ in range(MOVES):
        position = game.position
        legal = position.legal_moves()
        if not legal:
            break
        after = []
        for move in legal:
            board = position.copy()
            board.play(move)
            after.append(view(board))
        found.append({"state": {**head, "position": view(position)}, "after": after})
        # Prefer moves that change the table over turning the stock, so games get somewhere.
        others = [m for m in legal if m.source.value != 7 and m.dest.value != 7]
        game.play(rng.choice(others if others and rng.random() < 0.7 else legal))
    return found


@pytest.mark.parametrize("name", RULE_SETS)
def test_the_page_judges_and_plays_moves_as_the_server_does(table: Table, name: str) -> None:
    table.open()
    rules = RULE_SETS[name]
    checked = 0
    for seed in range(GAMES):
        found = cases(rules, seed + 1)
        checked += sum(len(case["after"]) for case in found)
        problems = table.page.evaluate(COMPARE, found)
        assert problems == [], problems[:3]
    assert checked > 100
