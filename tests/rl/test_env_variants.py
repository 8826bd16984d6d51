"""Klondike's relatives in the environments: the C engine plays them as bonanza.core does."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

from bonanza.core import Deal, EmptyColumn, Move, Pile, Position, Rules
from bonanza.core.deal import shuffle
from bonanza.core.errors import DealError
from bonanza.core.rules import VARIANT_PRESETS
from bonanza.core.view import PlayerView
from bonanza.rl import observation
from bonanza.rl._batch import shuffle as c_shuffle
from bonanza.rl.actions import ActionError, legal_actions, numbering
from bonanza.rl.engine import Engine
from bonanza.rl.env import KlondikeEnv
from bonanza.rl.vector import KlondikeVectorEnv
from tests.rl.test_env import play_randomly
from tests.rl.test_env_vector import step_alongside

ENV_ID = "bonanza/Klondike-v0"
VARIANTS = list(VARIANT_PRESETS)
SIZES = {  # preset: (actions, observation cells), as docs/rl.md gives them
    "klondike": (615, 196),
    "double-klondike": (1099, 328),
    "double-klondike-3": (1099, 328),
    "westcliff": (1266, 212),
    "easthaven": (603, 407),
}
HOME_FIRST = 0.6
"""How often a random playout sends a card home when it can: random play
alone seldom gets far enough to test the foundations (and twins)."""
PLAYOUT_STEPS = 600
HUGE_PASSES = 2**31 + 1
"""More passes than the C engine's int holds: they play as unlimited ones."""


def preset(name: str, **changes: object) -> Rules:
    return dataclasses.replace(Rules.preset(name), **changes)  # type: ignore[arg-type]


RULE_OPTIONS = [
    Rules.preset("double-klondike"),
    preset("double-klondike-3", passes=2, empty_column=EmptyColumn.ANY, partial_runs=False),
    preset("double-klondike", recall=False, thoughtful=True),
    Rules.preset("westcliff"),
    preset("westcliff", draw=3, passes=3, recall=True, empty_column=EmptyColumn.KING),
    preset("westcliff", partial_runs=False),
    Rules.preset("easthaven"),
    preset("easthaven", empty_column=EmptyColumn.KING, recall=False),
    preset("easthaven", partial_runs=False),
    # Tables of no preset, at the engine's largest: 104 cards, 10 columns.
    preset("easthaven", decks=2, columns=10),
    preset("double-klondike-3", columns=10, waste_start=5, passes=2),
    Rules(draw=3, passes=HUGE_PASSES),
]


def choose(chooser: random.Random, legal: dict[int, Move]) -> int:
    """A random legal action, a move home first with probability ``HOME_FIRST``."""
    home = [action for action, move in legal.items() if move.dest.is_foundation]
    if home and chooser.random() < HOME_FIRST:
        return chooser.choice(home)
    return chooser.choice(list(legal))


def core_mask(position: Position) -> np.ndarray:
    mask = np.zeros(numbering(position.rules).count, dtype=np.int8)
    mask[list(legal_actions(position))] = 1
    return mask


@pytest.mark.parametrize("name", list(SIZES))
def test_each_table_has_its_documented_sizes(name: str) -> None:
    env = gymnasium.make(ENV_ID, rules=name)
    obs, info = env.reset(seed=0)
    actions, cells = SIZES[name]
    assert env.action_space == gymnasium.spaces.Discrete(actions)
    assert info["action_mask"].shape == (actions,)
    assert env.observation_space.shape == obs.shape == (cells,)
    assert env.observation_space.contains(obs)


