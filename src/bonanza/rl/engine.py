"""The C batch engine behind both environments, with its numpy buffers.

``Engine`` owns N games in ``_batch.Batch`` and the arrays the engine writes
into: ``obs`` (N x observation size), ``mask`` (N x action count, 615 in
Klondike), ``reward``, ``terminated`` and ``truncated`` (N each). It also
converts between the engine and ``bonanza.core``: deals in, positions out.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any, NoReturn, SupportsIndex, TypeAlias

import numpy as np

from bonanza.core.cards import ALL_CARDS, Card
from bonanza.core.deal import Deal
from bonanza.core.errors import DealError
from bonanza.core.position import Position
from bonanza.core.rules import DealShape, EmptyColumn, Rules, StockMode
from bonanza.rl import observation
from bonanza.rl._batch import Batch
from bonanza.rl.actions import ActionError, numbering
from bonanza.rl.observation import Visibility
from bonanza.rl.rewards import (
    ILLEGAL_ACTIONS,
    ILLEGAL_PENALTY,
    IllegalAction,
    RewardShaping,
    illegal_penalty_of,
)

DealId: TypeAlias = Deal | int | str
"""A deal as an option: a ``Deal``, a deal number, or a deal ID's text."""
RulesLike: TypeAlias = Rules | str
"""Rules as an option: a ``Rules``, a preset name or ``Rules.to_text()``'s form."""

NO_LIMIT = -1
"""``recycles_allowed`` for unlimited passes."""
INT64_MAX = 2**63 - 1
"""The largest action the engine reads (a C ``int64_t``)."""
C_INT_MAX = 2**31 - 1
"""The largest number the engine's counts hold (a C ``int``). More recycles
than this are never made, so more passes play as this many."""


def rules_of(rules: RulesLike) -> Rules:
    """Read rules given as a ``Rules``, a preset name or a rules text: Klondike's
    or a relative's (any table ``bonanza.core`` plays)."""
    if isinstance(rules, Rules):
        return rules
    if not isinstance(rules, str):
        raise TypeError(f"rules must be a Rules, a preset name or a rules text, not {rules!r}")
    return Rules.from_text(rules)


def count_of(value: object, name: str, or_none: bool = False) -> int:
    """``value`` as a count from 1 to ``C_INT_MAX``, else a ``TypeError`` or
    ``ValueError`` naming ``name`` (and ``None``, if ``or_none``)."""
    none = ", or None" if or_none else ""
    try:
        count = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        count = None
    if count is None or isinstance(value, bool):
        raise TypeError(f"{name} must be a whole number{none}, not {value!r}")
    if not 1 <= count <= C_INT_MAX:
        raise ValueError(f"{name} must be at least 1 and at most {C_INT_MAX}{none}, not {count}")
    return count


def flag_of(value: object, name: str) -> bool:
    """``value`` as a flag: ``True`` or ``False`` only (a string such as
    ``"False"`` would read as true), else a ``TypeError`` naming ``name``."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be True or False, not {value!r}")
    return bool(value)


def options_of(options: object, known: tuple[str, ...]) -> Mapping[str, Any]:
    """``reset``'s options: a mapping of ``known`` keys only (a misspelt key would
    be ignored without a word), or ``None`` for none."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict or None, not {options!r}")
    unknown = sorted(repr(key) for key in options if key not in known)
    if unknown:
        names = ", ".join(map(repr, known))
        raise ValueError(f"unknown reset options {', '.join(unknown)}: the options are {names}")
    return options


def deal_of(value: DealId, decks: int = 1) -> Deal:
    """Read a deal of ``decks`` decks given as a ``Deal``, a deal number (deal
    algorithm 2 for two decks), a deal code or a listing."""
    if isinstance(value, Deal):
        found = value
    elif isinstance(value, int | np.integer) and not isinstance(value, bool):
        return Deal.from_number(int(value), decks)
    elif isinstance(value, str):
        return Deal.parse(value, decks)
    else:
        raise TypeError(f"a deal is a Deal, a deal number or a deal code, not {value!r}")
    if found.decks != decks:
        raise DealError(f"deal {found.id} has {found.decks} deck(s), not {decks}")
    return found


