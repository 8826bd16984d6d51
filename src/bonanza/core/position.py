"""A position: the cards on the table, its legal moves, and playing them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from bonanza.core.cards import CARDS, RANK_OF, RED, SUIT_OF, Card
from bonanza.core.deal import Deal
from bonanza.core.errors import IllegalMoveError
from bonanza.core.moves import Move, Pile
from bonanza.core.rules import EmptyColumn, Rules


def _parents(card: int) -> tuple[int, ...]:
    """The cards that ``card`` may be built on in the tableau."""
    rank, red = RANK_OF[card], RED[card]
    if rank == 13:
        return ()
    return tuple(c for c in range(52) if RANK_OF[c] == rank + 1 and RED[c] != red)


PARENTS: Final = tuple(_parents(card) for card in range(52))
_PILES: Final = tuple(Pile)
# Every move as one shared object: _MOVE[source][dest][count].
_MOVE: Final = tuple(
    tuple(tuple(Move(source, dest, count) for count in range(53)) for dest in _PILES)
    for source in _PILES
)
_STOCK, _WASTE, _FOUNDATION = 7, 8, 9
_WON: Final = [13, 13, 13, 13]


class Position:
    """The table at one moment, under a rule set.

    Columns list cards from the deepest up, and ``down[i]`` of them (at the
    bottom) are face down; a non-empty column always ends face up. The stock's
    next card to draw is its last; the waste's top card is its last;
    ``foundations[suit]`` is how many cards of that suit are home.
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
        """The opening position of ``deal``."""
        return cls(
            rules,
            [list(column) for column in deal.columns],
            list(range(7)),
            list(reversed(deal.stock)),
            [],
            [0, 0, 0, 0],
        )

    @classmethod
    def from_text(cls, text: str, rules: Rules) -> Position:
        """Read a position's text (see docs/engine.md)."""
        from bonanza.core.notation import parse_position

        return parse_position(text, rules)

    def to_text(self, *, hide: bool = False) -> str:
        """The position's one-line text; ``hide`` writes cards the player cannot see as ``?``."""
        from bonanza.core.notation import format_position

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
        from bonanza.core.render import render

        return render(self)

    # -- facts -------------------------------------------------------------

    def is_won(self) -> bool:
        return self.foundations == [13, 13, 13, 13]

    def wins_with(self, line: Iterable[Move]) -> bool:
        """Whether every move of ``line`` is legal in turn and it ends in a win
        (played on a copy; this position is left as it is)."""
        board = self.copy()
        for move in line:
            if move not in board.legal_moves():
                return False
            board.apply(move)
        return board.is_won()

    def has_moves(self) -> bool:
        """Whether any legal move is left."""
        return bool(self.legal_moves())

    def can_recycle(self) -> bool:
        """Whether the pass limit allows another recycle."""
        allowed = self.rules.recycles_allowed
        return allowed is None or self.recycles < allowed

    def card_at(self, pile: Pile) -> Card | None:
        """The top card of ``pile`` (the next card to draw, for the stock)."""
        if pile.is_foundation:
            home = self.foundations[pile - _FOUNDATION]
            return CARDS[(pile - _FOUNDATION) * 13 + home - 1] if home else None
        cards = (
            self.stock
            if pile == Pile.STOCK
            else self.waste
            if pile == Pile.WASTE
            else self.tableau[pile]
        )
        return cards[-1] if cards else None

    def moving_cards(self, move: Move) -> list[Card]:
        """The cards ``move`` would take from its source, deepest first."""
        source, _, count = move
        if source < _STOCK:
            return self.tableau[source][-count:]
        if source == _STOCK:
            return self.stock[: -count - 1 : -1]
        if source == _WASTE:
            return self.waste[::-1] if move.is_recycle else self.waste[-1:]
        card = self.card_at(source)
        return [card] if card is not None else []

    def is_legal(self, move: Move) -> bool:
        return move in self.legal_moves()

    # -- moves ---------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, in a fixed order; none once the game is won."""
        rules = self.rules
        tableau, down, foundations, waste = self.tableau, self.down, self.foundations, self.waste
        moves: list[Move] = []
        table = _MOVE
        any_to_empty = rules.empty_column is EmptyColumn.ANY
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
            top = column[-1]
            if foundations[SUIT_OF[top]] == RANK_OF[top] - 1:
                moves.append(table[index][_FOUNDATION + SUIT_OF[top]][1])
            first = down[index]
            size = len(column)
            last = size if rules.partial_runs else first + 1
            for at in range(first, last):
                card = column[at]
                for parent in PARENTS[card]:
                    dest = top_at.get(parent)
                    if dest is not None:
                        moves.append(table[index][dest][size - at])
                if empty and (any_to_empty or RANK_OF[card] == 13):
                    for dest in empty:
                        moves.append(table[index][dest][size - at])

        if waste:
            card = waste[-1]
            if foundations[SUIT_OF[card]] == RANK_OF[card] - 1:
                moves.append(table[_WASTE][_FOUNDATION + SUIT_OF[card]][1])
            self._to_tableau(card, _WASTE, top_at, empty, any_to_empty, moves)

        if rules.recall and foundations != _WON:
            for suit in range(4):
                home = foundations[suit]
                if home:
                    self._to_tableau(
                        suit * 13 + home - 1, _FOUNDATION + suit, top_at, empty, any_to_empty, moves
                    )

        if self.stock:
            moves.append(table[_STOCK][_WASTE][min(rules.draw, len(self.stock))])
        elif waste and self.can_recycle():
            moves.append(table[_WASTE][_STOCK][len(waste)])
        return moves

    @staticmethod
    def _to_tableau(
        card: int,
        source: int,
        top_at: dict[int, int],
        empty: list[int],
        any_to_empty: bool,
        moves: list[Move],
    ) -> None:
        for parent in PARENTS[card]:
            dest = top_at.get(parent)
            if dest is not None:
                moves.append(_MOVE[source][dest][1])
        if empty and (any_to_empty or RANK_OF[card] == 13):
            for dest in empty:
                moves.append(_MOVE[source][dest][1])

    def apply(self, move: Move) -> Card | None:
        """Play ``move`` without checking it; return the card it turned up, if any."""
        source, dest, count = move
        if dest == _STOCK:
            self.waste.reverse()
            self.stock, self.waste = self.waste, []
            self.recycles += 1
            return None
        if source == _STOCK:
            stock, waste = self.stock, self.waste
            for _ in range(count):
                waste.append(stock.pop())
            return None
        revealed = None
        if source < _STOCK:
            column = self.tableau[source]
            cards = column[-count:]
            del column[-count:]
            if column and len(column) == self.down[source]:
                self.down[source] -= 1
                revealed = column[-1]
        elif source == _WASTE:
            cards = [self.waste.pop()]
        else:
            suit = source - _FOUNDATION
            cards = [CARDS[suit * 13 + self.foundations[suit] - 1]]
            self.foundations[suit] -= 1
        if dest < _STOCK:
            self.tableau[dest].extend(cards)
        else:
            self.foundations[dest - _FOUNDATION] += 1
        return revealed

    def play(self, move: Move) -> Card | None:
        """Play ``move`` if it is legal; return the card it turned up, if any."""
        if move not in self.legal_moves():
            from bonanza.core.notation import format_move

            raise IllegalMoveError(
                f"{format_move(move)} is not legal in {self.to_text(hide=True)}: "
                f"{self.why_illegal(move)}"
            )
        return self.apply(move)

    def why_illegal(self, move: Move) -> str:
        """A short reason ``move`` is not legal here, naming only visible cards."""
        source, dest, count = move
        if count < 1:
            return "a move takes at least one card"
        if source == dest:
            return "a pile cannot move onto itself"
        if source == _STOCK:
            return (
                "the stock is empty"
                if not self.stock
                else f"a draw turns {min(self.rules.draw, len(self.stock))} cards"
            )
        if dest == _STOCK:
            if self.stock:
                return "the stock is not empty"
            if not self.waste:
                return "the waste is empty"
            if not self.can_recycle():
                return f"the pass limit ({self.rules.passes}) is reached"
            return f"a recycle turns all {len(self.waste)} waste cards"
        if dest == _WASTE:
            return "cards only reach the waste by drawing"
        cards = self.moving_cards(move)
        if not cards:
            return f"the {Pile(source).label} is empty"
        if source < _STOCK:
            column = self.tableau[source]
            if count > len(column) - self.down[source]:
                return (
                    f"{Pile(source).label} has only {len(column) - self.down[source]} face-up cards"
                )
            if not self.rules.partial_runs and count != len(column) - self.down[source]:
                return "only whole runs may move"
        elif source >= _FOUNDATION and not self.rules.recall:
            return "these rules do not allow cards back from a foundation"
        if count != 1 and (source >= _WASTE or dest >= _FOUNDATION):
            return "only one card moves at a time from there"
        card = cards[0]
        if dest >= _FOUNDATION:
            if SUIT_OF[card] != dest - _FOUNDATION:
                return f"{CARDS[card]} is not a {Pile(dest).label[:-11]} card"
            needed = "the next rank" if self.foundations[dest - _FOUNDATION] else "an ace"
            return f"the {Pile(dest).label} needs {needed}"
        target = self.tableau[dest]
        if not target:
            return f"only a king may fill an empty column, not {CARDS[card]}"
        return f"{CARDS[card]} does not go on {CARDS[target[-1]]}"
