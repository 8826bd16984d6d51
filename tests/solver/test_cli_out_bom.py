"""Results files that start with a UTF-8 byte order mark (as some Windows editors save
them) are read as results, resumed and reported, the mark kept."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from bonanza.cli.results_file import CSV_FIELDS
from tests.solver.test_cli_errors import _analyze_into, run_cli

pytestmark = pytest.mark.forks  # analyze's worker pool: not in the sanitizer run


@pytest.mark.parametrize("name", ["run.jsonl", "run.csv"])
def test_a_resume_reads_an_out_file_saved_with_a_byte_order_mark_and_appends_to_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    out_file = tmp_path / name
    assert _analyze_into(capsys, out_file, "2-3")[0] == 0
    saved = codecs.BOM_UTF8 + out_file.read_bytes()
    out_file.write_bytes(saved)
    status, out, _ = _analyze_into(capsys, out_file, "2-4")
    assert status == 0 and "deals: 3\n" in out
    content = out_file.read_bytes()
    assert content.startswith(saved)  # only deal 4 solved, its row appended
    lines = content[len(codecs.BOM_UTF8):].decode().splitlines()
    if name.endswith(".csv"):
        assert lines[0] == ",".join(CSV_FIELDS)
        assert [line.split(",")[0] for line in lines[1:]] == ["2", "3", "4"]
    else:
        assert [json.loads(line)["id"] for line in lines] == ["2", "3", "4"]
    report = tmp_path / "report.md"
    status, summary, _ = run_cli(capsys, "report", str(out_file), "--out", str(report))
    assert status == 0 and "3/3 solvable" in summary  # the first row too
