"""``bonanza report``: a Markdown or HTML report, with plots, of ``bonanza analyze`` output files.

Per rule set: the solvable share with its 95 % Wilson interval beside the
published value where there is one, the time per deal as a distribution, and
the nodes searched for each verdict. The plots (matplotlib, the optional extra
``report``) are PNG or SVG files beside the report.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import html
import json
import math
import os
import textwrap
from collections.abc import Iterator, Sequence
from typing import Any, Final, NamedTuple, TextIO

from bonanza.cli.analyze import Tally
from bonanza.cli.results_file import CSV_HEADERS, OUT_SUFFIXES, RESULTS, VERDICTS, row_rules
from bonanza.cli.solver_io import InputError
from bonanza.core.errors import BonanzaError
from bonanza.core.rules import Rules, Scoring
from bonanza.solver.stats import percentile, wilson_interval

REPORT_SUFFIXES: Final = {".md": "markdown", ".html": "html"}
FIGURE_FORMATS: Final = ("png", "svg")
PERCENT: Final = 100
DPI: Final = 120
FIGURE_SIZE: Final = (7.0, 4.0)  # inches, at least
ROW_INCHES: Final = 0.5  # height per rule set in the share plot (two-line names)
LEGEND_ROW_INCHES: Final = 0.25  # height per rule set in the other plots' legends
LEGEND_WIDTH_INCHES: Final = 3.0  # room for a legend beside a plot
FLIER_SIZE: Final = 2  # points: with thousands of deals, outliers are many
TEXT_POINTS: Final = 9  # legends and rule set names, at the saved size: legible in print
BOX_ALPHA: Final = 0.55  # boxes lighter than their rule set's colour, so medians stand out
MEDIAN_STYLE: Final = {"color": "black", "linewidth": 2.0}  # no rule set's colour
DEFAULT_COLOURS: Final = 10  # matplotlib's colour cycle; more rule sets take tab20's
LABEL_WIDTH: Final = 48  # characters per line of a rule set's name beside a plot
PUBLISHED_OFFSET: Final = 0.2  # how far above its measured share a published one is drawn
FEWEST_NODES: Final = 1  # nodes are plotted on a log scale, where 0 cannot go
MISSING_MATPLOTLIB: Final = (
    "the plots need matplotlib: pip install -e '.[report]' in a checkout, "
    "or pip install 'bonanza-….whl[report]' from a wheel"
)


class Published(NamedTuple):
    """A solvable share from the literature, in percent, with its stated margin."""

    percent: float
    margin: float
    source: str


BLAKE_GENT: Final = "Blake & Gent, thoughtful, unlimited passes"
PUBLISHED: Final = {
    Rules(draw=1, thoughtful=True): Published(90.48, 0.12, BLAKE_GENT),
    Rules(draw=3, thoughtful=True): Published(81.95, 0.08, BLAKE_GENT),
}
"""Published shares by rule set (scoring aside, which does not change solvability)."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "report",
        help="a Markdown or HTML report, with plots, of analyze output files",
        description="Summarize bonanza analyze output files per rule set, with plots.",
    )
    parser.add_argument("results", nargs="+", metavar="FILE", help="analyze --out files")
    parser.add_argument(
        "--out", default="report.md", metavar="F",
        help="the report, .md (Markdown) or .html; plots go beside it (default: report.md)",
    )
    parser.add_argument(
        "--notes", metavar="F",
        help="a Markdown file to put after the report's sources: how the runs were made",
    )
    parser.add_argument(
        "--figures", choices=FIGURE_FORMATS, default="png", help="plot format (default: png)"
    )
    parser.set_defaults(func=run)


@dataclasses.dataclass
class RuleSet:
    """One rule set's rows: each verdict's count, seconds and nodes."""

    name: str
    rules: Rules | None
    tally: Tally = dataclasses.field(default_factory=Tally)
    nodes: dict[str, list[int]] = dataclasses.field(
        default_factory=lambda: {verdict: [] for verdict in VERDICTS}
    )

    def add(self, verdict: Verdict) -> None:
        self.tally.add(verdict.result, verdict.seconds)
        if verdict.result in VERDICTS:
            self.nodes[verdict.result].append(verdict.nodes)

    @property
    def published(self) -> Published | None:
        if self.rules is None:
            return None
        return PUBLISHED.get(dataclasses.replace(self.rules, scoring=Scoring.STANDARD))

    def share(self) -> tuple[float, float, float]:
        """The solvable share and its 95 % Wilson interval, in percent (errors not counted)."""
        solved, deals = self.tally.counts["solved"], self.tally.finished
        low, high = wilson_interval(solved, deals)
        return PERCENT * solved / max(deals, 1), PERCENT * low, PERCENT * high


