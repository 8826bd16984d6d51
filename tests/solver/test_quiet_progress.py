"""The C quiet-move search (``progress.quiet_progress``) against the Python reference."""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonanza.core import Deal, EmptyColumn, Move, Pile, Position, Rules
from bonanza.solver.progress import progress_possible_python, quiet_progress
from bonanza.solver.quiet import is_informative, is_known, is_pointless_recall
from tests.core.hidden import shuffle_hidden
from tests.core.tables import table

RULE_SETS = (
    Rules(),
    Rules(draw=3),
    Rules(passes=1),
    Rules(draw=3, passes=3),
    Rules(passes=3),
    Rules(empty_column=EmptyColumn.ANY),
    Rules(recall=False),
    Rules(draw=3, empty_column=EmptyColumn.ANY, recall=False, partial_runs=False),
    Rules.preset("vegas-1"),
    Rules.preset("vegas-3"),
)
REFERENCE_NODES = 1_500
"""The Python reference's cap in the differential test (it decides most positions)."""
GAMES = 100
"""Random games in the differential test; positions are sampled along each."""
GAME_MOVES = 300
SAMPLES_PER_GAME = 12
UNDECIDED_GAMES = 8
"""Games played to their stuck ends, per draw, all of which C must decide."""
PYTHON_CHECK_NODES = 20_000
"""The Python check's old default cap."""
Answer = str


def random_game(number: int, rules: Rules, rng: random.Random, moves: int) -> Iterator[Position]:
    """The positions of a random game: informative moves and moves home are
    favoured, so the game gets stuck, and then it moves cards about."""
    position = Position.initial(Deal.from_number(number), rules)
    for _ in range(moves):
        legal = [move for move in position.legal_moves() if not is_pointless_recall(position, move)]
        if not legal:
            return
        informative = [move for move in legal if is_informative(position, move)]
        home = [move for move in legal if move.dest.is_foundation and not move.source.is_foundation]
        roll = rng.random()
        if informative and roll < 0.4:
            move = rng.choice(informative)
        elif home and roll < 0.7:
            move = rng.choice(home)
        else:
            move = rng.choice(legal)
        position.apply(move)
        yield position.copy()


def answer_of(verdict: bool | None) -> Answer:
    return {True: "progress", False: "none", None: "unknown"}[verdict]


def sampled_positions() -> list[Position]:
    """Positions along seeded random games under every rule set, not known, not won."""
    rng = random.Random(20_240_601)
    found: list[Position] = []
    for game in range(GAMES):
        rules = RULE_SETS[game % len(RULE_SETS)]
        line = list(random_game(game, rules, rng, GAME_MOVES))
        picks = [*rng.sample(line, min(SAMPLES_PER_GAME - 1, len(line))), *line[-1:]]
        found += [p for p in picks if not is_known(p) and not p.is_won()]
    return found


REFERENCE_SLICES = 3
"""The sampled positions are compared in slices that the test workers share out."""


@pytest.mark.python_bound
@pytest.mark.parametrize("part", range(REFERENCE_SLICES))
def test_the_c_search_answers_as_the_python_reference(part: int) -> None:
    counts: Counter[tuple[Answer, Answer]] = Counter()
    for position in sampled_positions()[part::REFERENCE_SLICES]:
        expected = answer_of(progress_possible_python(position, REFERENCE_NODES))
        answer, _ = quiet_progress(position)
        counts[expected, answer] += 1
        assert expected == "unknown" or answer == expected, position.to_text()
        assert answer != "unknown", position.to_text()
    print(dict(counts))
    assert sum(counts.values()) >= 1_100 // REFERENCE_SLICES
    assert counts["progress", "progress"] >= 450 // REFERENCE_SLICES
    assert counts["none", "none"] >= 450 // REFERENCE_SLICES
    assert not counts["progress", "none"] and not counts["none", "progress"]


