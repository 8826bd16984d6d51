/*
 * bonanza.solver._search: the exact Klondike search core (C99).
 *
 * The search is a depth-first search over positions with a transposition
 * table of 64-bit state keys.  Every card is known (thoughtful play).  The
 * Python engine stays the reference for the rules: the Python wrapper replays
 * every solution found here before reporting it.
 *
 * State.  Seven columns (cards deepest first, the bottom `down` face down),
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
 * single draws and recycles when it is reported.
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
 *      go on, or the cards they go on only one to go on (see twin_locked).
 * Nothing else is pruned: verdicts are exact up to 64-bit key collisions in
 * the transposition table.
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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define MAP_TABLES 1
#endif
#include <signal.h>
#include <string.h>
#include <time.h>

#define NCOLS 7
#define MAXC 52
#define P_STOCK 7
#define P_WASTE 8
#define P_FOUND 9
#define DST_FOUND 255

static const uint8_t RANK[52] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
};
static inline int card_rank(int c) { return RANK[c]; }
static inline int card_suit(int c) { return c / 13; }
static inline int card_red(int c) { return c >= 13 && c < 39; }

/* The card of the same rank and colour. */
static inline int twin_of(int card)
{
    /* C<->S (suits 0 and 3), D<->H (1 and 2). */
    return (3 - card_suit(card)) * 13 + card % 13;
}

/* ---- Zobrist keys ------------------------------------------------------ */

static uint64_t Z_COL[52][MAXC];   /* card at height h of a column */
static uint64_t Z_DOWN[MAXC + 1];  /* face-down count of a column */
static uint64_t Z_TAL[52];         /* card still in the talon */
static uint64_t Z_PTR[MAXC + 1];   /* waste size */

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return z ^ (z >> 33);
}

static void init_keys(void)
{
    uint64_t seed = 0x426F6E616E7A61ULL; /* "Bonanza" */
    for (int c = 0; c < 52; c++)
        for (int h = 0; h < MAXC; h++) Z_COL[c][h] = splitmix(&seed);
    for (int i = 0; i <= MAXC; i++) Z_DOWN[i] = splitmix(&seed);
    for (int c = 0; c < 52; c++) Z_TAL[c] = splitmix(&seed);
    for (int i = 0; i <= MAXC; i++) Z_PTR[i] = splitmix(&seed);
}

/* ---- rules and state ----------------------------------------------------- */

/* The game's rules. */
typedef struct {
    int draw;
    int recycles_allowed; /* -1: unlimited */
    int any_empty;
    int recall;
    int partial;
} Rules;

/* The pruning rules that can be switched off, each bit 1 << its number in
 * the list above (rules 3, 4 and 5's key are part of the state, always on).
 * The same names are bonanza.solver.Prune in Python. */
enum {
    PRUNE_SAFE_MOVES = 1 << 1,    /* rules 1, 2, 5 and 6 */
    PRUNE_TWINS = 1 << 7,
    PRUNE_DEAD_ENDS = 1 << 8,
    PRUNE_LARGER_WASTES = 1 << 9, /* rule 9's larger wastes (its fresh stock is always on) */
    PRUNE_COVER_TALON = 1 << 10,
    PRUNE_RELAXED_STOCK = 1 << 11,
    PRUNE_NEARLY_SAFE = 1 << 12,
    PRUNE_SUCCESSOR = 1 << 14,
    PRUNE_TWIN_LOCKS = 1 << 15,
    PRUNE_ALL = PRUNE_SAFE_MOVES | PRUNE_TWINS | PRUNE_DEAD_ENDS | PRUNE_LARGER_WASTES
              | PRUNE_COVER_TALON | PRUNE_RELAXED_STOCK | PRUNE_NEARLY_SAFE
              | PRUNE_SUCCESSOR | PRUNE_TWIN_LOCKS,
};

/* The side searches that only look for wins (they prune nothing), and when
 * the side searches start.  bonanza.solver.Sides in Python. */
enum {
    SIDE_FEW_PASSES_ON = 1 << 0,
    SIDE_HASTY_ON = 1 << 1,
    SIDES_AT_ONCE = 1 << 2, /* from the first round (for tests) */
    SIDES_DEFAULT = SIDE_FEW_PASSES_ON | SIDE_HASTY_ON,
};

/* Firing counts: fired[k] counts what rule k pruned or forced (fired[0] the
 * wins of the side searches that look for wins). */
#define FIRED_SLOTS 16
#define FIRED_SIDE_WINS 0

/* How to search, apart from the rules of the game. */
typedef struct {
    unsigned prune; /* PRUNE_* */
    unsigned sides; /* SIDE_* */
    uint64_t seed;  /* nonzero: shuffle move order among near scores */
    int hasty;      /* the hasty side search: rules 10 and 14 under any stock rule */
    uint64_t *fired; /* where firings are counted (the root search's counts) */
} Options;

#define FIRE(o, rule) ((o)->fired[rule]++)

typedef struct {
    uint8_t col[NCOLS][MAXC];
    int len[NCOLS], down[NCOLS];
    int found[4];
    uint8_t talon[MAXC];
    int tlen, ptr, rec;
    uint64_t colh[NCOLS]; /* xor of Z_COL over the column's cards */
    uint64_t talh;        /* xor of Z_TAL over the talon's cards */
    int8_t at_col[52];    /* the column holding each card, or -1 */
    int8_t at_idx[52];    /* and its height there */
    uint64_t col_mask[NCOLS], tal_mask, down_mask; /* card sets (bit = card) */
    uint64_t top_mask;    /* the top cards of the columns */
    uint64_t kept_out;    /* rule 12: cards recalled onto a card that still top it */
    uint64_t col_key[NCOLS], cols_key; /* state_key's column terms and their sum */
    unsigned stale;       /* columns whose term is out of date (bit = column) */
} State;

enum { K_T2F, K_T2T, K_TAL, K_F2T };

/* One search step.  For K_TAL, `q` is the waste size after the draws, so the
 * card played is talon[q - 1]; `recycle` says a recycle comes first. */
typedef struct {
    uint8_t kind, src, dst, count;
    uint8_t q, recycle, card;
    uint8_t flipped, old_ptr, old_tlen;
    uint8_t kept_lost; /* the move ended a card's keeping out (see State.kept_out) */
    uint8_t pre_src, pre_dst, pre_count; /* rule 7: a run moved between twins first */
    int16_t score;
} SMove;

static inline void push_card(State *s, int c, int card)
{
    s->colh[c] ^= Z_COL[card][s->len[c]];
    s->stale |= 1u << c;
    s->at_col[card] = (int8_t)c;
    s->at_idx[card] = (int8_t)s->len[c];
    s->col_mask[c] |= 1ULL << card;
    if (s->len[c]) s->top_mask &= ~(1ULL << s->col[c][s->len[c] - 1]);
    s->top_mask |= 1ULL << card;
    s->col[c][s->len[c]++] = (uint8_t)card;
}

static inline int pop_card(State *s, int c)
{
    int card = s->col[c][--s->len[c]];
    s->colh[c] ^= Z_COL[card][s->len[c]];
    s->stale |= 1u << c;
    s->at_col[card] = -1;
    s->col_mask[c] &= ~(1ULL << card);
    s->top_mask &= ~(1ULL << card);
    if (s->len[c]) s->top_mask |= 1ULL << s->col[c][s->len[c] - 1];
    return card;
}

/* Move the top `count` cards of column `from` onto column `to`. */
static inline void move_run(State *s, int from, int to, int count)
{
    int i0 = s->len[from] - count, j0 = s->len[to];
    uint64_t moved = 0, hf = 0, ht = 0;
    for (int k = 0; k < count; k++) {
        int card = s->col[from][i0 + k];
        hf ^= Z_COL[card][i0 + k];
        ht ^= Z_COL[card][j0 + k];
        s->at_col[card] = (int8_t)to;
        s->at_idx[card] = (int8_t)(j0 + k);
        s->col[to][j0 + k] = (uint8_t)card;
        moved |= 1ULL << card;
    }
    s->colh[from] ^= hf;
    s->colh[to] ^= ht;
    s->col_mask[from] &= ~moved;
    s->col_mask[to] |= moved;
    if (j0) s->top_mask &= ~(1ULL << s->col[to][j0 - 1]);
    if (i0) s->top_mask |= 1ULL << s->col[from][i0 - 1];
    s->len[from] = i0;
    s->len[to] = j0 + count;
    s->stale |= (1u << from) | (1u << to);
}

/* The engine turns up the next face-down card of a column left without
 * face-up cards. */
static inline int turn_up(State *s, int c)
{
    if (s->len[c] > 0 && s->len[c] == s->down[c]) {
        s->down[c]--;
        s->stale |= 1u << c;
        s->down_mask &= ~(1ULL << s->col[c][s->down[c]]);
        return 1;
    }
    return 0;
}

/* Rule 12: a kept-out card stays out only while it tops its column.  Before
 * a move covers column c, end its top's keeping; 1 if it was kept. */
static inline uint8_t cover_top(State *s, int c)
{
    if (!s->len[c]) return 0;
    uint64_t bit = 1ULL << s->col[c][s->len[c] - 1];
    if (!(s->kept_out & bit)) return 0;
    s->kept_out &= ~bit;
    return 1;
}

/* Undo cover_top, once column c's old top is its top again. */
static inline void uncover_top(State *s, int c, uint8_t kept)
{
    if (kept) s->kept_out |= 1ULL << s->col[c][s->len[c] - 1];
}

/* Undo turn_up. */
static inline void turn_down(State *s, int c)
{
    s->down_mask |= 1ULL << s->col[c][s->down[c]];
    s->down[c]++;
    s->stale |= 1u << c;
}

static void apply_move(State *s, SMove *m)
{
    int card, i;
    switch (m->kind) {
    case K_T2F:
        card = pop_card(s, m->src);
        m->kept_lost = (uint8_t)(s->kept_out >> card & 1);
        s->kept_out &= ~(1ULL << card);
        s->found[card_suit(card)]++;
        m->card = (uint8_t)card;
        m->flipped = (uint8_t)turn_up(s, m->src);
        break;
    case K_T2T:
        m->kept_lost = cover_top(s, m->dst);
        move_run(s, m->src, m->dst, m->count);
        m->flipped = (uint8_t)turn_up(s, m->src);
        break;
    case K_TAL:
        m->old_ptr = (uint8_t)s->ptr;
        m->old_tlen = (uint8_t)s->tlen;
        if (m->recycle) s->rec++;
        i = m->q - 1;
        card = s->talon[i];
        m->card = (uint8_t)card;
        memmove(s->talon + i, s->talon + i + 1, (size_t)(s->tlen - i - 1));
        s->tlen--;
        s->ptr = i;
        s->talh ^= Z_TAL[card];
        s->tal_mask &= ~(1ULL << card);
        if (m->dst == DST_FOUND) {
            s->found[card_suit(card)]++;
        } else {
            m->kept_lost = cover_top(s, m->dst);
            push_card(s, m->dst, card);
        }
        break;
    case K_F2T:
        card = m->src * 13 + s->found[m->src] - 1;
        m->card = (uint8_t)card;
        s->found[m->src]--;
        m->kept_lost = cover_top(s, m->dst);
        /* A card recalled onto a card is kept out (see top_goes_home). */
        if (s->len[m->dst]) s->kept_out |= 1ULL << card;
        push_card(s, m->dst, card);
        break;
    }
}

