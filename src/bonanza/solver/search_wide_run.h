/*
 * search_wide_run.h: generic.search in C (see search_wide.h), and its
 * Python entry points (solve_wide, wide_moves).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_WIDE_RUN_H
#define BONANZA_SEARCH_WIDE_RUN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search_path.h"
#include "search_python.h"
#include "search_wide.h"
#include "search_wide_key.h"

#define W_FIRST_CHUNK 4096 /* the portfolio's first chunk, in nodes of each search */

/* A position on the path (encoded at state_at in the arena: see w_encode)
 * and how far through its moves the search is.  Only the top position's
 * moves are held (Wide.moves); coming back to a position, the search makes
 * them again, in the same order (the path is most of the memory: see
 * docs/solver.md). */
typedef struct {
    size_t state_at;
    uint32_t mcount, mnext;
} WFrame;

/* The keys seen: open addressing on (key, check); key 0 marks a free slot. */
typedef struct {
    uint64_t *slots; /* 2 words a slot */
    size_t mask, count;
} WTable;

/* Double the table (the first: 4,096 slots) if `budget` bytes hold the new
 * one beside `used` (the old one's included); 0 if not, or out of memory. */
static int w_table_grow(WTable *t, size_t *used, size_t budget)
{
    size_t cap = t->slots ? 2 * (t->mask + 1) : (size_t)1 << 12;
    size_t bytes = 2 * cap * sizeof(uint64_t), old = t->slots ? 2 * (t->mask + 1) * sizeof(uint64_t) : 0;
    if (*used + bytes > budget) return 0;
    uint64_t *slots = calloc(2 * cap, sizeof(uint64_t));
    if (!slots) return 0;
    for (size_t i = 0; t->slots && i <= t->mask; i++) {
        uint64_t key = t->slots[2 * i];
        if (!key) continue;
        size_t j = key & (cap - 1);
        while (slots[2 * j]) j = (j + 1) & (cap - 1);
        slots[2 * j] = key;
        slots[2 * j + 1] = t->slots[2 * i + 1];
    }
    free(t->slots);
    t->slots = slots;
    t->mask = cap - 1;
    *used += bytes - old;
    return 1;
}

/* 1 if added, 0 if seen, -1 out of memory (the table grows at 3/4 full; a
 * key seen is found even when there is no room for a new one). */
static int w_table_add(WTable *t, uint64_t key, uint64_t check, size_t *used, size_t budget)
{
    size_t j = key & t->mask;
    while (t->slots && t->slots[2 * j]) {
        if (t->slots[2 * j] == key && t->slots[2 * j + 1] == check) return 0;
        j = (j + 1) & t->mask;
    }
    if (!t->slots || 4 * (t->count + 1) > 3 * (t->mask + 1)) {
        if (!w_table_grow(t, used, budget)) return -1;
        for (j = key & t->mask; t->slots[2 * j]; j = (j + 1) & t->mask) {}
    }
    t->slots[2 * j] = key;
    t->slots[2 * j + 1] = check;
    t->count++;
    return 1;
}

typedef struct {
    WRules r;
    WTable seen;
    WFrame *frames;
    size_t fcap, flen;
    uint8_t *arena;                  /* the path's positions, encoded */
    size_t acap, alen;
    WState top;                      /* the position of frame top_of, decoded */
    size_t top_of;
    WMove *moves, *line;             /* the moves of frame moves_of; the line played */
    size_t mcap, moves_of, lcap, llen;
    uint64_t nodes, node_limit;      /* node_limit 0: none */
    const uint64_t *other_nodes;     /* the other search's, under the portfolio (or NULL) */
    uint64_t pause_at;               /* pause when nodes reach it (0: never) */
    double t0, deadline;             /* deadline < 0: none */
    size_t *used, memory_limit;      /* bytes held (shared with the other search, if any) */
    int limit;                       /* LIMIT_* */
    int dead_ends;                   /* drop hopeless positions (search_wide_dead_ends.h) */
    uint64_t dropped;                /* the hopeless positions it dropped */
} Wide;

