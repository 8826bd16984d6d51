"""The Stable-Baselines3 adapter: VecEnv conformance, each game as the single env,
same-step autoreset, masks, and a short MaskablePPO run.

Skipped without stable_baselines3 and sb3_contrib, unless BONANZA_REQUIRE_SB3 is
set (CI), where a missing package fails.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

if not os.environ.get("BONANZA_REQUIRE_SB3"):
    pytest.importorskip("stable_baselines3")
    pytest.importorskip("sb3_contrib")

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

from bonanza.core import Deal
from bonanza.rl.actions import ACTION_COUNT, ActionError
from bonanza.rl.env import KlondikeEnv
from bonanza.rl.observation import KLONDIKE
from bonanza.rl.registration import ENV_ID
from bonanza.rl.sb3 import KlondikeVecEnv

GAMES = 6
DEALS = [3, 14, 15, 92, 65, Deal.from_number(35).code]
OBS_SIZE = KLONDIKE.size
SHAPING = {"home": 0.1, "turned": 0.05}


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)


def test_reset_and_step_return_sb3s_shapes_and_types() -> None:
    env = KlondikeVecEnv(GAMES, rules="klondike-3")
    assert isinstance(env, VecEnv) and env.num_envs == GAMES
    assert env.action_space == gymnasium.spaces.Discrete(ACTION_COUNT)
    obs = env.reset()
    assert obs.shape == (GAMES, OBS_SIZE) and obs.dtype == np.int8
    assert all(env.observation_space.contains(row) for row in obs)
    masks = env.action_masks()
    assert masks.shape == (GAMES, ACTION_COUNT) and masks.dtype == np.bool_
    obs, rewards, dones, infos = env.step(random_legal(masks, np.random.default_rng(0)))
    assert obs.shape == (GAMES, OBS_SIZE) and obs.dtype == np.int8
    assert rewards.shape == (GAMES,) and rewards.dtype == np.float32
    assert dones.shape == (GAMES,) and dones.dtype == np.bool_
    assert isinstance(infos, list) and len(infos) == GAMES
    assert all(info == {"TimeLimit.truncated": False} for info in infos)


def test_each_game_plays_as_the_single_env_with_masks_alike() -> None:
    """Every masked action steps without error, and masks, observations, rewards
    and ends are the single env's on the same deal."""
    env = KlondikeVecEnv(GAMES, rules="klondike-3", reward_shaping=SHAPING, max_steps=40)
    env.set_options([{"deal": deal} for deal in DEALS])
    obs = env.reset()
    singles = [
        KlondikeEnv(rules="klondike-3", reward_shaping=SHAPING, max_steps=40) for _ in DEALS
    ]
    for game, single in enumerate(singles):
        single_obs, _ = single.reset(options={"deal": DEALS[game]})
        assert np.array_equal(obs[game], single_obs)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(150):
        masks = env.action_masks()
        for game, single in enumerate(singles):
            assert np.array_equal(masks[game], single.action_masks())
        actions = random_legal(masks, rng)
        obs, rewards, dones, infos = env.step(actions)
        for game, single in enumerate(singles):
            single_obs, reward, terminated, truncated, _ = single.step(actions[game])
            assert rewards[game] == np.float32(reward)
            assert dones[game] == (terminated or truncated)
            if dones[game]:
                ends += 1
                assert np.array_equal(infos[game]["terminal_observation"], single_obs)
                single_obs, _ = single.reset(options={"deal": env.games.deal_numbers()[game]})
            assert np.array_equal(obs[game], single_obs)
    assert ends >= 2 * GAMES


def test_a_finished_game_is_dealt_anew_on_the_same_step() -> None:
    env = KlondikeVecEnv(GAMES, max_steps=5)
    env.set_options([{"deal": deal} for deal in DEALS])
    env.reset()
    rng = np.random.default_rng(2)
    for step in range(5):
        obs, _, dones, infos = env.step(random_legal(env.action_masks(), rng))
        assert dones.all() == (step == 4)
    fresh = KlondikeEnv()
    for game, info in enumerate(infos):
        assert info["TimeLimit.truncated"] is True
        assert info["deal"] == Deal.parse(str(DEALS[game])).id
        assert info["terminal_observation"].shape == (OBS_SIZE,)
        new_deal = env.games.deal_numbers()[game]
        assert new_deal is not None and str(new_deal) != info["deal"]
        assert np.array_equal(obs[game], fresh.reset(options={"deal": new_deal})[0])
        assert np.array_equal(env.action_masks()[game], fresh.action_masks())
    assert env.reset_infos == [{} for _ in range(GAMES)]


def test_a_seed_decides_every_games_first_deal_and_the_run() -> None:
    runs = []
    for _ in range(2):
        env = KlondikeVecEnv(3, max_steps=20)
        assert env.seed(7) == [7, 8, 9]
        first = env.reset()
        rng = np.random.default_rng(3)
        for _ in range(45):  # past two autoresets
            env.step(random_legal(env.action_masks(), rng))
        runs.append((first, env.games.deal_numbers()))
    assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1]
    for game in range(3):
        assert np.array_equal(runs[0][0][game], KlondikeEnv().reset(seed=7 + game)[0])


