/* The batch engine's rules: cards, tables, deals, legal moves and playing them.
 * Part of _batch.c, which #includes it: one translation unit. */
#ifndef BONANZA_RL_BATCH_RULES_H
#define BONANZA_RL_BATCH_RULES_H

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


#endif /* BONANZA_RL_BATCH_RULES_H */