def _rule_set_name(rules: Rules) -> str:
    """The game and its rules in words, such as ``Klondike: draw 3, 1 pass, king to
    empty, recall`` or ``Westcliff: draw 1, 1 pass, any to empty, no recall``;
    less scoring, and less "thoughtful" (the solver sees every card either way),
    which change no verdict."""
    plain = dataclasses.replace(rules, scoring=Scoring.STANDARD, thoughtful=False)
    words = str(plain).removesuffix(", standard scoring")
    return f"{plain.title}: {words}" if plain.is_klondike else words


def _number(value: object, path: str, number: int, name: str) -> float:
    try:
        result = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InputError(f"{path} line {number}: {name} {value!r} is not a number") from None
    if not math.isfinite(result):
        raise InputError(f"{path} line {number}: {name} {value!r} is not a finite number")
    return result


class Verdict(NamedTuple):
    """All the report needs of one row: a few numbers, not the winning line."""

    result: str
    seconds: float
    nodes: int


@contextlib.contextmanager
def _opened(path: str) -> Iterator[TextIO]:
    """``path`` open for reading line by line; one ``InputError`` naming it if it cannot be read."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as file:  # a BOM is no row
            yield file
    except OSError as error:
        raise InputError(f"cannot read results file {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"results file {path} is not a text file") from None


def _rows(file: TextIO, path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The whole rows of one analyze output file, with their line numbers, one at a time."""
    if path.endswith(".csv"):
        reader = csv.DictReader(file)
        if tuple(reader.fieldnames or ()) not in CSV_HEADERS.values():
            raise InputError(f"{path} is not an analyze results file: no CSV header")
        for row in reader:
            yield reader.line_num, {key: value for key, value in row.items() if value != ""}
        return
    for number, line in enumerate(file, 1):
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            continue  # a row cut short by an interruption (or no row at all)
        if not isinstance(row, dict):
            raise InputError(f"{path} line {number} is not an analyze result row")
        yield number, row


def _deal_key(row: dict[str, Any]) -> str:
    """What tells a row's deal from others: the deal's ID it records, else its id."""
    deal = row.get("deal")
    return f"deal {deal}" if isinstance(deal, str) and deal else f"id {row['id']}"


def read_rule_sets(paths: Sequence[str]) -> list[RuleSet]:
    """The rows of analyze output files grouped by rule set, each deal's last row kept.

    A rerun (say with ``--retry-unknown``) appends a deal's new row after its
    old one, so the last row of each deal is the one that counts. A deal is known by
    the ``Deal.id`` its row records (a row without one by its id): rows of two runs
    that share ids, as deal files' line numbers, are other deals. Rows that record
    no rules (CSV files from before the ``rules`` column): each file is a rule set
    of its own, named after it.
    Files are read a line at a time, and of each row only its verdict is kept.
    """
    latest: dict[tuple[str, str], Verdict] = {}
    rules_of: dict[str, Rules | None] = {}
    for path in paths:
        if not path.endswith(OUT_SUFFIXES):
            raise InputError(f"{path}: an analyze results file ends in .jsonl or .csv")
        unrecorded = f"{os.path.basename(path)} (rules not recorded)"
        with _opened(path) as file:
            for number, row in _rows(file, path):
                if row.get("result") not in RESULTS or "id" not in row:
                    raise InputError(f"{path} line {number} is not an analyze result row")
                name = unrecorded
                if "rules" in row:
                    try:
                        rules = row_rules(row["rules"])
                    except BonanzaError as error:
                        raise InputError(f"{path} line {number}: {error}") from None
                    name = _rule_set_name(rules)
                    rules_of.setdefault(name, rules)
                rules_of.setdefault(name, None)
                latest[(name, _deal_key(row))] = Verdict(
                    row["result"],
                    _number(row.get("seconds") or 0, path, number, "seconds"),
                    int(_number(row.get("nodes") or 0, path, number, "nodes")),
                )
    rule_sets = {name: RuleSet(name, rules) for name, rules in rules_of.items()}
    for (name, _), verdict in latest.items():
        rule_sets[name].add(verdict)
    if not latest:
        raise InputError(f"no result rows in {', '.join(paths)}")
    return sorted(rule_sets.values(), key=lambda rule_set: rule_set.name)