/* Room for `need` items of `size` bytes in *array (doubling), within the
 * budget (x->used counts what is held); 0 if not. */
static int w_reserve(Wide *x, void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 1;
    size_t grown = *cap ? *cap : 64;
    while (grown < need) grown *= 2;
    if (*x->used + (grown - *cap) * size > x->memory_limit) return 0;
    void *bigger = realloc(*array, grown * size);
    if (!bigger) return 0;
    *x->used += (grown - *cap) * size;
    *array = bigger;
    *cap = grown;
    return 1;
}

/* The key of s. */
static void w_key(const WState *s, const WRules *r, uint64_t *key, uint64_t *check)
{
    uint8_t bytes[W_KEY_MAX];
    w_hash(bytes, w_key_bytes(s, r, bytes), key, check);
}

/* Push a frame for s with its ordered moves; 0 out of memory. */
static int w_push(Wide *x, const WState *s)
{
    if (!w_reserve(x, (void **)&x->frames, &x->fcap, x->flen + 1, sizeof(WFrame))
        || !w_reserve(x, (void **)&x->moves, &x->mcap, W_MOVES_MAX, sizeof(WMove))
        || !w_reserve(x, (void **)&x->arena, &x->acap, x->alen + W_CODE_MAX, 1))
        return 0;
    WFrame *f = &x->frames[x->flen];
    f->state_at = x->alen;
    x->alen += (size_t)w_encode(s, &x->r, x->arena + x->alen);
    f->mcount = (uint32_t)w_ordered_moves(s, &x->r, x->moves);
    f->mnext = 0;
    x->top = *s;
    x->top_of = x->moves_of = x->flen++;
    return 1;
}

/* generic._limit_hit (memory is met where it is allocated). */
static int w_limit_hit(const Wide *x)
{
    if (x->node_limit && x->nodes + (x->other_nodes ? *x->other_nodes : 0) >= x->node_limit)
        return LIMIT_NODES;
    if (x->deadline >= 0 && x->nodes % W_CLOCK_EVERY == 0 && now_seconds() - x->t0 >= x->deadline)
        return LIMIT_TIME;
    if (stop_requested) return LIMIT_STOPPED;
    return LIMIT_NONE;
}

/* Did a move from s to child turn a card face up?  (The dead-end test is made
 * only then, and at the start: skipping it only keeps positions.) */
static int w_turns_up(const WState *s, const WState *child, const WRules *r)
{
    for (int c = 0; c < r->ncols; c++)
        if (child->down[c] < s->down[c]) return 1;
    return 0;
}

/* generic.search from `start`: 1 solved (x->line), 0 unsolvable, -1 unknown
 * (x->limit), -2 paused (at x->pause_at nodes; w_run goes on). */
static int w_run(Wide *x);

static int w_search(Wide *x, const WState *start)
{
    uint64_t key, check;
    if (w_won(start, &x->r)) {
        x->seen.count = 1;
        return 1;
    }
    w_key(start, &x->r, &key, &check);
    if (w_table_add(&x->seen, key, check, x->used, x->memory_limit) < 0) {
        x->limit = LIMIT_MEMORY;
        return -1;
    }
    if (x->dead_ends && w_hopeless(start, &x->r)) {
        x->dropped++;
        return 0;
    }
    if (!w_push(x, start)) {
        x->limit = LIMIT_MEMORY;
        return -1;
    }
    return w_run(x);
}