static void undo_move(State *s, const SMove *m)
{
    int i;
    switch (m->kind) {
    case K_T2F:
        if (m->flipped) turn_down(s, m->src);
        s->found[card_suit(m->card)]--;
        push_card(s, m->src, m->card);
        if (m->kept_lost) s->kept_out |= 1ULL << m->card;
        break;
    case K_T2T:
        if (m->flipped) turn_down(s, m->src);
        move_run(s, m->dst, m->src, m->count);
        uncover_top(s, m->dst, m->kept_lost);
        break;
    case K_TAL:
        if (m->dst == DST_FOUND) {
            s->found[card_suit(m->card)]--;
        } else {
            pop_card(s, m->dst);
            uncover_top(s, m->dst, m->kept_lost);
        }
        i = m->q - 1;
        memmove(s->talon + i + 1, s->talon + i, (size_t)(s->tlen - i));
        s->talon[i] = m->card;
        s->tlen++;
        s->talh ^= Z_TAL[m->card];
        s->tal_mask |= 1ULL << m->card;
        s->ptr = m->old_ptr;
        if (m->recycle) s->rec--;
        break;
    case K_F2T:
        pop_card(s, m->dst);
        s->kept_out &= ~(1ULL << m->card);
        uncover_top(s, m->dst, m->kept_lost);
        s->found[m->src]++;
        break;
    }
}

static inline int can_recycle(const State *s, const Rules *r)
{
    return r->recycles_allowed < 0 || s->rec < r->recycles_allowed;
}

/* Rule 5: with draw 1 and unlimited passes the waste pointer does not affect
 * which positions can be reached (any talon card can be brought to the waste
 * top from any pointer, by drawing on and recycling), so it is not part of
 * the state. */
static inline int pointer_matters(const Rules *r)
{
    return !(r->draw == 1 && r->recycles_allowed < 0);
}

/* Do rules 10 and 14, which assume any talon card can be played at any time,
 * apply?  They are proven for draw 1 with unlimited passes; the hasty side
 * search applies them under any stock rule, as a way to find wins sooner. */
static inline int talon_at_will(const Rules *r, const Options *o)
{
    return !pointer_matters(r) || o->hasty;
}

static uint64_t state_key(State *s, const Rules *r)
{
    /* Rule 3: a sum of per-column hashes does not depend on column order, and
     * column order never matters (every rule treats the columns alike).
     * Foundations are implied by the other piles (all 52 cards are
     * somewhere), so they need no key of their own.  The column terms are
     * kept, and only those of changed columns recomputed. */
    for (; s->stale; s->stale &= s->stale - 1) {
        int c = __builtin_ctz(s->stale);
        uint64_t term = mix64(s->colh[c] ^ Z_DOWN[s->down[c]]);
        s->cols_key += term - s->col_key[c];
        s->col_key[c] = term;
    }
    uint64_t k = s->cols_key;
    uint64_t t = s->talh;
    if (pointer_matters(r)) {
        /* Rule 9: with unlimited passes, a waste size that is a multiple of
         * the draw, or the whole talon, reaches exactly the cards a fresh
         * stock reaches (see talon_targets), so it is keyed as 0. */
        int ptr = s->ptr;
        if (r->recycles_allowed < 0 && (ptr % r->draw == 0 || ptr == s->tlen)) ptr = 0;
        t ^= Z_PTR[ptr];
    }
    if (r->recycles_allowed >= 0) t ^= mix64((uint64_t)s->rec * 0x9E3779B97F4A7C15ULL + 0x52454359ULL);
    k += mix64(t ^ 0x5DEECE66DULL);
    return k ? k : 1;
}

/* ---- safe foundation moves (rules 1 and 2) ------------------------------ */

/*
 * May `card`, the next card of its suit, go home without losing a win?
 * Let r be its rank, `opp` the lower of the two opposite-colour foundations
 * and `same` the other same-colour foundation.
 *
 * Aces and twos: always.  Nothing can be built on an ace; only aces of the
 * other colour on a two, and an ace can always go home instead.
 *
 * Recall off (Blake & Gent's rule): safe if opp >= r - 1, or if opp >= r - 2
 * and same >= r - 3.  Proof sketch: the cards that could ever be built on the
 * card, directly or through a chain, are the opposite-colour (r - 1)s and on
 * them the other same-colour (r - 2); every other candidate is already home
 * and cannot come back.  Whenever a winning line puts one of those on the
 * card (or on one of them), the line with the card home can play it to its
 * foundation instead (its predecessor is home by the two conditions), and
 * every other move of the line stays legal with these cards removed.
 *
 * Recall on: a card already home may come back and serve as a base, so the
 * chain above is not closed (a recalled black 4 on a red 5 can take a red 3
 * that is not home; the rule above would lose such wins).  Safe only if
 * opp >= r - 1 and same >= r - 2.  Proof sketch: let D be every card of rank
 * <= r - 2, the opposite-colour (r - 1)s and the card's own (r - 1).  All of
 * D is home, and any card that may be built on the card or on a card of D is
 * in D.  Take a winning line and delete every move of a card of D and of the
 * card itself (including recalls of them): no card outside D is ever put on
 * them, so every remaining move is still legal (foundations only hold more
 * cards, runs lose only D cards on their top), and the line still wins.
 */
/* The lower of the two foundations of the other colour than `card`. */
static inline int opposite_home(const State *s, int card)
{
    return card_red(card) ? (s->found[0] < s->found[3] ? s->found[0] : s->found[3])
                          : (s->found[1] < s->found[2] ? s->found[1] : s->found[2]);
}

static int is_safe(const State *s, const Rules *r, int card)
{
    int rank = card_rank(card), suit = card_suit(card);
    if (rank <= 2) return 1;
    int opp = opposite_home(s, card);
    /* Suits C D H S are 0 1 2 3: the same-colour partner of suit s is 3 - s. */
    int same = s->found[3 - suit];
    if (r->recall) return opp >= rank - 1 && same >= rank - 2;
    return opp >= rank - 1 || (opp >= rank - 2 && same >= rank - 3);
}

/*
 * Rule 12 (recall on): a card that is not safe may still go home at once,
 * from the talon with draw 1 and unlimited passes, or from the top of a
 * column where it lies face up on a card it fits on, when it is "nearly
 * safe": opp >= r - 2 and same >= r - 3, as rule 1 asks with recall off.
 *
 * Proof sketch.  Let D be the cards of its suit below it, the cards of rank
 * <= r - 2 of the other colour and those of rank <= r - 3 of the twin suit.
 * All are home, each suit's share of D is a run up from its ace, and any card
 * that may go on a card of D is in D.  So from a winning line every move of a
 * D card can be deleted, as in rule 1, and the line still wins; in it the
 * card's own predecessor never leaves home.  Now play that line with the card
 * home: until the line plays the card (or moves what it lies on, or puts
 * something on it), every move is the same (its successor cannot go home
 * before it does; rule 5: the talon's other cards can be reached as
 * before); then recall the card to wherever the line plays it (or to the
 * card it lay on), and the two positions are the same.
 */
static int nearly_safe(const State *s, int card)
{
    int rank = card_rank(card);
    return opposite_home(s, card) >= rank - 2 && s->found[3 - card_suit(card)] >= rank - 3;
}

static inline int fits_on(int card, int base)
{
    return card_rank(base) == card_rank(card) + 1 && card_red(base) != card_red(card);
}

/*
 * Keeping out (rule 12).  A card that a recall puts on a card is *kept out*
 * (State.kept_out) for as long as it tops its column: rule 12 does not send
 * it home again.  Without that, a recall onto a card that the card fits on
 * would be undone by the next step, and no line could use it.
 *
 * Why the search stays complete.  Let w(P) be the least number of moves,
 * not counting recalls onto a card, of a line that wins from P.  Sending a
 * nearly safe card c home from the card it lies on does not raise w: a
 * winning line from the position with c out is followed with c home, until
 * its first move of c or onto c; c going home is then dropped, c going onto
 * another card becomes a recall there, and before a card goes onto c, c is
 * recalled onto the card it lay on.  From then on c is kept out, so the two
 * lines meet.  From any position the search enters, every recall onto a
 * card is tried (rule 2 aside, whose proof is rule 1's), and the recalled
 * cards stay out together, however many, until the line covers them; so the
 * search meets each winning line's first move that is not such a recall,
 * and w falls by one.
 *
 * Rule 13, removed.  It sent the next card of its suit home from any card it
 * fitted on (a recall puts it back), and after a recall onto a card it tried
 * only the moves that need the recalled card, since "any other move is also
 * a move of the position before the recall, and after it the card goes home
 * again".  That step was false: the position before the recall may itself
 * have been entered by a recall, and try only the moves that need its own
 * card, so the two restrictions sent each other round in a circle.  With the
 * ten of spades recalled onto a red jack, the nine of hearts onto the ten
 * and the nine of spades onto the ten of hearts must both be out before the
 * eight of spades can come back onto the nine of hearts; after either recall
 * the other needs nothing the first put out, and was dropped.  Besides, a
 * card recalled onto a card went home again at the next step (nothing kept
 * it out), so two such cards could never lie out at once.  Deal
 * GuZETjDXmm2KYEXxs3R2nWKR5urtqB1PCDGQQcr (draw 1) was called lost.  Without
 * its restriction, and with keeping out, the rule is sound, but it cost
 * nodes (first 300 draw-1 deals: 37.1 M with it, 33.2 M without), so it went.
 */
/* Does the next card of its suit, the top of column c, go home at once?
 * 0 if not, else the rule that sends it (1 or 12). */
static int top_goes_home(const State *s, const Rules *r, const Options *o, int c, int card)
{
    if (is_safe(s, r, card)) return 1;
    if (!r->recall || (s->kept_out >> card & 1)) return 0;
    int len = s->len[c];
    if (len - 1 <= s->down[c] || !fits_on(card, s->col[c][len - 2])) return 0;
    return (o->prune & PRUNE_NEARLY_SAFE) && nearly_safe(s, card) ? 12 : 0;
}

/* ---- transposition table ------------------------------------------------- */

typedef struct {
    uint64_t *keys;
    size_t mask, count;
} Table;

/* A zeroed array of `cap` keys, freed by keys_free.  Large ones are mapped
 * straight from the kernel, so that freeing returns them (malloc would keep
 * them for later and the process would grow), and on huge pages where the
 * system offers them: each lookup is a random access, and with small pages
 * most would also miss the address translation cache. */
#define HUGE_PAGE ((size_t)2 << 20)

