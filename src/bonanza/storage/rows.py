"""A game record as a table row and back: the columns every backend stores.

``state`` and ``extra`` are JSON text; ``status`` and ``origin`` their words. The
flags (``archived``, ``assisted``) are written as ``flag(value)``: ``int`` for
SQLite's integers, ``bool`` for PostgreSQL's booleans.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from bonanza.core.rules import Rules
from bonanza.session.status import Origin, Status
from bonanza.storage.records import GameRecord, rules_of_key

FIELDS = (
    "id",
    "player",
    "deal",
    "rules_key",
    "state",
    "status",
    "origin",
    "created_at",
    "started_at",
    "finished_at",
    "elapsed",
    "moves",
    "score",
    "cards_home",
    "archived",
    "version",
    "client",
    "assisted",
    "extra",
)
COLUMNS = ", ".join(FIELDS)
IDENTITY_FIELDS = ("id", "player", "deal", "rules_key", "created_at", "client")
"""A game's identity: what its insert sets and no update changes (``Storage.update_game``)."""
UPDATED_FIELDS = tuple(name for name in FIELDS if name not in IDENTITY_FIELDS)
"""What an update of a game writes, in this order (``updated_values``)."""
_UPDATED_AT = tuple(FIELDS.index(name) for name in UPDATED_FIELDS)
SUMMARY_COLUMNS = COLUMNS.replace("state,", "'{}',")
"""The columns, with an empty state in place of the state (statistics do not need it)."""
FOLDED_COLUMNS = COLUMNS.replace(" state,", "")
"""The columns of ``folded_games`` (but its ``seq``): a pruned game keeps every column but
its state. ``SUMMARY_COLUMNS`` reads it as it reads ``games``."""
FINISHED_STATUSES = (str(Status.WON), str(Status.LOST))
"""The games the statistics count (``finished_games``)."""
OVER_STATUSES = (*FINISHED_STATUSES, str(Status.ABANDONED))
"""The games that are over: the ones pruning may fold."""


def on_same_table(keys: list[str], rules: Rules) -> bool:
    """Whether any of these rules keys is of a table laid out as ``rules``'s."""
    return any(rules_of_key(key).same_table(rules) for key in keys)


_ENCODER = msgspec.json.Encoder()
"""Writes the saved state as compact JSON, some ten times faster than ``json.dumps``
(every move rewrites it)."""
_DECODER = msgspec.json.Decoder()
"""Reads it back (and rows ``json.dumps`` wrote before) to the same values as
``json.loads``, about twice as fast: a game another process changed is read again."""


def _json(value: Any) -> str:
    return _ENCODER.encode(value).decode()


def game_row(record: GameRecord, flag: Callable[[bool], Any] = int) -> tuple[Any, ...]:
    """The values of :data:`FIELDS` for ``record``."""
    values = {name: getattr(record, name) for name in FIELDS}
    values.update(
        state=_json(record.state),
        status=str(record.status),
        origin=str(record.origin),
        archived=flag(record.archived),
        assisted=flag(record.assisted),
        extra=_json(record.extra),
    )
    return tuple(values[name] for name in FIELDS)


def updated_values(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """The values of :data:`UPDATED_FIELDS` in ``row``, a :func:`game_row`."""
    return tuple(row[index] for index in _UPDATED_AT)


def game_record(row: tuple[Any, ...]) -> GameRecord:
    """The record a row of :data:`FIELDS` holds."""
    values = dict(zip(FIELDS, row, strict=True))
    values.update(
        state=_DECODER.decode(values["state"]),
        status=Status(values["status"]),
        origin=Origin(values["origin"]),
        archived=bool(values["archived"]),
        assisted=bool(values["assisted"]),
        extra=_DECODER.decode(values["extra"]),
    )
    return GameRecord(**values)
