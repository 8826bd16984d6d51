"""Find the positions where a fair hint goes to the commitment rule, for the
fairness test of that rule (``test_fair_commitment.py``).

    python -m tests.solver.record_commitment_moments > tests/solver/data/commitment_moments.tsv

Random-play positions (``random_position(seed, seed % PLIES[preset], ...)``,
as the other fairness tests take them) with hidden cards and a choice of
moves are asked for a hint at ``MOMENT_BUDGET`` with the seed as the hint's
seed; those whose hint the commitment rule chose are written as
``preset<TAB>seed``, up to ``WANTED[preset]`` of them among ``TRIED`` positions.
The rule decides about one hint in forty to sixty there.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Final

from bonanza.core import Position, Rules
from bonanza.core.view import PlayerView
from bonanza.solver.fair import advise
from bonanza.solver.fair_choice import Rule
from tests.core.strategies import random_position

MOMENT_BUDGET: Final = 0.1
"""The hint's budget, in seconds (``test_fair_commitment.MOMENT_BUDGET``)."""
WANTED: Final = {"klondike": 200, "klondike-3": 200, "double-klondike": 12}
"""Moments per preset. (Double Klondike with draw 3 is left out: the rule chose
one hint in 2,000 of its positions.)"""
TRIED: Final = 20_000
"""Positions tried per preset, at most."""
FIRST_SEED: Final = {"klondike": 10_000, "klondike-3": 30_000, "double-klondike": 70_000}
"""Where each preset's seeds start (apart from the other tests' positions)."""
PLIES: Final = {"klondike": 60, "klondike-3": 60, "double-klondike": 80}
"""A position is ``seed % PLIES[preset]`` random moves into its deal."""


def moment(preset: str, seed: int) -> Position:
    """The position of one moment."""
    return random_position(seed, seed % PLIES[preset], Rules.preset(preset))


def moments(preset: str) -> Iterator[int]:
    """The seeds of the positions where the commitment rule decides."""
    seed, found, tried = FIRST_SEED[preset], 0, 0
    while found < WANTED[preset] and tried < TRIED:
        seed += 1
        position = moment(preset, seed)
        view = PlayerView.of(position)
        if view.is_known() or len(position.legal_moves()) < 2:
            continue
        tried += 1
        if advise(view, budget=MOMENT_BUDGET, seed=seed).rule is Rule.COMMITMENT:
            found += 1
            yield seed


def main() -> None:
    print("# preset\tseed: random_position(seed, seed % plies, Rules.preset(preset)); "
          "see record_commitment_moments.py")
    for preset in WANTED:
        for seed in moments(preset):
            print(f"{preset}\t{seed}", flush=True)
            print(".", end="", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
