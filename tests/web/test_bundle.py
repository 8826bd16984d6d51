"""Joining the page's modules into one script and its sheets into one sheet."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from functools import partial
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.testclient import TestClient

from bonanza.web.bundle import BundleError, join_modules, join_sheets
from bonanza.web.static_files import PackedStaticFiles

NODE = shutil.which("node")
LATER = 10**18
"""A modification time (ns) later than any file's: the edit is seen."""


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


LOGGING = {
    "a.js": 'import { b, twice as double } from "./b.js";\n'
    'import { c } from "./c.js";\n'
    'console.log("a", b, double(c));\n',
    "b.js": 'import { c } from "./c.js";\n'
    'console.log("b");\n'
    "export const b = c + 1;\n"
    "export function twice(x) {\n  return 2 * x;\n}\n",
    "c.js": 'console.log("c");\nexport const c = 20;\n',
}


def test_modules_run_once_each_in_the_browsers_order_with_their_imports(tmp_path: Path) -> None:
    joined = join_modules(write(tmp_path, LOGGING), ["a.js"])
    assert [path.name for path in joined.sources] == ["c.js", "b.js", "a.js"]
    assert "import" not in joined.text and "export" not in joined.text
    assert "const { b, twice: double } = $module_b;" in joined.text
    if NODE is None:
        pytest.skip("node runs the joined script")
    script = write(tmp_path, {"joined.mjs": joined.text}) / "joined.mjs"
    ran = subprocess.run([NODE, str(script)], capture_output=True, text=True, check=True)
    assert ran.stdout.split("\n") == ["c", "b", "a 21 40", ""]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            {"a.js": 'import { b } from "./b.js";\n', "b.js": 'import { a } from "./a.js";\n'},
            "a.js -> b.js -> a.js",
        ),
        ({"a.js": "export default 1;\n"}, "export default 1"),
        ({"a.js": "export let a = 1;\n"}, "export let a = 1"),
        ({"a.js": 'import * as b from "./b.js";\n', "b.js": ""}, "import * as b"),
        ({"a.js": 'import { b } from "./missing.js";\n'}, "missing.js"),
    ],
)
def test_what_the_joining_cannot_keep_is_refused(
    tmp_path: Path, files: dict[str, str], message: str
) -> None:
    with pytest.raises(BundleError, match=re.escape(message)):
        join_modules(write(tmp_path, files), ["a.js"])


COMMENTED = (
    "/**\n * The module.\n */\n"
    "// a line comment\n"
    'const url = "http://x/y"; // kept: after code\n'
    "  /* an indented block */\n"
    "export const half = (x) => x\n"
    "  * 0.5;\n"
    "console.log(url, half(4));\n"
)


def test_comments_on_lines_of_their_own_are_left_out_and_the_code_still_runs(
    tmp_path: Path,
) -> None:
    joined = join_modules(write(tmp_path, {"a.js": COMMENTED}), ["a.js"])
    assert "The module" not in joined.text and "a line comment" not in joined.text
    assert "an indented block" not in joined.text
    assert "// kept: after code" in joined.text and "\n* 0.5;" in joined.text
    assert not re.search(r"^[ \t]", joined.text, re.M)  # nor indentation
    if NODE is None:
        pytest.skip("node runs the joined script")
    script = write(tmp_path, {"joined.mjs": joined.text}) / "joined.mjs"
    ran = subprocess.run([NODE, str(script)], capture_output=True, text=True, check=True)
    assert ran.stdout == "http://x/y 2\n"


TRAILING = (
    "let count = 2; // left out: after code with no quote or slash\n"
    "const ratio = count / 2; // kept: a slash before it (a division, or a pattern)\n"
    "const text = 'a // b'; // kept: a quote before it\n"
    "if (count) { // left out\n"
    "  console.log(count, ratio, text);\n"
    "}\n"
)


def test_a_comment_after_code_is_left_out_where_it_cannot_be_in_a_string(
    tmp_path: Path,
) -> None:
    joined = join_modules(write(tmp_path, {"a.js": TRAILING}), ["a.js"])
    assert "left out" not in joined.text
    assert "// kept: a slash" in joined.text and "// kept: a quote" in joined.text
    assert "let count = 2;\n" in joined.text and "if (count) {\n" in joined.text
    if NODE is None:
        pytest.skip("node runs the joined script")
    script = write(tmp_path, {"joined.mjs": joined.text}) / "joined.mjs"
    ran = subprocess.run([NODE, str(script)], capture_output=True, text=True, check=True)
    assert ran.stdout == "2 1 a // b\n"


def test_a_sheets_comment_after_a_rule_is_left_out_unless_a_quote_or_slash_is_before_it(
    tmp_path: Path,
) -> None:
    sheet = (
        "a { color: red; } /* left out */\n"
        "b { background: url(/x.png); } /* kept: a slash */\n"
        'c::after { content: "/*"; } /* kept: a quote */\n'
    )
    joined = join_sheets(write(tmp_path, {"one.css": sheet}), ["one.css"])
    assert "left out" not in joined.text and "a { color: red; }\n" in joined.text
    assert "/* kept: a slash */" in joined.text and "/* kept: a quote */" in joined.text


def test_a_module_with_a_text_over_several_lines_keeps_its_comments(tmp_path: Path) -> None:
    module = "const text = `one\n// not a comment here\n`;\n// a comment\nconsole.log(text);\n"
    joined = join_modules(write(tmp_path, {"a.js": module}), ["a.js"])
    assert "// not a comment here" in joined.text and "// a comment" in joined.text


def test_sheets_join_in_their_order(tmp_path: Path) -> None:
    write(tmp_path, {"one.css": "a { color: red; }\n", "two.css": "b { color: blue; }\n"})
    joined = join_sheets(tmp_path, ["two.css", "one.css"])
    assert joined.text.index("blue") < joined.text.index("red")


def test_a_joined_file_is_served_and_made_again_when_a_part_changes(tmp_path: Path) -> None:
    write(tmp_path, LOGGING)
    files = PackedStaticFiles(tmp_path, {"all.js": partial(join_modules, entries=["a.js"])})
    with TestClient(Starlette(routes=[Mount("/static", files)])) as client:
        first = client.get("/static/all.js")
        assert first.status_code == 200 and first.headers["content-type"].startswith(
            "text/javascript"
        )
        assert "export const c = 20" not in first.text and "const c = 20" in first.text
        (tmp_path / "c.js").write_text("export const c = 30;\n")
        os.utime(tmp_path / "c.js", ns=(LATER, LATER))
        again = client.get("/static/all.js")
        assert "const c = 30" in again.text and again.headers["etag"] != first.headers["etag"]
        assert client.get("/static/c.js").text == "export const c = 30;\n"  # parts stay files