UNDECIDED_ENDS = (
    (1, "KSQH/-/KD/KHQSJDTC9H8S7D6S5D4S3D/KCQDJSTH9S8H7S6H5C4D3S/-/9cas8c2d7H6C "
        "2s6d9d5s4c3ctd 8DQC7CTSJHJC 2A5- 2"),
    (1, "6H5C/KSQDJC/7H6C5H4C/tskd3cJDTC9H/6dtd9D8S7D/KHQCJH/JSTH9S8D qs9c8c KC8H7CQH 2547 5"),
    (1, "KDQSJHTC9D8S7H6S5D4S3D2S/7D/KHQCJD/KSQDJSTH9S8D7C6D5S4D/as6c9C8H/7stdqh2h6H5C4H3S/3H "
        "ts 2D8CJCKC9H5H 4AA- 3"),
    (1, "KH/KDQCJDTS9D8C7D6S5H/KSQDJCTH9C/KC/-/3sjsTD9S8H7C6H5S/3h4c6cqs5cJHTC "
        "8s9h4h4s6d8dqh 7S7H 3522 2"),
    (1, "2D/KH/KDQCJHTS9H/KSQHJCTH/adqsJSTD9S8D7S6D5C/KC/qd7h5s6c9D8C7D6S5D4C3D "
        "8h7c4d6htc5h9cjd8s - 3-44 3"),
    (3, "KCQDJCTH9C8H7C6H5S/-/KHQCJDTS/KSQH/-/3sjsTD9S/3h4c6cqs5cJHTC9D8C "
        "7h5h8s9h4h4s 6SKD7S 3822 6"),
)
"""Stuck ends of greedy random games (as in ``stuck_end``) that the Python
check leaves undecided within its old default cap of 20,000 positions."""


def test_the_stuck_ends_python_leaves_undecided_are_decided() -> None:
    positions = [Position.from_text(text, Rules(draw=draw)) for draw, text in UNDECIDED_ENDS]
    assert progress_possible_python(positions[4], PYTHON_CHECK_NODES) is None
    answers = [quiet_progress(position)[0] for position in positions]
    assert answers == ["none"] * len(UNDECIDED_ENDS)
    rng = random.Random(7)
    for draw in (1, 3):  # and the ends of fresh games: all decided
        for game in range(UNDECIDED_GAMES):
            end = stuck_end(2_000 + game, Rules(draw=draw), rng)
            assert end is None or quiet_progress(end)[0] != "unknown"


def stuck_end(number: int, rules: Rules, rng: random.Random) -> Position | None:
    """Where a greedy random game gets stuck (checked every few moves), if it does."""
    position = Position.initial(Deal.from_number(number), rules)
    for turn in range(1_500):
        legal = [move for move in position.legal_moves() if not is_pointless_recall(position, move)]
        if not legal:
            break
        informative = [move for move in legal if is_informative(position, move)]
        home = [move for move in legal if move.dest.is_foundation and not move.source.is_foundation]
        if informative and rng.random() < 0.9:
            move = rng.choice(informative)
        elif home and rng.random() < 0.9:
            move = rng.choice(home)
        else:
            if turn % 25 == 0 and quiet_progress(position, 100_000)[0] == "none":
                break
            move = rng.choice(legal)
        position.apply(move)
    return None if is_known(position) or position.is_won() else position


# -- hand-made positions ------------------------------------------------------------------

BLOCKED = ["jh KS", "qh KC", "kh QS", "jd JS", "qd JC", "kd TS", "TC"]
"""No column can move: the kings' spaces are full, the rest have nowhere to go."""


def both(position: Position) -> tuple[Answer, Answer]:
    return quiet_progress(position)[0], answer_of(progress_possible_python(position, 100_000))


def test_an_unseen_stock_is_progress_at_once() -> None:
    position = table(BLOCKED, stock="9S", waste="9C TH TD QC", rules=Rules(recall=False))
    assert quiet_progress(position) == ("progress", 0)


def test_no_moves_at_all_is_none() -> None:
    position = table(BLOCKED, waste="9S 9C TH TD QC", rules=Rules(passes=1, recall=False))
    assert both(position) == ("none", "none")


# The 9S and 9C lie deep in the waste: once they are home, TH and TD follow and
# then TS, turning up the kd. The seen 9H in the stock goes home, and no more.
@pytest.mark.parametrize(
    ("passes", "recycles", "expected"),
    [(2, 1, "none"), (3, 1, "progress"), (None, 1, "progress"), (None, 9, "progress"),
     (4, 3, "none"), (5, 3, "progress")],
)
def test_the_pass_limit_is_respected(passes: int | None, recycles: int, expected: Answer) -> None:
    rules = Rules(passes=passes, recall=False)
    position = table(BLOCKED, stock="9H", waste="9S 9C TH TD QC", rules=rules, recycles=recycles)
    assert both(position) == (expected, expected)