static int w_run(Wide *x)
{
    uint64_t key, check;
    while (x->flen) {
        WFrame *f = &x->frames[x->flen - 1];
        if (f->mnext == f->mcount) {
            x->alen = f->state_at;
            x->flen--;
            if (x->llen) x->llen--;
            continue;
        }
        if (x->pause_at && x->nodes >= x->pause_at) return -2;
        if ((x->limit = w_limit_hit(x)) != LIMIT_NONE) return -1;
        if (x->top_of != x->flen - 1) {
            w_decode(x->arena + f->state_at, &x->r, &x->top);
            x->top_of = x->flen - 1;
        }
        if (x->moves_of != x->flen - 1) {
            w_ordered_moves(&x->top, &x->r, x->moves);
            x->moves_of = x->flen - 1;
        }
        WMove m = x->moves[f->mnext++];
        WState child = x->top;
        w_apply(&child, &x->r, m);
        x->nodes++;
        if (!w_reserve(x, (void **)&x->line, &x->lcap, x->llen + 1, sizeof(WMove))) {
            x->limit = LIMIT_MEMORY;
            return -1;
        }
        if (w_won(&child, &x->r)) {
            x->line[x->llen++] = m;
            return 1;
        }
        w_key(&child, &x->r, &key, &check);
        int added = w_table_add(&x->seen, key, check, x->used, x->memory_limit);
        if (added < 0) { x->limit = LIMIT_MEMORY; return -1; }
        if (!added) continue;
        if (x->dead_ends && w_turns_up(&x->top, &child, &x->r) && w_hopeless(&child, &x->r)) {
            x->dropped++;
            continue;
        }
        if (!w_push(x, &child)) { x->limit = LIMIT_MEMORY; return -1; }
        x->line[x->llen++] = m;
    }
    return 0;
}

static int w_pile(int at)
{
    return at < W_COLS ? col_pile(at) : at == W_AT_STOCK ? P_STOCK
         : at == W_AT_WASTE || at == W_AT_TALON ? P_WASTE : w_found_pile(at - W_AT_FOUND);
}

/* A list of cards (ids 0-103) into `out`; 0 with an error set. */
static int w_cards(PyObject *seq, uint8_t *out, int most, int *count, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > most) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (card < 0 || card >= W_CARDS) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: not a card id", what);
            return 0;
        }
        out[i] = (uint8_t)card;
    }
    *count = (int)n;
    Py_DECREF(fast);
    return 1;
}

/* The position and rules from Python (see solve_wide's docstring); 0 with an
 * error set. */
static int w_build(PyObject *args, WState *s, WRules *r, double *time_limit,
                   unsigned long long *node_limit, Py_ssize_t *memory_limit, int *macros,
                   int *dead_ends)
{
    PyObject *columns, *downs, *stock, *waste, *found;
    memset(s, 0, sizeof *s);
    memset(r, 0, sizeof *r);
    *macros = 0;
    *dead_ends = 0;
    if (!PyArg_ParseTuple(args, "OOOOOiiiipppdKn|pp", &columns, &downs, &stock, &waste, &found,
                          &s->recycles, &r->decks, &r->draw, &r->recycles_allowed,
                          &r->any_empty, &r->recall, &r->partial, time_limit, node_limit,
                          memory_limit, macros, dead_ends))
        return 0;
    Py_ssize_t ncols = PySequence_Size(columns), nfound = PySequence_Size(found);
    if (ncols < 1 || ncols > W_COLS || PySequence_Size(downs) != ncols || r->decks < 1
        || r->decks > 2 || nfound != 4 * r->decks || r->draw < 1) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "positions of 1-10 columns, 1 or 2 decks");
        return 0;
    }
    r->ncols = (int)ncols;
    for (int c = 0; c < r->ncols; c++) {
        PyObject *column = PySequence_GetItem(columns, c), *down = PySequence_GetItem(downs, c);
        int len = 0;
        long d = down ? PyLong_AsLong(down) : -1;
        int ok = column && down && w_cards(column, s->col[c], W_HEIGHT - W_RANKS, &len, "column");
        Py_XDECREF(column);
        Py_XDECREF(down);
        if (!ok) return 0;
        if (d < 0 || d > len || (len && d == len)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a column's face-down count");
            return 0;
        }
        s->len[c] = (uint8_t)len;
        s->down[c] = (uint8_t)d;
    }
    int n = 0;
    if (!w_cards(stock, s->stock, W_CARDS, &n, "stock")) return 0;
    s->nstock = (uint8_t)n;
    if (!w_cards(waste, s->waste, W_CARDS, &n, "waste")) return 0;
    s->nwaste = (uint8_t)n;
    for (int h = 0; h < 4 * r->decks; h++) {
        PyObject *item = PySequence_GetItem(found, h);
        long height = item ? PyLong_AsLong(item) : -1;
        Py_XDECREF(item);
        if (height < 0 || height > W_RANKS) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a foundation's height");
            return 0;
        }
        s->found[h] = (uint8_t)height;
    }
    return 1;
}

