"""Phones on their side (issue 35): the whole table fits between the bars, so no card,
and above all no playable card, lies under a bar or out of sight, for a 17-card column
and for ten columns."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bonanza.core import Deal, Game, Rules, format_move

from .browser import Table

LANDSCAPES = ((844, 390), (667, 375), (932, 430))
"""Phones turned sideways, as players met them."""
LONG_COLUMN = 17
WESTCLIFF = Rules.preset("westcliff")


def long_column_game() -> tuple[str, list[str]]:
    """Deal 52 played at random (seed 0) until a column holds 17 cards."""
    rng = random.Random(0)
    game = Game(Deal.from_number(52), Rules.preset("klondike"))
    while max(len(column) for column in game.position.tableau) < LONG_COLUMN:
        moves = game.position.legal_moves()
        onto_columns = [move for move in moves if move.dest.is_tableau]
        game.play(rng.choice(onto_columns if onto_columns and rng.random() < 0.8 else moves))
    return "52", [format_move(move) for move in game.history]


def geometry_problems(table: Table) -> list[str]:
    """What a player on a short landscape screen could not see or reach."""
    problems: list[str] = table.page.evaluate(
        """() => {
            const problems = [];
            const area = document.getElementById('table');
            const box = area.getBoundingClientRect();
            const bars = [...document.querySelectorAll('.bar, .controls')]
                .map(e => e.getBoundingClientRect());
            if (area.scrollHeight > area.clientHeight + 1) problems.push('the table scrolls');
            for (const card of area.querySelectorAll('.card')) {
                const r = card.getBoundingClientRect();
                const name = `${card.dataset.card ?? 'back'} on pile ${card.dataset.pile}`;
                if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
                    problems.push(`${name} out of the table`);
                }
                for (const bar of bars) {
                    if (r.bottom > bar.top + 0.5 && r.top < bar.bottom - 0.5) {
                        problems.push(`${name} under a bar`);
                    }
                }
            }
            return problems;
        }"""
    )
    return problems


def playable_cards_whole(table: Table, state: dict[str, Any]) -> None:
    """Every column's top card (the one a player plays) is drawn whole and on top."""
    for column in state["position"]["columns"]:
        if not column["up"]:
            continue
        code = column["up"][-1]
        box = table.card(code)
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] - 4
        on_top = table.page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('.card')?.dataset.card ?? null",
            [x, y],
        )
        assert on_top == code, (code, on_top)


@pytest.mark.parametrize("size", LANDSCAPES, ids=[f"{w}x{h}" for w, h in LANDSCAPES])
def test_a_seventeen_card_column_fits_a_phone_on_its_side(phone: Table, size: Any) -> None:
    number, line = long_column_game()
    phone.page.set_viewport_size({"width": size[0], "height": size[1]})
    state = phone.start(number, None, line)
    assert max(c["down"] + len(c["up"]) for c in state["position"]["columns"]) >= LONG_COLUMN
    assert geometry_problems(phone) == []
    playable_cards_whole(phone, state)


@pytest.mark.parametrize("size", LANDSCAPES, ids=[f"{w}x{h}" for w, h in LANDSCAPES])
def test_ten_columns_fit_a_phone_on_its_side(phone: Table, size: Any) -> None:
    phone.page.set_viewport_size({"width": size[0], "height": size[1]})
    rng = random.Random(3)
    game = Game(Deal.from_number(3), WESTCLIFF)
    for _ in range(40):
        moves = [m for m in game.position.legal_moves() if not m.is_recycle]
        if not moves:
            break
        game.play(rng.choice(moves))
    state = phone.start("3", WESTCLIFF.to_dict(), [format_move(m) for m in game.history])
    assert len(state["position"]["columns"]) == 10
    assert geometry_problems(phone) == []
    playable_cards_whole(phone, state)
