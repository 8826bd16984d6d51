"""The environments' action spaces travel: pickled, they become the plain
Gymnasium spaces, so that what pickles spaces (Stable-Baselines3's ``save``,
Gymnasium's async vector environments) works, while a copy stays live."""

from __future__ import annotations

import copy
import importlib.util
import pickle
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium import spaces

import bonanza.rl  # noqa: F401  # registers the environment
from bonanza.rl.actions import ACTION_COUNT
from bonanza.rl.env import KlondikeEnv
from bonanza.rl.observation import SIZE as OBSERVATION_SIZE
from bonanza.rl.registration import ENV_ID
from bonanza.rl.vector import KlondikeVectorEnv

GAMES = 2


def test_a_pickled_action_space_is_the_plain_space_with_its_generator() -> None:
    env = KlondikeEnv()
    env.reset(seed=3)
    env.action_space.seed(5)
    single = pickle.loads(pickle.dumps(env.action_space))
    assert type(single) is spaces.Discrete
    assert single == env.action_space and single.n == ACTION_COUNT
    assert single.np_random.random() == copy.deepcopy(env.action_space.np_random).random()
    envs = KlondikeVectorEnv(GAMES)
    batch = pickle.loads(pickle.dumps(envs.action_space))
    assert type(batch) is spaces.MultiDiscrete
    assert np.array_equal(batch.nvec, [ACTION_COUNT] * GAMES)


def test_a_copied_action_space_still_samples_legal_actions() -> None:
    env = KlondikeEnv()
    env.reset(seed=3)
    for twin in (copy.copy(env.action_space), copy.deepcopy(env.action_space)):
        assert type(twin) is type(env.action_space)
        assert all(int(twin.sample()) in env.legal_actions() for _ in range(20))


def test_the_async_vector_mode_plays() -> None:
    envs = gymnasium.make_vec(ENV_ID, num_envs=GAMES, vectorization_mode="async")
    try:
        _, info = envs.reset(seed=4)
        actions = envs.action_space.sample(mask=tuple(info["action_mask"]))
        obs, _, _, _, _ = envs.step(actions)
        assert obs.shape == (GAMES, OBSERVATION_SIZE)
    finally:
        envs.close()


@pytest.mark.skipif(
    importlib.util.find_spec("sb3_contrib") is None, reason="needs sb3-contrib"
)
def test_a_model_trained_on_the_single_env_saves_and_loads(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    env = KlondikeEnv()
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=0)
    model.save(tmp_path / "model.zip")
    loaded = MaskablePPO.load(tmp_path / "model.zip", env=KlondikeEnv())
    assert loaded.action_space.n == ACTION_COUNT
