/*
 * search_python.h: what the Python binding needs besides the search: the
 * arguments read into a State (read_int_list, build_state), Ctrl-C during a
 * search (catch_sigint, release_sigint), and a line as a list of moves
 * (line_list).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros and declares the C API it uses), and builds
 * everything as one translation unit.
 */
#ifndef BONANZA_SEARCH_PYTHON_H
#define BONANZA_SEARCH_PYTHON_H

#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "search_atomic.h"
#include "search_cards.h"
#include "search_moves.h"
#include "search_path.h"
#include "search_state.h"
#include "search_table.h"

static int read_int_list(PyObject *seq, uint8_t *out, int max, int *n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return 0;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > max) {
        PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
        Py_DECREF(fast);
        return 0;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return 0; }
        if (v < 0 || v > 51) {
            PyErr_Format(PyExc_ValueError, "%s: %ld is not a card", what, v);
            Py_DECREF(fast);
            return 0;
        }
        out[i] = (uint8_t)v;
    }
    *n = (int)len;
    Py_DECREF(fast);
    return 1;
}

static int build_state(PyObject *columns, PyObject *downs, PyObject *talon, int ptr,
                       PyObject *found, int rec, const Rules *r, State *s)
{
    memset(s, 0, sizeof *s);
    int seen[52] = {0};
    PyObject *cols = PySequence_Fast(columns, "columns must be a sequence");
    if (!cols) return 0;
    Py_ssize_t ncols = PySequence_Fast_GET_SIZE(cols);
    if (ncols < 1 || ncols > NCOLS) {
        Py_DECREF(cols);
        PyErr_SetString(PyExc_ValueError, "there must be 1 to 10 columns");
        return 0;
    }
    s->ncols = (int)ncols;
    s->stale = (1u << s->ncols) - 1;
    for (int c = 0; c < s->ncols; c++) {
        if (!read_int_list(PySequence_Fast_GET_ITEM(cols, c), s->col[c], MAXC, &s->len[c],
                           "column")) {
            Py_DECREF(cols);
            return 0;
        }
    }
    Py_DECREF(cols);
    PyObject *dl = PySequence_Fast(downs, "downs must be a sequence");
    if (!dl) return 0;
    if (PySequence_Fast_GET_SIZE(dl) != s->ncols) {
        Py_DECREF(dl);
        PyErr_SetString(PyExc_ValueError, "there must be a face-down count per column");
        return 0;
    }
    for (int c = 0; c < s->ncols; c++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(dl, c));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(dl); return 0; }
        if (v < 0 || v > s->len[c] || (v == s->len[c] && v > 0)) {
            Py_DECREF(dl);
            PyErr_SetString(PyExc_ValueError, "bad face-down count");
            return 0;
        }
        s->down[c] = (int)v;
    }
    Py_DECREF(dl);
    if (!read_int_list(talon, s->talon, MAXC, &s->tlen, "talon")) return 0;
    if (ptr < 0 || ptr > s->tlen || (r->deals && ptr)) {
        PyErr_SetString(PyExc_ValueError, "bad waste size");
        return 0;
    }
    s->ptr = ptr;
    PyObject *fl = PySequence_Fast(found, "foundations must be a sequence");
    if (!fl) return 0;
    if (PySequence_Fast_GET_SIZE(fl) != 4) {
        Py_DECREF(fl);
        PyErr_SetString(PyExc_ValueError, "there must be 4 foundations");
        return 0;
    }
    for (int f = 0; f < 4; f++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fl, f));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fl); return 0; }
        if (v < 0 || v > 13) {
            Py_DECREF(fl);
            PyErr_SetString(PyExc_ValueError, "bad foundation count");
            return 0;
        }
        s->found[f] = (int)v;
        for (int k = 0; k < v; k++) seen[f * 13 + k]++;
    }
    Py_DECREF(fl);
    if (rec < 0 || (r->recycles_allowed >= 0 && rec > r->recycles_allowed) || rec > 1000000) {
        PyErr_SetString(PyExc_ValueError, "bad recycle count");
        return 0;
    }
    /* Only rec relative to the limit matters; keep it small for the key. */
    s->rec = r->recycles_allowed >= 0 ? rec : 0;
    if (r->draw < 1 || r->draw > 52) {
        PyErr_SetString(PyExc_ValueError, "bad draw count");
        return 0;
    }
    memset(s->at_col, -1, sizeof s->at_col);
    for (int c = 0; c < s->ncols; c++)
        for (int i = 0; i < s->len[c]; i++) {
            seen[s->col[c][i]]++;
            s->colh[c] ^= Z_COL[s->col[c][i]][i];
            s->at_col[s->col[c][i]] = (int8_t)c;
            s->at_idx[s->col[c][i]] = (int8_t)i;
            s->col_mask[c] |= 1ULL << s->col[c][i];
            if (i < s->down[c]) s->down_mask |= 1ULL << s->col[c][i];
            if (i == s->len[c] - 1) s->top_mask |= 1ULL << s->col[c][i];
            else link_pair(s, s->col[c][i], s->col[c][i + 1]);
        }
    for (int i = 0; i < s->tlen; i++) {
        seen[s->talon[i]]++;
        s->talh ^= Z_TAL[s->talon[i]];
        s->tal_mask |= 1ULL << s->talon[i];
    }
    for (int k = 0; k < 52; k++)
        if (seen[k] != 1) {
            PyErr_Format(PyExc_ValueError, "card %d appears %d times", k, seen[k]);
            return 0;
        }
    return 1;
}

