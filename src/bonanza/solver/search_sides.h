/*
 * search_sides.h: the side searches (rule 11) and the portfolio of probes.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_SIDES_H
#define BONANZA_SEARCH_SIDES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search_locks.h"
#include "search_path.h"
#include "search_run.h"
#include "search_state.h"
#include "search_table.h"

/* ---- side searches and the portfolio -------------------------------------- */

/*
 * Side searches: the same position under other rules, run beside the exact
 * search (chunk for chunk, from round SIDE_ROUND on, so positions decided
 * within the first chunk never start them).  Each one decides the position
 * by one of its verdicts only:
 *
 * Rule 11: draw 1 with unlimited passes relaxes every other stock rule.  From
 * any position it can bring any talon card to the waste top, so each line of
 * play under a stricter rule is also a line under it (with other draws and
 * recycles in between), and a position lost with draw 1 and unlimited
 * passes is lost under the stricter rule too.  Its search is often far
 * smaller (rules 5 and 10 apply to it).  Its "lost" decides; its "won"
 * tells nothing, and ends it.
 *
 * Few passes: with unlimited passes and a draw of more than one card, the
 * same position with at most one more recycle.  Every line of play under it
 * is a line under unlimited passes, so its "won" decides (its line is the
 * answer); its "lost" tells nothing but that a win needs more recycles, so
 * the search starts again with one more allowed (pass deepening).  Some
 * deals are won only by lines that the exact search, busy with many
 * recycles, reaches late, while the search with one or two recycles is
 * small.  The one-recycle search stops after SIDE_FEW_PASSES_NODES nodes,
 * the deeper ones after SIDE_DEEPER_NODES in all: such wins come early, and
 * on a lost deal it only costs time.
 *
 * No recall: with recall on, draw 1 and unlimited passes, the same position
 * with recall off.  Every line of play without recall is a line with it, so
 * its "won" decides (its line is the answer); its "lost" tells nothing, and
 * ends it.  Recalls multiply the exact search's moves, while most won deals
 * are won without one: on some hard deals the search without recall wins in
 * a tenth of the nodes or less, and on a lost deal it is usually lost early.
 * It stops after SIDE_NO_RECALL_NODES nodes.  With draw 3 it cost more than
 * it gave (its searches of lost deals are nearly as large as the exact
 * one's), so it runs with draw 1 and unlimited passes only (docs/solver.md,
 * "The search without recall").
 *
 * Relaxed win: beside rule 11's search, with recall on, the same draw-1
 * position without recall.  A line without recall is a line with it, so its
 * "won" shows that rule 11's search cannot end "lost": both end, and the
 * exact search goes on alone.  It decides nothing itself (its "lost" tells
 * nothing, and ends it) and changes no verdict, only the time: rule 11's
 * search looks for a draw-1 win depth first, recalls and all, and on some
 * won deals took most of the nodes (draw-3 deal 479: 2.0 M of 2.4 M; 805:
 * 20.8 M of 58.1 M), where the search without recall finds a draw-1 win in
 * a few hundred thousand.  Four nodes for each node of the exact search, and
 * it stops after SIDE_RELAXED_WIN_NODES nodes: on draw-3 deals 1-600
 * (docs/solver.md, "Rule 11's search ended early") a cap of 150,000 found
 * fewer such wins, and 500,000 no more than 250,000; a share of one node
 * took more nodes in all than none.
 *
 * Hasty: wherever the waste pointer matters (a larger draw, or limited
 * passes), the same position searched with rules 10 and 14 as if any talon
 * card could be played at any time: a talon card put on a column must be
 * covered next, and one sent home must be followed by its successor (from
 * the talon only when within reach).  That is not proven to keep wins here,
 * but every line it plays is a legal line, so its "won" decides; its "lost"
 * tells nothing, and ends it.  It is far smaller than the exact search, so
 * on a lost deal it usually ends early, and it finds wins that the exact
 * search reaches late.
 */
typedef struct {
    Search *search; /* NULL: not started, or ended */
    int quarters;   /* its nodes per node of the exact search, in quarters */
    int decides;    /* the verdict of its own that decides the position */
    uint64_t most;  /* the nodes it may take in all (0: no bound) */
    int deepens;    /* its other verdict starts it again with one more recycle */
    uint64_t spent; /* the nodes its earlier searches took (deepening) */
} Side;

enum { SIDE_RELAXED, SIDE_FEW_PASSES, SIDE_HASTY, SIDE_NO_RECALL, SIDE_RELAXED_WIN, SIDES };

/* A side search's `decides` when no verdict of its own decides the position. */
#define DECIDES_NOTHING (-3)

