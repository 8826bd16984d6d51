/*
 * search_chain.h: rule 24, chained locks: facts that every winning line
 * obeys, found one by one, each with the relaxation that the facts found
 * before it have narrowed, until the relaxation leaves a card not home.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_CHAIN_H
#define BONANZA_SEARCH_CHAIN_H

#include <stdint.h>

#include "search_cards.h"
#include "search_state.h"
#include "search_dead_ends.h"

/*
 * Rule 24 (only kings go into empty columns, and the stock never deals):
 * chained locks.  Rule 8's relaxation, with rules 17 and 18, holds every
 * event of every line.  Here it is narrowed by facts that hold in every
 * winning line, of two kinds:
 *
 *   frozen b   b, a tableau card, leaves its place first for home (its
 *              first move as the first card of a run is home): in the
 *              relaxation M(b) needs H(b), as rule 15's frozen cards;
 *   (c, d)     d, a kid of c (it goes on c), is never put on c before c
 *              has first gone home: P(d) reads A(c) only with H(c), as
 *              rule 20's G.
 *
 * Let C be a set of such facts, each true in every winning line, and R(C)
 * the relaxation so narrowed.  Every event of a winning line is in R(C), by
 * rule 8's induction over the line: an event that a fact restricts happens
 * only after the event the fact asks for (b's move after H(b); d onto c
 * after H(c)), which is earlier in the line, so in R(C) by then; every
 * other formula is rule 8's.  And, for a card e, the relaxation R(C) with e
 * never going home (e's no_home) holds every event of a winning line before
 * e first goes home; with e also never moving (frozen and no_home) every
 * event before e first moves.  So a fact proven from R(C) so restricted, by
 * an argument about the events before such a moment, holds in every
 * winning line, and joins C.  Two arguments are used:
 *
 *   Bare base (rule 20's, in R(C)): c not home, d a kid of c not home, t
 *   c's twin (d's other base).  If, in R(C) with c never going home, d
 *   never goes home and t is never a base, (c, d) holds: were d put on c at
 *   t1 before c first goes home at T, d would leave c between (c goes home
 *   as its column's top), as the first card of a run: for home, or for t
 *   (an empty column takes only kings; d ranks below c), both events before
 *   T, so in that relaxation; neither is.
 *
 *   Parked twin (rule 15's case 1, in R(C)): b, not a king, in a column, and
 *   a, b's twin, above it in the same column with only face-down cards
 *   between (so a leaves, as the first card of a run, before b can move),
 *   or no such a.  P, b's two bases.  Take R(C) with b never moving (frozen
 *   and never home): it holds every event before b's first move.  If in it
 *   no card of P is ever a base, or a never goes home and at most one card
 *   p of P is ever a base, then b's first move is home: were it onto a
 *   column, it is onto a card of P (not an empty column: b is no king) that
 *   is a base by then, so p.  a left b before, not for home, nor for an
 *   empty column, so onto p, and must have left p again before b goes on
 *   it: for home, or for the other card of P, neither in the relaxation.
 *   (a carried on p as p moves still lies on p.)  So frozen b holds.
 *
 * If R(C) leaves a card not home, no line wins: the position is lost.
 *
 * Found in draw-3 deal 1361: the queens of spades and clubs lie face down
 * on the king of hearts, the queen of clubs on top, with the king of
 * diamonds the only other red king: the queen of spades is frozen (parked
 * twin), so the king of hearts, the seven of clubs and the three of
 * diamonds under it wait for the spades to reach the jack.  Then the six of
 * diamonds never goes on the seven of spades before the seven goes home
 * (bare base: its other seven and its predecessor wait under the queen),
 * the three of spades never on the four of hearts (its other four needs a
 * black five on a red six, the six of diamonds), and the two of hearts,
 * the talon's first card, is played only once the three of spades on it
 * has left the talon (rule 18): nowhere to go, and the hearts, the four of
 * hearts and the ace and two of spades under it never come.
 */

#ifndef CHAIN_SWEEPS
#define CHAIN_SWEEPS 12 /* sweeps over the candidates, each after a new fact */
#endif

/* The cards that go on `card`: one rank down, of the other colour. */
static inline uint64_t chain_kids(int card)
{
    int rank = card_rank(card), red = card_red(card);
    if (rank == 1) return 0;
    return 1ULL << ((red ? 0 : 1) * 13 + rank - 2) | 1ULL << ((red ? 3 : 2) * 13 + rank - 2);
}

