"""PostgreSQL beyond the contract: schema versions and upgrades, opening a ``--db`` value,
one-line errors, a batch whose connection dies, and ``bonanza serve`` on PostgreSQL."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from bonanza.core import Deal, Rules
from bonanza.session import Session
from bonanza.session.status import Status
from bonanza.storage import (
    SCHEMA_VERSION,
    SchemaTooNewError,
    SQLiteStorage,
    StaleGameError,
    StorageError,
    open_storage,
    redacted,
)
from bonanza.storage import schema as schema_module
from bonanza.storage.records import GameRecord
from bonanza.storage.schema import POSTGRES_MIGRATIONS, Migration, pending
from tests.servers import PostgresServer, Server, free_port

from .conftest import open_at_once, unavailable

NOW = 1000.0
CLI_SECONDS = 60


def record(game_id: str) -> GameRecord:
    session = Session.new(Deal.from_number(3), Rules.preset("klondike"), NOW)
    return GameRecord.of(game_id, "ann", session, NOW)


def postgres_storage(url: str) -> Any:
    from bonanza.storage.postgres import PostgresStorage

    return PostgresStorage(url)


def versions(url: str) -> list[int]:
    import psycopg

    with psycopg.connect(url) as db:
        return [row[0] for row in db.execute("SELECT version FROM schema_version ORDER BY 1")]


def execute(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        db.execute(sql)


def test_without_postgresql_ci_fails_where_a_laptop_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("BONANZA_REQUIRE_POSTGRES", raising=False)
    with pytest.raises(pytest.skip.Exception):
        unavailable("no initdb")
    for name in ("CI", "BONANZA_REQUIRE_POSTGRES"):
        with monkeypatch.context() as env:
            env.setenv(name, "1")
            with pytest.raises(pytest.fail.Exception, match="no initdb"):
                unavailable("no initdb")


# -- schema versions ------------------------------------------------------------------------


def test_the_steps_lead_to_this_codes_version() -> None:
    assert [step.version for step in POSTGRES_MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1))
    assert pending(0, POSTGRES_MIGRATIONS) == list(POSTGRES_MIGRATIONS)
    assert pending(SCHEMA_VERSION, POSTGRES_MIGRATIONS) == []
    with pytest.raises(SchemaTooNewError, match=f"version {SCHEMA_VERSION + 1}, newer"):
        pending(SCHEMA_VERSION + 1, POSTGRES_MIGRATIONS)
    with pytest.raises(ValueError):
        pending(0, (*POSTGRES_MIGRATIONS, POSTGRES_MIGRATIONS[0]))


def test_a_new_database_gets_the_schema_and_its_version_once(postgres_url: str) -> None:
    postgres_storage(postgres_url).close()
    postgres_storage(postgres_url).close()
    assert versions(postgres_url) == list(range(1, SCHEMA_VERSION + 1))


def test_stores_opening_a_new_database_at_once_make_its_schema_once(postgres_url: str) -> None:
    opened = open_at_once(lambda: postgres_storage(postgres_url))
    opened[0].insert_game(record("g1"))
    assert all(store.get_game("g1") is not None for store in opened)
    for store in opened:
        store.close()
    assert versions(postgres_url) == list(range(1, SCHEMA_VERSION + 1))


def test_a_database_newer_than_the_code_is_refused_untouched(postgres_url: str) -> None:
    postgres_storage(postgres_url).close()
    newer = SCHEMA_VERSION + 1
    execute(postgres_url, f"INSERT INTO schema_version (version, summary) VALUES ({newer}, 'x')")
    with pytest.raises(SchemaTooNewError) as refused:
        postgres_storage(postgres_url)
    assert isinstance(refused.value, StorageError)
    assert f"version {newer}, newer than this Bonanza's (version {SCHEMA_VERSION})" in str(
        refused.value
    )
    with pytest.raises(SchemaTooNewError):
        open_storage(postgres_url)
    assert versions(postgres_url)[-1] == newer


def next_version(monkeypatch: pytest.MonkeyPatch, *statements: str) -> None:
    """Pretend this code is one schema step newer, with ``statements`` as that step."""
    from bonanza.storage import postgres as postgres_module

    step = Migration(SCHEMA_VERSION + 1, "a test step", statements)
    monkeypatch.setattr(schema_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setattr(postgres_module, "POSTGRES_MIGRATIONS", (*POSTGRES_MIGRATIONS, step))


def test_an_older_database_is_upgraded_in_place_and_keeps_its_games(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = postgres_storage(postgres_url)
    games = [record(f"g{n}") for n in range(5)]
    for game in games:
        old.insert_game(game)
    old.add_share("s1", "g1")
    old.close()
    next_version(monkeypatch, "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT ''")
    upgraded = postgres_storage(postgres_url)
    assert versions(postgres_url) == list(range(1, SCHEMA_VERSION + 2))
    assert [upgraded.get_game(game.id) for game in games] == games
    assert upgraded.get_share("s1") is not None
    upgraded.close()


def test_a_database_of_the_previous_schema_is_upgraded_and_nothing_is_lost(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bonanza.storage import postgres as postgres_module

    previous = SCHEMA_VERSION - 1
    with monkeypatch.context() as older:
        older.setattr(schema_module, "SCHEMA_VERSION", previous)
        older.setattr(postgres_module, "POSTGRES_MIGRATIONS", POSTGRES_MIGRATIONS[:previous])
        old = postgres_storage(postgres_url)
        games = [record(f"g{n}") for n in range(5)]
        games[1:3] = [
            dataclasses.replace(game, status=Status.WON, finished_at=NOW + n)
            for n, game in enumerate(games[1:3])
        ]
        for game in games:
            old.insert_game(game)
        old.add_share("s1", "g1")
        old.close()
    assert versions(postgres_url) == list(range(1, SCHEMA_VERSION))
    upgraded = postgres_storage(postgres_url)
    assert upgraded.found_version == previous
    assert versions(postgres_url) == list(range(1, SCHEMA_VERSION + 1))
    assert [upgraded.get_game(game.id) for game in games] == games
    assert upgraded.get_share("s1") is not None
    finished = upgraded.finished_games("ann")
    assert upgraded.prune_finished(NOW + 10) == 2
    assert upgraded.finished_games("ann") == finished
    assert upgraded.count_new_game("1.2.3.4", NOW, 1, 60.0)  # the step's table is there
    assert not upgraded.count_new_game("1.2.3.4", NOW + 1, 1, 60.0)
    upgraded.close()


def test_a_step_that_fails_leaves_the_database_as_it_was(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    postgres_storage(postgres_url).close()
    next_version(monkeypatch, "CREATE TABLE half_done (x INTEGER)", "NOT VALID SQL")
    with pytest.raises(StorageError, match="cannot open the game store"):
        postgres_storage(postgres_url)
    assert versions(postgres_url) == list(range(1, SCHEMA_VERSION + 1))
    with pytest.raises(Exception, match="half_done"):
        execute(postgres_url, "SELECT * FROM half_done")


# -- batches --------------------------------------------------------------------------------


def test_a_batch_whose_connection_dies_stores_nothing_and_the_store_goes_on(
    postgres_url: str,
) -> None:
    store = postgres_storage(postgres_url)

    def die() -> None:
        store._run(lambda db: db.execute("SELECT pg_terminate_backend(pg_backend_pid())"))

    results = store.write_batch(
        [lambda: store.insert_game(record("before")), die, lambda: store.set_setting("a", "b")]
    )
    assert len(results) == 3 and all(isinstance(result, StorageError) for result in results)
    assert store.commits == 0
    assert store.get_game("before") is None and store.get_setting("a") is None
    store.insert_game(record("after"))
    assert store.get_game("after") is not None
    store.close()


# -- opening a --db value -------------------------------------------------------------------


def test_a_path_opens_sqlite_and_a_url_opens_postgresql(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    from bonanza.storage.postgres import PostgresStorage

    sqlite = open_storage(tmp_path / "games.db")
    assert isinstance(sqlite, SQLiteStorage)
    sqlite.close()
    named = open_storage(str(tmp_path / "named.db"))
    assert isinstance(named, SQLiteStorage)
    named.close()
    for url in (postgres_server.new_store(), postgres_server.new_store().replace("ql://", "://")):
        store = open_storage(url)
        assert isinstance(store, PostgresStorage)
        store.close()


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("mysql://user@host/db", "unknown database URL scheme 'mysql'"),
        ("postgresql://user:secret@[bad/db", "IPv6"),
        ("postgresql://user@127.0.0.1:1/db", "Connection refused"),
        ("postgresql://user:secret@127.0.0.1:1/db", "postgresql://user:***@127.0.0.1:1/db"),
    ],
)
def test_a_store_that_cannot_open_is_one_line_without_the_password(spec: str, words: str) -> None:
    with pytest.raises(StorageError) as failed:
        open_storage(spec)
    message = str(failed.value)
    assert words in message and "secret" not in message and "\n" not in message


def test_a_url_shows_without_its_password() -> None:
    assert (
        redacted("postgresql://ann:pw@host:5432/db?x=1") == "postgresql://ann:***@host:5432/db?x=1"
    )
    assert redacted("postgresql://ann@host/db") == "postgresql://ann@host/db"
    assert redacted("postgresql://ann:pw@[bad/db") == "postgresql://…"
    assert redacted(Path("games.db")) == "games.db"


# -- bonanza serve --------------------------------------------------------------------------


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bonanza", "serve", "--port", str(free_port()), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=CLI_SECONDS,
    )


@pytest.mark.parametrize(
    "url", ["postgresql://ann:secret@127.0.0.1:1/games", "postgresql://ann@[::1/games", "pg://x"]
)
def test_serve_on_a_database_it_cannot_open_is_one_line_and_status_2(url: str) -> None:
    result = serve("--db", url)
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.splitlines()
    assert line.startswith("bonanza serve: cannot open the game store ")
    assert "secret" not in line and "Traceback" not in result.stderr and result.stdout == ""


def test_serve_refuses_a_database_newer_than_itself(postgres_url: str) -> None:
    postgres_storage(postgres_url).close()
    execute(postgres_url, "INSERT INTO schema_version (version, summary) VALUES (999, 'x')")
    result = serve("--db", postgres_url)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"bonanza serve: the database's schema is version 999, newer than this Bonanza's"
        f" (version {SCHEMA_VERSION}): run a newer Bonanza on it"
    ]


def test_serve_on_postgresql_plays_a_move_and_stores_it(postgres_url: str) -> None:
    server = Server(postgres_url, free_port())
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            created = client.post("/api/games", json={"deal": "0"})
            assert created.status_code == 201, created.text
            game_id = created.json()["id"]
            moved = client.post(f"/api/games/{game_id}/moves", json={"move": "sw"})
            assert moved.status_code == 200, moved.text
            assert moved.json()["moves"] == 1
    finally:
        server.stop()
    store = postgres_storage(postgres_url)
    stored = store.get_game(game_id)
    store.close()
    assert stored is not None and stored.moves == 1 and stored.deal == Deal.from_number(0).id


def test_a_batch_runs_without_savepoints_unless_a_write_fails(postgres_url: str) -> None:
    store = postgres_storage(postgres_url)
    try:
        for name in ("b1", "b2"):
            store.insert_game(record(name))
        fresh = [dataclasses.replace(record(name), moves=2, version=1) for name in ("b1", "b2")]
        assert store.write_batch([lambda r=r: store.update_game(r) for r in fresh]) == [None, None]
        assert store.batches_redone == 0  # one transaction, no savepoint
        stale = dataclasses.replace(record("b1"), moves=5, version=1)  # read at version 0
        later = dataclasses.replace(record("b2"), moves=6, version=2)
        results = store.write_batch(
            [lambda: store.update_game(stale), lambda: store.update_game(later)]
        )
        assert isinstance(results[0], StaleGameError) and results[1] is None
        assert store.batches_redone == 1  # the stale write failed alone, in a savepoint
        assert store.get_game("b1").moves == 2 and store.get_game("b2").moves == 6
    finally:
        store.close()
