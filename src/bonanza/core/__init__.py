"""The Bonanza rules engine: standard library only, no I/O."""

from bonanza.core.cards import ALL_CARDS, CARDS, Card, Rank, Suit, cards_of
from bonanza.core.deal import Deal
from bonanza.core.errors import (
    BonanzaError,
    CardSyntaxError,
    DealError,
    HistoryError,
    IllegalMoveError,
    InternalError,
    MoveSyntaxError,
    PositionSyntaxError,
    RulesError,
    SaveError,
)
from bonanza.core.game import Game
from bonanza.core.moves import ALL_PILES, Move, Pile
from bonanza.core.notation import describe_move, format_move, parse_move
from bonanza.core.position import Position
from bonanza.core.render import render
from bonanza.core.rules import (
    PRESETS,
    VARIANT_PRESETS,
    DealShape,
    EmptyColumn,
    Rules,
    Scoring,
    StockMode,
)

__all__ = [
    "ALL_CARDS",
    "ALL_PILES",
    "CARDS",
    "PRESETS",
    "VARIANT_PRESETS",
    "BonanzaError",
    "Card",
    "CardSyntaxError",
    "Deal",
    "DealError",
    "DealShape",
    "EmptyColumn",
    "Game",
    "HistoryError",
    "IllegalMoveError",
    "InternalError",
    "Move",
    "MoveSyntaxError",
    "Pile",
    "Position",
    "PositionSyntaxError",
    "Rank",
    "Rules",
    "RulesError",
    "SaveError",
    "Scoring",
    "StockMode",
    "Suit",
    "cards_of",
    "describe_move",
    "format_move",
    "parse_move",
    "render",
]
