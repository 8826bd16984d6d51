/*
 * search_state.h: the rules, the search options, the position and its steps.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_STATE_H
#define BONANZA_SEARCH_STATE_H

#include <stdint.h>

#include "search_cards.h"
#include "search_zobrist.h"

/* ---- rules and state ----------------------------------------------------- */

/* The game's rules. */
typedef struct {
    int draw;
    int recycles_allowed; /* -1: unlimited */
    int any_empty;
    int recall;
    int partial;
    int deals; /* Easthaven: the stock deals a card onto every column (no waste) */
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
    PRUNE_WASTE_STACK = 1 << 17,  /* with rule 8 only: see home_reach */
    PRUNE_STOCK_CYCLE = 1 << 18,  /* with rule 8 only: see home_reach */
    PRUNE_BARE_BASES = 1 << 20,   /* with rule 8 only: see search_locks.h */
    PRUNE_SHARED_BASE = 1 << 21,  /* see search_locks.h */
    PRUNE_SQUEEZE = 1 << 22,      /* with rule 8 only: see search_squeeze.h */
    PRUNE_GONE_BASE = 1 << 23,    /* with rule 8 only: see search_gone.h */
    PRUNE_CHAIN = 1 << 24,        /* with rule 8 only: see search_chain.h */
    PRUNE_ALL = PRUNE_SAFE_MOVES | PRUNE_TWINS | PRUNE_DEAD_ENDS | PRUNE_LARGER_WASTES
              | PRUNE_COVER_TALON | PRUNE_RELAXED_STOCK | PRUNE_NEARLY_SAFE
              | PRUNE_SUCCESSOR | PRUNE_TWIN_LOCKS | PRUNE_WASTE_STACK | PRUNE_STOCK_CYCLE
              | PRUNE_BARE_BASES | PRUNE_SHARED_BASE | PRUNE_SQUEEZE | PRUNE_GONE_BASE
              | PRUNE_CHAIN,
};

/* The side searches that only look for wins (they prune nothing), and when
 * the side searches start.  bonanza.solver.Sides in Python. */
enum {
    SIDE_FEW_PASSES_ON = 1 << 0,
    SIDE_HASTY_ON = 1 << 1,
    SIDES_AT_ONCE = 1 << 2, /* from the first round (for tests) */
    /* For tests of rule 12's keeping out (see kept_term): count table hits
     * on an entry stored under another kept-out set (the search is the same),
     * or put the kept-out set in the key (a search that never shares). */
    SIDE_KEPT_HITS = 1 << 3,
    SIDE_KEPT_KEYED = 1 << 4,
    /* For tests: a full table stops the search (LIMIT_MEMORY), as it did
     * before the table learnt to forget (see forget_some). */
    SIDE_NO_FORGET = 1 << 5,
    /* For tests: the dead-end test is also made where its answer is known
     * (see reach_kept), and a position it drops there is dropped and
     * counted (FIRED_REACH_WRONG): the search is the one without the skip. */
    SIDE_CHECK_SKIPS = 1 << 6,
    /* For tests: rule 20 at every dead-end test, on every card (see
     * bare_based), not only where it usually pays. */
    SIDE_BARE_EVERY = 1 << 7,
    /* The few-passes search, lost, starts again with one more recycle (see
     * run_side). */
    SIDE_DEEPEN_ON = 1 << 8,
    SIDE_NO_RECALL_ON = 1 << 9,
    /* For tests: rule 21 at every dead-end test (see shared_base_locked). */
    SIDE_SHARED_EVERY = 1 << 10,
    /* For tests: rule 22 at every dead-end test, on every face-down card
     * (see squeezed). */
    SIDE_SQUEEZE_EVERY = 1 << 11,
    /* For tests: rule 23 at every dead-end test, on every tableau card (see
     * gone_based). */
    SIDE_GONE_EVERY = 1 << 12,
    SIDE_CHAIN_EVERY = 1 << 13, /* rule 24 at every dead-end test (for tests) */
    /* Rule 11's search ended by a win with draw 1 found without recall (see
     * search_sides.h). */
    SIDE_RELAXED_WIN_ON = 1 << 14,
    SIDES_DEFAULT = SIDE_FEW_PASSES_ON | SIDE_HASTY_ON | SIDE_DEEPEN_ON | SIDE_NO_RECALL_ON
                  | SIDE_RELAXED_WIN_ON,
    SIDES_TESTS = SIDES_AT_ONCE | SIDE_KEPT_HITS | SIDE_KEPT_KEYED | SIDE_NO_FORGET
                | SIDE_CHECK_SKIPS | SIDE_BARE_EVERY | SIDE_SHARED_EVERY | SIDE_SQUEEZE_EVERY
                | SIDE_GONE_EVERY | SIDE_CHAIN_EVERY,
};

/* Firing counts: fired[k] counts what rule k pruned or forced (fired[0] the
 * wins of the side searches that look for wins). */
