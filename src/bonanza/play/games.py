"""A player's games: what a new game deals, and starting, resuming and ending games.

One rule for every front end. A player asks for a game (:class:`StartRequest`):
a random deal, a typed deal, a shared deal, the deal of an earlier game again,
a stocked winnable deal of a grade, or a daily deal. :func:`choose_start`
turns that into what to deal (:class:`Start`): the deal, its rules, where it
came from (``Origin``: a random deal seen before is a replay; chosen deals count
apart in the statistics) and the words that announce it. :func:`start_game`
makes the game's session and record. These functions block on the store: the
web runs them in a worker thread, the terminal calls them directly.
"""

from __future__ import annotations

import copy
import dataclasses
import secrets
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Final

from bonanza.core import BonanzaError, Deal, Rules
from bonanza.play.chosen_deals import daily_start, deal_labels, winnable_start
from bonanza.play.daily import DAILY_KEY
from bonanza.play.deal_identity import known_deal, unplayed_keys
from bonanza.play.deal_stock import DealStock
from bonanza.play.errors import Conflict, Invalid, NotFound
from bonanza.session import MAX_MOVES, Origin, Session, Status
from bonanza.session.deals import DEAL_NUMBER_BITS
from bonanza.solver.grading import Grade
from bonanza.storage import NewGame, Storage
from bonanza.storage.player_settings import safe_home
from bonanza.storage.records import GameRecord, rules_of_key

GAME_ID_BYTES: Final = 12
"""Random bytes in a game's ID."""
MAX_ID_LENGTH: Final = 64
"""The longest game or share ID looked up in the store; a longer one is not found."""
SHARE_ID_BYTES: Final = 9
"""Random bytes in a share ID (12 characters), as the web's."""
SHARE_PARAMETER: Final = "share"
"""The query parameter of a web link that names a share ID: ``/?share=ID``."""
NEW_DEAL: Final = "New deal"
SHARE_NOT_OPEN: Final = "this shared deal opens once the game it was shared from is over"
NO_LAST_DEAL: Final = "no earlier game to replay: play one first"
RACE_ATTEMPTS: Final = 3
"""Times a change, or a new game's start, is tried again on what the store holds
after another front end or process changed it first; past that it is refused."""


@dataclass(frozen=True, slots=True)
class StartRequest:
    """What a player asks to start: ``rules`` and at most one way to choose the deal
    (none: a random deal). ``replay`` is the ID of an earlier game of the player's,
    whose deal and rules are dealt again."""

    rules: Rules
    deal_text: str | None = None
    share: str | None = None
    replay: str | None = None
    grade: Grade | None = None
    daily: str | None = None

    def __post_init__(self) -> None:
        given = [
            name
            for name in ("deal", "share", "replay", "grade", "daily")
            if getattr(self, "deal_text" if name == "deal" else name) is not None
        ]
        if len(given) > 1:
            if {"grade", "daily"} & set(given):
                raise Invalid("a winnable or daily deal takes no deal, share or replay")
            raise Invalid(f"give at most one of deal, share and replay, not {given}")


@dataclass(frozen=True, slots=True)
class Start:
    """What to deal: the deal, its rules and origin, the words that announce it,
    the text the player typed (for a typed deal), the labels kept with the game
    (``GameRecord.extra``: a grade, a daily deal's day; never the deal) and, when the
    origin says the player never had the deal (random, winnable, a daily deal's
    first game), the deal's IDs, which the store checks again as it stores the game
    (``NewGame.first_of``): two starts at once cannot both be the first."""

    deal: Deal
    rules: Rules
    origin: Origin
    announce: str = NEW_DEAL
    typed: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    first_of: tuple[str, ...] = ()


def choose_start(
    storage: Storage,
    stock: DealStock,
    player: str,
    request: StartRequest,
    now: float,
    random_deals: Callable[[], Deal],
) -> Start:
    """What ``request`` deals for ``player``; a ``PlayError`` says why not."""
    rules = request.rules
    if request.daily is not None:
        stocked = daily_start(stock, storage, player, request.daily, rules.draw, now)
        return Start(stocked.deal, stocked.rules, stocked.origin, stocked.announce,
                     extra=stocked.extra, first_of=stocked.first_of)  # fmt: skip
    if request.grade is not None:
        stocked = winnable_start(stock, storage, player, rules, request.grade)
        return Start(stocked.deal, stocked.rules, stocked.origin, stocked.announce,
                     extra=stocked.extra, first_of=stocked.first_of)  # fmt: skip
    if request.share is not None:
        return _shared(storage, request.share)
    if request.replay is not None:
        return _replayed(storage, player, request.replay)
    if request.deal_text is not None:
        try:
            deal = Deal.parse(request.deal_text, rules.decks)
        except BonanzaError as error:
            raise Invalid(f"that is not a deal: {error}") from None
        deal = known_deal(storage, player, deal, now)  # its code typed: its number all the same
        return Start(deal, rules, Origin.TYPED, typed=request.deal_text)
    deal = with_decks(random_deals(), rules.decks)
    first_of = unplayed_keys(storage, player, deal, rules)
    return Start(deal, rules, Origin.RANDOM if first_of else Origin.REPLAY, first_of=first_of)


