/*
 * bonanza.rl._batch: N games of Klondike or a relative stepped in one call (C99).
 *
 * The rules are those of bonanza.core.Position, move for move; the actions
 * are numbered as in bonanza.rl.actions (615 in Klondike); the observation
 * layout is that of bonanza.rl.observation (both documented in docs/rl.md).
 * Both depend on the table only: its decks, columns, deal and stock (see
 * Table).  The Python side binds five C-contiguous buffers once
 * (observations, action masks, rewards, terminated, truncated), one row per
 * game, and every call writes the rows of the games it touches.
 *
 * A game holds the columns (deepest card first, the bottom `down` face down),
 * the stock (next card to draw last), the waste (top card last), the
 * foundation counts (deck * 4 + suit), and the recycles made: the layout of
 * Position.  With two decks, card c + 52 is the twin of c, and a rank home
 * once is always the twin c + 52 (Position._send_home swaps the ids).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#include "batch_table.h"

static PyObject *ActionError;

#include "batch_rules.h"
#include "batch_steps.h"

/* -- the Python type ------------------------------------------------------- */

static int get_index(Batch *b, Py_ssize_t i)
{
    if (!b->bound) {
        PyErr_SetString(PyExc_RuntimeError, "the batch has no buffers");
        return -1;
    }
    if (i < 0 || i >= b->n) {
        PyErr_Format(PyExc_IndexError, "game %zd is not in 0..%zd", i, b->n - 1);
        return -1;
    }
    return 0;
}

static int bind_buffer(PyObject *source, Py_buffer *view, Py_ssize_t bytes, const char *name)
{
    if (PyObject_GetBuffer(source, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (view->len != bytes) {
        PyErr_Format(PyExc_ValueError, "%s buffer has %zd bytes, not %zd", name, view->len, bytes);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static void release(Batch *b)
{
    if (b->bound) {
        PyBuffer_Release(&b->obs);
        PyBuffer_Release(&b->mask);
        PyBuffer_Release(&b->reward);
        PyBuffer_Release(&b->terminated);
        PyBuffer_Release(&b->truncated);
        b->bound = 0;
    }
    PyMem_Free(b->games);
    b->games = NULL;
    PyMem_Free(b->arena);
    b->arena = NULL;
}

/* Allocate n games and their arrays, sized for the table; 0 on success. */
static int allocate(Batch *b, Py_ssize_t n)
{
    const Table *t = &b->t;
    size_t legal = (size_t)t->actions * sizeof(uint16_t);
    size_t bytes = (size_t)(t->columns * t->slots + 2 * t->talon + t->actions);
    size_t each = (legal + bytes + 7) & ~(size_t)7; /* keeps every list 8-byte aligned */
    b->games = PyMem_Calloc((size_t)n, sizeof(Game));
    b->arena = PyMem_Calloc((size_t)n, each);
    if (!b->games || !b->arena)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        Game *g = &b->games[i];
        uint8_t *at = (uint8_t *)b->arena + (size_t)i * each;
        g->legal = (uint16_t *)at;
        g->mask = at + legal;
        g->col = g->mask + t->actions;
        g->stock = g->col + t->columns * t->slots;
        g->waste = g->stock + t->talon;
    }
    return 0;
}

static int Batch_init(Batch *b, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"obs", "mask", "reward", "terminated", "truncated", "draw",
                            "recycles_allowed", "any_empty", "recall", "partial",
                            "all_visible", "max_steps", "home_reward", "turned_reward",
                            "decks", "columns", "staircase", "every_column", "waste_start",
                            "penalize", "illegal_penalty", NULL};
    PyObject *obs, *mask, *reward, *terminated, *truncated;
    int draw, recycles_allowed, any_empty, recall, partial, all_visible, max_steps;
    double home_reward, turned_reward;
    int decks = 1, columns = 7, staircase = 1, every_column = 0, waste_start = 0, penalize = 0;
    double illegal_penalty = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOiippppidd|iippipd", names, &obs, &mask,
                                     &reward, &terminated, &truncated, &draw, &recycles_allowed,
                                     &any_empty, &recall, &partial, &all_visible, &max_steps,
                                     &home_reward, &turned_reward, &decks, &columns, &staircase,
                                     &every_column, &waste_start, &penalize, &illegal_penalty))
        return -1;
    if (draw < 1 || draw > MAX_DRAW || max_steps < 0) {
        PyErr_SetString(PyExc_ValueError, "draw must be 1 to 24 and max_steps at least 0");
        return -1;
    }
    release(b);
    Table table;
    const char *problem = set_table(&table, decks, columns, staircase, every_column, waste_start);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return -1;
    }
    Py_buffer probe;
    if (PyObject_GetBuffer(reward, &probe, PyBUF_SIMPLE) < 0)
        return -1;
    Py_ssize_t n = probe.len / (Py_ssize_t)sizeof(double);
    PyBuffer_Release(&probe);
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "a batch holds at least one game");
        return -1;
    }
    if (bind_buffer(obs, &b->obs, n * table.obs_size, "observation") < 0)
        return -1;
    if (bind_buffer(mask, &b->mask, n * table.actions, "mask") < 0)
        goto fail_obs;
    if (bind_buffer(reward, &b->reward, n * (Py_ssize_t)sizeof(double), "reward") < 0)
        goto fail_mask;
    if (bind_buffer(terminated, &b->terminated, n, "terminated") < 0)
        goto fail_reward;
    if (bind_buffer(truncated, &b->truncated, n, "truncated") < 0)
        goto fail_terminated;
    b->t = table;
    b->klondike = memcmp(&table, &KLONDIKE, sizeof table) == 0;
    if (allocate(b, n) < 0) {
        PyErr_NoMemory();
        PyMem_Free(b->games);
        b->games = NULL;
        PyMem_Free(b->arena);
        b->arena = NULL;
        PyBuffer_Release(&b->truncated);
        goto fail_terminated;
    }
    b->bound = 1;
    b->n = n;
    b->draw = draw;
    b->recycles_allowed = recycles_allowed;
    b->any_empty = any_empty;
    b->recall = recall;
    b->partial = partial;
    b->all_visible = all_visible;
    b->max_steps = max_steps;
    b->home_reward = home_reward;
    b->turned_reward = turned_reward;
    b->penalize = penalize;
    b->illegal_penalty = illegal_penalty;
    for (Py_ssize_t i = 0; i < n; i++)
        new_deal(b, i);
    return 0;
