"""The ``--out`` file of ``bonanza analyze``: one row per finished deal, JSONL or CSV.

A rerun reads the file to skip the deals it holds. The file is checked before
anything is written: one that is not a results file, or holds a row solved under
other rules (scoring aside, which changes no verdict), or has a line that is
neither a row nor a row's start, is refused and left as it is, and a last row
cut short by an interruption is cut away before new rows are appended, so that
every line stays a whole row. Each row records its rules: a
JSONL row as ``Rules.to_dict``, a CSV row in its ``rules`` column as
``Rules.to_text`` (CSV files written before that column are read and resumed in
their own form, unchecked).

A row is lean: the verdict, nodes, times and the winning line's length. The
line itself, spelled out (JSONL ``moves``) and in move notation (JSONL
``line``, the CSV ``moves`` column), only with ``--lines``. A rerun reads
only each row's id, deal, result, seconds and rules, so older rows, which always
carried the spelled-out line, resume alike.
"""

from __future__ import annotations

import codecs
import csv
import dataclasses
import json
import os
from typing import Any, Final, NamedTuple, TextIO

from bonanza.cli.solver_io import InputError
from bonanza.core.errors import BonanzaError
from bonanza.core.rules import Rules, Scoring

TIME_PARTS: Final = ("search_seconds", "expand_seconds", "cut_seconds")
"""A row's ``seconds`` in parts: the search's own, the winning line's expansion
into moves and its shortening (the last two 0 for a deal not solved)."""
UNRULED_CSV_FIELDS: Final = ("id", "deal", "result", "nodes", "seconds", "limit", "states", "moves")
"""The columns of CSV files written before rows recorded their rules."""
UNTIMED_CSV_FIELDS: Final = (*UNRULED_CSV_FIELDS, "rules")
"""The columns of CSV files written before rows split their time."""
CPULESS_CSV_FIELDS: Final = (*UNTIMED_CSV_FIELDS, *TIME_PARTS, "cut", "line_length")
"""The columns of CSV files written before rows gave the CPU time."""
CSV_FIELDS: Final = (*CPULESS_CSV_FIELDS, "cpu_seconds")
"""A CSV row's columns: ``moves`` holds the winning line only with ``--lines``;
``cpu_seconds`` is the solving thread's CPU time beside the wall clock's ``seconds``."""
CSV_HEADERS: Final = {
    ",".join(fields).encode(): fields
    for fields in (CSV_FIELDS, CPULESS_CSV_FIELDS, UNTIMED_CSV_FIELDS, UNRULED_CSV_FIELDS)
}
CSV_LINE_END: Final = "\r\n"  # what csv's default dialect writes
JSONL_LINE_END: Final = "\n"
OUT_SUFFIXES: Final = (".jsonl", ".csv")
VERDICTS: Final = ("solved", "unsolvable", "unknown")
RESULTS: Final = (*VERDICTS, "error")  # "error": older versions' rows for deals that did not parse
JSONL_ROW_START: Final = b'{"id": '  # how every JSONL row written here begins


def line_of(raw: bytes, number: int) -> bytes:
    """Line ``number`` of a file (``raw``, as read) less its line end, and on line 1 less
    a UTF-8 byte order mark (some Windows editors save files with one): utf-8-sig's reading."""
    line = raw.rstrip(b"\r\n")
    return line.removeprefix(codecs.BOM_UTF8) if number == 1 else line


def row_rules(value: object) -> Rules:
    """The rules a row records: ``Rules.to_dict``'s form (JSONL) or ``to_text``'s (CSV)."""
    if isinstance(value, str):
        return Rules.from_text(value)
    return Rules.from_dict(value)


def verdict_rules(rules: Rules) -> Rules:
    """``rules`` as far as a verdict goes: the scoring aside."""
    return dataclasses.replace(rules, scoring=Scoring.STANDARD)


def rules_difference(found: Rules, wanted: Rules) -> str:
    """How ``found`` differs from ``wanted``, such as ``draw=3, not draw=1``."""
    have, want = verdict_rules(found).to_text().split(), verdict_rules(wanted).to_text().split()
    extra = [item for item in have if item not in want]
    missing = [item for item in want if item not in have]
    return f"{' '.join(extra)}, not {' '.join(missing)}"


