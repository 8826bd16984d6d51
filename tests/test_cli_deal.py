"""``bonanza deal`` run as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

from bonanza.core import Deal


def bonanza(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bonanza", *args], capture_output=True, text=True, check=False
    )


def test_forms_convert_through_the_command_line() -> None:
    listing = bonanza("deal", "7", "--format", "cards").stdout.strip()
    assert listing == Deal.from_number(7).listing
    code = bonanza("deal", listing, "--format", "code").stdout.strip()
    assert code == Deal.from_number(7).code
    assert bonanza("deal", code, "--format", "cards").stdout.strip() == listing


def test_json_and_text() -> None:
    data = json.loads(bonanza("deal", "7", "--draw", "3", "--format", "json").stdout)
    assert data["number"] == 7 and data["rules"]["draw"] == 3 and len(data["cards"]) == 52
    board = bonanza("deal", "7").stdout
    assert "Deal 7" in board and "AC" in board  # AC is column 7's face-up card


def test_bad_input_exits_2_with_one_line() -> None:
    bad = (
        ["deal", "nonsense"],
        ["deal", "AS 2S"],
        ["deal", "7", "--draw", "30"],
        ["deal", "--draw", "x"],
    )
    for args in bad:
        result = bonanza(*args)
        assert result.returncode == 2
        assert len(result.stderr.strip().splitlines()) == 1 and "usage" not in result.stderr
        assert result.stdout == ""