fail_terminated:
    PyBuffer_Release(&b->terminated);
fail_reward:
    PyBuffer_Release(&b->reward);
fail_mask:
    PyBuffer_Release(&b->mask);
fail_obs:
    PyBuffer_Release(&b->obs);
    return -1;
}

static void Batch_dealloc(Batch *b)
{
    release(b);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

static PyObject *Batch_seed(Batch *b, PyObject *args)
{
    Py_ssize_t i;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "nK", &i, &seed) || get_index(b, i) < 0)
        return NULL;
    b->games[i].rng = seed;
    Py_RETURN_NONE;
}

static PyObject *Batch_reset(Batch *b, PyObject *args)
{
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "n", &i) || get_index(b, i) < 0)
        return NULL;
    new_deal(b, i);
    Py_RETURN_NONE;
}

static PyObject *Batch_deal(Batch *b, PyObject *args)
{
    Py_ssize_t i;
    const char *cards;
    Py_ssize_t size;
    PyObject *number;
    if (!PyArg_ParseTuple(args, "ny#O", &i, &cards, &size, &number) || get_index(b, i) < 0)
        return NULL;
    if (size != b->t.cards)
        return PyErr_Format(PyExc_ValueError, "a deal is %d cards", b->t.cards);
    uint8_t seen[MAX_CARDS] = {0};
    for (Py_ssize_t k = 0; k < size; k++) {
        uint8_t card = (uint8_t)cards[k];
        if (card >= b->t.cards || seen[card]++)
            return PyErr_Format(PyExc_ValueError, "a deal holds each card 0 to %d once",
                                b->t.cards - 1);
    }
    Game *g = &b->games[i];
    int has_number = number != Py_None;
    uint64_t deal = has_number ? PyLong_AsUnsignedLongLong(number) : NO_DEAL_NUMBER;
    if (PyErr_Occurred())
        return NULL;
    g->has_number = (uint8_t)has_number;
    g->deal = deal;
    start(b, i, (const uint8_t *)cards);
    set_outcome(b, i, 0.0, 0, 0);
    Py_RETURN_NONE;
}

static PyObject *illegal(const Batch *b, Py_ssize_t i, long a)
{
    if (a < 0 || a >= b->t.actions)
        PyErr_Format(ActionError, "game %zd: action %ld is not a number from 0 to %d", i, a,
                     b->t.actions - 1);
    else
        PyErr_Format(ActionError, "game %zd: action %ld is not legal", i, a);
    return NULL;
}

