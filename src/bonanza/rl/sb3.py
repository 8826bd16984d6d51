"""``KlondikeVecEnv``: the C vector environment as a Stable-Baselines3 ``VecEnv`` (docs/rl.md).

One ``step`` plays every game's action in one call into C. As SB3 expects, a
game whose episode ends is dealt anew on the same step: the step returns the
new deal's first observation, the last one is in
``infos[i]["terminal_observation"]`` and the finished deal in
``infos[i]["deal"]``. ``action_masks()`` gives sb3-contrib's ``MaskablePPO``
the legal actions, so ``MaskablePPO("MlpPolicy", KlondikeVecEnv(16))`` trains
directly. The games share one engine: attributes are the adapter's, and
``env_method`` calls the per-game methods in ``GAME_METHODS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, NoReturn

import numpy as np
from gymnasium import spaces

try:
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices
except ImportError as error:  # pragma: no cover - depends on the install
    raise ImportError(
        "bonanza.rl.sb3 needs Stable-Baselines3 and sb3-contrib (and a CPU build of PyTorch "
        "is enough): pip install -e '.[sb3]' in a checkout, or "
        "pip install 'bonanza-….whl[sb3]' from a wheel"
    ) from error

from bonanza.core.position import Position
from bonanza.rl.actions import ActionError
from bonanza.rl.engine import RulesLike, flag_of, int64_actions, refuse_copy
from bonanza.rl.env import DEFAULT_MAX_STEPS, RENDER_FPS, check_render_mode
from bonanza.rl.observation import Visibility
from bonanza.rl.rewards import ILLEGAL_PENALTY, IllegalAction, RewardShaping
from bonanza.rl.vector import KlondikeVectorEnv

GAME_METHODS: Final = ("action_masks", "legal_actions", "render")
"""The methods ``env_method`` and ``get_attr`` answer game by game."""
RENDER_MODES: Final = ["ansi"]


class KlondikeVecEnv(VecEnv):  # type: ignore[misc]  # VecEnv is Any to mypy (not analysed)
    """``num_envs`` games of Klondike or a relative for Stable-Baselines3.

    The arguments are ``KlondikeVectorEnv``'s. Seeds (``seed()``) and
    options (``set_options``, with ``{"deal": ...}`` per game) apply at the
    next ``reset()``, as in SB3; the deals after that come from each game's
    own seeded chooser in C.
    """

    def __init__(
        self,
        num_envs: int = 16,
        rules: RulesLike = "klondike",
        observation: Visibility = "player",
        max_steps: int | None = DEFAULT_MAX_STEPS,
        reward_shaping: RewardShaping | Mapping[str, float] | None = None,
        illegal_action: IllegalAction = "raise",
        illegal_penalty: float = ILLEGAL_PENALTY,
        reveal_deal_in_info: bool = False,
        render_mode: str | None = None,
    ) -> None:
        check_render_mode(render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.num_envs = num_envs
        self.reveal_deal_in_info = flag_of(reveal_deal_in_info, "reveal_deal_in_info")
        self.games = KlondikeVectorEnv(
            num_envs,
            rules,
            observation,
            max_steps,
            reward_shaping,
            copy=False,
            illegal_action=illegal_action,
            illegal_penalty=illegal_penalty,
        )
        self.rules = self.games.rules
        self._engine = self.games.engine
        self._legal = self._engine.mask.view(np.bool_)  # the engine writes 0 or 1
        self._actions = np.zeros(num_envs, dtype=np.int64)
        actions = spaces.Discrete(self._engine.numbering.count)
        super().__init__(num_envs, self.games.single_observation_space, actions)
        self.metadata = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS}

    def reset(self) -> np.ndarray:
        """Deal every game anew, by the seeds and options set since the last reset."""
        seeds = self._seeds
        given = self._options
        if not isinstance(given, list) or not all(isinstance(one, Mapping) for one in given):
            raise TypeError(f"set_options takes a dict or one dict per game, not {given!r}")
        if len(given) != self.num_envs:
            raise ValueError(f"set_options gave {len(given)} dicts for {self.num_envs} games")
        deals = [options.get("deal") for options in given]
        unknown = sorted({key for options in given for key in options} - {"deal"})
        if unknown:
            raise ValueError(f"unknown reset options {unknown}: the only option is 'deal'")
        self.games.reset(  # checks every deal before it deals any
            seed=None if None in seeds else [int(seed) for seed in seeds],
            options=None if all(deal is None for deal in deals) else {"deals": deals},
        )
        self.reset_infos = [self._reset_info(game) for game in range(self.num_envs)]
        self._reset_seeds()
        self._reset_options()
        return self._engine.obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        chosen = np.asarray(actions)
        if chosen.size != self.num_envs or not np.issubdtype(chosen.dtype, np.integer):
            raise ActionError(
                f"actions must be {self.num_envs} whole numbers, not {chosen.dtype} {chosen.shape}"
            )
        self._actions = int64_actions(chosen, self._engine.numbering.count)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Play the actions; deal anew, at once, each game whose episode ended."""
        engine = self._engine
        engine.batch.step(self._actions)
        rewards = engine.reward.astype(np.float32)
        dones = engine.terminated | engine.truncated
        infos: list[dict[str, Any]] = [{"TimeLimit.truncated": False} for _ in dones]
        for game in np.flatnonzero(dones).tolist():
            info = infos[game]
            info["TimeLimit.truncated"] = not engine.terminated[game]
            info["terminal_observation"] = engine.obs[game].copy()
            info["deal"] = engine.deal_id(game)
            engine.batch.reset(game)  # the next deal of the game's own chooser
            self.reset_infos[game] = self._reset_info(game)
        return engine.obs.copy(), rewards, dones, infos

    def __copy__(self) -> NoReturn:
        """Refused by name: a shallow copy would play this environment's games."""
        refuse_copy()

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game as booleans, shape (num_envs, actions)."""
        return self._legal.copy()

    def legal_actions(self) -> list[list[int]]:
        """Every game's legal actions, in increasing order."""
        return [self._engine.batch.legal(game) for game in range(self.num_envs)]

    def positions(self) -> list[Position]:
        """Every game's position as a ``bonanza.core.Position`` (every card)."""
        return self.games.positions()

    def close(self) -> None:
        """Nothing to release: the games live in this process."""

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The adapter's attribute, once per game (the games share it); for a
        name in ``GAME_METHODS``, each game's own method."""
        games = list(self._get_indices(indices))
        if attr_name in GAME_METHODS:
            return [self._game_method(attr_name, game) for game in games]
        value = getattr(self, attr_name)
        return [value for _ in games]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of the adapter: of every game, since they share it."""
        if set(self._get_indices(indices)) != set(range(self.num_envs)):
            raise ValueError(f"the games share their attributes: set {attr_name} for all of them")
        setattr(self, attr_name, value)

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """Call a method of ``GAME_METHODS`` in each game named by ``indices``."""
        if method_name not in GAME_METHODS:
            raise AttributeError(
                f"{method_name!r} is no per-game method (those are {', '.join(GAME_METHODS)}); "
                f"call it on the adapter itself"
            )
        if method_name == "action_masks" and not method_args and not method_kwargs:
            masks = self.action_masks()  # MaskablePPO's call, every step: one copy
            return [masks[game] for game in self._get_indices(indices)]
        return [
            self._game_method(method_name, game)(*method_args, **method_kwargs)
            for game in self._get_indices(indices)
        ]

    def env_is_wrapped(self, wrapper_class: type[Any], indices: VecEnvIndices = None) -> list[bool]:
        """No game is wrapped by a Gymnasium wrapper."""
        return [False for _ in self._get_indices(indices)]

    def _game_method(self, name: str, game: int) -> Callable[[], Any]:
        engine = self._engine
        if name == "action_masks":
            return lambda: self._legal[game].copy()
        if name == "legal_actions":
            return lambda: engine.batch.legal(game)
        return lambda: self._render(game)

    def _render(self, game: int) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self._engine.position(game).to_text(hide=self._engine.visibility == "player")

    def _reset_info(self, game: int) -> dict[str, Any]:
        return {"deal": self._engine.deal_id(game)} if self.reveal_deal_in_info else {}
