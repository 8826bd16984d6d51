"""Hypothesis strategies: rule sets, deals and positions reached by random play."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from bonanza.core import Deal, EmptyColumn, Game, Position, Rules, Scoring

rules = st.builds(
    Rules,
    draw=st.sampled_from([1, 2, 3, 5]),
    passes=st.sampled_from([None, 1, 2, 3]),
    empty_column=st.sampled_from(list(EmptyColumn)),
    recall=st.booleans(),
    partial_runs=st.booleans(),
    thoughtful=st.booleans(),
    scoring=st.sampled_from(list(Scoring)),
)
deals = st.integers(min_value=0, max_value=2**64 - 1).map(Deal.from_number)


@st.composite
def games(draw: st.DrawFn, max_moves: int = 120) -> Game:
    """A game after a random number of random legal moves."""
    game = Game(draw(deals), draw(rules))
    for _ in range(draw(st.integers(0, max_moves))):
        moves = game.position.legal_moves()
        if not moves:
            break
        game.play(moves[draw(st.integers(0, len(moves) - 1))])
    return game


positions = games().map(lambda game: game.position.copy())


def random_position(seed: int, moves: int, rules: Rules) -> Position:
    """A position reached by ``moves`` seeded random moves (for data tests)."""
    import random

    chooser = random.Random(seed)
    position = Position.initial(Deal.from_number(seed, rules.decks), rules)
    for _ in range(moves):
        legal = position.legal_moves()
        if not legal:
            break
        position.apply(chooser.choice(legal))
    return position


VARIANTS = ("double-klondike", "double-klondike-3", "westcliff", "easthaven")
"""Klondike's relatives (docs/variants.md)."""


@st.composite
def variant_rules(draw: st.DrawFn, names: tuple[str, ...] = VARIANTS) -> Rules:
    """A relative of Klondike (one of ``names``), with its options varied
    where the game allows."""
    import dataclasses

    preset = Rules.preset(draw(st.sampled_from(names)))
    changes: dict[str, object] = {
        "empty_column": draw(st.sampled_from(list(EmptyColumn))),
        "recall": draw(st.booleans()),
        "partial_runs": draw(st.booleans()),
        "thoughtful": draw(st.booleans()),
        "scoring": draw(st.sampled_from([Scoring.STANDARD, Scoring.VEGAS, Scoring.NONE])),
    }
    if preset.decks > 1:
        changes["passes"] = draw(st.sampled_from([None, 1, 2]))
    return dataclasses.replace(preset, **changes)  # type: ignore[arg-type]


def deal_for(rules: Rules, number: int) -> Deal:
    """Deal ``number`` of the rules' decks."""
    return Deal.from_number(number, rules.decks)



Snapshot = tuple[Position, int]


def play_checked(
    game: Game, choices: list[int], check: Callable[[Position, int], None]
) -> list[Snapshot]:
    """Play the ``choices``-th legal moves (modulo their number), calling
    ``check(position, move number)`` before each move and at the end; return
    the (position, score) after the deal and after each move."""
    snapshots = [(game.position.copy(), game.score())]
    for at, choice in enumerate(choices):
        check(game.position, at)
        moves = game.position.legal_moves()
        if not moves:
            assert game.is_won or not game.position.has_moves()
            break
        game.play(moves[choice % len(moves)])
        snapshots.append((game.position.copy(), game.score()))
    check(game.position, len(snapshots))
    return snapshots


def undo_checked(game: Game, snapshots: list[Snapshot]) -> None:
    """Undo every move, checking each position and score on the way back."""
    for position, score in reversed(snapshots[1:]):
        assert (game.position, game.score()) == (position, score)
        game.undo()
    assert (game.position, game.score()) == snapshots[0]