static PyObject *Batch_play(Batch *b, PyObject *args)
{
    Py_ssize_t i;
    long a;
    if (!PyArg_ParseTuple(args, "nl", &i, &a) || get_index(b, i) < 0)
        return NULL;
    if (a < 0 || a >= b->t.actions)
        return illegal(b, i, a);
    if (b->games[i].mask[a])
        play_legal(b, i, (int)a);
    else if (b->penalize && b->games[i].legal_count > 0)
        idle(b, i);
    else
        return illegal(b, i, a);
    Py_RETURN_NONE;
}

static PyObject *Batch_step(Batch *b, PyObject *arg)
{
    Py_buffer view;
    if (!b->bound)
        return PyErr_Format(PyExc_RuntimeError, "the batch has no buffers");
    if (PyObject_GetBuffer(arg, &view, PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (view.len != b->n * (Py_ssize_t)sizeof(int64_t)) {
        PyBuffer_Release(&view);
        return PyErr_Format(PyExc_ValueError, "step takes %zd int64 actions", b->n);
    }
    const int64_t *actions = view.buf;
    /* Check every action first, so that a refused step changes no game. */
    for (Py_ssize_t i = 0; i < b->n; i++) {
        int64_t a = actions[i];
        if (b->games[i].pending_reset)
            continue;
        if (a < 0 || a >= b->t.actions || (!b->penalize && !b->games[i].mask[a])) {
            PyBuffer_Release(&view);
            return illegal(b, i, (long)a);
        }
    }
    for (Py_ssize_t i = 0; i < b->n; i++) {
        if (b->games[i].pending_reset)
            new_deal(b, i);
        else if (b->games[i].mask[actions[i]])
            play_legal(b, i, (int)actions[i]);
        else
            idle(b, i);
    }
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *Batch_sample(Batch *b, PyObject *args)
{
    PyObject *out_object, *uniform_object;
    Py_buffer out, uniform;
    if (!PyArg_ParseTuple(args, "OO", &out_object, &uniform_object))
        return NULL;
    if (PyObject_GetBuffer(out_object, &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (PyObject_GetBuffer(uniform_object, &uniform, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&out);
        return NULL;
    }
    Py_ssize_t bytes = b->n * (Py_ssize_t)sizeof(int64_t);
    if (out.len != bytes || uniform.len != bytes) {
        PyBuffer_Release(&out);
        PyBuffer_Release(&uniform);
        return PyErr_Format(PyExc_ValueError, "sample takes two buffers of %zd 8-byte items", b->n);
    }
    int64_t *actions = out.buf;
    const double *u = uniform.buf;
    for (Py_ssize_t i = 0; i < b->n; i++) {
        const Game *g = &b->games[i];
        int k = (int)(u[i] * g->legal_count);
        actions[i] = g->legal_count ? g->legal[k < g->legal_count ? k : g->legal_count - 1] : 0;
    }
    PyBuffer_Release(&out);
    PyBuffer_Release(&uniform);
    Py_RETURN_NONE;
}

static PyObject *Batch_legal(Batch *b, PyObject *args)
{
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "n", &i) || get_index(b, i) < 0)
        return NULL;
    const Game *g = &b->games[i];
    PyObject *list = PyList_New(g->legal_count);
    Py_ssize_t k = 0;
    for (int a = 0; list && k < g->legal_count; a++)
        if (g->mask[a])
            PyList_SET_ITEM(list, k++, PyLong_FromLong(a));
    return list;
}

static PyObject *list_of(const uint8_t *cards, int count)
{
    PyObject *list = PyList_New(count);
    for (int k = 0; list && k < count; k++)
        PyList_SET_ITEM(list, k, PyLong_FromLong(cards[k]));
    return list;
}

static PyObject *Batch_state(Batch *b, PyObject *args)
{
    Py_ssize_t i;
    if (!PyArg_ParseTuple(args, "n", &i) || get_index(b, i) < 0)
        return NULL;
    const Game *g = &b->games[i];
    const Table *t = &b->t;
    PyObject *columns = PyTuple_New(t->columns), *down = PyList_New(t->columns);
    PyObject *home = PyList_New(t->foundations);
    if (!columns || !down || !home)
        goto fail;
    for (int c = 0; c < t->columns; c++) {
        PyObject *cards = list_of(column(t, g, c), g->len[c]);
        if (!cards)
            goto fail;
        PyTuple_SET_ITEM(columns, c, cards);
        PyList_SET_ITEM(down, c, PyLong_FromLong(g->down[c]));
    }
    for (int f = 0; f < t->foundations; f++)
        PyList_SET_ITEM(home, f, PyLong_FromLong(g->home[f]));
    PyObject *deal = g->has_number ? PyLong_FromUnsignedLongLong(g->deal) : Py_NewRef(Py_None);
    return Py_BuildValue("NNNNNiiN", columns, down, list_of(g->stock, g->stock_len),
                         list_of(g->waste, g->waste_len), home, g->recycles, g->steps, deal);
fail:
    Py_XDECREF(columns);
    Py_XDECREF(down);
    Py_XDECREF(home);
    return NULL;
}

static PyMethodDef Batch_methods[] = {
    {"seed", (PyCFunction)Batch_seed, METH_VARARGS,
     "seed(i, seed): seed game i's chooser of deal numbers."},
    {"reset", (PyCFunction)Batch_reset, METH_VARARGS,
     "reset(i): deal game i the next deal number of its chooser."},
    {"deal", (PyCFunction)Batch_deal, METH_VARARGS,
     "deal(i, cards, number): deal game i a card listing (52 or 104 bytes); number or None."},
    {"play", (PyCFunction)Batch_play, METH_VARARGS,
     "play(i, action): play a legal action in game i; ActionError if it is not legal (with "
     "penalize, an illegal action in range is a no-op costing illegal_penalty while the game "
     "has a legal action)."},
    {"step", (PyCFunction)Batch_step, METH_O,
     "step(actions): one action per game (int64 buffer); games whose episode ended on the "
     "previous step start a new deal instead (next-step autoreset); with penalize, an illegal "
     "action in range is a no-op costing illegal_penalty."},
    {"sample", (PyCFunction)Batch_sample, METH_VARARGS,
     "sample(out, uniform): out[i] = a legal action of game i picked by uniform[i] in [0, 1) "
     "(0 if none)."},
    {"legal", (PyCFunction)Batch_legal, METH_VARARGS,
     "legal(i): game i's legal actions in increasing order."},
    {"state", (PyCFunction)Batch_state, METH_VARARGS,
     "state(i): (columns, down, stock, waste, foundations, recycles, steps, deal number)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Batch_members[] = {
    {"action_count", T_INT, offsetof(Batch, t.actions), READONLY, "actions of the table"},
    {"obs_size", T_INT, offsetof(Batch, t.obs_size), READONLY, "observation cells of the table"},
    {"column_slots", T_INT, offsetof(Batch, t.slots), READONLY, "cells of a column"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bonanza.rl._batch.Batch",
    .tp_doc = PyDoc_STR("N games of one table in flat C arrays, stepped in one call."),
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
    .tp_members = Batch_members,
};

static PyObject *deck_of(PyObject *self, PyObject *args)
{
    (void)self;
    unsigned long long number;
    int decks = 1;
    uint8_t deck[MAX_CARDS];
    if (!PyArg_ParseTuple(args, "K|i", &number, &decks))
        return NULL;
    if (decks < 1 || decks > MAX_DECKS)
        return PyErr_Format(PyExc_ValueError, "decks must be 1 or 2, not %d", decks);
    shuffle(number, decks, deck);
    return PyBytes_FromStringAndSize((const char *)deck, decks * DECK);
}

static PyMethodDef module_methods[] = {
    {"shuffle", deck_of, METH_VARARGS,
     "shuffle(number, decks=1): deal number's card listing as 52 or 104 bytes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_batch", "Klondike's games stepped in batches.", -1, module_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__batch(void)
{
    if (PyType_Ready(&BatchType) < 0)
        return NULL;
    PyObject *actions = PyImport_ImportModule("bonanza.rl.actions");
    if (!actions)
        return NULL;
    ActionError = PyObject_GetAttrString(actions, "ActionError");
    Py_DECREF(actions);
    if (!ActionError)
        return NULL;
    Table klondike;
    set_table(&klondike, 1, 7, 1, 0, 0);
    if (memcmp(&klondike, &KLONDIKE, sizeof klondike) != 0) {
        PyErr_SetString(PyExc_SystemError, "_batch: KLONDIKE differs from set_table's table");
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddObjectRef(m, "Batch", (PyObject *)&BatchType) < 0 ||
        PyModule_AddIntConstant(m, "ACTION_COUNT", klondike.actions) < 0 ||
        PyModule_AddIntConstant(m, "OBS_SIZE", klondike.obs_size) < 0 ||
        PyModule_AddIntConstant(m, "MAX_COLUMN", klondike.slots) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
