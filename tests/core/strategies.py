"""Hypothesis strategies: rule sets, deals and positions reached by random play."""

from __future__ import annotations

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
    position = Position.initial(Deal.from_number(seed), rules)
    for _ in range(moves):
        legal = position.legal_moves()
        if not legal:
            break
        position.apply(chooser.choice(legal))
    return position
