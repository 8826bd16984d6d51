/*
 * bonanza.rl._batch: N Klondike games stepped in one call (C99).
 *
 * The rules are those of bonanza.core.Position, move for move; the actions
 * are numbered as in bonanza.rl.actions (615 in all); the observation layout
 * is that of bonanza.rl.observation (documented in docs/rl.md).  The Python
 * side binds five C-contiguous buffers once (observations, action masks,
 * rewards, terminated, truncated), one row per game, and every call writes
 * the rows of the games it touches.
 *
 * A game holds the seven columns (deepest card first, the bottom `down` face
 * down), the stock (next card to draw last), the waste (top card last), the
 * four foundation counts, and the recycles made: the layout of Position.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Cards and piles. */
#define CARD_COUNT 52
#define RANKS 13
#define KING 13
#define COLUMNS 7
#define FOUNDATIONS 4
#define MAX_DOWN 6
#define MAX_COLUMN (MAX_DOWN + RANKS) /* six face-down cards under a King-to-Ace run */
#define STOCK_SIZE 24
#define TABLEAU_SIZE 28

/* Action numbers: bonanza.rl.actions. */
#define A_DRAW 0
#define A_RECYCLE 1
#define A_WASTE_COLUMN 2
#define A_WASTE_FOUNDATION (A_WASTE_COLUMN + COLUMNS)
#define A_COLUMN_FOUNDATION (A_WASTE_FOUNDATION + FOUNDATIONS)
#define A_FOUNDATION_COLUMN (A_COLUMN_FOUNDATION + COLUMNS * FOUNDATIONS)
#define A_COLUMN_COLUMN (A_FOUNDATION_COLUMN + FOUNDATIONS * COLUMNS)
#define ACTION_COUNT (A_COLUMN_COLUMN + COLUMNS * (COLUMNS - 1) * RANKS)

/* Observation layout: bonanza.rl.observation. */
#define HIDDEN 52 /* a card the player cannot place */
#define NO_CARD 53
#define COUNT_CAP 100 /* recycle counts are capped here; "unlimited" reads as the cap */
#define O_TABLEAU 0
#define O_DOWN (O_TABLEAU + COLUMNS * MAX_COLUMN)
#define O_STOCK (O_DOWN + COLUMNS)
#define O_WASTE (O_STOCK + STOCK_SIZE)
#define O_FOUNDATIONS (O_WASTE + STOCK_SIZE)
#define O_STOCK_SIZE (O_FOUNDATIONS + FOUNDATIONS)
#define O_WASTE_SIZE (O_STOCK_SIZE + 1)
#define O_RECYCLES (O_WASTE_SIZE + 1)
#define O_RECYCLES_LEFT (O_RECYCLES + 1)
#define OBS_SIZE (O_RECYCLES_LEFT + 1)

#define NO_DEAL_NUMBER UINT64_MAX /* with `has_number` 0: a deal given as cards */

typedef struct {
    uint8_t col[COLUMNS][MAX_COLUMN];
    uint8_t len[COLUMNS];
    uint8_t down[COLUMNS];
    uint8_t stock[STOCK_SIZE];
    uint8_t waste[STOCK_SIZE];
    uint8_t stock_len, waste_len;
    uint8_t home[FOUNDATIONS];
    uint8_t pending_reset; /* the last step ended an episode (next-step autoreset) */
    uint8_t has_number;
    int32_t recycles;
    int32_t steps;
    uint64_t deal;
    uint64_t rng; /* SplitMix64 state choosing the next deal number */
    uint8_t mask[ACTION_COUNT];    /* the legal actions, for checking the player's */
    uint16_t legal[ACTION_COUNT];  /* the same, listed: clearing and sampling in O(legal) */
    int legal_count;
} Game;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    Game *games;
    int draw, recycles_allowed; /* recycles_allowed < 0: unlimited */
    int any_empty, recall, partial, all_visible;
    int max_steps; /* 0: no limit */
    double home_reward, turned_reward;
    Py_buffer obs, mask, reward, terminated, truncated;
    int bound;
} Batch;

static PyObject *ActionError;

/* -- cards ---------------------------------------------------------------- */

static inline int suit_of(int card) { return card / RANKS; }
static inline int rank_of(int card) { return card % RANKS + 1; }
static inline int is_red(int card) { int s = suit_of(card); return s == 1 || s == 2; }

/* -- deals (docs/engine.md, deal algorithm 1) ------------------------------ */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t below(uint64_t *state, uint64_t bound)
{
    uint64_t rest = (0 - bound) % bound; /* 2**64 mod bound */
    for (;;) {
        uint64_t x = splitmix64(state);
        if (rest == 0 || x < 0 - rest)
            return x % bound;
    }
}

