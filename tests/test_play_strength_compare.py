"""benchmarks/play_strength_compare.py: two engines' runs, compared deal by deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.benchmark_script import load

COMPARE = load("play_strength_compare", "play_strength_compare")


def _write(path: Path, results: dict[str, bool], **settings: object) -> str:
    rows = [{"deal": deal, "won": won, "end": "won" if won else "no move", "moves": 100,
             **settings} for deal, won in results.items()]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows) + '{"deal": "cut')
    return str(path)


def test_mcnemar_matches_the_binomial_tail() -> None:
    assert COMPARE.mcnemar_p(0, 0) == 1.0
    assert COMPARE.mcnemar_p(3, 3) == 1.0
    assert COMPARE.mcnemar_p(0, 6) == pytest.approx(2 / 64)  # 2 * (1/2)^6
    assert COMPARE.mcnemar_p(1, 9) == pytest.approx(2 * 11 / 1024)
    assert COMPARE.mcnemar_p(9, 1) == COMPARE.mcnemar_p(1, 9)


def test_only_common_deals_count_and_discordant_ones_decide(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = _write(tmp_path / "old.jsonl", {"1": True, "2": False, "3": False, "4": True})
    new = _write(tmp_path / "new.jsonl", {"2": True, "3": True, "4": True, "9": False})
    assert COMPARE.main([old, new]) == 0
    out = capsys.readouterr().out
    assert "deals in both: 3" in out
    assert "first: won 1 " in out and "second: won 3 " in out
    assert "by the first only: 0; by the second only: 2" in out


def test_the_paired_interval_is_newcombes_method_10() -> None:
    # Newcombe (1998), paired example: 12 both, 9 and 2 discordant, 21 neither;
    # method 10 gives 0.0112 to 0.2954 for first minus second
    difference, low, high = COMPARE.paired_difference(12, 9, 2, 21)
    assert difference == pytest.approx(-7 / 44)
    assert (low, high) == pytest.approx((-0.2954, -0.0112), abs=5e-4)
    assert COMPARE.paired_difference(5, 0, 0, 5)[0] == 0.0
    assert COMPARE.paired_difference(0, 0, 0, 0) == (0.0, -1.0, 1.0)


def test_the_set_and_any_other_difference_are_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    won = {"1": True, "2": False, "3": True}
    old = _write(tmp_path / "old.jsonl", won, seed=271828, budget=1.0)
    new = _write(tmp_path / "new.jsonl", won, seed=271828, budget=1.0)
    assert COMPARE.main([old, new]) == 0
    out = capsys.readouterr().out
    assert "the held-out set (seed 271828): a report, not a choice" in out
    assert "NOTE" not in out and "+0.0 points" in out
    cheap = _write(tmp_path / "cheap.jsonl", won, seed=2024, budget=0.1)
    tuned = _write(tmp_path / "tuned.jsonl", {**won, "2": True}, seed=2024, budget=1.0)
    assert COMPARE.main([cheap, tuned]) == 0
    out = capsys.readouterr().out
    assert "the tuning set (seed 2024)" in out and "differ in budget: 0.1, 1.0" in out
    assert "second minus first: +33.3 points" in out


def test_a_missing_file_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert COMPARE.main([str(tmp_path / "none.jsonl"), str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No such file" in err


# benchmarks/play_strength.py's sets (issue 34): tuning and held-out deals apart.

STRENGTH = load("play_strength", "play_strength")


def test_the_sets_are_apart_and_the_tuning_set_is_seed_2024() -> None:
    from bonanza.solver.fair_sets import HELD_OUT, SEEDS, TUNING, set_of_seed

    assert SEEDS[TUNING] == 2024 and STRENGTH.DEFAULT_SEED == 2024
    tuning = set(STRENGTH.deal_numbers(500, SEEDS[TUNING]))
    held_out = set(STRENGTH.deal_numbers(500, SEEDS[HELD_OUT]))
    assert not tuning & held_out
    assert set_of_seed(SEEDS[HELD_OUT]) == HELD_OUT and set_of_seed(7) is None


def _rows(path: Path, games: int) -> None:
    path.write_text("".join(json.dumps({"id": str(n), "won": True}) + "\n" for n in range(games)))


def test_a_held_out_run_is_named_by_engine_and_resumed_until_played(tmp_path: Path) -> None:
    path, warnings = STRENGTH.held_out_file(tmp_path, 3, 1.0, 200, ("abc1234", False))
    assert path.name == "play-strength-held-out-draw3-budget1-seed271828-abc1234.jsonl"
    assert warnings == []
    _rows(path, 120)
    again, warnings = STRENGTH.held_out_file(tmp_path, 3, 1.0, 200, ("abc1234", False))
    assert again == path and "resuming" in warnings[0] and "120 games" in warnings[0]


def test_a_played_held_out_set_is_refused_unless_forced(tmp_path: Path) -> None:
    path, _ = STRENGTH.held_out_file(tmp_path, 1, 1.0, 200, ("abc1234", False))
    _rows(path, 200)
    with pytest.raises(STRENGTH.HeldOutRefused, match="played already by engine abc1234"):
        STRENGTH.held_out_file(tmp_path, 1, 1.0, 200, ("abc1234", False))
    forced, warnings = STRENGTH.held_out_file(tmp_path, 1, 1.0, 200, ("abc1234", False), True)
    assert forced.name.endswith("-abc1234-run2.jsonl") and "AGAIN" in warnings[0]
    # another engine version, or another budget, is a run of its own
    other, _ = STRENGTH.held_out_file(tmp_path, 1, 1.0, 200, ("def5678", False))
    assert other != path
    assert STRENGTH.held_out_file(tmp_path, 1, 0.3, 200, ("abc1234", False))[0] != path


def test_an_engine_with_uncommitted_changes_is_refused(tmp_path: Path) -> None:
    with pytest.raises(STRENGTH.HeldOutRefused, match="uncommitted"):
        STRENGTH.held_out_file(tmp_path, 1, 1.0, 200, ("abc1234", True))
    path, warnings = STRENGTH.held_out_file(tmp_path, 1, 1.0, 200, ("abc1234", True), True)
    assert "abc1234-dirty" in path.name and "uncommitted" in warnings[0]


def test_held_out_takes_no_out_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        STRENGTH.main(["--set", "held-out", "--out", str(tmp_path / "x.jsonl")])
    assert "keeps its own file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        STRENGTH.main(["--set", "held-out", "--seed", "5"])


def test_a_replay_starts_where_play_may_part_and_copies_the_rest() -> None:
    base = {
        "1": {"id": "1", "won": True, "line": ["sw", "71", "fh3", "3f"]},
        "2": {"id": "2", "won": False, "line": ["sw", "71"]},
    }
    prefixes, copied = STRENGTH.replay_plan(base, ["1", "2", "3"], r"^f[cdhs]\d")
    assert prefixes == {"1": ["sw", "71"]}
    assert copied == {"2": {**base["2"], "copied": True}}  # "3", not in BASE: played whole


def test_a_game_from_its_own_prefix_is_the_same_game() -> None:
    from bonanza.cli.autoplay import Settings, play_game
    from bonanza.core import Rules

    settings = Settings(Rules(draw=1), budget=0.002, seed=3, max_moves=60)
    whole = play_game("5", "5", settings)
    again = play_game("5", "5", settings, prefix=whole["line"][:25])
    assert again["line"] == whole["line"] and again["end"] == whole["end"]
    assert again["prefix"] == 25 and len(again["move_seconds"]) == whole["moves"] - 25
