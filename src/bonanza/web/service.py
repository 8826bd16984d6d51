"""The game service: the server's truth. Loads, plays and saves games for their owners."""

from __future__ import annotations

import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import anyio
import anyio.to_thread

from bonanza.core import (
    CARDS,
    BonanzaError,
    Deal,
    Game,
    HistoryError,
    Move,
    MoveSyntaxError,
    Position,
    Rules,
    describe_move,
    format_move,
    parse_move,
)
from bonanza.web import hints
from bonanza.web.autofinish import finish_plan
from bonanza.web.errors import ApiError, not_found
from bonanza.web.records import GameRecord, Status
from bonanza.web.storage import Storage
from bonanza.web.view import move_json, position_json

CACHE_SIZE = 2048
IDLE_CAP = 60.0


def rules_key(rules: Rules) -> str:
    """A canonical text for a rule set: statistics are grouped by it."""
    return json.dumps(rules.to_dict(), sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=CACHE_SIZE)
def deal_code(deal: Deal) -> str:
    """The deal's 39-character code (worth keeping: it is a big-number computation)."""
    return deal.code


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def announce(move: Move, before: Position, after: Position) -> str:
    """What a screen reader says for a move: ``Seven of hearts to column 3; revealed ...``."""
    text = sentence(describe_move(move, before))
    source = move.source
    if source.is_tableau and after.down[source] < before.down[source]:
        revealed = after.tableau[source][after.down[source]]
        text += f"; revealed {sentence(CARDS[revealed].name)}"
    return text