static void shuffle(uint64_t number, uint8_t deck[CARD_COUNT])
{
    uint64_t state = number;
    for (int i = 0; i < CARD_COUNT; i++)
        deck[i] = (uint8_t)i;
    for (int i = CARD_COUNT - 1; i > 0; i--) {
        int j = (int)below(&state, (uint64_t)i + 1);
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
}

static void deal_cards(Game *g, const uint8_t cards[CARD_COUNT])
{
    int at = 0;
    for (int c = 0; c < COLUMNS; c++) {
        for (int k = 0; k <= c; k++)
            g->col[c][k] = cards[at++];
        g->len[c] = (uint8_t)(c + 1);
        g->down[c] = (uint8_t)c;
    }
    for (int i = 0; i < STOCK_SIZE; i++)
        g->stock[i] = cards[CARD_COUNT - 1 - i]; /* the first card dealt to the stock is drawn first */
    g->stock_len = STOCK_SIZE;
    g->waste_len = 0;
    memset(g->home, 0, sizeof g->home);
    g->recycles = 0;
    g->steps = 0;
    g->pending_reset = 0;
}

/* -- legal moves ------------------------------------------------------------ */

static inline int column_action(int source, int dest, int count)
{
    int slot = source * (COLUMNS - 1) + (dest > source ? dest - 1 : dest);
    return A_COLUMN_COLUMN + slot * RANKS + count - 1;
}

typedef struct {
    int8_t top_at[CARD_COUNT]; /* the column whose top card this is, or -1 */
    int empty[COLUMNS];
    int empties;
} Tops;

static void find_tops(const Game *g, Tops *t)
{
    memset(t->top_at, -1, sizeof t->top_at);
    t->empties = 0;
    for (int c = 0; c < COLUMNS; c++) {
        if (g->len[c])
            t->top_at[g->col[c][g->len[c] - 1]] = (int8_t)c;
        else
            t->empty[t->empties++] = c;
    }
}

/* The columns `card` may go to: on a card one rank higher of the other colour,
 * or into an empty column.  Calls mark(dest) for each. */
#define FOR_DESTS(b, t, card, dest, body)                                          \
    do {                                                                           \
        int r_ = rank_of(card);                                                    \
        if (r_ < KING) {                                                           \
            int first_ = is_red(card) ? 0 : 1; /* clubs/spades or diamonds/hearts */ \
            int parents_[2] = {first_ * RANKS + r_, (3 - first_) * RANKS + r_};    \
            for (int p_ = 0; p_ < 2; p_++) {                                       \
                int dest = (t)->top_at[parents_[p_]];                              \
                if (dest >= 0) { body; }                                           \
            }                                                                      \
        }                                                                          \
        if ((b)->any_empty || r_ == KING)                                          \
            for (int e_ = 0; e_ < (t)->empties; e_++) {                            \
                int dest = (t)->empty[e_];                                         \
                body;                                                              \
            }                                                                      \
    } while (0)

/* Mark action a legal in the game and in its row of the mask buffer. */
#define MARK(a)                                       \
    do {                                              \
        int a_ = (a);                                 \
        m[a_] = out[a_] = 1;                          \
        g->legal[g->legal_count++] = (uint16_t)a_;    \
    } while (0)

/* Find the legal actions of g: its mask and list, and `out`, the game's row of
 * the mask buffer (which holds the previous legal actions); return how many. */
static int find_legal(const Batch *b, Game *g, uint8_t *out)
{
    Tops t;
    uint8_t *m = g->mask;
    int total_home = 0;
    for (int k = 0; k < g->legal_count; k++)
        m[g->legal[k]] = out[g->legal[k]] = 0;
    g->legal_count = 0;
    find_tops(g, &t);
    for (int f = 0; f < FOUNDATIONS; f++)
        total_home += g->home[f];

    for (int c = 0; c < COLUMNS; c++) {
        int size = g->len[c];
        if (!size)
            continue;
        int top = g->col[c][size - 1];
        if (g->home[suit_of(top)] == rank_of(top) - 1)
            MARK(A_COLUMN_FOUNDATION + c * FOUNDATIONS + suit_of(top));
        int first = g->down[c];
        int last = b->partial ? size : first + 1;
        for (int at = first; at < last; at++) {
            int card = g->col[c][at];
            FOR_DESTS(b, &t, card, dest, MARK(column_action(c, dest, size - at)));
        }
    }
    if (g->waste_len) {
        int card = g->waste[g->waste_len - 1];
        if (g->home[suit_of(card)] == rank_of(card) - 1)
            MARK(A_WASTE_FOUNDATION + suit_of(card));
        FOR_DESTS(b, &t, card, dest, MARK(A_WASTE_COLUMN + dest));
    }
    if (b->recall && total_home < CARD_COUNT)
        for (int f = 0; f < FOUNDATIONS; f++)
            if (g->home[f]) {
                int card = f * RANKS + g->home[f] - 1;
                FOR_DESTS(b, &t, card, dest, MARK(A_FOUNDATION_COLUMN + f * COLUMNS + dest));
            }
    if (g->stock_len)
        MARK(A_DRAW);
    else if (g->waste_len && (b->recycles_allowed < 0 || g->recycles < b->recycles_allowed))
        MARK(A_RECYCLE);
    return g->legal_count;
}

/* -- playing -------------------------------------------------------------- */

/* Take the top `count` cards of column c into out; return 1 if a card turned up. */
static int take(Game *g, int c, int count, uint8_t *out)
{
    int size = g->len[c] - count;
    memcpy(out, &g->col[c][size], (size_t)count);
    g->len[c] = (uint8_t)size;
    if (size && size == g->down[c]) {
        g->down[c]--;
        return 1;
    }
    return 0;
}

static void put(Game *g, int c, const uint8_t *cards, int count)
{
    memcpy(&g->col[c][g->len[c]], cards, (size_t)count);
    g->len[c] = (uint8_t)(g->len[c] + count);
}

/* Play a legal action; return the number of cards it turned face up. */
static int apply(const Batch *b, Game *g, int a)
{
    uint8_t cards[RANKS];
    if (a == A_DRAW) {
        int k = g->stock_len < b->draw ? g->stock_len : b->draw;
        for (int i = 0; i < k; i++)
            g->waste[g->waste_len++] = g->stock[--g->stock_len];
        return 0;
    }
    if (a == A_RECYCLE) {
        for (int i = 0; i < g->waste_len; i++)
            g->stock[i] = g->waste[g->waste_len - 1 - i];
        g->stock_len = g->waste_len;
        g->waste_len = 0;
        g->recycles++;
        return 0;
    }
    if (a < A_WASTE_FOUNDATION) {
        cards[0] = g->waste[--g->waste_len];
        put(g, a - A_WASTE_COLUMN, cards, 1);
        return 0;
    }
    if (a < A_COLUMN_FOUNDATION) {
        g->waste_len--;
        g->home[a - A_WASTE_FOUNDATION]++;
        return 0;
    }
    if (a < A_FOUNDATION_COLUMN) {
        int x = a - A_COLUMN_FOUNDATION;
        int turned = take(g, x / FOUNDATIONS, 1, cards);
        g->home[x % FOUNDATIONS]++;
        return turned;
    }
    if (a < A_COLUMN_COLUMN) {
        int x = a - A_FOUNDATION_COLUMN, f = x / COLUMNS;
        cards[0] = (uint8_t)(f * RANKS + g->home[f] - 1);
        g->home[f]--;
        put(g, x % COLUMNS, cards, 1);
        return 0;
    }
    int x = a - A_COLUMN_COLUMN, count = x % RANKS + 1, slot = x / RANKS;
    int source = slot / (COLUMNS - 1), dest = slot % (COLUMNS - 1);
    if (dest >= source)
        dest++;
    int turned = take(g, source, count, cards);
    put(g, dest, cards, count);
    return turned;
}

static int cards_home(const Game *g)
{
    return g->home[0] + g->home[1] + g->home[2] + g->home[3];
}

/* -- observations ------------------------------------------------------- */

static int8_t capped(int value) { return (int8_t)(value < COUNT_CAP ? value : COUNT_CAP); }

static void observe(const Batch *b, const Game *g, int8_t *o)
{
    int show_down = b->all_visible, show_stock = b->all_visible || g->recycles > 0;
    if (!show_down || !show_stock) {
        /* The last card whose place is unknown is known by elimination. */
        int unknown = show_stock ? 0 : g->stock_len;
        for (int c = 0; c < COLUMNS; c++)
            unknown += g->down[c];
        if (unknown <= 1)
            show_down = show_stock = 1;
    }
    for (int c = 0; c < COLUMNS; c++) {
        int8_t *row = o + O_TABLEAU + c * MAX_COLUMN;
        for (int s = 0; s < MAX_COLUMN; s++)
            row[s] = s >= g->len[c] ? NO_CARD
                     : (s < g->down[c] && !show_down) ? HIDDEN
                                                       : (int8_t)g->col[c][s];
        o[O_DOWN + c] = (int8_t)g->down[c];
    }
    for (int s = 0; s < STOCK_SIZE; s++) {
        o[O_STOCK + s] = s >= g->stock_len ? NO_CARD
                         : show_stock      ? (int8_t)g->stock[g->stock_len - 1 - s]
                                           : HIDDEN;
        o[O_WASTE + s] = s >= g->waste_len ? NO_CARD : (int8_t)g->waste[g->waste_len - 1 - s];
    }
    for (int f = 0; f < FOUNDATIONS; f++)
        o[O_FOUNDATIONS + f] = (int8_t)g->home[f];
    o[O_STOCK_SIZE] = (int8_t)g->stock_len;
    o[O_WASTE_SIZE] = (int8_t)g->waste_len;
    o[O_RECYCLES] = capped(g->recycles);
    o[O_RECYCLES_LEFT] =
        b->recycles_allowed < 0 ? COUNT_CAP : capped(b->recycles_allowed - g->recycles);
}

/* Write game i's observation and mask; return its number of legal actions. */
static int publish(Batch *b, Py_ssize_t i)
{
    Game *g = &b->games[i];
    int legal = find_legal(b, g, (uint8_t *)b->mask.buf + i * ACTION_COUNT);
    observe(b, g, (int8_t *)b->obs.buf + i * OBS_SIZE);
    return legal;
}

/* Start game i on a deal's cards: a clean mask, then its row. */
static void start(Batch *b, Py_ssize_t i, const uint8_t cards[CARD_COUNT])
{
    Game *g = &b->games[i];
    deal_cards(g, cards);
    memset(g->mask, 0, ACTION_COUNT);
    memset((uint8_t *)b->mask.buf + i * ACTION_COUNT, 0, ACTION_COUNT);
    g->legal_count = 0;
    publish(b, i);
}

static void set_outcome(Batch *b, Py_ssize_t i, double reward, int terminated, int truncated)
{
    ((double *)b->reward.buf)[i] = reward;
    ((uint8_t *)b->terminated.buf)[i] = (uint8_t)terminated;
    ((uint8_t *)b->truncated.buf)[i] = (uint8_t)truncated;
}

static void new_deal(Batch *b, Py_ssize_t i)
{
    Game *g = &b->games[i];
    uint8_t deck[CARD_COUNT];
    g->deal = splitmix64(&g->rng);
    g->has_number = 1;
    shuffle(g->deal, deck);
    start(b, i, deck);
    set_outcome(b, i, 0.0, 0, 0);
}

/* Play legal action a in game i and write its row. */
static void play_legal(Batch *b, Py_ssize_t i, int a)
{
    Game *g = &b->games[i];
    int home = cards_home(g);
    int turned = apply(b, g, a);
    g->steps++;
    int legal = publish(b, i);
    int won = cards_home(g) == CARD_COUNT;
    double reward = (won ? 1.0 : 0.0) + b->home_reward * (cards_home(g) - home) +
                    b->turned_reward * turned;
    int terminated = won || legal == 0;
    int truncated = !terminated && b->max_steps > 0 && g->steps >= b->max_steps;
    set_outcome(b, i, reward, terminated, truncated);
    g->pending_reset = (uint8_t)(terminated || truncated);
}

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
}

