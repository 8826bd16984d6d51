"""The pinned bench (``python benchmarks/solver.py --bench``) searches exactly
``BENCH_NODES`` nodes, so that a change of the search and a change of speed are
never confused: the bench's time moves with the machine and the code's speed,
its node count only with the search."""

from __future__ import annotations

from tests.benchmark_script import load

BENCH_NODES = 3_044_301
"""The bench's total of nodes searched.

Any change of this number is a change of the search (move order, pruning, the
probes and side searches of the portfolio, the table when it fills its memory,
or the bench's deals) and the commit that makes it must say so and explain it,
with the bench's lines before and after. To update it, run
``python benchmarks/solver.py --bench`` and write its ``Total`` line's
``Nodes searched`` here. Shortening a winning line does not count: the bench
asks for no line."""


def test_the_bench_searches_the_pinned_number_of_nodes() -> None:
    lines = load("solver", "solver_bench").bench()
    total = lines[-1]
    assert total.name == "Total"
    assert total.nodes == sum(line.nodes for line in lines[:-1])
    report = "\n".join(str(line) for line in lines)
    assert total.nodes == BENCH_NODES, (
        f"the bench searched {total.nodes} nodes, not the pinned {BENCH_NODES}: the search "
        f"changed (explain it in the commit, then update BENCH_NODES)\n{report}"
    )
