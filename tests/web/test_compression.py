"""The page and its files go out compressed; API answers stay plain."""

from __future__ import annotations

import gzip
import os
import re
import zlib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import bonanza.web
from bonanza.web.bundle import trimmed_sheet
from bonanza.web.gzip_stream import GZIP_WINDOW, OpeningGzip
from bonanza.web.page import LATER_MODULES
from bonanza.web.static_files import COMPRESS_LEVEL

GZIP = {"Accept-Encoding": "gzip"}


def test_the_page_and_its_files_are_served_gzip_compressed(client: TestClient) -> None:
    page = client.get("/", headers=GZIP)
    assert page.status_code == 200 and page.headers["content-encoding"] == "gzip"
    assert "Content-Security-Policy" in page.headers  # the page keeps its headers
    for path in ("/static/style.css", "/static/js/main.js", "/static/js/game.js"):
        answer = client.get(path, headers=GZIP)
        assert answer.status_code == 200, path
        assert answer.headers["content-encoding"] == "gzip", path
        assert int(answer.headers["content-length"]) < len(answer.content), path


def test_a_browser_that_takes_no_gzip_gets_plain_files(client: TestClient) -> None:
    answer = client.get("/static/style.css", headers={"Accept-Encoding": "identity"})
    assert answer.status_code == 200 and "content-encoding" not in answer.headers


def test_api_answers_are_not_compressed(client: TestClient) -> None:
    created = client.post("/api/games", json={}, headers=GZIP)
    assert created.status_code == 201 and "content-encoding" not in created.headers


def test_files_carry_an_etag_and_a_matching_one_gets_304(client: TestClient) -> None:
    first = client.get("/static/js/game.js", headers=GZIP)
    assert first.headers["content-type"].startswith("text/javascript")
    tagged = {**GZIP, "If-None-Match": first.headers["etag"]}
    again = client.get("/static/js/game.js", headers=tagged)
    assert again.status_code == 304 and again.content == b""


def test_a_missing_file_or_a_path_outside_the_folder_is_404(client: TestClient) -> None:
    assert client.get("/static/js/nothing.js").status_code == 404
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/static/%2e%2e/app.py").status_code == 404
    assert client.post("/static/style.css").status_code == 405
    for nul in ("/static/js/page.js%00", "/static/%00", "/static/js/%00x.js"):  # issue 31
        refused = client.get(nul)
        assert refused.status_code == 404 and refused.json()["status"] == 404, nul


def test_no_answer_is_sniffed_and_static_html_runs_no_script(client: TestClient) -> None:
    for path in ("/", "/static/js/game.js", "/api/settings", "/static/nothing.js", "/healthz"):
        assert client.get(path).headers["x-content-type-options"] == "nosniff", path
    help_page = client.get("/static/help.html")
    assert help_page.status_code == 200
    policy = help_page.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src" not in policy
    assert "default-src 'self'" in client.get("/").headers["content-security-policy"]


def test_an_edited_file_is_served_fresh(tmp_path: Path) -> None:
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from bonanza.web.static_files import PackedStaticFiles

    (tmp_path / "a.css").write_text("body { color: red; }" * 40)
    app = Starlette(routes=[Mount("/static", PackedStaticFiles(tmp_path))])
    with TestClient(app) as local:
        assert "red" in local.get("/static/a.css", headers=GZIP).text
        (tmp_path / "a.css").write_text("body { color: blue; }" * 40)
        os.utime(tmp_path / "a.css", ns=(1, 10**18))
        assert "blue" in local.get("/static/a.css", headers=GZIP).text


def test_the_page_loads_one_script_with_every_module_and_one_sheet(client: TestClient) -> None:
    """The page's modules come joined into one script, and its sheets into one, so
    the browser fetches two files instead of queueing twenty."""
    page = client.get("/").text
    scripts = re.findall(r'<script type="module" src="(/static/[\w./]+)"', page)
    sheets = re.findall(r'<link rel="stylesheet" href="(/static/[\w./]+)"', page)
    assert len(scripts) == 1 and len(sheets) == 1
    joined = client.get(scripts[0], headers=GZIP)
    assert joined.headers["content-type"].startswith("text/javascript")
    assert joined.headers["content-encoding"] == "gzip"
    folder = Path(bonanza.web.__file__).parent / "static"
    later = {Path(path).name for path in LATER_MODULES}  # loaded when first shown
    modules = {path.name for path in (folder / "js").glob("*.js")} - later
    assert {name for name in re.findall(r"^// js/([\w.]+)$", joined.text, re.M)} == modules
    assert all(f'import("./{name}")' in joined.text for name in later)
    assert "import {" not in joined.text and "\nexport " not in joined.text
    sheet = client.get(sheets[0]).text
    for name in ("style.css", "cards.css", "motion.css"):
        assert trimmed_sheet((folder / name).read_text()) in sheet, name
    assert "\n  " not in sheet and "\n  " not in joined.text  # no indentation sent


def test_the_compressed_page_is_the_plain_page(client: TestClient) -> None:
    client.post("/api/games", json={"deal": "7"})  # a returning player, with a game
    plain = client.get("/", headers={"Accept-Encoding": "identity"})
    packed = client.get("/", headers=GZIP)
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip" and packed.headers["vary"]
    assert packed.text == plain.text and '"current":{"id"' in plain.text


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=3000), st.lists(st.binary(max_size=2000), max_size=4))
def test_a_stream_whose_opening_is_compressed_once_is_one_gzip_stream(
    opening: bytes, tails: list[bytes]
) -> None:
    stream = OpeningGzip(opening, COMPRESS_LEVEL)
    for tail in tails:  # each from the same opening
        whole = stream.head + stream.rest(tail)
        assert gzip.decompress(whole) == opening + tail
        reader = zlib.decompressobj(GZIP_WINDOW)  # as a browser reads it: one gzip member
        assert reader.decompress(whole) == opening + tail
        assert reader.eof and not reader.unused_data
