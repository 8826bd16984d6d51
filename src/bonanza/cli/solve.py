"""``bonanza solve DEAL``: decide a deal or saved game exactly, and show the win."""

from __future__ import annotations

import argparse
from typing import Any, Final

from bonanza.cli.options import changed_rules, passes_value, rule_changes, whole_number
from bonanza.cli.solver_io import load_start, result_data
from bonanza.core.notation import format_move
from bonanza.core.rules import ALL_PRESETS, EmptyColumn, Rules
from bonanza.solver import solve
from bonanza.solver.result import CLOCKS
from bonanza.solver.search import MAX_MEMORY, Shorten

SHORTEN: dict[str, Shorten] = {"auto": "auto", "always": True, "never": False}
"""``--shorten``'s choices (``analyze``'s words), as ``solve``'s ``shorten``."""
MEGABYTE: Final = 2**20
"""Bytes in one of ``--memory-limit``'s megabytes."""
MAX_MEMORY_MB: Final = MAX_MEMORY // MEGABYTE
"""The largest ``--memory-limit``: the most megabytes the C solver takes."""
TIMES_HELP = (
    "The time printed (and --json's 'seconds') is wall-clock time; 'CPU' (--json's "
    "'cpu_seconds') is the CPU time of the thread that ran the solver over the same span, "
    "which other work on the machine does not inflate. Neither counts the replay that "
    "checks the line, nor starting Python."
)


def positive_seconds(text: str) -> float:
    """A positive number of seconds, for argparse."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"the time limit must be positive, not {text}")
    return value


def add_solver_rule_options(parser: argparse.ArgumentParser) -> None:
    """The rule options of ``solve`` and ``analyze`` (thoughtful play is implied)."""
    group = parser.add_argument_group("rules (default: klondike, every card known)")
    group.add_argument(
        "--rules", choices=sorted(ALL_PRESETS), default=None,
        help="a preset, changed by the options below (default: klondike, or a saved game's rules)",
    )
    group.add_argument("--draw", type=int, metavar="N", default=None, help="cards per draw")
    group.add_argument(
        "--passes", type=passes_value, metavar="N|unlimited", default=False,
        help="passes through the stock",
    )
    group.add_argument(
        "--empty", choices=[e.value for e in EmptyColumn], help="what fills an empty column"
    )
    group.add_argument("--recall", action=argparse.BooleanOptionalAction, default=None)
    group.add_argument("--partial-runs", action=argparse.BooleanOptionalAction, default=None)
    group.add_argument(
        "--time-limit", type=positive_seconds, metavar="S", default=None, help="seconds per deal"
    )
    group.add_argument(
        "--clock", choices=CLOCKS, default="wall",
        help="what --time-limit counts: seconds on the wall (the default), or the search's "
        "own CPU seconds, which a busy machine or other jobs do not eat into",
    )
    group.add_argument(
        "--memory-limit", type=whole_number("the memory limit (MB)", MAX_MEMORY_MB), metavar="MB",
        default=None,
        help="solver memory per deal (default 256; Klondike's full table forgets positions "
        "and goes on, Double Klondike's search stops)",
    )


MORE: Final = {"memory": "; a larger --memory-limit may decide it"}
"""What to say after a limit reached, where a larger one may help."""


def memory_bytes(args: argparse.Namespace) -> int | None:
    """The ``--memory-limit`` in bytes, or None for the solver's default."""
    megabytes: int | None = args.memory_limit
    return None if megabytes is None else megabytes * MEGABYTE


def solver_rules(args: argparse.Namespace, saved: Rules | None = None) -> Rules:
    """The ``--rules`` preset (else ``saved``, a saved game's rules, else klondike),
    changed by the rule options given; thoughtful play is implied."""
    base = Rules.preset(args.rules) if args.rules else saved or Rules()
    return changed_rules(base, {"thoughtful": True, **rule_changes(args)})


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve a deal exactly",
        description=(
            "Decide whether a deal (number, code or quoted 52-card listing) or a saved "
            "game can be won with every card known, and print a winning line."
        ),
        epilog=TIMES_HELP,
    )
    parser.add_argument(
        "deal", metavar="DEAL", help="deal number, code, listing or saved game (./5: file 5)"
    )
    add_solver_rule_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--shorten", choices=tuple(SHORTEN), default="always",
        help="shorten the winning line to the fewest moves through its positions: 'always' "
        "(the default), 'auto' only where it pays (Easthaven's stock dealt onto the columns, "
        "lines of over 300 moves), or 'never' (the search's own line)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    start, label = load_start(args.deal, solver_rules(args))
    # A saved game keeps its own rules unless --rules names a preset.
    start.rules = solver_rules(args, start.rules)
    result = solve(start, time_limit=args.time_limit, clock=args.clock,
                   memory_limit=memory_bytes(args),
                   shorten=SHORTEN[args.shorten])
    if args.json:
        import json

        print(json.dumps(result_data(result, start)))
        return 0
    limit = result.limit
    reached = f" ({limit} limit reached{MORE.get(limit, '')})" if limit else ""
    print(f"{label} ({start.rules}): {result.result}{reached}")
    if result.moves:
        print(f"{len(result.moves)} moves: " + " ".join(format_move(m) for m in result.moves))
    print(f"{result.nodes} nodes, {result.seconds:.3f} s ({result.cpu_seconds:.3f} s CPU)")
    return 0
