/*
 * bonanza.solver._search: the exact Klondike search core (C99), which also
 * plays Westcliff (ten columns) and Easthaven (a stock dealt onto every
 * column): see "Klondike's relatives" below.
 *
 * The search is a depth-first search over positions with a transposition
 * table of 128-bit state keys (a 64-bit key and a 64-bit check).  Every card is known (thoughtful play).  The
 * Python engine stays the reference for the rules: the Python wrapper replays
 * every solution found here before reporting it.
 *
 * State.  Seven columns, or up to ten (State.ncols; cards deepest first, the bottom `down` face down),
 * four foundation counts, and the *talon*: waste and stock as one sequence in
 * draw order (waste bottom .. waste top, then stock next-to-draw .. last).
 * `ptr` is the waste size, so the waste top is talon[ptr - 1].  Cards only
 * ever leave the talon, so its order never changes; a draw moves `ptr`
 * forward by min(draw, cards left) and a recycle sets it to 0.
 *
 * Stock macro moves (Bjarnason, Fern & Tadepalli).  Draws and recycles touch
 * nothing but `ptr` (and the recycle count), so in any winning line they can
 * be postponed until just before the next play from the waste.  The search
 * therefore never draws on its own: one search step plays "the card that
 * becomes the waste top after k draws (possibly across one recycle)" to a
 * column or its foundation.  Recycling twice without playing a card in
 * between reaches nothing new, and when a card is reachable both within the
 * current pass and after a recycle the former is kept (same position with
 * fewer recycles used, which dominates).  The solution is expanded into the
 * single draws and recycles when it is reported, and then cut short through
 * its own positions (search_shortcut.h).
 *
 * Pruning rules (each one proven sound in the comment at its code):
 *   1. safe foundation moves are played at once, with a different rule when
 *      recall is on (see is_safe);
 *   2. a safe card is never recalled from a foundation;
 *   3. columns are interchangeable: the state key does not depend on column
 *      order, and of several empty columns only the first is a destination;
 *   4. moving a whole column that has no face-down card into an empty
 *      column only renames the columns, so it is never generated;
 *   5. with draw 1 and unlimited passes every talon card can be reached from
 *      any waste pointer, so the pointer is left out of the state key and
 *      talon cards that are safe go home at once;
 *   6. with draw 1 the waste top, when safe, goes home at once;
 *   7. with partial runs, of two positions that differ only in which of two
 *      twins (same rank and colour) a run lies on, one exposed, only one is
 *      kept (see normalize_twins);
 *   8. a position where some card can never go home is dropped (see
 *      hopeless);
 *   9. with unlimited passes, waste sizes that reach the same talon cards
 *      share a key, and a position dominates its copy with a fresh stock
 *      (see state_key and enter);
 *  10. with draw 1 and unlimited passes, a talon card put on a column is at
 *      once covered by the next step (see pending_applies);
 *  11. under any other stock rule, a position that is lost with draw 1 and
 *      unlimited passes is lost (see the side searches);
 *  12. with recall on, a card that is nearly safe goes home at once from the
 *      talon (draw 1, unlimited passes) or from a face-up card it fits on,
 *      since a recall can put it wherever a line needs it (see nearly_safe);
 *      a card recalled onto a card is kept out (see top_goes_home);
 *  13. (removed: it was unsound; see top_goes_home);
 *  14. with draw 1 and unlimited passes, a talon card goes home only just
 *      before the next card of its suit does (see the comment at enter);
 *  15. with only kings in empty columns, a position is dropped when a card
 *      lies face down under its twin and the two can share only one card to
 *      go on, or the cards they go on only one to go on (see twin_locked);
 *  16. (a slot of the firing counts: the entries a full table forgot);
 *  17. with rule 8, once no recycle is left, a waste card below the top is
 *      played only after the card on it has left for home or a column: the
 *      relaxation takes the waste as a stack (see home_reach);
 *  18. with rule 8, a draw of more than one card and a recycle left, a talon
 *      card is played only where the draws from the pointer or from a fresh
 *      stock reach it, or after a card before it, or the card after it, has
 *      left the talon (see home_reach).
 * Nothing else is pruned: verdicts are exact up to 128-bit key collisions in
 * the transposition table (see state_key).  A full table forgets entries
 * other than its path's and the search goes on; no verdict changes (the
 * proof is in search_forget.h).
 *
 * Klondike's relatives.  Westcliff is Klondike's game on ten columns (its
 * face-up cards are one built run, its stock a waste's): no proof counts the
 * columns, so every rule holds there.  Easthaven's stock deals a card onto
 * each column (a K_DEAL step; the talon is then the stock alone, ptr 0), so
 * a column's face-up cards need not be one run (only the top run moves, see
 * run_base), and columns are told apart by the deal while the stock holds
 * cards (rules 3 and 4 wait for it to be empty: see state_key, gen_moves).
 * Only rules 1-2 (with partial runs) and 8 are proven there; prune_for
 * switches the others off (see the comment above it).
 *
 * Search order.  Moves are tried best first (turning up face-down cards,
 * then foundation and talon moves, ...).  The exact search runs in doubling
 * chunks with small randomized probes in between (see solve_portfolio):
 * they find most wins that the fixed order would reach only late.  Under a
 * stock rule other than draw 1 with unlimited passes, a side search with
 * draw 1 and unlimited passes runs beside it when a position is not decided
 * at once, to prove it lost (rule 11); with a larger draw and unlimited
 * passes, another with at most one more recycle looks for a win, and where
 * the waste pointer matters a hasty one (see the side searches) does too.
 *
 * Where the code lives (one concern per file, each #included below in
 * dependency order; this file is the module's only compiled source, so the
 * whole core is one translation unit, as fast as a single file):
 *   search_cards.h      cards, constants, what fits on what;
 *   search_zobrist.h    the Zobrist keys;
 *   search_state.h      Rules, Options, the PRUNE_* and SIDE_* switches,
 *                       State, SMove, apply_move/undo_move (rule 5);
 *   search_table.h      state_key (rules 3 and 9) and the transposition table;
 *   search_path.h       Search, limits, the stop flag, the line played;
 *   search_safe.h       safe foundation moves (rules 1, 2, 5, 6, 12);
 *   search_dead_ends.h  hopeless positions: rule 8's relaxation (with 17, 18);
 *   search_locks.h      locks it misses (rules 15 and 20), the dead-end test;
 *   search_forget.h     a full table forgets entries (not its path's);
 *   search_twins.h      twins (rule 7);
 *   search_moves.h      move generation and the talon rules (10, 14);
 *   search_run.h        enter and the search loop;
 *   search_sides.h      side searches (rule 11) and the portfolio;
 *   search_quiet.h      the quiet-move search of bonanza.solver.progress (its
 *                       own question and prunings, not the solver's);
 *   search_atomic.h     the engine's atomic moves (a line expanded into them);
 *   search_shortcut.h   a winning line cut short through its own positions;
 *   search_python.h     the arguments read into a State, Ctrl-C, lines as lists;
 *   search_wide.h       the generic search's rules in C (two decks: Double
 *                       Klondike), move for move as solver/generic.py;
 *   search_wide_key.h   its positions as bytes: for its path, and its keys;
 *   search_wide_dead_ends.h  its hopeless positions (rules 8 and 18 for two decks);
 *   search_wide_run.h   that search (its path: checkpoints and moves; rule 10);
 *   search_wide_python.h  its entry points solve_wide, wide_moves, wide_hopeless;
 *   _search.c           (this file) the Python binding.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "search_cards.h"
#include "search_zobrist.h"
#include "search_state.h"
#include "search_table.h"
#include "search_path.h"
#include "search_safe.h"
#include "search_dead_ends.h"
#include "search_locks.h"
#include "search_forget.h"
#include "search_twins.h"
#include "search_moves.h"
#include "search_run.h"
#include "search_sides.h"
#include "search_quiet.h"
#include "search_atomic.h"
#include "search_shortcut.h"
#include "search_python.h"

/* ---- Python interface ------------------------------------------------------ */