static int Batch_init(Batch *b, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"obs", "mask", "reward", "terminated", "truncated", "draw",
                            "recycles_allowed", "any_empty", "recall", "partial",
                            "all_visible", "max_steps", "home_reward", "turned_reward", NULL};
    PyObject *obs, *mask, *reward, *terminated, *truncated;
    int draw, recycles_allowed, any_empty, recall, partial, all_visible, max_steps;
    double home_reward, turned_reward;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOiippppidd", names, &obs, &mask, &reward,
                                     &terminated, &truncated, &draw, &recycles_allowed,
                                     &any_empty, &recall, &partial, &all_visible, &max_steps,
                                     &home_reward, &turned_reward))
        return -1;
    if (draw < 1 || draw > STOCK_SIZE || max_steps < 0) {
        PyErr_SetString(PyExc_ValueError, "draw must be 1 to 24 and max_steps at least 0");
        return -1;
    }
    release(b);
    Py_buffer probe;
    if (PyObject_GetBuffer(reward, &probe, PyBUF_SIMPLE) < 0)
        return -1;
    Py_ssize_t n = probe.len / (Py_ssize_t)sizeof(double);
    PyBuffer_Release(&probe);
    if (n < 1) {
        PyErr_SetString(PyExc_ValueError, "a batch holds at least one game");
        return -1;
    }
    if (bind_buffer(obs, &b->obs, n * OBS_SIZE, "observation") < 0)
        return -1;
    if (bind_buffer(mask, &b->mask, n * ACTION_COUNT, "mask") < 0)
        goto fail_obs;
    if (bind_buffer(reward, &b->reward, n * (Py_ssize_t)sizeof(double), "reward") < 0)
        goto fail_mask;
    if (bind_buffer(terminated, &b->terminated, n, "terminated") < 0)
        goto fail_reward;
    if (bind_buffer(truncated, &b->truncated, n, "truncated") < 0)
        goto fail_terminated;
    b->games = PyMem_Calloc((size_t)n, sizeof(Game));
    if (!b->games) {
        PyErr_NoMemory();
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
    if (size != CARD_COUNT) {
        PyErr_SetString(PyExc_ValueError, "a deal is 52 cards");
        return NULL;
    }
    Game *g = &b->games[i];
    g->has_number = number != Py_None;
    g->deal = g->has_number ? PyLong_AsUnsignedLongLong(number) : NO_DEAL_NUMBER;
    if (PyErr_Occurred())
        return NULL;
    start(b, i, (const uint8_t *)cards);
    set_outcome(b, i, 0.0, 0, 0);
    Py_RETURN_NONE;
}

