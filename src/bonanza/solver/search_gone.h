/*
 * search_gone.h: rule 23, a base gone home: positions lost because, when
 * some card first moves, it must go home, which sends home a base that a
 * kid will need again, so that the kid is stranded on its other base.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_GONE_H
#define BONANZA_SEARCH_GONE_H

#include <stdint.h>

#include "search_cards.h"
#include "search_state.h"
#include "search_dead_ends.h"
#include "search_squeeze.h"

/*
 * Rule 23 (only kings go into empty columns, and the stock never deals).
 * Take a card e in the tableau, not a king, and E, its first move as the
 * first card of a run or home (being carried on a run that starts below it
 * is no such move): every winning line has one, as e must go home.  Let
 * sigma be the position just after E, and F rule 8's relaxation with e never
 * moving (frozen, so moved only home, and never home; the talon taken as
 * rules 17 and 18 take it): every event before E is in F, by rule 8's
 * induction (none of them is such a move of e).  Write H_F, X_F, M_F and A_F
 * for its home, uncovered, moved and base facts.
 *
 * 1. e goes home at E.  If no card of e's bases (the two cards it goes on)
 *    is ever a base in F, none is a column's top at E (a card is a top at E
 *    only if it is a top now or became one before E, an event of F), and an
 *    empty column takes only kings.  So e goes home at E, and if e is not an
 *    ace and its predecessor is not in H_F, E cannot happen: the position is
 *    lost.  Else in sigma the cards K of e's suit up to e are all home, with
 *    e the top of their foundation.  (If e lies face down and is not in
 *    X_F, E cannot happen either; the rule leaves that to rule 8.)
 *
 * 2. Kids pinned on a base.  Let y, not a king, be a kid of a card t of K (y
 *    goes on t, and on t's twin p, its other base), y not in H_F (so not
 *    home in sigma: a card home in sigma went home before E, and E moves e
 *    alone), with y in the tableau now and either
 *      (a) lying above a card k of K in k's column now (k is home in sigma,
 *          and went home from a column as its top, so every card above it
 *          now has left its place by then: as the first card of a run, or
 *          carried, when the card it lay on moved as the first card of a
 *          run, or was carried itself), or
 *      (b) lying face up directly on one of its bases now.
 *    Then y lies directly on p in sigma.  Take y's last move as the first
 *    card of a run before sigma, if any: it went onto a base (a top then),
 *    or home and (not home in sigma) came back onto a base by a recall (an
 *    empty column takes only kings), and has lain on that base since,
 *    carried with it or not.  If it made no such move, it lies now on the
 *    card under it (in (a) it was carried, which a run does only on a built
 *    pair; in (b) that card is a base).  Either way y lies on a base in
 *    sigma, and not on t, which is home: on p.  Take only such y whose p is
 *    not home now (then no card of p's suit from p up is home now, nor in
 *    sigma, where p is in the tableau).
 *
 * 3. After sigma.  While a pinned y lies on its p, p is covered.  So the
 *    first time after sigma that p goes home, y has left p before, as the
 *    first card of a run (if p moves, y moves with it and still lies on
 *    it): for home, or onto a column's top card it goes on, which is t, or
 *    into an empty column (only kings: not y).  And t is home in sigma,
 *    under e, so t is a top after sigma only once it has come back from its
 *    foundation after sigma, and so once e has come back before it, onto
 *    one of e's bases, a top then (e is not a king): the same holds for
 *    every card of K.
 *
 *    Let G be the least solution of rule 8's formulas from the position, with
 *      - the facts of F, and e home and moved, given at the start (seeds:
 *        H_F and K for H, X_F and e for X, M_F and e for M, and A_F without
 *        K for A; search_dead_ends.h, Reach);
 *      - the cards of K a base (A) only once a card of e's bases is (the
 *        gate);
 *      - each pinned y's p never home, nor a card of its suit above it,
 *        until y goes home or t is a base (the pins);
 *      - every talon card playable at any time (TALON_FREE).
 *    Every event of a line after sigma is in G, by induction over the line
 *    as for rule 8.  An event's formula names earlier events.  Those before
 *    sigma are facts of F, or E's (e home and moved, and the card under e
 *    uncovered, which M(e) gives), all given, save the cards of K being
 *    bases; the formulas need a base only as a column's top at the time of
 *    the event, and a card of K is a top after sigma only through the gate
 *    (above), while any other card that is a top after sigma either became
 *    one after sigma or was one at sigma, so an event of F (X or A) or of E.
 *    A card of the position's foundations comes back only once it is its
 *    foundation's top: it is one now, or the card on it now has come back
 *    before (an event of F, or of G after sigma), as rule 8 takes it (a
 *    card of K needs the gate besides).  A pinned p goes home, the first time after sigma, only
 *    after its y went home or t was a top (above), and a card of p's suit
 *    above p only after p (p's suit is not home in sigma from p up: such a
 *    card is in the tableau or the talon now, and its own formula holds,
 *    uncovered or played, when it goes home).  Every other formula is rule
 *    8's, and every talon card is playable.
 *
 *    So if G leaves a card not home, no line with E wins, and as every
 *    winning line has E, the position is lost.
 *
 * Found in deal 1582, draw 1: e the five of hearts (face down in column 7,
 * under the nine of hearts, eight of diamonds, seven of spades, jack of
 * hearts and ten of hearts, with the ace of diamonds under it).  Its bases,
 * the black sixes, go only on the red sevens, which lie under the ace of
 * spades and the five of diamonds in column 6: the five of diamonds needs
 * the ace of diamonds home (under e) or a black six, so neither six is ever
 * a base before E, and e must go home.  Then the two of hearts is home, so
 * the three of spades (y, on it in column 2) lies on a red four, and the
 * four of hearts (t) is home: it lies on the four of diamonds (p).  After
 * that the three of spades cannot go home (the ace of spades lies under the
 * five of diamonds, which needs the four of diamonds home), and the four of
 * hearts comes back only after the five of hearts, onto a black six: the
 * four of diamonds never goes home.
 *
 * Each test of a card e costs two relaxations (F, then G where e must go
 * home), so the search makes it on the schedule of rules 20 to 22
 * (lock_due): on every tableau card of a search's first position once it is
 * not decided at once, and at a dead-end test after BARE_AFTER of them, on
 * GONE_TRIES cards, those found lately first.
 */