def taken_again(storage: Storage, player: str, earlier: Start) -> Start:
    """``earlier``, a winnable deal's start the store refused as stale, prepared again:
    the deal it took from the stock (taken once: another would waste the stock, and let
    a player draw deal after deal), its origin and first game's IDs read anew."""
    first_of = unplayed_keys(storage, player, earlier.deal, earlier.rules)
    origin = Origin.WINNABLE if first_of else Origin.REPLAY
    return dataclasses.replace(earlier, origin=origin, first_of=first_of)


def _shared(storage: Storage, share: str) -> Start:
    found = storage.get_share(share) if len(share) <= MAX_ID_LENGTH else None
    if found is None:
        raise NotFound.of(f"shared deal {share!r}")
    if not found.opens:
        raise Conflict(SHARE_NOT_OPEN)
    rules = rules_of_key(found.rules_key)
    return Start(Deal.parse(found.deal, rules.decks), rules, Origin.SHARED)


def _replayed(storage: Storage, player: str, game_id: str) -> Start:
    """The deal and rules of the player's game ``game_id`` (another player's is not found),
    with its labels: a daily deal's replay is still that day's daily deal (a replay,
    it counts apart and never enters the leaderboard), a winnable deal keeps its grade."""
    old = storage.get_game(game_id) if len(game_id) <= MAX_ID_LENGTH else None
    if old is None or old.player != player:
        raise NotFound.of(f"game {game_id!r}")
    rules = rules_of_key(old.rules_key)
    deal = Deal.parse(old.deal, rules.decks)
    return Start(deal, rules, Origin.REPLAY, extra=deal_labels(old.extra))


def last_game(storage: Storage, player: str, client: str) -> GameRecord:
    """The player's latest game on ``client``, whose deal "play it again" replays."""
    latest = storage.latest_game(player, client)
    if latest is None:
        raise Conflict(NO_LAST_DEAL)
    return latest


def share_deal(storage: Storage, game_id: str) -> str:
    """A new share ID for the deal of the stored game ``game_id``, kept in the store;
    it opens once that game is over (before, it would let its player look under
    the cards of the game in play from a second window). No ID begins with ``-``,
    which a command line would read as an option (``bonanza play --share ID``)."""
    share_id = secrets.token_urlsafe(SHARE_ID_BYTES)
    while share_id.startswith("-"):
        share_id = secrets.token_urlsafe(SHARE_ID_BYTES)
    storage.add_share(share_id, game_id)
    return share_id


def share_link(share_id: str) -> str:
    """The web's link to a shared deal, from the server's root: ``/?share=ID``."""
    return f"/?{urllib.parse.urlencode({SHARE_PARAMETER: share_id})}"


def share_id_in(text: str) -> str:
    """The share ID that ``text`` gives: a link's ``share`` parameter
    (``http://host/?share=ID``; "" for a link whose parameter is empty), else the
    text itself, stripped."""
    text = text.strip()
    query = urllib.parse.urlsplit(text).query if "?" in text else ""
    found = urllib.parse.parse_qs(query, keep_blank_values=True).get(SHARE_PARAMETER)
    return found[0].strip() if found else text


def start_game(
    storage: Storage,
    player: str,
    start: Start,
    now: float,
    *,
    client: str = "web",
    max_moves: int = MAX_MOVES,
) -> tuple[GameRecord, Session]:
    """A new game of ``start`` for ``player``, with their settings; not stored yet."""
    session = Session.new(
        start.deal, start.rules, now, origin=start.origin, typed=start.typed, max_moves=max_moves
    )
    session.set_safe_home(safe_home(storage, player))
    if DAILY_KEY in start.extra:  # counts from the deal: leaving it to see the deal is a loss
        session.touched = True
    record = GameRecord.of(new_game_id(), player, session, now, client=client)
    record.extra.update(start.extra)
    return record, session