class GameService:
    """Every game operation the API offers, checked against the player who owns the game.

    Live games are cached in memory (the storage is written through on every
    change, before the answer goes out, so the cache is only a speed-up).
    """

    def __init__(self, storage: Storage, clock: Callable[[], float] = time.time) -> None:
        self.storage = storage
        self.clock = clock
        self._cache: OrderedDict[str, tuple[GameRecord, Game]] = OrderedDict()
        self._progress: OrderedDict[str, bool | None] = OrderedDict()
        # Searches run in worker threads, one at a time, so moves never wait behind them.
        self._search_limiter = anyio.CapacityLimiter(1)

    # -- loading and saving ------------------------------------------------

    def _remember(self, record: GameRecord, game: Game) -> None:
        self._cache[record.id] = (record, game)
        self._cache.move_to_end(record.id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def load(self, player: str, game_id: str) -> tuple[GameRecord, Game]:
        """The player's game; another player's game or an unknown ID is 404."""
        cached = self._cache.get(game_id)
        if cached is not None:
            self._cache.move_to_end(game_id)
            record, game = cached
        else:
            found = self.storage.get_game(game_id) if len(game_id) <= 64 else None
            if found is None:
                raise not_found(f"game {game_id!r}")
            record, game = found, Game.from_json(found.state)
            self._remember(record, game)
        if record.player != player:
            raise not_found(f"game {game_id!r}")
        return record, game

    def _elapsed(self, record: GameRecord, now: float) -> float:
        """Playing time: the clock starts at the first move, and a pause between two
        actions counts for at most ``IDLE_CAP`` seconds (a tab left open overnight
        does not ruin the time)."""
        if record.started_at is None:
            return 0.0
        if record.finished_at is not None:
            return record.elapsed
        last = float(record.extra.get("last_active", record.started_at))
        return record.elapsed + min(IDLE_CAP, max(0.0, now - last))

    def _idle_left(self, record: GameRecord, now: float) -> float:
        """How much longer the clock runs without another action."""
        last = float(record.extra.get("last_active", record.started_at or now))
        return max(0.0, IDLE_CAP - max(0.0, now - last))

    def _save(self, record: GameRecord, game: Game, now: float) -> None:
        if record.status is Status.PLAYING:
            if record.started_at is None and game.move_count:
                record.started_at = now
            record.elapsed = self._elapsed(record, now)
            record.extra["last_active"] = now
            if game.is_won:
                record.status = Status.WON
                record.finished_at = now
        game.elapsed = record.elapsed
        record.state = game.to_json()
        record.moves = game.move_count
        record.score = game.score(record.elapsed)
        record.cards_home = sum(game.position.foundations)
        self.storage.update_game(record)

    # -- views -----------------------------------------------------------------

    def view(self, record: GameRecord, game: Game, **extra: Any) -> dict[str, Any]:
        now = self.clock()
        position = game.position
        elapsed = self._elapsed(record, now)
        auto = finish_plan(position) if record.status is Status.PLAYING else None
        deal = game.deal
        visible = position_json(position)
        data: dict[str, Any] = {
            "id": record.id,
            "deal": deal.id,
            "deal_code": deal_code(deal),
            "rules": game.rules.to_dict(),
            "rules_label": str(game.rules),
            "status": str(record.status),
            "won": game.is_won,
            "position": visible,
            "has_moves": bool(visible["legal"]),
            "moves": game.move_count,
            "score": game.score(elapsed),
            "elapsed": round(elapsed, 1),
            "running": record.started_at is not None and record.finished_at is None,
            "idle_cap": round(self._idle_left(record, now), 1),
            "can_undo": game.can_undo and record.status is Status.PLAYING,
            "can_redo": game.can_redo and record.status is Status.PLAYING,
            "auto_finish": auto is not None,
            "history": [format_move(move) for move in game.history],
        }
        data.update(extra)
        return data

    # -- operations -----------------------------------------------------------

    def new_game(self, player: str, deal_text: str | None, rules: Rules) -> dict[str, Any]:
        """Start a game; the player's unfinished games end (lost if any move was made)."""
        now = self.clock()
        try:
            deal = (
                Deal.parse(deal_text)
                if deal_text is not None
                else Deal.from_number(secrets.randbits(64))
            )
        except BonanzaError as error:
            raise ApiError(422, str(error)) from None
        for old in self.storage.playing_games(player):
            self._end(old, now)
        game = Game(deal, rules)
        record = GameRecord(
            id=secrets.token_urlsafe(12),
            player=player,
            deal=deal.id,
            rules_key=rules_key(rules),
            state=game.to_json(),
            created_at=now,
            score=game.score(0.0),
        )
        self.storage.insert_game(record)
        self._remember(record, game)
        return self.view(record, game, announce=f"New deal {deal.id}")

    def _end(self, record: GameRecord, now: float) -> None:
        cached = self._cache.get(record.id)
        if cached is not None:
            record = cached[0]
        record.elapsed = self._elapsed(record, now)
        record.status = Status.LOST if record.moves else Status.ABANDONED
        record.finished_at = now
        self.storage.update_game(record)

    def current(self, player: str) -> dict[str, Any] | None:
        """The player's latest game (to resume after a reload), or None before the first."""
        latest = self.storage.latest_game(player)
        if latest is None:
            return None
        record, game = self.load(player, latest.id)
        return self.view(record, game)

    def get(self, player: str, game_id: str) -> dict[str, Any]:
        record, game = self.load(player, game_id)
        return self.view(record, game)

    def _playing(self, player: str, game_id: str) -> tuple[GameRecord, Game]:
        record, game = self.load(player, game_id)
        if record.status is not Status.PLAYING:
            raise ApiError(409, f"game {game_id!r} is over ({record.status}): start a new one")
        return record, game

    def play(self, player: str, game_id: str, move: Move | str) -> dict[str, Any]:
        record, game = self._playing(player, game_id)
        before = game.position
        played = checked_move(before, move)
        game.play(played)
        now = self.clock()
        self._save(record, game, now)
        return self.view(
            record, game, last=move_json(played), announce=announce(played, before, game.position)
        )

    def undo(self, player: str, game_id: str) -> dict[str, Any]:
        record, game = self._playing(player, game_id)
        try:
            move = game.undo()
        except HistoryError as error:
            raise ApiError(409, str(error)) from None
        self._save(record, game, self.clock())
        text = "Undid " + describe_move(move, game.position)
        return self.view(record, game, announce=text)

    def redo(self, player: str, game_id: str) -> dict[str, Any]:
        record, game = self._playing(player, game_id)
        before = game.position
        try:
            move = game.redo()
        except HistoryError as error:
            raise ApiError(409, str(error)) from None
        self._save(record, game, self.clock())
        return self.view(
            record,
            game,
            last=move_json(move),
            announce="Redid " + announce(move, before, game.position),
        )

    def restart(self, player: str, game_id: str) -> dict[str, Any]:
        record, game = self._playing(player, game_id)
        game.restart()
        self._save(record, game, self.clock())
        return self.view(record, game, announce="Restarted the deal; redo replays the moves")

    def auto_step(self, player: str, game_id: str) -> dict[str, Any]:
        """Play the next auto-finish move (409 when auto finish is not available)."""
        _record, game = self._playing(player, game_id)
        move = finish_plan(game.position)
        if move is None:
            raise ApiError(409, "auto finish is not available: some cards are still unseen")
        return self.play(player, game_id, move)

    async def hint(self, player: str, game_id: str) -> dict[str, Any]:
        """A hint from the solver, searched off the event loop on a copy of the position."""
        _record, game = self._playing(player, game_id)
        position = game.position.copy()
        move = await anyio.to_thread.run_sync(hints.hint, position, limiter=self._search_limiter)
        if move is None:
            return {"move": None, "text": "No useful move"}
        return {"move": move_json(move), "text": sentence(describe_move(move, position))}

    async def progress(self, player: str, game_id: str) -> dict[str, Any]:
        """Whether progress is still possible (None: unknown), cached per position."""
        record, game = self.load(player, game_id)
        if record.status is not Status.PLAYING or not game.position.has_moves():
            return {"progress": None}
        key = f"{game.rules!r} {game.position.to_text()}"
        if key not in self._progress:
            position = game.position.copy()
            found = await anyio.to_thread.run_sync(
                hints.progress_possible, position, limiter=self._search_limiter
            )
            self._progress[key] = found
            while len(self._progress) > CACHE_SIZE:
                self._progress.popitem(last=False)
        return {"progress": self._progress[key]}


def checked_move(position: Position, move: Move | str) -> Move:
    """The legal move meant, or a 422 whose message names the move and never the hidden cards.

    Core errors name the whole position, so they are not passed on as they are.
    """
    if isinstance(move, str):
        try:
            return parse_move(move, position)
        except MoveSyntaxError:
            raise ApiError(
                422, f"{move!r} is not a move: write it like sw, w3, 6f, fh2 or 47:3"
            ) from None
        except BonanzaError:  # illegal, or fits several moves
            raise ApiError(422, f"{move!r} is not legal now") from None
    if move not in position.legal_moves():
        if move.count < 1 or (
            move.source.is_tableau
            and move.count > len(position.tableau[move.source]) - position.down[move.source]
        ):
            raise ApiError(422, f"{format_move(move)} is not legal now: no such run of cards")
        raise ApiError(422, f"{format_move(move)} is not legal now: {position.why_illegal(move)}")
    return move