/* solve's memory budget when none is given, in bytes: the search, its side
 * searches and its probes together.  The table, 16 bytes a slot, doubles to
 * 128 MiB, then grows to what the budget holds (less a sixteenth left to the
 * side searches); full, it forgets entries (search_forget.h).  With the
 * interpreter, a process that solves stays within 300 MB. */
#define DEFAULT_MEMORY ((size_t)256 << 20)
/* solve_wide's: the same budget, and the same table, which grows to what the
 * budget holds; full, the search stops (it does not forget). */
#define WIDE_DEFAULT_MEMORY DEFAULT_MEMORY

#include "search_wide.h"
#include "search_wide_key.h"
#include "search_wide_dead_ends.h"
#include "search_wide_run.h"
#include "search_wide_python.h"


static PyObject *py_legal_moves(PyObject *self, PyObject *args)
{
    (void)self;
    Rules r;
    State s;
    if (!read_position(args, &s, &r)) return NULL;
    Atomic out[MAX_ATOMIC];
    int n = legal_atomic(&s, &r, out);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = int_triple(out[i].src, out[i].dst, out[i].count);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}


static PyObject *py_solve(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *columns, *downs, *talon, *found;
    int ptr, rec;
    double time_limit;
    unsigned long long node_limit;
    Py_ssize_t memory_limit;
    unsigned int prune = PRUNE_ALL, sides = SIDES_DEFAULT;
    unsigned long long seed = 0;
    int shorten = SHORTEN_NONE;
    Py_ssize_t shorten_above = 0;
    int hard = 1, cpu_clock = 0;
    Search *x = calloc(1, sizeof(Search));
    if (!x) return PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, "OOOiOiiippppdKn|IIKinpp", &columns, &downs, &talon, &ptr,
                          &found, &rec, &x->r.draw, &x->r.recycles_allowed, &x->r.any_empty,
                          &x->r.recall, &x->r.partial, &x->r.deals, &time_limit, &node_limit,
                          &memory_limit, &prune, &sides, &seed, &shorten, &shorten_above, &hard,
                          &cpu_clock)
        || !build_state(columns, downs, talon, ptr, found, rec, &x->r, &x->s)) {
        free(x);
        return NULL;
    }
    if (prune & ~(unsigned)PRUNE_ALL || sides & ~(unsigned)(SIDES_DEFAULT | SIDES_TESTS)) {
        free(x);
        PyErr_SetString(PyExc_ValueError, "unknown prune or side-search switches");
        return NULL;
    }
    if (shorten < SHORTEN_NONE || shorten > SHORTEN_GREEDY || shorten_above < 0) {
        free(x);
        PyErr_SetString(PyExc_ValueError, "shorten must be 0 (no), 1 (shortest) or 2 (greedy), "
                        "and shorten_above at least 0");
        return NULL;
    }
    /* The rules and start as given, for the short line (search_shortcut.h). */
    Rules rules = x->r;
    State given = x->s;
    /* A winning line needs at most one recycle per talon card: between two
     * recycles with no talon card played, the second recycle and the draws
     * before it can be left out (the other moves do not touch the talon).
     * So as many recycles left as talon cards is as good as unlimited.
     * (A stock dealt onto the columns is never recycled.) */
    if (!x->r.deals && x->r.recycles_allowed >= 0 && x->r.recycles_allowed - x->s.rec >= x->s.tlen) {
        x->r.recycles_allowed = -1;
        x->s.rec = 0;
    }
    x->o.prune = prune_for(&x->r, prune);
    x->o.sides = sides;
    x->o.seed = seed;
    x->o.fired = x->fired;
    State start = x->s;
    x->deadline = time_limit;
    x->node_limit = node_limit;
    x->hard = hard; /* nodes + probe_nodes never pass node_limit (else they may, a little) */
    x->budget = memory_limit > 0 ? (size_t)memory_limit : DEFAULT_MEMORY;
    /* A full table forgets entries and the search goes on (search_forget.h). */
    x->forget = !(sides & SIDE_NO_FORGET);
    /* The whole budget: the portfolio lowers x->budget by its side searches'
     * memory, which is freed before the line is shortened. */
    size_t memory_budget = x->budget;
    size_t cap = FIRST_SLOTS;
    if (!tt_init(&x->tt, cap)) { free(x); return PyErr_NoMemory(); }
    x->used = sizeof(Search) + 2 * cap * sizeof(uint64_t);
    int result, expanded = 1;
    size_t states = 0, found_len = 0;
    AtomLine line = {NULL, 0, 0};
    double t0 = now_seconds(), seconds, shorten_seconds = 0, expand_seconds = 0;
    double cpu0 = thread_cpu_seconds(), cpu_seconds;
    x->clock = cpu_clock ? thread_cpu_seconds : now_seconds;
    x->t0 = cpu_clock ? cpu0 : t0;
    int catching = catch_sigint();
    Py_BEGIN_ALLOW_THREADS
    result = x->o.seed ? run_search(x) : solve_portfolio(x, &start);
    states = x->tt.count;
    if (result == 1) {
        /* The table is done with: give its memory back before the line's. */
        keys_free(x->tt.keys, 2 * x->tt.cap);
        x->tt.keys = NULL;
        double t1 = now_seconds();
        expanded = expand_atomic(&start, &x->r, x->path, x->plen, &line);
        found_len = line.len;
        expand_seconds = now_seconds() - t1;
        /* Shortened only if asked, and only a line longer than shorten_above
         * moves (search.py's rule for when it pays: docs/solver.md). */
        if (expanded == 1 && shorten && found_len > (size_t)shorten_above) {
            t1 = now_seconds();
            /* What is still held beside the shortening: the search's path
             * and the expanded line. */
            size_t held = x->plen * sizeof(*x->path) + line.cap * sizeof(*line.moves);
            size_t room = memory_budget > held ? memory_budget - held : 0;
            shorten_line(&given, &rules, &line, room, time_limit < 0 ? -1.0 : x->t0 + time_limit,
                         x->clock, shorten == SHORTEN_GREEDY);
            shorten_seconds = now_seconds() - t1;
        }
    }
    Py_END_ALLOW_THREADS
    seconds = now_seconds() - t0;
    cpu_seconds = thread_cpu_seconds() - cpu0;
    int interrupted = catching && release_sigint() < 0;
    if (interrupted || expanded != 1) {
        if (!interrupted && expanded == 0) PyErr_NoMemory();
        else if (!interrupted) PyErr_SetString(PyExc_RuntimeError, "internal error: talon move misses its card");
        free(line.moves); free_search(x); free(x);
        return NULL;
    }
    PyObject *moves = line_list(&line);
    free(line.moves);
    if (!moves) { free_search(x); free(x); return NULL; }
    static const char *limits[] = {NULL, "nodes", "time", "memory", "interrupted"};
    const char *status = result == 1 ? "solved" : result == 0 ? "unsolvable" : "unknown";
    const char *limit = result < 0 ? limits[x->limit] : NULL;
    PyObject *fired = PyTuple_New(FIRED_SLOTS);
    if (!fired) { Py_DECREF(moves); free_search(x); free(x); return NULL; }
    for (int k = 0; k < FIRED_SLOTS; k++) {
        PyObject *count = PyLong_FromUnsignedLongLong((unsigned long long)x->fired[k]);
        if (!count) { Py_DECREF(fired); Py_DECREF(moves); free_search(x); free(x); return NULL; }
        PyTuple_SET_ITEM(fired, k, count);
    }
    PyObject *ret = Py_BuildValue("(sNKdzKnNnddd)", status, moves,
                                  (unsigned long long)(x->nodes + x->probe_nodes),
                                  seconds, limit, (unsigned long long)states,
                                  (Py_ssize_t)x->used, fired,
                                  (Py_ssize_t)(found_len - line.len), shorten_seconds,
                                  expand_seconds, cpu_seconds);
    free_search(x);
    free(x);
    return ret;
}