@pytest.mark.parametrize("name", VARIANTS)
def test_every_move_of_a_table_has_its_own_number(name: str) -> None:
    rules = Rules.preset(name)
    table = numbering(rules)
    columns, foundations = rules.tableau_piles, rules.foundation_piles
    moves = [Move(Pile.STOCK, Pile.WASTE, 1)]
    sources = list(columns) + list(foundations)
    if table.waste:
        moves.append(Move(Pile.WASTE, Pile.STOCK, 1))
        sources.append(Pile.WASTE)
    for source in sources:
        moves += [Move(source, dest, 1) for dest in columns if dest != source]
        if not source.is_foundation:
            moves += [Move(source, dest, 1) for dest in foundations]
        if source.is_tableau:
            moves += [Move(source, dest, n) for dest in columns if dest != source
                      for n in range(2, 14)]
    numbers = [table.action_of(move) for move in moves]
    assert sorted(numbers) == list(range(table.count))
    for move in (Move(Pile.T8, Pile.T1, 1), Move(Pile.FC2, Pile.T1, 1)):
        if move.source not in sources:
            with pytest.raises(ActionError, match="no action number on this table"):
                table.action_of(move)


def test_two_deck_deal_numbers_shuffle_as_in_core() -> None:
    chooser = random.Random(7)
    for number in [0, 1, 2**64 - 1, *(chooser.randrange(2**64) for _ in range(100))]:
        assert tuple(c_shuffle(number, 2)) == shuffle(number, 2)


