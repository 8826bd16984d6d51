"""``bonanza solve`` and ``bonanza analyze``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from bonanza.cli import main
from bonanza.core import Deal, Game, Position, Rules
from bonanza.core.notation import parse_move


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_prints_verdict_moves_nodes_time(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "2")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("deal 2 (") and lines[0].endswith(": solved")
    assert lines[1].split(":")[0].endswith("moves")
    assert "nodes" in lines[2] and lines[2].endswith(" s CPU)")


def test_solve_json_replays(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "5", "--draw", "3", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["result"] == "solved" and data["nodes"] >= 1 and data["seconds"] >= 0
    position = Position.initial(Deal.from_number(5), Rules(draw=3))
    for item in data["moves"]:
        move = parse_move(item["move"], position)
        assert item["count"] == move.count
        if move.is_draw or move.is_recycle:
            assert item["card"] is None
        else:
            assert item["card"] == str(position.moving_cards(move)[0])
        assert item["from"] in {"stock", "waste", "foundation", *(f"t{i}" for i in range(1, 8))}
        position.play(move)
    assert position.is_won()


def test_solve_unsolvable_with_a_listing(capsys: pytest.CaptureFixture[str]) -> None:
    listing = Deal.from_number(3).listing
    status, out, _ = run(capsys, "solve", listing, "--draw", "3", "--passes", "1", "--json")
    assert status == 0
    assert json.loads(out)["result"] == "unsolvable"


def test_solve_a_saved_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = Game(Deal.from_number(0), Rules())
    game.play("sw")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.to_json()))
    status, out, _ = run(capsys, "solve", str(path), "--json")
    assert status == 0
    data = json.loads(out)
    position = game.position.copy()
    for item in data["moves"]:
        position.play(parse_move(item["move"], position))
    assert position.is_won()


def test_a_deal_number_is_the_deal_even_beside_a_file_of_that_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game(Deal.from_number(9), Rules())
    game.play(game.legal_moves()[0])
    (tmp_path / "5").write_text(game.to_text())
    monkeypatch.chdir(tmp_path)
    status, out, _ = run(capsys, "solve", "5")
    assert status == 0 and out.startswith("deal 5 (")
    status, out, _ = run(capsys, "solve", "./5")  # the file, named as a path
    assert status == 0 and out.startswith("./5 (deal 9, move 1)")


def test_solve_the_save_of_a_terminal_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The file ``bonanza play --save`` writes: a session's JSON, as the terminal game
    writes it (docs/solver.md says ``solve`` reads it)."""
    from bonanza.cli.play import read_save
    from bonanza.session import Session

    rules = Rules(draw=3, passes=3)
    session = Session.new(Deal.from_number(5), rules, now=0.0)
    for move in ("sw", "sw"):
        session.play(parse_move(move, session.position), now=1.0)
    path = tmp_path / "save.json"
    path.write_text(json.dumps(session.to_json()), encoding="utf-8")
    assert read_save(path).game.history_texts == ["sw", "sw"]  # the terminal game reads it
    status, out, err = run(capsys, "solve", str(path), "--json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["rules"]["draw"] == 3 and data["rules"]["passes"] == 3  # the save's rules
    position = session.position.copy()
    for item in data["moves"]:
        position.play(parse_move(item["move"], position))
    assert data["result"] == "solved" and position.is_won()
    status, out, _ = run(capsys, "solve", str(path))
    assert status == 0 and out.startswith(f"{path} (deal 5, move 2) (draw 3, 3 passes")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "not-a-deal"], "not-a-deal"),
        (["solve", "3", "--draw", "0"], "draw"),
        (["solve", "3", "--passes", "0"], "passes"),
        (["solve", "3", "--time-limit", "-1"], "time limit"),
        (["solve", "3", "--time-limit", "1", "--clock", "sundial"], "--clock"),
        (["solve", "3", "--memory-limit", "0"], "memory limit"),
    ],
)
def test_solve_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert err.count("\n") == 1


def test_solve_bad_saved_game_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "something else"}')
    status, _, err = run(capsys, "solve", str(path))
    assert status == 2 and "saved" in err and err.count("\n") == 1


@pytest.mark.parametrize("cut", [1, 50, 400])
def test_solve_a_json_save_cut_short_tells_the_json_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cut: int
) -> None:
    # Not the text format's "the first line is not 'bonanza-game 1'".
    game = Game(Deal.from_number(5), Rules())
    game.play("sw")
    content = json.dumps(game.to_json())[:cut]
    path = tmp_path / "cut.json"
    path.write_text(content)
    try:
        json.loads(content)
    except ValueError as error:
        reason = str(error)
    status, out, err = run(capsys, "solve", str(path))
    assert (status, out) == (2, "")
    assert err == (
        f"bonanza solve: {path}: not a saved Bonanza game: it is not JSON: {reason}\n"
    )


