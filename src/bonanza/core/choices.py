"""An enum's member read from saved data, refused in words a user can read."""

from __future__ import annotations

import enum
from typing import TypeVar

Choice = TypeVar("Choice", bound=enum.Enum)


def enum_member(kind: type[Choice], value: object, what: str) -> Choice:
    """The member of ``kind`` whose value is ``value``; else ``ValueError`` naming
    ``what`` (the field, as the data names it) and the values it may take, rather
    than the class (not "'x' is not a valid EmptyColumn")."""
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(repr(member.value) for member in kind)
        raise ValueError(f"{what} {value!r} is not one of {choices}") from None