/*
 * When they start, and their shares.  Which search decides a position first
 * changes no verdict (each decides only by a verdict that is proven), only
 * the time.  They start after the first chunk: most positions are decided
 * within it, and then cost nothing more.  Rule 11's search starts small, one
 * node per node of the exact search, and takes its full share from round
 * SIDE_RELAXED_FULL_ROUND on: most lost draw-3 deals are lost with draw 1
 * too, and proven so in a few thousand nodes, while on a won deal it usually
 * finds a draw-1 win (which ends it) in a few dozen, but now and then needs
 * many.  Measured on 300 random draw-3 deals (seed 7071, benchmarks/solver.py
 * thoughtful rules) against the old start (round 5, full shares): the same
 * median, p90 86 K nodes against 108 K, a lost deal proven in 10 K nodes
 * instead of 108 K, and a won one found in 256 K instead of 99 K.
 */
#ifndef SIDE_ROUND
#define SIDE_ROUND 2 /* the round the side searches start in */
#endif
#ifndef SIDE_RELAXED_FULL_ROUND
#define SIDE_RELAXED_FULL_ROUND 5 /* the round rule 11's search takes its full share from */
#endif
#ifndef SIDE_RELAXED_EARLY_QUARTERS
#define SIDE_RELAXED_EARLY_QUARTERS 4 /* its share before that, in quarters */
#endif
#ifndef SIDE_RELAXED_QUARTERS
#define SIDE_RELAXED_QUARTERS 32 /* rule 11's nodes per node of the exact search, in quarters */
#endif
#ifndef SIDE_FEW_PASSES_QUARTERS
#define SIDE_FEW_PASSES_QUARTERS 1
#endif
#ifndef SIDE_HASTY_QUARTERS
#define SIDE_HASTY_QUARTERS 4
#endif
#ifndef SIDE_NO_RECALL_QUARTERS
#define SIDE_NO_RECALL_QUARTERS 4
#endif
#ifndef SIDE_NO_RECALL_NODES
#define SIDE_NO_RECALL_NODES 4000000 /* its wins come early; on a long search it only costs */
#endif
#ifndef SIDE_RELAXED_WIN_QUARTERS
#define SIDE_RELAXED_WIN_QUARTERS 16 /* its nodes per node of the exact search, in quarters */
#endif
#ifndef SIDE_RELAXED_WIN_NODES
#define SIDE_RELAXED_WIN_NODES 250000 /* its wins come early; on a lost deal it only costs */
#endif
#ifndef SIDE_FEW_PASSES_NODES
#define SIDE_FEW_PASSES_NODES 1000000 /* its wins come early; on a lost deal it only costs */
#endif
#ifndef SIDE_DEEPER_NODES
#define SIDE_DEEPER_NODES 250000 /* the same, with two recycles or more, in all */
#endif

static Search *side_search(const Search *x, const State *start, const Rules *r, int hasty)
{
    size_t cap = FIRST_SIDE_SLOTS;
    Search *z = calloc(1, sizeof(Search));
    if (!z || !tt_init(&z->tt, cap)) {
        free(z);
        return NULL;
    }
    z->s = *start;
    z->r = *r;
    z->o = x->o;
    z->o.seed = 0;
    z->o.hasty = hasty;
    if (r->recycles_allowed != x->r.recycles_allowed) z->s.rec = 0; /* (counted from here) */
    z->clock = x->clock;
    z->t0 = x->t0;
    z->deadline = x->deadline;
    z->used = sizeof(Search) + 2 * cap * sizeof(uint64_t);
    return z;
}

/* Make the winning line of search `from` the answer of search `x`. */
static void take_line(Search *x, Search *from)
{
    SMove *path = x->path;
    size_t pcap = x->pcap;
    x->path = from->path; x->pcap = from->pcap; x->plen = from->plen;
    from->path = path; from->pcap = pcap;
}

static void end_side(Side *side)
{
    free_search(side->search);
    free(side->search);
    side->search = NULL;
}

