/*
 * search_squeeze.h: rule 22, a squeeze at a first move: positions lost
 * because, at the first move of some face-down card, more cards must lie on
 * bases than the bases that can have been uncovered by then can hold.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_SQUEEZE_H
#define BONANZA_SEARCH_SQUEEZE_H

#include <stdint.h>

#include "search_cards.h"
#include "search_state.h"
#include "search_dead_ends.h"

/*
 * Rule 22 (only kings go into empty columns, and the stock never deals).
 * Take a face-down card e, and E, the first move of e: every winning line
 * has one, as e must go home.  Let sigma be the position just after E, and F
 * rule 8's relaxation with e never moving (frozen, and never home), with the
 * talon taken as rules 17 and 18 take it: every event before E is in F, by
 * rule 8's induction (none of them moves e).  Write H_F and A_F for its
 * "home" and "a base".  These facts then hold in sigma, in every line in
 * which E happens, and each inference below keeps them true:
 *
 *   L  (not home in sigma): every card not in H_F (a card home in sigma went
 *      home before E, or is e going home at E), but e only when it cannot go
 *      home at E (it is not an ace and its predecessor is not in H_F); and
 *      every card of a suit above a card of L or N (foundations are runs up
 *      from the ace).
 *   MV (has moved, or has been carried on a built pair, by E): e itself; the
 *      cards above e now (e is face down, so they left before E); the cards
 *      above a card of U now (they left before it became a top).
 *   D  (lies in sigma on one of its two bases, P): a card of L, not a king,
 *      that is in MV, or lies on a card of its P now, or is in N but not in
 *      the tableau now.  A card of MV that moved as the first card of a run
 *      went onto a card of P (an empty column takes only kings) or home, and
 *      is not home in sigma (L), so it lies on a card of P (a card recalled
 *      from home goes onto one too), carried since with it; one that was
 *      only carried lies on the card under it, which it fits on.  A card on a
 *      card of P now lies there still, or moved and is as above.  A card of
 *      N not in the tableau now was played or recalled onto a card of P.
 *   N  (in the tableau in sigma) and U (a top at some time after now):
 *      - twins y and y' both in D lie on the two cards of P (each holds one
 *        card directly).  A card p of P is then available: the card on it was
 *        put there when p was a top, by E, so A_F(p); or it has lain there
 *        since now (y or y' lies on p now).  If a card of P is not
 *        available, no line has E: the position is lost.  Else both cards
 *        of P are in N, and each on which no twin lies now is in U.
 *      - one card y in D, its twin not: y lies on an available card of P.
 *        If none is, the position is lost; if one is, it is in N (and in U,
 *        unless y lies on it now).
 *
 * Every fact is derived from facts that hold in sigma, so a contradiction
 * means that no line has E, and no line wins.  Rule 15 is the first round
 * of this with e its b (case 1 the check on P; case 2, P off the tableau,
 * the check on Q after N(p) puts p in D).  Found in deal 225, draw 1 (a
 * helper's analysis, session 53): e the six of diamonds, under the six of
 * hearts (the two of hearts under it), whose sevens, both in the tableau,
 * lie under the black nines, which must then both lie on the ten of hearts,
 * as the ten of diamonds lies under e.
 */

/* The cards of each suit at and above the lowest of `cards` in it. */
static inline uint64_t suits_up_from(uint64_t cards)
{
    uint64_t out = 0;
    for (int suit = 0; suit < 4; suit++) {
        uint64_t in = cards & SUIT_MASK(suit);
        if (in) out |= SUIT_MASK(suit) & ~((in & -in) - 1);
    }
    return out;
}

/* The cards lying above `card` in its column (none if it is not in one). */
static inline uint64_t cards_above(const State *s, int card)
{
    int c = s->at_col[card];
    uint64_t above = 0;
    if (c < 0) return 0;
    for (int i = s->at_idx[card] + 1; i < s->len[c]; i++) above |= 1ULL << s->col[c][i];
    return above;
}

/* The card `card` lies on in its column, or -1. */
static inline int card_under(const State *s, int card)
{
    int c = s->at_col[card];
    if (c < 0 || s->at_idx[card] == 0) return -1;
    return s->col[c][s->at_idx[card] - 1];
}