/* Ctrl-C.  While a search runs without the interpreter lock, Python's own
 * SIGINT handler only notes the signal, so the main thread's search installs
 * one that also sets stop_requested (and passes the signal on); every search
 * then stops within CHECK_EVERY nodes, and once the old handler is back,
 * Python's handler runs (by default raising KeyboardInterrupt). */
static struct sigaction sigint_before;
static unsigned long main_thread;

static void on_sigint(int sig)
{
    stop_requested = 1;
    if (!(sigint_before.sa_flags & SA_SIGINFO) && sigint_before.sa_handler != SIG_DFL
        && sigint_before.sa_handler != SIG_IGN)
        sigint_before.sa_handler(sig);
}

/* Catch SIGINT for a search of the main thread (1), unless it is ignored or
 * has no handler (0). */
static int catch_sigint(void)
{
    if (PyThread_get_thread_ident() != main_thread) return 0;
    struct sigaction now;
    if (sigaction(SIGINT, NULL, &now) != 0 || (now.sa_flags & SA_SIGINFO)
        || now.sa_handler == SIG_DFL || now.sa_handler == SIG_IGN)
        return 0;
    struct sigaction mine = now;
    mine.sa_handler = on_sigint;
    sigint_before = now;
    stop_requested = 0;
    return sigaction(SIGINT, &mine, NULL) == 0;
}

/* Put the old handler back; -1 if Python's handler then raised. */
static int release_sigint(void)
{
    sigaction(SIGINT, &sigint_before, NULL);
    int stopped = stop_requested;
    stop_requested = 0;
    return stopped ? PyErr_CheckSignals() : 0;
}

/* The tuple (a, b, c) of three small whole numbers.  (Built by hand:
 * Py_BuildValue parses its format for every move, and that was a tenth of
 * a median solve's instructions.) */
static PyObject *int_triple(long a, long b, long c)
{
    PyObject *t = PyTuple_New(3);
    if (!t) return NULL;
    long values[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (!v) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* The atomic line as a list of (source, dest, count) tuples. */
static PyObject *line_list(const AtomLine *line)
{
    PyObject *list = PyList_New((Py_ssize_t)line->len);
    if (!list) return NULL;
    for (size_t k = 0; k < line->len; k++) {
        Atomic a = line->moves[k];
        PyObject *t = int_triple(a.src, a.dst, a.count);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, (Py_ssize_t)k, t);
    }
    return list;
}

/* The position and rules of an entry point that takes only them (the
 * leading arguments of every entry point); 0 with an error set. */
static int read_position(PyObject *args, State *s, Rules *r)
{
    PyObject *columns, *downs, *talon, *found;
    int ptr, rec;
    return PyArg_ParseTuple(args, "OOOiOiiipppp", &columns, &downs, &talon, &ptr, &found, &rec,
                            &r->draw, &r->recycles_allowed, &r->any_empty, &r->recall,
                            &r->partial, &r->deals)
           && build_state(columns, downs, talon, ptr, found, rec, r, s);
}

/* The options of a default search (every rule its rules allow), firing into
 * `fired` (FIRED_SLOTS counts), for the entry points that test one position. */
static Options search_defaults(const Rules *r, uint64_t *fired)
{
    Options o = {.prune = prune_for(r, PRUNE_ALL), .sides = SIDES_DEFAULT, .fired = fired};
    return o;
}

/* How a default search takes the position's talon (talon_mode). */
static int default_talon(const State *s, const Rules *r)
{
    uint64_t fired[FIRED_SLOTS] = {0};
    Options o = search_defaults(r, fired);
    return talon_mode(s, r, &o);
}

/* step_keys(columns, downs, talon, waste_size, foundations, recycles, draw,
 * recycles_allowed, any_empty, recall, partial, deals): for each step the
 * search generates from the position (every pruning rule on), step_key's
 * key and state_key's after apply_move, as pairs, for testing that the
 * lookups enter starts for a node's children are the right ones. */
static PyObject *py_step_keys(PyObject *self, PyObject *args)
{
    (void)self;
    Rules r;
    State s;
    if (!read_position(args, &s, &r)) return NULL;
    uint64_t fired[FIRED_SLOTS] = {0};
    Options o = search_defaults(&r, fired);
    SMove moves[MAX_GEN];
    int n = gen_moves(&s, &r, &o, moves);
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < n; i++) {
        if (moves[i].pre_count) continue;
        state_key(&s, &r);
        uint64_t predicted = step_key(&s, &r, &moves[i]);
        SMove m = moves[i];
        apply_move(&s, &m);
        uint64_t after = state_key(&s, &r);
        undo_move(&s, &m);
        PyObject *pair = Py_BuildValue("(KK)", (unsigned long long)predicted,
                                       (unsigned long long)after);
        if (!pair || PyList_Append(list, pair) < 0) Py_CLEAR(list);
        Py_XDECREF(pair);
    }
    return list;
}

