"""A position: the cards on the table, its legal moves, and playing them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from bonanza.core.cards import (
    ALL_CARDS,
    CARDS,
    DECK_SIZE,
    MAX_DECKS,
    RANK_COUNT,
    RANK_OF,
    RED,
    SUIT_COUNT,
    SUIT_OF,
    Card,
)
from bonanza.core.deal import Deal
from bonanza.core.errors import DealError, IllegalMoveError
from bonanza.core.illegal import why_illegal
from bonanza.core.moves import (
    ALL_COLUMNS,
    ALL_FOUNDATIONS,
    ALL_PILES,
    COLUMN_INDEX,
    FOUNDATION_INDEX,
    Move,
    Pile,
)
from bonanza.core.notation import format_move, format_position, read_position
from bonanza.core.render import render
from bonanza.core.rules import EmptyColumn, Rules, StockMode
from bonanza.core.runs import run_start


def _parents_table(cards: int) -> tuple[tuple[int, ...], ...]:
    """For each card id below ``cards``, the ids below ``cards`` it may be built on
    in the tableau (a rank higher, the other colour), in increasing order."""
    by_rank_and_colour: dict[tuple[int, bool], list[int]] = {}
    for card in range(cards):
        by_rank_and_colour.setdefault((RANK_OF[card], RED[card]), []).append(card)
    return tuple(
        tuple(by_rank_and_colour.get((RANK_OF[card] + 1, not RED[card]), ()))
        for card in range(cards)
    )


PARENTS: Final = _parents_table(DECK_SIZE)
"""One deck: the cards each card may be built on."""
PARENTS_TWO_DECKS: Final = _parents_table(len(ALL_CARDS))
"""Two decks: the cards (twins included) each card may be built on."""
_PARENTS_OF_DECKS: Final = {1: PARENTS, MAX_DECKS: PARENTS_TWO_DECKS}


class _MovesOfPair(dict[int, Move]):
    """One (source, dest) pair's moves by count, each made once, when first asked for.

    Made lazily: the whole table holds over 20,000 moves, and building them all cost
    a fifth of the CPU time of `bonanza solve 7`'s start-up."""

    __slots__ = ("dest", "source")

    def __init__(self, source: Pile, dest: Pile) -> None:
        super().__init__()
        self.source, self.dest = source, dest

    def __missing__(self, count: int) -> Move:
        move = self[count] = Move(self.source, self.dest, count)
        return move


# Every move as one shared object: _MOVE[source][dest][count].
_MOVE: Final = tuple(
    tuple(_MovesOfPair(source, dest) for dest in ALL_PILES) for source in ALL_PILES
)
_STOCK, _WASTE = Pile.STOCK, Pile.WASTE
_COLUMNS, _FOUNDATIONS = ALL_COLUMNS, ALL_FOUNDATIONS
_WON: Final = tuple([RANK_COUNT] * SUIT_COUNT * decks for decks in range(1, MAX_DECKS + 1))
"""The foundations of a won game, by decks - 1."""


def home_cards(foundations: list[int]) -> set[int]:
    """The ids of the cards on the foundations. With two decks, a rank home
    once is always the twin ``c + 52`` (``Position.apply`` keeps it so)."""
    if len(foundations) == SUIT_COUNT:  # one deck: each foundation holds its suit's lowest ranks
        return {
            suit * RANK_COUNT + rank
            for suit, height in enumerate(foundations)
            for rank in range(height)
        }
    cards: set[int] = set()
    for suit in range(SUIT_COUNT):
        for rank in range(1, RANK_COUNT + 1):
            card = suit * RANK_COUNT + rank - 1
            home = sum(height >= rank for height in foundations[suit::SUIT_COUNT])
            if home == 2:
                cards.update((card, card + DECK_SIZE))
            elif home == 1:
                cards.add(card + DECK_SIZE if len(foundations) > SUIT_COUNT else card)
    return cards