/* Rule 22 at face-down card e: is the position lost? */
static int squeeze_at(const State *s, const Rules *r, int talon, int e)
{
    const uint64_t one = 1ULL << e, kings = RANK_MASK(13);
    uint64_t base_f, tableau = 0, on_base = 0;
    Reach still = {.no_home = one};
    uint64_t home_f = reach_with(s, r, one, 0, talon, &base_f, &still);
    for (int c = 0; c < s->ncols; c++) tableau |= s->col_mask[c];
    for (uint64_t cards = tableau; cards; cards &= cards - 1) {
        int y = __builtin_ctzll(cards), under = card_under(s, y);
        if (under >= 0 && fits_on(y, under)) on_base |= 1ULL << y;
    }
    uint64_t not_home = ALL_CARDS & ~home_f;
    if (card_rank(e) == 1 || (home_f >> (e - 1) & 1)) not_home &= ~one;
    uint64_t in_tableau = 0, moved = one | cards_above(s, e), topped = 0, done = 0;
    for (;;) {
        uint64_t was_l = not_home, was_n = in_tableau, was_mv = moved, was_u = topped;
        not_home = suits_up_from(not_home | in_tableau);
        uint64_t on_p = not_home & ~kings & (moved | on_base | (in_tableau & ~tableau));
        for (uint64_t ds = on_p; ds; ds &= ds - 1) {
            int y = __builtin_ctzll(ds), twin = twin_of(y);
            int both = (int)(on_p >> twin & 1);
            if (both && twin < y) continue; /* (the pair, once) */
            uint64_t bases = bases_of(y), pair = both ? (1ULL << y | 1ULL << twin) : 1ULL << y;
            uint64_t available = 0, held = 0;
            for (uint64_t ps = bases; ps; ps &= ps - 1) {
                int p = __builtin_ctzll(ps), lies_on = 0;
                for (uint64_t zs = pair; zs; zs &= zs - 1)
                    if (card_under(s, __builtin_ctzll(zs)) == p) lies_on = 1;
                if (lies_on) held |= 1ULL << p;
                if (lies_on || (base_f >> p & 1)) available |= 1ULL << p;
            }
            if (both ? available != bases : !available) return 1;
            if (both) {
                in_tableau |= bases;
                topped |= bases & ~held;
            } else if (__builtin_popcountll(available) == 1) {
                in_tableau |= available;
                topped |= available & ~held;
            }
        }
        for (uint64_t us = topped & ~done; us; us &= us - 1)
            moved |= cards_above(s, __builtin_ctzll(us));
        done |= topped;
        if (not_home == was_l && in_tableau == was_n && moved == was_mv && topped == was_u) break;
    }
    return 0;
}

/* Rule 22 at every face-down card (1: lost). */
static int squeezed(const State *s, const Rules *r, int talon)
{
    if (r->any_empty || r->deals) return 0;
    for (uint64_t es = s->down_mask; es; es &= es - 1)
        if (squeeze_at(s, r, talon, __builtin_ctzll(es))) return 1;
    return 0;
}

/* Face-down cards rule 22 tries at a dead-end test in the search.  Each try
 * costs a relaxation, and on some lost deals the rule finds a squeeze every
 * few hundred tests, so it stays due at every test (a find resets its
 * period): two tries a test cost 27 % more instructions than none on draw-3
 * deal 1621 (3 M nodes, callgrind), one try about as many nodes for less
 * CPU on 14 hard deals.  A find that left it due only at every 4th or 8th
 * test lost draw-3 deals 410 and 1275 (unknown at 40 M nodes, against 2.7 M
 * and 4.6 M). */
#ifndef SQUEEZE_TRIES
#define SQUEEZE_TRIES 1
#endif

/* Rule 22 in the search: at most SQUEEZE_TRIES face-down cards a test, those
 * found lately first, then the others in turn (1: lost).  A column's bottom
 * card is not tried there (as the rule was measured: skipping a test only
 * keeps positions). */
static int squeezed_some(const State *s, const Rules *r, int talon, LockMemo *m)
{
    if (r->any_empty || r->deals) return 0;
    uint64_t candidates = s->down_mask;
    for (int c = 0; c < s->ncols; c++)
        if (s->len[c]) candidates &= ~(1ULL << s->col[c][0]);
    return lock_some(s, r, talon, m, candidates, SQUEEZE_TRIES, squeeze_at);
}

/* Rule 22 on the position a search starts from, at every face-down card (1:
 * lost); the portfolio makes it once the position is not decided at once. */
static int squeeze_at_start(const State *start, const Rules *r, const Options *o)
{
    return lock_at_start(start, r, o, PRUNE_SQUEEZE, squeezed);
}

#endif /* BONANZA_SEARCH_SQUEEZE_H */
