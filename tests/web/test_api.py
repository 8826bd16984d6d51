"""The JSON API, in process: games, moves, errors, ownership, statistics."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from bonanza.core import Deal, Rules
from bonanza.core.notation import format_move
from bonanza.storage import SQLiteStorage
from bonanza.web.app import create_app

from . import deals

RULES = Rules.preset("klondike").to_dict()


def new_game(
    client: TestClient, deal: str | None = None, rules: dict[str, Any] | None = None
) -> Any:
    response = client.post("/api/games", json={"deal": deal, "rules": rules or RULES})
    assert response.status_code == 201, response.text
    return response.json()


def play(client: TestClient, game_id: str, move: str) -> Any:
    response = client.post(f"/api/games/{game_id}/moves", json={"move": move})
    assert response.status_code == 200, response.text
    return response.json()


def win(client: TestClient) -> Any:
    number, moves = deals.winning()
    state = new_game(client, number)
    for move in deals.texts(moves):
        state = play(client, state["id"], move)
    return state


def test_new_game_sets_a_player_cookie_and_shows_only_face_up_cards(client: TestClient) -> None:
    response = client.post("/api/games", json={"deal": "0"})
    assert response.status_code == 201
    assert "bonanza_player" in response.cookies
    state = response.json()
    deal = Deal.from_number(0)
    columns = state["position"]["columns"]
    assert [c["down"] for c in columns] == list(range(7))
    assert [c["up"] for c in columns] == [[str(col[-1])] for col in deal.columns]
    assert all("down_cards" not in c for c in columns)
    assert state["position"]["stock"] == {"count": 24}
    assert state["typed"] == "0" and state["moves"] == 0 and state["status"] == "playing"
    assert "deal" not in state and "deal_code" not in state and state["origin"] == "typed"


UNPROCESSABLE = 422
DRAW_THREE = 3


def test_a_draw_without_daily_is_refused_naming_the_rules_draw(client: TestClient) -> None:
    for body in ({"draw": DRAW_THREE}, {"draw": DRAW_THREE, "deal": "7"}):
        refused = client.post("/api/games", json=body)
        assert refused.status_code == UNPROCESSABLE, refused.text
        error = refused.json()["error"]
        assert "'draw' goes with 'daily'" in error and '{"rules": {"draw": 3}}' in error
    assert client.get("/api/games/current").status_code == 204  # no game was started
    asked = client.post("/api/games", json={"rules": {"draw": DRAW_THREE}})
    assert asked.status_code == 201 and asked.json()["rules"]["draw"] == DRAW_THREE


def test_thoughtful_rules_show_every_card(client: TestClient) -> None:
    state = new_game(client, "0", Rules.preset("thoughtful").to_dict())
    deal = Deal.from_number(0)
    assert state["position"]["columns"][6]["down_cards"] == [str(c) for c in deal.columns[6][:6]]
    assert len(state["position"]["stock"]["cards"]) == 24


def test_moves_by_notation_and_by_piles_with_announcements(client: TestClient) -> None:
    state = new_game(client, "0")
    # Deal 0 opens with the ace of clubs on column 4 over three face-down cards.
    state = play(client, state["id"], "4f")
    assert state["announce"].startswith("Ace of clubs to clubs foundation; revealed ")
    assert state["position"]["foundations"][0] == "AC"
    assert state["position"]["columns"][3]["down"] == 2
    response = client.post(
        f"/api/games/{state['id']}/moves", json={"source": 7, "dest": 8, "count": 1}
    )
    assert response.status_code == 200
    assert response.json()["position"]["stock"]["count"] == 23
    assert response.json()["moves"] == 2


def test_undo_redo_restart(client: TestClient) -> None:
    state = new_game(client, "0")
    gid = state["id"]
    play(client, gid, "4f")
    play(client, gid, "sw")
    state = client.post(f"/api/games/{gid}/undo").json()
    assert state["moves"] == 1 and state["can_redo"] and state["announce"] == "Undid: drew 1 card"
    state = client.post(f"/api/games/{gid}/redo").json()
    assert state["moves"] == 2 and not state["can_redo"]
    state = client.post(f"/api/games/{gid}/restart").json()
    assert state["moves"] == 0 and state["can_redo"]
    assert state["position"]["columns"][3]["down"] == 3
    assert client.post(f"/api/games/{gid}/undo").status_code == 409


def test_illegal_and_malformed_moves_are_4xx_json_naming_the_problem(client: TestClient) -> None:
    gid = new_game(client, "0")["id"]
    url = f"/api/games/{gid}/moves"
    cases = [
        ({"move": "12"}, 422, "'12' is not legal"),
        ({"move": "zz"}, 422, "'zz' is not a move"),
        ({"source": 0, "dest": 3}, 422, "not legal now"),
        ({"source": 0, "dest": 99}, 422, "'dest' must be a pile number"),
        ({"source": 6, "dest": 0, "count": 0}, 422, "'count' must be from 1 to 104"),
        ({"source": 6, "dest": 0, "count": 5}, 422, "no such run"),
        ({"source": "a", "dest": 1}, 422, "'source' has the wrong type"),
        ({"source": True, "dest": 1}, 422, "'source' has the wrong type"),
        ({}, 422, "give a move"),
        ({"move": "x" * 100}, 422, "too long"),
    ]
    for body, status, words in cases:
        response = client.post(url, json=body)
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["error"], (body, response.json())
    for raw, status, words in [
        (b"{", 400, "not valid JSON"),
        (b"[1, 2]", 422, "must be a JSON object"),
        (b"", 400, "empty"),
        (b"\xff\xfe", 400, "not valid JSON"),
        (b"{" + b" " * 20000 + b"}", 413, "over the 8192-byte limit"),
    ]:
        response = client.post(url, content=raw, headers={"Content-Type": "application/json"})
        assert response.status_code == status, (raw[:10], response.text)
        assert words in response.json()["error"]
    assert client.get("/api/nowhere").json()["error"] == "no such address: /api/nowhere"
    assert client.put(url).status_code == 405
    assert client.post("/api/games", json={"deal": "not a deal"}).status_code == 422
    assert "draw" in client.post("/api/games", json={"rules": {"draw": 0}}).json()["error"]
    assert client.post("/api/games", json={"rules": {"bogus": 1}}).status_code == 422
    assert client.post("/api/games", json={"preset": "nope"}).status_code == 422
    assert client.post("/api/games", json={"deal": 5}).status_code == 422


def test_error_messages_never_name_hidden_cards(client: TestClient) -> None:
    gid = new_game(client, "0")["id"]
    deal = Deal.from_number(0)
    hidden = {str(c) for column in deal.columns for c in column[:-1]} | {str(c) for c in deal.stock}
    for body in ({"source": 6, "dest": 0, "count": 2}, {"move": "71:3"}, {"source": 1, "dest": 2}):
        text = client.post(f"/api/games/{gid}/moves", json=body).text
        assert not any(f"{card}" in text for card in hidden), text


def test_another_players_game_is_404(client: TestClient, tmp_path: Any) -> None:
    gid = new_game(client, "0")["id"]
    assert client.get(f"/api/games/{gid}").status_code == 200
    stranger = TestClient(client.app)
    for method, path in [
        ("GET", f"/api/games/{gid}"),
        ("POST", f"/api/games/{gid}/moves"),
        ("POST", f"/api/games/{gid}/undo"),
        ("GET", f"/api/games/{gid}/hint"),
    ]:
        response = stranger.request(method, path, json={"move": "sw"})
        assert response.status_code == 404, (method, path)
        assert "not found" in response.json()["error"]
    assert client.get("/api/games/nonexistent").status_code == 404


def test_a_win_is_recorded_and_counted_by_the_server(client: TestClient) -> None:
    state = win(client)
    assert state["won"] and state["status"] == "won" and not state["can_undo"]
    assert client.post(f"/api/games/{state['id']}/moves", json={"move": "sw"}).status_code == 409
    stats = client.get("/api/stats").json()
    assert stats["groups"] == []  # a typed deal is a chosen deal
    (group,) = stats["chosen"]
    assert group["played"] == 1 and group["won"] == 1 and group["win_rate"] == 100.0
    assert group["current_streak"] == 1 and group["best_streak"] == 1
    assert group["fewest_moves"] == state["moves"]
    assert group["best_score"] == state["score"]


def test_abandoning_a_started_game_counts_a_loss(client: TestClient) -> None:
    gid = new_game(client, "0")["id"]
    play(client, gid, "sw")
    new_game(client, "1")  # never touched: not counted when abandoned
    new_game(client, "2")
    (group,) = client.get("/api/stats").json()["chosen"]
    assert (group["played"], group["won"], group["current_streak"]) == (1, 0, 0)
    assert group["best_time"] is None and group["fewest_moves"] is None


def test_statistics_are_per_rule_set_with_cumulative_vegas_bankroll(client: TestClient) -> None:
    vegas = Rules.from_dict({"scoring": "vegas-cumulative", "passes": 1}).to_dict()
    for deal in ("0", "1"):
        gid = new_game(client, deal, vegas)["id"]
        play(client, gid, "sw")
    state = new_game(client, "0")
    play(client, state["id"], "4f")  # one card home: -52 + 5
    new_game(client, "3", vegas)
    groups = client.get("/api/stats").json()["chosen"]
    by_scoring = {g["rules"]["scoring"]: g for g in groups}
    assert by_scoring["vegas-cumulative"]["played"] == 2
    assert by_scoring["vegas-cumulative"]["bankroll"] == -104
    assert by_scoring["standard"]["played"] == 1
    assert "bankroll" not in by_scoring["standard"]


def test_reset_and_export(client: TestClient) -> None:
    state = win(client)
    export = client.get("/api/stats/export")
    assert export.status_code == 200
    assert "attachment" in export.headers["content-disposition"]
    data = export.json()
    assert data["chosen"][0]["won"] == 1
    assert data["games"][0]["id"] == state["id"] and data["games"][0]["status"] == "won"
    assert data["games"][0]["deal"] == state["deal"]  # over: the deal is no secret
    assert client.delete("/api/stats").json()["reset"] == 1
    empty = {"groups": [], "chosen": [], "assisted": {"played": 0, "won": 0}}
    assert client.get("/api/stats").json() == empty


def test_auto_finish_offered_once_nothing_is_unseen_and_plays_home(client: TestClient) -> None:
    number, moves = deals.winning()
    state = new_game(client, number)
    texts = deals.texts(moves)
    played = 0
    progress = f"/api/games/{state['id']}/progress"
    while not (state["auto_finish"] or client.get(progress).json()["auto_finish"]):
        assert client.post(f"/api/games/{state['id']}/auto").status_code == 409
        state = play(client, state["id"], texts[played])
        played += 1
    assert played < len(texts)
    assert sum(c["down"] for c in state["position"]["columns"]) <= 1  # the last, by elimination
    steps = 0
    while not state["won"]:
        response = client.post(f"/api/games/{state['id']}/auto")
        assert response.status_code == 200, response.text
        state = response.json()
        steps += 1
        assert steps < 200
    assert state["status"] == "won"


def test_hint_is_a_legal_move(client: TestClient) -> None:
    state = new_game(client, "0")
    hint = client.get(f"/api/games/{state['id']}/hint").json()
    assert hint["move"] in state["position"]["legal"]
    assert hint["text"]


def test_current_game_resumes_and_games_survive_a_new_app(tmp_path: Any) -> None:
    db = tmp_path / "games.db"
    with TestClient(create_app(SQLiteStorage(db))) as first:
        gid = new_game(first, "0")["id"]
        play(first, gid, "4f")
        play(first, gid, "sw")
        first.post(f"/api/games/{gid}/undo")
        cookies = dict(first.cookies)
    with TestClient(create_app(SQLiteStorage(db)), cookies=cookies) as second:
        state = second.get("/api/games/current").json()
        assert state["id"] == gid and state["history"] == ["4f"] and state["can_redo"]


def test_page_and_assets_fit_the_budget_and_carry_no_game(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "script-src 'self'" in page.headers["content-security-policy"]
    import re

    assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
    total = len(page.content)
    seen = set()
    queue = list(assets)
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path)
        assert response.status_code == 200, path
        total += len(response.content)
        if path.endswith(".js"):
            queue += [
                "/static/js/" + name for name in re.findall(r'from "\./([\w.]+)"', response.text)
            ]
    assert any(p.endswith("page.js") for p in seen) and any(p.endswith(".css") for p in seen)
    assert total <= 150 * 1024, total


def test_format_move_round_trip_in_history(client: TestClient) -> None:
    number, moves = deals.winning()
    state = new_game(client, number)
    for move in moves[:10]:
        state = play(client, state["id"], format_move(move))
        assert "history" not in state  # an action's answer: the count, not the texts
    assert state["moves"] == 10
    assert client.get(f"/api/games/{state['id']}").json()["history"] == deals.texts(moves[:10])


def test_clock_starts_at_the_first_move_and_caps_idle_pauses(tmp_path: Any) -> None:
    now = [1000.0]
    app = create_app(SQLiteStorage(tmp_path / "games.db"), clock=lambda: now[0])
    with TestClient(app) as client:
        state = new_game(client, "0", Rules().to_dict())
        now[0] += 500  # thinking before the first move is free
        state = play(client, state["id"], "sw")
        assert state["elapsed"] == 0 and state["running"]
        now[0] += 25
        state = play(client, state["id"], "sw")
        assert state["elapsed"] == 25
        now[0] += 10_000  # away for hours: counts as one minute
        state = play(client, state["id"], "sw")
        assert state["elapsed"] == 85
        now[0] += 5
        assert client.get(f"/api/games/{state['id']}").json()["elapsed"] == 90


def test_a_timed_games_clock_runs_from_the_deal_and_never_pauses(tmp_path: Any) -> None:
    """Issue 31: under timed scoring the time is the score, so it cannot be paced."""
    now = [1000.0]
    app = create_app(SQLiteStorage(tmp_path / "games.db"), clock=lambda: now[0])
    with TestClient(app) as timed:
        state = new_game(timed, "0", Rules.from_dict({"scoring": "timed"}).to_dict())
        assert state["running"]
        now[0] += 500  # thinking before the first move counts
        state = play(timed, state["id"], "sw")
        assert state["elapsed"] == 500
        assert state["score"] == 0  # timed: -2 a 10 s, but never below 0
        now[0] += 10_000  # away for hours: every second counts
        state = play(timed, state["id"], "sw")
        assert state["elapsed"] == 10_500


def test_no_current_game_is_204_then_the_latest_game(client: TestClient) -> None:
    assert client.get("/api/games/current").status_code == 204
    gid = new_game(client, "5")["id"]
    assert client.get("/api/games/current").json()["id"] == gid


def test_progress_answers_under_any_pass_limit(client: TestClient) -> None:
    # The solver once refused pass limits above 61, and /progress gave a 500.
    for passes in (62, 1000):
        rules = {**RULES, "passes": passes}
        state = new_game(client, "7", rules)
        response = client.get(f"/api/games/{state['id']}/progress")
        assert response.status_code == 200, response.text


def test_a_path_with_a_stray_slash_is_a_json_404(client: TestClient) -> None:
    for path in ("/api/games//", "/api/games///moves", "/api/stats/"):
        response = client.post(path, json={}) if "moves" in path else client.get(path)
        assert response.status_code in (404, 405), (path, response.status_code)
        assert response.json()["error"]



def test_the_player_is_known_beside_any_other_cookie_of_the_host(client: TestClient) -> None:
    """Another site's cookies on the same host (JSON, a space, a quote: no RFC tokens)
    or the cookies split over two headers never cost the player their identity."""
    game = new_game(client, "5")
    token = client.cookies["bonanza_player"]
    client.cookies.clear()
    others = ['a=b c', 'json={"a":1}', 'a="x', "a=\\x", "a=b; ", "a@b=c", "bonanza_player=short"]
    for other in others:
        for header in (f"{other}; bonanza_player={token}", f"bonanza_player={token}; {other}"):
            response = client.get(f"/api/games/{game['id']}", headers={"cookie": header})
            assert response.status_code == 200, (header, response.text)
            assert "set-cookie" not in response.headers
    split = [("cookie", "theme=x"), ("cookie", f"bonanza_player={token}")]
    response = client.get(f"/api/games/{game['id']}", headers=split)
    assert response.status_code == 200 and "set-cookie" not in response.headers
    response = client.get(f"/api/games/{game['id']}", headers={"cookie": 'a="x'})
    assert response.status_code == 404 and "bonanza_player" in response.headers["set-cookie"]
