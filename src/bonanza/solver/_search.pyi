"""Type stub of the C search core (see _search.c)."""

from collections.abc import Sequence
from typing import Any, TypeAlias

CorePosition: TypeAlias = tuple[
    Sequence[Sequence[int]],  # columns
    Sequence[int],  # downs
    Sequence[int],  # talon
    int,  # waste_size
    Sequence[int],  # foundations
    int,  # recycles
    int,  # draw
    int,  # recycles_allowed
    bool,  # any_empty
    bool,  # recall
    bool,  # partial
    bool,  # deals
]
"""The position and rules, the leading arguments of every entry point."""

PRUNE_ALL: int
SIDES_DEFAULT: int
FIRED_SLOTS: int
DEFAULT_MEMORY: int
RECALLS_REFERENCE: int
RECALLS_SOUND: int

def solve(
    columns: Sequence[Sequence[int]],
    downs: Sequence[int],
    talon: Sequence[int],
    waste_size: int,
    foundations: Sequence[int],
    recycles: int,
    draw: int,
    recycles_allowed: int,
    any_empty: bool,
    recall: bool,
    partial: bool,
    deals: bool,
    time_limit: float,
    node_limit: int,
    memory_limit: int,
    prune: int = ...,
    sides: int = ...,
    seed: int = ...,
    shorten: int = ...,
    shorten_above: int = ...,
    hard: bool = ...,
    cpu_clock: bool = ...,
    /,
) -> tuple[
    str, list[tuple[int, int, int]], int, float, str | None, int, int, tuple[int, ...], int,
    float, float, float,
]: ...
def legal_moves(*position: *CorePosition) -> list[tuple[int, int, int]]: ...
def step_keys(*position: *CorePosition) -> list[tuple[int, int]]: ...
def dead_end_rule(*position: *CorePosition) -> int: ...
def chain_facts(*position: *CorePosition) -> tuple[int, int, tuple[tuple[int, int], ...]]: ...
def reach_sets(*position_no_home_frozen: Any) -> tuple[int, int]: ...
def quiet_progress(
    columns: Sequence[Sequence[int]],
    downs: Sequence[int],
    talon: Sequence[int],
    waste_size: int,
    foundations: Sequence[int],
    recycles: int,
    draw: int,
    recycles_allowed: int,
    any_empty: bool,
    recall: bool,
    partial: bool,
    deals: bool,
    node_limit: int,
    memory_limit: int,
    recalls: int = ...,
    /,
) -> tuple[str, int]: ...
def solve_wide(
    columns: Sequence[Sequence[int]],
    downs: Sequence[int],
    stock: Sequence[int],
    waste: Sequence[int],
    foundations: Sequence[int],
    recycles: int,
    decks: int,
    draw: int,
    recycles_allowed: int,
    any_empty: bool,
    recall: bool,
    partial: bool,
    time_limit: float,
    node_limit: int,
    memory_limit: int,
    talon_macros: bool = ...,
    prune: int = ...,
    cpu_clock: bool = ...,
    /,
) -> tuple[str, bytes, int, float, str | None, int, int, float, int, int, int]: ...
def wide_moves(
    columns: Sequence[Sequence[int]],
    downs: Sequence[int],
    stock: Sequence[int],
    waste: Sequence[int],
    foundations: Sequence[int],
    recycles: int,
    decks: int,
    draw: int,
    recycles_allowed: int,
    any_empty: bool,
    recall: bool,
    partial: bool,
    time_limit: float,
    node_limit: int,
    memory_limit: int,
    talon_macros: bool = ...,
    /,
) -> list[tuple[int, int, int, int]]: ...
def wide_hopeless(
    columns: Sequence[Sequence[int]],
    downs: Sequence[int],
    stock: Sequence[int],
    waste: Sequence[int],
    foundations: Sequence[int],
    recycles: int,
    decks: int,
    draw: int,
    recycles_allowed: int,
    any_empty: bool,
    recall: bool,
    partial: bool,
    time_limit: float,
    node_limit: int,
    memory_limit: int,
    talon_macros: bool = ...,
    prune: int = ...,
    /,
) -> bool: ...
