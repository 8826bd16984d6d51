"""The Bonanza rules engine: standard library only, no I/O."""

from bonanza.core.cards import CARDS, Card, Rank, Suit
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
from bonanza.core.moves import Move, Pile
from bonanza.core.notation import describe_move, format_move, parse_move
from bonanza.core.position import Position
from bonanza.core.render import render
from bonanza.core.rules import PRESETS, EmptyColumn, Rules, Scoring

__all__ = [
    "CARDS",
    "PRESETS",
    "BonanzaError",
    "Card",
    "CardSyntaxError",
    "Deal",
    "DealError",
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
    "Suit",
    "describe_move",
    "format_move",
    "parse_move",
    "render",
]