# -- plots ---------------------------------------------------------------------


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (no display needed)."""
    try:
        import matplotlib
    except ImportError:
        raise InputError(MISSING_MATPLOTLIB) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    return pyplot


def plot_shares(pyplot: Any, rule_sets: Sequence[RuleSet], path: str) -> None:
    """Each rule set's solvable share with its interval, and the published value beside it."""
    width, height = FIGURE_SIZE
    figure, axes = pyplot.subplots(figsize=(width, max(height, ROW_INCHES * len(rule_sets))))
    labelled: set[str] = set()
    for index, rule_set in enumerate(rule_sets):
        share, low, high = rule_set.share()
        axes.errorbar([share], [index], xerr=[[share - low], [high - share]], fmt="o",
                      color="C0", capsize=4, label="measured" if index == 0 else None)
        published = rule_set.published
        if published is not None:
            label = None if published.source in labelled else published.source
            labelled.add(published.source)
            axes.errorbar([published.percent], [index + PUBLISHED_OFFSET],
                          xerr=[published.margin], fmt="s", color="C3", capsize=4, label=label)
    names = [textwrap.fill(rule_set.name, LABEL_WIDTH) for rule_set in rule_sets]
    axes.set_yticks(range(len(rule_sets)), names, fontsize=TEXT_POINTS)
    axes.set_ylim(-1 + PUBLISHED_OFFSET, len(rule_sets))
    axes.set_xlabel("solvable share, % (95 % Wilson interval)")
    axes.legend(fontsize=TEXT_POINTS, loc="best")
    _save(pyplot, figure, path)


def plot_times(pyplot: Any, rule_sets: Sequence[RuleSet], path: str) -> None:
    """The distribution of seconds per deal (a CDF on a log scale), one line per rule set."""
    figure, axes = pyplot.subplots(figsize=_legend_size(rule_sets))
    smallest = _smallest_time(rule_sets)
    for index, rule_set in enumerate(rule_sets):
        times = sorted(max(seconds, smallest) for seconds in rule_set.tally.seconds)
        fractions = [(rank + 1) / len(times) for rank in range(len(times))]
        axes.step(times, fractions, where="post", label=rule_set.name,
                  color=_colour(pyplot, index, len(rule_sets)))
    axes.set_xscale("log")
    axes.set_xlabel("seconds per deal (log scale)")
    axes.set_ylabel("share of deals done within")
    _legend_beside(axes)
    _save(pyplot, figure, path)


def _smallest_time(rule_sets: Sequence[RuleSet]) -> float:
    """The least positive time of any deal: zero times are drawn there on the log scale."""
    positive = [seconds for rule_set in rule_sets for seconds in rule_set.tally.seconds if seconds]
    return min(positive, default=1.0)


def plot_nodes(pyplot: Any, rule_sets: Sequence[RuleSet], path: str) -> None:
    """Nodes searched per deal for each verdict, a box per rule set and verdict: the box a
    lighter shade of the rule set's colour, its median a black line."""
    figure, axes = pyplot.subplots(figsize=_legend_size(rule_sets))
    width = 0.8 / len(rule_sets)
    for index, rule_set in enumerate(rule_sets):
        shown = [verdict for verdict in VERDICTS if rule_set.nodes[verdict]]
        colour = _colour(pyplot, index, len(rule_sets))
        axes.plot([], [], "s", color=colour, alpha=BOX_ALPHA, label=rule_set.name)
        if not shown:  # only error rows: no box to draw
            continue
        positions = [VERDICTS.index(v) + (index - (len(rule_sets) - 1) / 2) * width for v in shown]
        boxes = axes.boxplot(
            [[max(nodes, FEWEST_NODES) for nodes in rule_set.nodes[v]] for v in shown],
            positions=positions, widths=width * 0.9, patch_artist=True, manage_ticks=False,
            flierprops={"markersize": FLIER_SIZE}, medianprops=MEDIAN_STYLE,
        )
        for box in boxes["boxes"]:
            box.set_facecolor(colour)
            box.set_alpha(BOX_ALPHA)
    axes.set_xticks(range(len(VERDICTS)), list(VERDICTS))
    axes.set_yscale("log")
    axes.set_ylabel("nodes searched (log scale)")
    _legend_beside(axes)
    _save(pyplot, figure, path)


