"""``bonanza report``: shares with intervals per rule set, and plots that are real images."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import matplotlib.image
import pytest

from bonanza.cli import EXIT_BAD_INPUT, main
from bonanza.solver.stats import wilson_interval
from tests.solver.test_cli_errors import assert_one_line_error, run_cli

pytestmark = pytest.mark.forks  # analyze's worker pool: not in the sanitizer run

DEALS = "18-21"  # solved deals and an unsolvable one (20) under both draw counts
DRAWS = ("1", "3")
PLOTS = ("share", "time", "nodes")
PUBLISHED = {"1": "90.48 ± 0.12", "3": "81.95 ± 0.08"}  # Blake & Gent, as the issue gives them
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SMALLEST_PLOT_PIXELS = 100  # a real plot, not an empty canvas


def analyzed(folder: Path) -> list[Path]:
    """Real analyze output (lean rows) of ``DEALS`` for each draw count, in ``folder``."""
    paths = []
    for draw in DRAWS:
        path = folder / f"d{draw}.jsonl"
        status = main(["analyze", "--deals", DEALS, "--draw", draw, "--jobs", "2",
                       "--out", str(path), "--no-progress"])
        assert status == 0
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Real analyze output for each draw count, the draw 1 file with an error row added."""
    paths = analyzed(tmp_path_factory.mktemp("results"))
    rules = json.loads(paths[0].read_text().splitlines()[0])["rules"]
    error = {"id": "bad", "deal": "bad", "result": "error", "seconds": 0, "rules": rules}
    with paths[0].open("a") as file:
        file.write(json.dumps(error) + "\n")
    return paths


def share_row(report: str, name: str) -> dict[str, str]:
    """The cells of the share table's row for rule set ``name``, by column heading."""
    lines = report.splitlines()
    header = next(line for line in lines if line.startswith("| rule set | deals |"))
    row = next(line for line in lines if line.startswith(f"| {name} |"))
    cells = [[cell.strip() for cell in line.strip("|").split("|")] for line in (header, row)]
    return dict(zip(*cells, strict=True))


