"""Check the solvability report's verdicts against each other, deal by deal.

Some rule sets allow every line another allows, and more: more passes, recall
of foundation cards, any card into a space. A deal won under the stricter
rules is then winnable under the looser ones, so the looser run must never
have proved it unsolvable. Each pair below is checked over the deals both
files hold; the script prints the contradictions (there must be none), and
how often one run's verdict settles a deal the other left unknown. Exit 1 on
any contradiction.

    python benchmarks/solvability_consistency.py benchmarks/results/solvability
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

PAIRS = (  # (stricter, looser): every line of the first is a line of the second
    ("klondike-draw1-passes1", "klondike-draw1-passes3"),
    ("klondike-draw1-passes3", "klondike-draw1"),
    ("klondike-draw3-passes1", "klondike-draw3-passes3"),
    ("klondike-draw3-passes3", "klondike-draw3"),
    ("klondike-draw1-no-recall", "klondike-draw1"),
    ("klondike-draw3-no-recall", "klondike-draw3"),
    ("klondike-draw1", "klondike-draw1-any-empty"),
)


def verdicts(path: Path) -> dict[str, str]:
    """Each deal's last verdict in an ``analyze`` JSONL file."""
    found: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            found[str(row["id"])] = str(row["result"])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="the folder of solvability.sh's files")
    args = parser.parse_args()
    contradictions = 0
    for stricter, looser in PAIRS:
        paths = [args.folder / f"{name}.jsonl" for name in (stricter, looser)]
        if not all(path.exists() for path in paths):
            print(f"{stricter} / {looser}: not both run, skipped")
            continue
        strict, loose = map(verdicts, paths)
        both = strict.keys() & loose.keys()
        wrong = sorted(d for d in both if strict[d] == "solved" and loose[d] == "unsolvable")
        shown_solvable = sum(strict[d] == "solved" and loose[d] == "unknown" for d in both)
        shown_unsolvable = sum(strict[d] == "unknown" and loose[d] == "unsolvable" for d in both)
        contradictions += len(wrong)
        print(
            f"{stricter} within {looser}: {len(both)} deals, {len(wrong)} contradictions"
            + (f" (deals {', '.join(wrong[:10])})" if wrong else "")
            + f"; {shown_solvable} unknown under the looser rules are solvable (won under the"
            f" stricter); {shown_unsolvable} unknown under the stricter are unsolvable (proved"
            " under the looser)"
        )
    print(f"contradictions: {contradictions}")
    return 1 if contradictions else 0


if __name__ == "__main__":
    sys.exit(main())
