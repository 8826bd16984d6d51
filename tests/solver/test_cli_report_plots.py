"""``bonanza report``'s output as a reader meets it: written into a folder that did not
exist, plots whose medians stand out from their boxes and whose text is legible, and
files of lean rows (and of older rows, which carried the whole winning line) alike."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import matplotlib.colors
import matplotlib.pyplot
import pytest

from bonanza.cli.report import plot_nodes, plot_shares, plot_times, read_rule_sets
from tests.solver.test_cli_errors import run_cli
from tests.solver.test_cli_report import DEALS, DRAWS, analyzed

pytestmark = pytest.mark.forks  # analyze's worker pool: not in the sanitizer run

SMALLEST_POINTS = 9.0  # legend and label text, at the saved size
NAME = "Klondike: draw {}, unlimited passes, king to empty, recall"


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return analyzed(tmp_path_factory.mktemp("results"))


def test_the_report_makes_its_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, results: list[Path]
) -> None:
    out = tmp_path / "not" / "yet" / "report.md"
    status, printed, err = run_cli(capsys, "report", *map(str, results), "--out", str(out))
    assert (status, err) == (0, "")
    assert out.exists() and f"report: {out}" in printed
    assert {path.name for path in out.parent.iterdir()} == {
        "report.md", "report-share.png", "report-time.png", "report-nodes.png"}


class KeptFigures:
    """pyplot, but ``close`` keeps each figure for the test to look at, and each
    boxplot's artists (boxes, medians...) are kept too."""

    def __init__(self) -> None:
        self.figures: list[Any] = []
        self.boxplots: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(matplotlib.pyplot, name)

    def subplots(self, *args: Any, **options: Any) -> tuple[Any, Any]:
        figure, axes = matplotlib.pyplot.subplots(*args, **options)
        boxplot = axes.boxplot

        def kept_boxplot(*args: Any, **options: Any) -> dict[str, Any]:
            artists: dict[str, Any] = boxplot(*args, **options)
            self.boxplots.append(artists)
            return artists

        axes.boxplot = kept_boxplot
        return figure, axes

    def close(self, figure: Any) -> None:
        self.figures.append(figure)


@pytest.fixture
def kept() -> Iterator[KeptFigures]:
    figures = KeptFigures()
    yield figures
    for figure in figures.figures:
        matplotlib.pyplot.close(figure)


@pytest.fixture
def drawn(
    tmp_path: Path, results: list[Path], kept: KeptFigures
) -> Callable[[Callable[..., None]], Any]:
    """Draw one plot of the results: its figure, kept open."""
    rule_sets = read_rule_sets([str(path) for path in results])

    def draw(plot: Callable[..., None]) -> Any:
        plot(kept, rule_sets, str(tmp_path / f"{plot.__name__}.png"))
        return kept.figures[-1]

    return draw


def test_every_median_stands_out_from_its_box(
    drawn: Callable[..., Any], kept: KeptFigures
) -> None:
    drawn(plot_nodes)
    assert len(kept.boxplots) == len(DRAWS)  # one call per rule set
    colours = [{matplotlib.colors.to_hex(box.get_facecolor()) for box in artists["boxes"]}
               for artists in kept.boxplots]
    assert all(len(colour) == 1 for colour in colours)  # one colour per rule set...
    box_colours = set.union(*colours)
    assert len(box_colours) == len(DRAWS)  # ...and a colour of its own
    for artists in kept.boxplots:
        assert len(artists["medians"]) == len(artists["boxes"])
        for median in artists["medians"]:
            assert matplotlib.colors.to_hex(median.get_color()) not in box_colours


@pytest.mark.parametrize("plot", [plot_shares, plot_times, plot_nodes])
def test_legends_and_names_are_legible(
    drawn: Callable[..., Any], plot: Callable[..., None]
) -> None:
    (axes,) = drawn(plot).axes
    legend = axes.get_legend()
    texts = [*legend.get_texts(), *axes.get_xticklabels(), *axes.get_yticklabels()]
    assert texts and min(text.get_fontsize() for text in texts) >= SMALLEST_POINTS
    if plot is not plot_shares:  # the share plot's legend names the sources, not rule sets
        assert [text.get_text() for text in legend.get_texts()] == [
            NAME.format(draw) for draw in DRAWS]


def test_older_rows_with_whole_lines_and_lean_rows_report_alike(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, results: list[Path]
) -> None:
    # An older file: every row carried the winning line, spelled out, as "moves".
    fat = tmp_path / "fat.jsonl"
    status, _, _ = run_cli(capsys, "analyze", "--deals", DEALS, "--lines", "--jobs", "2",
                           "--out", str(fat), "--no-progress")
    rows = [json.loads(line) for line in fat.read_text().splitlines()]
    assert status == 0 and all(len(row["moves"]) == row["line_length"] for row in rows)
    fat.write_text("".join(json.dumps({key: value for key, value in row.items()
                                       if key not in ("line", "line_length")}) + "\n"
                           for row in rows))
    reports = []
    for source in (fat, results[0]):
        out = tmp_path / f"{source.stem}.md"
        status, printed, _ = run_cli(capsys, "report", str(source), "--out", str(out))
        assert status == 0
        reports.append(printed.splitlines()[0])
    assert reports[0] == reports[1] and reports[0].startswith(f"{NAME.format(1)}: 3/4 solvable")
