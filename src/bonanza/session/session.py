"""One game's flow: status, clock, undo rules, auto finish, safe auto-play, score and outcome.

The web service and the terminal game both drive a ``Session``; they only
present it. Time is always passed in (``now``), so the session does no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from bonanza.core.cards import DECK_SIZE
from bonanza.core.deal import Deal
from bonanza.core.errors import BonanzaError, HistoryError, SaveError
from bonanza.core.game import Game
from bonanza.core.moves import Move
from bonanza.core.packed import unpack
from bonanza.core.position import Position
from bonanza.core.rules import Rules, Scoring
from bonanza.core.scoring import time_bonus, time_ticks, timed_charge
from bonanza.core.view import PlayerView, ViewKey, known_cards, masked_key, visible_cards
from bonanza.session import messages, saved, twins
from bonanza.session.autofinish import finish_plan
from bonanza.session.clock import IDLE_CAP, PlayClock
from bonanza.session.errors import (
    GameOverError,
    HistoryFullError,
    NoAutoFinishError,
    RedoRefusedError,
    SessionError,
    UndoRefusedError,
)
from bonanza.session.events import Action, Event
from bonanza.session.outcome import Outcome
from bonanza.session.safe_home import SafeHome
from bonanza.session.saved import SESSION_FORMAT, SESSION_VERSION
from bonanza.session.status import Origin, Status

MAX_MOVES: Final = 5_000
"""Moves one game may hold, by default: a game cannot grow without bound."""


@dataclass(slots=True)
class _EarlierKeys:
    """The keys of the positions passed, kept while the known cards stay the same."""

    known: set[int] = field(default_factory=set)
    pairs: list[tuple[bytes, ViewKey]] = field(default_factory=list)  # packed positions


class Session:
    """A game of one deal under one rule set, from the deal to its outcome.

    - The game counts as played from its first move, whatever undo or restart
      do later; in Vegas, from the deal, since the ante is paid then.
    - Once over (won, lost or abandoned) nothing more can be played or undone.
    - In Vegas scoring, undo cannot take back a draw or a recycle: a card seen
      from the stock stays seen. Elsewhere undo is unlimited.
    - Timed scoring takes its penalty as the clock runs, never below 0.
    """

    def __init__(
        self,
        game: Game,
        *,
        origin: Origin = Origin.RANDOM,
        typed: str | None = None,
        created_at: float = 0.0,
        idle_cap: float = IDLE_CAP,
        max_moves: int = MAX_MOVES,
        seen: set[int] | None = None,
    ) -> None:
        self.game = game
        self.origin = origin
        self.typed = typed
        self.created_at = created_at
        self.max_moves = max_moves
        self.status = Status.PLAYING
        self.finished_at: float | None = None
        self.clock = PlayClock(idle_cap=idle_cap)
        self.touched = self.rules.scoring.is_vegas  # the ante is paid at the deal
        self.undo_floor = 0  # moves at or below this index cannot be undone
        self._charged = 0  # timed scoring: penalty points taken so far
        self._ticks = 0  # timed scoring: 10-second periods charged so far
        self.assisted = False  # "still winnable?" was asked: kept out of the headline figures
        self.taken_back = 0  # moves undone, by undo or restart (``moves_played``)
        self.safe = SafeHome()  # safe auto-play: the setting, held cards, automatic moves
        self._finish_line: tuple[Position, tuple[Move, ...]] | None = None  # an offered line
        self._earlier_keys = _EarlierKeys()
        # Every card the player has been shown (``seen``: as saved, else along the game).
        self.seen = seen if seen is not None else twins.seen_along(game.positions, game.history)

    @classmethod
    def new(
        cls,
        deal: Deal,
        rules: Rules,
        now: float,
        *,
        origin: Origin = Origin.RANDOM,
        typed: str | None = None,
        idle_cap: float = IDLE_CAP,
        max_moves: int = MAX_MOVES,
    ) -> Session:
        session = cls(Game(deal, rules), origin=origin, typed=typed, created_at=now,
                      idle_cap=idle_cap, max_moves=max_moves)  # fmt: skip
        if rules.scoring is Scoring.TIMED:  # the time is the score: it runs from the deal
            session.clock = PlayClock.from_deal(now)
        return session

    # -- what the game is ----------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.game.rules

    @property
    def position(self) -> Position:
        """The current position: read it, never change it."""
        return self.game.position

    @property
    def is_over(self) -> bool:
        return self.status.is_over

    @property
    def portable_deal(self) -> str | None:
        """The deal's ID (number or code), which reveals every card: only once over."""
        return self.game.deal.id if self.is_over else None

    @property
    def can_undo(self) -> bool:
        moves = self.game.move_count
        undoable = moves > self.undo_floor and self.safe.undo_start(moves) >= self.undo_floor
        return not self.is_over and undoable

    @property
    def can_redo(self) -> bool:
        return not self.is_over and self.game.can_redo

    @property
    def can_restart(self) -> bool:
        return not self.is_over and self.undo_floor == 0 and self.game.can_undo

    @property
    def moves_played(self) -> int:
        """Every move played, those since taken back (by undo or restart) too: what
        the daily board's fewest moves counts, so that looking ahead by undo costs."""
        return self.game.move_count + self.taken_back

    @property
    def timed_state(self) -> tuple[int, int]:
        """Timed scoring: the penalty points taken and the 10-second periods charged."""
        return self._charged, self._ticks

    @timed_state.setter
    def timed_state(self, state: tuple[int, int]) -> None:
        self._charged, self._ticks = state

    def elapsed(self, now: float) -> float:
        return self.clock.read(now)

    def score(self, now: float) -> int:
        """The score shown at ``now``: the timed penalty counted up to then."""
        running = self.game.running_score
        if self.rules.scoring is not Scoring.TIMED:
            return running
        elapsed = self.elapsed(now)
        charged = timed_charge(running, self._charged, time_ticks(elapsed) - self._ticks)
        bonus = time_bonus(elapsed) if self.status is Status.WON else 0
        return max(0, running - charged) + bonus

    @property
    def room(self) -> int:
        """Moves the game's history has room for still (``check_room``)."""
        return max(0, self.max_moves - self.game.move_count)

    def auto_move(self) -> Move | None:
        """The next move of an auto finish that wins within the history's ``room``: the
        offered line's (see ``offer_finish``), else the greedy finish's, once nothing is
        unseen and it is simulated to win (``autofinish.finish_plan``); none when the
        finish needs more moves than the history has room for. A thoughtful deal, all
        face up, gets none before its first move (one key would win)."""
        return self._finish_move(self.room)

    def _finish_move(self, room: int | None) -> Move | None:
        """``auto_move`` for a finish of ``room`` moves at most (None: any number)."""
        if self.is_over or (self.rules.thoughtful and not self.game.move_count):
            return None
        line = self._offered()
        if line and (room is None or len(line) <= room):
            return line[0]
        return finish_plan(self.position, room)

    def offer_finish(self, line: Sequence[Move], start: Position) -> bool:
        """Let the auto finish play ``line``, a ``Finisher``'s proven win from
        ``start`` (the position it was asked for, ``self.position`` then); kept
        while the game is at ``start`` or follows the line. Whether it was taken:
        not when the game has moved on, or when the line does not replay to a win;
        nor when it needs more moves than the history's ``room`` (it is kept all the
        same, not to be solved again, but ``auto_move`` does not play it)."""
        if self.is_over or start != self.position or not start.wins_with(line):
            return False
        self._finish_line = (start, tuple(line))
        return len(line) <= self.room

    @property
    def finish_offered(self) -> bool:
        """Whether an offered line (``offer_finish``) goes on from here."""
        return bool(self._offered())

    def _offered(self) -> tuple[Move, ...]:
        """What is left of the offered line, if the game is where it goes on."""
        if self._finish_line is None or self._finish_line[0] != self.position:
            return ()
        return self._finish_line[1]

    def snapshot(self) -> Position:
        """A copy of the position, for a search in another thread."""
        return self.position.copy()

    def peek(self) -> Position:
        """A copy of the true position for "still winnable?", which looks at the
        hidden cards: from now on the game counts as assisted. Only in play."""
        self._check_playing()
        self.assisted = True
        return self.position.copy()

    def board_view(self) -> PlayerView:
        """What the player knows of the position now, without the positions
        passed (cheap: for the auto finish, which needs no history)."""
        known = known_cards(self.position, self.seen)
        return PlayerView.with_earlier(self.position, known, ())

    def view(self) -> PlayerView:
        """What the player knows of the position, for a fair hint: the cards
        seen (also those an undo has hidden again) and the positions passed."""
        known = known_cards(self.position, self.seen)
        earlier = self.game.packed_positions
        cache = self._earlier_keys
        if cache.known != known:
            cache.known, cache.pairs = known, []
        pairs = cache.pairs
        same = 0
        while same < min(len(pairs), len(earlier)) and pairs[same][0] is earlier[same]:
            same += 1
        del pairs[same:]
        rules = self.rules
        pairs.extend(
            (packed, masked_key(unpack(packed, rules), known)) for packed in earlier[same:]
        )
        return PlayerView.with_earlier(self.position, known, (key for _, key in pairs))

    def outcome(self, now: float) -> Outcome:
        return Outcome(
            status=self.status,
            origin=self.origin,
            elapsed=self.elapsed(now),
            moves=self.game.move_count,
            score=self.score(now),
            cards_home=sum(self.position.foundations),
        )

    # -- actions -----------------------------------------------------------------

    def play(self, move: Move | str, now: float, action: Action = Action.PLAY) -> Event:
        """Play a legal move (or its text); raises a ``BonanzaError`` naming why not. A move
        of the player's (``Action.PLAY``) is followed, with safe auto-play on, by the safe
        moves home (``Event.then``; see ``safe_home``)."""
        self.check_room()
        before = self.position
        self._tick(now)
        played = self.game.play(move)
        self.safe.new_line(self.game.move_count)
        self.touched = True
        if action is not Action.PLAY:
            return self._after_move(action, played, before, now)
        self.safe.took(played, before)
        event = self._after_move(action, played, before, now)
        return replace(event, then=self._send_safe_home(now))

    def check_room(self) -> None:
        """No move, nor hint: ``GameOverError`` once over, ``HistoryFullError`` when full."""
        self._check_playing()
        if self.game.move_count >= self.max_moves:
            raise HistoryFullError.at(self.max_moves)

    def set_safe_home(self, on: bool) -> None:
        """Switch safe auto-play (the player's setting); no card stays held."""
        self.safe.switch(on)

    def _send_safe_home(self, now: float) -> tuple[Event, ...]:
        """Send every safe card home, one move each, while the setting is on."""
        events: list[Event] = []
        while not self.is_over and self.game.move_count < self.max_moves:
            move = self.safe.next_move(self.position)
            if move is None:
                break
            before = self.position
            self.game.play(move)
            self.safe.automatic.add(self.game.move_count)
            events.append(self._after_move(Action.HOME, move, before, now))
        return tuple(events)

    def draw(self, now: float) -> Event:
        """Turn the stock: draw, or recycle the waste."""
        self._check_playing()
        for move in self.game.legal_moves():
            if move.is_draw or move.is_recycle:
                return self.play(move, now)
        raise SessionError("the stock is empty and the pass limit is reached")

    def auto_step(self, now: float) -> Event:
        """Play the next auto-finish move (of the offered line, if any)."""
        line = self._offered()
        move = self.auto_move()
        if move is None:
            self.check_room()
            if self._finish_move(None) is not None:  # it would run past the limit
                raise NoAutoFinishError(messages.finish_past_limit(self.room))
            raise NoAutoFinishError(
                "auto finish is not available: it is offered once every card is known and "
                "the finish is proven to win (in a thoughtful game, after your first move)"
            )
        event = self.play(move, now, Action.AUTO)
        if line[1:] and move == line[0]:
            self._finish_line = (self.position, line[1:])
        return event

    def auto_finish(self, now: float) -> list[Event]:
        """Play the whole auto finish."""
        events = [self.auto_step(now)]
        while not self.is_over:
            events.append(self.auto_step(now))
        return events

    def undo(self, now: float) -> Event:
        """Take back the player's last move, with the automatic moves after it."""
        self._check_playing()
        if not self.can_undo:
            if self.undo_floor:
                raise UndoRefusedError(
                    "in Vegas a card seen from the stock stays seen: that draw cannot be undone"
                )
            raise UndoRefusedError("nothing to undo: no move has been played")
        self._tick(now)
        start = self.safe.undo_start(self.game.move_count)
        automatic = self.game.move_count - start - 1
        for _ in range(automatic):
            self._undo_one()
        move = self._undo_one()
        self.seen |= visible_cards(self.position)
        self.safe.settle(self.position)
        text = messages.undid(move, self.position)
        if automatic:
            text += messages.undid_home(automatic)
        return Event(Action.UNDO, text, self.status, move)

    def redo(self, now: float) -> Event:
        """Replay the last move undone, with the automatic moves that followed it."""
        self._check_playing()
        before = self.position
        self._tick(now)
        try:
            move = self.game.redo()
        except HistoryError:
            raise RedoRefusedError("nothing to redo") from None
        self.safe.took(move, before)
        event = self._after_move(Action.REDO, move, before, now)
        then: list[Event] = []
        while self.game.can_redo and self.game.move_count + 1 in self.safe.automatic:
            before = self.position
            replayed = self.game.redo()
            then.append(self._after_move(Action.REDO, replayed, before, now))
        return replace(event, then=tuple(then))

    def restart(self, now: float) -> Event:
        """Back to the deal, every move kept for redo; the game still counts."""
        self._check_playing()
        if self.undo_floor:
            raise UndoRefusedError("in Vegas a card seen from the stock stays seen: no restart")
        if not self.game.can_undo:
            raise UndoRefusedError("nothing to restart: no move has been played")
        self._tick(now)
        while self.game.can_undo:
            self._undo_one()
        self.safe.held.clear()  # every move taken back, those that took cards down too
        return Event(Action.RESTART, messages.RESTARTED, self.status)

    def end(self, now: float) -> Event:
        """Leave the game: lost once it counts, abandoned before."""
        self._check_playing()
        self._finish(Status.LOST if self.touched else Status.ABANDONED, now)
        return Event(Action.END, f"Game {self.status}", self.status)

    # -- inside ----------------------------------------------------------------

    def _check_playing(self) -> None:
        if self.is_over:
            raise GameOverError(f"this game is over ({self.status}): start a new one")

    def _tick(self, now: float) -> None:
        """Bring the clock and the timed penalty up to ``now`` before an action."""
        if self.rules.scoring is Scoring.TIMED:
            ticks = time_ticks(self.clock.read(now))
            running = self.game.running_score
            self._charged = timed_charge(running, self._charged, ticks - self._ticks)
            self._ticks = ticks
        self.clock.touch(now)

    def _undo_one(self) -> Move:
        """Undo one move of the game, the seen cards following the twins' names back."""
        later = self.position
        move = self.game.undo()
        self.taken_back += 1
        twins.follow(self.seen, move, self.position, later)
        return move

    def _after_move(self, action: Action, move: Move, before: Position, now: float) -> Event:
        after = self.position
        twins.follow(self.seen, move, before, after)
        self.seen |= visible_cards(after)
        self.safe.settle(after)
        if self.rules.scoring.is_vegas and (move.is_draw or move.is_recycle):
            self.undo_floor = self.game.move_count
        if action is Action.REDO:
            text = messages.redid(move, before, after)
        else:
            text = messages.announce(move, before, after)
        won = self.game.is_won
        if won:
            self._finish(Status.WON, now)
            text += ". " + messages.won(self.game.move_count)
        elif not after.has_moves():
            text += ". " + messages.no_moves_left(self.can_undo)
        revealed = messages.revealed_card(move, before, after)
        return Event(action, text, self.status, move, revealed, won)

    def _finish(self, status: Status, now: float) -> None:
        self.status = status
        self.finished_at = now
        self.clock.stop(now)
        self.game.elapsed = self.clock.elapsed

    # -- saving ------------------------------------------------------------------

    def to_json(self, *, compact: bool = False) -> dict[str, Any]:
        """The session as JSON-ready data (``compact``: ``Game.to_json``'s, for a store)."""
        return saved.session_data(self, compact=compact)

    @classmethod
    def from_json(
        cls,
        data: Any,
        *,
        idle_cap: float = IDLE_CAP,
        max_moves: int = MAX_MOVES,
        trusted: bool = False,
    ) -> Session:
        """Load what ``to_json`` wrote (or a bare saved ``Game``); ``SaveError`` names faults.

        A ``trusted`` save (from this program's own store) loads without replaying its
        moves (``Game.from_json``), and takes its seen cards as saved."""
        if isinstance(data, dict) and data.get("format") != SESSION_FORMAT:
            game = Game.from_json(data)
            session = cls(game, idle_cap=idle_cap, max_moves=max_moves)
            session.clock.elapsed = game.elapsed
            session.touched = session.touched or game.can_undo
            return session
        if not isinstance(data, dict) or data.get("version") != SESSION_VERSION:
            raise SaveError(f"not a saved Bonanza session of version {SESSION_VERSION}")
        try:
            game = Game.from_json(data.get("game"), trusted=trusted)
            seen = saved.seen_of(data, game.rules.decks * DECK_SIZE)
            session = cls(
                game,
                origin=saved.origin_of(data),
                typed=data.get("typed") if isinstance(data.get("typed"), str) else None,
                created_at=float(data.get("created_at") or 0.0),
                idle_cap=idle_cap,
                max_moves=max_moves,
                seen=seen if trusted else None,
            )
            if not trusted:
                session.seen |= seen
            saved.restore(session, data, idle_cap)
        except (BonanzaError, TypeError, ValueError) as error:
            raise SaveError(f"saved session: {error}") from None
        return session

    def __repr__(self) -> str:
        return f"<Session {self.status} {self.rules.to_text()!r} moves={self.game.move_count}>"

