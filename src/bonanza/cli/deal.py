"""``bonanza deal DEAL``: show a deal as a board, a code, a card listing or JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bonanza.cli.options import add_rule_options, rules_from
from bonanza.core.deal import Deal
from bonanza.core.position import Position
from bonanza.core.render import render


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "deal",
        help="show a deal",
        description="Show a deal given as a deal number, a deal code or a quoted 52-card listing.",
    )
    parser.add_argument("deal", metavar="DEAL", help="deal number, deal code or 52-card listing")
    parser.add_argument(
        "--format", choices=("text", "code", "cards", "json"), default="text", help="output form"
    )
    parser.add_argument("--unicode", action="store_true", help="suit symbols in the text board")
    add_rule_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    deal = Deal.parse(args.deal, rules.decks)
    position = Position.initial(deal, rules)
    if args.format == "code":
        print(deal.code)
    elif args.format == "cards":
        print(deal.listing)
    elif args.format == "json":
        data: dict[str, Any] = {
            "number": deal.number,
            "code": deal.code,
            "cards": deal.listing.split(),
            "rules": rules.to_dict(),
            "position": position.to_text(),
        }
        print(json.dumps(data))
    else:
        print(f"Deal {deal.id} ({rules})")
        print(render(position, unicode=args.unicode))
    return 0