def test_the_vecenv_interface_answers_game_by_game() -> None:
    env = KlondikeVecEnv(GAMES, render_mode="ansi")
    env.reset()
    assert env.get_attr("render_mode") == [env.render_mode] * GAMES == ["ansi"] * GAMES
    fps = env.metadata["render_fps"]
    assert isinstance(fps, int) and fps > 0
    assert is_masking_supported(env)
    assert np.array_equal(get_action_masks(env), env.action_masks())
    rows = env.env_method("action_masks", indices=[1, 4])
    assert np.array_equal(np.stack(rows), env.action_masks()[[1, 4]])
    assert env.env_method("legal_actions", indices=2) == [env.legal_actions()[2]]
    text = env.env_method("render", indices=0)[0]
    assert text == env.positions()[0].to_text(hide=True) and "?" in text
    assert env.env_is_wrapped(gymnasium.Wrapper) == [False] * GAMES
    with pytest.raises(AttributeError, match="no per-game method"):
        env.env_method("reset")
    with pytest.raises(AttributeError):
        env.get_attr("no_such_attribute")
    env.set_attr("reveal_deal_in_info", True)
    assert env.get_attr("reveal_deal_in_info", indices=[0, 1]) == [True, True]
    with pytest.raises(ValueError, match="share"):
        env.set_attr("reveal_deal_in_info", False, indices=[0])
    env.reset()
    assert all("deal" in info for info in env.reset_infos)


def test_vecmonitor_reports_episodes() -> None:
    env = VecMonitor(KlondikeVecEnv(2, max_steps=8))
    env.reset()
    rng = np.random.default_rng(4)
    for _ in range(8):
        _, _, dones, infos = env.step(random_legal(get_action_masks(env), rng))
    assert dones.all() and [info["episode"]["l"] for info in infos] == [8, 8]


def test_illegal_actions_raise_or_cost_the_penalty() -> None:
    strict = KlondikeVecEnv(2)
    strict.reset()
    illegal = np.array([ACTION_COUNT - 1, ACTION_COUNT - 1])
    with pytest.raises(ActionError, match="game 0: action 614 is not legal"):
        strict.step(illegal)
    with pytest.raises(ActionError, match="whole numbers"):
        strict.step(np.array([0.0, 0.0]))
    lenient = KlondikeVecEnv(2, illegal_action="penalize", illegal_penalty=0.25)
    before = lenient.reset()
    obs, rewards, dones, _ = lenient.step(illegal)
    assert np.array_equal(obs, before) and rewards.tolist() == [-0.25, -0.25]
    assert not dones.any()


def test_make_vec_env_needs_no_env_kwargs() -> None:
    """SB3 asks for render_mode='rgb_array' by default; the env refuses it as a
    TypeError, on which make_vec_env builds it without rendering."""
    with pytest.warns(UserWarning, match="rgb_array"):
        env = make_vec_env(ENV_ID, n_envs=2, seed=0)
    assert env.render_mode is None and env.metadata["render_fps"] > 0
    env.reset()
    _, _, dones, _ = env.step(random_legal(get_action_masks(env), np.random.default_rng(5)))
    assert dones.shape == (2,)


def test_maskable_ppo_learns_on_the_adapter_and_plays_legal_moves() -> None:
    torch.set_num_threads(1)
    env = KlondikeVecEnv(8, reward_shaping=SHAPING, max_steps=200)
    model = MaskablePPO("MlpPolicy", env, n_steps=128, batch_size=256, n_epochs=2, seed=0)
    # SB3's default logger makes a /tmp/SB3-<time> folder at every learn(); write nowhere.
    model.set_logger(Logger(folder=None, output_formats=[]))
    model.learn(2048)
    assert model.num_timesteps >= 2048
    assert model.logger.dir is None  # (no folder written)
    obs = env.reset()
    for _ in range(20):
        masks = env.action_masks()
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        assert masks[np.arange(8), actions].all()
        obs, *_ = env.step(actions)


def test_the_adapter_refuses_unknown_options_and_render_modes() -> None:
    env = KlondikeVecEnv(2)
    env.set_options({"shuffle": True})
    with pytest.raises(ValueError, match="shuffle"):
        env.reset()
    with pytest.raises(TypeError, match="draws no pictures"):
        KlondikeVecEnv(2, render_mode="rgb_array")


def test_options_that_are_not_one_dict_per_game_are_refused_by_name() -> None:
    env = KlondikeVecEnv(3)
    env.set_options([{"deal": 1}, {"deal": 2}])
    with pytest.raises(ValueError, match="set_options gave 2 dicts for 3 games"):
        env.reset()
    for given in ("deal", [{"deal": 1}, None, {"deal": 2}]):
        env.set_options(given)
        with pytest.raises(TypeError, match="set_options takes a dict or one dict per game"):
            env.reset()


def test_a_reset_with_a_bad_deal_changes_no_game() -> None:
    env = KlondikeVecEnv(3)
    env.seed(1)
    env.reset()
    before = env.positions()
    env.set_options([{"deal": 11}, {}, {"deal": "garbage"}])
    with pytest.raises(ValueError, match="garbage"):
        env.reset()
    assert env.positions() == before
    env.set_options([{"deal": 11}, {}, {"deal": 13}])
    env.reset()
    assert env.games.deal_numbers()[::2] == [11, 13]


def test_an_unsigned_action_too_big_for_int64_is_named_as_given() -> None:
    env = KlondikeVecEnv(2)
    env.reset()
    with pytest.raises(ActionError, match=f"game 1: action {2**64 - 1} is not a number"):
        env.step(np.array([0, 2**64 - 1], dtype=np.uint64))


def test_a_seeded_run_repeats_past_its_first_reset() -> None:
    """SB3 seeds only the next reset; the later ones (a second learn(), an
    evaluation) went on from an unseeded generator."""

    def run() -> list[list[int | None]]:
        env = KlondikeVecEnv(GAMES)
        env.seed(11)
        env.reset()
        first = env.games.deal_numbers()
        env.reset()
        return [first, env.games.deal_numbers()]

    deals = run()
    assert deals == run() and deals[0] != deals[1]
