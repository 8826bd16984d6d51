"""Options of the Gymnasium environments that learners without masks, and SB3's
helpers, need: illegal actions penalized, render_mode and render_fps, and a
masked sample in Gymnasium's own vector modes. No SB3 needed."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

from bonanza.rl.actions import ACTION_COUNT, ActionError
from bonanza.rl.env import KlondikeEnv, RenderModeError
from bonanza.rl.registration import ENV_ID
from bonanza.rl.rewards import ILLEGAL_PENALTY
from bonanza.rl.vector import KlondikeVectorEnv


def an_illegal_action(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[-1])


def test_by_default_an_illegal_action_raises() -> None:
    env = KlondikeEnv()
    _, info = env.reset(seed=0)
    with pytest.raises(ActionError, match="is not legal here"):
        env.step(an_illegal_action(info["action_mask"]))


def test_a_penalized_illegal_action_is_a_no_op_that_costs_and_counts() -> None:
    env = KlondikeEnv(illegal_action="penalize", max_steps=3)
    obs, info = env.reset(seed=1)
    before = env.position
    results = [env.step(an_illegal_action(info["action_mask"])) for _ in range(3)]
    for step, (after, reward, terminated, truncated, step_info) in enumerate(results):
        assert np.array_equal(after, obs) and reward == -ILLEGAL_PENALTY
        assert np.array_equal(step_info["action_mask"], info["action_mask"])
        assert not terminated and truncated == (step == 2)
    assert env.position == before
    with pytest.raises(ActionError, match="not a number from 0 to 614"):
        env.step(ACTION_COUNT)  # out of range stays an error


def test_the_vector_env_penalizes_only_the_illegal_games() -> None:
    env = KlondikeVectorEnv(3, illegal_action="penalize", illegal_penalty=0.5)
    obs, info = env.reset(seed=2)
    masks = info["action_mask"]
    actions = np.array([an_illegal_action(masks[0]), np.flatnonzero(masks[1])[0], 0])
    actions[2] = an_illegal_action(masks[2])
    after, rewards, terminated, truncated, _ = env.step(actions)
    assert rewards.tolist() == [-0.5, 0.0, -0.5]
    assert np.array_equal(after[[0, 2]], obs[[0, 2]]) and not np.array_equal(after[1], obs[1])
    assert not terminated.any() and not truncated.any()


def test_an_unknown_illegal_action_option_is_refused() -> None:
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        KlondikeEnv(illegal_action="ignore")  # type: ignore[arg-type]


def test_render_fps_is_declared_and_the_checker_does_not_warn() -> None:
    env = gymnasium.make(ENV_ID, render_mode="ansi")
    assert env.metadata["render_fps"] > 0
    assert KlondikeVectorEnv.metadata["render_fps"] == env.metadata["render_fps"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught if "render" in str(w.message)]


def test_rgb_array_is_refused_as_a_value_and_a_type_error() -> None:
    with pytest.raises(RenderModeError, match="draws no pictures") as refused:
        KlondikeEnv(render_mode="rgb_array")
    assert isinstance(refused.value, ValueError) and isinstance(refused.value, TypeError)


def test_gymnasiums_sync_vector_mode_samples_legal_actions_with_the_mask() -> None:
    """The recipe docs/rl.md gives: Gymnasium's batched space knows no mask, so
    pass the info's masks to sample()."""
    envs = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode="sync", max_steps=30)
    _, info = envs.reset(seed=3)
    envs.action_space.seed(3)
    ends = 0
    for _ in range(100):
        _, _, terminated, truncated, info = envs.step(
            envs.action_space.sample(mask=tuple(info["action_mask"]))
        )
        ends += int((terminated | truncated).sum())
    assert ends >= 6
