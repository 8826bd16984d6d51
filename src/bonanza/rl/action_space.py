"""Action spaces whose ``sample()`` draws a uniformly random *legal* action.

A plain ``Discrete(615)`` sample is almost always illegal in Klondike (a
handful of the 615 moves are legal at a time). These spaces ask the live
engine for the legal actions, so ``env.action_space.sample()`` is a random
legal move, as a random agent (or Gymnasium's ``check_env``) expects. An
explicit ``mask`` or ``probability`` is obeyed as in Gymnasium. A copy
shares the live engine (it describes the same environment); a pickle holds
the plain ``Discrete`` or ``MultiDiscrete`` (the engine cannot leave its
process), so that Stable-Baselines3's ``save`` and Gymnasium's async vector
environments, which pickle the spaces, work.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium import spaces

from bonanza.rl._batch import Batch


def _live_copy(space: spaces.Space[Any], memo: dict[int, Any] | None = None) -> Any:
    """A copy that shares the live engine; a deep one (``memo`` given) copies the
    random generator too."""
    twin = object.__new__(type(space))
    twin.__dict__.update(space.__dict__)
    if memo is not None:
        twin._np_random = copy.deepcopy(space._np_random, memo)
    return twin


def _plain(space_type: type[spaces.Space[Any]], arguments: dict[str, Any],
           generator: np.random.Generator | None) -> spaces.Space[Any]:
    """The plain Gymnasium space a pickled legal-action space becomes."""
    plain = space_type(**arguments)
    plain._np_random = generator  # type: ignore[assignment]  # None: seeded on first use
    return plain


class LegalActions(spaces.Discrete):
    """``Discrete(actions)`` (615 in Klondike) whose samples are legal in game
    ``game`` of ``batch``."""

    def __init__(self, batch: Batch, actions: int, game: int = 0) -> None:
        super().__init__(actions)
        self.batch = batch
        self.game = game

    def __copy__(self) -> LegalActions:
        return _live_copy(self)  # type: ignore[no-any-return]

    def __deepcopy__(self, memo: dict[int, Any]) -> LegalActions:
        return _live_copy(self, memo)  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as a plain ``Discrete`` of the same actions."""
        arguments = {"n": int(self.n), "start": int(self.start)}
        return _plain, (spaces.Discrete, arguments, self._np_random)

    def sample(
        self, mask: np.ndarray | None = None, probability: np.ndarray | None = None
    ) -> np.int64:
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        legal = self.batch.legal(self.game)
        if not legal:
            return np.int64(self.start)
        return np.int64(legal[self.np_random.integers(len(legal))])


class LegalActionBatch(spaces.MultiDiscrete):
    """``MultiDiscrete([actions] * games)`` whose samples are legal in every game
    of ``batch`` (0 for a game with no legal action), drawn in one C call."""

    def __init__(self, batch: Batch, games: int, actions: int) -> None:
        super().__init__(np.full(games, actions))
        self.batch = batch

    def __copy__(self) -> LegalActionBatch:
        return _live_copy(self)  # type: ignore[no-any-return]

    def __deepcopy__(self, memo: dict[int, Any]) -> LegalActionBatch:
        return _live_copy(self, memo)  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as a plain ``MultiDiscrete`` of the same actions."""
        return _plain, (spaces.MultiDiscrete, {"nvec": self.nvec.copy()}, self._np_random)

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        actions = np.empty(len(self.nvec), dtype=np.int64)
        self.batch.sample(actions, self.np_random.random(len(self.nvec)))
        return actions
