/*
 * search_locks.h: positions lost to a lock the relaxation of rule 8 does not
 * see by itself: a card under its twin (rule 15), a base its kids may not
 * use (rule 20); and the dead-end test that runs rules 8, 15 and 20.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_LOCKS_H
#define BONANZA_SEARCH_LOCKS_H

#include <stdint.h>

#include "search_cards.h"
#include "search_state.h"
#include "search_dead_ends.h"

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
static int twin_locked(const State *s, const Rules *r, int talon)
{
    if (r->any_empty) return 0;
    for (int c = 0; c < s->ncols; c++) {
        int down = s->down[c];
        /* The face-down cards, not kings, whose twins lie in the same column
         * (clubs and spades are suits 0 and 3, diamonds and hearts 1 and 2). */
        uint64_t mine = s->col_mask[c];
        uint64_t twins = ((mine & SUIT_MASK(0)) << 39) | ((mine & SUIT_MASK(3)) >> 39)
                       | ((mine & SUIT_MASK(1)) << 13) | ((mine & SUIT_MASK(2)) >> 13);
        for (uint64_t bs = mine & twins & s->down_mask & ~RANK_MASK(13); bs; bs &= bs - 1) {
            int b = __builtin_ctzll(bs), i = s->at_idx[b], a = twin_of(b), rank = card_rank(b);
            if (s->at_idx[a] <= i || s->at_idx[a] > down) continue;
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
            if (home_reach(s, r, 1ULL << b, pair, talon, &bases) & pair) continue;
            if (__builtin_popcountll(bases & p) <= 1) return 1;
            if (q && s->at_col[p1] < 0 && s->at_col[p2] < 0 && __builtin_popcountll(bases & q) <= 1)
                return 1;
        }
    }
    return 0;
}

/*
 * Rule 20 (only kings go into empty columns, and the stock never deals):
 * bare bases.  Take a card c, not home, and a kid d of c (a card that goes
 * on c: one rank down, the other colour), and let t be c's twin, d's other
 * base.  Let F be the relaxation of rule 8 in which c never goes home
 * (Reach.no_home).  Every event of a line up to the moment c first goes home
 * is in F: by rule 8's induction, as none of them is c, or a card of its
 * suit above it, going home.  Suppose that in F d never goes home and t is
 * never a base.  Then no winning line puts d on c before c first goes home.
 *
 * For say one does, at time t1, and c first goes home at T > t1 (the line
 * wins, so c goes home).  A card goes home from a column only as its top, so
 * d left c at some time t2 between: until then it lay on c (no card goes
 * between two others; c may move with d on it).  It left as the first card
 * of a run: for home (H(d) at t2 < T, in F), onto t (t a top at t2: A(t),
 * in F), or into an empty column (only kings go there, and d ranks below c):
 * none can happen.
 *
 * So take the relaxation G in which d goes on c only once c has been home
 * (Reach.base and kids: P(d) reads A(t), and A(c) only with H(c)).  Every
 * event of a winning line is in G, by induction over the line as for rule
 * 8: where the line puts d on c, c went home before, an earlier event, so
 * H(c) holds in G; and c lies on a column then, so A(c) holds (a tableau
 * card was a top before it went home; a talon card was put on a column, by
 * a play or a recall: P(c) or K(c)); every other formula is rule 8's.  If G
 * leaves a card not home, no line wins.
 *
 * The tests cost a relaxation each, and pay only on a few hard deals, so a
 * search makes them on every card of the position it starts from once that
 * is not decided at once (bare_at_start), and at its dead-end tests after
 * BARE_AFTER of them, on at most BARE_TRIES cards a position: those that
 * were bare bases lately first, then the others in turn; and where BARE_QUIET
 * tries in a row found nothing, at every second test, then every fourth, and
 * so on to every BARE_LONGEST-th, until one finds a bare base again
 * (skipping a test only keeps positions).  A card is taken only where its
 * twin is face down or in the talon (where the twin is most often never a
 * base), and F is not run where rule 8's own solution already had t a base,
 * or every kid home, in a round before c went home: those events did not
 * need c home, so F has them.
 */

/* The cards that go on `card`: one rank down, of the other colour. */
static inline uint64_t kids_of(int card)
{
    int rank = card_rank(card), red = card_red(card);
    if (rank == 1) return 0;
    return 1ULL << ((red ? 0 : 1) * 13 + rank - 2) | 1ULL << ((red ? 3 : 2) * 13 + rank - 2);
}

/* The first round of a solution's snapshots that holds `card`
 * (REACH_ROUNDS if none). */
static inline int first_round(const uint64_t *snap, int rounds, int card)
{
    for (int k = 0; k < rounds; k++)
        if (snap[k] >> card & 1) return k;
    return REACH_ROUNDS;
}

/* The kids that c strands (rule 20), by the relaxation F; `main` holds the
 * rounds of rule 8's solution, `home` the cards home. */
static uint64_t stranded_kids(const State *s, const Rules *r, int talon, const Reach *main,
                              uint64_t home, int c)
{
    int t = twin_of(c);
    uint64_t kids = kids_of(c) & ~home;
    if (!kids || !((s->tal_mask | s->down_mask) >> t & 1)) return 0;
    int c_home = first_round(main->snap_h, main->rounds, c);
    if (first_round(main->snap_a, main->rounds, t) < c_home) return 0;
    uint64_t late = 0;
    for (uint64_t ks = kids; ks; ks &= ks - 1)
        if (first_round(main->snap_h, main->rounds, __builtin_ctzll(ks)) >= c_home)
            late |= ks & -ks;
    if (!late) return 0;
    Reach f = {.no_home = 1ULL << c, .quit_h = late, .quit_a = 1ULL << t};
    uint64_t bases, h = home_reach_x(s, r, talon, &bases, &f);
    return bases >> t & 1 ? 0 : late & ~h;
}

