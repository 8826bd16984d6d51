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

/* Cards and piles. */
#define DECK 52
#define MAX_DECKS 2
#define MAX_CARDS (MAX_DECKS * DECK)
#define SUITS 4
#define RANKS 13
#define KING 13
#define MAX_COLUMNS 10
#define MAX_FOUNDATIONS (MAX_DECKS * SUITS)
#define THREE_CARDS 3     /* cards per column in the three-two-down deal */
#define LONGEST_RUN RANKS /* the most cards one tableau move carries: a King down to an Ace */
#define MAX_DRAW 24

/* Action numbers: bonanza.rl.actions.  The blocks after these two start where
 * the table's sizes put them (Table). */
#define A_STOCK 0   /* a draw, or a deal onto every column */
#define A_RECYCLE 1 /* tables with a waste only */

/* Observation cells: bonanza.rl.observation. */
#define HIDDEN 52 /* a card the player cannot place */
#define NO_CARD 53
#define COUNT_CAP 100 /* recycle counts are capped here; "unlimited" reads as the cap */

#define NO_DEAL_NUMBER UINT64_MAX /* with `has_number` 0: a deal given as cards */

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* A table's shape, and the sizes and offsets that follow from it. */
typedef struct {
    int decks, cards, columns, foundations, parents;
    int staircase;    /* column n gets n cards; else three each, two face down */
    int every_column; /* the stock deals onto every column (no waste) */
    int waste_start;  /* cards dealt onto the waste */
    int talon;        /* the cards not dealt to the columns: stock and waste */
    int slots;        /* the most cards a column can hold */
    int max_down;     /* the most face-down cards in a column */
    /* the first action of each block, and the count */
    int a_waste_column, a_waste_foundation, a_column_foundation, a_foundation_column;
    int a_column_column, actions;
    /* the first cell of each field, and the size */
    int o_tableau, o_down, o_stock, o_waste, o_foundations, o_stock_size, o_waste_size;
    int o_recycles, o_recycles_left, obs_size;
} Table;

/* Klondike's table, as set_table makes it (checked when the module loads):
 * 615 actions and 196 cells, docs/rl.md. */
static const Table KLONDIKE = {
    .decks = 1, .cards = 52, .columns = 7, .foundations = 4, .parents = 2,
    .staircase = 1, .every_column = 0, .waste_start = 0, .talon = 24, .slots = 19, .max_down = 6,
    .a_waste_column = 2, .a_waste_foundation = 9, .a_column_foundation = 13,
    .a_foundation_column = 41, .a_column_column = 69, .actions = 615,
    .o_tableau = 0, .o_down = 133, .o_stock = 140, .o_waste = 164, .o_foundations = 188,
    .o_stock_size = 192, .o_waste_size = 193, .o_recycles = 194, .o_recycles_left = 195,
    .obs_size = 196,
};

typedef struct {
    uint8_t *col; /* `columns` rows of `slots` cards */
    uint8_t *stock, *waste; /* `talon` cards each */
    uint8_t *mask;          /* the legal actions, for checking the player's */
    uint16_t *legal;        /* the same, listed: clearing and sampling in O(legal) */
    int legal_count;
    uint8_t len[MAX_COLUMNS];
    uint8_t down[MAX_COLUMNS];
    uint8_t home[MAX_FOUNDATIONS];
    uint8_t stock_len, waste_len;
    uint8_t pending_reset; /* the last step ended an episode (next-step autoreset) */
    uint8_t has_number;
    int32_t recycles;
    int32_t steps;
    uint64_t deal;
    uint64_t rng; /* SplitMix64 state choosing the next deal number */
} Game;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    Game *games;
    void *arena; /* every game's cards, mask and list */
    Table t;
    int klondike; /* t is KLONDIKE: play the specialised engine */
    int draw, recycles_allowed; /* recycles_allowed < 0: unlimited */
    int any_empty, recall, partial, all_visible;
    int max_steps; /* 0: no limit */
    double home_reward, turned_reward;
    int penalize;          /* an illegal action in range is a no-op costing illegal_penalty */
    double illegal_penalty;
    Py_buffer obs, mask, reward, terminated, truncated;
    int bound;
} Batch;