def expected_share(path: Path) -> tuple[int, int, str]:
    """Solved, deals and the share line's figures, computed from the rows themselves."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    verdicts = [row["result"] for row in rows if row["result"] != "error"]
    solved = verdicts.count("solved")
    low, high = wilson_interval(solved, len(verdicts))
    interval = f"95 % Wilson interval {100 * low:.2f}-{100 * high:.2f} %"
    return solved, len(verdicts), f"{100 * solved / len(verdicts):.2f} % ({interval})"


def test_markdown_report_names_each_rule_set_with_share_and_interval(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, results: list[Path]
) -> None:
    out = tmp_path / "report.md"
    status, printed, _ = run_cli(capsys, "report", *map(str, results), "--out", str(out))
    assert status == 0
    report = out.read_text()
    for draw, path in zip(DRAWS, results, strict=True):
        name = f"Klondike: draw {draw}, unlimited passes, king to empty, recall"
        solved, deals, share = expected_share(path)
        low_high = share.split("interval ")[1].rstrip(" %)")
        assert f"{name}: {solved}/{deals} solvable, {share}" in printed
        row = share_row(report, name)
        assert (row["deals"], row["solvable"]) == (str(deals), str(solved))
        assert row["95 % Wilson interval %"] == low_high
        assert row["errors (not counted)"] == ("1" if draw == "1" else "0")
        assert row["published %"].startswith(PUBLISHED[draw])
    for plot in PLOTS:
        image = tmp_path / f"report-{plot}.png"
        assert f"]({image.name})" in report
        assert image.read_bytes().startswith(PNG_SIGNATURE)
        height, width, _ = matplotlib.image.imread(image).shape
        assert min(height, width) >= SMALLEST_PLOT_PIXELS


def test_html_report_with_svg_plots(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, results: list[Path]
) -> None:
    out = tmp_path / "report.html"
    status, _, _ = run_cli(capsys, "report", *map(str, results), "--out", str(out),
                           "--figures", "svg")
    assert status == 0
    page = out.read_text()
    assert page.startswith("<!doctype html>") and "<table>" in page
    for plot in PLOTS:
        image = tmp_path / f"report-{plot}.svg"
        assert f"src='{image.name}'" in page
        assert ElementTree.parse(image).getroot().tag.endswith("svg")


def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, results: list[Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    other = tmp_path / "notes.jsonl"
    other.write_text('["not", "a", "row"]\n')
    status, _, err = run_cli(capsys, "report", str(other), "--out", str(tmp_path / "r.md"))
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "report", "notes.jsonl line 1")
    status, _, err = run_cli(capsys, "report", str(results[0]), "--out", str(tmp_path / "r.pdf"))
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "report", ".md or .html")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    status, _, err = run_cli(capsys, "report", str(results[0]), "--out", str(tmp_path / "r.md"))
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "report", "pip install -e '.[report]'", ".whl[report]")
    assert not (tmp_path / "r.md").exists()


def test_each_game_is_named_in_words_and_scoring_does_not_split_a_rule_set(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from bonanza.core import Rules, Scoring

    rows = {
        "westcliff.jsonl": [Rules.preset("westcliff")],
        "vegas.jsonl": [Rules.preset("vegas-3"), Rules(draw=3, passes=3)],  # scored apart only
    }
    for file, rule_sets in rows.items():
        lines = [
            json.dumps({"id": str(number), "deal": str(number), "result": "solved",
                        "seconds": 0.01, "nodes": 5, "rules": rules.to_dict()})
            for number, rules in enumerate(rule_sets, 1)
        ]
        (tmp_path / file).write_text("\n".join(lines) + "\n")
    out = tmp_path / "report.md"
    status, printed, _ = run_cli(
        capsys, "report", str(tmp_path / "westcliff.jsonl"), str(tmp_path / "vegas.jsonl"),
        "--out", str(out),
    )
    assert status == 0 and Rules.preset("vegas-3").scoring is Scoring.VEGAS
    assert "Westcliff: draw 1, 1 pass, any to empty, no recall: 1/1 solvable" in printed
    assert "Klondike: draw 3, 3 passes, king to empty, recall: 2/2 solvable" in printed


def test_notes_follow_the_sources_and_unknowns_give_the_upper_share(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from bonanza.core import Rules

    verdicts = ["solved", "solved", "unknown", "unsolvable"]
    rows = [
        json.dumps({"id": str(number), "deal": str(number), "result": verdict, "seconds": 0.1,
                    "nodes": 5, "rules": Rules(thoughtful=True).to_dict()})
        for number, verdict in enumerate(verdicts, 1)
    ]
    (tmp_path / "d1.jsonl").write_text("\n".join(rows) + "\n")
    notes = tmp_path / "notes.md"
    notes.write_text("## How these runs were made\n\nOne job, 10 s a deal.\n")
    out = tmp_path / "report.md"
    args = ("report", str(tmp_path / "d1.jsonl"), "--notes", str(notes), "--out")
    assert run_cli(capsys, *args, str(out))[0] == 0
    report = out.read_text()
    assert report.index("From ") < report.index("## How these runs were made")
    assert report.index("One job, 10 s a deal.") < report.index("## Solvable share")
    row = share_row(report, "Klondike: draw 1, unlimited passes, king to empty, recall")
    assert (row["share %"], row["share if every unknown were solvable %"]) == ("50.00", "75.00")
    page = tmp_path / "report.html"
    assert run_cli(capsys, *args, str(page))[0] == 0
    assert "<p>One job, 10 s a deal.</p>" in page.read_text()
    status, _, err = run_cli(capsys, "report", str(tmp_path / "d1.jsonl"), "--notes",
                             str(tmp_path / "missing.md"), "--out", str(tmp_path / "r.md"))
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "report", "cannot read --notes")


def test_rows_of_two_files_under_the_same_ids_are_other_deals_and_a_rerun_s_counts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two deal-file runs share ids 1 and 2 (line numbers) but not deals: four deals,
    whichever file comes first; a rerun's later row of a deal replaces its earlier one."""
    from bonanza.core import Rules

    def row(ident: str, deal: str, result: str) -> str:
        return json.dumps({"id": ident, "deal": deal, "result": result, "seconds": 0.01,
                           "nodes": 5, "rules": Rules(draw=3).to_dict()})

    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(row("1", "20", "unsolvable") + "\n" + row("2", "38", "unsolvable") + "\n")
    second.write_text(row("1", "1", "solved") + "\n" + row("2", "2", "unknown") + "\n"
                      + row("2", "2", "solved") + "\n")
    for files in ((first, second), (second, first)):
        status, printed, _ = run_cli(capsys, "report", *map(str, files),
                                     "--out", str(tmp_path / "r.md"))
        assert status == 0 and ": 2/4 solvable" in printed


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('{"id": "1", "deal": "1", "result": "solved", "nodes": 1e999, "seconds": 0.1}',
         "nodes inf is not a finite number"),
        ('{"id": "1", "deal": "1", "result": "solved", "nodes": NaN, "seconds": 0.1}',
         "nodes nan is not a finite number"),
        ('{"id": "1", "deal": "1", "result": "solved", "nodes": 5, "seconds": Infinity}',
         "seconds inf is not a finite number"),
    ],
)
def test_a_row_with_a_number_past_finite_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, words: str
) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_text(line + "\n")
    status, _, err = run_cli(capsys, "report", str(path), "--out", str(tmp_path / "r.md"))
    assert status == EXIT_BAD_INPUT
    assert_one_line_error(err, "report", f"odd.jsonl line 1: {words}")


def test_a_rule_set_of_error_rows_only_and_a_line_nested_too_deep_are_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Older versions wrote "error" rows, with no rules: their rule set has no verdict
    to plot; a line nested past the JSON reader's depth is no row, as one cut short."""
    path = tmp_path / "old.jsonl"
    solved = '{"id": "1", "deal": "1", "result": "solved", "seconds": 0.1, "nodes": 5, '
    path.write_text(solved + '"rules": {"draw": 3}}\n{"id": "2", "result": "error"}\n'
                    + '{"id": ' + "[" * 100_000 + "\n")
    status, printed, _ = run_cli(capsys, "report", str(path), "--out", str(tmp_path / "r.md"))
    assert status == 0 and "1/1 solvable" in printed