/* Is an array of `cap` keys mapped from the kernel (else malloc'd)? */
static int keys_mapped(size_t cap)
{
#ifdef MAP_TABLES
    size_t bytes = cap * sizeof(uint64_t);
    return bytes >= HUGE_PAGE && bytes % HUGE_PAGE == 0;
#else
    (void)cap;
    return 0;
#endif
}

/* Return one huge page of a mapped key array to the kernel (its keys are
 * no longer needed; keys_free still unmaps the whole array). */
static void keys_give_back(uint64_t *page)
{
#ifdef MAP_TABLES
    munmap(page, HUGE_PAGE);
#else
    (void)page;
#endif
}

static uint64_t *keys_alloc(size_t cap)
{
    size_t bytes = cap * sizeof(uint64_t);
#ifdef MAP_TABLES
    if (keys_mapped(cap)) {
        /* Map a huge page more and trim it to a huge-page boundary. */
        uint8_t *p = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        size_t head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
        if (head) munmap(p, head);
        if (HUGE_PAGE - head) munmap(p + head + bytes, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
        madvise(p + head, bytes, MADV_HUGEPAGE);
#endif
        return (uint64_t *)(p + head);
    }
#endif
    return calloc(cap, sizeof(uint64_t));
}

static void keys_free(uint64_t *keys, size_t cap)
{
#ifdef MAP_TABLES
    if (keys && keys_mapped(cap)) {
        munmap(keys, cap * sizeof(uint64_t));
        return;
    }
#endif
    free(keys);
}

static int tt_init(Table *t, size_t cap)
{
    t->keys = keys_alloc(cap);
    t->mask = cap - 1;
    t->count = 0;
    return t->keys != NULL;
}

#ifndef PREFETCH_SLOTS
#define PREFETCH_SLOTS ((size_t)1 << 21) /* 16 MB of keys: more than the caches hold */
#endif

/* 1: inserted, 0: already present, -1: no memory left within the budget. */
static int tt_insert(Table *t, uint64_t key, size_t budget, size_t *used)
{
    size_t cap = t->mask + 1;
    /* Grow at 3/4 full (linear probing slows down sharply beyond). */
    size_t full = cap / 4 * 3;
    if (t->count + 1 > full) {
        size_t bytes = 2 * cap * sizeof(uint64_t);
        uint64_t *keys = NULL;
        if (*used - cap * sizeof(uint64_t) + bytes <= budget)
            keys = keys_alloc(2 * cap);
        if (keys) {
            /* A key in slot i goes to about i or cap + i, so the new table's
             * pages are touched in order, and a mapped old table gives back
             * each huge page once read: the process never holds both tables
             * whole (the peak is the new table, not one and a half times it). */
            size_t mask = 2 * cap - 1, page = HUGE_PAGE / sizeof(uint64_t);
            int give_back = keys_mapped(cap);
            for (size_t i = 0; i < cap; i++) {
                uint64_t k = t->keys[i];
                if (k) {
                    size_t j = (size_t)k & mask;
                    while (keys[j]) j = (j + 1) & mask;
                    keys[j] = k;
                }
                if (give_back && (i + 1) % page == 0) keys_give_back(t->keys + i + 1 - page);
            }
            keys_free(t->keys, cap);
            t->keys = keys;
            t->mask = mask;
            *used = *used - cap * sizeof(uint64_t) + bytes;
        } else if ((t->count + 1) * 20 > cap * 19) {
            return -1;
        }
    }
    size_t j = (size_t)key & t->mask;
    while (t->keys[j]) {
        if (t->keys[j] == key) return 0;
        j = (j + 1) & t->mask;
    }
    t->keys[j] = key;
    t->count++;
    return 1;
}

/* ---- the search ----------------------------------------------------------- */

typedef struct {
    size_t mstart, mcount, mnext, path_base;
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
    SMove *moves;
    size_t mcap, mlen;
    SMove *path;
    size_t pcap, plen;
    Frame *frames;
    size_t fcap, flen;
    uint64_t nodes, node_limit;
    uint64_t probe_nodes; /* nodes of the probes (see solve_portfolio) */
    uint64_t pause_at;    /* pause when nodes reach this (0: never) */
    int started;
    double t0;       /* when the search began */
    double deadline; /* seconds allowed, < 0: none */
    size_t budget, used;
    int limit;
    int pending; /* rule 10: the talon card the step being entered put on a column, or -1 */
    int after_recall; /* the step being entered recalled a card onto a card */
    int successor; /* rule 14: after a talon card went home, the next of its suit, or -1 */
} Search;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Grow `*array` (of `size`-byte items) to hold at least `need` items. */
static int reserve(Search *x, void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 1;
    size_t ncap = *cap ? *cap : 64;
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

/* Play every safe foundation move (rules 1, 5, 6).  0 on memory failure. */
static int play_safe_moves(Search *x)
{
    State *s = &x->s;
    const Rules *r = &x->r;
    const Options *o = &x->o;
    int progress = (o->prune & PRUNE_SAFE_MOVES) != 0;
    while (progress) {
        progress = 0;
        uint64_t next = 0;
        for (int suit = 0; suit < 4; suit++)
            if (s->found[suit] < 13) next |= 1ULL << (13 * suit + s->found[suit]);
        for (uint64_t tops = s->top_mask & next; tops; tops &= tops - 1) {
            int card = __builtin_ctzll(tops);
            int rule = top_goes_home(s, r, o, s->at_col[card], card);
            if (rule) {
                FIRE(o, rule);
                SMove m = {0};
                m.kind = K_T2F;
                m.src = (uint8_t)s->at_col[card];
                m.dst = DST_FOUND;
                m.count = 1;
                if (!play(x, m)) return 0;
                progress = 1;
            }
        }
        if (r->draw != 1 || !s->tlen) continue;
        /* Rule 6 (draw 1): a safe waste top goes home.  A winning line from
         * the position with the card still in the waste maps to one from the
         * position without it: skip the card's own moves and, later, the
         * single draw that would turn it; with draw 1 every other draw turns
         * the same card in both lines and the recycles match.
         * Rule 5 (draw 1, unlimited passes): the same for any talon card,
         * since the pointer does not matter (see pointer_matters). */
        if (!(s->tal_mask & next)) continue;
        int lo = r->recycles_allowed < 0 ? 0 : s->ptr - 1;
        int hi = r->recycles_allowed < 0 ? s->tlen - 1 : s->ptr - 1;
        for (int i = lo >= 0 ? lo : 0; i <= hi && lo >= 0; i++) {
            int card = s->talon[i];
            int rule = !(next >> card & 1) ? 0
                     : is_safe(s, r, card) ? (pointer_matters(r) ? 6 : 5)
                     : r->recycles_allowed < 0 && r->recall && (o->prune & PRUNE_NEARLY_SAFE)
                       && nearly_safe(s, card) ? 12 : 0;
            if (rule) {
                FIRE(o, rule);
                SMove m = {0};
                m.kind = K_TAL;
                m.q = (uint8_t)(i + 1);
                m.recycle = (uint8_t)(i + 1 < s->ptr);
                m.dst = DST_FOUND;
                m.count = 1;
                if (!play(x, m)) return 0;
                progress = 1;
                break;
            }
        }
    }
    return 1;
}

/* ---- dead ends (rule 8) --------------------------------------------------- */

/*
 * Rule 8: a position is dropped when some card can provably never go home.
 * The test is a relaxation: for every card it over-approximates which events
 * can ever happen, ignoring when they happen, as the least solution of
 *
 *   X(c)  c, in the tableau, is ever the top card: it is the top now, or the
 *         card a directly above it ever leaves (M(a)).  A card stays on the
 *         card below it until it is moved as the first card of a run, so
 *         this is necessary wherever c is by then.
 *   A(c)  c is ever the top of a column, so a card may go on it: X(c) for a
 *         tableau card; for a talon card, or with recall a foundation card,
 *         it must first be put on a column: P(c) or K(c); and a foundation
 *         card only once the card on it there has come back: A(c + 1).
 *   P(c)  A(p) for one of the two cards p that c may go on.
 *   K(c)  c may go into an empty column (a King, or any card by the rules)
 *         and E: a column is empty now, or the first card of some column
 *         ever leaves (M(b)).
 *   H(c)  c ever goes home: its predecessor ever goes home (or c is an Ace),
 *         and c is in the talon, or X(c).
 *   M(c)  c, in the tableau, is ever moved as the first card of a run: it
 *         goes home (H(c)), or it is free to move (it is face up, so what is
 *         on it moves with it, or it is the top, or M of the card above it)
 *         and P(c) or K(c).
 *
 * Every event of a real line of play makes its own formula true at the time
 * it happens, by the conditions it needed then, so by induction over the
 * line every event that can happen is in the least solution.  If H is false
 * for a card, no line from here wins.  The solution is computed by repeating
 * the formulas from "nothing happens" until nothing changes (they are
 * monotone, so this reaches the least solution).
 */
#define SUIT_MASK(suit) (((1ULL << 13) - 1) << (13 * (suit)))
#define RANK_MASK(rank) (0x0008004002001ULL << ((rank) - 1)) /* the four cards of a rank */

/* The cards with a card of `avail` one rank up and of the other colour. */
static inline uint64_t parent_in(uint64_t avail)
{
    /* Card suit * 13 + rank - 1 goes on rank + 1 of two suits: from a club
     * the diamond is 14 cards on and the heart 27; and so on per suit. */
    uint64_t p = (SUIT_MASK(0) & ((avail >> 14) | (avail >> 27)))
               | (SUIT_MASK(1) & ((avail << 12) | (avail >> 27)))
               | (SUIT_MASK(2) & ((avail << 25) | (avail >> 14)))
               | (SUIT_MASK(3) & ((avail << 25) | (avail << 12)));
    return p & ~RANK_MASK(13);
}

/* Per suit, the cards of the longest run up from the ace that lies in `cards`
 * (adding one at each suit's ace clears exactly that run).  Even and odd
 * suits apart, so a carry out of a full suit lands in a masked-off one. */
static inline uint64_t runs_from_aces(uint64_t cards)
{
    const uint64_t even = SUIT_MASK(0) | SUIT_MASK(2), odd = SUIT_MASK(1) | SUIT_MASK(3);
    const uint64_t e = cards & even, o = cards & odd;
    return (e & ~(e + (RANK_MASK(1) & even))) | (o & ~(o + (RANK_MASK(1) & odd)));
}

/* The least solution above: returns H, and sets *bases to A.  Card `frozen`
 * (a mask of at most one tableau card, or 0) never goes on a column: its M
 * is H alone (see rule 15).  Stops early, with a partial solution, once H
 * meets `stop`. */
static uint64_t home_reach(const State *s, const Rules *r, uint64_t frozen, uint64_t stop,
                           uint64_t *bases)
{
    const uint64_t all = (1ULL << 52) - 1, aces = RANK_MASK(1), kings = RANK_MASK(13);
    const uint64_t talon = s->tal_mask;
    uint64_t home = 0, home_tops = 0;
    for (int suit = 0; suit < 4; suit++) {
        home |= (((1ULL << s->found[suit]) - 1)) << (13 * suit);
        if (s->found[suit]) home_tops |= 1ULL << (13 * suit + s->found[suit] - 1);
    }
    /* Face-up cards are uncovered once the card on them moves.  In a run the
     * card on c is c - 14, c + 25, c - 27 or c + 12 (one rank down, the other
     * colour), so "the card on it moves" is four shifts of M; any other pair
     * (a position given by hand) is kept apart.  Face-down cards are taken
     * one by one below. */
    uint64_t face_up = 0, on14 = 0, on27 = 0, on_12 = 0, on_25 = 0, bottoms = 0;
    uint8_t odd_card[MAXC], odd_above[MAXC];
    int n_odd = 0, empty = 0, next_down[NCOLS];
    unsigned walking = 0; /* the columns with face-down cards left to walk */
    for (int c = 0; c < NCOLS; c++) {
        int len = s->len[c], down = s->down[c];
        next_down[c] = down - 1;
        if (down) walking |= 1u << c;
        if (!len) { empty = 1; continue; }
        bottoms |= 1ULL << s->col[c][0];
        for (int i = down; i < len - 1; i++) {
            int card = s->col[c][i], above = s->col[c][i + 1];
            uint64_t bit = 1ULL << card;
            switch (card - above) {
            case 14: on14 |= bit; break;
            case 27: on27 |= bit; break;
            case -12: on_12 |= bit; break;
            case -25: on_25 |= bit; break;
            default: odd_card[n_odd] = (uint8_t)card; odd_above[n_odd++] = (uint8_t)above;
            }
        }
        face_up |= s->col_mask[c];
    }
    face_up &= ~s->down_mask;
    /* The column tops are uncovered now (X), and so bases (A). */
    uint64_t H = home, A = s->top_mask, M = 0, X = s->top_mask;
    for (;;) {
        /* The talon and foundation cards first, to their own fixpoint: the
         * chains through them need no column. */
        uint64_t place;
        for (;;) {
            place = parent_in(A) | (empty ? (r->any_empty ? all : kings) : 0);
            /* A foundation card comes back only after the cards on it. */
            uint64_t a = A | (talon & place)
                       | (r->recall ? home & place & (home_tops | (A >> 1)) : 0);
            /* H is a run up from the ace in each suit: it grows by the
             * talon and uncovered cards that continue it. */
            uint64_t h = runs_from_aces(H | talon | X);
            if (a == A && h == H) break;
            A = a;
            H = h;
        }
        if (H & stop) break;
        uint64_t ready = aces | ((H << 1) & ~aces), old_x = X, old_m = M, old_h = H;
        int old_empty = empty;
        /* A face-up card moves with the run on it. */
        M |= (H | (place & ~frozen)) & face_up;
        X |= (on14 & (M << 14)) | (on27 & (M << 27)) | (on_12 & (M >> 12)) | (on_25 & (M >> 25));
        for (int k = 0; k < n_odd; k++)
            if (M >> odd_above[k] & 1) X |= 1ULL << odd_card[k];
        /* Down each column's face-down cards while the card above moves. */
        for (unsigned w = walking; w; w &= w - 1) {
            int c = __builtin_ctz(w), i = next_down[c];
            if (i + 1 < s->len[c] && !(M >> s->col[c][i + 1] & 1)) continue;
            for (; i >= 0; i--) {
                uint64_t bit = 1ULL << s->col[c][i];
                X |= bit;
                H |= bit & ready;
                uint64_t moves = (H | (place & ~frozen)) & bit;
                M |= moves;
                if (!moves) break;
            }
            next_down[c] = i;
            if (i < 0) walking &= ~(1u << c);
        }
        A |= X;
        H |= X & ready;
        empty |= (M & bottoms) != 0;
        /* The next round's first step has nothing new to start from. */
        if (H == all || (H & stop)
            || (X == old_x && M == old_m && H == old_h && empty == old_empty))
            break;
    }
    *bases = A;
    return H;
}

/* Does a card of `cards` lie in column c below height i? */
static int buried_below(const State *s, uint64_t cards, int c, int i)
{
    for (; cards; cards &= cards - 1) {
        int card = __builtin_ctzll(cards);
        if (s->at_col[card] == c && s->at_idx[card] < i) return 1;
    }
    return 0;
}

/*
 * Rule 15 (only kings go into empty columns): twin locks.  Let b, not a king,
 * lie face down, and its twin a (same rank and colour) lie above it in the
 * same column with only face-down cards between, so a must move, as the
 * first card of a run, before b can move.  The twins go on the same two
 * cards, P.  Take the relaxation above with b never put on a column (b is
 * "frozen"): it covers every event of a line up to b's first move to a
 * column.  Suppose that in it neither a nor b ever goes home.  Then b, which
 * must go home some time, first goes on a column, on a card of P (an empty
 * column takes only kings); and before that a left b, not for home, so for
 * a card of P too.  The position is lost when, in the relaxation,
 *   1. at most one card p of P is ever a base.  Then a goes on p, and when b
 *      goes on p later, a has left p again, neither for home nor for another
 *      base: impossible.
 *   2. or both are, but b is not a queen (so P holds no king), neither card
 *      of P lies in the tableau now, and at most one card q of those they go
 *      on (the twins Q, one rank up again) is ever a base.  A card of P is
 *      then on a column only while it lies on q, so at most one at a time.
 *      a goes on one, p; while a is on p, p cannot leave q (only for home,
 *      or the other card of Q), so a could only move on to the other card of
 *      P, which is not on a column then: a stays on p, p stays on q, and b
 *      never finds a base.
 */
static int twin_locked(const State *s, const Rules *r)
{
    if (r->any_empty) return 0;
    for (int c = 0; c < NCOLS; c++) {
        int down = s->down[c];
        for (int i = 0; i < down; i++) {
            int b = s->col[c][i], a = twin_of(b), rank = card_rank(b);
            if (rank == 13 || s->at_col[a] != c || s->at_idx[a] <= i || s->at_idx[a] > down)
                continue;
            /* P, one rank up in the other colour, and Q, one more up. */
            int p_suit = card_red(b) ? 0 : 1, q_suit = 1 - p_suit;
            int p1 = p_suit * 13 + rank, p2 = (3 - p_suit) * 13 + rank;
            uint64_t p = 1ULL << p1 | 1ULL << p2;
            uint64_t q = rank == 12 ? 0
                       : 1ULL << (q_suit * 13 + rank + 1) | 1ULL << ((3 - q_suit) * 13 + rank + 1);
            /* Each test costs a relaxation, and nearly all the locks met in
             * play have a card of P or Q under b, never a base while b
             * stays: test only those (skipping a test only keeps a
             * position). */
            if (!buried_below(s, p | q, c, i)) continue;
            uint64_t pair = 1ULL << a | 1ULL << b, bases;
            if (home_reach(s, r, 1ULL << b, pair, &bases) & pair) continue;
            if (__builtin_popcountll(bases & p) <= 1) return 1;
            if (q && s->at_col[p1] < 0 && s->at_col[p2] < 0 && __builtin_popcountll(bases & q) <= 1)
                return 1;
        }
    }
    return 0;
}

static int hopeless(const State *s, const Rules *r, const Options *o)
{
    uint64_t bases;
    if (home_reach(s, r, 0, 0, &bases) != (1ULL << 52) - 1) {
        FIRE(o, 8);
        return 1;
    }
    if ((o->prune & PRUNE_TWIN_LOCKS) && twin_locked(s, r)) {
        FIRE(o, 15);
        return 1;
    }
    return 0;
}

/* ---- twins (rule 7) ------------------------------------------------------- */

/*
 * Rule 7 (partial runs allowed).  Two cards of the same rank and colour are
 * twins: any card that may go on one may go on the other.  When both are face
 * up in the tableau, one is the top of its column and a run U lies on the
 * other, moving U onto the exposed twin is legal, and so is moving it back:
 * the two positions can reach each other, so they are equally winnable.  The
 * search keeps only the one with U on the twin of lower card number, moving U
 * there (and recording the move) whenever a step leaves it on the other.
 * What the other arrangement allowed at once is generated as a two-move step
 * from the kept one: U moves back to the higher twin and then the lower twin
 * goes home, or a card goes onto the lower twin.  Every other move of the
 * other arrangement has a counterpart leading to the same kept position (a
 * run ending in a twin moves with or without U on top; U or part of it moves
 * alike from either twin).
 */

typedef struct {
    int low, col_low, idx_low; /* the covered twin (lower card number) */
    int col_high;              /* the column the exposed twin tops */
} TwinPair;

/* The column topped by the lowest card that is a lower twin (club or
 * diamond) whose twin lies face up under other cards, or -1. */
static int twin_to_normalize(const State *s)
{
    uint64_t tableau = 0;
    for (int c = 0; c < NCOLS; c++) tableau |= s->col_mask[c];
    /* Hearts and spades face up under other cards, as their twins. */
    uint64_t covered = tableau & ~s->down_mask & ~s->top_mask;
    uint64_t lows = ((covered & SUIT_MASK(3)) >> 39) | ((covered & SUIT_MASK(2)) >> 13);
    lows &= s->top_mask;
    return lows ? s->at_col[__builtin_ctzll(lows)] : -1;
}

/* Move runs so that no run lies on a higher twin whose lower twin is
 * exposed.  0 on memory failure. */
static int normalize_twins(Search *x)
{
    State *s = &x->s;
    for (int cl; (cl = twin_to_normalize(s)) >= 0;) {
        int high = twin_of(s->col[cl][s->len[cl] - 1]), ch = s->at_col[high];
        SMove m = {0};
        m.kind = K_T2T; m.src = (uint8_t)ch; m.dst = (uint8_t)cl;
        m.count = (uint8_t)(s->len[ch] - 1 - s->at_idx[high]);
        FIRE(&x->o, 7);
        if (!play(x, m)) return 0;
    }
    return 1;
}

/* Pairs kept by normalize_twins with a run on the lower twin. */
static int twin_pairs(const State *s, TwinPair *out)
{
    uint64_t tableau = 0;
    for (int c = 0; c < NCOLS; c++) tableau |= s->col_mask[c];
    /* Clubs and diamonds face up under other cards, and the twins of the
     * hearts and spades that top columns. */
    uint64_t covered = tableau & ~s->down_mask & ~s->top_mask & (SUIT_MASK(0) | SUIT_MASK(1));
    uint64_t exposed = ((s->top_mask & SUIT_MASK(3)) >> 39) | ((s->top_mask & SUIT_MASK(2)) >> 13);
    int n = 0;
    for (uint64_t lows = covered & exposed; lows; lows &= lows - 1) {
        int low = __builtin_ctzll(lows);
        out[n].low = low; out[n].col_low = s->at_col[low]; out[n].idx_low = s->at_idx[low];
        out[n].col_high = s->at_col[twin_of(low)];
        n++;
    }
    return n;
}

/* Waste sizes reachable by drawing from the current pointer (recycle 0) and,
 * when a recycle is allowed, after one recycle (recycle 1).  A size reachable
 * both ways is listed once, without the recycle. */
static int talon_targets(const State *s, const Rules *r, uint8_t *qs, uint8_t *recs)
{
    int n = s->tlen, d = r->draw, count = 0, q;
    uint64_t seen = 0;
    if (!n) return 0;
    q = s->ptr;
    if (q > 0) {
        qs[count] = (uint8_t)q; recs[count++] = 0; seen |= 1ULL << q;
    }
    while (q < n) {
        q = q + d < n ? q + d : n;
        qs[count] = (uint8_t)q; recs[count++] = 0; seen |= 1ULL << q;
    }
    if (can_recycle(s, r)) {
        q = 0;
        while (q < n) {
            q = q + d < n ? q + d : n;
            if (!(seen >> q & 1)) { qs[count] = (uint8_t)q; recs[count++] = 1; }
        }
    }
    return count;
}

static int first_empty(const State *s)
{
    for (int c = 0; c < NCOLS; c++)
        if (!s->len[c]) return c;
    return -1;
}

/*
 * Rule 10 (draw 1, unlimited passes, where any talon card can be played at
 * any time: see rule 5).  When a winning line puts talon card c on a column
 * (on a card p, or into an empty column), let u be the next move that puts
 * a card or run on c or moves c.  Every move in between is legal with c
 * still in the talon: none touches c or puts a card on p, a run that carried
 * p carries the same cards but c, and the talon cards they play are still
 * within reach.  So the line may put c there just before u instead.  If u
 * moves c on (to a column or home), c can go there straight from the talon,
 * and the line is shorter.  So a winnable position has a winning line of
 * least length in which each talon card put on a column is at once covered
 * by the next move, and the search, after such a step, tries only the moves
 * that put a card or run on c (this node is then not stored in the table:
 * with the waste pointer ignored it has one parent, and nothing else leads
 * to it).  Putting c on a column makes no card safe, so no other move is
 * played with it; if the twin normalization covers c at once, c has been
 * used and the rule lifts.  Guards keep the other rules from
 * pruning any such move here: the rule is off when c's twin lies face up
 * under other cards (rule 7 drops moving those onto c; when c is the lower
 * twin, they are moved onto c at once and c is covered anyway) or a safe
 * foundation card fits on c (rule 2 drops its recall).
 */
static int pending_applies(const State *s, const Rules *r, int card)
{
    /* Rule 7 drops moves of a run from c's twin onto c, face up under it. */
    int twin = twin_of(card), tc = s->at_col[twin];
    if (tc >= 0 && s->at_idx[twin] >= s->down[tc] && s->at_idx[twin] < s->len[tc] - 1)
        return 0;
    /* Rule 2 drops recalls of safe cards. */
    if (r->recall && card_rank(card) > 1) {
        int rank = card_rank(card) - 1, lo = card_red(card) ? 0 : 1, hi = card_red(card) ? 3 : 2;
        if (s->found[lo] == rank && is_safe(s, r, lo * 13 + rank - 1)) return 0;
        if (s->found[hi] == rank && is_safe(s, r, hi * 13 + rank - 1)) return 0;
    }
    return 1;
}

/* May anything go on `card` next: a run headed by a card that fits on it,
 * such a talon card, or such a card recalled?  (Rule 10: if not, putting the
 * talon card on a column leads nowhere, and is not generated.) */
static int anything_fits_on(const State *s, const Rules *r, int card)
{
    int rank = card_rank(card);
    if (rank == 1) return 0;
    int suits[2] = {card_red(card) ? 0 : 1, card_red(card) ? 3 : 2};
    for (int k = 0; k < 2; k++) {
        int fit = suits[k] * 13 + rank - 2, c = s->at_col[fit];
        if (s->tal_mask >> fit & 1) return 1;
        if (c >= 0 && s->at_idx[fit] >= s->down[c] && (r->partial || s->at_idx[fit] == s->down[c]))
            return 1;
        if (c < 0 && r->recall && s->found[suits[k]] == rank - 1) return 1;
    }
    return 0;
}

/* Rule 10: putting talon card `card` on a column leads nowhere, since
 * nothing could go on it next. */
static int talon_card_stuck(const State *s, const Rules *r, const Options *o, int card)
{
    if (!((o->prune & PRUNE_COVER_TALON) && talon_at_will(r, o) && !anything_fits_on(s, r, card)
          && pending_applies(s, r, card)))
        return 0;
    FIRE(o, 10);
    return 1;
}

/* The recalls of the top card of `suit`'s foundation (rule 2: not a safe
 * one) onto every column it may go to; `empty` is the first empty column. */
static int recalls_of(const State *s, const Rules *r, const Options *o, int suit, int empty,
                      SMove *out)
{
    int n = 0, card = suit * 13 + s->found[suit] - 1;
    if (!s->found[suit]) return 0;
    if ((o->prune & PRUNE_SAFE_MOVES) && is_safe(s, r, card)) {
        FIRE(o, 2);
        return 0;
    }
    for (int d = 0; d < NCOLS; d++) {
        if (s->len[d] ? fits_on(card, s->col[d][s->len[d] - 1])
                      : d == empty && (r->any_empty || card_rank(card) == 13)) {
            SMove m = {0};
            m.kind = K_F2T; m.src = (uint8_t)suit; m.dst = (uint8_t)d; m.count = 1;
            m.card = (uint8_t)card;
            out[n++] = m;
        }
    }
    return n;
}

static void sort_moves(SMove *out, int n)
{
    /* Best first (stable insertion sort on score). */
    for (int i = 1; i < n; i++) {
        SMove v = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].score < v.score) { out[j + 1] = out[j]; j--; }
        out[j + 1] = v;
    }
}