static PyObject *ActionError;

/* -- cards ---------------------------------------------------------------- */

static inline int face_of(int card) { return card < DECK ? card : card - DECK; }
static inline int suit_of(int card) { return (card / RANKS) & (SUITS - 1); }
static inline int rank_of(int card) { return card % RANKS + 1; }
static inline int is_red(int card) { int s = suit_of(card); return s == 1 || s == 2; }

static inline uint8_t *column(const Table *t, const Game *g, int c)
{
    return g->col + c * t->slots;
}

/* -- tables ------------------------------------------------------------------ */

/* Fill in a table's sizes and offsets; return an error message, or NULL. */
static const char *set_table(Table *t, int decks, int columns, int staircase, int every_column,
                             int waste_start)
{
    memset(t, 0, sizeof *t);
    if (decks < 1 || decks > MAX_DECKS)
        return "decks must be 1 or 2";
    if (columns < 1 || columns > MAX_COLUMNS)
        return "columns must be 1 to 10";
    t->decks = decks;
    t->cards = decks * DECK;
    t->columns = columns;
    t->foundations = decks * SUITS;
    t->parents = decks * 2; /* the two suits of the other colour, in each deck */
    t->staircase = staircase;
    t->every_column = every_column;
    t->waste_start = waste_start;
    int dealt = staircase ? columns * (columns + 1) / 2 : columns * THREE_CARDS;
    if (waste_start < 0 || (every_column && waste_start) || dealt + waste_start > t->cards)
        return "the columns and the waste take more cards than the decks hold";
    t->talon = t->cards - dealt;
    t->max_down = staircase ? columns - 1 : THREE_CARDS - 1;
    /* Without deals onto the columns their face-up cards are one run;
     * with them, only the cards in play bound a column. */
    t->slots = every_column ? t->cards : t->max_down + LONGEST_RUN;

    int waste = !every_column, c = columns, f = t->foundations;
    t->a_waste_column = A_RECYCLE + 1;
    t->a_waste_foundation = t->a_waste_column + waste * c;
    t->a_column_foundation = waste ? t->a_waste_foundation + f : A_STOCK + 1;
    t->a_foundation_column = t->a_column_foundation + c * f;
    t->a_column_column = t->a_foundation_column + f * c;
    t->actions = t->a_column_column + c * (c - 1) * LONGEST_RUN;

    t->o_tableau = 0;
    t->o_down = t->o_tableau + c * t->slots;
    t->o_stock = t->o_down + c;
    t->o_waste = t->o_stock + t->talon;
    t->o_foundations = t->o_waste + waste * t->talon;
    t->o_stock_size = t->o_foundations + f;
    t->o_waste_size = t->o_stock_size + 1;
    t->o_recycles = t->o_waste_size + 1;
    t->o_recycles_left = t->o_recycles + 1;
    t->obs_size = waste ? t->o_recycles_left + 1 : t->o_stock_size + 1;
    return NULL;
}

/* -- deals (docs/engine.md, deal algorithms 1 and 2) ----------------------- */

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

/* Deal `number`'s listing of `decks` decks; with two, each card's first
 * occurrence keeps the first-deck id c, its second becomes c + 52. */
