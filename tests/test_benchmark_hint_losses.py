"""``benchmarks/hint_losses.py`` finds the move that lost a hinted game and asks the
engine again there."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bonanza.core.notation import parse_move
from bonanza.solver import solve
from bonanza.solver.fair_choice import Rule
from tests.benchmark_script import BENCHMARKS, load

RUN = BENCHMARKS / "results" / "play-strength-draw1-budget1-seed2024.jsonl"
NEVER_WON = "13994177366792079971"  # lost from the deal on, every card known
LOST_AT_A_HINT = "12036879883552769928"  # lost at move 203, a hint chosen by the votes

hint_losses = load("hint_losses", "hint_losses_under_test")


def _rows(*deals: str) -> list[str]:
    with RUN.open() as rows:
        return [row for row in rows if json.loads(row)["deal"] in deals]


def test_the_move_that_lost_is_the_last_from_a_winnable_position(tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text("".join(_rows(LOST_AT_A_HINT)))
    (game,) = hint_losses.lost_games(run)
    row = hint_losses.examine(game, 2.0)
    assert row["finding"] == "lost_at", row
    _, positions, _, _ = hint_losses.replay(game)
    index = row["index"]
    assert row["played"] == game.line[index]
    assert solve(positions[index], time_limit=2.0).result == "solved"
    assert solve(positions[index + 1], time_limit=2.0).result == "unsolvable"
    # The engine asked again tried several moves; each is judged on the true deal.
    assert row["kind"] == "sampled" and row["rule"] in {rule.value for rule in Rule}
    assert row["now"] in {tried["move"] for tried in row["tried"]}
    for tried in row["tried"]:
        after = positions[index].copy()
        after.apply(parse_move(tried["move"], positions[index]))
        assert solve(after, time_limit=2.0).result == tried["truth"], tried
        assert 0 <= tried["wins"] <= tried["samples"]
    assert any(tried["truth"] == "solved" for tried in row["tried"])


def test_it_prints_what_lost_each_game(tmp_path: Path) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text("".join(_rows(NEVER_WON, LOST_AT_A_HINT)))
    out = tmp_path / "losses.jsonl"
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "hint_losses.py"), str(run), "--time-limit", "2",
         "--out", str(out)],
        capture_output=True, text=True, timeout=120, check=True, cwd="/",
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert lines[0] == ("2 lost games: never winnable 1, lost at a move 1, "
                        "still winnable at the end 0, undecided 0"), done.stdout
    assert lines[1] == "lost at a move, the hint there now: sampled 1", done.stdout
    kept = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row["finding"] for row in kept] == ["never_winnable", "lost_at"]
