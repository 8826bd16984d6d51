"""Searches (hints, progress checks): cached per position, run in a bounded pool.

- Answers are cached per position, so a client looping ``/hint`` costs one search.
  A hint is searched on the player's view (``Session.view()``), never on the
  position, and cached under that view and the positions already played: its
  key holds no hidden card, and two games the player cannot tell apart share it.
- The hint's budget is the engine's default, cut to half the search deadline
  when a server sets a tight one, so a hint ends before its client gives up.
- Searches run in worker threads, at most ``search_workers`` at once.
- Each player may start ``searches_per_minute`` searches (cached answers are free), and
  all the players of one client address ``searches_per_address_per_minute``; one
  address never runs searches on every worker at once (a flood leaves the others one).
- A search past ``search_deadline`` is abandoned and its client gets 503. In
  a worker thread (the default) it runs to its end, and its answer is still
  cached; in a worker process (``search_processes``) the process is killed.
- "Still winnable?" and the review of a lost game solve the true position
  (the review, the game's history), so they are cached under a key of the
  position (or the deal and the moves) that stays on the server.
- The auto finish is solved on the player's board (``Session.board_view()``),
  once it places every card, and cached under a digest of that view alone
  (``finish_key``), which stays on the server; only whether a finish is
  offered reaches the page.
- The progress check first tries a small budget on the event loop, which
  decides nearly every position in well under a millisecond; only the rest
  go to the workers.
- A solver that refuses the rules in play (it raises ``RulesError``: a table no
  search plays yet) gives an answer that says so in words (``unless_refused``,
  ``bonanza.play.answers.not_yet``), never a server error. Any other failure
  is a bug and is raised, in every game.
- A client that goes away is not watched for: polling for it cost more than
  the searches themselves (p99 of a move 33 ms without, 96 ms with, in
  ``benchmarks/server.py --progress``), and the deadline bounds the waste.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import threading
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

import anyio
import anyio.to_process
import anyio.to_thread

from bonanza.core import Game, Move, Position, Rules, RulesError
from bonanza.core.notation import format_move
from bonanza.core.packed import pack
from bonanza.core.view import PlayerView
from bonanza.play.answers import (
    AUTO_FINISH,
    HINTS,
    PROGRESS_CHECK,
    REVIEW,
    STILL_WINNABLE,
    CriticalMove,
    HintReply,
    LineStep,
    ProgressReply,
    ReviewReply,
    WinnableReply,
)
from bonanza.play.errors import RateLimited, Unavailable
from bonanza.session import Advisor, Finisher, Session
from bonanza.session.advisor import ask
from bonanza.session.winnable import WinnableAnswer
from bonanza.solver.quiet import is_known
from bonanza.web.limits import ServerLimits
from bonanza.web.rate import RateLimiter

T = TypeVar("T")
Line = tuple[Move, ...]
"""An auto finish's proven line (empty: none proven); it stays on the server."""
Answer = HintReply | ProgressReply | WinnableReply | ReviewReply | Line
"""What the pool caches: a search's answer, by meaning (``bonanza.play.answers``)."""
A = TypeVar("A", bound=Answer)

log = logging.getLogger(__name__)

ADDRESS_MARK = "@"
"""Joins a player's token and their client address in the key of a search's requester."""


def requester(player: str, address: str | None) -> str:
    """Who asks for a search: the player, and their address when known."""
    return player if address is None else f"{player}{ADDRESS_MARK}{address}"


def unless_refused(
    rules: Rules,
    feature: str,
    work: Callable[[], T],
    refused: Callable[[Rules], T],
    *,
    quiet: bool = False,
) -> T:
    """``work()``; where it raises ``RulesError`` (no search plays these rules
    yet), ``refused(rules)``, the answer that says so (``bonanza.play.answers``),
    logged unless ``quiet``. Any other error is a bug, and is raised as it is,
    whatever the game."""
    try:
        return work()
    except RulesError:
        if not quiet:
            log.warning("%s failed for %s", feature, rules.title, exc_info=True)
        return refused(rules)


