#!/usr/bin/env bash
# The solvability report's runs (docs/solvability.md): deals 1-2000 of each
# rule set, one job each, 10 s of the search's own CPU time per deal (--clock
# cpu, so that the verdicts do not depend on the machine's load). Every run
# resumes its .jsonl, so an
# interrupted script picks up where it stopped. Double Klondike is searched by
# the generic search (in C, with no pruning but its talon macros and rules 8, 18 and 10 for
# two decks: docs/solver.md);
# DOUBLE_LIMIT is its limit, the same 10 s by default (2 s before it ran in C). Usage:
#   bash benchmarks/solvability.sh [DEALS] [TIME_LIMIT] [DOUBLE_LIMIT]
# analyze writes lean rows (no winning line, about 0.36 kB a row); at the end
# the rows of older runs, which carried the line spelled out (`moves`, about
# 14 kB a row, which the report does not read), lose it (a rerun still
# resumes), and the report is written to docs/solvability.md with its plots.
set -euo pipefail
deals=${1:-1-2000}
limit=${2:-10}
double_limit=${3:-10}
out=benchmarks/results/solvability
mkdir -p "$out"
run() {  # name, then analyze's rule options
  local name=$1; shift
  bonanza analyze --deals "$deals" --time-limit "$limit" --clock cpu --jobs 1 --no-progress \
    "$@" --out "$out/$name.jsonl"
}
run klondike-draw1 --rules klondike
run klondike-draw3 --rules klondike-3
run klondike-draw2 --rules klondike --draw 2
run klondike-draw1-passes1 --rules klondike --passes 1
run klondike-draw1-passes3 --rules klondike --passes 3
run klondike-draw3-passes1 --rules klondike-3 --passes 1
run klondike-draw3-passes3 --rules klondike-3 --passes 3
run klondike-draw1-no-recall --rules klondike --no-recall
run klondike-draw3-no-recall --rules klondike-3 --no-recall
run klondike-draw1-any-empty --rules klondike --empty any
run westcliff --rules westcliff
run easthaven --rules easthaven
limit=$double_limit run double-klondike --rules double-klondike
limit=$double_limit run double-klondike-3 --rules double-klondike-3
python - "$out"/*.jsonl <<'PYTHON'
import json, sys
for path in sys.argv[1:]:
    with open(path) as file:
        rows = [json.loads(line) for line in file if line.strip()]
    with open(path, "w") as file:
        for row in rows:
            row.pop("moves", None)
            file.write(json.dumps(row) + "\n")
PYTHON
bonanza report "$out"/*.jsonl --notes benchmarks/solvability-notes.md --out docs/solvability.md