static PyObject *illegal(Py_ssize_t i, long a)
{
    if (a < 0 || a >= ACTION_COUNT)
        PyErr_Format(ActionError, "game %zd: action %ld is not a number from 0 to %d", i, a,
                     ACTION_COUNT - 1);
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
    if (a < 0 || a >= ACTION_COUNT || !b->games[i].mask[a])
        return illegal(i, a);
    play_legal(b, i, (int)a);
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
        if (!b->games[i].pending_reset && (a < 0 || a >= ACTION_COUNT || !b->games[i].mask[a])) {
            PyBuffer_Release(&view);
            return illegal(i, (long)a);
        }
    }
    for (Py_ssize_t i = 0; i < b->n; i++) {
        if (b->games[i].pending_reset)
            new_deal(b, i);
        else
            play_legal(b, i, (int)actions[i]);
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
    PyObject *columns = PyTuple_New(COLUMNS), *down = PyList_New(COLUMNS);
    PyObject *home = PyList_New(FOUNDATIONS);
    if (!columns || !down || !home)
        goto fail;
    for (int c = 0; c < COLUMNS; c++) {
        PyObject *column = list_of(g->col[c], g->len[c]);
        if (!column)
            goto fail;
        PyTuple_SET_ITEM(columns, c, column);
        PyList_SET_ITEM(down, c, PyLong_FromLong(g->down[c]));
    }
    for (int f = 0; f < FOUNDATIONS; f++)
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
     "deal(i, cards, number): deal game i a card listing (52 bytes); number or None."},
    {"play", (PyCFunction)Batch_play, METH_VARARGS,
     "play(i, action): play a legal action in game i; ActionError if it is not legal."},
    {"step", (PyCFunction)Batch_step, METH_O,
     "step(actions): one action per game (int64 buffer); games whose episode ended on the "
     "previous step start a new deal instead (next-step autoreset)."},
    {"sample", (PyCFunction)Batch_sample, METH_VARARGS,
     "sample(out, uniform): out[i] = a legal action of game i picked by uniform[i] in [0, 1) "
     "(0 if none)."},
    {"legal", (PyCFunction)Batch_legal, METH_VARARGS,
     "legal(i): game i's legal actions in increasing order."},
    {"state", (PyCFunction)Batch_state, METH_VARARGS,
     "state(i): (columns, down, stock, waste, foundations, recycles, steps, deal number)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "bonanza.rl._batch.Batch",
    .tp_doc = PyDoc_STR("N Klondike games in flat C arrays, stepped in one call."),
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
};

static PyObject *deck_of(PyObject *self, PyObject *arg)
{
    (void)self;
    unsigned long long number = PyLong_AsUnsignedLongLong(arg);
    uint8_t deck[CARD_COUNT];
    if (PyErr_Occurred())
        return NULL;
    shuffle(number, deck);
    return PyBytes_FromStringAndSize((const char *)deck, CARD_COUNT);
}

static PyMethodDef module_methods[] = {
    {"shuffle", deck_of, METH_O, "shuffle(number): deal number's card listing as 52 bytes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_batch", "Klondike games stepped in batches.", -1, module_methods,
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
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    if (PyModule_AddObjectRef(m, "Batch", (PyObject *)&BatchType) < 0 ||
        PyModule_AddIntConstant(m, "ACTION_COUNT", ACTION_COUNT) < 0 ||
        PyModule_AddIntConstant(m, "OBS_SIZE", OBS_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "MAX_COLUMN", MAX_COLUMN) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