QUICK_PROGRESS_NODES = 2_000
"""The progress check's first try, on the event loop, for positions with a card
still unknown (the C quiet-move search, benchmarks/progress.py): it decides
98-100 % of random-play positions and 85-95 % of stuck ends, in at most about
6 ms (median 0.03 ms), and a thread hop costs more. Known positions go to the
solver, so they skip this try and go straight to a worker."""


def hint_budget(limits: ServerLimits) -> float:
    """Seconds the server's own hints may take: the engine's default, but at
    most half the search deadline."""
    from bonanza.solver.fair_budget import DEFAULT_BUDGET

    return min(DEFAULT_BUDGET, limits.search_deadline / 2)


def default_advisor(limits: ServerLimits | None = None) -> Advisor:
    from bonanza.solver.advisor import SolverAdvisor

    return SolverAdvisor(budget=hint_budget(limits or ServerLimits()))


def default_finisher() -> Finisher:
    from bonanza.solver.advisor import SolverAdvisor

    return SolverAdvisor()


def quick_advisor() -> Advisor:
    from bonanza.solver.advisor import SolverAdvisor

    return SolverAdvisor(progress_nodes=QUICK_PROGRESS_NODES)


class SearchPool:
    """The server's searches, shared by all players."""

    def __init__(
        self,
        limits: ServerLimits,
        advisor: Advisor | None = None,
        finisher: Finisher | None = None,
    ) -> None:
        self.limits = limits
        self.advisor = advisor if advisor is not None else default_advisor(limits)
        self.finisher = finisher if finisher is not None else default_finisher()
        # A small first try on the event loop, for the solver's own advisor only.
        self.quick: Advisor | None = quick_advisor() if advisor is None else None
        self._workers = anyio.CapacityLimiter(limits.search_workers)
        self._rate = RateLimiter(limits.searches_per_minute)
        self._address_rate = RateLimiter(limits.searches_per_address_per_minute)
        # Searches one address may run at once: never every worker, so a flood from one
        # address (any number of cookies) leaves the others a worker.
        self._per_address = max(1, limits.search_workers - 1)
        self._running: dict[str, anyio.Semaphore] = {}
        self._answers: OrderedDict[str, Answer] = OrderedDict()
        self._lock = threading.Lock()
        self.searches_run = 0
        # Each live game's last view and its cache key, with what they were made of.
        self._views: weakref.WeakKeyDictionary[Session, tuple[Position, int, PlayerView, str]] = (
            weakref.WeakKeyDictionary()
        )

    def _cached(self, key: str, kind: type[A]) -> A | None:
        """The cached answer under ``key``, if it is one of ``kind``."""
        with self._lock:
            answer = self._answers.get(key)
            if answer is not None:
                self._answers.move_to_end(key)
        return answer if isinstance(answer, kind) else None

    def _keep(self, key: str, answer: Answer) -> None:
        """Cache an answer (called from worker threads too)."""
        with self._lock:
            self._answers[key] = answer
            while len(self._answers) > self.limits.search_cache_size:
                self._answers.popitem(last=False)

    async def _search(self, player: str, key: str, work: Callable[[], A], kind: type[A]) -> A:
        """``work()``'s answer (of ``kind``), cached under ``key``; run in the pool,
        under the player's and their address's rate limits (``player``: the player's
        token, or ``token@address`` from the service), the address's share of the
        workers and the search deadline."""
        cached = self._cached(key, kind)
        if cached is not None:
            return cached
        token, _at, address = player.partition(ADDRESS_MARK)
        if not self._rate.allow(token):
            raise RateLimited(
                f"too many searches: at most {self.limits.searches_per_minute} a minute"
            )
        if address and not self._address_rate.allow(address):
            most = self.limits.searches_per_address_per_minute
            raise RateLimited(f"too many searches from your address: at most {most} a minute")
        with anyio.move_on_after(self.limits.search_deadline):
            async with self._turn(address):
                return await self._run(key, work, kind)
        raise Unavailable(
            f"the search took longer than {self.limits.search_deadline:g} s: try again"
        )

    @contextlib.asynccontextmanager
    async def _turn(self, address: str) -> AsyncIterator[None]:
        """Wait for the address's turn: at most ``_per_address`` of its searches at once."""
        if not address:
            yield
            return
        running = self._running.get(address)
        if running is None:
            running = self._running[address] = anyio.Semaphore(self._per_address)
        try:
            async with running:
                yield
        finally:
            if running.value == self._per_address and self._running.get(address) is running:
                del self._running[address]  # idle: forgotten

    async def _run(self, key: str, work: Callable[[], A], kind: type[A]) -> A:
        """Run ``work`` in the pool and cache its answer (the deadline is the caller's)."""

        def run() -> A:
            answer = work()
            self._keep(key, checked(answer, kind))  # kept even when its client stopped waiting
            return answer

        self.searches_run += 1
        if self.limits.search_processes:
            answer: A = await anyio.to_process.run_sync(
                work, cancellable=True, limiter=self._workers
            )
            self._keep(key, checked(answer, kind))
            return answer
        return await anyio.to_thread.run_sync(run, abandon_on_cancel=True, limiter=self._workers)

    async def view_of(self, session: Session) -> tuple[PlayerView, str]:
        """``session.view()`` and its cache key, made in a worker thread and kept
        until the game moves on: they pass over every position played (some
        0.6 s at 5,000 moves), so a client asking again costs nothing more.
        Call it where no move can change the game meanwhile (its lock held)."""
        position, seen = session.position, len(session.seen)  # the view follows from these
        kept = self._views.get(session)
        if kept is not None and kept[0] is position and kept[1] == seen:
            return kept[2], kept[3]

        def made() -> tuple[PlayerView, str]:
            view = session.view()
            return view, hint_key(view)

        view, key = await anyio.to_thread.run_sync(made)
        self._views[session] = (position, seen, view, key)
        return view, key

    async def hint(self, player: str, view: PlayerView, key: str | None = None) -> HintReply:
        """The fair hint for the player's ``view`` (it holds no hidden card);
        ``key`` is ``hint_key(view)``, when known already."""
        work = functools.partial(hint_answer, self.advisor, view)
        return await self._search(player, key or hint_key(view), work, HintReply)

    def quick_progress(
        self, position: Position, packed: bytes | None = None
    ) -> ProgressReply | None:
        """The progress check's answer for ``position`` (``packed``: its bytes, if
        known) if it is at hand: cached, or decided by the small first try on the
        event loop (``QUICK_PROGRESS_NODES``); None when only the pool can tell (a
        move's answer then leaves it to the page to ask)."""
        key = "progress " + _key(position, packed)
        cached = self._cached(key, ProgressReply)
        quick = self.quick
        if cached is not None or quick is None or is_known(position):
            return cached
        found = unless_refused(
            position.rules,
            PROGRESS_CHECK,
            lambda: quick.progress(position),
            lambda _rules: None,
            quiet=True,  # the workers' try logs it and says so
        )
        if found is None:
            return None
        answer = ProgressReply(found)  # decided within the small budget
        self._keep(key, answer)
        return answer

    async def progress(self, player: str, position: Position) -> ProgressReply:
        found = self.quick_progress(position)
        if found is not None:
            return found
        work = functools.partial(progress_answer, self.advisor, position)
        return await self._search(player, "progress " + _key(position), work, ProgressReply)

    async def finish(self, player: str, view: PlayerView) -> Line:
        """The auto finish's proven line for the player's ``view`` (empty when
        none is proven); the line stays on the server."""
        work = functools.partial(finish_answer, self.finisher, view)
        return await self._search(player, finish_key(view), work, tuple)

    async def winnable(self, player: str, position: Position) -> WinnableReply:
        """Answer "still winnable?" for the true ``position``: the verdict word and its
        sentence, never a card or a move."""
        work = functools.partial(winnable_answer, position)
        return await self._search(player, "winnable " + _key(position), work, WinnableReply)

    async def review(self, player: str, game: Game) -> ReviewReply:
        """The review of a finished game (its deal may be shown: it is over)."""
        moves = " ".join(map(format_move, game.history))
        key = f"review {game.rules!r} {game.deal.id} {moves}"
        budget = review_budget(self.limits)
        work = functools.partial(review_answer, game.positions, tuple(game.history), budget)
        return await self._search(player, key, work, ReviewReply)


