"""Small full-knowledge searches over the engine, to pick deals for the tests.

The tests know every card (the browser never does): they use these to find a
winning move list, a deal with no moves after the stock runs out, and so on.
"""

from __future__ import annotations

from collections.abc import Iterator

from bonanza.core import Deal, Game, Move, Pile, Position, Rules


def _ordered(position: Position) -> Iterator[Move]:
    """Legal moves worth trying, most promising first; pointless shuffles left out."""
    moves = position.legal_moves()
    home = [m for m in moves if m.dest.is_foundation and not m.source.is_foundation]
    yield from sorted(home, key=lambda m: position.foundations[m.dest - Pile.FC])
    for m in moves:
        if not (m.source.is_tableau and m.dest.is_tableau):
            continue
        column = position.tableau[m.source]
        down = position.down[m.source]
        whole = m.count == len(column) - down
        if whole and down:
            yield m  # turns a card up
        elif whole and not down and position.tableau[m.source][0] % 13 != 12:
            yield m  # empties a column (not just shifting a king to another empty one)
        elif not whole:
            under = column[-m.count - 1]
            if position.foundations[under // 13] == under % 13:
                yield m  # frees a card for its foundation
    for m in moves:
        if m.source == Pile.WASTE and m.dest.is_tableau:
            yield m
    for m in moves:
        if m.is_draw or m.is_recycle:
            yield m


def solve(deal: Deal, rules: Rules, node_limit: int = 200_000) -> list[Move] | None:
    """A winning move list for ``deal`` found by depth-first search, or None."""
    start = Position.initial(deal, rules)
    seen: set[object] = set()
    path: list[Move] = []
    nodes = 0

    def key(p: Position) -> object:
        return (
            tuple(map(tuple, p.tableau)),
            tuple(p.down),
            tuple(p.stock),
            len(p.waste),
            tuple(p.foundations),
        )

    def dfs(p: Position) -> bool:
        nonlocal nodes
        if p.is_won():
            return True
        nodes += 1
        if nodes > node_limit or len(path) > 400:
            return False
        k = key(p)
        if k in seen:
            return False
        seen.add(k)
        for move in list(_ordered(p)):
            q = p.copy()
            q.apply(move)
            path.append(move)
            if dfs(q):
                return True
            path.pop()
        return False

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 5000))
    try:
        return list(path) if dfs(start) else None
    finally:
        sys.setrecursionlimit(limit)


def replay(deal: Deal, rules: Rules, moves: list[Move]) -> Game:
    game = Game(deal, rules)
    for move in moves:
        game.play(move)
    return game


def find_winnable(rules: Rules, numbers: range, node_limit: int = 60_000) -> tuple[int, list[Move]]:
    """The first deal number in ``numbers`` with a winning line the search finds."""
    for number in numbers:
        moves = solve(Deal.from_number(number), rules, node_limit)
        if moves is not None:
            return number, moves
    raise LookupError(f"no winnable deal found in {numbers}")


def draws_to_dead_end(deal: Deal, rules: Rules) -> int | None:
    """How many draws empty the stock into a position with no legal move, or None."""
    position = Position.initial(deal, rules)
    draws = 0
    while position.stock:
        position.apply(Move(Pile.STOCK, Pile.WASTE, min(rules.draw, len(position.stock))))
        draws += 1
    return draws if not position.legal_moves() else None


def find_dead_end(rules: Rules, numbers: range) -> tuple[int, int]:
    """A deal where only drawing is possible, and drawing the whole stock leaves no move."""
    for number in numbers:
        deal = Deal.from_number(number)
        start = Position.initial(deal, rules)
        if any(not m.is_draw for m in start.legal_moves()):
            continue
        draws = draws_to_dead_end(deal, rules)
        if draws is not None:
            return number, draws
    raise LookupError(f"no dead-end deal in {numbers}")


def never_playable(deal: Deal, rules: Rules) -> bool:
    """No tableau move at the start, and no stock card ever fits anywhere: stuck for good."""
    start = Position.initial(deal, rules)
    if any(not (m.is_draw or m.is_recycle) for m in start.legal_moves()):
        return False
    position = start.copy()
    while position.stock:
        position.apply(Move(Pile.STOCK, Pile.WASTE, 1))
        if any(not (m.is_draw or m.is_recycle) for m in position.legal_moves()):
            return False
    return True


def stuck_for_good(position: Position) -> bool:
    """Only draws and recycles are legal now and after any number of them."""
    position = position.copy()
    for _ in range(len(position.stock) + len(position.waste) + 2):
        moves = position.legal_moves()
        if any(not (m.is_draw or m.is_recycle) for m in moves):
            return False
        if not moves:
            return False  # a true dead end, not the stuck case
        position.apply(moves[0])
    return True


def find_stuck_line(rules: Rules, numbers: range) -> tuple[int, list[Move]]:
    """A deal and a greedy line of play that ends where moves remain but none helps."""
    for number in numbers:
        deal = Deal.from_number(number)
        position = Position.initial(deal, rules)
        line: list[Move] = []
        seen: set[str] = set()
        for _ in range(300):
            if stuck_for_good(position):
                # Turn the whole stock once so no stock card is still unseen.
                while not position.recycles:
                    turn = position.legal_moves()[0]
                    position.apply(turn)
                    line.append(turn)
                return number, line
            text = position.to_text()
            if text in seen:
                break
            seen.add(text)
            move = next(_ordered(position), None)
            if move is None:
                break
            position.apply(move)
            line.append(move)
    raise LookupError(f"no stuck line in {numbers}")


def find_fork(rules: Rules, numbers: range) -> tuple[int, Move, Move]:
    """A deal whose opening has a tableau card with two destinations (for tap to move)."""
    for number in numbers:
        position = Position.initial(Deal.from_number(number), rules)
        by_source: dict[tuple[int, int], list[Move]] = {}
        for m in position.legal_moves():
            if m.source.is_tableau and m.dest.is_tableau:
                by_source.setdefault((m.source, m.count), []).append(m)
        for found in by_source.values():
            if len(found) >= 2:
                return number, found[0], found[1]
    raise LookupError(f"no fork in {numbers}")


def find_single(rules: Rules, numbers: range) -> tuple[int, Move]:
    """A deal whose opening has a tableau card with exactly one destination, a column."""
    for number in numbers:
        position = Position.initial(Deal.from_number(number), rules)
        by_source: dict[tuple[int, int], list[Move]] = {}
        for m in position.legal_moves():
            if m.source.is_tableau:
                by_source.setdefault((m.source, m.count), []).append(m)
        for found in by_source.values():
            if len(found) == 1 and found[0].dest.is_tableau:
                return number, found[0]
    raise LookupError(f"no single-destination move in {numbers}")