/* The position and rules under talon macros: the talon as T (see "Talon
 * macros"), the waste and then the stock from its next card on; merged
 * with draw 1 and unlimited passes, else stepped. */
static void w_to_macros(WState *s, WRules *r)
{
    r->macro = r->draw == 1 && r->recycles_allowed < 0 ? W_MERGED : W_STEPPED;
    s->ptr = s->nwaste;
    for (int i = s->nstock - 1; i >= 0; i--) s->waste[s->nwaste++] = s->stock[i];
    s->nstock = 0;
    if (r->macro == W_MERGED) s->recycles = 0;
}

/* Give back what search x holds (its table, path and line), from *x->used. */
static void w_release(Wide *x)
{
    size_t table = x->seen.slots ? 2 * (x->seen.mask + 1) * sizeof(uint64_t) : 0;
    *x->used -= table + x->fcap * sizeof(WFrame) + x->acap + (x->mcap + x->lcap) * sizeof(WMove);
    free(x->seen.slots);
    free(x->frames);
    free(x->arena);
    free(x->moves);
    free(x->line);
    x->seen.slots = NULL;
    x->frames = NULL;
    x->arena = NULL;
    x->moves = x->line = NULL;
    x->fcap = x->acap = x->mcap = x->lcap = 0;
    x->flen = x->alen = x->llen = 0;
}

static void w_free(Wide *x)
{
    if (!x) return;
    free(x->seen.slots);
    free(x->frames);
    free(x->arena);
    free(x->moves);
    free(x->line);
    free(x);
}

/* With talon macros asked for, the search as it is (`plain`, the Python
 * one's) and under talon macros (`x`) side by side, in chunks of doubling
 * size, plain first: the first verdict decides (both are exact).  Each
 * finds some deals at once that the other does not (Double Klondike, 100
 * deals of seed 2026 at 300,000 nodes: 90 and 88 won, 96 by either).  A
 * search out of memory ends, gives its memory back, and the other goes on
 * alone (the plain search's path is long: nearly every position it stores
 * is deeper than the last, so it is the one that runs out).  Returns as
 * w_search; *winner is the one whose verdict it is. */
static int w_portfolio(Wide *x, Wide *plain, const WState *start, const WState *macro_start,
                       Wide **winner)
{
    Wide *both[2] = {plain, x};
    const WState *starts[2] = {start, macro_start};
    int alive[2] = {1, 1}, begun[2] = {0, 0};
    uint64_t chunk = W_FIRST_CHUNK;
    for (;;) {
        for (int k = 0; k < 2; k++) {
            if (!alive[k]) continue;
            Wide *y = both[k];
            y->pause_at = alive[1 - k] ? y->nodes + chunk : 0;
            int result = begun[k] ? w_run(y) : w_search(y, starts[k]);
            begun[k] = 1;
            *winner = y;
            if (result >= 0) return result;
            if (result == -1 && (y->limit != LIMIT_MEMORY || !alive[1 - k])) return -1;
            if (result == -1) { /* out of memory: the other goes on */
                alive[k] = 0;
                w_release(y);
            }
        }
        chunk *= 2;
    }
}

