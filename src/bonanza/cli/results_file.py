"""The ``--out`` file of ``bonanza analyze``: one row per finished deal, JSONL or CSV.

A rerun reads the file to skip the deals it holds. The file is checked before
anything is written: one that is not a results file is refused and left as it
is, and a last row cut short by an interruption is cut away before new rows
are appended, so that every line stays a whole row.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
from typing import Any, Final, NamedTuple, TextIO

from bonanza.cli.solver_io import InputError

CSV_FIELDS: Final = ("id", "deal", "result", "nodes", "seconds", "limit", "states", "moves")
CSV_HEADER: Final = ",".join(CSV_FIELDS).encode()
CSV_LINE_END: Final = "\r\n"  # what csv's default dialect writes
JSONL_LINE_END: Final = "\n"
OUT_SUFFIXES: Final = (".jsonl", ".csv")
VERDICTS: Final = ("solved", "unsolvable", "unknown")
RESULTS: Final = (*VERDICTS, "error")  # "error": older versions' rows for deals that did not parse
JSONL_ROW_START: Final = b'{"id": '  # how every JSONL row written here begins


class Outcome(NamedTuple):
    """What a row says of its deal: all a rerun needs of it."""

    result: str
    seconds: float


@dataclasses.dataclass
class ResultsFile:
    """A results file as read: each id's outcome, and where its whole rows end."""

    path: str
    done: dict[str, Outcome] = dataclasses.field(default_factory=dict)
    whole_bytes: int = 0
    """The length of the lines kept: everything but a last row cut short."""
    cut_short: bool = False
    """The bytes after ``whole_bytes`` are a row cut short, to be cut away."""
    unterminated: bool = False
    """The last row is whole but lacks its line end."""

    @property
    def is_csv(self) -> bool:
        return self.path.endswith(".csv")


def _seconds(value: object) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _jsonl_row(line: bytes) -> tuple[str, Outcome] | None:
    """The id and outcome of a JSONL row, or None if the line is not a whole row."""
    try:
        row = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(row, dict) or "id" not in row or row.get("result") not in RESULTS:
        return None
    return str(row["id"]), Outcome(row["result"], _seconds(row.get("seconds")))


def _csv_row(line: bytes) -> tuple[str, Outcome] | None:
    """The id and outcome of a CSV row, or None if the line is not a whole row."""
    try:
        fields = next(csv.reader([line.decode("utf-8")]))
    except (ValueError, csv.Error, StopIteration):
        return None
    if len(fields) != len(CSV_FIELDS):
        return None
    row = dict(zip(CSV_FIELDS, fields, strict=True))
    try:
        seconds = float(row["seconds"])
    except ValueError:
        return None
    if not row["id"] or row["result"] not in RESULTS:
        return None
    return row["id"], Outcome(row["result"], seconds)


def _not_results(path: str, number: int, why: str) -> InputError:
    return InputError(f"--out {path} is not a results file: line {number} {why}")


def _take_line(results: ResultsFile, number: int, raw: bytes) -> None:
    """Add line ``number`` (``raw``, with its line end if any) to ``results``."""
    whole = raw.endswith(b"\n")
    line = raw.rstrip(b"\r\n")
    if results.is_csv and number == 1:
        if whole and line == CSV_HEADER:
            results.whole_bytes += len(raw)
        elif not whole and CSV_HEADER.startswith(line):
            results.cut_short = True
        else:
            raise _not_results(results.path, number, f"is not the header {CSV_HEADER.decode()}")
        return
    row = None if not line.strip() else (_csv_row if results.is_csv else _jsonl_row)(line)
    if row is not None:
        ident, outcome = row
        results.done[ident] = outcome
        results.whole_bytes += len(raw)
        results.unterminated = not whole
    elif not line.strip() or results.is_csv or line.startswith(JSONL_ROW_START):
        # A blank line, or a row cut short (older versions left such rows mid-file).
        if whole:
            results.whole_bytes += len(raw)
        else:
            results.cut_short = True
    else:
        raise _not_results(results.path, number, "is not a result row: is it the right file?")


def read_results(path: str) -> ResultsFile:
    """The rows of a results file (none if it does not exist yet).

    Raises ``InputError`` naming the file if it cannot be read or is not a
    results file: a CSV file must start with the header, and JSONL lines must
    be rows (or rows cut short by an interruption, which are skipped).
    """
    results = ResultsFile(path)
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
                self.csv = csv.DictWriter(self.file, CSV_FIELDS, extrasaction="ignore")
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
                moves = " ".join(move["move"] for move in row.get("moves", []))
                self.csv.writerow({**row, "moves": moves})
            self.file.flush()
        except OSError as error:
            raise self._cannot_write(error) from None

    def close(self) -> None:
        self.file.close()


__all__ = [
    "CSV_FIELDS",
    "OUT_SUFFIXES",
    "RESULTS",
    "VERDICTS",
    "Outcome",
    "ResultsFile",
    "ResultsWriter",
    "read_results",
]