def int64_actions(chosen: np.ndarray, count: int) -> np.ndarray:
    """Whole-number actions, one per game, as the engine's ``int64`` array; an
    unsigned action too big for it is refused (cast, it would read negative)."""
    flat = chosen.reshape(-1)
    if chosen.dtype.kind == "u":
        too_big = np.flatnonzero(flat > INT64_MAX).tolist()
        if too_big:
            game = too_big[0]
            raise ActionError(
                f"game {game}: action {int(flat[game])} is not a number from 0 to {count - 1}"
            )
    return np.ascontiguousarray(flat, dtype=np.int64)


def refuse_copy() -> NoReturn:
    """Refuse to pickle or copy an environment: its games live in C, so a
    shallow copy would play the same games as the original."""
    raise TypeError(
        "an environment of bonanza.rl cannot be pickled or copied: its games live in "
        "the C engine; make a new one and reset it with options={'deal': env.deal}"
    )


class Engine:
    """N games on the C engine under one rule set."""

    def __init__(
        self,
        games: int,
        rules: Rules,
        visibility: Visibility,
        max_steps: int | None,
        reward_shaping: RewardShaping | Mapping[str, float] | None,
        illegal_action: IllegalAction = "raise",
        illegal_penalty: float = ILLEGAL_PENALTY,
    ) -> None:
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_ACTIONS}, not {illegal_action!r}"
            )
        if visibility not in observation.VISIBILITIES:
            raise ValueError(
                f"observation must be one of {observation.VISIBILITIES}, not {visibility!r}"
            )
        steps = None if max_steps is None else count_of(max_steps, "max_steps", or_none=True)
        shaping = RewardShaping.of(reward_shaping)
        penalty = illegal_penalty_of(illegal_penalty)
        self.rules = rules
        self.visibility = visibility
        self.layout = observation.layout(rules)
        self.numbering = numbering(rules)
        self.obs = np.zeros((games, self.layout.size), dtype=np.int8)
        self.mask = np.zeros((games, self.numbering.count), dtype=np.int8)
        self.reward = np.zeros(games, dtype=np.float64)
        self.terminated = np.zeros(games, dtype=np.bool_)
        self.truncated = np.zeros(games, dtype=np.bool_)
        self.codes: list[str | None] = [None] * games  # a deal given by code, per game
        allowed = rules.recycles_allowed
        self.batch = Batch(
            self.obs,
            self.mask,
            self.reward,
            self.terminated,
            self.truncated,
            draw=rules.draw,
            recycles_allowed=NO_LIMIT if allowed is None else min(allowed, C_INT_MAX),
            any_empty=rules.empty_column is EmptyColumn.ANY,
            recall=rules.recall,
            partial=rules.partial_runs,
            all_visible=rules.thoughtful or visibility == "thoughtful",
            max_steps=steps or 0,
            home_reward=shaping.home,
            turned_reward=shaping.turned,
            decks=rules.decks,
            columns=rules.columns,
            staircase=rules.deal_shape is DealShape.STAIRCASE,
            every_column=rules.stock_mode is StockMode.EVERY_COLUMN,
            waste_start=rules.waste_start,
            penalize=illegal_action == "penalize",
            illegal_penalty=penalty,
        )
        for array in (self.obs, self.mask, self.reward, self.terminated, self.truncated):
            array.flags.writeable = False  # only the engine writes them

    def __reduce_ex__(self, protocol: SupportsIndex) -> NoReturn:
        """Refuse ``pickle`` and ``copy`` (of an environment too) by name: the
        games live in C."""
        refuse_copy()

    def deal(self, game: int, deal: DealId) -> Deal:
        """Deal ``game`` the opening of ``deal``; return it as a ``Deal``."""
        found = deal_of(deal, self.rules.decks)
        self.batch.deal(game, bytes(found.cards), found.number)
        self.codes[game] = found.code if found.number is None else None
        return found

    def deal_id(self, game: int) -> str:
        """The ID of the deal ``game`` is playing, as ``Deal.id``: its number, else its code."""
        number = self.deal_number(game)
        code = self.codes[game]
        return str(number) if number is not None or code is None else code

    def deal_number(self, game: int) -> int | None:
        """The deal number ``game`` is playing (``None`` for a deal given by code)."""
        return self.batch.state(game)[-1]

    def position(self, game: int) -> Position:
        """The position of ``game`` as a ``bonanza.core`` position."""
        columns, down, stock, waste, home, recycles, _, _ = self.batch.state(game)
        return Position(
            self.rules,
            [_cards(column) for column in columns],
            down,
            _cards(stock),
            _cards(waste),
            home,
            recycles,
        )


def _cards(numbers: list[int]) -> list[Card]:
    return [ALL_CARDS[number] for number in numbers]
