"""How rules are named: ``Rules.label``, the table's short line, ``passes_left``, and the
one phrasing of a pass limit that ``str(rules)`` shares."""

from __future__ import annotations

import pytest

from bonanza.core.rules import EmptyColumn, Rules, Scoring, passes_words


@pytest.mark.parametrize(
    ("rules", "label"),
    [
        (Rules(), "Draw 1 · Unlimited passes · Standard"),
        (Rules(draw=3, scoring=Scoring.VEGAS), "Draw 3 · 3 passes · Vegas"),
        (
            Rules(draw=3, recall=False, partial_runs=False, thoughtful=True, scoring=Scoring.TIMED),
            "Draw 3 · Unlimited passes · No recall · Whole runs · Thoughtful · Timed",
        ),
        (Rules(passes=1, empty_column=EmptyColumn.ANY, scoring=Scoring.NONE),
         "Draw 1 · 1 pass · Any card to empty · No scoring"),
        (Rules.preset("easthaven"), "Stock deals onto every column · Any card to empty · Standard"),
        (Rules(scoring=Scoring.VEGAS_CUMULATIVE), "Draw 1 · 1 pass · Cumulative Vegas"),
    ],
)
def test_the_label_names_the_stock_the_options_not_klondikes_and_the_scoring(
    rules: Rules, label: str
) -> None:
    assert rules.label == label


def test_passes_left_counts_down_to_the_last_pass() -> None:
    vegas = Rules(draw=3, scoring=Scoring.VEGAS)
    assert [vegas.passes_left(n) for n in range(4)] == [
        "2 more passes", "1 more pass", "Last pass", "Last pass"
    ]
    assert Rules().passes_left(5) is None  # unlimited
    assert Rules.preset("easthaven").passes_left(0) is None  # dealt onto the columns


def test_the_full_sentence_phrases_passes_the_same_way() -> None:
    for passes in (None, 1, 3):
        assert passes_words(passes) in str(Rules(passes=passes))
    assert passes_words(None) == "unlimited passes" and passes_words(1) == "1 pass"
