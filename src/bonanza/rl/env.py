"""``KlondikeEnv``: one game of Klondike or a relative as a Gymnasium environment (docs/rl.md).

It runs on the C batch engine with a batch of one game. Actions are the
numbers of ``bonanza.rl.actions`` for the rules' table; ``info["action_mask"]`` and
``action_masks()`` give the legal ones, and an illegal action raises
``ActionError`` without touching the game (or, with ``illegal_action="penalize"``,
is a no-op costing ``illegal_penalty``). ``info`` names the deal only when the
episode ends, unless ``reveal_deal_in_info``: the deal decides every hidden card.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any, Final, NoReturn, SupportsIndex

import gymnasium as gym
import numpy as np

from bonanza.core.position import Position
from bonanza.rl import observation as layout
from bonanza.rl.action_space import LegalActions
from bonanza.rl.actions import KLONDIKE, ActionError, Numbering
from bonanza.rl.engine import (
    DealId,
    Engine,
    RulesLike,
    flag_of,
    options_of,
    refuse_copy,
    rules_of,
)
from bonanza.rl.observation import Visibility
from bonanza.rl.rewards import ILLEGAL_PENALTY, IllegalAction, RewardShaping

DEFAULT_MAX_STEPS: Final = 1000
DEAL_NUMBERS: Final = 2**64
"""Deal numbers run from 0 to 2**64 - 1."""
RENDER_FPS: Final = 4
RESET_OPTIONS: Final = ("deal",)
"""The keys ``reset``'s options may hold."""
"""Frames a second for a recorder of rendered frames (Gymnasium's ``render_fps``)."""


class RenderModeError(ValueError, TypeError):
    """An unsupported ``render_mode``. A ``TypeError`` too, so that helpers that ask
    for ``"rgb_array"`` by default and retry without it on a ``TypeError``
    (Stable-Baselines3's ``make_vec_env``) build the environment without rendering."""


def check_render_mode(render_mode: str | None, modes: list[str]) -> None:
    """Refuse a ``render_mode`` outside ``modes`` (``None`` is always accepted)."""
    if render_mode is not None and render_mode not in modes:
        shown = " or ".join(repr(mode) for mode in [*modes, None])
        raise RenderModeError(
            f"render_mode must be {shown}, not {render_mode!r}: the environment draws "
            "no pictures (render_mode='ansi' gives the position's text)"
        )


class KlondikeEnv(gym.Env[np.ndarray, np.int64]):
    """One game of Klondike or a relative: discrete actions (615 in Klondike),
    a flat ``int8`` observation (196 cells in Klondike).

    ``rules`` is a ``Rules``, a preset name or a rules text; ``observation``
    is ``"player"`` (what a player may know) or ``"thoughtful"`` (every card);
    an episode is truncated after ``max_steps`` steps (``None``: never).
    ``illegal_action`` is ``"raise"`` or ``"penalize"`` (a no-op rewarded
    ``-illegal_penalty``); ``reveal_deal_in_info`` puts the deal in ``reset``'s
    ``info`` too (it is always in the ``info`` of the step that ends an episode).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": RENDER_FPS}  # noqa: RUF012

    def __init__(
        self,
        rules: RulesLike = "klondike",
        observation: Visibility = "player",
        max_steps: int | None = DEFAULT_MAX_STEPS,
        reward_shaping: RewardShaping | Mapping[str, float] | None = None,
        render_mode: str | None = None,
        illegal_action: IllegalAction = "raise",
        illegal_penalty: float = ILLEGAL_PENALTY,
        reveal_deal_in_info: bool = False,
    ) -> None:
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.rules = rules_of(rules)
        self.render_mode = render_mode
        self.reveal_deal_in_info = flag_of(reveal_deal_in_info, "reveal_deal_in_info")
        self._engine = Engine(
            1, self.rules, observation, max_steps, reward_shaping, illegal_action, illegal_penalty
        )
        self._obs = self._engine.obs[0]
        self._mask = self._engine.mask[0]
        self._play = self._engine.batch.play
        self.observation_space = layout.space(self.rules)
        self.action_space = LegalActions(self._engine.batch, self._engine.numbering.count)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game: ``options["deal"]`` (a deal number, code or ``Deal``),
        else a deal number drawn from the environment's seeded generator."""
        super().reset(seed=seed)
        chosen: DealId | None = options_of(options, RESET_OPTIONS).get("deal")
        if chosen is None:
            chosen = int(self.np_random.integers(DEAL_NUMBERS, dtype=np.uint64))
        deal = self._engine.deal(0, chosen)
        info: dict[str, Any] = {"action_mask": self._mask.copy()}
        if self.reveal_deal_in_info:
            info["deal"] = deal.id
        return self._obs.copy(), info

    def step(
        self, action: SupportsIndex
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        try:
            if isinstance(action, bool | np.bool_):  # an int to Python, not an action
                raise TypeError
            self._play(0, action)
        except (ActionError, TypeError, OverflowError):
            raise self._refusal(action) from None
        engine = self._engine
        terminated, truncated = bool(engine.terminated[0]), bool(engine.truncated[0])
        info: dict[str, Any] = {"action_mask": self._mask.copy()}
        if terminated or truncated:
            info["deal"] = engine.deal_id(0)
        return self._obs.copy(), float(engine.reward[0]), terminated, truncated, info

    def __copy__(self) -> NoReturn:
        """Refused by name: a shallow copy would play this environment's games."""
        refuse_copy()

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's MaskablePPO calls this)."""
        legal: np.ndarray = self._mask != 0
        return legal

    def legal_actions(self) -> list[int]:
        """The legal actions, in increasing order."""
        return self._engine.batch.legal(0)

    @property
    def deal(self) -> str:
        """The ID of the deal in play (``Deal.id``), for the experimenter: it decides
        every hidden card, so an agent that reads it is not playing fair."""
        return self._engine.deal_id(0)

    @property
    def position(self) -> Position:
        """The game's position, as ``bonanza.core`` sees it (every card)."""
        return self._engine.position(0)

    def render(self) -> str | None:
        """The position's text, with the cards the player cannot see as ``?``."""
        if self.render_mode != "ansi":
            return None
        return self.position.to_text(hide=self._engine.visibility == "player")

    def _refusal(self, action: Any) -> ActionError:
        try:
            number = operator.index(action)
            if isinstance(action, bool | np.bool_):
                raise TypeError
        except TypeError:
            return ActionError(f"action {action!r} is not a whole number")
        count = self._engine.numbering.count
        if not 0 <= number < count:
            return ActionError(f"action {number} is not a number from 0 to {count - 1}")
        legal = np.flatnonzero(self._mask).tolist()
        words = self._engine.numbering.describe(number)
        return ActionError(f"action {number} ({words}) is not legal here; legal actions: {legal}")


def describe(action: SupportsIndex, numbering: Numbering = KLONDIKE) -> str:
    """What action number ``action`` does, in words: ``column 4 to column 7, 3 cards``."""
    return numbering.describe(action)
