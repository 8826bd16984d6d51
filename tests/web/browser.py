"""Driving the page like a player: real pointer drags, clicks and keys in headless Chromium."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from playwright.sync_api import Page

from bonanza.core import Game, Move, Pile

STOCK = 7


class Table:
    """The game page, seen as piles and cards."""

    def __init__(self, page: Page, base: str) -> None:
        self.page = page
        self.base = base

    # -- loading ---------------------------------------------------------------

    def open(self, query: str = "") -> Table:
        self.page.goto(self.base + "/" + query)
        self.page.wait_for_selector("body[data-ready]")
        return self

    def reload(self) -> Table:
        self.page.reload()
        self.page.wait_for_selector("body[data-ready]")
        return self

    def api(self, method: str, path: str, body: Any = None) -> Any:
        """Call the API as this page's player (its cookie)."""
        return self.page.evaluate(
            """async ([method, path, body]) => {
                const init = {method, headers: {"Content-Type": "application/json"}};
                if (body !== null) init.body = JSON.stringify(body);
                const r = await fetch(path, init);
                return {status: r.status, data: await r.json()};
            }""",
            [method, path, body],
        )

    def start(
        self, deal: str, rules: dict[str, Any] | None = None, line: Sequence[str] = ()
    ) -> Any:
        """Start a game by API (optionally playing ``line``), then load the page on it."""
        self.open()
        answer = self.api("POST", "/api/games", {"deal": deal, "rules": rules})
        assert answer["status"] == 201, answer
        gid = answer["data"]["id"]
        for text in line:
            played = self.api("POST", f"/api/games/{gid}/moves", {"move": text})
            assert played["status"] == 200, played
        self.open()  # the page resumes the game in progress
        assert self.state()["id"] == gid
        return self.state()

    def state(self) -> Any:
        answer = self.api("GET", "/api/games/current")
        assert answer["status"] == 200, answer
        return answer["data"]

    def wait_state(self, ready: Callable[[Any], bool], timeout: float = 10.0) -> Any:
        """The server's current game, once ``ready`` accepts it."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            if ready(state):
                return state
            assert time.monotonic() < deadline, f"state never became ready: {state}"
            time.sleep(0.05)

    # -- reading -----------------------------------------------------------------

    def shown_moves(self) -> int:
        return int(self.page.locator("#st-moves").inner_text())

    def face_up_columns(self) -> list[list[str]]:
        """The face-up cards the page shows in each of the 7 columns, bottom first."""
        columns: list[list[str]] = self.page.evaluate(
            """() => [0, 1, 2, 3, 4, 5, 6].map(pile =>
                [...document.querySelectorAll(`.card.face[data-pile="${pile}"]`)]
                    .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
                    .map(e => e.dataset.card))"""
        )
        return columns

    def visible_text(self) -> str:
        """All a player could read of the page: its DOM, attributes included, and its URL."""
        return self.page.content() + "\n" + self.page.url

    def wait_moves(self, count: int, answered: bool = True) -> None:
        """Until the page counts ``count`` moves and (``answered``) shows no move or undo
        before its answer (the counter counts a move shown before its answer)."""
        self.page.wait_for_function(
            """([n, answered]) => document.getElementById('st-moves').textContent === String(n)
                && !(answered && document.getElementById('table').hasAttribute('data-waiting'))""",
            arg=[count, answered],
        )

    def slot(self, pile: int) -> Any:
        box = self.page.locator(f'.slot[data-pile="{pile}"]').bounding_box()
        assert box is not None
        return box

    def card(self, code: str) -> Any:
        box = self.page.locator(f'.card[data-card="{code}"]').bounding_box()
        assert box is not None, code
        return box

    # -- acting --------------------------------------------------------------------

    def click_stock(self) -> None:
        box = self.slot(STOCK)
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def grab_point(self, code: str) -> tuple[float, float]:
        box = self.card(code)
        return box["x"] + box["width"] / 2, box["y"] + min(8, box["height"] * 0.1)

    def click_card(self, code: str, clicks: int = 1) -> None:
        x, y = self.grab_point(code)
        self.page.mouse.click(x, y, click_count=clicks)

    def double_click_card(self, code: str) -> None:
        x, y = self.grab_point(code)
        self.page.mouse.dblclick(x, y)

    def drop_point(self, game: Game, pile: int) -> tuple[float, float]:
        position = game.position
        if pile < 7 and position.tableau[pile]:
            box = self.card(str(position.tableau[pile][-1]))
        else:
            box = self.slot(pile)
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def drag(self, code: str, to: tuple[float, float]) -> None:
        mouse = self.page.mouse
        x, y = self.grab_point(code)
        mouse.move(x, y)
        mouse.down()
        mouse.move(x + 8, y + 8, steps=2)
        mouse.move(to[0], to[1], steps=4)
        mouse.up()

    def play(self, game: Game, move: Move) -> None:
        """Play ``move`` as a player would: click the stock, else drag the card."""
        expected = game.move_count + 1
        if move.source == Pile.STOCK or move.dest == Pile.STOCK:
            self.click_stock()
        else:
            self.drag(moving_card(game, move), self.drop_point(game, move.dest))
        game.play(move)
        self.wait_moves(expected)


def moving_card(game: Game, move: Move) -> str:
    """The code of the card a move picks up (the deepest of a run)."""
    return str(game.position.moving_cards(move)[0])


def boxes_overlap(a: Any, b: Any) -> bool:
    return bool(
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )
