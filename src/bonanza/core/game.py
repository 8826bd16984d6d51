"""A game: a deal, its rules, the moves played, undo and redo, and the score.

A saved game holds its moves' texts, and also (``exact``) the current position
packed, the running score and the moves exactly: a store that trusts its own
saves loads a game from them without replaying it (``from_json(trusted=True)``),
in time that hardly grows with its history. The positions passed, which undo
and the player's view need, are then replayed from the deal the first time
they are asked for, and checked against the saved position; so are the moves'
texts. A store's own rows leave the texts out (``to_json(compact=True)``): they
are written and read back in time that hardly grows with the game either.
"""

from __future__ import annotations

import base64
import binascii
import math
from typing import Any, Final

from bonanza.core.deal import Deal
from bonanza.core.errors import BonanzaError, HistoryError, SaveError
from bonanza.core.move_codes import CODE_CHARS, decode_moves, encode_moves, move_code
from bonanza.core.moves import Move
from bonanza.core.notation import format_move, parse_move
from bonanza.core.packed import pack, unpack
from bonanza.core.position import Position
from bonanza.core.rules import Rules
from bonanza.core.scoring import add_points, game_score, initial_score, move_points

CHECKPOINT_EVERY: Final = 128
"""A trusted save keeps the position (and score) after every this many moves, so an
undo after a load replays at most this many moves, not the whole game."""
CHECKPOINT_FIELDS: Final = 3
"""A checkpoint's fields: the moves before it, its position packed, its score."""
SAVE_FORMAT: Final = "bonanza-game"
SAVE_VERSION: Final = 1
TEXT_MOVE_LINES: Final = ("moves", "redo")
"""The text save's last lines, written even when empty (a game at move 0)."""


class Game:
    """One game of a deal under a rule set, with unlimited undo and redo.

    ``elapsed`` is the playing time in seconds; the caller keeps it up to
    date (the core has no clock).
    """

    def __init__(self, deal: Deal, rules: Rules, elapsed: float = 0.0) -> None:
        self._current = Position.initial(deal, rules)  # refuses a deal of the wrong size
        self.deal = deal
        self.rules = rules
        self.elapsed = elapsed
        self._history: list[Move] | None = []  # None: still in ``_history_code``
        self._history_code = ""  # the moves as saved exactly, kept as the history changes
        self._texts: list[str] | None = []  # the history's texts (None: not made yet)
        self._passed: list[bytes] = []  # the positions before the current one, packed
        self._scores = [initial_score(rules)]
        self._redo: list[Move] = []
        self._unloaded = 0  # leading moves whose positions and scores are not kept yet
        self._checkpoints: dict[int, tuple[bytes, int]] = {}  # below it: position, score
        self._saved_checkpoints: list[Any] | None = None  # as loaded, read when first needed
        self._previous_unchecked = False  # ``_passed`` is a save's position before its last
        self._legal: tuple[Position | None, tuple[Move, ...]] = (None, ())  # at, moves
        self._packed: tuple[Position | None, bytes] = (None, b"")  # at, its bytes

    @property
    def history(self) -> list[Move]:
        """The moves played, in order (play and undo through the game)."""
        if self._history is None:
            self._history = decode_moves(self._history_code)
        return self._history

    @property
    def position(self) -> Position:
        """The current position. Do not change it: play moves through the game."""
        return self._current

    def legal_moves(self) -> tuple[Move, ...]:
        """The current position's legal moves, worked out once for each position."""
        at, moves = self._legal
        current = self._current
        if at is not current:
            moves = tuple(current.legal_moves())
            self._legal = (current, moves)
        return moves

    def packed(self) -> bytes:
        """The current position packed (``core.packed.pack``), once for each position:
        a move keeps it for undo, a save writes it and the progress check's cache is
        keyed by it."""
        at, data = self._packed
        current = self._current
        if at is not current:
            data = pack(current)
            self._packed = (current, data)
        return data

    @property
    def positions(self) -> tuple[Position, ...]:
        """Every position from the deal to now, in order (made afresh from the
        packed history: for the current one alone, use :attr:`position`)."""
        self._load_passed()
        return (*(unpack(data, self.rules) for data in self._passed), self._current)

    @property
    def packed_positions(self) -> tuple[bytes, ...]:
        """The positions before the current one, packed (see :mod:`bonanza.core.packed`):
        each stays the same object while it stays in the history."""
        self._load_passed()
        return tuple(self._passed)

    def recent_positions(self, count: int) -> tuple[Position, ...]:
        """The last ``count`` positions, the current one last."""
        if count - 1 > len(self._passed):
            self._load_passed(count - 1)
        earlier = self._passed[max(0, len(self._passed) - count + 1) :] if count > 1 else []
        return (*(unpack(data, self.rules) for data in earlier), self._current)

    @property
    def history_texts(self) -> list[str]:
        """The texts of the moves played, in order (a new list; made from the exact
        moves the first time after a compact load, then kept as the history changes)."""
        if self._texts is None:
            self._texts = _move_texts(self.history)
        return self._texts[:]

    @property
    def move_count(self) -> int:
        return len(self._history_code) // CODE_CHARS

    @property
    def recycle_count(self) -> int:
        return self.position.recycles

    @property
    def is_won(self) -> bool:
        return self.position.is_won()

    @property
    def can_undo(self) -> bool:
        return bool(self._history_code)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def redo_moves(self) -> list[Move]:
        """The moves redo would replay, next first."""
        return self._redo[::-1]

    @property
    def running_score(self) -> int:
        """The points of the moves played, with no time counted."""
        return self._scores[-1]

    def score(self, elapsed: float | None = None) -> int:
        """The score now, at ``elapsed`` seconds (default: ``self.elapsed``)."""
        seconds = self.elapsed if elapsed is None else elapsed
        return game_score(self.rules, self._scores[-1], seconds, self.is_won)

    def play(self, move: Move | str) -> Move:
        """Play a legal move (a ``Move`` or its text); redo is cleared."""
        played = self._push(move)
        self._redo.clear()
        return played

    def _push(self, move: Move | str) -> Move:
        before = self.position
        if isinstance(move, str):
            move = parse_move(move, before, self.legal_moves())
        after = before.copy()
        revealed = after.play(move)
        points = move_points(self.rules, move, revealed is not None, before.recycles)
        self._passed.append(self.packed())
        self._current = after
        self._scores.append(add_points(self.rules, self._scores[-1], points))
        if self._history is not None:  # else it is read from the code when asked for
            self._history.append(move)
        self._history_code += move_code(move)  # kept, so a save need not encode every move
        if self._texts is not None:
            self._texts.append(format_move(move))
        return move

    def undo(self) -> Move:
        """Take back the last move."""
        if not self.can_undo:
            raise HistoryError("nothing to undo: no move has been played")
        if not self._passed:
            self._load_passed(1)
        elif self._previous_unchecked and len(self._passed) == 1:
            self._check_previous()
        if self._history is not None:
            move = self._history.pop()
        else:  # the last move alone, from the code
            move = decode_moves(self._history_code[-CODE_CHARS:])[0]
        self._history_code = self._history_code[:-CODE_CHARS]
        if self._texts is not None:
            self._texts.pop()
        data = self._passed.pop()
        self._current = unpack(data, self.rules)
        self._packed = (self._current, data)
        self._scores.pop()
        self._redo.append(move)
        return move

    def _check_previous(self) -> None:
        """That the move after a trusted save's position before its last move (the first
        kept) leads to the next position and score kept, as it must."""
        self._previous_unchecked = False
        at = self._unloaded * CODE_CHARS
        move = decode_moves(self._history_code[at : at + CODE_CHARS])[0]
        after, score = self._replayed(unpack(self._passed[0], self.rules), move, self._scores[0])
        reached = self._passed[1] if len(self._passed) > 1 else pack(self._current)
        if pack(after) != reached or score != self._scores[1]:
            raise SaveError("saved game: its moves do not lead to its saved position")

    def redo(self) -> Move:
        """Play again the last move undone."""
        if not self._redo:
            raise HistoryError("nothing to redo")
        move = self._redo[-1]
        self._push(move)
        self._redo.pop()
        return move

    def restart(self) -> None:
        """Back to the deal, with every move kept for redo."""
        while self.can_undo:
            self.undo()

    def __repr__(self) -> str:
        return f"<Game {self.deal.id} {self.rules.to_text()!r} moves={self.move_count}>"

    # -- saving ------------------------------------------------------------

    def to_json(self, *, compact: bool = False) -> dict[str, Any]:
        """The game as JSON-ready data: deal, rules, moves, redo and time.

        ``compact`` leaves out the moves' texts (a store's own rows): the moves are
        then only in ``exact``, read back in time that hardly grows with them."""
        texts = {} if compact else {
            "moves": self.history_texts, "redo": _move_texts(self.redo_moves)
        }  # fmt: skip
        exact: dict[str, Any] = {
            "position": base64.b64encode(self.packed()).decode("ascii"),
            "score": self._scores[-1],
            "moves": self._history_code,
            "redo": encode_moves(self._redo),
            "checkpoints": self._checkpoint_data(),
        }
        if self._passed:  # the position before the last move: an undo after a load is O(1)
            previous = base64.b64encode(self._passed[-1]).decode("ascii")
            exact["previous"] = [previous, self._scores[-2]]
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "deal": self.deal.id,
            "rules": self.rules.to_dict(),
            **texts,
            "elapsed": self.elapsed,
            "exact": exact,
        }

    @classmethod
    def from_json(cls, data: Any, *, trusted: bool = False) -> Game:
        """Load what ``to_json`` wrote; raises ``SaveError`` naming the problem.

        A ``trusted`` save (one this program wrote to its own store) is loaded from
        its ``exact`` part without replaying its moves; any other is replayed move
        by move, so a save edited by hand cannot set up a position no game reaches."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError(f"not a saved Bonanza game (format {SAVE_FORMAT!r} missing)")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"saved game version {data.get('version')!r} is not {SAVE_VERSION}")
        exact = data.get("exact")
        compact = "moves" not in data and "redo" not in data and isinstance(exact, dict)
        if compact and not trusted and isinstance(exact, dict):  # texts, to be replayed
            data = {**data, **_texts_of(exact)}
        for key, kind in (("deal", str),) if compact else (
            ("deal", str), ("moves", list), ("redo", list)
        ):  # fmt: skip
            if not isinstance(data.get(key), kind):
                raise SaveError(f"saved game: {key!r} is missing or not a {kind.__name__}")
        elapsed = _checked_elapsed(data.get("elapsed", 0.0))
        try:
            rules = Rules.from_dict(data.get("rules", {}))
            game = cls(Deal.parse(data["deal"], rules.decks), rules, elapsed)
        except BonanzaError as error:
            raise SaveError(f"saved game: {error}") from None
        if trusted and isinstance(exact, dict):
            game._load_exact(data.get("moves"), exact)
        else:
            game._replay(data["moves"], data["redo"])
        return game

    def _load_exact(self, texts: list[Any] | None, exact: dict[str, Any]) -> None:
        """Take the current position, score and moves as saved (see the module notes);
        ``texts`` (None in a compact save) are made from the moves when asked for."""
        code, redo, score = exact.get("moves"), decode_moves(exact.get("redo")), exact.get("score")
        if not isinstance(code, str) or len(code) % CODE_CHARS:
            raise SaveError("saved game: its exact moves are not text")
        if texts is not None and len(texts) * CODE_CHARS != len(code):
            raise SaveError("saved game: its exact moves are not its moves")
        if not isinstance(score, int) or isinstance(score, bool):
            raise SaveError(f"saved game: score {score!r} is not a number")
        try:
            packed = base64.b64decode(str(exact.get("position")), validate=True)
            self._current = unpack(packed, self.rules)
        except (binascii.Error, ValueError, IndexError, KeyError):
            raise SaveError("saved game: its position cannot be read") from None
        self._history, self._history_code = None, code  # read when first asked for
        self._texts, self._redo = None if texts is None else list(texts), redo
        self._scores = [score]
        self._unloaded = self.move_count
        previous = exact.get("previous")
        if previous is not None and self._unloaded:
            self._passed[:], self._scores[:0] = _read_previous(previous)
            self._unloaded -= 1
            self._previous_unchecked = True
        checkpoints = exact.get("checkpoints", [])
        if not isinstance(checkpoints, list):
            raise SaveError("saved game: its checkpoints are not a list")
        if self._unloaded % CHECKPOINT_EVERY == 0 and self._unloaded < self.move_count:
            last = checkpoints[-1] if checkpoints else None  # kept as the previous position
            if isinstance(last, list) and last and last[0] == self._unloaded:
                checkpoints = checkpoints[:-1]
        self._saved_checkpoints = checkpoints  # read at the first undo, if any

    def _checkpoint_data(self) -> list[list[Any]]:
        """Every ``CHECKPOINT_EVERY``-th position passed, with its score, as saved."""
        data = []
        first = CHECKPOINT_EVERY
        if self._saved_checkpoints is not None:  # none read, none replayed: as loaded
            data = self._saved_checkpoints[:]
            first = max(first, -(-self._unloaded // CHECKPOINT_EVERY) * CHECKPOINT_EVERY)
        for index in range(first, self.move_count, CHECKPOINT_EVERY):
            if index < self._unloaded:
                packed, score = self._checkpoints.get(index, (b"", 0))
                if not packed:
                    continue
            else:
                packed, score = (
                    self._passed[index - self._unloaded],
                    self._scores[index - self._unloaded],
                )
            data.append([index, base64.b64encode(packed).decode("ascii"), score])
        return data

    def _load_passed(self, count: int | None = None) -> None:
        """Replay the moves whose positions are not kept yet (a game loaded exactly),
        until ``count`` positions passed are kept (None: all), from the nearest
        checkpoint, and check that they lead where the save said."""
        if not self._unloaded or (count is not None and len(self._passed) >= count):
            return
        if self._previous_unchecked:
            self._check_previous()
        if self._saved_checkpoints is not None:
            self._checkpoints = _read_checkpoints(self._saved_checkpoints, self._unloaded)
            self._saved_checkpoints = None
        target = 0 if count is None else max(0, self._unloaded - (count - len(self._passed)))
        begin = max((index for index in self._checkpoints if index <= target), default=0)
        if begin:
            packed, score = self._checkpoints[begin]
            position = unpack(packed, self.rules)
        else:
            position, score = Position.initial(self.deal, self.rules), initial_score(self.rules)
        passed: list[bytes] = []
        scores = [score]
        for move in self.history[begin : self._unloaded]:
            passed.append(pack(position))
            position, score = self._replayed(position, move, score)
            scores.append(score)
        reached = self._passed[0] if self._passed else pack(self._current)
        if pack(position) != reached or scores[-1] != self._scores[0]:
            raise SaveError("saved game: its moves do not lead to its saved position")
        self._passed[:0] = passed
        self._scores[:0] = scores[:-1]
        self._unloaded = begin
        self._checkpoints = {i: kept for i, kept in self._checkpoints.items() if i < begin}

    def _replayed(self, position: Position, move: Move, score: int) -> tuple[Position, int]:
        """A saved move played again without its legality checked (a trusted save's):
        the position after it and the running score."""
        try:
            after = position.copy()
            revealed = after.apply(move)
        except (AssertionError, IndexError, ValueError):
            raise SaveError("saved game: its moves do not replay") from None
        points = move_points(self.rules, move, revealed is not None, position.recycles)
        return after, add_points(self.rules, score, points)

    def to_text(self) -> str:
        """The game as a small plain-text record."""
        data = self.to_json()
        return "\n".join(
            (
                f"{SAVE_FORMAT} {SAVE_VERSION}",
                f"deal {data['deal']}",
                f"rules {self.rules.to_text()}",
                f"elapsed {self.elapsed!r}",
                f"moves {' '.join(data['moves'])}".rstrip(),
                f"redo {' '.join(data['redo'])}".rstrip(),
                "",
            )
        )

    @classmethod
    def from_text(cls, text: str) -> Game:
        """Load what ``to_text`` wrote."""
        lines = text.strip().splitlines()
        if not lines or lines[0].split() != [SAVE_FORMAT, str(SAVE_VERSION)]:
            raise SaveError(
                f"not a saved Bonanza game: the first line is not '{SAVE_FORMAT} {SAVE_VERSION}'"
            )
        fields: dict[str, str] = {}
        for line in lines[1:]:
            key, _, value = line.partition(" ")
            fields[key] = value.strip()
        missing = {"deal", "rules"} - set(fields)
        if missing:
            raise SaveError(f"saved game lacks the line(s): {', '.join(sorted(missing))}")
        cut = [key for key in TEXT_MOVE_LINES if key not in fields]
        if cut:  # ``to_text`` writes both, empty at move 0: the file was cut short
            raise SaveError(
                f"saved game lacks the line(s): {', '.join(cut)} (the file is cut off, "
                "so its moves would be lost)"
            )
        try:
            elapsed = float(fields.get("elapsed", "0"))
        except ValueError:
            raise SaveError(f"saved game: elapsed {fields['elapsed']!r} is not a number") from None
        elapsed = _checked_elapsed(elapsed)  # (its SaveError says "saved game" once)
        try:
            rules = Rules.from_text(fields["rules"])
            game = cls(Deal.parse(fields["deal"], rules.decks), rules, elapsed)
        except (BonanzaError, ValueError) as error:
            raise SaveError(f"saved game: {error}") from None
        game._replay(fields.get("moves", "").split(), fields.get("redo", "").split())
        return game

    def _replay(self, moves: list[Any], redo: list[Any]) -> None:
        for label, texts in (("move", moves), ("redo move", redo)):
            for number, text in enumerate(texts, 1):
                if not isinstance(text, str):
                    raise SaveError(f"saved game: {label} {number} is {text!r}, not a move's text")
                try:
                    self._push(text)
                except BonanzaError as error:
                    raise SaveError(
                        f"saved game: {label} {number} ({text!r}) does not replay: {error}"
                    ) from None
        for _ in redo:
            self.undo()


def _move_texts(moves: list[Move]) -> list[str]:
    """The moves' texts (a move's text needs no position)."""
    return [format_move(move) for move in moves]


def _read_previous(data: object) -> tuple[list[bytes], list[int]]:
    """A trusted save's position before its last move, and its score: ``[position, score]``."""
    if not (isinstance(data, list) and len(data) == 2 and isinstance(data[0], str)
            and isinstance(data[1], int) and not isinstance(data[1], bool)):  # fmt: skip
        raise SaveError(f"saved game: the position before the last move {data!r} cannot be read")
    try:
        return [base64.b64decode(data[0], validate=True)], [data[1]]
    except (binascii.Error, ValueError):
        raise SaveError("saved game: the position before the last move is not base64") from None


