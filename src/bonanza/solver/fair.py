"""Fair hints by hindsight: sample the hidden cards, solve each layout, choose.

The engine takes a ``PlayerView``, which holds no hidden card, so it cannot
peek. Its policy, in order:

1. a safe move home (no card can ever need that card in the tableau, and it
   does not come off the waste with draw 3), or the only useful move: no
   sampling needed;
2. every card known: the solver's line with its detours cut out;
3. otherwise hindsight optimisation: layouts that fit the view are drawn at
   random and solved, the same layouts for every move (paired samples), and
   the move that wins in the most of them is chosen. Moves that fall clearly
   behind are dropped after each round, so the close ones get the samples;
   ties go to a card no tableau card can need sent home off the waste, then
   to the move the solver itself played first most often (so that hint
   after hint follows one plan), failing a clear one to the move that
   starts the quiet line to a reveal (a commitment) that wins in most of
   the same layouts, then to the move that shows the player most (see
   ``fair_choice.choose``);
4. no layout wins: the move that keeps the most options, unless the
   quiet-move search proves that no move makes progress.

A move that would lead back to a position already played is chosen only
when nothing else is left, so following the hints never goes round in
circles. Nor, among moves that score alike, does it choose one that puts the
columns and foundations back as they were earlier while the stock and waste
hold the same cards (``_back_moves``): moving a run away and straight back
around a few draws only wastes moves, and could go on for hundreds. The
budget is counted in solver nodes, not seconds, so a hint is the same for
the same view and seed on any machine.

Where the C core does not take the rules (Double Klondike), layouts are
solved by the generic search in C with talon macros
(``generic.sample_verdict``), which has no pruning rules: the budget is
counted at its own rate (``GENERIC``; docs/hints.md).
"""

from __future__ import annotations

import enum
import hashlib
import math
import random
from dataclasses import dataclass

from bonanza.core.moves import Move, Pile
from bonanza.core.position import Position
from bonanza.core.safety import is_safe_move_home, is_safe_to_send_home
from bonanza.core.view import PlayerView, ViewKey, masked_key
from bonanza.solver import explain
from bonanza.solver.fair_budget import (
    COMPILED,
    DEFAULT_BUDGET,
    GENERIC,
    HINT_PRUNE,
    HINT_SIDES,
    MIN_SOLVE_NODES,
    QUICK_STUCK_NODES,
    STUCK_NODES,
    Sampling,
)
from bonanza.solver.fair_choice import (
    Candidate,
    Rule,
    Scored,
    choose,
    line_score,
    nearest_progress,
    not_back,
    still_close,
)
from bonanza.solver.lines import clean_line
from bonanza.solver.quiet import is_informative, is_pointless_recall, turns_up
from bonanza.solver.search import Verdict, compiled, solve, verdict


