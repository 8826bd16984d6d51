"""The deals ``bonanza analyze`` solves: a range of deal numbers or a deal file.

Both are checked in full before anything is solved. A range is never built in
memory: its ``(id, deal)`` pairs are made one at a time as the workers take them.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from typing import Final

from bonanza.cli.solver_io import InputError, read_text_file
from bonanza.core.deal import MAX_DEAL_NUMBER, Deal
from bonanza.core.errors import BonanzaError

MAX_DEAL_DIGITS: Final = len(str(MAX_DEAL_NUMBER))
COMMENT: Final = "#"
ID_SEPARATOR: Final = "\t"


def parse_deal_range(text: str) -> range:
    """``A-B`` (inclusive) or a single deal number, for argparse."""
    first, dash, last = text.partition("-")
    if dash and not last.strip():
        raise argparse.ArgumentTypeError(f"{text!r} has no last deal: give a range like 1-10000")
    ends = (first.strip(), (last if dash else first).strip())
    if not all(end.isascii() and end.isdigit() for end in ends):  # int() takes "+5", "1_0", "５"
        raise argparse.ArgumentTypeError(f"{text!r} is not a deal range like 1-10000")
    low, high = int(ends[0]), int(ends[1])
    if low < 0 or high < low:
        raise argparse.ArgumentTypeError(f"{text!r} is not a deal range like 1-10000")
    if high > MAX_DEAL_NUMBER:
        raise argparse.ArgumentTypeError(
            f"{text!r} goes past the last deal number, {MAX_DEAL_NUMBER}"
        )
    return range(low, high + 1)


def _is_canonical_number(ident: str) -> bool:
    """Whether ``ident`` is a number written as ``str(number)`` writes it."""
    return (
        ident.isascii()
        and ident.isdigit()
        and len(ident) <= MAX_DEAL_DIGITS
        and (ident == "0" or not ident.startswith("0"))
    )


class DealRange:
    """Deal numbers, each its own id; any number of them, made one at a time."""

    def __init__(self, numbers: range) -> None:
        self.numbers = numbers

    @property
    def total(self) -> int:
        # len() fails past sys.maxsize, and a range of deal numbers can be 2**64 long.
        return max(0, self.numbers.stop - self.numbers.start)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for number in self.numbers:
            yield str(number), str(number)

    def __contains__(self, ident: object) -> bool:
        return (
            isinstance(ident, str) and _is_canonical_number(ident) and int(ident) in self.numbers
        )

    def deal_id(self, ident: str) -> str:
        """The ``Deal.id`` of the deal of ``ident`` (one of these): the number itself."""
        return ident


class DealList:
    """The deals of a deal file by id, in the file's order."""

    def __init__(self, deals: dict[str, str]) -> None:
        self.deals = deals

    @property
    def total(self) -> int:
        return len(self.deals)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.deals.items())

    def __contains__(self, ident: object) -> bool:
        return ident in self.deals

    def deal_id(self, ident: str) -> str:
        """The ``Deal.id`` of the deal of ``ident`` (one of these), as rows record it."""
        return deal_id(self.deals[ident])


DealSource = DealRange | DealList


def check_deal(text: str, decks: int | None = None) -> None:
    """Raise ``DealError`` unless ``Deal.parse`` reads ``text`` (as a deal of ``decks``
    decks, if given).

    Deal numbers are only range-checked: shuffling each one would make a long
    deal file slow to check.
    """
    if (
        text.isascii()
        and text.isdigit()
        and len(text) <= MAX_DEAL_DIGITS
        and int(text) <= MAX_DEAL_NUMBER
    ):
        return
    Deal.parse(text, decks)


def deal_id(text: str) -> str:
    """The ``Deal.id`` of a checked deal's text (a number is its own, unshuffled)."""
    if text.isascii() and text.isdigit():
        return str(int(text))
    return Deal.parse(text).id


def check_resumed(path: str, recorded: Mapping[str, str | None], deals: DealSource) -> None:
    """Refuse an ``--out`` file whose row under an id of this run records another deal
    (``recorded``: each row's deal by id, None where a row records none): a deal file's
    ids are its line numbers, so another run's rows may share them."""
    for ident, deal in recorded.items():
        if deal is None or ident not in deals:
            continue
        wanted = deals.deal_id(ident)
        if deal != wanted:
            raise InputError(
                f"--out {path} holds deal {deal} under id {ident}, where this run has deal "
                f"{wanted}: give another --out file"
            )


def read_deal_file(path: str, decks: int | None = None) -> DealList:
    """The deals of a deal file, each line checked (as a deal of ``decks`` decks, if given).

    A line is a deal or ``id<TAB>deal``; the id defaults to the line number.
    Blank lines and lines starting with ``#`` are skipped.  A line that is not
    a deal, an empty or repeated id, or a file without deals raises
    ``InputError`` naming the file and line.
    """
    text = read_text_file(path, "deal file")
    deals: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(COMMENT):
            continue
        ident, separator, deal = line.partition(ID_SEPARATOR)
        ident, deal = (ident.strip(), deal.strip()) if separator else (str(number), stripped)
        if not ident:
            raise InputError(f"{path} line {number}: the id before the tab is empty")
        if ident in first_line:
            raise InputError(
                f"{path} line {number}: id {ident!r} is already the id of line {first_line[ident]}"
            )
        try:
            check_deal(deal, decks)
        except BonanzaError as error:
            raise InputError(f"{path} line {number}: {error}") from None
        deals[ident] = deal
        first_line[ident] = number
    if not deals:
        why = "it is empty" if not text.strip() else "only comments and blank lines"
        raise InputError(f"no deals in {path}: {why}")
    return DealList(deals)


def deal_source(
    numbers: range | None, deal_file: str | None, decks: int | None = None
) -> DealSource:
    """The deals of ``--deals`` or of ``--deal-file`` (exactly one is given), those of a
    file checked as deals of ``decks`` decks, if given: the run's rules'."""
    if numbers is not None:
        return DealRange(numbers)
    if deal_file is None:  # pragma: no cover - argparse requires one of the two
        raise InputError("give --deals or --deal-file")
    return read_deal_file(deal_file, decks)


__all__ = [
    "DealList",
    "DealRange",
    "DealSource",
    "check_deal",
    "deal_source",
    "parse_deal_range",
    "read_deal_file",
]