#define MAX_GEN 2048 /* bound: 7 + 312 + 416 + 28 moves, and 26 * 17 two-move steps */

/* The search's moves (with rules 2-4 and 7) into out; returns their count. */
static int gen_moves(const State *s, const Rules *r, const Options *o, SMove *out)
{
    int n = 0, empty = first_empty(s);
    SMove m;
    /* Tableau to foundation. */
    for (int c = 0; c < NCOLS; c++) {
        if (!s->len[c]) continue;
        int len = s->len[c];
        int card = s->col[c][len - 1];
        if (card_rank(card) != s->found[card_suit(card)] + 1) continue;
        int progress = len == 1 || len - 1 == s->down[c];
        memset(&m, 0, sizeof m);
        m.kind = K_T2F; m.src = (uint8_t)c; m.dst = DST_FOUND; m.count = 1;
        m.card = (uint8_t)card;
        m.score = (int16_t)(progress && len > 1 ? 100 + s->down[c] : 30);
        out[n++] = m;
    }
    /* Tableau to tableau: each face-up card that may head a run looks up
     * the columns topped by the two cards it may go on. */
    int8_t top_col[52];
    memset(top_col, -1, sizeof top_col);
    for (int d = 0; d < NCOLS; d++)
        if (s->len[d]) top_col[s->col[d][s->len[d] - 1]] = (int8_t)d;
    /* The cards that have somewhere to go: a column top to go on, or an
     * empty column. */
    uint64_t movers = parent_in(s->top_mask);
    if (empty >= 0) movers |= r->any_empty ? ~0ULL : RANK_MASK(13);
    for (int c = 0; c < NCOLS; c++) {
        int len = s->len[c], down = s->down[c];
        if (!len || !(s->col_mask[c] & movers)) continue;
        int last = r->partial ? len : down + 1;
        for (int i = down; i < last; i++) {
            int card = s->col[c][i], rank = card_rank(card);
            if (!(movers >> card & 1)) continue;
            int dests[3], nd = 0;
            if (rank < 13) {
                /* The cards one rank up of the other colour. */
                int lo = card_red(card) ? 0 : 1, hi = card_red(card) ? 3 : 2;
                if (top_col[lo * 13 + rank] >= 0) dests[nd++] = top_col[lo * 13 + rank];
                if (top_col[hi * 13 + rank] >= 0) dests[nd++] = top_col[hi * 13 + rank];
            }
            /* Rules 3 and 4: only the first empty column, and never a whole
             * column with nothing face down. */
            if (empty >= 0 && i > 0 && (r->any_empty || rank == 13)) dests[nd++] = empty;
            for (int k = 0; k < nd; k++) {
                int d = dests[k], to_empty = !s->len[d];
                if (d == c) continue;
                if (!to_empty && i > down && (o->prune & PRUNE_TWINS) && r->partial
                    && s->col[c][i - 1] == twin_of(s->col[d][s->len[d] - 1])) {
                    FIRE(o, 7); /* a run moved between twins is undone by the normalization */
                    continue;
                }
                memset(&m, 0, sizeof m);
                m.kind = K_T2T; m.src = (uint8_t)c; m.dst = (uint8_t)d;
                m.count = (uint8_t)(len - i);
                m.score = (int16_t)(i > down ? (to_empty ? 5 : 10)
                                    : down ? (to_empty ? 80 : 90) + down : 40);
                out[n++] = m;
            }
        }
    }
    /* Talon (waste after k draws) to foundation and tableau. */
    uint8_t qs[2 * MAXC + 2], recs[2 * MAXC + 2];
    int nt = talon_targets(s, r, qs, recs);
    /* The talon cards with somewhere to go: home, a column top, an empty
     * column. */
    uint64_t goers = movers;
    for (int suit = 0; suit < 4; suit++)
        if (s->found[suit] < 13) goers |= 1ULL << (13 * suit + s->found[suit]);
    for (int t = 0; t < nt; t++) {
        int card = s->talon[qs[t] - 1];
        if (!(goers >> card & 1)) continue;
        int penalty = recs[t] ? 8 : 0;
        memset(&m, 0, sizeof m);
        m.kind = K_TAL; m.q = qs[t]; m.recycle = recs[t]; m.count = 1;
        m.card = (uint8_t)card;
        if (card_rank(card) == s->found[card_suit(card)] + 1) {
            m.dst = DST_FOUND;
            m.score = (int16_t)(60 - penalty);
            out[n++] = m;
        }
        int dests[3], nd = 0, rank = card_rank(card);
        if (rank < 13) {
            int lo = card_red(card) ? 0 : 1, hi = card_red(card) ? 3 : 2;
            if (top_col[lo * 13 + rank] >= 0) dests[nd++] = top_col[lo * 13 + rank];
            if (top_col[hi * 13 + rank] >= 0) dests[nd++] = top_col[hi * 13 + rank];
        }
        if (empty >= 0 && (r->any_empty || rank == 13)) dests[nd++] = empty;
        if (nd && talon_card_stuck(s, r, o, card)) nd = 0;
        for (int k = 0; k < nd; k++) {
            m.dst = (uint8_t)dests[k];
            m.score = (int16_t)(50 - penalty);
            out[n++] = m;
        }
    }
    /* Foundation to tableau. */
    /* Rule 2: a card that would be safe to play home from the tableau is
     * not recalled: that cannot help (the position after the recall is no
     * better than the one it came from, by rule 1's proof). */
    if (r->recall)
        for (int suit = 0; suit < 4; suit++) n += recalls_of(s, r, o, suit, empty, out + n);
    /* Rule 7: two-move steps from the other twin arrangement. */
    if ((o->prune & PRUNE_TWINS) && r->partial) {
        TwinPair tp[26];
        int np = twin_pairs(s, tp), base_n = n;
        for (int p = 0; p < np; p++) {
            int c = tp[p].col_low, h = tp[p].col_high;
            SMove pre = {0};
            pre.pre_src = (uint8_t)c; pre.pre_dst = (uint8_t)h;
            pre.pre_count = (uint8_t)(s->len[c] - 1 - tp[p].idx_low);
            if (card_rank(tp[p].low) == s->found[card_suit(tp[p].low)] + 1) {
                m = pre;
                m.kind = K_T2F; m.src = (uint8_t)c; m.dst = DST_FOUND; m.count = 1;
                m.card = (uint8_t)tp[p].low;
                m.score = 29;
                out[n++] = m;
            }
            for (int i = 0; i < base_n; i++) {
                m = out[i];
                if (m.dst != h || (m.kind == K_T2T && (m.src == c || m.src == h))
                    || m.kind == K_T2F || (m.kind == K_TAL && m.dst == DST_FOUND))
                    continue;
                m.pre_src = pre.pre_src; m.pre_dst = pre.pre_dst; m.pre_count = pre.pre_count;
                m.dst = (uint8_t)c;
                m.score = (int16_t)(m.score - 1);
                out[n++] = m;
            }
        }
    }
    if (o->seed) {
        uint64_t st = o->seed ^ (s->talh * 31 + s->colh[0] + s->colh[3]);
        for (int i = 0; i < n; i++) out[i].score = (int16_t)(out[i].score + (int)(splitmix(&st) % 24));
    }
    sort_moves(out, n);
    return n;
}