class AdviceKind(enum.Enum):
    """Why the hint engine chose its move."""

    SAFE = "safe"  # a card home that no card can ever need
    FORCED = "forced"  # the only useful move
    KNOWN = "known"  # every card is known: the solver's line
    SAMPLED = "sampled"  # wins in the most sampled layouts
    LOOKS_LOST = "looks lost"  # no sampled layout wins: the move that keeps most options
    NO_PROGRESS = "no progress"  # proven: no move makes progress


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint: the move (None only when no move makes progress), its words,
    and the sampled layouts it won in (``wins`` of ``samples``). A sampled
    hint also keeps every move it tried (``scored``) and the rule that chose
    among them (``rule``)."""

    move: Move | None
    text: str
    kind: AdviceKind
    wins: float = 0.0
    samples: int = 0
    scored: tuple[Scored, ...] = ()
    rule: Rule | None = None


class _Nodes:
    """The node budget of one hint, and how it is spent (``sampling``)."""

    def __init__(self, budget: float, sampling: Sampling = COMPILED) -> None:
        self.sampling = sampling
        self.left = max(1, int(budget * sampling.nodes_per_second))

    def spend(self, nodes: int) -> None:
        self.left -= nodes + self.sampling.call_nodes

    def cap(self, most: int) -> int:
        """The node cap of the next solve: ``most``, or what is left (not too little)."""
        return max(MIN_SOLVE_NODES, min(most, self.left))

    @property
    def spent(self) -> bool:
        return self.left <= 0


def advise(view: PlayerView, *, budget: float = DEFAULT_BUDGET, seed: int = 0) -> Advice:
    """The fair hint for ``view``, within ``budget`` seconds, deterministic per ``seed``."""
    if isinstance(budget, bool) or not isinstance(budget, int | float):
        raise TypeError(f"budget must be a number of seconds, not {budget!r}")
    if not 0 < budget < math.inf:  # NaN too; an infinite budget has no node count
        raise ValueError(f"budget must be a positive, finite number of seconds, not {budget!r}")
    layout = view.layout(sorted(view.unseen))
    moves, same, every, back = _useful_moves(view, layout)
    if not every:
        return Advice(None, explain.NO_MOVES, AdviceKind.NO_PROGRESS)
    if not moves:  # every move leads back: going round in circles, unless proven not
        if _is_stuck(layout, STUCK_NODES):
            return Advice(None, explain.STUCK, AdviceKind.NO_PROGRESS)
        moves = every
    for move in moves:
        if _is_safe_home(layout, move):
            return Advice(move, explain.safe(move, layout), AdviceKind.SAFE)
    if len(moves) == 1:
        if not is_informative(layout, moves[0]) and _is_stuck(layout, QUICK_STUCK_NODES):
            return Advice(None, explain.STUCK, AdviceKind.NO_PROGRESS)
        text = explain.forced(moves[0], layout, others_go_back=len(every) > 1)
        return Advice(moves[0], text, AdviceKind.FORCED)
    nodes = _Nodes(budget, COMPILED if compiled(layout) else GENERIC)
    if view.is_known():
        known = _known_advice(view, layout, moves, nodes)
        if known is not None:
            return known
    return _sampled_advice(view, layout, moves, same, back, nodes, budget, seed)


# -- the moves worth trying ---------------------------------------------------------


def _useful_moves(
    view: PlayerView, layout: Position
) -> tuple[list[Move], dict[Move, Move], list[Move], frozenset[Move]]:
    """The legal moves, one per distinct outcome and without pointless recalls,
    that lead somewhere not played before; for every legal move, the one kept
    for its outcome; the kept moves including those that lead back; and those
    of the first that undo earlier moves (see ``_back_moves``)."""
    known = {int(card) for card in view.rules.cards} - set(view.unseen)
    outcomes: dict[ViewKey, Move] = {}
    same: dict[Move, Move] = {}
    here = view.key()
    for move in layout.legal_moves():
        if is_pointless_recall(layout, move):
            continue
        after = layout.copy()
        after.apply(move)
        key = masked_key(after, known)
        if key != here:  # (a king and its run from one column alone to a space)
            same[move] = outcomes.setdefault(key, move)
    fresh = [move for key, move in outcomes.items() if key not in view.earlier]
    return fresh, same, list(outcomes.values()), _back_moves(view, outcomes, set(fresh))


def _back_moves(view: PlayerView, outcomes: dict[ViewKey, Move],
                among: set[Move]) -> frozenset[Move]:
    """The moves of ``among`` that put the columns and foundations back as
    they were at an earlier position, while the stock and waste hold the
    same cards as then (in any order); draws and recycles excepted.

    Such a move never gains anything: draws and recycles touch only the stock
    and waste, and tableau and foundation moves only the columns and
    foundations, so the draws in between could have been made without
    leaving. It is still allowed when it scores clearly best (a move away
    may have been a mistake).
    """
    wanted: dict[tuple[object, object], dict[tuple[str, ...], Move]] = {}
    for key, move in outcomes.items():
        if move in among and not (move.is_draw or move.is_recycle):
            columns, stock, waste, foundations, _ = key
            wanted.setdefault((columns, foundations), {})[_pile_cards(stock, waste)] = move
    if not wanted:
        return frozenset()
    back: set[Move] = set()
    for columns, stock, waste, foundations, _ in view.earlier:
        by_cards = wanted.get((columns, foundations))
        if by_cards:
            undoing = by_cards.get(_pile_cards(stock, waste))
            if undoing is not None:
                back.add(undoing)
    return frozenset(back)


def _pile_cards(stock: object, waste: object) -> tuple[str, ...]:
    """The cards in the stock and waste (a view key's), in a fixed order."""
    assert isinstance(stock, tuple) and isinstance(waste, tuple)
    return tuple(sorted(map(repr, stock + waste)))


def _is_safe_home(layout: Position, move: Move) -> bool:
    """A safe move home (``bonanza.core.safety``): never from the waste with
    draw 3, where taking a card off the waste can lose a won deal."""
    return is_safe_move_home(layout, move)


def _is_unneeded_home(layout: Position, move: Move) -> bool:
    """A card that no tableau card can ever need, sent home off the waste.

    With draw 3 this is no safe move (``_is_safe_home``): taking a card off
    the waste changes which cards later draws turn up, and can lose a won
    deal. That is what the sampled layouts measure, so the move is sampled,
    and chosen when it scores within noise of the best (``fair_choice.choose``): it
    clears the waste and can never block the tableau.
    """
    if move.source != Pile.WASTE or not move.dest.is_foundation:
        return False
    return is_safe_to_send_home(layout, layout.moving_cards(move)[0])


def _preference(layout: Position, move: Move) -> tuple[int, ...]:
    """How much a move shows or settles, for breaking ties (smaller first):
    turning up a card, a card home, a card off the waste, a tableau move,
    a draw, a recycle, and last a card back from its foundation."""
    if turns_up(layout, move):
        kind = 0
    elif move.dest.is_foundation:
        kind = 1
    elif move.source.is_tableau and move.dest.is_tableau:
        kind = 3
    elif move.is_draw:
        kind = 4
    elif move.is_recycle:
        kind = 5
    elif move.source.is_foundation:
        kind = 6
    else:
        kind = 2
    return (kind,)


# -- every card known ---------------------------------------------------------------


def _known_advice(
    view: PlayerView, layout: Position, moves: list[Move], nodes: _Nodes
) -> Advice | None:
    """The first move of the solver's cleaned line that leads somewhere new, or
    None when the search is undecided (then sampling tries each move)."""
    result = solve(layout, node_limit=nodes.cap(nodes.sampling.known_nodes), prune=HINT_PRUNE,
                   sides=HINT_SIDES)
    nodes.spend(result.nodes)
    if result.result == "unsolvable":
        return Advice(None, explain.LOST, AdviceKind.NO_PROGRESS)
    if result.result != "solved":
        return None
    line = clean_line(layout, result.moves)
    first = line[0]
    if first in moves:
        return Advice(first, explain.known(first, layout, len(line)), AdviceKind.KNOWN, 1.0, 1)
    # The line's first move leads back to a position already played: another
    # winning move, if the budget finds one, else the line's move after all.
    for move in sorted(moves, key=lambda move: _preference(layout, move)):
        after = layout.copy()
        after.apply(move)
        answer, _, spent = verdict(after, nodes.cap(nodes.sampling.sample_nodes), HINT_PRUNE,
                                   HINT_SIDES)
        nodes.spend(spent)
        if answer == "solved":
            return Advice(move, explain.known(move, layout, None), AdviceKind.KNOWN, 1.0, 1)
        if nodes.spent:
            break
    return Advice(first, explain.known(first, layout, len(line)), AdviceKind.KNOWN, 1.0, 1)


# -- hindsight sampling -------------------------------------------------------------


def _sampled_advice(
    view: PlayerView,
    layout: Position,
    moves: list[Move],
    same: dict[Move, Move],
    back: frozenset[Move],
    nodes: _Nodes,
    budget: float,
    seed: int,
) -> Advice:
    rng = random.Random(_seed_for(view, seed))
    sampling = nodes.sampling
    limit = 1 if view.is_known() else max(
        sampling.first_round, round(sampling.max_samples * math.sqrt(budget))
    )
    candidates = [Candidate(move, _preference(layout, move)) for move in moves]
    alive = list(candidates)
    layouts: list[tuple[Position, Verdict]] = []
    while alive and not nodes.spent:
        target = min(limit, sampling.first_round if not layouts
                     else len(alive[0].scores) + sampling.round)
        while len(layouts) < target and not nodes.spent:
            sample = sample_layout(view, rng)
            answer, first, spent = verdict(sample, nodes.cap(sampling.sample_nodes), HINT_PRUNE,
                                           HINT_SIDES)
            nodes.spend(spent)
            layouts.append((sample, answer))
            voted = same.get(first) if first is not None else None
            for candidate in candidates:
                if candidate.move == voted:
                    candidate.votes += 1
        for candidate in alive:
            while len(candidate.scores) < len(layouts) and not nodes.spent:
                sample, root = layouts[len(candidate.scores)]
                candidate.scores.append(line_score(sample, root, (candidate.move,), nodes))
        alive = still_close(alive)
        if len(layouts) >= limit or len(alive) <= 1:
            break
    tried = [candidate for candidate in alive if candidate.scores]
    if not tried:  # a budget too small for even one solve
        tried = candidates
    homing = frozenset(move for move in moves if _is_unneeded_home(layout, move))
    best, rule = choose(tried, layout, same, back, nodes, homing, layouts)
    samples = len(best.scores)
    wins = sum(best.scores)
    if wins > 0:
        text = explain.sampled(best.move, layout, wins, samples)
        scored = tuple(candidate.scored() for candidate in tried)
        return Advice(best.move, text, AdviceKind.SAMPLED, wins, samples, scored, rule)
    return _looks_lost(view, layout, moves, same, back, nodes, samples)


def sample_layout(view: PlayerView, rng: random.Random) -> Position:
    """A layout that fits ``view``, its unseen cards shuffled by ``rng``."""
    cards = sorted(view.unseen)
    rng.shuffle(cards)
    return view.layout(cards)


def _seed_for(view: PlayerView, seed: int) -> int:
    """A seed from the caller's and the view's own (stable across runs)."""
    digest = hashlib.blake2b(f"{seed}|{view.key()!r}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


# -- when nothing wins ---------------------------------------------------------


def _is_stuck(layout: Position, node_limit: int) -> bool:
    """Proven that no line of moves makes progress (silent when the cap is hit)."""
    from bonanza.solver.progress import progress_possible

    return progress_possible(layout, node_limit=node_limit) is False


def _looks_lost(view: PlayerView, layout: Position, moves: list[Move], same: dict[Move, Move],
                back: frozenset[Move], nodes: _Nodes, samples: int) -> Advice:
    """No layout won: the first move of the shortest quiet line to progress, else
    the move that keeps most options (neither moving back where another will
    do), unless none makes progress."""
    if _is_stuck(layout, QUICK_STUCK_NODES):
        return Advice(None, explain.STUCK, AdviceKind.NO_PROGRESS, 0.0, samples)
    moves = list(not_back(dict.fromkeys(moves), back))
    nearest = nearest_progress(layout, same, set(moves), nodes)
    if nearest is not None:
        return Advice(nearest, explain.looks_lost(nearest, layout, samples),
                      AdviceKind.LOOKS_LOST, 0.0, samples)

    def options(move: Move) -> tuple[int, int]:
        after = layout.copy()
        after.apply(move)
        informative = turns_up(layout, move) or (move.is_draw and view.stock[-1:] == (None,))
        return (0 if informative else 1, -len(after.legal_moves()))

    move = min(moves, key=options)
    return Advice(move, explain.looks_lost(move, layout, samples), AdviceKind.LOOKS_LOST, 0.0,
                  samples)
