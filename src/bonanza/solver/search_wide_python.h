/*
 * search_wide_python.h: the Python entry points of the generic search in C
 * (solve_wide, wide_moves; search_wide_run.h).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_WIDE_PYTHON_H
#define BONANZA_SEARCH_WIDE_PYTHON_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search_python.h"
#include "search_wide.h"
#include "search_wide_run.h"

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
                   int *prune, int *cpu_clock)
{
    PyObject *columns, *downs, *stock, *waste, *found;
    memset(s, 0, sizeof *s);
    memset(r, 0, sizeof *r);
    *macros = 0;
    *prune = 0;
    *cpu_clock = 0;
    if (!PyArg_ParseTuple(args, "OOOOOiiiipppdKn|pip", &columns, &downs, &stock, &waste, &found,
                          &s->recycles, &r->decks, &r->draw, &r->recycles_allowed,
                          &r->any_empty, &r->recall, &r->partial, time_limit, node_limit,
                          memory_limit, macros, prune, cpu_clock))
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

/* A move as Python reads it: source and destination piles (the engine's
 * numbers), count, and the talon index of a talon play, else -1. */
static void w_step(const WMove *m, int out[4])
{
    out[0] = w_pile(m->src);
    out[1] = w_pile(m->dst);
    out[2] = m->count;
    out[3] = m->src == W_AT_TALON ? (int)m->index : -1;
}

static PyObject *w_move_list(const WMove *moves, size_t n)
{
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    for (size_t k = 0; k < n; k++) {
        int step[4];
        w_step(&moves[k], step);
        PyObject *t = Py_BuildValue("(iiii)", step[0], step[1], step[2], step[3]);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, (Py_ssize_t)k, t);
    }
    return list;
}

/* A winning line for Python, packed: each move's w_step as four native
 * 16-bit integers, which wide.steps unpacks.  A Double Klondike line found
 * depth first can be a million moves long, and as a list of tuples it cost
 * about 90 bytes a move. */
static PyObject *w_line_bytes(const WMove *moves, size_t n)
{
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(4 * n * sizeof(int16_t)));
    if (!out) return NULL;
    int16_t *at = (int16_t *)PyBytes_AS_STRING(out);
    for (size_t k = 0; k < n; k++) {
        int step[4];
        w_step(&moves[k], step);
        for (int i = 0; i < 4; i++) *at++ = (int16_t)step[i];
    }
    return out;
}

/* Which searches w_portfolio runs, in its order. */
enum { W_PLAIN_SEARCH, W_MACRO_SEARCH, W_MACRO_SEARCH_WITHOUT_RULE_10 };

/* The searches to run, each a copy of `model` (its limits, and the rules
 * under talon macros if asked for): without talon macros the plain search
 * alone (with the `plain` rules); with them, the plain search and then the
 * one under them; and under merged macros with rule 10, the one under them,
 * the one under them without rule 10, and last the plain one.  (Double
 * Klondike draw 1, deals 1-2,000, each search run alone and the portfolio
 * worked out from its nodes and CPU at 10 s: plain and macros won 1,954, the
 * three in this order 1,981, median 1.2 ms a deal won, against 1,980 and
 * 3.5 ms with the plain one first: docs/solver.md.)  The fair hints' samples
 * ask for no rule 10, so they keep the pair they were tuned with.  Returns
 * how many, 0 out of memory. */
static int w_members(const Wide *model, const WRules *plain, int macros, Wide **members)
{
    static const int alone[] = {W_PLAIN_SEARCH}, pair[] = {W_PLAIN_SEARCH, W_MACRO_SEARCH},
                     three[] = {W_MACRO_SEARCH, W_MACRO_SEARCH_WITHOUT_RULE_10, W_PLAIN_SEARCH};
    const int *order = alone;
    int n = 1;
    if (macros && model->r.macro == W_MERGED && (model->prune & W_COVER_TALON)) {
        order = three;
        n = 3;
    } else if (macros) {
        order = pair;
        n = 2;
    }
    for (int k = 0; k < n; k++) {
        Wide *y = malloc(sizeof(Wide));
        if (!y) {
            while (k) free(members[--k]);
            return 0;
        }
        *y = *model;
        *model->used += sizeof(Wide);
        if (order[k] == W_PLAIN_SEARCH) y->r = *plain;
        if (order[k] == W_MACRO_SEARCH_WITHOUT_RULE_10) y->prune &= ~W_COVER_TALON;
        members[k] = y;
    }
    return n;
}