/* The kids of the cards of `cards`: one rank down, of the other colour. */
static inline uint64_t kids_in(uint64_t cards)
{
    uint64_t kids = 0;
    for (; cards; cards &= cards - 1) {
        int card = __builtin_ctzll(cards), rank = card_rank(card), red = card_red(card);
        if (rank > 1)
            kids |= 1ULL << ((red ? 0 : 1) * 13 + rank - 2) | 1ULL << ((red ? 3 : 2) * 13 + rank - 2);
    }
    return kids;
}

/* Rule 23 at card e (in the tableau): is the position lost? */
static int gone_base_at(const State *s, const Rules *r, int talon, int e)
{
    const uint64_t one = 1ULL << e, kings = RANK_MASK(13), home = home_cards(s);
    if (card_rank(e) == 13 || s->at_col[e] < 0) return 0;
    const uint64_t K = SUIT_MASK(card_suit(e)) & ((2ULL << e) - 1);
    /* A base of e that is a top now, or a talon card (all playable) that
     * fits on one, is a base in F (skip the relaxation). */
    const uint64_t e_bases = bases_of(e);
    if ((e_bases & s->top_mask)
        || (talon == TALON_FREE && (e_bases & s->tal_mask & parent_in(s->top_mask))))
        return 0;
    /* The kids y that 2 (a) and (b) pin on their other base p in sigma, but
     * for y in H_F (not known yet; home now, it is).  G finds a card not
     * home through the gate alone in few positions (2 of 4,981 firings in
     * searches of random deals with the rule everywhere), so the rule is
     * tried only where some kid may be pinned: skipping a test only keeps
     * positions. */
    uint64_t tableau = 0, moved = cards_above(s, e), pins = 0;
    for (int c = 0; c < s->ncols; c++) tableau |= s->col_mask[c];
    for (uint64_t ks = K & tableau & ~one; ks; ks &= ks - 1) moved |= cards_above(s, __builtin_ctzll(ks));
    for (uint64_t ys = kids_in(K) & tableau & ~home & ~kings; ys; ys &= ys - 1) {
        int y = __builtin_ctzll(ys), under = card_under(s, y);
        int lies = under >= 0 && !(s->down_mask >> y & 1) && fits_on(y, under);
        if (((moved >> y & 1) || lies) && !(bases_of(y) & ~K & home)) pins |= ys & -ys;
    }
    if (!pins) return 0;
    /* F: e never moves. */
    uint64_t base_f;
    Reach f = {.no_home = one};
    uint64_t home_f = reach_with(s, r, one, 0, talon, &base_f, &f);
    if (base_f & e_bases) return 0;
    if (card_rank(e) > 1 && !(home_f >> (e - 1) & 1)) return 1; /* E cannot happen */
    /* (A face-down e never uncovered in F never moves: lost, but left to
     * rule 8.) */
    if ((s->down_mask & one) && !(f.got_x & one)) return 0;
    Reach g = {.seed_h = home_f | K, .seed_x = f.got_x | one, .seed_m = f.got_m | one,
               .seed_a = base_f & ~K, .gate_cards = K, .gate_bases = e_bases};
    for (uint64_t ys = pins & ~home_f; ys && g.npins < REACH_PINS; ys &= ys - 1) {
        int y = __builtin_ctzll(ys);
        g.pin_kid[g.npins] = (int8_t)y;
        g.pin_base[g.npins] = (int8_t)__builtin_ctzll(bases_of(y) & ~K);
        g.pin_alt[g.npins++] = bases_of(y) & K;
    }
    uint64_t base_g, home_g = reach_given(s, r, TALON_FREE, &base_g, &g);
#ifdef GONE_DEBUG
    if (home_g != ALL_CARDS)
        fprintf(stderr, "rule23 e %d down %d bottom %d pins %d notpinned %d\n", e, (int)(s->down_mask >> e & 1),
                s->at_idx[e] == 0, g.npins, (int)(home_g >> (g.npins ? g.pin_base[0] : 0) & 1));
#endif
    return home_g != ALL_CARDS;
}

