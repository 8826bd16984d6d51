"""The move counter and the score move with a move shown before its answer (js/optimistic.js),
as the server counts them; the answer's figures replace them, and a refused move brings the
old ones back.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from bonanza.core import Deal, Game, Rules
from bonanza.web.view import position_view, rules_views

from .browser import Table
from .test_browser_instant import PAGE_SCRIPT, hold, refuse, release


def preset(name: str, scoring: str) -> Rules:
    return Rules.from_dict({**Rules.preset(name).to_dict(), "scoring": scoring})


SCORINGS = {
    "standard, draw 1": Rules.from_dict({"draw": 1, "scoring": "standard"}),
    "standard, draw 3": Rules.from_dict({"draw": 3, "scoring": "standard"}),
    "timed": Rules.from_dict({"draw": 3, "scoring": "timed"}),
    "vegas": Rules.from_dict({"draw": 3, "scoring": "vegas", "passes": 3}),
    "vegas, two decks": preset("double-klondike-3", "vegas"),
    "thoughtful": preset("thoughtful", "standard"),
    "westcliff": preset("westcliff", "standard"),
}


@pytest.fixture
def still(table: Table) -> Table:
    """A player on a slow network (test_browser_instant's), who asks for reduced motion."""
    table.page.add_init_script(PAGE_SCRIPT)
    return table


GAMES = 2
MOVES = 150

# For each case (a state, and the count of moves and score after each of its legal moves):
# the moves whose predicted figures differ. Timed scoring may keep its score (the answer's).
COMPARE = """
async (cases) => {
  const { predict } = await import("/static/js/optimistic.js");
  const wrong = [];
  for (const { state, after } of cases) {
    state.position.legal.forEach((move, i) => {
      const guess = predict(state, move);
      const [moves, score] = after[i];
      const kept = state.rules.scoring === "timed" && guess.score === state.score;
      if (guess.moves !== moves || (guess.score !== score && !kept)) {
        const was = [state.moves, state.score];
        wrong.push({ move, was, guess: [guess.moves, guess.score], after: after[i] });
      }
    });
  }
  return wrong;
}
"""


def cases(rules: Rules, seed: int) -> list[Any]:
    """States of a random game, each with the moves and running score after each legal move."""
    rng = random.Random(seed)
    views = rules_views(rules)
    head = {"status": "playing", "rules": msgspec.to_builtins(views.data)}
    head["table"] = msgspec.to_builtins(views.table)
    game = Game(Deal.from_number(seed, rules.decks), rules)
    found: list[dict[str, Any]] = []
    for _ in range(MOVES):
        legal = game.position.legal_moves()
        if not legal:
            break
        after = []
        for move in legal:
            game.play(move)
            after.append([game.move_count, game.running_score])
            game.undo()
        position = msgspec.to_builtins(position_view(game.position))
        state = {**head, "position": position, "moves": game.move_count}
        found.append({"state": {**state, "score": game.running_score}, "after": after})
        # Recycles and cards back from home too, so every kind of points is met.
        game.play(rng.choice(legal))
    return found


@pytest.mark.parametrize("name", SCORINGS)
def test_the_page_counts_a_moves_points_as_the_server_does(still: Table, name: str) -> None:
    still.open()
    rules = SCORINGS[name]
    checked = 0
    for seed in range(GAMES):
        found = cases(rules, seed + 1)
        checked += len(found)
        wrong = still.page.evaluate(COMPARE, found)
        assert wrong == [], wrong[:3]
    assert checked > 100


def shown(table: Table) -> tuple[str, str]:
    """The move counter and the score, as the header shows them."""
    page = table.page
    return page.locator("#st-moves").inner_text(), page.locator("#st-score").inner_text()


def wait_shown(table: Table, figures: tuple[str, str]) -> None:
    table.page.wait_for_function(
        """([moves, score]) => document.getElementById('st-moves').textContent === moves
            && document.getElementById('st-score').textContent === score""",
        arg=list(figures),
    )


def test_the_counter_and_score_change_with_the_move_before_its_answer(still: Table) -> None:
    # Deal 0: A♣ tops column 4 over 3 cards face down: home (+10) and one turned up (+5).
    still.start("0", {"draw": 1, "scoring": "standard"})
    assert shown(still) == ("0", "0")
    hold(still)
    still.double_click_card("AC")
    wait_shown(still, ("1", "15"))  # before the answer: the card under the ace is still a back
    assert still.page.locator('.card.back[data-pile="3"]').count() == 3
    release(still)
    still.page.wait_for_selector('.card.face[data-pile="3"]')  # the answer came
    state = still.state()
    assert (state["moves"], state["score"]) == (1, 15)
    assert shown(still) == ("1", "15")


def test_vegas_dollars_and_the_bankroll_move_at_once(still: Table) -> None:
    still.start("0", {"draw": 1, "scoring": "vegas-cumulative"})
    bankroll = still.page.locator("#st-bankroll")
    before = bankroll.inner_text()
    start = shown(still)
    hold(still)
    still.double_click_card("AC")
    still.page.wait_for_function(
        "text => document.getElementById('st-moves').textContent === '1'"
        " && document.getElementById('st-bankroll').textContent !== text",
        arg=before,
    )
    guessed = shown(still)[1], bankroll.inner_text()
    release(still)
    still.page.wait_for_selector('.card.face[data-pile="3"]')
    state = still.state()
    assert state["score"] == -47  # -52, and 5 for the ace home
    assert guessed == (still.page.locator("#st-score").inner_text(), bankroll.inner_text())
    assert guessed[0] != start[1]


def test_a_refused_move_brings_the_counter_and_score_back(still: Table) -> None:
    still.start("0", {"draw": 1, "scoring": "standard"})
    hold(still)
    refuse(still)
    still.double_click_card("AC")
    wait_shown(still, ("1", "15"))
    release(still)
    still.page.locator("#toast").wait_for(state="visible")
    wait_shown(still, ("0", "0"))
    assert still.page.locator('.card[data-card="AC"]').get_attribute("data-pile") == "3"