/* Is (c, kid) a fact of x already? */
static inline int chain_has_pair(const Reach *x, int c, int kid)
{
    for (int k = 0; k < x->kept->n; k++)
        if (x->kept->base[k] == c) return (int)(x->kept->kids[k] >> kid & 1);
    return 0;
}

static inline int chain_add_pair(KeptOff *x, int c, uint64_t kids)
{
    for (int k = 0; k < x->n; k++)
        if (x->base[k] == c) {
            x->kids[k] |= kids;
            return 1;
        }
    if (x->n >= REACH_PAIRS) return 0;
    x->base[x->n] = (uint8_t)c;
    x->kids[x->n++] = kids;
    return 1;
}

/* The relaxation R(C) (x's facts) with `no_home` never going home and
 * `still` never moving to a column; returns H, A in *bases. */
static inline uint64_t chain_reach(const State *s, const Rules *r, int talon, const Reach *facts,
                                   uint64_t no_home, uint64_t still, uint64_t *bases)
{
    Reach y = *facts;
    y.no_home = no_home;
    y.frozen |= still;
    y.snap_h = y.snap_a = NULL;
    y.kids = 0;
    y.quit_h = 0;
    return reach_chained(s, r, talon, bases, &y);
}

/* Rule 24: is the position lost to chained locks?  `sweeps`: at most so many
 * rounds of new facts.  *found_facts (or NULL): how many facts were found;
 * the facts themselves in *out and *kept (given empty). */
static int chain_locked_x(const State *s, const Rules *r, int talon, int sweeps, int *found_facts,
                          Reach *out, KeptOff *kept)
{
    if (r->any_empty || r->deals) return 0;
    Reach facts = {.kept = kept};
    uint64_t bases, home = home_cards(s);
    int n_facts = 0, lost = 0;
    for (int sweep = 0; sweep < sweeps; sweep++) {
        int fresh = 0;
        /* Parked twins, and cards with no base at their first move. */
        for (int c = 0; c < s->ncols; c++) {
            for (int i = 0; i < s->len[c]; i++) {
                int b = s->col[c][i];
                if (card_rank(b) == 13 || (facts.frozen >> b & 1)) continue;
                int a = twin_of(b), above = s->at_col[a] == c && s->at_idx[a] > i
                                             && s->at_idx[a] <= s->down[c];
                uint64_t bit = 1ULL << b;
                uint64_t h = chain_reach(s, r, talon, &facts, bit, bit, &bases);
                int nb = __builtin_popcountll(bases & bases_of(b));
                if (nb == 0 || (above && nb == 1 && !(h >> a & 1))) {
                    facts.frozen |= bit;
                    fresh = 1;
                    n_facts++;
                }
            }
        }
        /* Bare bases. */
        for (int c = 0; c < 52; c++) {
            if (home >> c & 1) continue;
            uint64_t kids = chain_kids(c) & ~home, todo = 0;
            for (uint64_t ks = kids; ks; ks &= ks - 1)
                if (!chain_has_pair(&facts, c, __builtin_ctzll(ks))) todo |= ks & -ks;
            if (!todo) continue;
            uint64_t h = chain_reach(s, r, talon, &facts, 1ULL << c, 0, &bases);
            if (bases >> twin_of(c) & 1) continue;
            uint64_t stranded = todo & ~h;
            if (stranded && chain_add_pair(kept, c, stranded)) {
                fresh = 1;
                n_facts += __builtin_popcountll(stranded);
            }
        }
        if (!fresh) break;
        if (chain_reach(s, r, talon, &facts, 0, 0, &bases) != ALL_CARDS) {
            lost = 1;
            break;
        }
    }
    if (found_facts) *found_facts = n_facts;
    if (out) *out = facts;
    return lost;
}

/* Rule 24 with CHAIN_SWEEPS sweeps (1: lost). */
static int chain_locked(const State *s, const Rules *r, int talon)
{
    KeptOff kept = {0};
    return chain_locked_x(s, r, talon, CHAIN_SWEEPS, NULL, NULL, &kept);
}

#endif /* BONANZA_SEARCH_CHAIN_H */