static void shuffle(uint64_t number, int decks, uint8_t deck[MAX_CARDS])
{
    uint64_t state = number;
    int count = decks * DECK;
    for (int i = 0; i < count; i++)
        deck[i] = (uint8_t)i;
    for (int i = count - 1; i > 0; i--) {
        int j = (int)below(&state, (uint64_t)i + 1);
        uint8_t t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    if (decks > 1) {
        uint8_t seen[DECK] = {0};
        for (int i = 0; i < count; i++) {
            int face = face_of(deck[i]);
            deck[i] = (uint8_t)(seen[face] ? face + DECK : face);
            seen[face] = 1;
        }
    }
}

static void deal_cards(const Table *t, Game *g, const uint8_t *cards)
{
    int at = 0;
    for (int c = 0; c < t->columns; c++) {
        int size = t->staircase ? c + 1 : THREE_CARDS;
        memcpy(column(t, g, c), cards + at, (size_t)size);
        at += size;
        g->len[c] = (uint8_t)size;
        g->down[c] = (uint8_t)(size - 1);
    }
    memcpy(g->waste, cards + at, (size_t)t->waste_start);
    g->waste_len = (uint8_t)t->waste_start;
    g->stock_len = (uint8_t)(t->talon - t->waste_start);
    for (int i = 0; i < g->stock_len; i++)
        g->stock[i] = cards[t->cards - 1 - i]; /* the first card dealt to the stock is drawn first */
    memset(g->home, 0, sizeof g->home);
    g->recycles = 0;
    g->steps = 0;
    g->pending_reset = 0;
}

/* -- legal moves ------------------------------------------------------------ */

static inline int column_action(const Table *t, int source, int dest, int count)
{
    int slot = source * (t->columns - 1) + (dest > source ? dest - 1 : dest);
    return t->a_column_column + slot * LONGEST_RUN + count - 1;
}

typedef struct {
    int8_t top_at[MAX_CARDS]; /* the column whose top card this is, or -1 */
    int empty[MAX_COLUMNS];
    int empties;
} Tops;

static ALWAYS_INLINE void find_tops(const Table *t, const Game *g, Tops *tops)
{
    memset(tops->top_at, -1, (size_t)t->cards);
    tops->empties = 0;
    for (int c = 0; c < t->columns; c++) {
        if (g->len[c])
            tops->top_at[column(t, g, c)[g->len[c] - 1]] = (int8_t)c;
        else
            tops->empty[tops->empties++] = c;
    }
}

/* Where the movable run at the top of a column starts (core's run_start): the
 * deepest face-up card from which every card lies on the one under it. */
static int run_start(const uint8_t *cards, int size, int down)
{
    int at = size - 1;
    while (at > down && rank_of(cards[at - 1]) == rank_of(cards[at]) + 1 &&
           is_red(cards[at - 1]) != is_red(cards[at]))
        at--;
    return at;
}

/* The columns `card` may go to: on a card one rank higher of the other colour
 * (of either deck), or into an empty column.  Runs body with dest set to each. */
#define FOR_DESTS(b, t, tops, card, dest, body)                                               \
    do {                                                                                   \
        int r_ = rank_of(card);                                                            \
        if (r_ < KING) {                                                                   \
            int first_ = is_red(card) ? 0 : 1; /* clubs/spades or diamonds/hearts */       \
            int parents_[2 * MAX_DECKS] = {first_ * RANKS + r_, (3 - first_) * RANKS + r_, \
                                           DECK + first_ * RANKS + r_,                     \
                                           DECK + (3 - first_) * RANKS + r_};              \
            for (int p_ = 0; p_ < (t)->parents; p_++) {                                       \
                int dest = (tops)->top_at[parents_[p_]];                                   \
                if (dest >= 0) { body; }                                                   \
            }                                                                              \
        }                                                                                  \
        if ((b)->any_empty || r_ == KING)                                                  \
            for (int e_ = 0; e_ < (tops)->empties; e_++) {                                 \
                int dest = (tops)->empty[e_];                                              \
                body;                                                                      \
            }                                                                              \
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
static ALWAYS_INLINE int find_legal(const Batch *b, const Table *t, Game *g, uint8_t *out)
{
    Tops tops;
    uint8_t *m = g->mask;
    int total_home = 0, two_decks = t->decks > 1, f_count = t->foundations;
    for (int k = 0; k < g->legal_count; k++)
        m[g->legal[k]] = out[g->legal[k]] = 0;
    g->legal_count = 0;
    find_tops(t, g, &tops);
    for (int f = 0; f < f_count; f++)
        total_home += g->home[f];

    for (int c = 0; c < t->columns; c++) {
        int size = g->len[c];
        if (!size)
            continue;
        const uint8_t *cards = column(t, g, c);
        int top = cards[size - 1], suit = suit_of(top), below_top = rank_of(top) - 1;
        int to_home = t->a_column_foundation + c * f_count + suit;
        if (g->home[suit] == below_top)
            MARK(to_home);
        if (two_decks && g->home[suit + SUITS] == below_top)
            MARK(to_home + SUITS);
        int first = t->every_column ? run_start(cards, size, g->down[c]) : g->down[c];
        int last = b->partial ? size : first + 1;
        for (int at = first; at < last; at++) {
            int card = cards[at];
            FOR_DESTS(b, t, &tops, card, dest, MARK(column_action(t, c, dest, size - at)));
        }
    }
    if (g->waste_len) {
        int card = g->waste[g->waste_len - 1], suit = suit_of(card), below_top = rank_of(card) - 1;
        if (g->home[suit] == below_top)
            MARK(t->a_waste_foundation + suit);
        if (two_decks && g->home[suit + SUITS] == below_top)
            MARK(t->a_waste_foundation + suit + SUITS);
        FOR_DESTS(b, t, &tops, card, dest, MARK(t->a_waste_column + dest));
    }
    if (b->recall && total_home < t->cards)
        for (int f = 0; f < f_count; f++)
            if (g->home[f]) {
                int card = (f & (SUITS - 1)) * RANKS + g->home[f] - 1; /* a twin would do as well */
                FOR_DESTS(b, t, &tops, card, dest,
                          MARK(t->a_foundation_column + f * t->columns + dest));
            }
    if (g->stock_len)
        MARK(A_STOCK);
    else if (g->waste_len && (b->recycles_allowed < 0 || g->recycles < b->recycles_allowed))
        MARK(A_RECYCLE);
    return g->legal_count;
}

/* -- playing -------------------------------------------------------------- */

/* Take the top `count` cards of column c into out; return 1 if a card turned up. */
static ALWAYS_INLINE int take(const Table *t, Game *g, int c, int count, uint8_t *out)
{
    int size = g->len[c] - count;
    memcpy(out, column(t, g, c) + size, (size_t)count);
    g->len[c] = (uint8_t)size;
    if (size && size == g->down[c]) {
        g->down[c]--;
        return 1;
    }
    return 0;
}

static ALWAYS_INLINE void put(const Table *t, Game *g, int c, const uint8_t *cards, int count)
{
    memcpy(column(t, g, c) + g->len[c], cards, (size_t)count);
    g->len[c] = (uint8_t)(g->len[c] + count);
}

/* The top card of foundation f (Position._home_card): with two decks, a rank
 * home once is the twin c + 52; when both are home, c comes off first. */
static ALWAYS_INLINE int home_card(const Table *t, const Game *g, int f)
{
    int height = g->home[f], suit = f & (SUITS - 1), card = suit * RANKS + height - 1;
    if (t->decks == 1 || (g->home[suit] >= height && g->home[suit + SUITS] >= height))
        return card;
    return card + DECK;
}

/* Give the twin c + 52 of `card` left in play the id c. */
static void swap_twin(const Table *t, Game *g, int card)
{
    uint8_t twin = (uint8_t)(card + DECK);
    for (int c = 0; c < t->columns; c++) {
        uint8_t *cards = column(t, g, c);
        for (int k = 0; k < g->len[c]; k++)
            if (cards[k] == twin) {
                cards[k] = (uint8_t)card;
                return;
            }
    }
    for (int k = 0; k < g->stock_len; k++)
        if (g->stock[k] == twin) {
            g->stock[k] = (uint8_t)card;
            return;
        }
    for (int k = 0; k < g->waste_len; k++)
        if (g->waste[k] == twin) {
            g->waste[k] = (uint8_t)card;
            return;
        }
}

/* Put `card` on foundation f (Position._send_home): with two decks, when its
 * rank is home once, the twin c + 52 left in play takes the id c. */
static ALWAYS_INLINE void send_home(const Table *t, Game *g, int card, int f)
{
    g->home[f]++;
    if (card >= DECK || t->decks == 1)
        return;
    int suit = f & (SUITS - 1), rank = rank_of(card);
    if (g->home[suit] < rank || g->home[suit + SUITS] < rank)
        swap_twin(t, g, card);
}

/* Play a legal action; return the number of cards it turned face up. */
static ALWAYS_INLINE int apply(const Batch *b, const Table *t, Game *g, int a)
{
    uint8_t cards[LONGEST_RUN];
    if (a == A_STOCK) {
        if (t->every_column) {
            int k = g->stock_len < t->columns ? g->stock_len : t->columns;
            for (int c = 0; c < k; c++) {
                cards[0] = g->stock[--g->stock_len];
                put(t, g, c, cards, 1);
            }
        } else {
            int k = g->stock_len < b->draw ? g->stock_len : b->draw;
            for (int i = 0; i < k; i++)
                g->waste[g->waste_len++] = g->stock[--g->stock_len];
        }
        return 0;
    }
    if (a < t->a_column_foundation) { /* tables with a waste only */
        if (a == A_RECYCLE) {
            for (int i = 0; i < g->waste_len; i++)
                g->stock[i] = g->waste[g->waste_len - 1 - i];
            g->stock_len = g->waste_len;
            g->waste_len = 0;
            g->recycles++;
            return 0;
        }
        int card = g->waste[--g->waste_len];
        if (a < t->a_waste_foundation) {
            cards[0] = (uint8_t)card;
            put(t, g, a - t->a_waste_column, cards, 1);
        } else {
            send_home(t, g, card, a - t->a_waste_foundation);
        }
        return 0;
    }
    if (a < t->a_foundation_column) {
        int x = a - t->a_column_foundation;
        int turned = take(t, g, x / t->foundations, 1, cards);
        send_home(t, g, cards[0], x % t->foundations);
        return turned;
    }
    if (a < t->a_column_column) {
        int x = a - t->a_foundation_column, f = x / t->columns;
        cards[0] = (uint8_t)home_card(t, g, f);
        g->home[f]--;
        put(t, g, x % t->columns, cards, 1);
        return 0;
    }
    int x = a - t->a_column_column, count = x % LONGEST_RUN + 1, slot = x / LONGEST_RUN;
    int source = slot / (t->columns - 1), dest = slot % (t->columns - 1);
    if (dest >= source)
        dest++;
    int turned = take(t, g, source, count, cards);
    put(t, g, dest, cards, count);
    return turned;
}

static ALWAYS_INLINE int cards_home(const Table *t, const Game *g)
{
    int home = 0;
    for (int f = 0; f < t->foundations; f++)
        home += g->home[f];
    return home;
}

/* -- observations ------------------------------------------------------- */

static int8_t capped(int value) { return (int8_t)(value < COUNT_CAP ? value : COUNT_CAP); }

/* Card cells show a card's face, 0-51: twins look alike. */
static ALWAYS_INLINE void observe(const Batch *b, const Table *t, const Game *g, int8_t *o)
{
    int show_down = b->all_visible, show_stock = b->all_visible || g->recycles > 0;
    if (!show_down || !show_stock) {
        /* The last card whose place is unknown is known by elimination. */
        int unknown = show_stock ? 0 : g->stock_len;
        for (int c = 0; c < t->columns; c++)
            unknown += g->down[c];
        if (unknown <= 1)
            show_down = show_stock = 1;
    }
    for (int c = 0; c < t->columns; c++) {
        int8_t *row = o + t->o_tableau + c * t->slots;
        const uint8_t *cards = column(t, g, c);
        int size = g->len[c], down = show_down ? 0 : g->down[c];
        for (int s = 0; s < t->slots; s++)
            row[s] = s >= size ? NO_CARD : s < down ? HIDDEN : (int8_t)face_of(cards[s]);
        o[t->o_down + c] = (int8_t)g->down[c];
    }
    for (int s = 0; s < t->talon; s++)
        o[t->o_stock + s] = s >= g->stock_len ? NO_CARD
                            : show_stock      ? (int8_t)face_of(g->stock[g->stock_len - 1 - s])
                                              : HIDDEN;
    for (int f = 0; f < t->foundations; f++)
        o[t->o_foundations + f] = (int8_t)g->home[f];
    o[t->o_stock_size] = (int8_t)g->stock_len;
    if (t->every_column)
        return;
    for (int s = 0; s < t->talon; s++)
        o[t->o_waste + s] =
            s >= g->waste_len ? NO_CARD : (int8_t)face_of(g->waste[g->waste_len - 1 - s]);
    o[t->o_waste_size] = (int8_t)g->waste_len;
    o[t->o_recycles] = capped(g->recycles);
    o[t->o_recycles_left] =
        b->recycles_allowed < 0 ? COUNT_CAP : capped(b->recycles_allowed - g->recycles);
}

static void set_outcome(Batch *b, Py_ssize_t i, double reward, int terminated, int truncated)
{
    ((double *)b->reward.buf)[i] = reward;
    ((uint8_t *)b->terminated.buf)[i] = (uint8_t)terminated;
    ((uint8_t *)b->truncated.buf)[i] = (uint8_t)truncated;
}

/* Write game i's observation and mask; return its number of legal actions. */
static ALWAYS_INLINE int publish_on(Batch *b, const Table *t, Py_ssize_t i)
{
    Game *g = &b->games[i];
    int legal = find_legal(b, t, g, (uint8_t *)b->mask.buf + i * t->actions);
    observe(b, t, g, (int8_t *)b->obs.buf + i * t->obs_size);
    return legal;
}

/* Play legal action a in game i and write its row. */
static ALWAYS_INLINE void play_on(Batch *b, const Table *t, Py_ssize_t i, int a)
{
    Game *g = &b->games[i];
    int home = cards_home(t, g);
    int turned = apply(b, t, g, a);
    g->steps++;
    int legal = publish_on(b, t, i);
    int now_home = cards_home(t, g);
    int won = now_home == t->cards;
    double reward = (won ? 1.0 : 0.0) + b->home_reward * (now_home - home) +
                    b->turned_reward * turned;
    int terminated = won || legal == 0;
    int truncated = !terminated && b->max_steps > 0 && g->steps >= b->max_steps;
    set_outcome(b, i, reward, terminated, truncated);
    g->pending_reset = (uint8_t)(terminated || truncated);
}

/* The engine twice: once on KLONDIKE, whose sizes the compiler folds in, and
 * once on the batch's own table. */
static void publish_klondike(Batch *b, Py_ssize_t i) { publish_on(b, &KLONDIKE, i); }
static void publish_table(Batch *b, Py_ssize_t i) { publish_on(b, &b->t, i); }
static void play_klondike(Batch *b, Py_ssize_t i, int a) { play_on(b, &KLONDIKE, i, a); }
static void play_table(Batch *b, Py_ssize_t i, int a) { play_on(b, &b->t, i, a); }

static void publish(Batch *b, Py_ssize_t i)
{
    if (b->klondike)
        publish_klondike(b, i);
    else
        publish_table(b, i);
}

static void play_legal(Batch *b, Py_ssize_t i, int a)
{
    if (b->klondike)
        play_klondike(b, i, a);
    else
        play_table(b, i, a);
}

/* Start game i on a deal's cards: a clean mask, then its row. */
static void start(Batch *b, Py_ssize_t i, const uint8_t *cards)
{
    Game *g = &b->games[i];
    deal_cards(&b->t, g, cards);
    memset(g->mask, 0, (size_t)b->t.actions);
    memset((uint8_t *)b->mask.buf + i * b->t.actions, 0, (size_t)b->t.actions);
    g->legal_count = 0;
    publish(b, i);
}

/* An illegal action under `penalize`: the game stays as it is, the step counts. */
static void idle(Batch *b, Py_ssize_t i)
{
    Game *g = &b->games[i];
    g->steps++;
    int truncated = b->max_steps > 0 && g->steps >= b->max_steps;
    set_outcome(b, i, -b->illegal_penalty, 0, truncated);
    g->pending_reset = (uint8_t)truncated;
}

static void new_deal(Batch *b, Py_ssize_t i)
{
    Game *g = &b->games[i];
    uint8_t deck[MAX_CARDS];
    g->deal = splitmix64(&g->rng);
    g->has_number = 1;
    shuffle(g->deal, b->t.decks, deck);
    start(b, i, deck);
    set_outcome(b, i, 0.0, 0, 0);
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