def _legend_size(rule_sets: Sequence[RuleSet]) -> tuple[float, float]:
    """A figure with room for a legend of every rule set beside the plot."""
    width, height = FIGURE_SIZE
    return width + LEGEND_WIDTH_INCHES, max(height, LEGEND_ROW_INCHES * len(rule_sets))


def _legend_beside(axes: Any) -> None:
    """The legend to the right of the plot, where it hides no line or box."""
    axes.legend(fontsize=TEXT_POINTS, loc="upper left", bbox_to_anchor=(1.01, 1.0))


def _colour(pyplot: Any, index: int, count: int) -> Any:
    """Rule set ``index``'s colour: the usual cycle, or tab20's for more rule sets than it holds."""
    if count <= DEFAULT_COLOURS:
        return f"C{index}"
    return pyplot.get_cmap("tab20")(index % 20)


def _save(pyplot: Any, figure: Any, path: str) -> None:
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=DPI, bbox_inches="tight")
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror}") from None
    finally:
        pyplot.close(figure)


# -- the report ------------------------------------------------------------------


class Figure(NamedTuple):
    """A plot beside the report: its file, caption and the text shown beside it."""

    file: str
    caption: str
    beside: str


def share_table(rule_sets: Sequence[RuleSet]) -> list[list[str]]:
    """Per rule set: deals, solvable share and interval, counts, and the published share."""
    rows = [["rule set", "deals", "solvable", "share %", "95 % Wilson interval %",
             "unsolvable", "unknown", "share if every unknown were solvable %",
             "errors (not counted)", "published %"]]
    for rule_set in rule_sets:
        share, low, high = rule_set.share()
        counts, published = rule_set.tally.counts, rule_set.published
        at_most = 100 * (counts["solved"] + counts["unknown"]) / max(rule_set.tally.finished, 1)
        rows.append([
            rule_set.name, str(rule_set.tally.finished), str(counts["solved"]), f"{share:.2f}",
            f"{low:.2f}-{high:.2f}", str(counts["unsolvable"]), str(counts["unknown"]),
            f"{at_most:.2f}", str(counts["error"]),
            f"{published.percent:.2f} ± {published.margin:.2f} ({published.source})"
            if published else "none",
        ])
    return rows


def time_table(rule_sets: Sequence[RuleSet]) -> list[list[str]]:
    rows = [["rule set", "median s", "p90 s", "p99 s", "max s", "total s"]]
    for rule_set in rule_sets:
        times = sorted(rule_set.tally.seconds)
        quantiles = [percentile(times, fraction) for fraction in (0.5, 0.9, 0.99, 1.0)]
        rows.append([rule_set.name, *(f"{value:.4f}" for value in quantiles),
                     f"{sum(times):.1f}"])
    return rows


def nodes_table(rule_sets: Sequence[RuleSet]) -> list[list[str]]:
    rows = [["rule set", *(f"median nodes, {verdict}" for verdict in VERDICTS)]]
    for rule_set in rule_sets:
        medians = [
            f"{percentile(sorted(rule_set.nodes[verdict]), 0.5):.0f}"
            if rule_set.nodes[verdict] else "-"
            for verdict in VERDICTS
        ]
        rows.append([rule_set.name, *medians])
    return rows


def _markdown(
    title: str, sources: str, sections: list[tuple[str, list[list[str]], Figure]], notes: str = ""
) -> str:
    parts = [f"# {title}", "", sources, ""]
    if notes:
        parts += [notes.strip(), ""]
    for heading, table, figure in sections:
        parts += [f"## {heading}", "", f"![{figure.caption}]({figure.file})", "", figure.beside, ""]
        parts.append("| " + " | ".join(table[0]) + " |")
        parts.append("|" + "---|" * len(table[0]))
        parts += ["| " + " | ".join(row) + " |" for row in table[1:]]
        parts.append("")
    return "\n".join(parts)


