"""Positions packed into bytes: how a game keeps the positions it has passed.

A live :class:`Position` is a dozen lists, which the garbage collector must
walk on every full collection; a server keeping thousands of games in memory
pays for them in long pauses. A packed position is one ``bytes`` object (about
70 bytes), which the collector never walks, and it unpacks into an equal
position.

Layout: the pass count (4 bytes, big-endian), the foundation heights (four
per deck), then each column as its face-down count, its length and its cards,
then the stock and the waste, each as its length and its cards (one byte per
card). The rules give the number of foundations and columns.
"""

from __future__ import annotations

from typing import Final

from bonanza.core.cards import ALL_CARDS, Card
from bonanza.core.position import Position
from bonanza.core.rules import Rules

RECYCLE_BYTES: Final = 4
"""Width of the pass count: far beyond any game's history limit."""


def pack(position: Position) -> bytes:
    """``position`` as bytes (its rules are not kept: the game knows them)."""
    data = bytearray(position.recycles.to_bytes(RECYCLE_BYTES, "big"))
    data += bytes(position.foundations)
    for column, down in zip(position.tableau, position.down, strict=True):
        data.append(down)
        data.append(len(column))
        data += bytes(column)
    for pile in (position.stock, position.waste):
        data.append(len(pile))
        data += bytes(pile)
    return bytes(data)


def unpack(data: bytes, rules: Rules) -> Position:
    """The position that :func:`pack` made ``data`` from, under ``rules``."""
    at = RECYCLE_BYTES + rules.foundations
    recycles = int.from_bytes(data[:RECYCLE_BYTES], "big")
    foundations = list(data[RECYCLE_BYTES:at])
    tableau: list[list[Card]] = []
    down: list[int] = []
    while len(tableau) < rules.columns:
        down.append(data[at])
        size = data[at + 1]
        tableau.append([ALL_CARDS[c] for c in data[at + 2 : at + 2 + size]])
        at += 2 + size
    piles: list[list[Card]] = []
    for _ in range(2):
        size = data[at]
        piles.append([ALL_CARDS[c] for c in data[at + 1 : at + 1 + size]])
        at += 1 + size
    stock, waste = piles
    return Position(rules, tableau, down, stock, waste, foundations, recycles)