@pytest.mark.parametrize(("passes", "expected"), [(1, "none"), (2, "progress"), (None, "progress")])
def test_a_recycle_then_seen_draws_can_be_progress(passes: int | None, expected: Answer) -> None:
    # Nothing drawn yet is unseen: the stock is empty before the first recycle.
    rules = Rules(passes=passes, recall=False)
    position = table(BLOCKED, waste="9H 9S 9C TH TD QC", rules=rules)
    assert both(position) == (expected, expected)
    for draw in (2, 3):
        other = table(BLOCKED, waste="9H 9S 9C TH TD QC", rules=Rules(draw=draw, passes=passes))
        assert both(other)[0] == both(other)[1]


RECALL_COLUMNS = ["kc 3D", "2d 5D", "qc jc tc 9c 8C", "qs js ts 9s 8S", "kd qd jd td 9d 7S",
                  "8d 7d 6d 6c 4D", "5c 5s 6s ks 7C"]
"""The 3D lies on a face-down card and the black 4s are home: recalling one
onto the 5D lets the 3D go on it. Nothing else can move."""


def test_a_recall_can_be_the_way_to_progress() -> None:
    assert both(table(RECALL_COLUMNS, rules=Rules())) == ("progress", "progress")
    assert both(table(RECALL_COLUMNS, rules=Rules(recall=False))) == ("none", "none")


def test_a_recall_whose_lower_opposite_cards_are_home_can_still_help() -> None:
    # Only a chain of recalls helps: 5H onto 6C, 4S onto the 5H, then the 3D on it.
    # The rule without recall never recalls the 5H (its black 4s are home), and
    # said none; both searches now skip only the recalls proven useless.
    columns = ["kd qd jd 3D", "2d 5d 4d 6C", "td 9d 8d 7d 6d QH", "kc qc jc tc 9c 8c 7c JH",
               "ks qs js ts 9s 8s 7s TH", "6s 5s 9H", "5c 6h 7h 8h KH"]
    position = table(columns)
    assert both(position) == ("progress", "progress")
    assert quiet_progress(position, sound_recalls=False)[0] == "none"  # the old flaw
    line = [Move(Pile.FH, Pile.T2, 1), Move(Pile.FS, Pile.T2, 1), Move(Pile.T1, Pile.T2, 1)]
    for move in line:
        assert move in position.legal_moves()
        turned = position.apply(move)
    assert turned is not None  # the line really turns a card up


def test_limits_answer_unknown() -> None:
    rules = Rules(passes=2, recall=False)
    position = table(BLOCKED, stock="9H", waste="9S 9C TH TD QC", rules=rules, recycles=1)
    assert quiet_progress(position, 1) == ("unknown", 1)
    assert quiet_progress(position)[0] == "none"
    assert quiet_progress(position, memory_limit=1)[0] == "unknown"
    with pytest.raises(ValueError):
        quiet_progress(position, 0)
    with pytest.raises(ValueError):
        quiet_progress(Position.initial(Deal.from_number(1), Rules(thoughtful=True)))


def test_searches_run_in_threads_at_once() -> None:
    positions = [Position.from_text(text, Rules(draw=draw)) for draw, text in UNDECIDED_ENDS]
    expected = [quiet_progress(position) for position in positions]
    found: list[list[tuple[Answer, int]]] = [[], []]

    def run(into: list[tuple[Answer, int]]) -> None:
        into.extend(quiet_progress(position) for position in positions)

    threads = [threading.Thread(target=run, args=(into,)) for into in found]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [expected, expected]


# -- invariants ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 2**32),
    st.sampled_from(RULE_SETS),
    st.integers(0, 250),
    st.randoms(use_true_random=False),
)
def test_the_hidden_cards_and_the_column_order_never_change_the_answer(
    number: int, rules: Rules, moves: int, chooser: random.Random
) -> None:
    line = list(random_game(number, rules, chooser, moves))
    position = line[-1] if line else Position.initial(Deal.from_number(number), rules)
    if position.is_won():
        return
    answer = quiet_progress(position)[0]
    shuffled = shuffle_hidden(position, chooser)
    assert quiet_progress(shuffled)[0] == answer
    order = list(range(7))
    chooser.shuffle(order)
    moved = shuffled.copy()
    moved.tableau = [shuffled.tableau[i] for i in order]
    moved.down = [shuffled.down[i] for i in order]
    assert quiet_progress(moved)[0] == answer
    assert quiet_progress(position, sound_recalls=False)[0] in (answer, "none")  # skips more
