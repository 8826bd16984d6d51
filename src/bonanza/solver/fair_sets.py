"""The deal sets the fair hint engine is measured on (issue 34).

Engine changes are chosen on the tuning set; what is published is the
held-out set's figure, played once per engine version. The two sets come from
different seeds: a set's deals are ``random.Random(seed).getrandbits(64)`` in
order, and its hint seeds follow from the same seed.
"""

from __future__ import annotations

from typing import Final

TUNING: Final = "tuning"
HELD_OUT: Final = "held-out"
TUNING_SEED: Final = 2024
"""Every past tuning used the deals of seed 2024: they are the tuning set's."""
HELD_OUT_SEED: Final = 271828
"""Never used to choose anything: for the figures that are published."""
SEEDS: Final[dict[str, int]] = {TUNING: TUNING_SEED, HELD_OUT: HELD_OUT_SEED}


def set_of_seed(seed: object) -> str | None:
    """The name of the set a run's seed is, or None for another seed."""
    for name, value in SEEDS.items():
        if seed == value:
            return name
    return None
