"""Deals and lines the tests use, found once per session by small searches over the engine."""

from __future__ import annotations

from functools import cache

from bonanza.core import Deal, Game, Move, Rules
from bonanza.core.notation import format_move

from . import search

KLONDIKE = Rules.preset("klondike")
NO_RECALL = Rules(recall=False)
ONE_PASS = Rules.preset("vegas-1")


@cache
def winning() -> tuple[str, list[Move]]:
    """A draw-1 deal and a line that wins it (searched from deal 2 on)."""
    number, moves = search.find_winnable(KLONDIKE, range(2, 200))
    return str(number), moves


@cache
def dead_end() -> tuple[str, int]:
    """A one-pass deal where drawing the whole stock leaves no legal move."""
    number, draws = search.find_dead_end(ONE_PASS, range(0, 5000))
    return str(number), draws


@cache
def stuck() -> tuple[str, list[Move]]:
    """A no-recall deal and a line whose last move leaves only useless moves.

    Cut where the solver's ``progress_possible`` first says False, so one move
    earlier progress was still possible (or undecided).
    """
    from bonanza.solver.progress import progress_possible

    number, line = search.find_stuck_line(NO_RECALL, range(0, 2000))
    game = Game(Deal.from_number(number), NO_RECALL)
    for count, move in enumerate(line, 1):
        game.play(move)
        if progress_possible(game.position) is False:
            return str(number), line[:count]
    raise LookupError(f"the line for deal {number} never reaches a stuck position")


@cache
def fork() -> tuple[str, Move, Move]:
    number, first, second = search.find_fork(KLONDIKE, range(0, 2000))
    return str(number), first, second


@cache
def single() -> tuple[str, Move]:
    number, move = search.find_single(KLONDIKE, range(0, 2000))
    return str(number), move


def texts(moves: list[Move]) -> list[str]:
    return [format_move(m) for m in moves]
