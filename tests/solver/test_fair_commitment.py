"""Near-ties broken by the reveal that wins most layouts (``fair_choice.best_commitment``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bonanza.core import Move, Position
from bonanza.core.view import PlayerView
from bonanza.solver.fair import advise, sample_layout
from bonanza.solver.fair_budget import (
    COMPILED,
    HINT_PRUNE,
    MAX_COMMITMENTS,
    PROGRESS_NODES,
    Sampling,
)
from bonanza.solver.fair_choice import Candidate, Rule, best_commitment, choose, commitments
from bonanza.solver.quiet import Budget, explore, is_informative, position_key
from bonanza.solver.search import Verdict, verdict
from tests.core.hidden import shuffle_hidden
from tests.solver.record_commitment_moments import MOMENT_BUDGET, moment
from tests.solver.test_fair import positions_in_play

MOMENTS = Path(__file__).parent / "data" / "commitment_moments.tsv"
"""Random-play positions (preset, seed: ``record_commitment_moments.moment``)
where the hint at ``MOMENT_BUDGET`` went to the commitment rule; found by
``record_commitment_moments.py``."""
LAYOUTS = 8
DIFFERENTIAL_MOMENTS = 40
"""Moments the differential test takes, per draw mode (its layouts are its own)."""
SOLVE_CAP = 5_000
"""Each layout's solve in the differential test (most decide well within it)."""


class _Unlimited:
    """A hint's node budget that never runs out, each solve capped at ``SOLVE_CAP``."""

    sampling: Sampling = COMPILED
    spent = False

    def spend(self, nodes: int) -> None:
        del nodes

    def cap(self, most: int) -> int:
        return min(most, SOLVE_CAP)


def _layouts(view: PlayerView, seed: int) -> list[tuple[Position, Verdict]]:
    rng = random.Random(seed)
    samples = [sample_layout(view, rng) for _ in range(LAYOUTS)]
    return [(sample, verdict(sample, SOLVE_CAP, HINT_PRUNE)[0]) for sample in samples]


def _wins(line: tuple[Move, ...], layouts: list[tuple[Position, Verdict]]) -> float:
    """The layouts ``line`` wins in, worked out here move by move."""
    total = 0.0
    for sample, root in layouts:
        if root == "unsolvable":
            continue
        after = sample.copy()
        for move in line:
            assert move in after.legal_moves()  # a quiet line is legal in every layout
            after.apply(move)
        answer = verdict(after, SOLVE_CAP, HINT_PRUNE)[0]
        total += {"solved": 1.0, "unsolvable": 0.0}.get(answer, 0.5)
    return total


@pytest.mark.parametrize("draw", [1, 3])
def test_each_quiet_line_leads_to_the_position_its_move_is_played_from(draw: int) -> None:
    steps = long_lines = 0
    for position in positions_in_play(draw, 30):
        for step in explore(position, Budget(60)):
            replayed = position.copy()
            for move in step.line:
                assert not is_informative(replayed, move)
                replayed.apply(move)
            assert position_key(replayed) == position_key(step.before)
            assert step.first == (*step.line, step.move)[0]
            steps += 1
            long_lines += len(step.line) >= 2
    assert steps > 400 and long_lines > 100


@pytest.mark.python_bound
@pytest.mark.parametrize("draw", [1, 3])
def test_a_near_tie_goes_to_the_reveal_that_wins_in_most_layouts(draw: int) -> None:
    decided = nearest_passed_over = 0
    preset = "klondike" if draw == 1 else "klondike-3"
    seeds = [seed for name, seed in _moments() if name == preset][:DIFFERENTIAL_MOMENTS]
    for number, seed in enumerate(seeds):
        position = moment(preset, seed)
        view = PlayerView.of(position)
        layout = view.layout(sorted(view.unseen))
        moves = layout.legal_moves()
        lines = commitments(layout, {}, set(moves), _Unlimited())
        # The lines are the quiet search's first reveals, shortest first.
        expected = [(*step.line, step.move) for step in explore(layout, Budget(PROGRESS_NODES))
                    if is_informative(step.before, step.move)][:MAX_COMMITMENTS]
        assert [line for _, line in lines] == expected
        layouts = _layouts(view, number)
        chosen = best_commitment(lines, _Unlimited(), layouts)
        if chosen is None:
            continue
        wins = [_wins(line, layouts) for _, line in lines]
        assert chosen == lines[wins.index(max(wins))][0]  # the shortest of the best lines
        decided += 1
        nearest_passed_over += chosen != lines[0][0]
        # Where the scores tie and no move has the solver's plan behind it.
        tied = [Candidate(move, (0,), [0.5] * LAYOUTS) for move in moves]
        assert choose(tied, layout, {}, frozenset(), _Unlimited(), layouts=layouts) == (
            next(c for c in tied if c.move == chosen), Rule.COMMITMENT)
    assert decided >= 8
    assert nearest_passed_over >= 3


def _moments() -> list[tuple[str, int]]:
    rows = [line.split("\t") for line in MOMENTS.read_text().splitlines()
            if line and not line.startswith("#")]
    return [(preset, int(seed)) for preset, seed in rows]


# (Klondike's two cases are hint loops, python_bound; Double Klondike's few
# positions keep the commitment's wide searches in the sanitizer run.)
@pytest.mark.parametrize(("preset", "least"), [
    pytest.param("klondike", 200, marks=pytest.mark.python_bound),
    pytest.param("klondike-3", 200, marks=pytest.mark.python_bound),
    ("double-klondike", 12),
])
def test_where_the_commitment_decides_shuffling_hidden_cards_never_changes_the_hint(
    preset: str, least: int,
) -> None:
    chooser = random.Random(preset)
    seeds = [seed for name, seed in _moments() if name == preset]
    assert len(seeds) >= least
    changed = 0
    for seed in seeds:
        position = moment(preset, seed)
        twin = shuffle_hidden(position, chooser)
        changed += twin != position
        view, twin_view = PlayerView.of(position), PlayerView.of(twin)
        assert twin_view == view
        advice = advise(view, budget=MOMENT_BUDGET, seed=seed)
        assert advice.rule is Rule.COMMITMENT
        assert advise(twin_view, budget=MOMENT_BUDGET, seed=seed) == advice
    assert changed >= len(seeds) - 2  # the shuffles really moved hidden cards, twins too