#define FIRED_SLOTS 26
#define FIRED_SIDE_WINS 0
#define FIRED_RELAXED_ENDED 25 /* rule 11's searches ended by a draw-1 win (see run_side) */
#define FIRED_KEPT_HITS 13 /* SIDE_KEPT_HITS's count (rule 13 was removed) */
#define FIRED_FORGOTTEN 16 /* the entries a full table forgot (see forget_some) */
/* Rule 8's tests not made, the answer known (see reach_kept): after a card
 * sent home, and after one put on a column; and, under SIDE_CHECK_SKIPS,
 * those that would have dropped the position. */
#define FIRED_REACH_HOME 3
#define FIRED_REACH_COLUMN 19
#define FIRED_REACH_WRONG 4

/* Rule 20's memory within a search (see bare_based), and rules 21's and
 * 22's (see lock_due, squeezed_some): the dead-end tests made, the cards that were found lately
 * (card + 1, or 0), whose turn it is among the others, and how often it is
 * tried (every `period`-th test, the period doubling after each BARE_QUIET
 * tries in a row that found nothing). */
#define BARE_AFTER 50000 /* dead-end tests before rule 20 is tried again */
#define BARE_TRIES 2     /* cards tried a position */
#define BARE_RECENT 4
#define BARE_QUIET 20000
#define BARE_LONGEST 64  /* the longest period */
typedef struct {
    uint64_t tests;
    unsigned turn, period, quiet;
    int8_t recent[BARE_RECENT];
} LockMemo;

/* The card a lock rule tries next (its k-th try at this test): of `cards`,
 * not yet `tried`, those it found lately first, then the others in turn; -1
 * to skip this k, -2 when none is left. */
static inline int lock_next(LockMemo *m, uint64_t cards, uint64_t tried, int k)
{
    if (k < BARE_RECENT) {
        int card = m->recent[k] - 1;
        return card < 0 || !(cards >> card & 1) ? -1 : card;
    }
    uint64_t rest = cards & ~tried;
    if (!rest) return -2;
    unsigned skip = m->turn++ % (unsigned)__builtin_popcountll(rest);
    while (skip--) rest &= rest - 1;
    return __builtin_ctzll(rest);
}

/* `card` to the front of those a lock rule found lately. */
static inline void lock_remember(LockMemo *m, int card)
{
    int j = 0;
    while (j < BARE_RECENT - 1 && m->recent[j] != card + 1) j++;
    for (; j > 0; j--) m->recent[j] = m->recent[j - 1];
    m->recent[0] = (int8_t)(card + 1);
}

/* How to search, apart from the rules of the game. */
typedef struct {
    unsigned prune; /* PRUNE_* */
    unsigned sides; /* SIDE_* */
    uint64_t seed;  /* nonzero: shuffle move order among near scores */
    int hasty;      /* the hasty side search: rules 10 and 14 under any stock rule */
    uint64_t *fired; /* where firings are counted (the root search's counts) */
    LockMemo bare;    /* rule 20's memory */
    LockMemo shared;  /* rule 21's (its tests, period and quiet only) */
    LockMemo squeeze; /* rule 22's */
    LockMemo gone;    /* rule 23's */
} Options;

#define FIRE(o, rule) ((o)->fired[rule]++)

/*
 * Where the stock deals onto every column (Easthaven), only these rules are
 * proven and stay on:
 *   - the safe moves (rules 1 and 2, with rule 1's stricter form whatever
 *     recall says: see is_safe), and only with partial runs;
 *   - the dead ends (rule 8, with the relaxation taking in deals and
 *     columns whose face-up cards are not one run: see home_reach).
 * Off: rule 7 (a run lying on a twin need not be movable there: cards dealt
 * onto it are not a run), rule 12 (its proof plays the positions' lines move
 * for move, and a deal is no such move), rule 15 (case 2 needs the cards P
 * to reach a column only by going on a card of Q; a deal puts them
 * anywhere), and the talon rules 5, 6, 9, 10, 11 and 14, made for a stock
 * drawn to a waste (rule 11's draw-1 relaxation is not a relaxation of a
 * deal).  Rules 3 and 4 hold only once the stock is empty: a deal tells the
 * columns apart (see state_key and gen_moves).
 */
#define PRUNE_DEALS (PRUNE_SAFE_MOVES | PRUNE_DEAD_ENDS)

/* The pruning rules that apply under `r`, of those asked for. */
static inline unsigned prune_for(const Rules *r, unsigned prune)
{
    if (!r->deals) return prune;
    return prune & (r->partial ? PRUNE_DEALS : PRUNE_DEAD_ENDS);
}

