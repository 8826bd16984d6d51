/*
 * search_path.h: the search's own state (Search) and the line it plays.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_PATH_H
#define BONANZA_SEARCH_PATH_H

#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "search_state.h"
#include "search_table.h"

/* ---- the search ----------------------------------------------------------- */

/* A position being expanded: its moves, and its table entry (key 0: none,
 * for the positions that rules 10 and 14 do not store).  The entries of the
 * frames are the ones the table never forgets (see forget_some). */
typedef struct {
    size_t mstart, mcount, mnext, path_base;
    uint64_t key, check;
    int passed; /* the position passed the dead-end test, or is known to */
} Frame;

enum { LIMIT_NONE, LIMIT_NODES, LIMIT_TIME, LIMIT_MEMORY, LIMIT_STOPPED };

/* Set by a SIGINT during a search (see py_solve): every search stops. */
static volatile sig_atomic_t stop_requested;

/* How often (in nodes, a power of two) a search looks at the clock and the
 * stop flag. */
#define CHECK_EVERY 1024

typedef struct {
    State s;
    Rules r;
    Options o;
    uint64_t fired[FIRED_SLOTS]; /* the root search's firing counts (see Options.fired) */
    Table tt;
    Table kept; /* SIDE_KEPT_HITS: the keys with their kept-out sets (see kept_term) */
    size_t kept_used;
    SMove *moves;
    size_t mcap, mlen;
    SMove *path;
    size_t pcap, plen;
    Frame *frames;
    size_t fcap, flen;
    uint64_t nodes, node_limit;
    uint64_t probe_nodes; /* nodes of the probes (see solve_portfolio) */
    uint64_t pause_at;    /* pause when nodes reach this (0: never) */
    int hard;             /* node_limit caps nodes + probe_nodes: never passed (the root search) */
    int started;
    double (*clock)(void); /* the time limit's clock: now_seconds or thread_cpu_seconds */
    double t0;             /* when the search began, on that clock */
    double deadline;       /* seconds allowed, < 0: none */
    size_t budget, used;
    int forget; /* the table, full, forgets entries (the root search: see forget_some) */
    uint64_t thinned; /* the times it did */
    int limit;
    int pending; /* rule 10: the talon card the step being entered put on a column, or -1 */
    int after_recall; /* the step being entered recalled a card onto a card */
    int successor; /* rule 14: after a talon card went home, the next of its suit, or -1 */
} Search;

/* The nodes the root search may still count, its side searches' and probes'
 * included (UINT64_MAX: no node limit, or not a hard one). */
static uint64_t nodes_left(const Search *x)
{
    if (!x->node_limit || !x->hard) return UINT64_MAX;
    uint64_t spent = x->nodes + x->probe_nodes;
    return spent < x->node_limit ? x->node_limit - spent : 0;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The calling thread's CPU time: the search's, which runs in it whole (its
 * probes and side searches too), whatever else the machine runs. */
static double thread_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0.0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The first allocation of an array holds this many times what is asked
 * for, and at least FIRST_ITEMS: most searches then never grow one.  (Each
 * growth copies the array; the move list's first request is MAX_GEN moves,
 * and on a median draw-3 deal the copies were about 4 % of the search's
 * instructions.) */
#define FIRST_GROWTH 4
#define FIRST_ITEMS 256

/* Grow `*array` (of `size`-byte items) to hold at least `need` items. */
static int reserve(Search *x, void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 1;
    size_t ncap = *cap ? *cap : need > FIRST_ITEMS / FIRST_GROWTH ? FIRST_GROWTH * need : FIRST_ITEMS;
    while (ncap < need) ncap *= 2;
    if (x->used + (ncap - *cap) * size > x->budget) return 0;
    void *p = realloc(*array, ncap * size);
    if (!p) return 0;
    x->used += (ncap - *cap) * size;
    *array = p;
    *cap = ncap;
    return 1;
}

static int path_push(Search *x, const SMove *m)
{
    if (!reserve(x, (void **)&x->path, &x->pcap, x->plen + 1, sizeof(SMove))) return 0;
    x->path[x->plen++] = *m;
    return 1;
}

static void path_unwind(Search *x, size_t base)
{
    while (x->plen > base) undo_move(&x->s, &x->path[--x->plen]);
}

static int play(Search *x, SMove m)
{
    apply_move(&x->s, &m);
    if (!path_push(x, &m)) {
        undo_move(&x->s, &m);
        return 0;
    }
    return 1;
}

static int is_won(const State *s)
{
    return s->found[0] + s->found[1] + s->found[2] + s->found[3] == 52;
}

#endif /* BONANZA_SEARCH_PATH_H */
