"""Options shared by several subcommands: deals and rules."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from typing import Any

from bonanza.core.errors import RulesError
from bonanza.core.rules import ALL_PRESETS, EmptyColumn, Rules, Scoring


def passes_value(text: str) -> int | None:
    """``unlimited`` or a whole number of passes, for argparse."""
    if text == "unlimited":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of passes or 'unlimited'"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"passes must be at least 1, not {value}")
    return value


def whole_number(what: str, most: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number of at least 1 (and at most ``most``, if
    given), errors naming ``what``."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}: {text!r} is not a whole number") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{what} must be at least 1, not {value}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"{what} must be at most {most}, not {value}")
        return value

    return convert


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    """``--rules PRESET`` and one option per rule field."""
    group = parser.add_argument_group("rules")
    group.add_argument(
        "--rules", choices=sorted(ALL_PRESETS), default="klondike",
        help="a preset: Klondike's, or a relative's (docs/variants.md)",
    )
    group.add_argument("--draw", type=int, metavar="N", help="cards turned at a time (1-24)")
    group.add_argument("--passes", type=passes_value, metavar="N|unlimited", default=False)
    group.add_argument(
        "--empty", choices=[e.value for e in EmptyColumn], help="what fills a column"
    )
    group.add_argument("--recall", action=argparse.BooleanOptionalAction, default=None)
    group.add_argument("--partial-runs", action=argparse.BooleanOptionalAction, default=None)
    group.add_argument("--thoughtful", action=argparse.BooleanOptionalAction, default=None)
    group.add_argument("--scoring", choices=[s.value for s in Scoring])


def rule_changes(args: argparse.Namespace) -> dict[str, Any]:
    """The rule fields the options given change (options a command lacks count as not given)."""
    changes: dict[str, Any] = {}
    if getattr(args, "draw", None) is not None:
        changes["draw"] = args.draw
    if getattr(args, "passes", False) is not False:
        changes["passes"] = args.passes
    if getattr(args, "empty", None) is not None:
        changes["empty_column"] = EmptyColumn(args.empty)
    for name in ("recall", "partial_runs", "thoughtful"):
        if getattr(args, name, None) is not None:
            changes[name] = getattr(args, name)
    if getattr(args, "scoring", None) is not None:
        changes["scoring"] = Scoring(args.scoring)
    return changes


def changed_rules(base: Rules, changes: dict[str, Any]) -> Rules:
    """``base`` with ``changes``; a bad value raises ``RulesError``, as do unlimited
    passes asked for under Vegas scoring, which has none (``Rules`` would take
    them as unset, and play the Vegas default without a word)."""
    try:
        rules = dataclasses.replace(base, **changes)
    except TypeError as error:  # pragma: no cover - argparse checks the types
        raise RulesError(str(error)) from None
    if "passes" in changes and changes["passes"] is None and rules.scoring.is_vegas:
        raise RulesError("Vegas scoring has no unlimited passes: give --passes a number, "
                         "or leave it out for Vegas's own")
    return rules


def rules_from(args: argparse.Namespace) -> Rules:
    """The rules the options name: the preset, changed by each option given."""
    return changed_rules(Rules.preset(args.rules), rule_changes(args))