class Outcome(NamedTuple):
    """What a row says of its deal: all a rerun needs of it (``deal``: the deal's ID it
    records, None in rows that record none)."""

    result: str
    seconds: float
    deal: str | None = None


def _deal(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


@dataclasses.dataclass
class ResultsFile:
    """A results file as read: each id's outcome, and where its whole rows end."""

    path: str
    rules: Rules | None = None
    """The run's rules: a row that records others is refused (None: not checked)."""
    done: dict[str, Outcome] = dataclasses.field(default_factory=dict)
    whole_bytes: int = 0
    """The length of the lines kept: everything but a last row cut short."""
    cut_short: bool = False
    """The bytes after ``whole_bytes`` are a row cut short, to be cut away."""
    unterminated: bool = False
    """The last row is whole but lacks its line end."""
    csv_fields: tuple[str, ...] = CSV_FIELDS
    """A CSV file's columns: those of its header (an older file's lack ``rules``)."""

    @property
    def is_csv(self) -> bool:
        return self.path.endswith(".csv")


def _seconds(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


class Row(NamedTuple):
    """What a rerun reads of a row: its id, outcome and the rules it records (if any)."""

    ident: str
    outcome: Outcome
    rules: object


def _jsonl_row(line: bytes, _fields: tuple[str, ...]) -> Row | None:
    """A JSONL row, or None if the line is not a whole row."""
    try:
        row = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(row, dict) or "id" not in row or row.get("result") not in RESULTS:
        return None
    outcome = Outcome(row["result"], _seconds(row.get("seconds")), _deal(row.get("deal")))
    return Row(str(row["id"]), outcome, row.get("rules"))


def _csv_row(line: bytes, fields: tuple[str, ...]) -> Row | None:
    """A CSV row with the columns ``fields``, or None if the line is not a whole row."""
    try:
        values = next(csv.reader([line.decode("utf-8")]))
    except (ValueError, csv.Error, StopIteration):
        return None
    if len(values) != len(fields):
        return None
    row = dict(zip(fields, values, strict=True))
    try:
        seconds = float(row["seconds"])
    except ValueError:
        return None
    if not row["id"] or row["result"] not in RESULTS:
        return None
    return Row(row["id"], Outcome(row["result"], seconds, _deal(row["deal"])), row.get("rules"))


def _is_csv_row_cut_short(line: bytes, fields: tuple[str, ...]) -> bool:
    """Whether ``line`` is the start of a CSV row with the columns ``fields``: fewer
    values than they, an id of digits first and, as far as it goes, a result."""
    try:
        values = next(csv.reader([line.decode("utf-8")]))
    except (ValueError, csv.Error, StopIteration):
        return False
    ident = values[0] if values else ""
    if not (len(values) < len(fields) and ident.isascii() and ident.isdigit()):
        return False
    result_at = fields.index("result")
    if len(values) <= result_at:
        return True
    if len(values) == result_at + 1:  # cut within the result
        return any(result.startswith(values[result_at]) for result in RESULTS)
    return values[result_at] in RESULTS


def _is_cut_short(results: ResultsFile, line: bytes) -> bool:
    """Whether ``line`` is a row cut short by an interruption (older versions left such
    rows mid-file), not a line of something else."""
    if results.is_csv:
        return _is_csv_row_cut_short(line, results.csv_fields)
    return line.startswith(JSONL_ROW_START)


def _not_results(path: str, number: int, why: str) -> InputError:
    return InputError(f"--out {path} is not a results file: line {number} {why}")


def _check_rules(results: ResultsFile, number: int, recorded: object) -> None:
    """Refuse a row whose recorded rules are not the run's (scoring aside)."""
    if results.rules is None or recorded is None:
        return
    try:
        found = row_rules(recorded)
    except BonanzaError as error:
        raise InputError(f"--out {results.path} line {number}: {error}") from None
    if verdict_rules(found) != verdict_rules(results.rules):
        raise InputError(
            f"--out {results.path} line {number} was solved with "
            f"{rules_difference(found, results.rules)}: give another --out file, "
            "or the rules it was run with"
        )


def _take_header(results: ResultsFile, raw: bytes) -> None:
    """Take a CSV file's first line (``raw``): its header, or a header cut short."""
    line = line_of(raw, 1)
    if raw.endswith(b"\n") and line in CSV_HEADERS:
        results.whole_bytes += len(raw)
        results.csv_fields = CSV_HEADERS[line]
    elif not raw.endswith(b"\n") and any(header.startswith(line) for header in CSV_HEADERS):
        results.cut_short = True
    else:
        header = ",".join(CSV_FIELDS)
        raise _not_results(results.path, 1, f"is not the header {header}")


def _take_line(results: ResultsFile, number: int, raw: bytes) -> None:
    """Add line ``number`` (``raw``, with its line end if any) to ``results``."""
    if results.is_csv and number == 1:
        _take_header(results, raw)
        return
    whole = raw.endswith(b"\n")
    line = line_of(raw, number)
    read = _csv_row if results.is_csv else _jsonl_row
    row = read(line, results.csv_fields) if line.strip() else None
    if row is not None:
        _check_rules(results, number, row.rules)
        results.done[row.ident] = row.outcome
        results.whole_bytes += len(raw)
        results.unterminated = not whole
    elif not line.strip() or _is_cut_short(results, line):
        if whole:
            results.whole_bytes += len(raw)
        else:
            results.cut_short = True
    else:
        raise _not_results(results.path, number, "is not a result row: is it the right file?")


def read_results(path: str, rules: Rules | None = None) -> ResultsFile:
    """The rows of a results file (none if it does not exist yet).

    Raises ``InputError`` naming the file if it cannot be read or is not a
    results file: a CSV file must start with a header, and JSONL lines must
    be rows (or rows cut short by an interruption, which are skipped); and
    if a row records rules other than ``rules`` (scoring aside).
    """
    results = ResultsFile(path, rules)
    try:
        with open(path, "rb") as file:
            for number, raw in enumerate(file, 1):
                _take_line(results, number, raw)
    except FileNotFoundError:
        pass  # a new file; a missing folder shows when it is opened for writing
    except OSError as error:
        raise InputError(f"cannot read --out {path}: {error.strerror}") from None
    return results


class ResultsWriter:
    """Appends one row per finished deal to a results file, flushing each at once."""

    def __init__(self, results: ResultsFile) -> None:
        self.path = results.path
        self.csv: csv.DictWriter[str] | None = None
        try:
            if results.cut_short:
                os.truncate(results.path, results.whole_bytes)
            self.file: TextIO = open(results.path, "a", encoding="utf-8", newline="")  # noqa: SIM115
            if results.unterminated:
                self.file.write(CSV_LINE_END if results.is_csv else JSONL_LINE_END)
            if results.is_csv:
                self.csv = csv.DictWriter(self.file, results.csv_fields, extrasaction="ignore")
                if results.whole_bytes == 0:
                    self.csv.writeheader()
            self.file.flush()
        except OSError as error:
            raise self._cannot_write(error) from None

    def _cannot_write(self, error: OSError) -> InputError:
        return InputError(f"cannot write --out {self.path}: {error.strerror}")

    def write(self, row: dict[str, Any]) -> None:
        """Append ``row`` (one deal's result) as one line."""
        try:
            if self.csv is None:
                self.file.write(json.dumps(row) + JSONL_LINE_END)
            else:
                moves = " ".join(row.get("line", ()))
                rules = row_rules(row["rules"]).to_text() if "rules" in row else ""
                self.csv.writerow({**row, "moves": moves, "rules": rules})
            self.file.flush()
        except OSError as error:
            raise self._cannot_write(error) from None

    def close(self) -> None:
        self.file.close()


__all__ = [
    "CPULESS_CSV_FIELDS",
    "CSV_FIELDS",
    "CSV_HEADERS",
    "OUT_SUFFIXES",
    "RESULTS",
    "TIME_PARTS",
    "UNRULED_CSV_FIELDS",
    "UNTIMED_CSV_FIELDS",
    "VERDICTS",
    "Outcome",
    "ResultsFile",
    "ResultsWriter",
    "line_of",
    "read_results",
    "row_rules",
    "rules_difference",
    "verdict_rules",
]
