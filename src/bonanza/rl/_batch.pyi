"""Type stub of the C batch engine (see _batch.c)."""

from typing import Any, SupportsIndex

import numpy as np

Buffer = np.ndarray[Any, Any]  # any writable C-contiguous numpy array

ACTION_COUNT: int
OBS_SIZE: int
MAX_COLUMN: int

def shuffle(number: int, decks: int = 1, /) -> bytes: ...

class Batch:
    action_count: int
    obs_size: int
    column_slots: int
    def __init__(
        self,
        obs: Buffer,
        mask: Buffer,
        reward: Buffer,
        terminated: Buffer,
        truncated: Buffer,
        draw: int,
        recycles_allowed: int,
        any_empty: bool,
        recall: bool,
        partial: bool,
        all_visible: bool,
        max_steps: int,
        home_reward: float,
        turned_reward: float,
        decks: int = 1,
        columns: int = 7,
        staircase: bool = True,
        every_column: bool = False,
        waste_start: int = 0,
        penalize: bool = False,
        illegal_penalty: float = 0.0,
    ) -> None: ...
    def seed(self, game: int, seed: int, /) -> None: ...
    def reset(self, game: int, /) -> None: ...
    def deal(self, game: int, cards: bytes, number: int | None, /) -> None: ...
    def play(self, game: int, action: SupportsIndex, /) -> None: ...
    def step(self, actions: Buffer, /) -> None: ...
    def sample(self, out: Buffer, uniform: Buffer, /) -> None: ...
    def legal(self, game: int, /) -> list[int]: ...
    def state(
        self, game: int, /
    ) -> tuple[
        tuple[list[int], ...], list[int], list[int], list[int], list[int], int, int, int | None
    ]: ...