@pytest.mark.parametrize("elapsed", ["nan", "inf", "-1"])
def test_solve_a_text_save_with_a_bad_elapsed_says_saved_game_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, elapsed: str
) -> None:
    game = Game(Deal.from_number(5), Rules())
    game.play("sw")
    path = tmp_path / "game.txt"
    path.write_text(game.to_text().replace("elapsed 0.0", f"elapsed {elapsed}"))
    status, out, err = run(capsys, "solve", str(path))
    assert (status, out) == (2, "")
    assert err == (f"bonanza solve: {path}: saved game: elapsed {float(elapsed)!r} is not a "
                   "number of seconds\n")


@pytest.mark.parametrize("kept", [4, 5])  # cut before its moves line, or within it
def test_solve_a_text_save_cut_off_is_refused_not_solved_from_move_0(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kept: int
) -> None:
    game = Game(Deal.from_number(5), Rules())
    game.play("sw")
    game.play("sw")
    path = tmp_path / "game.txt"
    lines = game.to_text().splitlines(keepends=True)
    path.write_text("".join(lines[:kept]).rstrip("\n").removesuffix(" sw"))
    status, out, err = run(capsys, "solve", str(path))
    assert (status, out) == (2, "")
    missing = "moves, redo" if kept == 4 else "redo"
    assert err == (f"bonanza solve: {path}: saved game lacks the line(s): {missing} (the file "
                   "is cut off, so its moves would be lost)\n")


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("empty_column", "x", "saved game: empty_column 'x' is not one of 'king', 'any'"),
    ("scoring", "vegas2", "saved game: scoring 'vegas2' is not one of 'none', 'standard', "
     "'timed', 'vegas', 'vegas-cumulative'"),
    ("status", "paused", "saved session: status 'paused' is not one of 'playing', 'won', "
     "'lost', 'abandoned'"),
    ("origin", "x", "saved session: origin 'x' is not one of 'random', 'typed', 'shared', "
     "'replay', 'winnable'"),
])
def test_solve_a_save_with_a_bad_choice_names_the_field_and_its_choices(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str, value: str, reason: str
) -> None:
    # Not the enum's class ("'x' is not a valid EmptyColumn").
    from bonanza.session import Session

    session = Session.new(Deal.from_number(5), Rules(), now=0.0)
    data = session.to_json()  # a session's fields; a bare game's rules
    if field in data:
        data[field] = value
    else:
        data = session.game.to_json()
        data["rules"][field] = value
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "solve", str(path))
    assert (status, out, err) == (2, "", f"bonanza solve: {path}: {reason}\n")


def test_analyze_writes_jsonl_and_resumes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "run.jsonl"
    status, out, err = run(capsys, "analyze", "--deals", "2-5", "--jobs", "2", "--out",
                           str(out_file))
    assert status == 0
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert sorted(row["id"] for row in rows) == ["2", "3", "4", "5"]
    assert all(row["result"] == "solved" and row["line_length"] > 0 for row in rows)
    assert "deals: 4" in out and "solvable: 4 (100.00 %" in out and "Wilson" in out
    assert "median" in out and "p99" in out
    assert "4/4" in err
    # A second run finds every deal done and solves nothing again.
    status, out, _ = run(capsys, "analyze", "--deals", "2-6", "--jobs", "1", "--out",
                         str(out_file), "--no-progress")
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert sorted(row["id"] for row in rows) == ["2", "3", "4", "5", "6"]
    assert "deals: 5" in out


def test_analyze_deal_file_to_csv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text(f"a\t2\nb\t{Deal.from_number(20).code}\n")
    out_file = tmp_path / "run.csv"
    status, out, _ = run(capsys, "analyze", "--deal-file", str(deals), "--draw", "3",
                         "--jobs", "1", "--out", str(out_file), "--no-progress")
    assert status == 0
    rows = list(csv.DictReader(out_file.open()))
    assert {row["id"]: row["result"] for row in rows} == {"a": "solved", "b": "unsolvable"}
    assert "unsolvable: 1" in out


def test_analyze_rejects_bad_output_name(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "analyze", "--deals", "1-2", "--out", "x.txt")
    assert status == 2 and ".jsonl or .csv" in err


