"""The daily leaderboard in the page (issue 35): a won daily deal enters with its time and
moves, fastest first; a thoughtful, an assisted or a replayed game does not; names show as
the players wrote them, as text, and "anonymous" when none; the won daily deal's own win
dialog shows its day's board. A server of its own, whose daily deal of draw 1 is deal 5
(stored before it starts), so the test knows the winning line the page never sees."""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bonanza.core import Deal, Game, Rules
from bonanza.core.notation import format_move
from bonanza.play.daily import daily_rules, day_text
from bonanza.play.leaderboard import ANONYMOUS
from bonanza.solver import solve
from bonanza.storage import SQLiteStorage
from bonanza.storage.protocol import DailyDeal
from bonanza.storage.records import rules_key
from tests.servers import Server, free_port

from .browser import Table
from .conftest import NEW_GAMES_PER_MINUTE
from .test_browser_cards import artifact

DAILY = Deal.from_number(5)
LINE = solve(DAILY, daily_rules(1)).moves
HOSTILE = "<img src=x onerror=f()>"
"""A name that would run script if the page put it in as HTML (``f`` is not defined: the
page's error would fail the test)."""
PLAY_LINE = """async ([gid, moves]) => {
    let state = null;
    for (const move of moves) {
        const r = await fetch(`/api/games/${gid}/moves`, {method: "POST",
            headers: {"Content-Type": "application/json"}, body: JSON.stringify({move})});
        state = await r.json();
        if (!r.ok) return state;
    }
    return state;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose daily deal of draw 1, today and tomorrow (UTC), is deal 5."""
    db = tmp_path_factory.mktemp("leaderboard") / "games.db"
    store = SQLiteStorage(db)
    today = datetime.datetime.now(datetime.UTC).date()
    for day in (today, today + datetime.timedelta(days=1)):
        store.set_daily_deal(DailyDeal(day_text(day), rules_key(daily_rules(1)), DAILY.id, "easy"))
    store.close()
    srv = Server(db, free_port(), args=("--new-games-per-minute", NEW_GAMES_PER_MINUTE)).start()
    yield srv
    srv.stop()


@pytest.fixture
def player(browser: Any, server: Server) -> Iterator[Any]:
    """Makes fresh players (each a browser context of its own: its own cookie)."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make() -> Table:
        context = browser.new_context(
            viewport={"width": 1280, "height": 800}, reduced_motion="reduce"
        )
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return Table(page, server.url).open()

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


def start(table: Table, body: dict[str, Any]) -> dict[str, Any]:
    answer = table.api("POST", "/api/games", body)
    assert answer["status"] == 201, answer
    return dict(answer["data"])


def play(table: Table, state: dict[str, Any], moves: Any) -> dict[str, Any]:
    """Play ``moves`` by the API, as this player, in one go; the last answer."""
    found = table.page.evaluate(PLAY_LINE, [state["id"], [format_move(m) for m in moves]])
    assert "error" not in found, found
    return dict(found)


def win(table: Table, body: dict[str, Any], pause: float = 0.0) -> dict[str, Any]:
    """Start ``body`` and win it with the line, pausing ``pause`` seconds halfway."""
    state = start(table, body)
    half = len(LINE) // 2
    play(table, state, LINE[:half])
    time.sleep(pause)
    won = play(table, state, LINE[half:])
    assert won["won"], won
    return won


TODAYS = {"daily": "today", "draw": 1}
SLOWER_BY = 1.0
"""Seconds the slow player waits mid-game beyond the fast win's whole time: a loaded
machine slows both players' moves alike (8.5 s each once, with a fixed 1.5 s wait)."""


def board_rows(table: Table, within: str, caption: str) -> list[list[str]]:
    """The rows of a shown board (``caption``: "Fastest" or "Fewest moves"), cell texts."""
    board = table.page.locator(f"{within} .leaderboard table.board", has_text=caption)
    board.first.wait_for()
    rows: list[list[str]] = board.first.locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    return rows


def test_the_daily_leaderboard_shows_only_first_unassisted_wins_fastest_first(
    player: Any,
) -> None:
    fast = player()
    fast_won = win(fast, TODAYS)
    named = fast.api("POST", "/api/daily/name", {"name": HOSTILE})
    assert named["data"] == {"name": HOSTILE}
    assisted = player()
    game = start(assisted, TODAYS)
    assert assisted.api("POST", f"/api/games/{game['id']}/winnable", {})["status"] == 200
    assert play(assisted, game, LINE)["assisted"]
    replayed = player()
    win(replayed, {"deal": DAILY.id})
    assert win(replayed, TODAYS)["origin"] == "replay"
    thoughtful = player()
    win(thoughtful, {"deal": DAILY.id, "rules": Rules(thoughtful=True).to_dict()})

    slow = player()  # the last move by the page: its own win dialog shows the board
    state = start(slow, TODAYS)
    play(slow, state, LINE[: len(LINE) // 2])
    time.sleep(fast_won["elapsed"] + SLOWER_BY)  # slower however long the fast win took
    play(slow, state, LINE[len(LINE) // 2 : -1])
    slow.open()
    game_so_far = Game(DAILY, daily_rules(1))
    for move in LINE[:-1]:
        game_so_far.play(move)
    slow.play(game_so_far, LINE[-1])
    slow_won = slow.wait_state(lambda now: now["status"] == "won")
    assert slow_won["elapsed"] > fast_won["elapsed"]
    page = slow.page
    page.locator("#dlg-win").wait_for(state="visible")
    rows = board_rows(slow, "#dlg-win", "Fastest")
    assert [row[:2] for row in rows] == [["1", HOSTILE], ["2", f"{ANONYMOUS} (you)"]]
    assert rows[0][3] == str(fast_won["moves"]) and rows[1][3] == str(slow_won["moves"])
    assert page.locator("#dlg-win img").count() == 0  # the name is text, not an image
    page.screenshot(path=artifact("leaderboard-win.png"))
    page.keyboard.press("Escape")

    page.locator("#btn-stats").click()  # the Statistics dialog shows today's boards
    rows = board_rows(slow, "#dlg-stats", "Fastest")
    assert [row[1] for row in rows] == [HOSTILE, f"{ANONYMOUS} (you)"]
    assert [row[1] for row in board_rows(slow, "#dlg-stats", "Fewest moves")] == [
        HOSTILE, f"{ANONYMOUS} (you)",  # the same moves: the faster first
    ]  # fmt: skip
    three = page.locator('#dlg-stats .board-part[data-draw="3"]')
    assert "No one has won" in three.inner_text()
    assert page.locator("#dlg-stats img").count() == 0
    name = page.locator('#dlg-stats input[name="display-name"]')
    assert name.get_attribute("placeholder") == ANONYMOUS and name.input_value() == ""
    name.fill("Zoë\u202e")
    name.press("Enter")  # saves; the dialog stays open
    page.wait_for_function(
        """() => [...document.querySelectorAll('#dlg-stats tr.you')]
            .some(r => r.cells[1].textContent === 'Zoë (you)')"""
    )
    assert page.locator("#dlg-stats").is_visible()
    assert name.input_value() == "Zoë"  # as the server stored it
    page.locator("#dlg-stats .leaderboard").scroll_into_view_if_needed()
    page.screenshot(path=artifact("leaderboard-stats.png"))
    assert fast.api("GET", "/api/daily/leaderboard?draw=1")["data"]["fastest"][1]["name"] == "Zoë"