/* Rule 14's one move: `card` (the next of its suit) goes home from the top
 * of its column, from under a run that moves onto its exposed twin first
 * (rule 7), or from the talon.  The same as gen_moves's foundation moves of
 * the card, without building the others. */
static int successor_moves(const State *s, const Rules *r, const Options *o, int card,
                           SMove *out)
{
    SMove m = {0};
    m.dst = DST_FOUND; m.count = 1; m.card = (uint8_t)card;
    int c = s->at_col[card];
    if (c >= 0) {
        int i = s->at_idx[card], len = s->len[c], twin = twin_of(card), h = s->at_col[twin];
        m.kind = K_T2F; m.src = (uint8_t)c;
        if (i == len - 1) {
            out[0] = m;
            return 1;
        }
        if ((o->prune & PRUNE_TWINS) && r->partial && i >= s->down[c] && card_suit(card) < 2 && h >= 0
            && s->at_idx[twin] == s->len[h] - 1) {
            m.pre_src = (uint8_t)c; m.pre_dst = (uint8_t)h; m.pre_count = (uint8_t)(len - 1 - i);
            out[0] = m;
            return 1;
        }
    } else if (s->tal_mask >> card & 1) {
        m.kind = K_TAL;
        if (!pointer_matters(r)) {
            const uint8_t *at = memchr(s->talon, card, (size_t)s->tlen);
            m.q = (uint8_t)(at - s->talon + 1); m.recycle = (uint8_t)(m.q < s->ptr);
            out[0] = m;
            return 1;
        }
        /* (The hasty side search: only if the card is within reach.) */
        uint8_t qs[2 * MAXC + 2], recs[2 * MAXC + 2];
        int nt = talon_targets(s, r, qs, recs);
        for (int t = 0; t < nt; t++)
            if (s->talon[qs[t] - 1] == card) {
                m.q = qs[t]; m.recycle = recs[t];
                out[0] = m;
                return 1;
            }
    }
    return 0;
}

