"""Record the fair hints Klondike gets, so that any change to the hint modules
can be checked to leave them exactly as they were.

    python -m tests.solver.record_klondike_hints > tests/solver/data/klondike_hints.json

Each case is a deal (numbers 1-30, draw 1 and 3; 31-36 thoughtful), the moves played from it
(seeded random moves, or moves that follow hints at a small budget, so that
the view also holds positions already played), and the hint the engine gives
there at ``BUDGETS`` with a fixed seed: its move, words, kind and score.
``test_klondike_hints_unchanged.py`` replays every case.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any, Final

from bonanza.core import Deal, Move, Position, Rules
from bonanza.core.notation import format_move, parse_move
from bonanza.core.view import PlayerView, visible_cards
from bonanza.solver.fair import Advice, advise

DEALS: Final = range(1, 31)
DRAWS: Final = (1, 3)
THOUGHTFUL_DEALS: Final = range(31, 37)
"""A few deals more with every card visible (the solver's line)."""
BUDGETS: Final = (0.05, 1.0)
"""A small budget (checked in CI) and the default (checked on demand)."""
WALK_BUDGET: Final = 0.005
"""The budget of the hints followed to reach a position."""
MOST_MOVES: Final = 60
SEED: Final = 11


def view_after(deal: int, rules: Rules, moves: list[str]) -> PlayerView:
    """The player's view after ``moves`` from ``deal``: every card shown on
    the way counts as seen, every position passed as played."""
    position = Position.initial(Deal.from_number(deal), rules)
    seen = visible_cards(position)
    earlier = []
    for text in moves:
        earlier.append(position.copy())
        position.play(parse_move(text, position))
        seen |= visible_cards(position)
    return PlayerView.of(position, seen, earlier)


def advice_data(advice: Advice) -> dict[str, Any]:
    return {
        "move": None if advice.move is None else format_move(advice.move),
        "text": advice.text,
        "kind": advice.kind.value,
        "wins": advice.wins,
        "samples": advice.samples,
    }


def walk(deal: int, rules: Rules, chooser: random.Random, follow: bool) -> list[str]:
    """Moves from ``deal``: random ones, or hints followed (``follow``)."""
    position = Position.initial(Deal.from_number(deal), rules)
    seen = visible_cards(position)
    earlier: list[Position] = []
    moves: list[str] = []
    for _ in range(chooser.randrange(MOST_MOVES)):
        legal = position.legal_moves()
        if not legal:
            break
        move: Move | None
        if follow:
            move = advise(PlayerView.of(position, seen, earlier), budget=WALK_BUDGET,
                          seed=deal).move
            if move is None:
                break
        else:
            move = chooser.choice(legal)
        earlier.append(position.copy())
        moves.append(format_move(move))
        position.apply(move)
        seen |= visible_cards(position)
        if position.is_won():
            moves.pop()
            break
    return moves


def main() -> None:
    cases = []
    games = [(Rules(draw=draw), deal) for draw in DRAWS for deal in DEALS]
    games += [(Rules(draw=deal % 2 * 2 + 1, thoughtful=True), deal) for deal in THOUGHTFUL_DEALS]
    for rules, deal in games:
        chooser = random.Random(deal * 100 + rules.draw)
        moves = walk(deal, rules, chooser, follow=deal % 2 == 1)
        view = view_after(deal, rules, moves)
        hints = {str(budget): advice_data(advise(view, budget=budget, seed=SEED))
                 for budget in BUDGETS}
        cases.append({"deal": deal, "rules": rules.to_text(), "moves": moves,
                      "seed": SEED, "hints": hints})
        print(rules.draw, deal, len(moves), hints, file=sys.stderr, flush=True)
    json.dump(cases, sys.stdout, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