static void start_sides(const Search *x, const State *start, Side *sides)
{
    Rules r = x->r;
    if ((x->o.prune & PRUNE_RELAXED_STOCK) && (r.draw > 1 || r.recycles_allowed >= 0)) {
        r.draw = 1;
        r.recycles_allowed = -1;
        sides[SIDE_RELAXED].search = side_search(x, start, &r, 0);
    }
    if ((x->o.sides & SIDE_RELAXED_WIN_ON) && sides[SIDE_RELAXED].search && x->r.recall) {
        r.recall = 0;
        sides[SIDE_RELAXED_WIN].search = side_search(x, start, &r, 0);
    }
    r = x->r;
    if ((x->o.sides & SIDE_FEW_PASSES_ON) && r.draw > 1 && r.recycles_allowed < 0) {
        r.recycles_allowed = 1;
        sides[SIDE_FEW_PASSES].search = side_search(x, start, &r, 0);
    }
    r = x->r;
    /* (Not where the stock deals: with no talon moves it would be the exact
     * search again.  Rule 11 is off there: see prune_for.) */
    if ((x->o.sides & SIDE_HASTY_ON) && pointer_matters(&r) && !r.deals)
        sides[SIDE_HASTY].search = side_search(x, start, &r, 1);
    r = x->r;
    if ((x->o.sides & SIDE_NO_RECALL_ON) && r.recall && r.draw == 1 && r.recycles_allowed < 0
        && !r.deals) {
        r.recall = 0;
        sides[SIDE_NO_RECALL].search = side_search(x, start, &r, 0);
    }
}

/* The memory the exact search and the other side searches hold. */
static size_t used_besides(const Search *x, const Side *sides, int skip)
{
    size_t used = skip < 0 ? 0 : x->used;
    for (int k = 0; k < SIDES; k++)
        if (k != skip && sides[k].search) used += sides[k].search->used;
    return used;
}

/* Run side search k for its share of `chunk` nodes.  Returns the verdict it
 * gives the position, -1 on a time or node limit (x->limit says which), or
 * -2 to go on. */
static int run_side(Search *x, const State *start, Side *sides, int k, uint64_t chunk,
                    size_t total)
{
    Side *side = &sides[k];
    Search *z = side->search;
    size_t others = used_besides(x, sides, k);
    uint64_t before = z->nodes, left = nodes_left(x);
    if (!left) {
        x->limit = LIMIT_NODES;
        return -1;
    }
    z->budget = total > others ? total - others : 0;
    z->pause_at = z->nodes + chunk * (uint64_t)side->quarters / 4;
    if (side->most && side->spent + z->pause_at > side->most)
        z->pause_at = side->most - side->spent;
    /* The root's node limit is a hard cap: the side search counts at most the
     * nodes left (it counts one node as it starts, and pauses on reaching
     * pause_at, so left >= 1 nodes fit). */
    if (z->pause_at - z->nodes > left) z->pause_at = z->nodes + left;
    int rz = run_search(z);
    x->probe_nodes += z->nodes - before;
    if (k == SIDE_RELAXED_WIN && rz == 1 && sides[SIDE_RELAXED].search) {
        FIRE(&x->o, FIRED_RELAXED_ENDED); /* rule 11's search cannot end "lost" */
        end_side(&sides[SIDE_RELAXED]);
    }
    if (rz == side->decides) {
        FIRE(&x->o, rz == 1 ? FIRED_SIDE_WINS : 11);
        if (rz == 1) take_line(x, z);
        return rz;
    }
    if (rz == -1 && (z->limit == LIMIT_TIME || z->limit == LIMIT_STOPPED)) {
        x->limit = z->limit;
        return -1;
    }
    /* Its other verdict tells nothing (deepening: but that a win needs one
     * more recycle); or out of memory, or of its nodes. */
    if (rz != -2 || (side->most && side->spent + z->nodes >= side->most)) {
        Rules deeper = z->r;
        uint64_t spent = side->spent + z->nodes;
        end_side(side);
        if (side->deepens && rz == 1 - side->decides && (!side->most || spent < side->most)) {
            if (++deeper.recycles_allowed == 2) side->most = spent + SIDE_DEEPER_NODES;
            side->search = side_search(x, start, &deeper, 0);
            side->spent = spent;
        }
    }
    if (x->node_limit && x->nodes + x->probe_nodes > x->node_limit) {
        x->limit = LIMIT_NODES;
        return -1;
    }
    return -2;
}

/*
 * The search order matters only for how soon a win is found.  A depth-first
 * search that starts badly can spend a long time in a lost corner before it
 * finds a win another order reaches at once.  So the exact search runs in
 * chunks of doubling size, and between chunks a probe (the same exact search
 * from the start, with move scores shuffled a little and a small node budget)
 * looks for a win.  A probe's win is as good as any; a probe that runs out
 * of moves has proven the position lost; otherwise its work is dropped.
 * Probe budgets grow more slowly than the chunks, so they cost little when
 * the position is lost.
 */