/* gen_moves's moves that put a run, talon card or foundation card on
 * `card`, the top of column `col` (unsorted). */
static int moves_onto(const State *s, const Rules *r, const Options *o, int card, int col,
                      SMove *out)
{
    int n = 0, rank = card_rank(card);
    SMove m;
    int fits[2] = {(card_red(card) ? 0 : 1) * 13 + rank - 2, (card_red(card) ? 3 : 2) * 13 + rank - 2};
    for (int k = 0; k < 2 && rank > 1; k++) {
        int fit = fits[k], c = s->at_col[fit];
        memset(&m, 0, sizeof m);
        m.dst = (uint8_t)col; m.count = 1; m.card = (uint8_t)fit;
        if (c >= 0) {
            int i = s->at_idx[fit], down = s->down[c];
            if (c == col || i < down || (!r->partial && i > down)) continue;
            if (i > down && (o->prune & PRUNE_TWINS) && r->partial && s->col[c][i - 1] == twin_of(card)) {
                FIRE(o, 7); /* as in gen_moves */
                continue;
            }
            m.kind = K_T2T; m.src = (uint8_t)c; m.count = (uint8_t)(s->len[c] - i); m.card = 0;
            m.score = (int16_t)(i > down ? 10 : down ? 90 + down : 40);
            out[n++] = m;
        } else if (s->tal_mask >> fit & 1) {
            uint8_t qs[2 * MAXC + 2], recs[2 * MAXC + 2];
            int nt = talon_targets(s, r, qs, recs);
            if (talon_card_stuck(s, r, o, fit)) continue; /* as in gen_moves */
            for (int t = 0; t < nt; t++) {
                if (s->talon[qs[t] - 1] != fit) continue;
                m.kind = K_TAL; m.q = qs[t]; m.recycle = recs[t];
                m.score = (int16_t)(50 - (recs[t] ? 8 : 0));
                out[n++] = m;
            }
        } else if (r->recall && s->found[card_suit(fit)] == rank - 1
                   && !((o->prune & PRUNE_SAFE_MOVES) && is_safe(s, r, fit))) {
            m.kind = K_F2T; m.src = (uint8_t)card_suit(fit);
            out[n++] = m;
        }
    }
    return n;
}

/* Rule 10's moves after a talon card went on column `pc`: those that put
 * something on it (see pending_applies), built alone. */
static int pending_moves(const State *s, const Rules *r, const Options *o, int card, int pc,
                         SMove *out)
{
    int n = moves_onto(s, r, o, card, pc, out);
    sort_moves(out, n);
    return n;
}

/* When no card is face down and every talon card can be reached at will (or
 * the talon is empty), the lowest card not home is always playable: it is
 * at the top of its column (the cards above it in a run are lower) or in the
 * talon.  Play the win out greedily; returns 1 if it was won, else undoes. */
static int finish_if_trivial(Search *x)
{
    State *s = &x->s;
    const Rules *r = &x->r;
    if (s->tlen && !(r->draw == 1 && r->recycles_allowed < 0)) return 0;
    for (int c = 0; c < NCOLS; c++)
        if (s->down[c]) return 0;
    size_t base = x->plen;
    while (!is_won(s)) {
        int best = -1, where = -1, in_talon = 0;
        for (int c = 0; c < NCOLS; c++) {
            if (!s->len[c]) continue;
            int card = s->col[c][s->len[c] - 1];
            if (card_rank(card) == s->found[card_suit(card)] + 1
                && (best < 0 || card_rank(card) < card_rank(best))) {
                best = card; where = c; in_talon = 0;
            }
        }
        for (int i = 0; i < s->tlen; i++) {
            int card = s->talon[i];
            if (card_rank(card) == s->found[card_suit(card)] + 1
                && (best < 0 || card_rank(card) < card_rank(best))) {
                best = card; where = i; in_talon = 1;
            }
        }
        if (best < 0) { path_unwind(x, base); return 0; }
        SMove m = {0};
        m.dst = DST_FOUND; m.count = 1;
        if (in_talon) {
            m.kind = K_TAL; m.q = (uint8_t)(where + 1); m.recycle = (uint8_t)(where + 1 < s->ptr);
        } else {
            m.kind = K_T2F; m.src = (uint8_t)where;
        }
        if (!play(x, m)) { path_unwind(x, base); return -1; }
    }
    return 1;
}

/*
 * Rule 14 (draw 1, unlimited passes, where any talon card can be played at
 * any time: see rule 5).  Let c, not a king, be a talon card that goes home,
 * and compare the position with c still in the talon (B) and with c home (A).
 * B can do whatever A can: every move of A that does not need c home is
 * legal in B too (the talon's other cards are within reach as before); the
 * moves that need c home are sending its successor home, which B may do
 * after sending c home first, and recalling c, which B does by playing c from
 * the talon instead (c stays its foundation's top until then).  A's other
 * difference, that c covers its predecessor in the foundation, only takes
 * moves away.  So a winning line may always keep c in the talon until just
 * before its successor goes home (or the line ends, which c, not a king,
 * never does first): after a step that sends a talon card home, the search
 * tries only the moves that send its successor home, from a column or the
 * talon (the latter passing the rule on).  Such a node is not stored in the
 * table: its children are a restricted set.  If a forced move has already
 * sent the successor home, the rule lifts.
 */

/* Enter the position after a step: safe moves, win test, table, children.
 * Returns 1 won, 0 continue (frame pushed or position already seen),
 * -1 a limit was hit. */
