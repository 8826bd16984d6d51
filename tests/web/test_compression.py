"""The page and its files go out compressed; API answers stay plain."""

from __future__ import annotations

from starlette.testclient import TestClient

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
