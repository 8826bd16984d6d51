"""The page takes its labels, presets, defaults and wordings from the server: its
scripts hold no copy of them (a copy drifts from the server's, as the rules label
once did).

The scripts are read as text: their string and template literals (comments left
out, escapes read) and their code. Each check is first shown to catch what it
looks for in a sample, so an empty or broken reading cannot pass.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bonanza.core.rules import PRESETS, SCORING_NAMES, VARIANT_PRESETS, Rules
from bonanza.session import winnable
from bonanza.storage.player_settings import SETTINGS

JS = Path(__file__).parents[2] / "src/bonanza/web/static/js"
MIN_SCRIPTS = 15
MIN_LITERALS = 500
"""The scripts are the page's (a broken reader would find nothing to object to)."""

TOKENS = re.compile(
    r'(?P<string>"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`)'
    r"|(?P<comment>//[^\n]*|/\*.*?\*/)",
    re.DOTALL,
)
ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\(.)")
RULE_FIELDS = (
    "draw", "passes", "empty_column", "recall", "partial_runs", "thoughtful", "scoring",
    "decks", "columns", "deal_shape", "stock_mode", "waste_start",
)  # fmt: skip
RULE_LITERAL = re.compile(
    rf"\b(?:{'|'.join(RULE_FIELDS)})\s*:\s*(?:null|true|false|-?\d+|\"[^\"]*\")"
)
"""A rule set or a table written out: ``draw: 1``, ``columns: 9``, ``deal_shape: "three"``."""
PRESET_NAMES = {*PRESETS, *VARIANT_PRESETS} - {"klondike", *RULE_FIELDS}
"""The presets' names but Klondike's (a table's name), and those that are rule fields."""
PASSES_PHRASES = {"pass", "more pass", "more passes", "last pass", "unlimited passes"}
"""Pieces of a passes phrase ("passes" alone is the rule field's name)."""
PASSES_FROM_NUMBERS = re.compile(r"\$\{[^}]*\}\s*(?:more\s+)?pass(?:es)?\b|\bDraw \$\{", re.I)
WINNABLE_WORDS = re.compile(r"still winnable", re.I)


def read_escape(found: re.Match[str]) -> str:
    return chr(int(found[1], 16)) if found[1] else found[2]


def literals(source: str) -> list[str]:
    """The string and template literals of a script, without their quotes, escapes read."""
    return [
        ESCAPE.sub(read_escape, found["string"][1:-1])
        for found in TOKENS.finditer(source)
        if found["string"]
    ]


def code(source: str) -> str:
    """A script without its comments."""
    return TOKENS.sub(lambda found: found["string"] or "", source)


def default_settings() -> re.Pattern[str]:
    """Any setting written out at its default, such as ``volume: 80``."""
    pairs = [
        rf"\b{name}\s*:\s*{re.escape(json.dumps(spec.decode(None)))}"
        for name, spec in SETTINGS.items()
    ]
    return re.compile("|".join(pairs))


def copies(source: str) -> list[str]:
    """What ``source`` copies of the server's labels, presets, defaults and wordings."""
    found: list[str] = []
    texts = literals(source)
    program = code(source)
    found += [f"preset {text!r}" for text in texts if text in PRESET_NAMES]
    found += [f"rules written out: {m}" for m in RULE_LITERAL.findall(program)]
    found += [f"setting default: {m}" for m in default_settings().findall(program)]
    found += [f"passes phrase {text!r}" for text in texts if text.lower() in PASSES_PHRASES]
    found += [
        f"rules phrased from numbers: {text!r}"
        for text in texts
        if PASSES_FROM_NUMBERS.search(text)
    ]
    found += [f"scoring name {text!r}" for text in texts if text in SCORING_NAMES.values()]
    found += [f"winnable wording {text!r}" for text in texts if WINNABLE_WORDS.search(text)]
    found += [
        f"winnable wording {text!r}"
        for text in texts
        if any(words in text for words in (winnable.CONFIRM, winnable.EXPLANATION))
    ]
    return found


SAMPLES = [
    'game("westcliff", "Westcliff", { columns: 10 }, {})',
    "const rules = { draw: 1, passes: null };",
    'export const settings = { card_back: "classic" };',
    "const s = { volume: 80 };",
    'const p = (n) => plural(n, "pass", "passes");',
    "const t = `${left} more passes`;",
    "const d = `Draw ${rules.draw}`;",
    'const names = { vegas: "Vegas" };',
    'const title = "\\u201cStill winnable?\\u201d was asked";',
    f"const ask = {json.dumps(winnable.CONFIRM)};",
]


@pytest.mark.parametrize("sample", SAMPLES)
def test_each_kind_of_copy_is_caught(sample: str) -> None:
    assert copies(sample), sample


def test_comments_and_the_servers_words_pass() -> None:
    sample = (
        '// "Still winnable?" asks first; draw: 1 is the default\n'
        "/* 3 passes */ const label = [state.table.label, state.position.passes_left];\n"
        'const url = "http://www.w3.org/2000/svg"; // not a comment inside a string\n'
        'toast("No more passes through the stock");\n'
    )
    assert copies(sample) == []


def test_the_page_scripts_hold_no_copy_of_the_servers_words() -> None:
    scripts = sorted(JS.glob("*.js"))
    assert len(scripts) >= MIN_SCRIPTS, scripts
    assert sum(len(literals(path.read_text())) for path in scripts) >= MIN_LITERALS
    found = {path.name: copies(path.read_text()) for path in scripts}
    assert not {name: what for name, what in found.items() if what}


def test_the_server_gives_the_page_what_it_no_longer_copies() -> None:
    from bonanza.web.page_words import WORDS

    assert [game.id for game in WORDS.games] == ["klondike", *VARIANT_PRESETS]
    for game in WORDS.games:
        rules = Rules.preset(game.id)
        assert (game.rules.draw, game.rules.passes) == (rules.draw, rules.passes)
    assert WORDS.defaults.rules.draw == Rules().draw
    assert WORDS.defaults.settings.volume == SETTINGS["volume"].decode(None)
    assert WORDS.winnable.label == winnable.LABEL
    assert Rules(draw=3, passes=3).label == "Draw 3 · 3 passes · Standard"