static int enter(Search *x, size_t path_base)
{
    for (;;) {
        size_t mark = x->plen;
        if (!play_safe_moves(x)) { x->limit = LIMIT_MEMORY; return -1; }
        if ((x->o.prune & PRUNE_TWINS) && x->r.partial && !normalize_twins(x)) {
            x->limit = LIMIT_MEMORY;
            return -1;
        }
        if (x->plen == mark) break;
    }
    if (is_won(&x->s)) return 1;
    int t = finish_if_trivial(x);
    if (t > 0) return 1;
    if (t < 0) { x->limit = LIMIT_MEMORY; return -1; }
    /* Rule 10: a talon card just put on a column, still its top, waits
     * for a move that uses it. */
    int pending = x->pending, pc = pending >= 0 ? x->s.at_col[pending] : -1;
    x->pending = -1;
    if (pc < 0 || x->s.col[pc][x->s.len[pc] - 1] != pending || !pending_applies(&x->s, &x->r, pending))
        pending = -1;
    else
        FIRE(&x->o, 10);
    int after_recall = x->after_recall;
    x->after_recall = 0;
    int successor = x->successor;
    x->successor = -1;
    if (successor >= 0 && card_rank(successor) <= x->s.found[card_suit(successor)]) successor = -1;
    if (successor >= 0) FIRE(&x->o, 14);
    int ins = pending >= 0 || successor >= 0 ? 1 : tt_insert(&x->tt, state_key(&x->s, &x->r), x->budget, &x->used);
    if (ins < 0) { x->limit = LIMIT_MEMORY; return -1; }
    /* Rule 9: a position whose waste size is not a whole number of draws
     * reaches every talon card that the same one with a fresh stock reaches
     * (its draws, then a recycle), so that one needs no search of its own:
     * it is marked seen (its lookup is started before the dead-end test). */
    uint64_t seen[MAXC / 2 + 1];
    int n_seen = 0;
    if (ins && x->r.recycles_allowed < 0 && x->r.draw > 1 && x->s.ptr % x->r.draw
        && x->s.ptr != x->s.tlen) {
        /* Rule 9 too: the same position with a larger waste of the same
         * size modulo the draw is reached from this one by drawing on, so it
         * needs no search of its own either.  Neither it nor the fresh stock
         * is ever reached from here (the waste size changes only when a talon
         * card is played), so this search does not depend on them. */
        int ptr = x->s.ptr, last = (x->o.prune & PRUNE_LARGER_WASTES) ? x->s.tlen - 1 : 0;
        x->s.ptr = 0;
        seen[n_seen++] = state_key(&x->s, &x->r);
        for (int q = ptr + x->r.draw; q <= last; q += x->r.draw) {
            x->s.ptr = q;
            seen[n_seen++] = state_key(&x->s, &x->r);
            FIRE(&x->o, 9);
        }
        x->s.ptr = ptr;
        for (int k = 0; k < n_seen; k++) __builtin_prefetch(&x->tt.keys[seen[k] & x->tt.mask]);
    }
    /* No dead-end test where rule 14 leaves one move, tried at once, nor
     * after a recall onto a card: the card put back on a column only adds to
     * what the relaxation allows, and the position before it passed the
     * test.  (Skipping a test only keeps a position.) */
    if (ins == 0 || (successor < 0 && !after_recall && (x->o.prune & PRUNE_DEAD_ENDS)
                     && hopeless(&x->s, &x->r, &x->o))) {
        path_unwind(x, path_base);
        return 0;
    }
    for (int k = 0; k < n_seen; k++)
        if (tt_insert(&x->tt, seen[k], x->budget, &x->used) < 0) {
            x->limit = LIMIT_MEMORY;
            return -1;
        }
    if (!reserve(x, (void **)&x->moves, &x->mcap, x->mlen + MAX_GEN, sizeof(SMove))
        || !reserve(x, (void **)&x->frames, &x->fcap, x->flen + 1, sizeof(Frame))) {
        x->limit = LIMIT_MEMORY;
        return -1;
    }
    SMove *ms = x->moves + x->mlen;
    int n = successor >= 0 ? successor_moves(&x->s, &x->r, &x->o, successor, ms)
          : pending >= 0 ? pending_moves(&x->s, &x->r, &x->o, pending, pc, ms)
          : gen_moves(&x->s, &x->r, &x->o, ms);
    if (x->tt.mask >= PREFETCH_SLOTS) {
        /* A large table misses the caches on nearly every lookup: start
         * the lookups of all the children now, so that they overlap. */
        for (int i = 0; i < n; i++) {
            if (ms[i].pre_count) continue;
            SMove m = ms[i];
            apply_move(&x->s, &m);
            __builtin_prefetch(&x->tt.keys[state_key(&x->s, &x->r) & x->tt.mask]);
            undo_move(&x->s, &m);
        }
    }
    Frame *f = &x->frames[x->flen++];
    f->mstart = x->mlen;
    f->mcount = (size_t)n;
    f->mnext = 0;
    f->path_base = path_base;
    x->mlen += (size_t)n;
    return 0;
}

/* Run the search: 1 solved (x->path holds the line), 0 unsolvable,
 * -1 unknown (x->limit says why). */
static int run_search(Search *x)
{
    if (!x->started) {
        x->started = 1;
        x->pending = -1;
        x->after_recall = 0;
        x->successor = -1;
        x->nodes = 1;
        int e = enter(x, 0);
        if (e) return e;
    }
    while (x->flen) {
        if (x->pause_at && x->nodes >= x->pause_at) return -2;
        Frame *f = &x->frames[x->flen - 1];
        if (f->mnext == f->mcount) {
            path_unwind(x, f->path_base);
            x->mlen = f->mstart;
            x->flen--;
            continue;
        }
        SMove m = x->moves[f->mstart + f->mnext++];
        size_t base = x->plen;
        if (m.pre_count) {
            SMove pre = {0};
            pre.kind = K_T2T; pre.src = m.pre_src; pre.dst = m.pre_dst; pre.count = m.pre_count;
            m.pre_count = 0;
            if (!play(x, pre)) { x->limit = LIMIT_MEMORY; return -1; }
        }
        x->after_recall = m.kind == K_F2T && x->s.len[m.dst];
        if (!play(x, m)) { x->limit = LIMIT_MEMORY; return -1; }
        x->pending = (x->o.prune & PRUNE_COVER_TALON) && talon_at_will(&x->r, &x->o)
                     && m.kind == K_TAL && m.dst != DST_FOUND ? m.card : -1;
        x->successor = (x->o.prune & PRUNE_SUCCESSOR) && talon_at_will(&x->r, &x->o) && m.kind == K_TAL
                       && m.dst == DST_FOUND && card_rank(m.card) < 13 ? m.card + 1 : -1;
        x->nodes++;
        if (x->node_limit && x->nodes + x->probe_nodes > x->node_limit) {
            x->limit = LIMIT_NODES;
            return -1;
        }
        if ((x->nodes & (CHECK_EVERY - 1)) == 0) {
            if (stop_requested) {
                x->limit = LIMIT_STOPPED;
                return -1;
            }
            if (x->deadline >= 0 && now_seconds() - x->t0 > x->deadline) {
                x->limit = LIMIT_TIME;
                return -1;
            }
        }
        int e = enter(x, base);
        if (e) return e;
    }
    return 0;
}

static void free_search(Search *x)
{
    keys_free(x->tt.keys, x->tt.keys ? x->tt.mask + 1 : 0);
    free(x->moves);
    free(x->path);
    free(x->frames);
}

/*
 * Side searches: the same position under other rules, run beside the exact
 * search (chunk for chunk, from round SIDE_ROUND on, so easy positions never
 * start them).  Each one decides the position by one of its verdicts only:
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
 * answer); its "lost" tells nothing, and ends it.  Some deals are won only by
 * lines that the exact search, busy with many recycles, reaches late, while
 * the search with one recycle is small.  It stops after SIDE_FEW_PASSES_NODES
 * nodes: such wins come early, and on a lost deal it only costs time.
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
} Side;

enum { SIDE_RELAXED, SIDE_FEW_PASSES, SIDE_HASTY, SIDES };

#ifndef SIDE_ROUND
#define SIDE_ROUND 5 /* the round the side searches start in */
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
#ifndef SIDE_FEW_PASSES_NODES
#define SIDE_FEW_PASSES_NODES 1000000 /* its wins come early; on a lost deal it only costs */
#endif

