"""What the browser may see of a game: the one place games become answers (``wire``).

The visibility rule lives here. A face-down tableau card's identity and the
stock's cards are sent only under thoughtful rules; otherwise a face-down card
is counted, never named, and the stock is a count. The deal's number or code
(which rebuild every card) are sent only once the game is over.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from bonanza.core.cards import DECK_SIZE, MAX_DECKS, RANK_COUNT, SUIT_COUNT, Card
from bonanza.core.moves import Move
from bonanza.core.notation import format_move
from bonanza.core.position import Position
from bonanza.core.rules import Rules, Scoring, StockMode
from bonanza.session import Event, Session
from bonanza.web.rules_words import recycles_words, rule_terms
from bonanza.web.wire import (
    ColumnView,
    GameView,
    MoveData,
    PositionView,
    RulesData,
    RulesWords,
    Step,
    StockView,
    TableView,
)

CARD_TEXTS = tuple(str(Card(card % DECK_SIZE)) for card in range(MAX_DECKS * DECK_SIZE))
"""Each card's text, by its number: views name many cards per answer. A
second-deck card (52-103) reads as its twin: which deck a card came from is
never sent (it would tell where in the deal its twin lies)."""


def card_text(card: int) -> str:
    """The two-character text of a card, such as ``7H``."""
    return CARD_TEXTS[card]


@functools.cache  # a few thousand moves exist at most
def move_text(move: Move) -> str:
    """``format_move(move)``, which remembers each move's text: every answer spells
    the game's history."""
    return format_move(move)


@functools.cache  # a few thousand moves exist at most; the answers share them (frozen)
def move_data(move: Move) -> MoveData:
    """A move as the browser uses it: piles by number, plus its notation."""
    return MoveData(int(move.source), int(move.dest), move.count, move_text(move))


class RulesViews(NamedTuple):
    """What a game's answer says of its rules (made once per rule set, shared: frozen)."""

    data: RulesData
    label: str
    words: RulesWords
    table: TableView


@functools.lru_cache(maxsize=64)
def rules_views(rules: Rules) -> RulesViews:
    """The rules as ``Rules.to_dict`` writes them, ``str(rules)``, the page's words for
    them, and their table."""
    words = RulesWords(rules.label, rule_terms(rules), recycles_words(rules))
    data = msgspec.convert(rules.to_dict(), RulesData)
    return RulesViews(data, str(rules), words, table_view(rules))


def table_view(rules: Rules) -> TableView:
    """What the page lays out: the game's name and title, its columns and
    foundations, whether it has a waste, and what a move from the stock does."""
    return TableView(
        game=rules.game,
        title=rules.title,
        columns=rules.columns,
        foundations=rules.foundations,
        decks=rules.decks,
        waste=rules.stock_mode is StockMode.WASTE,
        stock=rules.stock_mode.value,
    )


def position_view(position: Position, legal: Sequence[Move] | None = None) -> PositionView:
    """The visible part of ``position``, with its legal moves (``legal``, if known)."""
    thoughtful = position.rules.thoughtful
    columns = []
    for column, down in zip(position.tableau, position.down, strict=True):
        entry = ColumnView(down, [CARD_TEXTS[c] for c in column[down:]])
        if thoughtful:
            entry.down_cards = [CARD_TEXTS[c] for c in column[:down]]
        columns.append(entry)
    stock = StockView(len(position.stock))
    if thoughtful:
        stock.cards = [CARD_TEXTS[c] for c in position.stock]
    foundations = [
        CARD_TEXTS[(index % SUIT_COUNT) * RANK_COUNT + home - 1] if home else None
        for index, home in enumerate(position.foundations)
    ]
    allowed = position.rules.recycles_allowed
    return PositionView(
        columns=columns,
        stock=stock,
        waste=[CARD_TEXTS[c] for c in position.waste],
        foundations=foundations,
        home=sum(position.foundations),
        recycles=position.recycles,
        recycles_left=None if allowed is None else max(0, allowed - position.recycles),
        legal=[move_data(m) for m in (position.legal_moves() if legal is None else legal)],
        passes_left=position.rules.passes_left(position.recycles),
    )


def game_view(game_id: str, session: Session, now: float, *, history: bool = True) -> GameView:
    """What the browser sees of a game at ``now`` (``history``: with the moves' texts,
    which grow with the game; an action's answer goes without them)."""
    game = session.game
    visible = position_view(game.position, game.legal_moves())
    rules = rules_views(game.rules)
    view = GameView(
        id=game_id,
        rules=rules.data,
        rules_label=rules.label,
        rules_words=rules.words,
        table=rules.table,
        status=str(session.status),
        origin=str(session.origin),
        won=game.is_won,
        position=visible,
        has_moves=bool(visible.legal),
        moves=game.move_count,
        score=session.score(now),
        timed=game.rules.scoring is Scoring.TIMED,
        elapsed=round(session.elapsed(now), 1),
        running=session.clock.running,
        idle_cap=round(session.clock.idle_left(now), 1),
        can_undo=session.can_undo,
        can_redo=session.can_redo,
        can_restart=session.can_restart,
        auto_finish=session.auto_move() is not None,
        assisted=session.assisted,
        safe_home=session.safe.on,
    )
    if history:
        view.history = game.history_texts
    if session.typed is not None:
        view.typed = session.typed
    if session.is_over:
        view.deal = game.deal.id
    return view


def steps(session: Session, event: Event) -> list[Step]:
    """The table after the player's move and after each automatic move but the
    last (the answer itself shows that one), for the page to show in turn."""
    shown = [event, *event.then[:-1]]
    positions = session.game.recent_positions(len(event.then) + 1)[:-1]
    return [
        Step(
            position=position_view(position),
            announce=step.text,
            last=move_data(step.move) if step.move is not None else None,
        )
        for step, position in zip(shown, positions, strict=True)
    ]