@pytest.mark.parametrize("rules", RULE_OPTIONS, ids=Rules.to_text)
def test_random_playouts_match_core_move_for_move(rules: Rules) -> None:
    chooser = random.Random(rules.to_text())
    player = Engine(1, rules, "player", None, None)
    thoughtful = Engine(1, rules, "thoughtful", None, None)
    for _ in range(2):
        number = chooser.randrange(2**64)
        for engine in (player, thoughtful):
            engine.deal(0, number)
        position = Position.initial(Deal.from_number(number, rules.decks), rules)
        for _ in range(PLAYOUT_STEPS // 2):
            legal = legal_actions(position)
            assert np.array_equal(player.mask[0], core_mask(position)), position.to_text()
            assert player.batch.legal(0) == list(legal)
            assert player.position(0) == position == thoughtful.position(0)
            assert np.array_equal(player.obs[0], observation.encode(position, "player"))
            assert np.array_equal(thoughtful.obs[0], observation.encode(position, "thoughtful"))
            if not legal:
                break
            action = choose(chooser, legal)
            for engine in (player, thoughtful):
                engine.batch.play(0, action)
            position.apply(legal[action])


@pytest.mark.parametrize("name", VARIANTS)
def test_gymnasiums_environment_checker_passes(name: str) -> None:
    check_env(gymnasium.make(ENV_ID, rules=name).unwrapped, skip_render_check=True)


@pytest.mark.parametrize("name", VARIANTS)
def test_a_seed_decides_the_deal_and_the_game(name: str) -> None:
    first, second = KlondikeEnv(rules=name), KlondikeEnv(rules=name)
    obs_a, _ = first.reset(seed=42)
    obs_b, _ = second.reset(seed=42)
    deal_a = first.deal
    assert deal_a == second.deal and np.array_equal(obs_a, obs_b)
    rules = Rules.preset(name)
    assert first.position == Position.initial(Deal.from_number(int(deal_a), rules.decks), rules)
    play_randomly(first, 80, seed=0)
    play_randomly(second, 80, seed=0)
    assert first.position == second.position
    first.reset(seed=43)
    assert first.deal != deal_a


@pytest.mark.parametrize("name", ["double-klondike", "westcliff"])
def test_a_deal_is_taken_as_a_number_a_code_or_a_deal(name: str) -> None:
    rules = Rules.preset(name)
    env = KlondikeEnv(rules=rules, reveal_deal_in_info=True)
    deal = Deal.from_number(9, rules.decks)
    for chosen, deal_id in ((9, "9"), ("9", "9"), (deal, "9"), (deal.code, deal.code)):
        _, info = env.reset(options={"deal": chosen})
        assert env.position == Position.initial(deal, rules)
        assert info["deal"] == env.deal == deal_id
    assert deal.code.startswith("D") == (rules.decks == 2)
    other = Deal.from_number(9, 3 - rules.decks)
    for wrong in (other, other.code):
        with pytest.raises(DealError):
            env.reset(options={"deal": wrong})


@pytest.mark.parametrize("name", VARIANTS)
def test_the_vector_env_plays_each_game_as_the_single_env(name: str) -> None:
    seeds = [3, 14, 15, 92]
    env = KlondikeVectorEnv(len(seeds), rules=name, reward_shaping={"home": 0.1, "turned": 0.2})
    singles = [KlondikeEnv(rules=name, reward_shaping={"home": 0.1, "turned": 0.2})
               for _ in seeds]
    obs, info = env.reset(seed=seeds)
    for game, single in enumerate(singles):
        single_obs, _ = single.reset(seed=seeds[game])
        assert np.array_equal(obs[game], single_obs)
        assert env.deal_numbers()[game] == int(single.deal)
    step_alongside(env, singles, info, 120)
    assert env.positions() == [single.position for single in singles]


@pytest.mark.parametrize("name", ["double-klondike", "easthaven"])
def test_an_autoreset_deals_the_tables_own_deal(name: str) -> None:
    rules = Rules.preset(name)
    env = KlondikeVectorEnv(3, rules=name, max_steps=2)
    env.reset(seed=7)
    for _ in range(2):
        env.step(env.action_space.sample())
    _, _, _, _, info = env.step(env.action_space.sample())
    for game, (number, position) in enumerate(zip(env.deal_numbers(), env.positions(),
                                                  strict=True)):
        assert number is not None
        assert position == Position.initial(Deal.from_number(number, rules.decks), rules)
        assert np.flatnonzero(info["action_mask"][game]).tolist() == list(legal_actions(position))


def hidden_places(position: Position) -> list[tuple[int, int]]:
    """Where the cards the player cannot place lie: (column, index), column -1 the stock."""
    view = PlayerView.of(position)
    places = [(c, i) for c, column in enumerate(view.tableau)
              for i, card in enumerate(column) if card is None]
    return places + [(-1, i) for i, card in enumerate(view.stock) if card is None]


@pytest.mark.parametrize("name", VARIANTS)
def test_permuting_hidden_cards_never_changes_the_player_observation(name: str) -> None:
    env = KlondikeEnv(rules=name)
    chooser = random.Random(name)
    permuted = 0
    for deal in range(3):
        env.reset(options={"deal": deal})
        for _ in range(40):
            position = env.position
            places = hidden_places(position)
            piles = [*position.tableau]
            cards = [(piles[c] if c >= 0 else position.stock)[i] for c, i in places]
            chooser.shuffle(cards)
            shuffled = position.copy()
            for (c, i), card in zip(places, cards, strict=True):
                (shuffled.tableau[c] if c >= 0 else shuffled.stock)[i] = card
            permuted += shuffled != position
            assert np.array_equal(observation.encode(shuffled), env._obs)
            legal = env.legal_actions()
            if not legal:
                break
            env.step(chooser.choice(legal))
    assert permuted > 0


@pytest.mark.parametrize("name", VARIANTS)
def test_the_c_engine_shows_nothing_of_a_deals_hidden_cards(name: str) -> None:
    rules = Rules.preset(name)
    player, thoughtful = (Engine(1, rules, seen, None, None)
                          for seen in ("player", "thoughtful"))
    chooser = random.Random(name)
    ends = np.cumsum(rules.column_sizes)
    shown = {int(end) - 1 for end in ends} | set(range(ends[-1], ends[-1] + rules.waste_start))
    for number in range(5):
        cards = list(Deal.from_number(number, rules.decks).cards)
        hidden = [place for place in range(len(cards)) if place not in shown]
        moved = [cards[place] for place in hidden]
        chooser.shuffle(moved)
        permuted = cards[:]
        for place, card in zip(hidden, moved, strict=True):
            permuted[place] = card
        seen = []
        for listing in (cards, permuted):
            for engine in (player, thoughtful):
                engine.batch.deal(0, bytes(listing), None)
            seen.append((player.obs[0].copy(), thoughtful.obs[0].copy()))
        assert np.array_equal(seen[0][0], seen[1][0])
        assert not np.array_equal(seen[0][1], seen[1][1])


def test_the_player_sees_second_deck_cards_as_their_face() -> None:
    rules = Rules.preset("double-klondike")
    player, thoughtful = (KlondikeEnv(rules=rules, observation=seen)
                          for seen in ("player", "thoughtful"))
    seen, _ = player.reset(options={"deal": 3})
    everything, _ = thoughtful.reset(options={"deal": 3})
    position = player.position
    slots = observation.layout(rules).column_slots
    twins = 0
    for column, cards in enumerate(position.tableau):
        row = slice(column * slots, column * slots + len(cards))
        assert everything[row].tolist() == [card % 52 for card in cards]
        assert seen[row].tolist() == [observation.HIDDEN] * column + [cards[-1] % 52]
        twins += sum(card >= 52 for card in cards)
    assert twins > 0
    cells = observation.layout(rules)
    assert cells.waste is not None
    for obs in (seen, everything):
        shown = np.concatenate([obs[cells.tableau], obs[cells.stock], obs[cells.waste]])
        assert shown.max() <= observation.NO_CARD


def test_easthavens_deal_is_action_zero_and_there_is_no_waste() -> None:
    env = KlondikeEnv(rules="easthaven")
    env.reset(options={"deal": 4})
    before = env.position
    env.step(0)
    after = env.position
    assert [len(column) for column in after.tableau] == [4] * 7
    assert after.stock == before.stock[:-7] and not after.waste
    assert numbering(after.rules).describe(0) == "deal"
    with pytest.raises(ActionError, match="not a number from 0 to 602"):
        env.step(603)


def test_two_deck_actions_name_the_second_foundation() -> None:
    table = numbering(Rules.preset("double-klondike"))
    action = table.action_of(Move(Pile.T9, Pile.FH2, 1))
    assert table.describe(action) == "column 9 to the second hearts foundation"
    recall = table.action_of(Move(Pile.FH2, Pile.T1, 1))
    env = KlondikeEnv(rules="double-klondike")
    env.reset(options={"deal": 0})
    with pytest.raises(ActionError, match=rf"action {recall} \(the second hearts foundation to "
                       r"column 1\) is not legal here"):
        env.step(recall)
    with pytest.raises(ActionError, match="not a number from 0 to 1098"):
        env.step(1099)


def test_the_c_engine_refuses_a_listing_that_is_no_deal() -> None:
    engine = Engine(1, Rules.preset("double-klondike"), "player", None, None)
    with pytest.raises(ValueError, match="a deal is 104 cards"):
        engine.batch.deal(0, bytes(range(52)), None)
    with pytest.raises(ValueError, match="each card 0 to 103 once"):
        engine.batch.deal(0, bytes([200] * 104), None)
    with pytest.raises(ValueError, match="each card 0 to 103 once"):
        engine.batch.deal(0, bytes([0] * 104), None)


def test_more_passes_than_the_engine_counts_play_as_unlimited_ones() -> None:
    env, unlimited = KlondikeEnv(Rules(passes=HUGE_PASSES)), KlondikeEnv(Rules())
    chooser = random.Random(HUGE_PASSES)
    for game in (env, unlimited):
        game.reset(options={"deal": 7})
    for _ in range(PLAYOUT_STEPS // 2):
        assert env.legal_actions() == unlimited.legal_actions()
        assert np.array_equal(env._obs, observation.encode(env.position))
        assert np.array_equal(env._obs, unlimited._obs)
        if not env.legal_actions():
            break
        action = chooser.choice(env.legal_actions())
        for game in (env, unlimited):
            game.step(action)
    assert env.position.recycles > 0