static int portfolio_rounds(Search *x, const State *start, Side *sides)
{
    uint64_t chunk = 5000, probe_budget = 5000;
    int probes = 1;
    size_t total = x->budget;
    for (uint64_t round = 1;; round++) {
        /* (Flag 64, for tests: side searches start at once.) */
        if (round == SIDE_ROUND && bare_at_start(start, &x->r, &x->o)) {
            FIRE(&x->o, 20);
            return 0;
        }
        if (round == SIDE_ROUND && squeeze_at_start(start, &x->r, &x->o)) {
            FIRE(&x->o, 22);
            return 0;
        }
        if (round == SIDE_ROUND && gone_at_start(start, &x->r, &x->o)) {
            FIRE(&x->o, 23);
            return 0;
        }
        if (round == SIDE_ROUND && chain_at_start(start, &x->r, &x->o)) {
            FIRE(&x->o, 24);
            return 0;
        }
        if (round == (x->o.sides & SIDES_AT_ONCE ? 1 : SIDE_ROUND)) start_sides(x, start, sides);
        sides[SIDE_RELAXED].quarters = round < SIDE_RELAXED_FULL_ROUND ? SIDE_RELAXED_EARLY_QUARTERS
                                                                       : SIDE_RELAXED_QUARTERS;
        if (sides[SIDE_RELAXED_WIN].search && !sides[SIDE_RELAXED].search)
            end_side(&sides[SIDE_RELAXED_WIN]); /* rule 11's search ended: it has no purpose */
        /* The side searches first: the round in which one decides then
         * costs no chunk of the exact search. */
        int res;
        for (int k = 0; k < SIDES; k++) {
            if (!sides[k].search) continue;
            res = run_side(x, start, sides, k, chunk, total);
            if (res != -2) return res;
        }
        size_t sides_used = used_besides(x, sides, -1);
        x->budget = total > sides_used ? total - sides_used : 0;
        x->pause_at = x->nodes + chunk;
        res = run_search(x);
        if (res != -2) return res;
        if (probes) {
            Search *y = calloc(1, sizeof(Search));
            size_t cap = FIRST_SIDE_SLOTS;
            if (!y || !tt_init(&y->tt, cap)) {
                free(y);
                probes = 0;
                continue;
            }
            y->s = *start;
            y->r = x->r;
            y->o = x->o;
            y->o.seed = round;
            /* A probe counts one node over its budget as it stops (see
             * run_search): within the root's hard cap, its budget is at most
             * the nodes left less one. */
            uint64_t left = nodes_left(x);
            if (left <= 1) {
                free_search(y);
                free(y);
                x->limit = LIMIT_NODES;
                return -1;
            }
            y->node_limit = left - 1 < probe_budget ? left - 1 : probe_budget;
            y->clock = x->clock;
            y->t0 = x->t0;
            y->deadline = x->deadline;
            y->used = sizeof(Search) + 2 * cap * sizeof(uint64_t);
            y->budget = x->budget > x->used ? x->budget - x->used : 0;
            int ry = y->used <= y->budget ? run_search(y) : -1;
            x->probe_nodes += y->nodes;
            if (ry == 1) take_line(x, y);
            if (ry < 0 && y->limit == LIMIT_MEMORY) probes = 0;
            int ended = ry < 0 && (y->limit == LIMIT_TIME || y->limit == LIMIT_STOPPED)
                        ? y->limit : LIMIT_NONE;
            free_search(y);
            free(y);
            if (ry >= 0) return ry;
            if (ended) { x->limit = ended; return -1; }
            if (x->node_limit && x->nodes + x->probe_nodes > x->node_limit) {
                x->limit = LIMIT_NODES;
                return -1;
            }
        }
        chunk *= 2;
        probe_budget += probe_budget / 3;
    }
}

/* The exact search with its probes and side searches (see above). */
static int solve_portfolio(Search *x, const State *start)
{
    Side sides[SIDES] = {{NULL, SIDE_RELAXED_QUARTERS, 0, 0, 0, 0},
                         {NULL, SIDE_FEW_PASSES_QUARTERS, 1, SIDE_FEW_PASSES_NODES,
                          (x->o.sides & SIDE_DEEPEN_ON) != 0, 0},
                         {NULL, SIDE_HASTY_QUARTERS, 1, 0, 0, 0},
                         {NULL, SIDE_NO_RECALL_QUARTERS, 1, SIDE_NO_RECALL_NODES, 0, 0},
                         {NULL, SIDE_RELAXED_WIN_QUARTERS, DECIDES_NOTHING,
                          SIDE_RELAXED_WIN_NODES, 0, 0}};
    int result = portfolio_rounds(x, start, sides);
    for (int k = 0; k < SIDES; k++)
        if (sides[k].search) end_side(&sides[k]);
    return result;
}

#endif /* BONANZA_SEARCH_SIDES_H */