/* Rule 20: is the position lost to a bare base?  `main`: the rounds of rule
 * 8's solution, which left every card home; `every`: try every card. */
static int bare_based(const State *s, const Rules *r, Options *o, int talon, const Reach *main,
                      int every)
{
    BareMemo *m = &o->bare;
    const uint64_t home = home_cards(s), cards = ALL_CARDS & ~home;
    uint64_t tried = 0;
    int tries = 0;
    for (int k = 0; every || tries < BARE_TRIES; k++) {
        int c;
        if (k < BARE_RECENT) {
            c = m->recent[k] - 1;
            if (c < 0 || !(cards >> c & 1)) continue;
        } else {
            uint64_t rest = cards & ~tried;
            if (!rest) break;
            /* the next of the others, in turn */
            unsigned skip = m->turn++ % (unsigned)__builtin_popcountll(rest);
            while (skip--) rest &= rest - 1;
            c = __builtin_ctzll(rest);
        }
        tried |= 1ULL << c;
        tries++;
        uint64_t kids = stranded_kids(s, r, talon, main, home, c), bases;
        if (!kids) continue;
        Reach g = {.base = c, .kids = kids};
        if (home_reach_x(s, r, talon, &bases, &g) == ALL_CARDS) continue;
        /* c to the front of the recent bare bases */
        int j = 0;
        while (j < BARE_RECENT - 1 && m->recent[j] != c + 1) j++;
        for (; j > 0; j--) m->recent[j] = m->recent[j - 1];
        m->recent[0] = (int8_t)(c + 1);
        return 1;
    }
    return 0;
}

/* Rules 8 (with 17 and 18), 15 and 20: is the position lost?  `reach_known`:
 * rule 8's answer is known to be no (see reach_kept), and only rule 15 is
 * tested. */
static int hopeless(const State *s, const Rules *r, Options *o, int reach_known)
{
    uint64_t bases, snap_h[REACH_ROUNDS], snap_a[REACH_ROUNDS];
    int talon = talon_mode(s, r, o);
    /* Rule 20 wants the rounds of rule 8's solution. */
    int every = o->sides & SIDE_BARE_EVERY;
    int bare = !reach_known && (o->prune & PRUNE_BARE_BASES) && !r->any_empty && !r->deals
               && ((++o->bare.tests > BARE_AFTER && o->bare.tests % (o->bare.period | 1) == 0)
                   || every);
    Reach main = {.snap_h = snap_h, .snap_a = snap_a};
    if (!reach_known && (bare ? home_reach_x(s, r, talon, &bases, &main)
                              : home_reach(s, r, 0, 0, talon, &bases)) != ALL_CARDS) {
        /* Counted as rule 17's or 18's where the talon so taken decides it. */
        FIRE(o, talon == TALON_FREE || home_reach(s, r, 0, 0, TALON_FREE, &bases) != ALL_CARDS ? 8
                : talon == TALON_STACK ? 17 : 18);
        return 1;
    }
    if ((o->prune & PRUNE_TWIN_LOCKS) && twin_locked(s, r, talon)) {
        FIRE(o, 15);
        return 1;
    }
    if (bare) {
        BareMemo *m = &o->bare;
        if (bare_based(s, r, o, talon, &main, every)) {
            m->period = 1;
            m->quiet = 0;
            FIRE(o, 20);
            return 1;
        }
        if (++m->quiet >= BARE_QUIET) {
            m->quiet = 0;
            m->period = m->period >= BARE_LONGEST / 2 ? BARE_LONGEST : 2 * (m->period | 1);
        }
    }
    return 0;
}

/* Rule 20 on the position a search starts from, on every card (1: lost).
 * The portfolio makes it once the position is not decided at once (see
 * portfolio_rounds): it costs some relaxations, too many for every deal. */
static int bare_at_start(const State *start, const Rules *r, Options *o)
{
    uint64_t bases, snap_h[REACH_ROUNDS], snap_a[REACH_ROUNDS];
    if ((o->prune & (PRUNE_DEAD_ENDS | PRUNE_BARE_BASES)) != (PRUNE_DEAD_ENDS | PRUNE_BARE_BASES)
        || r->any_empty || r->deals)
        return 0;
    int talon = talon_mode(start, r, o);
    Reach main = {.snap_h = snap_h, .snap_a = snap_a};
    /* (Rule 8's own verdict is the search's: it tested this position first.) */
    if (home_reach_x(start, r, talon, &bases, &main) != ALL_CARDS) return 0;
    return bare_based(start, r, o, talon, &main, 1);
}

/* Rule 8's test alone, not counted (for SIDE_CHECK_SKIPS). */
static int reach_drops(const State *s, const Rules *r, const Options *o)
{
    uint64_t bases;
    return home_reach(s, r, 0, 0, talon_mode(s, r, o), &bases) != ALL_CARDS;
}

#endif /* BONANZA_SEARCH_LOCKS_H */
