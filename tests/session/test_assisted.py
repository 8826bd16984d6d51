"""The session's "still winnable?": the game marked assisted, saved so, and counted apart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bonanza.core import Deal, Rules
from bonanza.play.ledger import statistics
from bonanza.session import GameOverError, Origin, Session, Status
from bonanza.session.winnable import ANSWERS, WinnableAnswer
from bonanza.storage import SQLiteStorage
from bonanza.storage.records import GameRecord, rules_key

KLONDIKE = Rules.preset("klondike")


def start(deal: str = "0", origin: Origin = Origin.RANDOM) -> Session:
    return Session.new(Deal.parse(deal), KLONDIKE, 0.0, origin=origin)


def test_peeking_marks_the_game_assisted_and_gives_the_true_position() -> None:
    session = start()
    session.draw(1.0)
    assert not session.assisted
    position = session.peek()
    assert session.assisted
    assert position.to_text() == session.position.to_text()  # every card, hidden ones too
    assert position is not session.position  # a copy, for another thread


def test_peeking_is_refused_once_the_game_is_over() -> None:
    session = start()
    session.draw(1.0)
    session.end(2.0)
    with pytest.raises(GameOverError):
        session.peek()
    assert not session.assisted


def test_the_mark_is_saved_and_loaded() -> None:
    session = start()
    session.draw(1.0)
    session.peek()
    back = Session.from_json(session.to_json())
    assert back.assisted
    assert not Session.from_json(start().to_json()).assisted


def test_a_save_from_before_the_mark_loads_as_not_assisted() -> None:
    session = start()
    session.draw(1.0)
    saved = session.to_json()
    del saved["assisted"]
    assert not Session.from_json(saved).assisted
    assert not Session.from_json(session.game.to_json()).assisted  # a bare saved game


def test_the_answer_is_only_a_word_and_a_sentence() -> None:
    for word, text in ANSWERS.items():
        assert WinnableAnswer.of(word) == WinnableAnswer(word, text)
    assert WinnableAnswer.of("solved").winnable == "unknown"  # nothing else is said


def finished(
    number: int, *, won: bool, assisted: bool, origin: Origin = Origin.RANDOM
) -> GameRecord:
    return GameRecord(
        id=f"g{number}", player="p", deal=str(number), rules_key=rules_key(KLONDIKE),
        state={}, status=Status.WON if won else Status.LOST, origin=origin,
        finished_at=float(number), elapsed=10.0 + number, moves=100 + number,
        score=number, assisted=assisted,
    )  # fmt: skip


def test_assisted_games_stay_out_of_the_figures_and_are_counted_apart() -> None:
    games = [
        finished(1, won=True, assisted=False),
        finished(2, won=True, assisted=True),  # fast, high score: would be a best
        finished(3, won=False, assisted=True),
        finished(4, won=True, assisted=True, origin=Origin.TYPED),
        finished(5, won=False, assisted=False, origin=Origin.TYPED),
    ]
    games[1].elapsed, games[1].moves, games[1].score = 1.0, 50, 999
    stats = statistics(games)
    (headline,) = stats["groups"]
    assert (headline["played"], headline["won"], headline["win_rate"]) == (1, 1, 100.0)
    assert headline["best_time"] == 11.0 and headline["fewest_moves"] == 101
    assert headline["best_score"] == 1 and headline["current_streak"] == 1
    (chosen,) = stats["chosen"]
    assert (chosen["played"], chosen["won"]) == (1, 0)
    assert stats["assisted"] == {"played": 3, "won": 2}


def test_sqlite_keeps_the_mark_and_adds_its_column_to_an_older_file(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    SQLiteStorage(path).close()
    with sqlite3.connect(path) as db:  # a file from before the column (and schema versions)
        db.execute("ALTER TABLE games DROP COLUMN assisted")
        db.execute("DROP INDEX games_finished")
        db.execute("DROP TABLE folded_games")
        db.execute("DROP TABLE new_game_starts")
        db.execute("DROP INDEX games_playing")
        db.execute("PRAGMA user_version=0")
        db.execute(
            "INSERT INTO games (id, player, deal, rules_key, state, status, created_at)"
            " VALUES ('old', 'p', '7', ?, '{}', 'lost', 0)",
            (rules_key(KLONDIKE),),
        )
    storage = SQLiteStorage(path)  # adds the column at start-up
    try:
        old = storage.get_game("old")
        assert old is not None and not old.assisted
        session = start()
        session.draw(1.0)
        session.peek()
        storage.insert_game(GameRecord.of("new", "p", session, 2.0))
        new = storage.get_game("new")
        assert new is not None and new.assisted and new.state["assisted"] is True
    finally:
        storage.close()
