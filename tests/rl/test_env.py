"""The single Gymnasium environment: registration, spaces, rules, rewards, errors."""

from __future__ import annotations

import copy
import importlib.util
import pickle
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

from bonanza.core import PRESETS, Deal, Position, Rules
from bonanza.core.view import PlayerView
from bonanza.rl import observation
from bonanza.rl.actions import ACTION_COUNT, ActionError, action_of
from bonanza.rl.env import KlondikeEnv
from bonanza.rl.vector import KlondikeVectorEnv
from bonanza.solver.search import solve

ENV_ID = "bonanza/Klondike-v0"


def play_randomly(env: KlondikeEnv, steps: int, seed: int) -> None:
    chooser = random.Random(seed)
    for _ in range(steps):
        legal = env.legal_actions()
        if not legal:
            return
        env.step(chooser.choice(legal))


def klondike(env: gymnasium.Env[Any, Any]) -> KlondikeEnv:
    """The KlondikeEnv inside ``gymnasium.make``'s wrappers."""
    inner = env.unwrapped
    assert isinstance(inner, KlondikeEnv)
    return inner


KLONDIKE_PRESETS = [name for name, rules in PRESETS.items() if rules.is_klondike]


def test_klondikes_five_presets_are_all_there() -> None:
    assert KLONDIKE_PRESETS == ["klondike", "klondike-3", "vegas-1", "vegas-3", "thoughtful"]


@pytest.mark.parametrize("preset", KLONDIKE_PRESETS)
@pytest.mark.parametrize("visibility", ["player", "thoughtful"])
def test_every_preset_is_made_by_name(preset: str, visibility: str) -> None:
    env = gymnasium.make(ENV_ID, rules=preset, observation=visibility)
    obs, info = env.reset(seed=1)
    assert klondike(env).rules == PRESETS[preset]
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (ACTION_COUNT,) and info["action_mask"].dtype == np.int8
    assert isinstance(env.action_space, spaces.Discrete) and env.action_space.n == ACTION_COUNT


def test_rules_are_also_taken_as_an_object_or_as_text() -> None:
    rules = Rules(draw=2, passes=4, partial_runs=False)
    assert klondike(gymnasium.make(ENV_ID, rules=rules)).rules == rules
    assert klondike(gymnasium.make(ENV_ID, rules=rules.to_text())).rules == rules