def checked(answer: object, kind: type[A]) -> A:
    """``answer``, which a search of ``kind`` must give (else a bug: raised)."""
    if not isinstance(answer, kind):
        raise TypeError(f"a search gave {type(answer).__name__}, not {kind.__name__}")
    return answer


def hint_answer(advisor: Advisor, view: PlayerView) -> HintReply:
    """The hint's answer (module level, so a worker process can run it): the
    move (None when no move makes progress) and the engine's words."""

    def asked() -> HintReply:
        hint = ask(advisor, view)
        return HintReply(hint.move, hint.text)

    return unless_refused(view.rules, HINTS, asked, HintReply.not_yet)


def finish_answer(finisher: Finisher, view: PlayerView) -> Line:
    """The finisher's line (module level, for a worker process): kept in the
    server's cache, never sent."""
    line = unless_refused(view.rules, AUTO_FINISH, lambda: finisher.finish(view), lambda _: None)
    return tuple(line or ())


def progress_answer(advisor: Advisor, position: Position) -> ProgressReply:
    """Whether progress is possible (None: not proven either way), and for a game
    the solver does not check yet, the words that say so (``unavailable``)."""
    return unless_refused(
        position.rules,
        PROGRESS_CHECK,
        lambda: ProgressReply(advisor.progress(position)),
        ProgressReply.not_yet,
    )


