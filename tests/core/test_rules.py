from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given

from bonanza.core import PRESETS, EmptyColumn, Rules, RulesError, Scoring
from tests.core.strategies import rules as any_rules


def test_presets() -> None:
    assert Rules.preset("klondike") == Rules(
        draw=1, passes=None, empty_column=EmptyColumn.KING, recall=True, scoring=Scoring.STANDARD
    )
    assert Rules.preset("klondike-3").draw == 3
    vegas1, vegas3 = Rules.preset("vegas-1"), Rules.preset("vegas-3")
    assert (vegas1.draw, vegas1.passes, vegas1.scoring) == (1, 1, Scoring.VEGAS)
    assert (vegas3.draw, vegas3.passes, vegas3.scoring) == (3, 3, Scoring.VEGAS)
    assert Rules.preset("thoughtful").thoughtful
    assert set(PRESETS) >= {"klondike", "klondike-3", "vegas-1", "vegas-3", "thoughtful"}


def test_rules_are_frozen_data() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rules().draw = 3  # type: ignore[misc]
    assert hash(Rules(draw=3)) == hash(Rules(draw=3))


@pytest.mark.parametrize(
    "changes", [{"draw": 0}, {"draw": 25}, {"passes": 0}, {"draw": True}, {"passes": "3"}]
)
def test_out_of_range_rules_are_refused(changes: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        Rules(**changes)  # type: ignore[arg-type]


def test_draw_24_is_accepted() -> None:
    assert Rules(draw=24).draw == 24


def test_recycles_allowed() -> None:
    assert Rules(passes=None).recycles_allowed is None
    assert Rules(passes=1).recycles_allowed == 0
    assert Rules(passes=3).recycles_allowed == 2


@given(any_rules)
def test_rules_round_trip_through_every_form(rules: Rules) -> None:
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_text(rules.to_text()) == rules
    assert eval(repr(rules)) == rules


@pytest.mark.parametrize("text", ["draw=x", "colour=red", "recall=maybe", "scoring=golf"])
def test_bad_rules_text_names_the_problem(text: str) -> None:
    with pytest.raises(RulesError, match=text.split("=")[0]):
        Rules.from_text(text)


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RulesError, match="klondike-3"):
        Rules.preset("spider")


def test_from_dict_refuses_unknown_fields_and_bad_values() -> None:
    with pytest.raises(RulesError, match="colour"):
        Rules.from_dict({"colour": "red"})
    with pytest.raises(RulesError):
        Rules.from_dict({"scoring": "golf"})
    with pytest.raises(RulesError, match="recall"):
        Rules.from_dict({"recall": "yes"})


@pytest.mark.parametrize("flag", ["recall", "partial_runs", "thoughtful"])
@pytest.mark.parametrize("value", ["off", None, 0, 1])
def test_a_flag_that_is_not_true_or_false_is_refused(flag: str, value: object) -> None:
    """``Rules(recall="off")`` played with recall on: "off" is truthy."""
    with pytest.raises(RulesError, match=f"{flag} must be True or False"):
        Rules(**{flag: value})  # type: ignore[arg-type]
