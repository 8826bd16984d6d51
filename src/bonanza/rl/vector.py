"""``KlondikeVectorEnv``: N games of Klondike or a relative stepped in one call into C (docs/rl.md).

Each ``step`` hands all N actions to the C batch engine, which plays them and
writes observations, masks, rewards and the episode flags into numpy arrays.
Autoreset is Gymnasium's default next-step mode: after a step that ends an
episode, the next step ignores that game's action and deals it a new game
(reward 0, neither flag set). ``info["deal"]`` names the deal of each game
whose episode ended on the step (and, with ``reveal_deal_in_info``, of each
game dealt anew), with ``info["_deal"]`` marking those games.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any, Final, NoReturn, SupportsIndex

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from bonanza.core.deal import Deal
from bonanza.core.position import Position
from bonanza.rl import observation as layout
from bonanza.rl.action_space import LegalActionBatch
from bonanza.rl.actions import ActionError
from bonanza.rl.engine import (
    Engine,
    RulesLike,
    count_of,
    deal_of,
    flag_of,
    int64_actions,
    options_of,
    refuse_copy,
    rules_of,
)
from bonanza.rl.env import DEAL_NUMBERS, DEFAULT_MAX_STEPS, RENDER_FPS
from bonanza.rl.observation import Visibility
from bonanza.rl.rewards import ILLEGAL_PENALTY, IllegalAction, RewardShaping

VECTOR_RESET_OPTIONS: Final = ("deals", "reset_mask")
"""The keys a vector ``reset``'s options may hold."""


class KlondikeVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games under one rule set (Klondike's or a relative's), on the C engine.

    The arguments are ``KlondikeEnv``'s (no rendering). With ``copy`` (the
    default) every array returned is a fresh copy; without it, the arrays are
    the engine's own buffers, overwritten by the next ``step`` or ``reset``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # Gymnasium's API
        "render_modes": [],
        "render_fps": RENDER_FPS,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 1,
        rules: RulesLike = "klondike",
        observation: Visibility = "player",
        max_steps: int | None = DEFAULT_MAX_STEPS,
        reward_shaping: RewardShaping | Mapping[str, float] | None = None,
        copy: bool = True,
        illegal_action: IllegalAction = "raise",
        illegal_penalty: float = ILLEGAL_PENALTY,
        reveal_deal_in_info: bool = False,
    ) -> None:
        num_envs = count_of(num_envs, "num_envs")
        self.num_envs = num_envs
        self.rules = rules_of(rules)
        self.copy = flag_of(copy, "copy")
        self.reveal_deal_in_info = flag_of(reveal_deal_in_info, "reveal_deal_in_info")
        self._engine = Engine(
            num_envs,
            self.rules,
            observation,
            max_steps,
            reward_shaping,
            illegal_action,
            illegal_penalty,
        )
        self._ended = np.zeros(num_envs, dtype=np.bool_)  # the games the last step ended
        self._generators: list[np.random.Generator] = []  # each game's deal numbers, once seeded
        self._step = self._engine.batch.step
        self._every = np.ones(num_envs, dtype=np.bool_)
        actions = self._engine.numbering.count
        self.single_observation_space = layout.space(self.rules)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = LegalActionBatch(self._engine.batch, num_envs, actions)

    def reset(
        self,
        *,
        seed: SupportsIndex | Sequence[SupportsIndex] | np.ndarray | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every game anew: ``options["deals"]`` (one deal ID per game, or
        ``None`` for a game whose deal comes from the seed), else deal numbers
        drawn from generators seeded by ``seed``: one int for all games, or one
        per game (game i then starts with the deal that
        ``KlondikeEnv().reset(seed=seed[i])`` deals). Without a seed, the
        generators of the last seeded reset go on, so a seeded run repeats.

        ``options["reset_mask"]`` (booleans, one per game, at least one true, as
        Gymnasium's vector environments take it) deals anew only the games it
        marks; the others play on where they are. The observation and mask
        returned are every game's. Every seed, deal and the mask are checked
        before any game is dealt: a refused reset changes no game."""
        given = options_of(options, VECTOR_RESET_OPTIONS)
        chosen = self._reset_mask(given.get("reset_mask"))
        deals = self._deals(given.get("deals"), chosen)
        seeds = self._seeds(seed)
        if isinstance(seeds, list):
            self._generators = [seeding.np_random(game_seed)[0] for game_seed in seeds]
        elif seeds is not None or not self._generators:
            super().reset(seed=seeds)
            self._generators = [self.np_random] * self.num_envs
        # Unseeded, each game's generator goes on from the last seeding, as a run is repeatable.
        for game, generator in enumerate(self._generators):
            if not chosen[game]:
                continue
            first, chooser = generator.integers(DEAL_NUMBERS, size=2, dtype=np.uint64).tolist()
            self._engine.batch.seed(game, chooser)
            deal = deals[game]
            self._engine.deal(game, first if deal is None else deal)
        self._ended &= ~chosen
        info = self._info()
        if self.reveal_deal_in_info:
            self._add_deals(info, chosen)
        return self._out(self._engine.obs), info

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one action per game (games that ended on the last step start anew)."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise ActionError(
                f"actions must be {self.num_envs} whole numbers, not {chosen.dtype} {chosen.shape}"
            )
        self._step(int64_actions(chosen, self._engine.numbering.count))
        engine = self._engine
        restarted = self._ended
        self._ended = engine.terminated | engine.truncated
        info = self._info()
        if self._ended.any():
            self._add_deals(info, self._ended)
        if self.reveal_deal_in_info and restarted.any():
            self._add_deals(info, restarted)
        out = self._out
        return (
            out(engine.obs),
            out(engine.reward),
            out(engine.terminated),
            out(engine.truncated),
            info,
        )

    def __copy__(self) -> NoReturn:
        """Refused by name: a shallow copy would play this environment's games."""
        refuse_copy()

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game as booleans, shape (num_envs, actions)."""
        return self._engine.mask.astype(np.bool_)

    @property
    def engine(self) -> Engine:
        """The C engine and its buffers (read-only to Python)."""
        return self._engine

    def deal_numbers(self) -> list[int | None]:
        """The deal number each game is playing (``None`` for a deal given by code)."""
        return [self._engine.deal_number(game) for game in range(self.num_envs)]

    def positions(self) -> list[Position]:
        """Every game's position as a ``bonanza.core.Position``."""
        return [self._engine.position(game) for game in range(self.num_envs)]

    def _seeds(self, seed: object) -> int | list[int] | None:
        """``reset``'s seed read: ``None``, one whole number, or one per game."""
        if seed is None:
            return None
        try:
            return operator.index(seed)  # type: ignore[arg-type]
        except TypeError:
            pass
        if not isinstance(seed, Sequence | np.ndarray) or isinstance(seed, str | bytes):
            raise TypeError(f"seed must be None, a whole number or one per game, not {seed!r}")
        if len(seed) != self.num_envs:
            raise ValueError(f"seed gives {len(seed)} seeds for {self.num_envs} games")
        try:
            return [operator.index(game_seed) for game_seed in seed]
        except TypeError:
            raise TypeError(f"seeds must be whole numbers, not {seed!r}") from None

    def _deals(self, deals: object, chosen: np.ndarray) -> list[Deal | None]:
        """``options["deals"]`` read, each marked game's deal checked (``None``:
        drawn from the seed)."""
        if deals is None:
            return [None] * self.num_envs
        if not isinstance(deals, Sequence | np.ndarray) or isinstance(deals, str | bytes):
            raise TypeError(f"options['deals'] must give one deal per game, not {deals!r}")
        if len(deals) != self.num_envs:
            raise ValueError(f"options['deals'] gives {len(deals)} deals for {self.num_envs} games")
        decks = self.rules.decks
        return [
            None if deal is None or not marked else deal_of(deal, decks)
            for deal, marked in zip(deals, chosen.tolist(), strict=True)
        ]

    def _reset_mask(self, mask: object) -> np.ndarray:
        """The games a reset deals anew: every one, or those ``mask`` marks."""
        if mask is None:
            return self._every
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
            raise TypeError(f"options['reset_mask'] must be a numpy array of bools, not {mask!r}")
        if mask.shape != (self.num_envs,):
            raise ValueError(
                f"options['reset_mask'] must have shape ({self.num_envs},), not {mask.shape}"
            )
        if not mask.any():
            raise ValueError("options['reset_mask'] marks no game to reset")
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._out(self._engine.mask), "_action_mask": self._every}

    def _add_deals(self, info: dict[str, Any], games: np.ndarray) -> None:
        """Name the deals of ``games`` (booleans) in ``info["deal"]``, as Gymnasium
        merges per-game values: an object array and its ``_deal`` mask."""
        deals = info.setdefault("deal", np.full(self.num_envs, None, dtype=object))
        marked = info.setdefault("_deal", np.zeros(self.num_envs, dtype=np.bool_))
        for game in np.flatnonzero(games).tolist():
            deals[game] = self._engine.deal_id(game)
        marked |= games

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array