/* The quiet-move search (search_quiet.h).  `rec` is the recycles made so
 * far (with unlimited passes only whether there were any matters). */
static PyObject *py_quiet_progress(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *columns, *downs, *talon, *found;
    int ptr, rec, recalls = RECALLS_REFERENCE;
    unsigned long long node_limit;
    Py_ssize_t memory_limit;
    Quiet *x = calloc(1, sizeof(Quiet));
    if (!x) return PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, "OOOiOiiippppKn|i", &columns, &downs, &talon, &ptr, &found, &rec,
                          &x->r.draw, &x->r.recycles_allowed, &x->r.any_empty, &x->r.recall,
                          &x->r.partial, &x->r.deals, &node_limit, &memory_limit, &recalls)
        || !build_state(columns, downs, talon, ptr, found, rec, &x->r, &x->s)) {
        free(x);
        return NULL;
    }
    if (x->r.deals) {
        /* Its proofs (search_quiet.h) are made for a stock drawn to the
         * waste: refused as the rules, so that callers fall back as they do
         * for any game the core does not take. */
        free(x);
        PyObject *errors = PyImport_ImportModule("bonanza.core.errors");
        PyObject *rules_error = errors ? PyObject_GetAttrString(errors, "RulesError") : NULL;
        if (rules_error)
            PyErr_SetString(rules_error, "the quiet-move search plays a stock drawn to the waste only");
        Py_XDECREF(rules_error);
        Py_XDECREF(errors);
        return NULL;
    }
    if (recalls != RECALLS_REFERENCE && recalls != RECALLS_SOUND) {
        free(x);
        PyErr_SetString(PyExc_ValueError, "recalls must be 0 (the reference's) or 1 (sound)");
        return NULL;
    }
    /* Before the first recycle a draw shows an unseen card, and it is legal
     * whenever the stock holds a card (see the top of search_quiet.h). */
    if (rec == 0 && x->s.ptr < x->s.tlen) {
        free(x);
        return Py_BuildValue("(sK)", "progress", 0ULL);
    }
    /* Q4: a quiet line that reaches a turn-up can be made one of steps
     * (search_quiet.h, Q1) in which each recycle comes right before a play
     * from the waste, so it makes at most one recycle per talon card (cards
     * never go back to the talon).  With at least that many recycles left,
     * the pass limit never stops such a line: the answer is the one with
     * unlimited passes, whose key is smaller (Q3). */
    if (x->r.recycles_allowed >= 0 && x->r.recycles_allowed - x->s.rec >= x->s.tlen) {
        x->r.recycles_allowed = -1;
        x->s.rec = 0;
    }
    x->recalls = recalls;
    x->node_limit = node_limit;
    x->budget = memory_limit > 0 ? (size_t)memory_limit : (size_t)1 << 30;
    if (!tt_init(&x->tt, QUIET_FIRST_SLOTS)) { free(x); return PyErr_NoMemory(); }
    x->used = sizeof(Quiet) + 2 * QUIET_FIRST_SLOTS * sizeof(uint64_t);
    int result;
    int catching = catch_sigint();
    Py_BEGIN_ALLOW_THREADS
    result = quiet_search(x);
    Py_END_ALLOW_THREADS
    uint64_t nodes = x->nodes;
    quiet_free(x);
    free(x);
    if (catching && release_sigint() < 0) return NULL;
    const char *status = result == QUIET_PROGRESS ? "progress" : result == QUIET_NONE ? "none"
                                                                                      : "unknown";
    return Py_BuildValue("(sK)", status, (unsigned long long)nodes);
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(columns, downs, talon, waste_size, foundations, recycles, draw, recycles_allowed,\n"
     "      any_empty, recall, partial, deals, time_limit, node_limit, memory_limit,\n"
     "      prune=PRUNE_ALL, sides=SIDES_DEFAULT, seed=0, shorten=0, shorten_above=0,\n"
     "      hard=True)\n"
     "-> (result, moves, nodes, seconds, limit, states, bytes, fired, cut, cut_seconds,\n"
     "    expand_seconds, cpu_seconds)\n\n"
     "fired[k] counts the firings of pruning rule k (fired[0]: side-search wins).\n"
     "shorten 1 cuts a winning line short through its own positions (the shortest\n"
     "plan, the greedy one past the time limit; 2: the greedy one; see\n"
     "search_shortcut.h), if the line found has more than shorten_above moves;\n"
     "cut is the moves it took out, cut_seconds its time, expand_seconds the time\n"
     "the search's line took to expand into moves (both part of seconds; the rest\n"
     "is the search's own).  seconds is wall-clock time; cpu_seconds the calling\n"
     "thread's CPU time over the same span (CLOCK_THREAD_CPUTIME_ID).\n"
     "The talon is the waste (bottom first) then the stock (next card first);\n"
     "columns are 1 to 10 lists; deals: the stock deals onto every column (no waste);\n"
     "recycles_allowed is -1 for unlimited; time_limit < 0, node_limit 0 and\n"
     "memory_limit 0 mean no limit (memory defaults to DEFAULT_MEMORY bytes,\n"
     "256 MiB: a full table forgets entries it can search again).  With hard, the\n"
     "nodes reported (probes and side searches included) never pass node_limit;\n"
     "without, the root's check counts them after they run, and may pass it.\n"
     "Moves are (source, dest, count) tuples of pile numbers."},
    {"legal_moves", py_legal_moves, METH_VARARGS,
     "legal_moves(columns, downs, talon, waste_size, foundations, recycles, draw,\n"
     "            recycles_allowed, any_empty, recall, partial, deals) -> list of moves\n\n"
     "Every legal move as the C core sees it, for testing against the engine."},
    {"chain_facts", py_chain_facts, METH_VARARGS, "rule 24's facts at a position (for tests)"},
    {"reach_sets", py_reach_sets, METH_VARARGS, "rule 8's relaxation: (H, A) (for analysis)"},
    {"dead_end_rule", py_dead_end_rule, METH_VARARGS,
     "dead_end_rule(columns, downs, talon, waste_size, foundations, recycles, draw,\n"
     "              recycles_allowed, any_empty, recall, partial, deals) -> int\n\n"
     "Which rule finds the position lost: 8, then 20 to 24 as a search's first\n"
     "position makes them (on every card), or 0, for testing the rules position\n"
     "by position."},
    {"step_keys", py_step_keys, METH_VARARGS,
     "step_keys(columns, downs, talon, waste_size, foundations, recycles, draw,\n"
     "          recycles_allowed, any_empty, recall, partial, deals) -> [(predicted, key)]\n\n"
     "Each search step's key as enter predicts it and as it is, for testing."},
    {"quiet_progress", py_quiet_progress, METH_VARARGS,
     "quiet_progress(columns, downs, talon, waste_size, foundations, recycles, draw,\n"
     "               recycles_allowed, any_empty, recall, partial, deals, node_limit,\n"
     "               memory_limit, recalls=0) -> (answer, nodes)\n\n"
     "Whether quiet moves reach an informative one (rules not thoughtful):\n"
     "answer is 'progress', 'none' or 'unknown' (a limit was hit first); nodes\n"
     "counts the positions searched.  recycles is the count made so far;\n"
     "node_limit 0 and memory_limit 0 mean no limit (memory defaults to 1 GiB).\n"
     "recalls 0 skips the recalls quiet.is_pointless_recall skips, 1 only those\n"
     "proven never to help (see search_quiet.h)."},
    {"solve_wide", py_solve_wide, METH_VARARGS,
     "solve_wide(columns, downs, stock, waste, foundations, recycles, decks, draw,\n"
     "           recycles_allowed, any_empty, recall, partial, time_limit, node_limit,\n"
     "           memory_limit, talon_macros=False, prune=0)\n"
     "           -> (verdict, moves, nodes, seconds, limit, states, memory,\n"
     "               cpu_seconds, dropped, dropped_by_rule_18, covered)\n\n"
     "solver/generic.py's search (no seed) in C, move for move: the same verdict,\n"
     "line, nodes, states and memory (counted as generic.py counts it).  Card ids\n"
     "0-103; columns deepest first; the stock's next card last.  time_limit < 0\n"
     "node_limit 0 and memory_limit 0 mean none.  moves is bytes: four native\n"
     "16-bit integers a move (source and dest, the engine's pile numbers; count;\n"
     "the talon index of a talon play, else -1; see wide.steps).  talon_macros:\n"
     "that search and one with talon macros side by side (search_wide.h);\n"
     "prune: 1 has both drop hopeless positions (rule 8 for two decks,\n"
     "search_wide_dead_ends.h), 3 with rule 18 too; dropped counts them, and\n"
     "dropped_by_rule_18 those that only rule 18 found hopeless; 4 adds rule 10\n"
     "(merged talon macros: a talon card put on a column is covered next), and\n"
     "covered counts the positions it restricted."},
    {"wide_moves", py_wide_moves, METH_VARARGS,
     "wide_moves(the arguments of solve_wide) -> list of moves\n\n"
     "The legal moves as solve_wide orders them (generic.move_order), for tests."},
    {"wide_hopeless", py_wide_hopeless, METH_VARARGS,
     "wide_hopeless(the arguments of solve_wide) -> bool\n\n"
     "Whether solve_wide's dead-end test (as its prune asks) drops the\n"
     "position, for tests."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_search", "The exact Klondike search core.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__search(void)
{
    init_keys();
    w_init_parents();
    w_init_hashes();
    init_pairs();
    main_thread = PyThread_get_thread_ident();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "PRUNE_ALL", PRUNE_ALL) < 0
        || PyModule_AddIntConstant(m, "SIDES_DEFAULT", SIDES_DEFAULT) < 0
        || PyModule_AddIntConstant(m, "FIRED_SLOTS", FIRED_SLOTS) < 0
        || PyModule_AddIntConstant(m, "DEFAULT_MEMORY", (long)DEFAULT_MEMORY) < 0
        || PyModule_AddIntConstant(m, "RECALLS_REFERENCE", RECALLS_REFERENCE) < 0
        || PyModule_AddIntConstant(m, "RECALLS_SOUND", RECALLS_SOUND) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