def _html(
    title: str, sources: str, sections: list[tuple[str, list[list[str]], Figure]], notes: str = ""
) -> str:
    escape = html.escape
    parts = [f"<!doctype html>\n<html><head><meta charset='utf-8'><title>{escape(title)}</title>"
             "</head><body>", f"<h1>{escape(title)}</h1>", f"<p>{escape(sources)}</p>"]
    parts += [f"<p>{escape(paragraph)}</p>" for paragraph in notes.strip().split("\n\n")
              if paragraph.strip()]
    for heading, table, figure in sections:
        parts += [f"<h2>{escape(heading)}</h2>",
                  f"<figure><img src='{escape(figure.file)}' alt='{escape(figure.caption)}'>"
                  f"<figcaption>{escape(figure.beside)}</figcaption></figure>", "<table>"]
        parts.append("<tr>" + "".join(f"<th>{escape(cell)}</th>" for cell in table[0]) + "</tr>")
        parts += ["<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>"
                  for row in table[1:]]
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _published_note(rule_sets: Sequence[RuleSet]) -> str:
    notes = [
        f"{rule_set.name}: published {p.percent:.2f} ± {p.margin:.2f} % ({p.source}), "
        f"measured {rule_set.share()[0]:.2f} %"
        for rule_set in rule_sets
        if (p := rule_set.published) is not None
    ]
    if not notes:
        return "No published share for these rule sets."
    return "; ".join(notes) + "."


def _notes(path: str | None) -> str:
    """The text of ``--notes``, if given (Markdown, put after the report's sources)."""
    if path is None:
        return ""
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not UTF-8 text"
        raise InputError(f"cannot read --notes {path}: {reason}") from None


def _make_folder(folder: str) -> None:
    """The report's folder, made if missing."""
    if not folder:
        return
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot make the folder {folder}: {error.strerror}") from None


def run(args: argparse.Namespace) -> int:
    stem, suffix = os.path.splitext(args.out)
    if suffix not in REPORT_SUFFIXES:
        raise InputError(f"--out {args.out}: the report's name must end in .md or .html")
    rule_sets = read_rule_sets(args.results)
    pyplot = _pyplot()
    base = os.path.basename(stem)
    figures = {
        name: Figure(f"{base}-{name}.{args.figures}", caption, beside)
        for name, caption, beside in (
            ("share", "solvable share per rule set", _published_note(rule_sets)),
            ("time", "seconds per deal, cumulative", "No published times to compare: "
             "they depend on the machine."),
            ("nodes", "nodes searched by verdict", "No published node counts to compare."),
        )
    }
    folder = os.path.dirname(args.out)
    _make_folder(folder)
    for name, plot in (("share", plot_shares), ("time", plot_times), ("nodes", plot_nodes)):
        plot(pyplot, rule_sets, os.path.join(folder, figures[name].file))
    sections = [
        ("Solvable share", share_table(rule_sets), figures["share"]),
        ("Time per deal", time_table(rule_sets), figures["time"]),
        ("Nodes searched by verdict", nodes_table(rule_sets), figures["nodes"]),
    ]
    sources = "From " + ", ".join(args.results) + "; rows with errors are not counted."
    render = _html if REPORT_SUFFIXES[suffix] == "html" else _markdown
    text = render("Solvability report", sources, sections, _notes(args.notes))
    try:
        with open(args.out, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise InputError(f"cannot write --out {args.out}: {error.strerror}") from None
    for rule_set in rule_sets:
        share, low, high = rule_set.share()
        print(f"{rule_set.name}: {rule_set.tally.counts['solved']}/{rule_set.tally.finished} "
              f"solvable, {share:.2f} % (95 % Wilson interval {low:.2f}-{high:.2f} %)")
    print(f"report: {args.out}; plots: "
          + ", ".join(os.path.join(folder, figure.file) for figure in figures.values()))
    return 0


__all__ = ["PUBLISHED", "RuleSet", "read_rule_sets", "run"]