@dataclass(frozen=True)
class PreparedGame:
    """A new game as read from the store in one go (:func:`prepare_game`)."""

    start: Start
    playing: list[GameRecord]
    """The player's games in play: they end as the new one starts."""
    record: GameRecord
    session: Session
    now: float
    """When it was dealt: after the games in play were read (its ``created_at``)."""
    request: StartRequest
    """What it was prepared from: prepared again when another start stored first."""

    def stored(self, ended: Iterable[GameRecord]) -> NewGame:
        """What the store is asked to write (``Storage.start_game``): the new game, the
        games of ``playing`` it ended (their new states) and its deal's IDs if it is the
        player's first game of the deal."""
        return NewGame(self.record, tuple(ended), self.start.first_of)


def prepare_game(
    storage: Storage,
    stock: DealStock,
    player: str,
    request: StartRequest,
    clock: Callable[[], float],
    random_deals: Callable[[], Deal],
    *,
    client: str = "web",
    max_moves: int = MAX_MOVES,
    earlier: Start | None = None,
) -> PreparedGame:
    """The player's games in play on ``client``, what ``request`` deals
    (:func:`choose_start`) and the new game (:func:`start_game`, not stored yet): every
    read a new game makes, so a server reads them in one trip to a worker thread.

    The games in play are read first and the time after, so a game another start stored
    before they were read is older than this one, and one stored after makes the store
    refuse this start (``StaleStartError``): it stays the latest game as long as it is
    in play. Prepared again after that, ``earlier`` is the start refused: a winnable
    deal it took from the stock is dealt again (:func:`taken_again`), not another."""
    playing = storage.playing_games(player, client)
    now = clock()
    if earlier is not None and request.grade is not None:
        start = taken_again(storage, player, earlier)
    else:
        start = choose_start(storage, stock, player, request, now, random_deals)
    record, session = start_game(
        storage, player, start, now, client=client, max_moves=max_moves
    )
    return PreparedGame(start, playing, record, session, now, request)


def new_game_id() -> str:
    return secrets.token_urlsafe(GAME_ID_BYTES)


def end(session: Session, now: float) -> bool:
    """End a game in play because another starts (lost, once it counts); whether it
    changed (a game already over, perhaps ended elsewhere, is left as it is)."""
    if session.is_over:
        return False
    session.end(now)
    return True


def ending(record: GameRecord, session: Session, now: float) -> GameRecord | None:
    """What a new game's start stores of ``record``, a game in play it read, whose
    session is ``session`` (``PreparedGame.stored``): the game ended (:func:`end`)
    at its next version, a copy (the store reads it, maybe in another thread);
    None when it was over already. ``record`` and ``session`` are changed too."""
    if not end(session, now):
        return None
    record.update(session, now)
    record.version += 1
    return copy.copy(record)


def ending_shown(record: GameRecord, session: Session, now: float) -> GameRecord:
    """What a new game's start stores of the game on a front end's table: ``record``
    at its next version with the state of ``session``, ended (:func:`end`; the table's
    state, which the stored row may lag behind). A copy: ``record`` is left as it is."""
    end(session, now)
    ended = copy.copy(record)
    ended.extra = dict(record.extra)
    ended.update(session, now)
    ended.version += 1
    return ended


def ending_unread(record: GameRecord, now: float) -> GameRecord:
    """What a new game's start stores of ``record``, a game in play whose saved state
    cannot be read back (a damaged row): ended from its row alone, so that it never
    blocks a new game. Lost once it counts (it has moves, or Vegas paid its ante at
    the deal), else abandoned; its state is kept as it is. A copy, at the next version."""
    ended = copy.copy(record)
    counts = record.moves > 0 or rules_of_key(record.rules_key).scoring.is_vegas
    ended.status = Status.LOST if counts else Status.ABANDONED
    ended.finished_at = now
    ended.version += 1
    return ended


def with_decks(deal: Deal, decks: int) -> Deal:
    """A random deal of ``decks`` decks: the same secret number dealt with as many
    decks (Double Klondike's deals have two), or a new one."""
    if deal.decks == decks:
        return deal
    if deal.number is not None:
        return Deal.from_number(deal.number, decks)
    return Deal.from_number(secrets.randbits(DEAL_NUMBER_BITS), decks)


def newest_last(records: Iterable[GameRecord]) -> list[GameRecord]:
    """``records`` in the order they were created."""
    return sorted(records, key=lambda record: record.created_at)