def _texts_of(exact: dict[str, Any]) -> dict[str, list[str]]:
    """The moves' and redo moves' texts of a compact save, from its exact moves (to be
    replayed, checked, as any untrusted save's)."""
    redo = decode_moves(exact.get("redo"))[::-1]  # as ``to_json`` lists it: next first
    return {"moves": _move_texts(decode_moves(exact.get("moves"))), "redo": _move_texts(redo)}


def _checked_elapsed(value: object) -> float:
    """A saved playing time: a finite number of seconds, not negative."""
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or value < 0
    ):
        raise SaveError(f"saved game: elapsed {value!r} is not a number of seconds")
    return float(value)


def _read_checkpoints(data: object, moves: int) -> dict[int, tuple[bytes, int]]:
    """A trusted save's checkpoints: ``[index, position, score]`` each, within its moves."""
    if not isinstance(data, list):
        raise SaveError("saved game: its checkpoints are not a list")
    found: dict[int, tuple[bytes, int]] = {}
    for entry in data:
        if not (isinstance(entry, list) and len(entry) == CHECKPOINT_FIELDS
                and all(isinstance(v, int) and not isinstance(v, bool) for v in entry[::2])
                and isinstance(entry[1], str) and 0 < entry[0] < moves):  # fmt: skip
            raise SaveError(f"saved game: checkpoint {entry!r} cannot be read")
        try:
            found[entry[0]] = (base64.b64decode(entry[1], validate=True), entry[2])
        except (binascii.Error, ValueError):
            raise SaveError(f"saved game: checkpoint {entry[0]} is not base64") from None
    return found
