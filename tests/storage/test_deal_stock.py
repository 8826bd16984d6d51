"""The stock of winnable deals and the daily deals, on a real SQLite file."""

from __future__ import annotations

import threading
from pathlib import Path

from bonanza.storage import SQLiteStorage
from bonanza.storage.protocol import DailyDeal, StockedDeal

DRAW_1 = '{"draw": 1}'
DRAW_3 = '{"draw": 3}'


def test_the_stock_survives_reopening_and_taking_removes(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    storage.add_stocked_deal(StockedDeal("11", DRAW_1, "easy", 0.95))
    storage.add_stocked_deal(StockedDeal("12", DRAW_1, "easy", 0.97))
    storage.add_stocked_deal(StockedDeal("13", DRAW_1, "hard", 0.5))
    storage.add_stocked_deal(StockedDeal("14", DRAW_3, "easy", 0.9))
    storage.close()

    reopened = SQLiteStorage(tmp_path / "games.db")
    counts = {(DRAW_1, "easy"): 2, (DRAW_1, "hard"): 1, (DRAW_3, "easy"): 1}
    assert reopened.stock_counts() == counts
    first = reopened.take_stocked_deal(DRAW_1, "easy")
    assert first == StockedDeal("11", DRAW_1, "easy", 0.95)  # the oldest first
    assert reopened.take_stocked_deal(DRAW_1, "easy") == StockedDeal("12", DRAW_1, "easy", 0.97)
    assert reopened.take_stocked_deal(DRAW_1, "easy") is None  # none of that grade left
    assert reopened.take_stocked_deal(DRAW_1, "medium") is None
    assert reopened.stock_counts() == {(DRAW_1, "hard"): 1, (DRAW_3, "easy"): 1}
    reopened.close()

    again = SQLiteStorage(tmp_path / "games.db")  # what was taken stays taken
    assert again.take_stocked_deal(DRAW_1, "easy") is None
    assert again.take_stocked_deal(DRAW_3, "easy") == StockedDeal("14", DRAW_3, "easy", 0.9)
    again.close()


def test_a_deal_is_taken_once_however_many_threads_take(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    for number in range(40):
        storage.add_stocked_deal(StockedDeal(str(number), DRAW_1, "medium", 0.8))
    taken: list[str] = []

    def take() -> None:
        while (found := storage.take_stocked_deal(DRAW_1, "medium")) is not None:
            taken.append(found.deal)

    threads = [threading.Thread(target=take) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(taken, key=int) == [str(number) for number in range(40)]
    storage.close()


def test_the_first_daily_deal_of_a_day_stands(tmp_path: Path) -> None:
    storage = SQLiteStorage(tmp_path / "games.db")
    assert storage.daily_deal("2026-12-01", DRAW_1) is None
    first = storage.set_daily_deal(DailyDeal("2026-12-01", DRAW_1, "101", "medium"))
    assert first == DailyDeal("2026-12-01", DRAW_1, "101", "medium")
    later = storage.set_daily_deal(DailyDeal("2026-12-01", DRAW_1, "202", "easy"))
    assert later == first  # a second choice for the same day is refused
    other_day = storage.set_daily_deal(DailyDeal("2026-12-02", DRAW_1, "303", "hard"))
    other_draw = storage.set_daily_deal(DailyDeal("2026-12-01", DRAW_3, "404", "easy"))
    assert (other_day.deal, other_draw.deal) == ("303", "404")
    storage.close()

    reopened = SQLiteStorage(tmp_path / "games.db")
    assert reopened.daily_deal("2026-12-01", DRAW_1) == first
    reopened.close()
