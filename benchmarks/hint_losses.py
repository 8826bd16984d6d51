"""Where the fair hints lose games, and what the engine does there now.

    python benchmarks/hint_losses.py RUN.jsonl [--games 50] [--skip 0] [--time-limit 3]
        [--out LOSSES.jsonl]

RUN is a file of whole games played by the hints (``benchmarks/play_strength.py``,
``bonanza autoplay --out``). For each lost game, in the file's order, the exact
solver finds the move that lost it (``bonanza.solver.review``: the last position
from which the deal, every card known, could still be won). The hint engine of
this checkout is asked again there, with the run's budget and hint seed, and
each move it tried is solved on the true deal. The summary says what kind of
hint lost the game, how often the engine's move still loses where a move it
tried wins, and, by the rule that chose among near-ties (``fair_choice.Rule``),
how often the move that scored best would have kept the deal.

The engine sees only what the player saw; the true deal is used only to judge
its choices afterwards. The losing positions are those where the run's engine
erred, so they show what goes wrong, not how often a change would help: judge
a change by whole games (``play_strength.py``, ``play_strength_compare.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bonanza.cli.autoplay import move_seed
from bonanza.core import Deal, Position, Rules
from bonanza.core.moves import Move
from bonanza.core.notation import format_move
from bonanza.core.view import PlayerView
from bonanza.session import Origin, Session
from bonanza.solver import solve
from bonanza.solver.fair import advise
from bonanza.solver.review import review

TIME_LIMIT = 3.0
"""Seconds each of the exact solver's solves may take, by default."""
TOTAL_LIMIT_PER_SOLVE = 40
"""A review may take this many solves' time in all (it needs about log2 of the moves)."""


@dataclass(frozen=True, slots=True)
class Game:
    """One lost game of a run: its deal, rules, budget, hint seed and moves."""

    text: str
    rules: Rules
    budget: float
    seed: int
    line: tuple[str, ...]


def lost_games(path: Path) -> Iterator[Game]:
    """The run's lost games, in the file's order."""
    with path.open() as rows:
        for text in rows:
            row = json.loads(text)
            if not row["won"]:
                yield Game(row["deal"], Rules.from_dict(row["rules"]), float(row["budget"]),
                           int(row["seed"]), tuple(row["line"]))


def replay(game: Game) -> tuple[Deal, list[Position], list[Move], list[PlayerView]]:
    """The deal, the game's true positions and moves, and the player's view at
    each position."""
    deal = Deal.parse(game.text, game.rules.decks)
    session = Session.new(deal, game.rules, time.monotonic(), origin=Origin.TYPED,
                          typed=game.text, max_moves=max(len(game.line), 1))
    positions, views = [session.snapshot()], [session.view()]
    for text in game.line:
        session.play(text, time.monotonic())
        positions.append(session.snapshot())
        views.append(session.view())
    return deal, positions, session.game.history, views


def truth(position: Position, move: Move, time_limit: float) -> str:
    """The exact solver's verdict on the true position after ``move``."""
    after = position.copy()
    after.apply(move)
    return solve(after, time_limit=time_limit, shorten=False).result


def examine(game: Game, time_limit: float) -> dict[str, Any]:
    """One lost game: where it was lost, and what the engine does there now."""
    deal, positions, moves, views = replay(game)
    found = review(positions, moves, time_limit, time_limit * TOTAL_LIMIT_PER_SOLVE)
    row: dict[str, Any] = {"deal": game.text, "finding": found.finding, "moves": len(moves)}
    if found.finding != "lost_at" or found.index is None:
        return row
    index = found.index
    view = views[index]
    advice = advise(view, budget=game.budget,
                    seed=move_seed(game.seed, deal.id, index))
    row.update(index=index, played=game.line[index], hidden=view.unknown_places,
               now=format_move(advice.move) if advice.move else None,
               kind=advice.kind.value, rule=advice.rule.value if advice.rule else None)
    row["tried"] = [
        {"move": format_move(scored.move), "wins": scored.wins, "samples": scored.samples,
         "votes": scored.votes, "truth": truth(positions[index], scored.move, time_limit)}
        for scored in advice.scored
    ]
    if advice.move is not None and not advice.scored:
        row["now_truth"] = truth(positions[index], advice.move, time_limit)
    return row


def best_scored(row: dict[str, Any]) -> dict[str, Any]:
    """The move that scored best (most wins per layout, then most votes)."""
    return max(row["tried"], key=lambda t: (t["wins"] / max(t["samples"], 1), t["votes"]))


def summary(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The report's lines."""
    findings = Counter(row["finding"] for row in rows)
    lost = [row for row in rows if row["finding"] == "lost_at"]
    lines = [
        f"{len(rows)} lost games: never winnable {findings['never_winnable']}, "
        f"lost at a move {len(lost)}, still winnable at the end {findings['still_winnable']}, "
        f"undecided {findings['unknown']}",
        "lost at a move, the hint there now: "
        + ", ".join(f"{kind} {count}" for kind, count in
                    Counter(row["kind"] for row in lost).most_common()),
        "  the engine still plays the move that lost: "
        f"{sum(row['now'] == row['played'] for row in lost)}",
    ]
    sampled = [row for row in lost if row["tried"]]
    if not sampled:
        return lines
    lines.append("sampled hints, by the rule that chose: cases; the engine's move wins; "
                 "a tried move wins; the best-scoring move wins")
    by_rule: dict[str, list[dict[str, Any]]] = {}
    for row in sampled:
        by_rule.setdefault(row["rule"], []).append(row)
    for rule, group in sorted(by_rule.items(), key=lambda item: -len(item[1])):
        wins_now = sum(_wins(row, row["now"]) for row in group)
        any_wins = sum(any(t["truth"] == "solved" for t in row["tried"]) for row in group)
        best_wins = sum(best_scored(row)["truth"] == "solved" for row in group)
        lines.append(f"  {rule}: {len(group)}; {wins_now}; {any_wins}; {best_wins}")
    return lines


def _wins(row: dict[str, Any], move: str | None) -> bool:
    return any(t["move"] == move and t["truth"] == "solved" for t in row["tried"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a .jsonl file of games played by the hints")
    parser.add_argument("--games", type=int, default=50, help="lost games to examine")
    parser.add_argument("--skip", type=int, default=0, help="lost games to pass over first")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT,
                        help="seconds for each exact solve")
    parser.add_argument("--out", type=Path, help="keep each game's findings in this .jsonl")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    for number, game in enumerate(lost_games(args.run)):
        if number < args.skip:
            continue
        if len(rows) == args.games:
            break
        row = examine(game, args.time_limit)
        rows.append(row)
        if args.out:
            with args.out.open("a") as out:
                out.write(json.dumps(row) + "\n")
    for line in summary(rows):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