class Position:
    """The table at one moment, under a rule set.

    Columns list cards from the deepest up, and ``down[i]`` of them (at the
    bottom) are face down; a non-empty column always ends face up. The stock's
    next card to draw is its last; the waste's top card is its last;
    ``foundations[deck * 4 + suit]`` is how many cards of that suit are home there.
    """

    __slots__ = ("down", "foundations", "recycles", "rules", "stock", "tableau", "waste")

    def __init__(
        self,
        rules: Rules,
        tableau: list[list[Card]],
        down: list[int],
        stock: list[Card],
        waste: list[Card],
        foundations: list[int],
        recycles: int = 0,
    ) -> None:
        self.rules = rules
        self.tableau = tableau
        self.down = down
        self.stock = stock
        self.waste = waste
        self.foundations = foundations
        self.recycles = recycles

    @classmethod
    def initial(cls, deal: Deal, rules: Rules) -> Position:
        """The opening position of ``deal`` (its layout under ``rules``)."""
        if deal.decks != rules.decks:
            raise DealError(
                f"deal {deal.id} has {len(deal.cards)} cards but {rules.game} plays "
                f"{rules.card_count}"
            )
        layout = deal.layout(rules)
        return cls(
            rules,
            [list(column) for column in layout.columns],
            list(layout.down),
            list(reversed(layout.stock)),
            list(layout.waste),
            [0] * rules.foundations,
        )

    @classmethod
    def from_text(cls, text: str, rules: Rules) -> Position:
        """Read a position's text (see docs/engine.md)."""
        return cls(rules, *read_position(text, rules))

    def to_text(self, *, hide: bool = False) -> str:
        """The position's one-line text; ``hide`` writes cards the player cannot see as ``?``."""
        return format_position(self, hide=hide)

    def copy(self) -> Position:
        return Position(
            self.rules,
            [column[:] for column in self.tableau],
            self.down[:],
            self.stock[:],
            self.waste[:],
            self.foundations[:],
            self.recycles,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[object, ...]:
        return (
            self.rules,
            tuple(map(tuple, self.tableau)),
            tuple(self.down),
            tuple(self.stock),
            tuple(self.waste),
            tuple(self.foundations),
            self.recycles,
        )

    def __repr__(self) -> str:
        return f"Position.from_text({self.to_text()!r}, {self.rules!r})"

    def __str__(self) -> str:
        return render(self)

    # -- facts -------------------------------------------------------------

    def is_won(self) -> bool:
        return self.foundations == _WON[self.rules.decks - 1]

    def wins_with(self, line: Iterable[Move]) -> bool:
        """Whether every move of ``line`` is legal in turn and it ends in a win
        (played on a copy; this position is left as it is)."""
        board = self.copy()
        for move in line:
            if not board.is_legal(move):
                return False
            board.apply(move)
        return board.is_won()

    def has_moves(self) -> bool:
        """Whether any legal move is left (``bool(legal_moves())``, without making
        the list when the stock can be turned: a draw, a deal or a recycle)."""
        if self.foundations == _WON[self.rules.decks - 1]:
            return False
        if self.stock or (self.waste and self.can_recycle()):
            return True
        return bool(self.legal_moves())

    def can_recycle(self) -> bool:
        """Whether the pass limit allows another recycle."""
        allowed = self.rules.recycles_allowed
        return allowed is None or self.recycles < allowed

    def home_cards(self) -> set[int]:
        """The cards on the foundations."""
        return home_cards(self.foundations)

    def _home_card(self, index: int) -> Card | None:
        """The top card of foundation ``index``. With two decks a rank home
        once is the twin ``c + 52``; when both are home, ``c`` comes off first."""
        home = self.foundations[index]
        if not home:
            return None
        suit = index % SUIT_COUNT
        card = suit * RANK_COUNT + home - 1
        if self.rules.decks == 1:
            return CARDS[card]
        both = sum(height >= home for height in self.foundations[suit::SUIT_COUNT]) > 1
        return ALL_CARDS[card if both else card + DECK_SIZE]

    def _send_home(self, card: Card, index: int) -> None:
        """Put ``card`` on foundation ``index``; with two decks, keep the rule
        that a rank home once is the twin ``c + 52`` by swapping the twins'
        ids (they look and play alike)."""
        self.foundations[index] += 1
        if card >= DECK_SIZE or len(self.foundations) == SUIT_COUNT:
            return
        suit = index % SUIT_COUNT
        if sum(height >= RANK_OF[card] for height in self.foundations[suit::SUIT_COUNT]) > 1:
            return
        twin = ALL_CARDS[card + DECK_SIZE]
        for pile in (*self.tableau, self.stock, self.waste):
            if twin in pile:
                pile[pile.index(twin)] = card
                return

    def card_at(self, pile: Pile) -> Card | None:
        """The top card of ``pile`` (the next card to draw, for the stock)."""
        if pile.is_foundation:
            return self._home_card(pile.foundation_index)
        cards = (
            self.stock
            if pile == Pile.STOCK
            else self.waste
            if pile == Pile.WASTE
            else self.tableau[COLUMN_INDEX[pile]]
        )
        return cards[-1] if cards else None

    def moving_cards(self, move: Move) -> list[Card]:
        """The cards ``move`` would take from its source, deepest first (for a
        draw or a deal, in the order they are turned)."""
        source, _, count = move
        index = COLUMN_INDEX[source]
        if index >= 0:
            return self.tableau[index][-count:]
        if source == _STOCK:
            return self.stock[: -count - 1 : -1]
        if source == _WASTE:
            return self.waste[::-1] if move.is_recycle else self.waste[-1:]
        card = self.card_at(source)
        return [card] if card is not None else []

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is one of ``legal_moves()``, tested for that move alone
        (the same rules, without making every move)."""
        source, dest, count = move
        rules = self.rules
        foundations = self.foundations
        if foundations == _WON[rules.decks - 1]:
            return False
        stock, waste = self.stock, self.waste
        if source == _STOCK:
            if not stock:
                return False
            if rules.stock_mode is StockMode.EVERY_COLUMN:
                return dest == Pile.T1 and count == min(len(self.tableau), len(stock))
            return dest == _WASTE and count == min(rules.draw, len(stock))
        if dest == _STOCK:
            return (
                source == _WASTE
                and not stock
                and bool(waste)
                and count == len(waste)
                and self.can_recycle()
            )
        if count != 1 and not (COLUMN_INDEX[source] >= 0 and COLUMN_INDEX[dest] >= 0):
            return False  # one card at a time but between columns
        index = COLUMN_INDEX[source]
        if index >= 0:
            if index >= len(self.tableau):
                return False
            column = self.tableau[index]
            size = len(column)
            if not 1 <= count <= size:
                return False
            if FOUNDATION_INDEX[dest] >= 0:
                return self._goes_home(column[-1], FOUNDATION_INDEX[dest])
            down = self.down[index]
            first = run_start(column, down) if rules.stock_mode is StockMode.EVERY_COLUMN else down
            last = size if rules.partial_runs else first + 1
            at = size - count
            return first <= at < last and self._fits(column[at], dest)
        if source == _WASTE:
            if not waste:
                return False
            if FOUNDATION_INDEX[dest] >= 0:
                return self._goes_home(waste[-1], FOUNDATION_INDEX[dest])
            return self._fits(waste[-1], dest)
        home = FOUNDATION_INDEX[source]
        if not rules.recall or home >= len(foundations) or not foundations[home]:
            return False
        return self._fits(home % SUIT_COUNT * RANK_COUNT + foundations[home] - 1, dest)

    def _goes_home(self, card: int, home: int) -> bool:
        """Whether ``card`` may go onto foundation ``home`` (as ``legal_moves`` has it)."""
        suit = SUIT_OF[card]
        if home != suit and not (len(self.foundations) > SUIT_COUNT and home == suit + SUIT_COUNT):
            return False
        return self.foundations[home] == RANK_OF[card] - 1

    def _fits(self, card: int, dest: Pile) -> bool:
        """Whether ``card`` (with what lies on it) may go onto column ``dest``
        (as ``legal_moves`` has it)."""
        index = COLUMN_INDEX[dest]
        if not 0 <= index < len(self.tableau):
            return False
        column = self.tableau[index]
        if column:
            return column[-1] in _PARENTS_OF_DECKS[self.rules.decks][card]
        return self.rules.empty_column is EmptyColumn.ANY or RANK_OF[card] == RANK_COUNT

    # -- moves ---------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, in a fixed order; none once the game is won."""
        rules = self.rules
        tableau, down, foundations, waste = self.tableau, self.down, self.foundations, self.waste
        if foundations == _WON[rules.decks - 1]:
            return []
        moves: list[Move] = []
        table = _MOVE
        parents = _PARENTS_OF_DECKS[rules.decks]
        count = len(foundations)
        two_decks = count > SUIT_COUNT
        any_to_empty = rules.empty_column is EmptyColumn.ANY
        loose = rules.stock_mode is StockMode.EVERY_COLUMN  # face-up cards need not be a run
        top_at: dict[int, int] = {}
        empty: list[int] = []
        for index, column in enumerate(tableau):
            if column:
                top_at[column[-1]] = index
            else:
                empty.append(index)

        for index, column in enumerate(tableau):
            if not column:
                continue
            pile = _COLUMNS[index]
            top = column[-1]
            suit = SUIT_OF[top]
            if foundations[suit] == RANK_OF[top] - 1:
                moves.append(table[pile][_FOUNDATIONS[suit]][1])
            if two_decks and foundations[suit + SUIT_COUNT] == RANK_OF[top] - 1:
                moves.append(table[pile][_FOUNDATIONS[suit + SUIT_COUNT]][1])
            first = run_start(column, down[index]) if loose else down[index]
            size = len(column)
            last = size if rules.partial_runs else first + 1
            for at in range(first, last):
                card = column[at]
                for parent in parents[card]:
                    dest = top_at.get(parent)
                    if dest is not None:
                        moves.append(table[pile][_COLUMNS[dest]][size - at])
                if empty and (any_to_empty or RANK_OF[card] == RANK_COUNT):
                    for dest in empty:
                        moves.append(table[pile][_COLUMNS[dest]][size - at])

        if waste:
            card = waste[-1]
            suit = SUIT_OF[card]
            if foundations[suit] == RANK_OF[card] - 1:
                moves.append(table[_WASTE][_FOUNDATIONS[suit]][1])
            if two_decks and foundations[suit + SUIT_COUNT] == RANK_OF[card] - 1:
                moves.append(table[_WASTE][_FOUNDATIONS[suit + SUIT_COUNT]][1])
            _to_tableau(card, _WASTE, parents, top_at, empty, any_to_empty, moves)

        if rules.recall:
            for home in range(count):
                height = foundations[home]
                if height:
                    base = home % SUIT_COUNT * RANK_COUNT + height - 1  # a twin would do as well
                    _to_tableau(
                        base, _FOUNDATIONS[home], parents, top_at, empty, any_to_empty, moves
                    )

        if self.stock:
            if loose:
                moves.append(table[_STOCK][Pile.T1][min(len(tableau), len(self.stock))])
            else:
                moves.append(table[_STOCK][_WASTE][min(rules.draw, len(self.stock))])
        elif waste and self.can_recycle():
            moves.append(table[_WASTE][_STOCK][len(waste)])
        return moves

    def apply(self, move: Move) -> Card | None:
        """Play ``move`` without checking it; return the card it turned up, if any."""
        source, dest, count = move
        if dest == _STOCK:
            self.waste.reverse()
            self.stock, self.waste = self.waste, []
            self.recycles += 1
            return None
        if source == _STOCK:
            stock = self.stock
            if dest == _WASTE:
                waste = self.waste
                for _ in range(count):
                    waste.append(stock.pop())
            else:  # a deal onto the first ``count`` columns
                for column in self.tableau[:count]:
                    column.append(stock.pop())
            return None
        revealed = None
        index = COLUMN_INDEX[source]
        if index >= 0:
            column = self.tableau[index]
            cards = column[-count:]
            del column[-count:]
            if column and len(column) == self.down[index]:
                self.down[index] -= 1
                revealed = column[-1]
        elif source == _WASTE:
            cards = [self.waste.pop()]
        else:
            home = source.foundation_index
            card = self._home_card(home)
            assert card is not None, "a move from an empty foundation"
            cards = [card]
            self.foundations[home] -= 1
        index = COLUMN_INDEX[dest]
        if index >= 0:
            self.tableau[index].extend(cards)
        else:
            self._send_home(cards[0], FOUNDATION_INDEX[dest])
        return revealed

    def play(self, move: Move) -> Card | None:
        """Play ``move`` if it is legal; return the card it turned up, if any."""
        if not self.is_legal(move):
            raise IllegalMoveError(
                f"{format_move(move)} is not legal in {self.to_text(hide=True)}: "
                f"{self.why_illegal(move)}"
            )
        return self.apply(move)

    def why_illegal(self, move: Move) -> str:
        """A short reason ``move`` is not legal here, naming only visible cards."""
        return why_illegal(self, move)


def _to_tableau(
    card: int,
    source: Pile,
    parents: tuple[tuple[int, ...], ...],
    top_at: dict[int, int],
    empty: list[int],
    any_to_empty: bool,
    moves: list[Move],
) -> None:
    """The moves of one card from ``source`` to the columns."""
    for parent in parents[card]:
        dest = top_at.get(parent)
        if dest is not None:
            moves.append(_MOVE[source][_COLUMNS[dest]][1])
    if empty and (any_to_empty or RANK_OF[card] == RANK_COUNT):
        for dest in empty:
            moves.append(_MOVE[source][_COLUMNS[dest]][1])
