"""Perft: the number of legal move sequences of a given length."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bonanza.core import Move, Position

MoveGenerator = Callable[[Position], Iterable[Move]]


def _fast(position: Position) -> list[Move]:
    return position.legal_moves()


def perft(position: Position, depth: int, generate: MoveGenerator = _fast) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in generate(position):
        child = position.copy()
        child.apply(move)
        total += perft(child, depth - 1, generate)
    return total


def divide(position: Position, depth: int, generate: MoveGenerator = _fast) -> dict[str, int]:
    """Perft split by first move, to find where two generators disagree."""
    from bonanza.core import format_move

    result = {}
    for move in generate(position):
        child = position.copy()
        child.apply(move)
        result[format_move(move)] = perft(child, depth - 1, generate)
    return result