/* dead_end_rule(columns, downs, talon, waste_size, foundations, recycles,
 * draw, recycles_allowed, any_empty, recall, partial, deals): which rule
 * finds the position lost: 8 (rule 8's relaxation, with 17 and 18), 20 (a
 * bare base, on every card), 21 (two kids, one base), 22 (a squeeze, at
 * every face-down card), 23 (a base gone home, at every tableau card), 24
 * (chained locks), or 0 (none); for testing rules 20 to 24 position by
 * position against the search without them. */
static PyObject *py_dead_end_rule(PyObject *self, PyObject *args)
{
    (void)self;
    Rules r;
    State s;
    if (!read_position(args, &s, &r)) return NULL;
    uint64_t fired[FIRED_SLOTS] = {0}, bases;
    Options o = search_defaults(&r, fired);
    if (home_reach(&s, &r, 0, 0, talon_mode(&s, &r, &o), &bases) != ALL_CARDS)
        return PyLong_FromLong(8);
    if (bare_at_start(&s, &r, &o)) return PyLong_FromLong(20);
    if (shared_base_locked(&s, &r, talon_mode(&s, &r, &o))) return PyLong_FromLong(21);
    if (squeeze_at_start(&s, &r, &o)) return PyLong_FromLong(22);
    if (gone_at_start(&s, &r, &o)) return PyLong_FromLong(23);
    return PyLong_FromLong(chain_at_start(&s, &r, &o) ? 24 : 0);
}

/* chain_facts(columns, ...): rule 24's facts at the position: (lost,
 * frozen mask, ((base, kids mask), ...)) (for tests and analysis). */
static PyObject *py_chain_facts(PyObject *self, PyObject *args)
{
    (void)self;
    State s;
    Rules r;
    if (!read_position(args, &s, &r)) return NULL;
    Reach facts = {0};
    KeptOff kept = {0};
    int n = 0;
    int lost = chain_locked_x(&s, &r, default_talon(&s, &r), CHAIN_SWEEPS, &n, &facts, &kept);
    PyObject *pairs = PyTuple_New(kept.n);
    if (!pairs) return NULL;
    for (int k = 0; k < kept.n; k++)
        PyTuple_SET_ITEM(pairs, k, Py_BuildValue("(iK)", kept.base[k],
                                                 (unsigned long long)kept.kids[k]));
    return Py_BuildValue("(iKN)", lost, (unsigned long long)facts.frozen, pairs);
}

/* reach_sets(columns, ..., no_home, frozen): rule 8's relaxation (with the
 * talon as the search takes it), with `no_home` never going home and
 * `frozen` never put on a column: (H, A) (for analysis). */
static PyObject *py_reach_sets(PyObject *self, PyObject *args)
{
    (void)self;
    Rules r;
    State s;
    unsigned long long no_home = 0, frozen = 0;
    Py_ssize_t n = PyTuple_Size(args);
    if (n < 2) {
        PyErr_SetString(PyExc_TypeError, "reach_sets takes a position, no_home and frozen");
        return NULL;
    }
    PyObject *head = PyTuple_GetSlice(args, 0, n - 2);
    if (!head) return NULL;
    no_home = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, n - 2));
    frozen = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, n - 1));
    int ok = read_position(head, &s, &r);
    Py_DECREF(head);
    if (!ok || PyErr_Occurred()) return NULL;
    uint64_t bases;
    Reach y = {.no_home = no_home, .frozen = frozen};
    uint64_t h = reach_chained(&s, &r, default_talon(&s, &r), &bases, &y);
    return Py_BuildValue("(KK)", (unsigned long long)h, (unsigned long long)bases);
}

#endif /* BONANZA_SEARCH_PYTHON_H */