typedef struct {
    int ncols;            /* the columns in play (col[0 .. ncols - 1]) */
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
    /* The cards with a card directly on them in their column, by the kind of
     * that pair (PAIR_KIND): pair[k] bit b, card b lies under a card of kind
     * k.  Face-down cards are in them too (home_reach masks them off). */
    uint64_t pair[5];
    uint64_t kept_out;    /* rule 12: cards recalled onto a card that still top it */
    uint64_t col_key[NCOLS], cols_key; /* state_key's column terms and their sum */
    uint64_t col_check[NCOLS], cols_check; /* the same for the key's check */
    uint64_t check;       /* the check of the key state_key returned last */
    unsigned stale;       /* columns whose term is out of date (bit = column) */
    int ordered;          /* the column terms are keyed by place (see state_key) */
} State;

/* Steps: column to foundation, column to column, talon card to either,
 * foundation to column, and (Easthaven) a deal from the stock. */
enum { K_T2F, K_T2T, K_TAL, K_F2T, K_DEAL };

/* One search step.  For K_TAL, `q` is the waste size after the draws, so the
 * card played is talon[q - 1]; `recycle` says a recycle comes first.  For
 * K_DEAL, `count` is the cards dealt: talon[0 .. count - 1] onto columns
 * 0 .. count - 1. */
typedef struct {
    uint8_t kind, src, dst, count;
    uint8_t q, recycle, card;
    uint8_t flipped, old_ptr, old_tlen;
    uint8_t kept_lost; /* the move ended a card's keeping out (see State.kept_out) */
    uint8_t pre_src, pre_dst, pre_count; /* rule 7: a run moved between twins first */
    int16_t score;
} SMove;

/* A pair of cards, one on the other in a column, by below - above: the four
 * ways a card goes on a card one rank up of the other colour in a built run
 * (a club on a diamond is 14 below it, and so on: see home_reach), and any
 * other pair (4). */
enum { PAIR_14, PAIR_27, PAIR_M12, PAIR_M25, PAIR_ODD };

/* PAIR_KIND[below - above + 51]: the kind of a pair (built with init_pairs). */
static uint8_t PAIR_KIND[103];

static void init_pairs(void)
{
    for (int d = 0; d < 103; d++)
        PAIR_KIND[d] = d - 51 == 14 ? PAIR_14 : d - 51 == 27 ? PAIR_27
                     : d - 51 == -12 ? PAIR_M12 : d - 51 == -25 ? PAIR_M25 : PAIR_ODD;
}

static inline int pair_kind(int below, int above)
{
    return PAIR_KIND[below - above + 51];
}

/* Note that `above` now lies on `below`, or no longer does. */
static inline void link_pair(State *s, int below, int above)
{
    s->pair[pair_kind(below, above)] |= 1ULL << below;
}

static inline void unlink_pair(State *s, int below, int above)
{
    s->pair[pair_kind(below, above)] &= ~(1ULL << below);
}

static inline void push_card(State *s, int c, int card)
{
    s->colh[c] ^= Z_COL[card][s->len[c]];
    s->stale |= 1u << c;
    s->at_col[card] = (int8_t)c;
    s->at_idx[card] = (int8_t)s->len[c];
    s->col_mask[c] |= 1ULL << card;
    if (s->len[c]) {
        int below = s->col[c][s->len[c] - 1];
        s->top_mask &= ~(1ULL << below);
        link_pair(s, below, card);
    }
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
    if (s->len[c]) {
        int below = s->col[c][s->len[c] - 1];
        s->top_mask |= 1ULL << below;
        unlink_pair(s, below, card);
    }
    return card;
}

/* Move the top `count` cards of column `from` onto column `to`. */
static inline void move_run(State *s, int from, int to, int count)
{
    int i0 = s->len[from] - count, j0 = s->len[to];
    uint64_t moved = 0, hf = 0, ht = 0;
    int first = s->col[from][i0];
    if (i0) unlink_pair(s, s->col[from][i0 - 1], first);
    if (j0) link_pair(s, s->col[to][j0 - 1], first);
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
    case K_DEAL:
        /* (Rule 12, and with it State.kept_out, is off where the stock
         * deals: see prune_for.) */
        for (i = 0; i < m->count; i++) {
            card = s->talon[i];
            s->talh ^= Z_TAL[card];
            s->tal_mask &= ~(1ULL << card);
            push_card(s, i, card);
        }
        memmove(s->talon, s->talon + m->count, (size_t)(s->tlen - m->count));
        s->tlen -= m->count;
        break;
    }
}

static void undo_move(State *s, const SMove *m)
{
    int i, card;
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
    case K_DEAL:
        memmove(s->talon + m->count, s->talon, (size_t)s->tlen);
        for (i = m->count - 1; i >= 0; i--) {
            card = pop_card(s, i);
            s->talon[i] = (uint8_t)card;
            s->talh ^= Z_TAL[card];
            s->tal_mask |= 1ULL << card;
        }
        s->tlen += m->count;
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

#endif /* BONANZA_SEARCH_STATE_H */
