"""The vector environment: N games in one C call, next-step autoreset."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.vector import AutoresetMode

from bonanza.core import Deal, Position, Rules
from bonanza.rl.actions import ACTION_COUNT, ActionError, legal_actions
from bonanza.rl.env import KlondikeEnv
from bonanza.rl.vector import KlondikeVectorEnv

ENV_ID = "bonanza/Klondike-v0"
GAMES = 6


def make(**kwargs: Any) -> KlondikeVectorEnv:
    env = gymnasium.make_vec(
        ENV_ID, num_envs=GAMES, vectorization_mode="vector_entry_point", **kwargs
    )
    assert isinstance(env, KlondikeVectorEnv)
    return env


def test_make_vec_builds_the_c_vector_env_with_its_spaces() -> None:
    env = make(rules="vegas-3", observation="thoughtful")
    assert env.rules == Rules.preset("vegas-3")
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=0)
    single = env.single_observation_space.shape
    assert single is not None
    assert obs.shape == (GAMES, single[0])
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (GAMES, ACTION_COUNT)
    assert info["_action_mask"].all()


def test_each_game_plays_as_the_single_env_with_the_same_deal_and_actions() -> None:
    deals = [3, 14, 15, 92, 65, Deal.from_number(35).code]
    env = make(rules="klondike-3", reward_shaping={"home": 0.1})
    singles = [KlondikeEnv(rules="klondike-3", reward_shaping={"home": 0.1}) for _ in deals]
    obs, info = env.reset(options={"deals": deals})
    for game, single in enumerate(singles):
        single_obs, _ = single.reset(options={"deal": deals[game]})
        assert np.array_equal(obs[game], single_obs)
    step_alongside(env, singles, info, 150)


def step_alongside(
    env: KlondikeVectorEnv, singles: list[KlondikeEnv], info: dict[str, Any], steps: int
) -> None:
    """Step ``env`` with random legal actions and each single env with its game's
    action: every result must be the same."""
    env.action_space.seed(1)
    for _ in range(steps):
        actions = env.action_space.sample()
        assert info["action_mask"][np.arange(len(singles)), actions].all()
        obs, reward, terminated, truncated, info = env.step(actions)
        for game, single in enumerate(singles):
            expected = single.step(actions[game])
            assert np.array_equal(obs[game], expected[0])
            assert (reward[game], terminated[game], truncated[game]) == expected[1:4]
            assert np.array_equal(info["action_mask"][game], expected[4]["action_mask"])


def test_a_finished_game_starts_a_new_deal_on_the_next_step() -> None:
    env = make(max_steps=3)
    env.reset(seed=7)
    first_deals = env.deal_numbers()
    for _ in range(3):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
    assert truncated.all() and not terminated.any()
    _, reward, terminated, truncated, info = env.step(np.full(GAMES, ACTION_COUNT - 1))
    assert not (reward.any() or terminated.any() or truncated.any())
    new_deals = env.deal_numbers()
    assert all(new != old for new, old in zip(new_deals, first_deals, strict=True))
    for game, (number, position) in enumerate(zip(new_deals, env.positions(), strict=True)):
        assert number is not None
        assert position == Position.initial(Deal.from_number(number), Rules())
        legal = sorted(legal_actions(position))
        assert np.flatnonzero(info["action_mask"][game]).tolist() == legal


def test_a_seed_decides_every_deal() -> None:
    first, second = make(), make()
    obs_a, _ = first.reset(seed=5)
    obs_b, _ = second.reset(seed=5)
    assert np.array_equal(obs_a, obs_b)
    assert len(set(first.deal_numbers())) == GAMES
    assert make().reset(seed=6)[0].tolist() != obs_a.tolist()


def test_one_seed_per_game_deals_what_the_single_env_deals_with_it() -> None:
    seeds = [100 + game for game in range(GAMES)]
    obs, _ = make().reset(seed=seeds)
    for game, seed in enumerate(seeds):
        assert np.array_equal(obs[game], KlondikeEnv().reset(seed=seed)[0])
    with pytest.raises(ValueError, match="seed gives 2 seeds for 6 games"):
        make().reset(seed=[1, 2])


def test_a_run_seeded_one_seed_per_game_repeats_past_its_first_reset() -> None:
    """Unseeded resets after one seed per game drew from an unseeded generator."""

    def run() -> list[list[int | None]]:
        env = make(max_steps=2)
        env.reset(seed=[20 + game for game in range(GAMES)])
        deals = [env.deal_numbers()]
        env.reset()
        deals.append(env.deal_numbers())
        env.step(env.action_space.sample())
        env.step(env.action_space.sample())
        env.step(env.action_space.sample())  # every game dealt anew by its chooser
        return [*deals, env.deal_numbers()]

    first = run()
    assert first == run()
    assert first[0] != first[1] != first[2]


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    env = make()
    _, info = env.reset(seed=2)
    before = env.positions()
    actions = env.action_space.sample()
    illegal = next(a for a in range(ACTION_COUNT) if not info["action_mask"][4, a])
    actions[4] = illegal
    with pytest.raises(ActionError, match=f"game 4: action {illegal} is not legal"):
        env.step(actions)
    with pytest.raises(ActionError, match="whole numbers"):
        env.step(actions.astype(np.float64))
    assert env.positions() == before


def test_the_arrays_are_copies_unless_asked_otherwise() -> None:
    copied = make()
    obs, _ = copied.reset(seed=1)
    copied.step(copied.action_space.sample())
    assert np.array_equal(obs, copied.reset(seed=1)[0])
    shared = KlondikeVectorEnv(GAMES, copy=False)
    obs, _ = shared.reset(seed=1)
    before = obs.copy()
    assert obs is shared.step(shared.action_space.sample())[0]
    assert not np.array_equal(obs, before)
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0] = 0


def test_a_reset_mask_deals_anew_only_the_games_it_marks() -> None:
    env = make(max_steps=2)
    env.reset(seed=[10 + game for game in range(GAMES)])
    for _ in range(2):
        env.step(env.action_space.sample())  # every game is now truncated: due for a new deal
    played, numbers = env.positions(), env.deal_numbers()
    marked = np.array([game % 2 == 0 for game in range(GAMES)])
    seeds = [50 + game for game in range(GAMES)]
    obs, info = env.reset(seed=seeds, options={"reset_mask": marked})
    for game in range(GAMES):
        if marked[game]:  # dealt as the single env deals that game's seed
            assert np.array_equal(obs[game], KlondikeEnv().reset(seed=seeds[game])[0])
        else:  # untouched: same deal, same position, still due for its autoreset
            assert env.positions()[game] == played[game]
            assert env.deal_numbers()[game] == numbers[game]
        legal = sorted(legal_actions(env.positions()[game]))
        assert np.flatnonzero(info["action_mask"][game]).tolist() == legal
    fresh = [env.positions()[game] for game in range(GAMES) if marked[game]]
    action = np.array(
        [sorted(legal_actions(p))[0] if marked[g] else 0 for g, p in enumerate(env.positions())]
    )
    _, _, terminated, truncated, _ = env.step(action)
    for game in range(GAMES):
        if marked[game]:  # a fresh game moved: not reset again
            assert env.positions()[game] != fresh[game // 2] and not truncated[game]
        else:  # the autoreset still due: a new deal, the action ignored
            assert env.deal_numbers()[game] != numbers[game]
    assert not terminated.any()


@pytest.mark.parametrize(
    ("mask", "error", "words"),
    [
        ([True] * GAMES, TypeError, "numpy array of bools"),
        (np.ones(GAMES, dtype=np.int8), TypeError, "numpy array of bools"),
        (np.ones(GAMES + 1, dtype=np.bool_), ValueError, r"shape \(6,\)"),
        (np.zeros(GAMES, dtype=np.bool_), ValueError, "marks no game"),
    ],
)
def test_a_bad_reset_mask_is_refused_by_name(mask: Any, error: type, words: str) -> None:
    env = make()
    env.reset(seed=1)
    before = env.positions()
    with pytest.raises(error, match=words):
        env.reset(options={"reset_mask": mask})
    assert env.positions() == before


def test_a_reset_with_a_bad_deal_changes_no_game() -> None:
    env, twin = make(max_steps=1), make(max_steps=1)
    for games in (env, twin):
        games.reset(seed=1)
    before = env.positions()
    for deals, error in (([11, 12, "garbage", 14, 15, 16], ValueError), (7, TypeError)):
        with pytest.raises(error):
            env.reset(options={"deals": deals})
        assert env.positions() == before
    for _ in range(3):  # each game's own chooser of deals is untouched too
        for games in (env, twin):
            games.step(np.zeros(GAMES, dtype=np.int64))
        assert env.deal_numbers() == twin.deal_numbers()


def test_a_deal_given_as_none_comes_from_the_seed() -> None:
    seeds = list(range(GAMES))
    env = make()
    env.reset(seed=seeds, options={"deals": [None, 11, *[None] * (GAMES - 2)]})
    numbers = env.deal_numbers()
    assert numbers[1] == 11
    again = make()
    again.reset(seed=seeds)
    assert [numbers[0], *numbers[2:]] == [again.deal_numbers()[0], *again.deal_numbers()[2:]]


def test_numpy_seeds_are_whole_numbers_and_others_are_refused() -> None:
    env, twin = make(), make()
    assert np.array_equal(env.reset(seed=np.int64(3))[0], twin.reset(seed=3)[0])
    assert np.array_equal(env.reset(seed=np.arange(GAMES))[0], twin.reset(seed=[*range(GAMES)])[0])
    before = env.positions()
    for seed in (1.5, "abcdef", [1.5] * GAMES):
        with pytest.raises(TypeError, match="seed"):
            env.reset(seed=seed)  # type: ignore[arg-type]
    assert env.positions() == before


@pytest.mark.parametrize(
    ("games", "error"), [(2.5, TypeError), ("2", TypeError), (0, ValueError), (2**40, ValueError)]
)
def test_a_number_of_games_that_is_no_count_is_refused_by_name(
    games: Any, error: type[Exception]
) -> None:
    with pytest.raises(error, match="num_envs must be"):
        KlondikeVectorEnv(games)


def test_vector_reset_options_that_are_no_dict_are_refused_by_name() -> None:
    env = make()
    env.reset(seed=1)
    before = env.positions()
    with pytest.raises(TypeError, match="options must be a dict or None, not"):
        env.reset(options=[1])  # type: ignore[arg-type]
    assert env.positions() == before
    with pytest.raises(ValueError, match="unknown reset options 'deal': the options are 'deals'"):
        env.reset(options={"deal": 7})  # the single game's option: a vector takes "deals"
    assert env.positions() == before


def test_an_unsigned_action_too_big_for_int64_is_named_as_given() -> None:
    env = make()
    env.reset(seed=1)
    before = env.positions()
    actions = np.zeros(GAMES, dtype=np.uint64)
    actions[2] = 2**63
    with pytest.raises(ActionError, match=f"game 2: action {2**63} is not a number from 0 to"):
        env.step(actions)
    assert env.positions() == before