def test_analyze_retries_unknown_deals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "run.jsonl"
    unknown = {"id": "2", "deal": "2", "result": "unknown", "moves": [], "nodes": 9,
               "seconds": 0.5, "limit": "time"}
    out_file.write_text(json.dumps(unknown) + "\n")
    status, out, _ = run(capsys, "analyze", "--deals", "2-2", "--jobs", "1", "--out",
                         str(out_file), "--no-progress")
    assert status == 0 and "unknown: 1" in out
    status, out, _ = run(capsys, "analyze", "--deals", "2-2", "--jobs", "1", "--out",
                         str(out_file), "--no-progress", "--retry-unknown")
    assert status == 0 and "unknown: 0" in out and "solvable: 1 " in out
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert [row["result"] for row in rows] == ["unknown", "solved"]


def test_a_small_memory_limit_forgets_and_goes_on(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    # Among the slowest deals for the solver: it needs far more than 1 MB. A full
    # table forgets positions (search_forget.h), so the search goes on to its time
    # limit instead of stopping for memory, as it did before.
    hard = "4107606920159746969"
    status, out, _ = run(capsys, "solve", hard, "--memory-limit", "1", "--time-limit", "1")
    assert status == 0 and "unknown (time limit reached)" in out
    out_file = tmp_path / "run.jsonl"
    status, out, _ = run(capsys, "analyze", "--deal-file", str(_deal_file(tmp_path, hard)),
                         "--memory-limit", "1", "--time-limit", "1", "--jobs", "1",
                         "--out", str(out_file), "--no-progress")
    assert status == 0 and "unknown: 1" in out and "memory limit: 1 MB" in out
    assert json.loads(out_file.read_text())["limit"] == "time"


def test_the_time_limit_can_count_the_search_s_own_cpu_seconds(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Deal 186 (draw 3) is lost at 67 M nodes: never decided within the limit.
    status, out, _ = run(capsys, "solve", "186", "--draw", "3", "--time-limit", "0.2",
                         "--clock", "cpu", "--json")
    data = json.loads(out)
    assert status == 0 and (data["result"], data["limit"]) == ("unknown", "time")
    assert data["cpu_seconds"] >= 0.2
    out_file = tmp_path / "run.jsonl"
    status, out, _ = run(capsys, "analyze", "--deals", "186-186", "--draw", "3", "--time-limit",
                         "0.2", "--clock", "cpu", "--jobs", "1", "--out", str(out_file),
                         "--no-progress")
    assert status == 0 and "unknown: 1" in out and "time limit: 0.2 s (cpu)" in out
    assert json.loads(out_file.read_text())["cpu_seconds"] >= 0.2


def test_a_double_klondike_search_out_of_memory_says_what_may_decide_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Its search stops when its memory is full (docs/solver.md): a larger limit may help.
    status, out, _ = run(capsys, "solve", "37", "--rules", "double-klondike-3",
                         "--memory-limit", "1")
    assert status == 0
    assert "unknown (memory limit reached; a larger --memory-limit may decide it)" in out
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "Double Klondike's search stops" in " ".join(capsys.readouterr().out.split())


def test_the_default_memory_limit_is_300_mb(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    out_file = tmp_path / "run.jsonl"
    status, out, _ = run(capsys, "analyze", "--deal-file", str(_deal_file(tmp_path, "7")),
                         "--jobs", "1", "--out", str(out_file), "--no-progress")
    assert status == 0 and "memory limit: 256 MB" in out


def _deal_file(tmp_path: Path, deal: str) -> Path:
    path = tmp_path / "deals.txt"
    path.write_text(f"hard\t{deal}\n")
    return path


def test_a_resume_refuses_rows_of_other_deals_under_the_same_ids(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A deal file's ids are its line numbers: rows of deals 5 and 6 under ids 1 and 2
    are not the verdicts of deals 1 and 2, and the file is left as it is."""
    deal_file, out_file = tmp_path / "deals.txt", tmp_path / "run.jsonl"
    deal_file.write_text("5\n6\n")
    status, _, _ = run(capsys, "analyze", "--deal-file", str(deal_file), "--jobs", "1",
                       "--out", str(out_file), "--no-progress")
    assert status == 0
    before = out_file.read_bytes()
    status, out, err = run(capsys, "analyze", "--deals", "1-3", "--jobs", "1", "--out",
                           str(out_file), "--no-progress")
    assert (status, out) == (2, "")
    assert err == (f"bonanza analyze: --out {out_file} holds deal 5 under id 1, where this "
                   "run has deal 1: give another --out file\n")
    assert out_file.read_bytes() == before
    deal_file.write_text(f"6\n{Deal.from_number(5).code}\n")  # the same deals, other ids
    status, _, err = run(capsys, "analyze", "--deal-file", str(deal_file), "--jobs", "1",
                         "--out", str(out_file), "--no-progress")
    assert status == 2 and "holds deal 5 under id 1, where this run has deal 6" in err
