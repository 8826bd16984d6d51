"""What the searches answer, by meaning, and the words of a search that cannot play the
rules yet, written once."""

from __future__ import annotations

import pickle

import pytest

from bonanza.core import Rules
from bonanza.play.answers import (
    HINTS,
    PROGRESS_CHECK,
    REVIEW,
    STILL_WINNABLE,
    HintReply,
    ProgressReply,
    ReviewReply,
    WinnableReply,
    not_yet,
)

WESTCLIFF = Rules.preset("westcliff")


def test_not_yet_names_the_search_and_the_game() -> None:
    assert not_yet(HINTS, WESTCLIFF, plural=True) == "Hints are not available for Westcliff yet"
    assert not_yet("Auto finish", Rules.preset("double-klondike-3")) == (
        "Auto finish is not available for Double Klondike yet"
    )


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (HintReply.not_yet(WESTCLIFF), f"{not_yet(HINTS, WESTCLIFF, plural=True)}."),
        (WinnableReply.not_yet(WESTCLIFF), f"{not_yet(STILL_WINNABLE, WESTCLIFF)}."),
        (ReviewReply.not_yet(WESTCLIFF), f"{not_yet(REVIEW, WESTCLIFF)}."),
    ],
)
def test_an_answer_not_given_yet_says_so_in_a_sentence(
    reply: HintReply | WinnableReply | ReviewReply, words: str
) -> None:
    assert reply.text == words
    assert pickle.loads(pickle.dumps(reply)) == reply  # a worker process sends it back


def test_each_answer_not_given_yet_gives_nothing_else() -> None:
    hint = HintReply.not_yet(WESTCLIFF)
    assert hint.move is None and hint.unavailable
    progress = ProgressReply.not_yet(WESTCLIFF)
    assert progress.progress is None
    assert progress.unavailable == f"{not_yet(PROGRESS_CHECK, WESTCLIFF)}."
    assert WinnableReply.not_yet(WESTCLIFF).winnable == "unknown"
    review = ReviewReply.not_yet(WESTCLIFF)
    assert (review.finding, review.critical, review.after_moves, review.line) == (
        "unavailable", None, None, ()
    )