static PyObject *w_move_list(const WMove *moves, size_t n)
{
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    for (size_t k = 0; k < n; k++) {
        PyObject *t = Py_BuildValue("(iiii)", w_pile(moves[k].src), w_pile(moves[k].dst),
                                    moves[k].count,
                                    moves[k].src == W_AT_TALON ? (int)moves[k].index : -1);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, (Py_ssize_t)k, t);
    }
    return list;
}

static PyObject *py_solve_wide(PyObject *self, PyObject *args)
{
    (void)self;
    Wide *x = calloc(1, sizeof(Wide)), *plain = NULL, *winner = x;
    WState start, macro_start;
    double time_limit;
    unsigned long long node_limit;
    Py_ssize_t memory_limit;
    int macros, dead_ends;
    size_t used = 0;
    if (!x) return PyErr_NoMemory();
    if (!w_build(args, &start, &x->r, &time_limit, &node_limit, &memory_limit, &macros,
                 &dead_ends)) {
        free(x);
        return NULL;
    }
    x->dead_ends = dead_ends;
    x->node_limit = node_limit;
    x->deadline = time_limit;
    x->memory_limit = memory_limit > 0 ? (size_t)memory_limit : WIDE_DEFAULT_MEMORY;
    x->used = &used;
    x->t0 = now_seconds();
    used = sizeof(Wide);
    if (macros) {
        if (!(plain = malloc(sizeof(Wide)))) { free(x); return PyErr_NoMemory(); }
        *plain = *x;
        used += sizeof(Wide);
        plain->other_nodes = &x->nodes;
        x->other_nodes = &plain->nodes;
        macro_start = start;
        w_to_macros(&macro_start, &x->r);
    }
    double cpu0 = thread_cpu_seconds();
    int catching = catch_sigint(), result;
    Py_BEGIN_ALLOW_THREADS
    result = macros ? w_portfolio(x, plain, &start, &macro_start, &winner) : w_search(x, &start);
    Py_END_ALLOW_THREADS
    double seconds = now_seconds() - x->t0, cpu_seconds = thread_cpu_seconds() - cpu0;
    int interrupted = catching && release_sigint() < 0;
    PyObject *ret = NULL, *line = interrupted ? NULL
                                : w_move_list(winner->line, result == 1 ? winner->llen : 0);
    if (line) {
        static const char *limits[] = {NULL, "nodes", "time", "memory", "interrupted"};
        const char *status = result == 1 ? "solved" : result == 0 ? "unsolvable" : "unknown";
        uint64_t nodes = x->nodes + (plain ? plain->nodes : 0);
        size_t states = x->seen.count + (plain ? plain->seen.count : 0);
        uint64_t dropped = x->dropped + (plain ? plain->dropped : 0);
        ret = Py_BuildValue("(sNKdznndK)", status, line, (unsigned long long)nodes, seconds,
                            result < 0 ? limits[winner->limit] : NULL, (Py_ssize_t)states,
                            (Py_ssize_t)used, cpu_seconds, (unsigned long long)dropped);
    }
    w_free(plain);
    w_free(x);
    return ret;
}

static PyObject *py_wide_moves(PyObject *self, PyObject *args)
{
    (void)self;
    WState s;
    WRules r;
    double time_limit;
    unsigned long long node_limit;
    Py_ssize_t memory_limit;
    int macros, dead_ends;
    if (!w_build(args, &s, &r, &time_limit, &node_limit, &memory_limit, &macros, &dead_ends))
        return NULL;
    if (macros) w_to_macros(&s, &r);
    WMove out[W_MOVES_MAX];
    int n = w_ordered_moves(&s, &r, out);
    return w_move_list(out, (size_t)n);
}

#endif /* BONANZA_SEARCH_WIDE_RUN_H */