def test_the_module_form_of_the_id_needs_no_import_first() -> None:
    script = (
        "import gymnasium\n"
        "env = gymnasium.make('bonanza.rl:bonanza/Klondike-v0', rules='klondike-3')\n"
        "print(env.unwrapped.rules.draw)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.stdout.strip() == "3", result.stderr


@pytest.mark.parametrize("visibility", ["player", "thoughtful"])
@pytest.mark.parametrize("draw", [1, 3])
def test_gymnasiums_environment_checker_passes(visibility: str, draw: int) -> None:
    env = gymnasium.make(ENV_ID, rules=Rules(draw=draw), observation=visibility)
    check_env(env.unwrapped, skip_render_check=True)


def test_a_seed_decides_the_deal_and_the_observations() -> None:
    first, second = KlondikeEnv(), KlondikeEnv()
    obs_a, _ = first.reset(seed=42)
    obs_b, _ = second.reset(seed=42)
    deal_a = first.deal
    assert deal_a == second.deal and np.array_equal(obs_a, obs_b)
    play_randomly(first, 50, seed=0)
    play_randomly(second, 50, seed=0)
    assert first.position == second.position
    first.reset(seed=43)
    assert first.deal != deal_a


@pytest.mark.parametrize("deal", [123, Deal.from_number(9).code, Deal.from_number(10)])
def test_a_chosen_deal_is_played(deal: int | str | Deal) -> None:
    env = KlondikeEnv(rules="klondike-3", reveal_deal_in_info=True)
    _, info = env.reset(options={"deal": deal})
    expected = deal if isinstance(deal, Deal) else Deal.parse(str(deal))
    assert env.position == Position.initial(expected, Rules(draw=3))
    assert info["deal"] == env.deal == expected.id


def test_an_illegal_action_raises_by_name_and_leaves_the_game_alone() -> None:
    env = KlondikeEnv()
    _, info = env.reset(options={"deal": 5})
    before = env.position
    illegal = action_of(Position.initial(Deal.from_number(5), Rules()).legal_moves()[0]) + 1
    assert not info["action_mask"][illegal]
    with pytest.raises(ActionError, match=rf"action {illegal} \(.*\) is not legal here"):
        env.step(illegal)
    with pytest.raises(ActionError, match=r"action 81 \(column 1 to column 2, 13 cards\)"):
        env.step(81)
    with pytest.raises(ActionError, match="not a number from 0 to 614"):
        env.step(-1)
    with pytest.raises(ActionError, match="not a whole number"):
        env.step(1.5)  # type: ignore[arg-type]
    for flag in (True, np.True_):  # not action 1, which a bool is to Python
        with pytest.raises(ActionError, match=r"action (np\.)?True_? is not a whole number"):
            env.step(flag)  # type: ignore[arg-type]
    assert env.position == before
    assert np.array_equal(env.step(env.legal_actions()[0])[0], env._obs)


def test_the_mask_and_action_masks_name_the_legal_moves() -> None:
    env = KlondikeEnv()
    _, info = env.reset(seed=3)
    chooser = random.Random(3)
    for _ in range(100):
        legal = sorted(action_of(move) for move in env.position.legal_moves())
        assert np.flatnonzero(info["action_mask"]).tolist() == legal
        assert np.flatnonzero(env.action_masks()).tolist() == legal
        assert env.action_masks().dtype == np.bool_
        assert env.action_space.sample() in legal
        _, _, _, _, info = env.step(chooser.choice(legal))


def hidden_places(position: Position) -> list[tuple[str, int, int]]:
    """Where the cards a player cannot place lie: ("t", column, index) or ("s", 0, index)."""
    view = PlayerView.of(position)
    places = [("t", c, i) for c, column in enumerate(view.tableau)
              for i, card in enumerate(column) if card is None]
    return places + [("s", 0, i) for i, card in enumerate(view.stock) if card is None]


def test_permuting_hidden_cards_never_changes_the_player_observation() -> None:
    env = KlondikeEnv()
    chooser = random.Random(11)
    for deal in range(4):
        env.reset(options={"deal": deal})
        for _ in range(60):
            position = env.position
            places = hidden_places(position)
            cards = [position.tableau[c][i] if kind == "t" else position.stock[i]
                     for kind, c, i in places]
            chooser.shuffle(cards)
            shuffled = position.copy()
            for (kind, c, i), card in zip(places, cards, strict=True):
                (shuffled.tableau[c] if kind == "t" else shuffled.stock)[i] = card
            assert np.array_equal(observation.encode(shuffled), env._obs)
            play_randomly(env, 1, chooser.randrange(1000))


def test_the_player_sees_face_down_cards_as_hidden_and_thoughtful_sees_them() -> None:
    player, thoughtful = KlondikeEnv(), KlondikeEnv(observation="thoughtful")
    seen, _ = player.reset(options={"deal": 1})
    everything, _ = thoughtful.reset(options={"deal": 1})
    column_7 = slice(6 * observation.COLUMN_SLOTS, 6 * observation.COLUMN_SLOTS + 7)
    top = player.position.tableau[6][-1]
    assert seen[column_7].tolist() == [observation.HIDDEN] * 6 + [top]
    assert everything[column_7].tolist() == player.position.tableau[6]
    assert set(seen[observation.STOCK]) == {observation.HIDDEN}
    assert everything[observation.STOCK].tolist() == player.position.stock[::-1]


def test_a_won_game_pays_one_and_terminates() -> None:
    env = KlondikeEnv()
    env.reset(options={"deal": 0})
    line = solve(Deal.from_number(0), Rules()).moves
    rewards = []
    for move in line:
        _, reward, terminated, truncated, info = env.step(action_of(move))
        rewards.append(reward)
    assert rewards[-1] == 1.0 and sum(rewards) == 1.0
    assert terminated and not truncated and not info["action_mask"].any()
    assert env.position.is_won()


def test_shaping_pays_for_cards_home_and_cards_turned_up() -> None:
    env = KlondikeEnv(reward_shaping={"home": 0.25, "turned": 0.5})
    env.reset(options={"deal": 0})
    for move in solve(Deal.from_number(0), Rules()).moves:
        before = env.position
        _, reward, _, _, _ = env.step(action_of(move))
        after = env.position
        home = sum(after.foundations) - sum(before.foundations)
        turned = sum(before.down) - sum(after.down)
        won = 1.0 if after.is_won() else 0.0
        assert reward == pytest.approx(won + 0.25 * home + 0.5 * turned)
    with pytest.raises(ValueError, match="unknown reward shaping keys"):
        KlondikeEnv(reward_shaping={"homes": 1.0})


def test_an_episode_is_truncated_after_max_steps() -> None:
    env = KlondikeEnv(max_steps=5)
    env.reset(seed=0)
    flags = [env.step(env.legal_actions()[0])[3] for _ in range(5)]
    assert flags == [False] * 4 + [True]


def test_an_episode_ends_when_no_move_is_left() -> None:
    env = KlondikeEnv(rules=Rules(passes=1, recall=False), max_steps=2_000)
    chooser = random.Random(2)
    ended = 0
    for deal in range(10):
        env.reset(options={"deal": deal})
        terminated = truncated = False
        while not (terminated or truncated):
            legal = env.legal_actions()
            _, reward, terminated, truncated, info = env.step(chooser.choice(legal))
        if terminated:
            ended += 1
            assert not env.position.has_moves() and not info["action_mask"].any()
            assert reward == (1.0 if env.position.is_won() else 0.0)
    assert ended >= 1


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"observation": "everything"}, "observation must be one of"),
        ({"max_steps": 0}, "max_steps must be at least 1"),
        ({"render_mode": "human"}, "render_mode must be 'ansi'"),
        ({"rules": "draw=0"}, "draw must be a whole number from 1 to 24"),
        ({"rules": "decks=3"}, "decks must be 1 or 2"),
    ],
)
def test_bad_arguments_are_refused_by_name(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gymnasium.make(ENV_ID, **arguments)


def test_render_shows_the_players_view() -> None:
    env = KlondikeEnv(render_mode="ansi")
    env.reset(options={"deal": 4})
    assert env.render() == env.position.to_text(hide=True)
    assert "?" in str(env.render())


def test_encode_refuses_an_unknown_visibility() -> None:
    position = Position.initial(Deal.from_number(7), Rules())
    for visibility in observation.VISIBILITIES:
        assert observation.encode(position, visibility).shape == (observation.SIZE,)
    with pytest.raises(ValueError, match="visibility must be one of"):
        observation.encode(position, "all")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"max_steps": 2.5}, TypeError, "max_steps must be a whole number, or None"),
        ({"max_steps": "5"}, TypeError, "max_steps must be a whole number, or None"),
        ({"max_steps": True}, TypeError, "max_steps must be a whole number, or None"),
        ({"max_steps": 10**30}, ValueError, "max_steps .* at most 2147483647"),
        ({"rules": None}, TypeError, "rules must be a Rules, a preset name or a rules text"),
        ({"rules": {"draw": 3}}, TypeError, "rules must be a Rules"),
    ],
)
def test_arguments_of_a_wrong_type_or_size_are_refused_by_name(
    arguments: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        KlondikeEnv(**arguments)


def test_reset_options_that_are_no_dict_are_refused_by_name() -> None:
    env = KlondikeEnv()
    with pytest.raises(TypeError, match="options must be a dict or None, not"):
        env.reset(options=[1])  # type: ignore[arg-type]


def test_a_misspelt_reset_option_is_refused_not_ignored() -> None:
    env = KlondikeEnv()
    env.reset(options={"deal": 5})
    with pytest.raises(ValueError, match="unknown reset options 'deel': the options are 'deal'"):
        env.reset(options={"deel": 7})
    assert env.deal == "5"  # the game is left as it was


def test_copying_or_pickling_an_environment_is_refused_by_name() -> None:
    envs: list[object] = [KlondikeEnv(), KlondikeVectorEnv(2)]
    if importlib.util.find_spec("stable_baselines3") is not None:
        from bonanza.rl.sb3 import KlondikeVecEnv

        envs.append(KlondikeVecEnv(2))
    for env in envs:
        for refuse in (copy.copy, copy.deepcopy, pickle.dumps):  # copy: it shared the games
            with pytest.raises(TypeError, match="cannot be pickled or copied: its games live"):
                refuse(env)
