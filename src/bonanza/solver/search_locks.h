/*
 * search_locks.h: positions lost to a lock the relaxation of rule 8 does not
 * see by itself: a card under its twin (rule 15), a base its kids may not
 * use (rule 20), two kids that must share one base (rule 21); and the
 * dead-end test that runs rules 8, 15, 20 and 21.
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
#include "search_squeeze.h"
#include "search_gone.h"
#include "search_chain.h"

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
    LockMemo *m = &o->bare;
    const uint64_t home = home_cards(s), cards = ALL_CARDS & ~home;
    uint64_t tried = 0;
    int tries = 0;
    for (int k = 0; every || tries < BARE_TRIES; k++) {
        int c = lock_next(m, cards, tried, k);
        if (c == -2) break;
        if (c < 0) continue;
        tried |= 1ULL << c;
        tries++;
        uint64_t kids = stranded_kids(s, r, talon, main, home, c), bases;
        if (!kids) continue;
        Reach g = {.base = c, .kids = kids};
        if (home_reach_x(s, r, talon, &bases, &g) == ALL_CARDS) continue;
        lock_remember(m, c);
        return 1;
    }
    return 0;
}

/*
 * Rule 21 (only kings go into empty columns, and the stock never deals): two
 * kids, one base.  Take a face-down card q (not an ace), the card u lying
 * directly on it, q's twin p, and q's kids a and b (twins of each other,
 * which go on p and q only).  Let T be u's first move: every winning line
 * has it, as q must come up to go home.  Before T, q is covered, so a kid
 * that moves as the first card of a run goes home or onto p (an empty column
 * takes only kings, and a kid ranks below a king); once on p it leaves only
 * for home, and a kid recalled from home goes back onto p.  (A kid carried
 * as a later card of a run stays on the card it lies on.)  Say each kid x
 * meets one of:
 *   (g) x lies face up directly on p: until T it stays on p or goes home;
 *   (a) x lies above u in q's column and moves only as the first card of a
 *       run (it is face down, or lies on a face-down card or on a card it
 *       does not fit on): it moves before T, so it is home or on p at T;
 *   (b) x lies in another column, moves only as the first card of a run,
 *       and rule 15's case 1 holds while x stays: u is not a king, lies
 *       face down under its twin u' with only face-down cards between, and
 *       in rule 8's relaxation with x never moving and u never put on a
 *       column, neither u nor u' goes home and at most one card of u's
 *       bases P is ever a base.  Then u cannot move while x has not: up to
 *       u's first move, were it before x's, every event is in that
 *       relaxation; u' left u before, not for home, so for the one card of
 *       P ever a base, and u goes on a card of P (not home: not in the
 *       relaxation), so on that one, which u' must have left again, for
 *       home or the other card of P: neither is in the relaxation.  So x
 *       moves first, before T, and is home or on p at T.
 * Then just before T each kid is home or directly on p.  Let R be rule 8's
 * relaxation with u never moving (never home, never on a column): every
 * event before T is in R.  If in R neither kid ever goes home, both kids lie
 * directly on p at once just before T, which cannot be: no line has T, and
 * the position is lost.
 *
 * (Found in deal 859, draw 1, where q is the king of clubs, u the six of
 * clubs, p the king of spades, a the queen of hearts by (a) and b the queen
 * of diamonds by (b), with the six of spades as u'.)  Each candidate q costs
 * a relaxation, and a kid under (b) one more, so the search makes the test
 * on rule 20's schedule (lock_due): after BARE_AFTER dead-end tests, less
 * often while it finds nothing.
 */

/* Does `card`, in a column, move only as the first card of a run? */
static inline int moves_first(const State *s, int card)
{
    int c = s->at_col[card], i = s->at_idx[card];
    if (c < 0) return 0;
    if (i == 0 || i - 1 < s->down[c]) return 1; /* at the bottom, or on a face-down card */
    return !fits_on(card, s->col[c][i - 1]);
}

enum { KID_LOOSE, KID_WAITS, KID_WAITS_IF_LOCKED };

/* Is kid x of face-down q (at height qi of column qc, u on it) home or on p
 * at T: by (g) or (a) (KID_WAITS), if u is locked while x stays, by (b)
 * (KID_WAITS_IF_LOCKED), or not known (KID_LOOSE)? */
static inline int kid_waits(const State *s, int x, int p, int qc, int qi)
{
    int c = s->at_col[x], i = s->at_idx[x];
    if (c < 0) return KID_LOOSE;
    if (i > 0 && i >= s->down[c] && s->col[c][i - 1] == p) return KID_WAITS;
    if (!moves_first(s, x)) return KID_LOOSE;
    if (c == qc) return i > qi + 1 ? KID_WAITS : KID_LOOSE;
    return KID_WAITS_IF_LOCKED;
}