def winnable_answer(position: Position) -> WinnableReply:
    """The answer to "still winnable?" (module level, for a worker process)."""
    from bonanza.solver.review import still_winnable

    def judged() -> WinnableReply:
        answer = WinnableAnswer.of(still_winnable(position))
        return WinnableReply(answer.winnable, answer.text)

    return unless_refused(position.rules, STILL_WINNABLE, judged, WinnableReply.not_yet)


def review_budget(limits: ServerLimits) -> float:
    """Seconds all of a review's solves may take: the solver's default, but at
    most half the search deadline."""
    from bonanza.solver.review import REVIEW_TOTAL_SECONDS

    return min(REVIEW_TOTAL_SECONDS, limits.search_deadline / 2)


def review_answer(
    positions: tuple[Position, ...], moves: tuple[Move, ...], budget: float
) -> ReviewReply:
    """A finished game's review (module level, for a worker process): where it
    was lost, the move that lost it, and a winning line from there, in the
    game's notation and in words; its solves take ``budget`` seconds at most."""
    return unless_refused(
        positions[0].rules,
        REVIEW,
        lambda: _reviewed(positions, moves, budget),
        ReviewReply.not_yet,
    )


def _reviewed(
    positions: tuple[Position, ...], moves: tuple[Move, ...], budget: float
) -> ReviewReply:
    from bonanza.solver.review import line_words, review

    found = review(positions, moves, total_limit=budget)
    critical = None
    if found.critical is not None and found.index is not None:
        words = line_words(positions[found.index], [found.critical])[0]
        critical = CriticalMove(found.index + 1, found.critical, words)
    start = positions[found.index] if found.index is not None else positions[0]
    said = line_words(start, found.line)
    line = tuple(
        LineStep(format_move(move), words) for move, words in zip(found.line, said, strict=True)
    )
    # the line starts after ``found.index`` of the game's moves
    return ReviewReply(found.finding, found.text, critical, found.index, line)


def hint_key(view: PlayerView) -> str:
    """The cache key of a hint: the view as it is (columns in their places, as
    the hint names them; not ``view.key()``, which ignores their order) and the
    positions already played (``view.earlier``), which the hint avoids. Made
    of the view alone, it holds no hidden card."""
    earlier = "\n".join(sorted(map(repr, view.earlier)))
    digest = hashlib.sha256(f"{view!r}\n{earlier}".encode()).hexdigest()
    return "hint " + digest


def finish_key(view: PlayerView) -> str:
    """The cache key of an auto finish: a digest of the view as it is, columns
    in their places (the line names them), without the positions passed."""
    return "finish " + hashlib.sha256(repr(view).encode()).hexdigest()


@functools.lru_cache(maxsize=64)
def _rules_key(rules: Rules) -> str:
    return repr(rules)


def _key(position: Position, packed: bytes | None = None) -> str:
    """A position's cache key: its rules and its packed bytes (which hold all of it;
    ``packed``, if known), a few times cheaper than its text, and asked for after
    every move."""
    data = pack(position) if packed is None else packed
    return f"{_rules_key(position.rules)} {data.hex()}"