static PyObject *py_solve_wide(PyObject *self, PyObject *args)
{
    (void)self;
    Wide model = {0}, *members[W_PORTFOLIO_MOST], *winner;
    WState start, macro_start;
    const WState *starts[W_PORTFOLIO_MOST];
    double time_limit;
    unsigned long long node_limit;
    Py_ssize_t memory_limit;
    int macros, prune, cpu_clock;
    size_t used = 0;
    if (!w_build(args, &start, &model.r, &time_limit, &node_limit, &memory_limit, &macros,
                 &prune, &cpu_clock))
        return NULL;
    model.prune = prune;
    model.node_limit = node_limit;
    model.deadline = time_limit;
    model.memory_limit = memory_limit > 0 ? (size_t)memory_limit : WIDE_DEFAULT_MEMORY;
    model.used = &used;
    model.clock = cpu_clock ? thread_cpu_seconds : now_seconds;
    double t0 = now_seconds(), cpu0 = thread_cpu_seconds();
    model.t0 = model.clock();
    WRules plain = model.r;
    macro_start = start;
    if (macros) w_to_macros(&macro_start, &model.r);
    int n = w_members(&model, &plain, macros, members);
    if (!n) return PyErr_NoMemory();
    for (int k = 0; k < n; k++) starts[k] = members[k]->r.macro ? &macro_start : &start;
    winner = members[0];
    int catching = catch_sigint(), result;
    Py_BEGIN_ALLOW_THREADS
    result = w_portfolio(members, starts, n, &winner);
    Py_END_ALLOW_THREADS
    double seconds = now_seconds() - t0, cpu_seconds = thread_cpu_seconds() - cpu0;
    int interrupted = catching && release_sigint() < 0;
    /* The tables and paths go before the line is handed over: with them
     * the process would hold both at once. */
    for (int k = 0; k < n; k++) w_drop_path(members[k]);
    PyObject *ret = NULL, *line = interrupted ? NULL
                                : w_line_bytes(winner->line, result == 1 ? winner->llen : 0);
    if (line) {
        static const char *limits[] = {NULL, "nodes", "time", "memory", "interrupted"};
        const char *status = result == 1 ? "solved" : result == 0 ? "unsolvable" : "unknown";
        uint64_t nodes = 0, dropped = 0, cycle_dropped = 0, covered = 0;
        size_t states = 0;
        for (int k = 0; k < n; k++) {
            nodes += members[k]->nodes;
            states += members[k]->seen.count;
            dropped += members[k]->dropped;
            cycle_dropped += members[k]->cycle_dropped;
            covered += members[k]->covered;
        }
        ret = Py_BuildValue("(sNKdznndKKK)", status, line, (unsigned long long)nodes, seconds,
                            result < 0 ? limits[winner->limit] : NULL, (Py_ssize_t)states,
                            (Py_ssize_t)used, cpu_seconds, (unsigned long long)dropped,
                            (unsigned long long)cycle_dropped, (unsigned long long)covered);
    }
    for (int k = 0; k < n; k++) w_free(members[k]);
    return ret;
}

/* The position and rules of a test entry point (the limits unread), under
 * talon macros if asked for; 0 with an error set. */
static int w_build_for_test(PyObject *args, WState *s, WRules *r, int *prune)
{
    double time_limit;
    unsigned long long node_limit;
    Py_ssize_t memory_limit;
    int macros, cpu_clock;
    if (!w_build(args, s, r, &time_limit, &node_limit, &memory_limit, &macros, prune,
                 &cpu_clock))
        return 0;
    if (macros) w_to_macros(s, r);
    return 1;
}

static PyObject *py_wide_moves(PyObject *self, PyObject *args)
{
    (void)self;
    WState s;
    WRules r;
    int prune;
    if (!w_build_for_test(args, &s, &r, &prune)) return NULL;
    WMove out[W_MOVES_MAX];
    int n = w_ordered_moves(&s, &r, out);
    return w_move_list(out, (size_t)n);
}

static PyObject *py_wide_hopeless(PyObject *self, PyObject *args)
{
    (void)self;
    WState s;
    WRules r;
    int prune;
    if (!w_build_for_test(args, &s, &r, &prune)) return NULL;
    return PyBool_FromLong((prune & W_DEAD_ENDS) && w_hopeless(&s, &r, prune & W_STOCK_CYCLE));
}

#endif /* BONANZA_SEARCH_WIDE_PYTHON_H */