/* Rule 21: is the position lost to two kids that must share one base? */
static int shared_base_locked(const State *s, const Rules *r, int talon)
{
    if (r->any_empty || r->deals) return 0;
    for (int qc = 0; qc < s->ncols; qc++) {
        int down = s->down[qc];
        for (int qi = 0; qi < down && qi + 1 < s->len[qc]; qi++) {
            int q = s->col[qc][qi], u = s->col[qc][qi + 1], p = twin_of(q);
            uint64_t kids = kids_of(q);
            if (!kids) continue;
            int kid[2] = {__builtin_ctzll(kids), 63 - __builtin_clzll(kids)};
            int kind[2] = {kid_waits(s, kid[0], p, qc, qi), kid_waits(s, kid[1], p, qc, qi)};
            if (kind[0] == KID_LOOSE || kind[1] == KID_LOOSE) continue;
            /* (b) asks u, face down, to lie under its twin, only face-down
             * cards between (at height down at most). */
            int twin = twin_of(u);
            int nested = qi + 1 < down && card_rank(u) < 13 && s->at_col[twin] == qc
                         && s->at_idx[twin] > qi + 1 && s->at_idx[twin] <= down;
            if ((kind[0] == KID_WAITS_IF_LOCKED || kind[1] == KID_WAITS_IF_LOCKED) && !nested)
                continue;
            uint64_t bases, unmoved = 1ULL << u;
            Reach still = {.no_home = unmoved};
            if (reach_with(s, r, unmoved, 0, talon, &bases, &still) & kids) continue;
            int locked = 1;
            for (int k = 0; k < 2 && locked; k++) {
                if (kind[k] != KID_WAITS_IF_LOCKED) continue;
                Reach stays = {.no_home = 1ULL << kid[k]};
                uint64_t pair = unmoved | 1ULL << twin;
                uint64_t h = reach_with(s, r, 1ULL << kid[k] | unmoved, 0, talon, &bases, &stays);
                locked = !(h & pair) && __builtin_popcountll(bases & bases_of(u)) <= 1;
            }
            if (locked) return 1;
        }
    }
    return 0;
}

/* A lock rule's schedule (LockMemo): is its test due at this dead-end test
 * (after BARE_AFTER of them, at every period-th)? */
static inline int lock_due(LockMemo *m)
{
    return ++m->tests > BARE_AFTER && m->tests % (m->period | 1) == 0;
}

/* After a try of a lock rule (`found`: it found the position lost): a find
 * makes it due at every test again, and BARE_QUIET tries in a row that find
 * nothing double its period, up to BARE_LONGEST.  Returns `found`. */
static inline int lock_tried(LockMemo *m, int found)
{
    if (found) {
        m->period = 1;
        m->quiet = 0;
    } else if (++m->quiet >= BARE_QUIET) {
        m->quiet = 0;
        m->period = m->period >= BARE_LONGEST / 2 ? BARE_LONGEST : 2 * (m->period | 1);
    }
    return found;
}

/* Rules 8 (with 17 and 18), 15, 20, 21 and 22: is the position lost?
 * `reach_known`: rule 8's answer is known to be no (see reach_kept), and only
 * rules 15 and 21 are tested. */
static int hopeless(const State *s, const Rules *r, Options *o, int reach_known)
{
    uint64_t bases, snap_h[REACH_ROUNDS], snap_a[REACH_ROUNDS];
    int talon = talon_mode(s, r, o);
    /* Rule 20 wants the rounds of rule 8's solution. */
    int every = o->sides & SIDE_BARE_EVERY;
    int locks = !r->any_empty && !r->deals;
    int bare = !reach_known && (o->prune & PRUNE_BARE_BASES) && locks
               && (lock_due(&o->bare) || every);
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
    if ((o->prune & PRUNE_SHARED_BASE) && locks) {
        int found = o->sides & SIDE_SHARED_EVERY ? shared_base_locked(s, r, talon)
                  : lock_due(&o->shared) && lock_tried(&o->shared, shared_base_locked(s, r, talon));
        if (found) {
            FIRE(o, 21);
            return 1;
        }
    }
    if (!reach_known && (o->prune & PRUNE_SQUEEZE) && locks) {
        int found = o->sides & SIDE_SQUEEZE_EVERY ? squeezed(s, r, talon)
                  : lock_due(&o->squeeze)
                    && lock_tried(&o->squeeze, squeezed_some(s, r, talon, &o->squeeze));
        if (found) {
            FIRE(o, 22);
            return 1;
        }
    }
    if (!reach_known && (o->prune & PRUNE_GONE_BASE) && locks) {
        int found = o->sides & SIDE_GONE_EVERY ? gone_based(s, r, talon)
                  : lock_due(&o->gone)
                    && lock_tried(&o->gone, gone_based_some(s, r, talon, &o->gone));
        if (found) {
            FIRE(o, 23);
            return 1;
        }
    }
    if (bare && lock_tried(&o->bare, bare_based(s, r, o, talon, &main, every))) {
        FIRE(o, 20);
        return 1;
    }
    /* Rule 24 costs dozens of relaxations: in the search only for tests
     * (it runs at a search's start, chain_at_start); last, as its chain
     * holds rule 20's argument, so that rule 20 fires where it would. */
    if (!reach_known && (o->prune & PRUNE_CHAIN) && locks && (o->sides & SIDE_CHAIN_EVERY)
        && chain_locked(s, r, talon)) {
        FIRE(o, 24);
        return 1;
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

/* Rule 24 on the position a search starts from (1: lost). */
static int chain_at_start(const State *start, const Rules *r, const Options *o)
{
    return lock_at_start(start, r, o, PRUNE_CHAIN, chain_locked);
}

/* Rule 8's test alone, not counted (for SIDE_CHECK_SKIPS). */
static int reach_drops(const State *s, const Rules *r, const Options *o)
{
    uint64_t bases;
    return home_reach(s, r, 0, 0, talon_mode(s, r, o), &bases) != ALL_CARDS;
}

#endif /* BONANZA_SEARCH_LOCKS_H */