static Search *side_search(const Search *x, const State *start, const Rules *r, int hasty)
{
    size_t cap = 1 << 14;
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
    z->t0 = x->t0;
    z->deadline = x->deadline;
    z->used = sizeof(Search) + cap * sizeof(uint64_t);
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
    r = x->r;
    if ((x->o.sides & SIDE_FEW_PASSES_ON) && r.draw > 1 && r.recycles_allowed < 0) {
        r.recycles_allowed = 1;
        sides[SIDE_FEW_PASSES].search = side_search(x, start, &r, 0);
    }
    r = x->r;
    if ((x->o.sides & SIDE_HASTY_ON) && pointer_matters(&r))
        sides[SIDE_HASTY].search = side_search(x, start, &r, 1);
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
static int run_side(Search *x, Side *sides, int k, uint64_t chunk, size_t total)
{
    Side *side = &sides[k];
    Search *z = side->search;
    size_t others = used_besides(x, sides, k);
    uint64_t before = z->nodes;
    z->budget = total > others ? total - others : 0;
    z->pause_at = z->nodes + chunk * (uint64_t)side->quarters / 4;
    if (side->most && z->pause_at > side->most) z->pause_at = side->most;
    int rz = run_search(z);
    x->probe_nodes += z->nodes - before;
    if (rz == side->decides) {
        FIRE(&x->o, rz == 1 ? FIRED_SIDE_WINS : 11);
        if (rz == 1) take_line(x, z);
        return rz;
    }
    if (rz == -1 && (z->limit == LIMIT_TIME || z->limit == LIMIT_STOPPED)) {
        x->limit = z->limit;
        return -1;
    }
    /* Its other verdict tells nothing; or out of memory, or of its nodes. */
    if (rz != -2 || (side->most && z->nodes >= side->most)) end_side(side);
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
        if (round == (x->o.sides & SIDES_AT_ONCE ? 1 : SIDE_ROUND)) start_sides(x, start, sides);
        /* The side searches first: the round in which one decides then
         * costs no chunk of the exact search. */
        int res;
        for (int k = 0; k < SIDES; k++) {
            if (!sides[k].search) continue;
            res = run_side(x, sides, k, chunk, total);
            if (res != -2) return res;
        }
        size_t sides_used = used_besides(x, sides, -1);
        x->budget = total > sides_used ? total - sides_used : 0;
        x->pause_at = x->nodes + chunk;
        res = run_search(x);
        if (res != -2) return res;
        if (probes) {
            Search *y = calloc(1, sizeof(Search));
            size_t cap = 1 << 14;
            if (!y || !tt_init(&y->tt, cap)) {
                free(y);
                probes = 0;
                continue;
            }
            y->s = *start;
            y->r = x->r;
            y->o = x->o;
            y->o.seed = round;
            y->node_limit = probe_budget;
            y->t0 = x->t0;
            y->deadline = x->deadline;
            y->used = sizeof(Search) + cap * sizeof(uint64_t);
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
    Side sides[SIDES] = {{NULL, SIDE_RELAXED_QUARTERS, 0, 0},
                         {NULL, SIDE_FEW_PASSES_QUARTERS, 1, SIDE_FEW_PASSES_NODES},
                         {NULL, SIDE_HASTY_QUARTERS, 1, 0}};
    int result = portfolio_rounds(x, start, sides);
    for (int k = 0; k < SIDES; k++)
        if (sides[k].search) end_side(&sides[k]);
    return result;
}

/* ---- atomic moves (engine semantics) ------------------------------------- */

typedef struct {
    uint8_t src, dst, count;
} Atomic;

/* Every legal move of the position, as the engine lists them (any order). */
static int legal_atomic(const State *s, const Rules *r, Atomic *out)
{
    int n = 0;
    int waste_top = s->ptr ? s->talon[s->ptr - 1] : -1;
    for (int c = 0; c < NCOLS; c++) {
        int len = s->len[c], down = s->down[c];
        if (!len) continue;
        int top = s->col[c][len - 1];
        if (card_rank(top) == s->found[card_suit(top)] + 1)
            out[n++] = (Atomic){(uint8_t)c, (uint8_t)(P_FOUND + card_suit(top)), 1};
        int last = r->partial ? len : down + 1;
        for (int i = down; i < last; i++) {
            int card = s->col[c][i];
            for (int d = 0; d < NCOLS; d++) {
                if (d == c) continue;
                if (s->len[d] ? fits_on(card, s->col[d][s->len[d] - 1])
                              : (r->any_empty || card_rank(card) == 13))
                    out[n++] = (Atomic){(uint8_t)c, (uint8_t)d, (uint8_t)(len - i)};
            }
        }
    }
    if (waste_top >= 0) {
        if (card_rank(waste_top) == s->found[card_suit(waste_top)] + 1)
            out[n++] = (Atomic){P_WASTE, (uint8_t)(P_FOUND + card_suit(waste_top)), 1};
        for (int d = 0; d < NCOLS; d++)
            if (s->len[d] ? fits_on(waste_top, s->col[d][s->len[d] - 1])
                          : (r->any_empty || card_rank(waste_top) == 13))
                out[n++] = (Atomic){P_WASTE, (uint8_t)d, 1};
    }
    if (r->recall) {
        for (int suit = 0; suit < 4; suit++) {
            if (!s->found[suit]) continue;
            int card = suit * 13 + s->found[suit] - 1;
            for (int d = 0; d < NCOLS; d++)
                if (s->len[d] ? fits_on(card, s->col[d][s->len[d] - 1])
                              : (r->any_empty || card_rank(card) == 13))
                    out[n++] = (Atomic){(uint8_t)(P_FOUND + suit), (uint8_t)d, 1};
        }
    }
    int left = s->tlen - s->ptr;
    if (left > 0)
        out[n++] = (Atomic){P_STOCK, P_WASTE, (uint8_t)(left < r->draw ? left : r->draw)};
    else if (s->ptr > 0 && can_recycle(s, r))
        out[n++] = (Atomic){P_WASTE, P_STOCK, (uint8_t)s->ptr};
    return n;
}

/* Expand a search line into atomic moves, replaying it from `start`. */
static PyObject *expand_line(const State *start, const Rules *r, const SMove *line, size_t n)
{
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    State s = *start;
    for (size_t k = 0; k < n; k++) {
        SMove m = line[k];
        int dst;
        if (m.kind == K_TAL) {
            int cur = s.ptr, total = s.tlen;
            if (m.recycle) {
                while (cur < total) {
                    int turn = total - cur < r->draw ? total - cur : r->draw;
                    PyObject *t = Py_BuildValue("(iii)", P_STOCK, P_WASTE, turn);
                    if (!t || PyList_Append(list, t) < 0) { Py_XDECREF(t); Py_DECREF(list); return NULL; }
                    Py_DECREF(t);
                    cur += turn;
                }
                PyObject *t = Py_BuildValue("(iii)", P_WASTE, P_STOCK, total);
                if (!t || PyList_Append(list, t) < 0) { Py_XDECREF(t); Py_DECREF(list); return NULL; }
                Py_DECREF(t);
                cur = 0;
            }
            while (cur < m.q) {
                int turn = total - cur < r->draw ? total - cur : r->draw;
                PyObject *t = Py_BuildValue("(iii)", P_STOCK, P_WASTE, turn);
                if (!t || PyList_Append(list, t) < 0) { Py_XDECREF(t); Py_DECREF(list); return NULL; }
                Py_DECREF(t);
                cur += turn;
            }
            if (cur != m.q) {
                Py_DECREF(list);
                PyErr_SetString(PyExc_RuntimeError, "internal error: talon move misses its card");
                return NULL;
            }
        }
        apply_move(&s, &m);
        int src = m.kind == K_T2F || m.kind == K_T2T ? m.src
                : m.kind == K_TAL ? P_WASTE : P_FOUND + m.src;
        dst = m.dst == DST_FOUND ? P_FOUND + card_suit(m.card) : m.dst;
        PyObject *t = Py_BuildValue("(iii)", src, dst, (int)m.count);
        if (!t || PyList_Append(list, t) < 0) { Py_XDECREF(t); Py_DECREF(list); return NULL; }
        Py_DECREF(t);
    }
    return list;
}

/* ---- Python interface ------------------------------------------------------ */

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
    s->stale = (1u << NCOLS) - 1;
    int seen[52] = {0};
    PyObject *cols = PySequence_Fast(columns, "columns must be a sequence");
    if (!cols) return 0;
    if (PySequence_Fast_GET_SIZE(cols) != NCOLS) {
        Py_DECREF(cols);
        PyErr_SetString(PyExc_ValueError, "there must be 7 columns");
        return 0;
    }
    for (int c = 0; c < NCOLS; c++) {
        if (!read_int_list(PySequence_Fast_GET_ITEM(cols, c), s->col[c], MAXC, &s->len[c],
                           "column")) {
            Py_DECREF(cols);
            return 0;
        }
    }
    Py_DECREF(cols);
    PyObject *dl = PySequence_Fast(downs, "downs must be a sequence");
    if (!dl) return 0;
    if (PySequence_Fast_GET_SIZE(dl) != NCOLS) {
        Py_DECREF(dl);
        PyErr_SetString(PyExc_ValueError, "there must be 7 face-down counts");
        return 0;
    }
    for (int c = 0; c < NCOLS; c++) {
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
    if (ptr < 0 || ptr > s->tlen) {
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
    for (int c = 0; c < NCOLS; c++)
        for (int i = 0; i < s->len[c]; i++) {
            seen[s->col[c][i]]++;
            s->colh[c] ^= Z_COL[s->col[c][i]][i];
            s->at_col[s->col[c][i]] = (int8_t)c;
            s->at_idx[s->col[c][i]] = (int8_t)i;
            s->col_mask[c] |= 1ULL << s->col[c][i];
            if (i < s->down[c]) s->down_mask |= 1ULL << s->col[c][i];
            if (i == s->len[c] - 1) s->top_mask |= 1ULL << s->col[c][i];
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

static PyObject *py_legal_moves(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *columns, *downs, *talon, *found;
    int ptr, rec;
    Rules r;
    State s;
    if (!PyArg_ParseTuple(args, "OOOiOiiippp", &columns, &downs, &talon, &ptr, &found, &rec,
                          &r.draw, &r.recycles_allowed, &r.any_empty, &r.recall, &r.partial))
        return NULL;
    if (!build_state(columns, downs, talon, ptr, found, rec, &r, &s)) return NULL;
    Atomic out[2048];
    int n = legal_atomic(&s, &r, out);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = Py_BuildValue("(iii)", out[i].src, out[i].dst, out[i].count);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
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
    Search *x = calloc(1, sizeof(Search));
    if (!x) return PyErr_NoMemory();
    if (!PyArg_ParseTuple(args, "OOOiOiiipppdKn|IIK", &columns, &downs, &talon, &ptr, &found,
                          &rec, &x->r.draw, &x->r.recycles_allowed, &x->r.any_empty,
                          &x->r.recall, &x->r.partial, &time_limit, &node_limit, &memory_limit,
                          &prune, &sides, &seed)
        || !build_state(columns, downs, talon, ptr, found, rec, &x->r, &x->s)) {
        free(x);
        return NULL;
    }
    if (prune & ~(unsigned)PRUNE_ALL || sides & ~(unsigned)(SIDES_DEFAULT | SIDES_AT_ONCE)) {
        free(x);
        PyErr_SetString(PyExc_ValueError, "unknown prune or side-search switches");
        return NULL;
    }
    /* A winning line needs at most one recycle per talon card: between two
     * recycles with no talon card played, the second recycle and the draws
     * before it can be left out (the other moves do not touch the talon).
     * So as many recycles left as talon cards is as good as unlimited. */
    if (x->r.recycles_allowed >= 0 && x->r.recycles_allowed - x->s.rec >= x->s.tlen) {
        x->r.recycles_allowed = -1;
        x->s.rec = 0;
    }
    x->o.prune = prune;
    x->o.sides = sides;
    x->o.seed = seed;
    x->o.fired = x->fired;
    State start = x->s;
    x->deadline = time_limit;
    x->node_limit = node_limit;
    x->budget = memory_limit > 0 ? (size_t)memory_limit : (size_t)1 << 30;
    size_t cap = 1 << 16;
    if (!tt_init(&x->tt, cap)) { free(x); return PyErr_NoMemory(); }
    x->used = sizeof(Search) + cap * sizeof(uint64_t);
    int result;
    double t0 = now_seconds(), seconds;
    x->t0 = t0;
    int catching = catch_sigint();
    Py_BEGIN_ALLOW_THREADS
    result = x->o.seed ? run_search(x) : solve_portfolio(x, &start);
    Py_END_ALLOW_THREADS
    seconds = now_seconds() - t0;
    if (catching && release_sigint() < 0) { free_search(x); free(x); return NULL; }
    PyObject *line;
    if (result == 1) {
        line = expand_line(&start, &x->r, x->path, x->plen);
        if (!line) { free_search(x); free(x); return NULL; }
    } else {
        line = PyList_New(0);
        if (!line) { free_search(x); free(x); return NULL; }
    }
    static const char *limits[] = {NULL, "nodes", "time", "memory", "interrupted"};
    const char *status = result == 1 ? "solved" : result == 0 ? "unsolvable" : "unknown";
    const char *limit = result < 0 ? limits[x->limit] : NULL;
    PyObject *fired = PyTuple_New(FIRED_SLOTS);
    if (!fired) { Py_DECREF(line); free_search(x); free(x); return NULL; }
    for (int k = 0; k < FIRED_SLOTS; k++) {
        PyObject *count = PyLong_FromUnsignedLongLong((unsigned long long)x->fired[k]);
        if (!count) { Py_DECREF(fired); Py_DECREF(line); free_search(x); free(x); return NULL; }
        PyTuple_SET_ITEM(fired, k, count);
    }
    PyObject *ret = Py_BuildValue("(sNKdzKnN)", status, line,
                                  (unsigned long long)(x->nodes + x->probe_nodes),
                                  seconds, limit, (unsigned long long)x->tt.count,
                                  (Py_ssize_t)x->used, fired);
    free_search(x);
    free(x);
    return ret;
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(columns, downs, talon, waste_size, foundations, recycles, draw, recycles_allowed,\n"
     "      any_empty, recall, partial, time_limit, node_limit, memory_limit,\n"
     "      prune=PRUNE_ALL, sides=SIDES_DEFAULT, seed=0)\n"
     "-> (result, moves, nodes, seconds, limit, states, bytes, fired)\n\n"
     "fired[k] counts the firings of pruning rule k (fired[0]: side-search wins).\n"
     "The talon is the waste (bottom first) then the stock (next card first);\n"
     "recycles_allowed is -1 for unlimited; time_limit < 0, node_limit 0 and\n"
     "memory_limit 0 mean no limit (memory defaults to 1 GiB).  Moves are\n"
     "(source, dest, count) tuples of pile numbers."},
    {"legal_moves", py_legal_moves, METH_VARARGS,
     "legal_moves(columns, downs, talon, waste_size, foundations, recycles, draw,\n"
     "            recycles_allowed, any_empty, recall, partial) -> list of moves\n\n"
     "Every legal move as the C core sees it, for testing against the engine."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_search", "The exact Klondike search core.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__search(void)
{
    init_keys();
    main_thread = PyThread_get_thread_ident();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "PRUNE_ALL", PRUNE_ALL) < 0
        || PyModule_AddIntConstant(m, "SIDES_DEFAULT", SIDES_DEFAULT) < 0
        || PyModule_AddIntConstant(m, "FIRED_SLOTS", FIRED_SLOTS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
