"""The help's words for the rules in play: each rule's term and the key of what the
help says it changes (``static/help.html``'s ``data-rule``), in ``core.rules``'s phrasing."""

from __future__ import annotations

from bonanza.core.rules import (
    SCORING_NAMES,
    EmptyColumn,
    Rules,
    StockMode,
    capitalised,
    counted,
    passes_words,
)
from bonanza.web.wire import RuleTerm


def on_off(name: str, on: bool) -> str:
    return f"{name} {'on' if on else 'off'}"


def rule_terms(rules: Rules) -> list[RuleTerm]:
    """Each rule of ``rules`` as the help lists it: the draw and the passes (not for a
    stock dealt onto the columns, which the game's own words tell of), the empty
    column, recall, runs, thoughtful play and the scoring."""
    terms = []
    if rules.stock_mode is not StockMode.EVERY_COLUMN:
        passes = rules.passes
        passes_key = "unlimited" if passes is None else "1" if passes == 1 else "n"
        terms += [
            RuleTerm(f"Draw {rules.draw}", "draw-1" if rules.draw == 1 else "draw-n"),
            RuleTerm(capitalised(passes_words(passes)), f"passes-{passes_key}"),
        ]
    empty = "Any card" if rules.empty_column is EmptyColumn.ANY else "King"
    runs = "partial" if rules.partial_runs else "whole"
    return [
        *terms,
        RuleTerm(f"{empty} to an empty column", f"empty_column-{rules.empty_column.value}"),
        RuleTerm(on_off("Recall", rules.recall), on_off("recall", rules.recall).replace(" ", "-")),
        RuleTerm(f"{capitalised(runs)} runs", f"runs-{runs}"),
        RuleTerm(
            on_off("Thoughtful", rules.thoughtful),
            on_off("thoughtful", rules.thoughtful).replace(" ", "-"),
        ),
        RuleTerm(f"{SCORING_NAMES[rules.scoring]} scoring", f"scoring-{rules.scoring.value}"),
    ]


def recycles_words(rules: Rules) -> str:
    """How often the waste may be turned back over, such as ``2 times``."""
    return counted(rules.recycles_allowed or 0, "time", "times")
