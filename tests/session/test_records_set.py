"""Records a win sets: headline figures only, per rule set, strictly better, first win apart."""

from __future__ import annotations

import itertools
from typing import Any

from bonanza.core import Rules
from bonanza.play.ledger import records_set, statistics
from bonanza.session import Origin, Status
from bonanza.storage.records import GameRecord, rules_key

KLONDIKE = Rules.preset("klondike")
DRAW_3 = Rules.preset("klondike-3")
_ids = itertools.count(1)


def game(
    status: Status = Status.WON,
    *,
    elapsed: float = 200.0,
    moves: int = 120,
    score: int = 500,
    rules: Rules = KLONDIKE,
    origin: Origin = Origin.RANDOM,
    assisted: bool = False,
) -> GameRecord:
    """A finished game as the store keeps it."""
    return GameRecord(
        id=f"g{next(_ids)}",
        player="p",
        deal="1",
        rules_key=rules_key(rules),
        state={},
        status=status,
        origin=origin,
        elapsed=elapsed,
        moves=moves,
        score=score,
        assisted=assisted,
    )


def names(answer: dict[str, Any]) -> list[str]:
    return [r["name"] for r in answer["records"]]


def test_the_first_win_of_a_rule_set_is_a_first_win_not_a_list_of_records() -> None:
    lost = game(Status.LOST, score=100)
    answer = records_set([lost], game(score=900))
    assert answer == {"in_records": True, "first_win": True, "records": []}


def test_a_faster_win_sets_best_time_with_the_previous_time() -> None:
    earlier = [game(elapsed=185.0, moves=100, score=600)]
    answer = records_set(earlier, game(elapsed=151.04, moves=110, score=550))
    assert answer["first_win"] is False
    # Two wins in a row also make the longest streak 2 (was 1).
    assert answer["records"] == [
        {"name": "best_time", "value": 151.0, "previous": 185.0},
        {"name": "longest_streak", "value": 2, "previous": 1},
    ]


def test_a_tie_is_no_record_and_a_slower_win_after_a_loss_sets_none() -> None:
    earlier = [game(elapsed=150.0, moves=100, score=600), game(Status.LOST, score=50)]
    assert records_set(earlier, game(elapsed=150.0, moves=100, score=600))["records"] == []


def test_fewest_moves_best_score_and_streak_each_name_the_old_figure() -> None:
    earlier = [
        game(elapsed=100.0, moves=90, score=700),
        game(elapsed=100.0, moves=90, score=700),
        game(Status.LOST, score=740),
        game(elapsed=100.0, moves=90, score=720),
        game(elapsed=100.0, moves=90, score=700),
    ]
    answer = records_set(earlier, game(elapsed=120.0, moves=85, score=730))
    assert answer["records"] == [
        {"name": "best_score", "value": 730, "previous": 720},  # won games' scores only
        {"name": "fewest_moves", "value": 85, "previous": 90},
        {"name": "longest_streak", "value": 3, "previous": 2},
    ]


def test_the_records_agree_with_the_statistics_before_and_after() -> None:
    earlier = [game(elapsed=185.0, moves=100), game(Status.LOST)]
    won = game(elapsed=99.0, moves=130)
    (before,) = statistics(earlier)["groups"]
    (after,) = statistics([*earlier, won])["groups"]
    (record,) = records_set(earlier, won)["records"]
    assert (record["previous"], record["value"]) == (before["best_time"], after["best_time"])


def test_chosen_and_assisted_wins_set_no_record() -> None:
    earlier = [game(elapsed=300.0)]
    nothing = {"in_records": False, "first_win": False, "records": []}
    for origin in (Origin.TYPED, Origin.SHARED, Origin.REPLAY):
        assert records_set(earlier, game(elapsed=10.0, origin=origin)) == nothing
    assert records_set(earlier, game(elapsed=10.0, assisted=True)) == nothing


def test_chosen_assisted_and_other_rule_sets_are_not_the_figures_to_beat() -> None:
    earlier = [
        game(elapsed=10.0, origin=Origin.TYPED),
        game(elapsed=10.0, assisted=True),
        game(elapsed=10.0, rules=DRAW_3),
    ]
    assert records_set(earlier, game(elapsed=300.0))["first_win"] is True
    earlier.append(game(elapsed=400.0))
    assert "best_time" in names(records_set(earlier, game(elapsed=300.0)))


def test_the_game_itself_already_stored_is_not_its_own_previous_figure() -> None:
    won = game(elapsed=90.0)
    earlier = [game(elapsed=120.0), won]  # the win's row was written before the answer
    assert names(records_set(earlier, won)) == ["best_time", "longest_streak"]


def test_a_loss_sets_no_record() -> None:
    earlier = [game(elapsed=120.0, score=10)]
    lost = records_set(earlier, game(Status.LOST, score=9000))
    assert lost["records"] == [] and lost["first_win"] is False


def test_without_scoring_the_score_is_no_record() -> None:
    unscored = Rules.from_dict({"scoring": "none"})
    earlier = [game(rules=unscored, score=0, moves=100), game(Status.LOST, rules=unscored, score=0)]
    answer = records_set(earlier, game(rules=unscored, score=0, moves=90))
    assert names(answer) == ["fewest_moves"]


def test_thoughtful_games_count_apart_and_set_no_record() -> None:
    """Every card shows before the first move, so a client can solve the deal first
    and leave it for free: thoughtful wins never reach the headline figures."""
    thoughtful = Rules(thoughtful=True)
    solved_first = [game(elapsed=0.2, moves=90, rules=thoughtful) for _ in range(8)]
    figures = statistics(solved_first)
    assert figures["groups"] == []
    assert [group["won"] for group in figures["chosen"]] == [8]
    nothing = {"in_records": False, "first_win": False, "records": []}
    assert records_set(solved_first[:-1], solved_first[-1]) == nothing