/* Rule 23 at every card of the tableau not home (1: lost). */
static int gone_based(const State *s, const Rules *r, int talon)
{
    if (r->any_empty || r->deals) return 0;
    for (int c = 0; c < s->ncols; c++)
        for (int i = 0; i < s->len[c]; i++)
            if (gone_base_at(s, r, talon, s->col[c][i])) return 1;
    return 0;
}

/* Rule 23 in the search: at most GONE_TRIES cards a test, those found
 * lately first, then the others in turn (1: lost). */
#ifndef GONE_TRIES
#define GONE_TRIES 1
#endif
static int gone_based_some(const State *s, const Rules *r, int talon, LockMemo *m)
{
    if (r->any_empty || r->deals) return 0;
    uint64_t candidates = 0;
    for (int c = 0; c < s->ncols; c++) candidates |= s->col_mask[c];
    return lock_some(s, r, talon, m, candidates & ~RANK_MASK(13), GONE_TRIES, gone_base_at);
}

/* Rule 23 on the position a search starts from, at every card (1: lost);
 * the portfolio makes it once the position is not decided at once. */
static int gone_at_start(const State *start, const Rules *r, const Options *o)
{
    return lock_at_start(start, r, o, PRUNE_GONE_BASE, gone_based);
}

#endif /* BONANZA_SEARCH_GONE_H */
