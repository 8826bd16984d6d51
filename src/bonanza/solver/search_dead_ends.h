/*
 * search_dead_ends.h: positions where a card can never go home (rule 8, with
 * 17 and 18): the relaxation that rules 15 and 20 (search_locks.h) build on.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_DEAD_ENDS_H
#define BONANZA_SEARCH_DEAD_ENDS_H

#include <stdint.h>

#include "search_cards.h"
#include "search_state.h"

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
 * Where the stock deals onto every column (Easthaven), a deal puts each
 * stock card on a column as its top: so every stock card is X and A, and M
 * once P or K (or H); and it may be a column's first card (dealt into an
 * empty one), so E also follows M of a stock card.  And a column's face-up
 * cards need not be one run: a face-up card under a pair that is not built
 * (the upper card does not fit on the lower) moves only with the cards on
 * it as a run, so once the lower card g of the nearest such pair at or
 * above it is ever the top (X(g)); X(g) follows M of the card on g as for
 * any card.  A deal covers a column's top, which takes nothing away from
 * "ever".
 *
 * Rule 17 (with rule 8, where no recycle is left): the waste is a stack.
 * Its cards w_0 (bottom) .. w_top are never put back in the stock, only its
 * top card is ever played, and a draw puts stock cards on top of it, never
 * between two of its cards.  So w_i (below the top) is played only after
 * w_(i+1) has left the talon, for home or a column:
 *
 *   V(t)  talon card t is ever played: t is in the stock or the waste top,
 *         or t = w_i, i < top, and L(w_(i+1)).
 *   L(t)  t leaves the talon: V(t), and H(t) or t ever goes on a column
 *         (P(t) or K(t)).
 *
 * and V stands for "in the talon" in H and A above (a talon card goes home,
 * or becomes a base, only once played).  Each is a condition that every line
 * meets at the time of the event, as the others are: at the move that plays
 * w_i, w_i is the waste top, so w_(i+1), which lay on it, has left by then;
 * and it left by going home or onto a column.  Stock cards are counted as
 * ever played whatever the draw (with draw 3 a card may need the cards on it
 * in its group gone first; counting it playable only keeps positions).
 *
 * Rule 18 (with rule 8, a draw d > 1, and a recycle left): which talon
 * cards the draws reach.  Number the talon t_0 .. t_(n-1) in draw order
 * (the waste from its bottom up, then the stock), with the pointer at p (the
 * waste is t_0 .. t_(p-1)).  A card is played only as the waste top, t_i
 * when the pointer is at i + 1 and no card before it has left (its number
 * is still i).  The pointer moves by draws (q to min(q + d, talon size)), a
 * recycle (to 0) and plays of the waste top (q to q - 1, the card t_(q-1)
 * leaving).  Take the first play of t_i, and suppose no card before it and
 * not t_(i+1) has left by then.  Then the pointer was never moved down onto
 * i + 1 by a play (that would be t_(i+1)'s), nor came down through it (a
 * play below i + 1 is of a card before t_i), so from p or from a recycle it
 * came to i + 1 by draws alone, before which no play of a card at or below
 * the pointer happened either; the cards after t_(i+1) that left change no
 * number up to i + 1, and t_i is the talon's last card only if it was (the
 * card after it has not left).  So:
 *
 *   V(t_i)  i + 1 = p + k d for some k >= 0, or i + 1 = k d for some k >= 1
 *           (after a recycle), or i = n - 1; or L(t_(i+1)); or L(t_j) for
 *           some j < i.
 *   L(t)    t leaves the talon: V(t), and H(t) or t ever goes on a column.
 *
 * Every play of a talon card meets this at the time it happens, so, as for
 * every event (below), the least solution holds every one of a real line.  (The rule
 * takes one card gone before t_i as enough, which only keeps positions.)
 * Positions whose pointers rule 9's key takes as one (a multiple of d, or
 * the end, with unlimited passes) have the same first set.
 *
 * Every event of a real line of play makes its own formula true at the time
 * it happens, by the conditions it needed then, so by induction over the
 * line every event that can happen is in the least solution.  If H is false
 * for a card, no line from here wins.  The solution is computed by repeating
 * the formulas from "nothing happens" until nothing changes (they are
 * monotone, so this reaches the least solution).
 */
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

/* The cards home. */
static inline uint64_t home_cards(const State *s)
{
    uint64_t home = 0;
    for (int suit = 0; suit < 4; suit++) home |= ((1ULL << s->found[suit]) - 1) << (13 * suit);
    return home;
}

/* How the relaxation takes the talon: every card playable at any time, the
 * waste as a stack (rule 17) or what the draws reach (rule 18). */
enum { TALON_FREE, TALON_STACK, TALON_CYCLE };

/* What rule 20 (search_locks.h) asks of the relaxation besides:
 *   no_home     a card (mask of one, or 0) that never goes home;
 *   base, kids  while card `base` is not home, no card of `kids` goes on it
 *               (kids 0: none);
 *   quit_h, quit_a  stop, with a partial solution, once H holds all of
 *               quit_h or A meets quit_a (quit_h 0: never);
 *   snap_h, snap_a  (or NULL) H and A at the end of each round, the last of
 *               the REACH_ROUNDS slots taking the later rounds; `rounds`
 *               counts the slots filled. */
#define REACH_ROUNDS 24
#define REACH_PAIRS 48 /* rule 24: the most bases that keep kids off */
/* Rule 24's bases that keep kids off until they have been home: kids[k] off
 * card base[k], n of them. */
typedef struct KeptOff {
    int n;
    uint8_t base[REACH_PAIRS];
    uint64_t kids[REACH_PAIRS];
} KeptOff;
typedef struct {
    uint64_t no_home, kids, quit_h, quit_a;
    int base, rounds;
    uint64_t *snap_h, *snap_a;
    /* Rule 23 (search_gone.h) besides:
     *   seed_h, seed_x, seed_m, seed_a  facts given at the start (H, X, M, A);
     *   gate_cards, gate_bases  no card of gate_cards is a base (A) until a
     *               card of gate_bases is;
     *   pins        pin_kid[k] lies on pin_base[k]: pin_base[k] goes home
     *               only once pin_kid[k] has gone home or a card of
     *               pin_alt[k] is a base (npins of them);
     *   got_x, got_m  (out) X and M at the end. */
    uint64_t seed_h, seed_x, seed_m, seed_a, gate_cards, gate_bases;
#define REACH_PINS 8
    int npins;
    int8_t pin_kid[REACH_PINS], pin_base[REACH_PINS];
    uint64_t pin_alt[REACH_PINS];
    uint64_t got_x, got_m;
    /* Rule 24 (search_chain.h): cards that never go on a column before they
     * have been home (their M is H alone, as `frozen`'s), and bases that
     * keep kids off until they have been home (`kept`, or NULL: none; apart,
     * so that the other rules' Reach stays small to clear). */
    uint64_t frozen;
    const struct KeptOff *kept;
} Reach;

/* Rule 24's place: of the cards that may go on a base of A (`place`, from
 * parent_in(A)), each kid kept off a base not yet home (`active`) may go
 * only on its other bases. */
static inline uint64_t place_kept_off(const KeptOff *x, uint64_t A, uint64_t active,
                                      uint64_t place)
{
    uint64_t kept = 0;
    for (int k = 0; k < x->n; k++)
        if (active >> x->base[k] & 1) kept |= x->kids[k];
    uint64_t out = place & ~kept;
    for (uint64_t ks = kept & place; ks; ks &= ks - 1) {
        int d = __builtin_ctzll(ks);
        uint64_t blocked = 0;
        for (int k = 0; k < x->n; k++)
            if ((active >> x->base[k] & 1) && (x->kids[k] >> d & 1))
                blocked |= 1ULL << x->base[k];
        if (bases_of(d) & A & ~blocked) out |= 1ULL << d;
    }
    return out;
}

/* The cards that rule 23's pins keep from home, given H and A. */
static inline uint64_t pinned(const Reach *x, uint64_t H, uint64_t A)
{
    uint64_t out = 0;
    for (int k = 0; k < x->npins; k++)
        if (!(H >> x->pin_kid[k] & 1) && !(A & x->pin_alt[k])) out |= 1ULL << x->pin_base[k];
    return out;
}

/* Has a partial solution all that the caller of a Reach asked for? */
static inline int reach_quits(const Reach *x, uint64_t H, uint64_t A)
{
    return x && x->quit_h && ((H & x->quit_h) == x->quit_h || (A & x->quit_a));
}

/* The least solution above: returns H, and sets *bases to A.  The cards of
 * `frozen` (a mask of tableau cards, or 0) never go on a column: their M is
 * H alone (see rules 15 and 21).  `talon`: TALON_* (see talon_mode).  Stops
 * early, with a partial solution, once H meets `stop`.  `x`: rule 20's
 * extras, or NULL.
 *
 * The least solution does not depend on the order in which the formulas are
 * applied (any order that applies them until nothing changes reaches it), so
 * the rounds below are arranged for speed: the pairs of face-up cards come
 * from State.pair, kept up to date by the moves, and a column's face-down
 * cards are walked only when the card on the next of them moves (`watch`). */
static inline __attribute__((always_inline)) uint64_t
reach_with_given(const State *s, const Rules *r, uint64_t frozen, uint64_t stop, int talon,
                 uint64_t *bases, Reach *x, const int given, const int chained)
{
    const uint64_t all = ALL_CARDS, aces = RANK_MASK(1), kings = RANK_MASK(13);
    const uint64_t dealt = r->deals ? s->tal_mask : 0;
    /* The talon cards ever played (V): all of them, or under rule 17 the
     * stock, the waste top, and the waste down to talon[low] as the cards
     * on them leave (low falls below); or under rule 18 the cards the draws
     * reach, then talon[gone - 1] and every card after talon[gone], the
     * first card that leaves (gone falls). */
    uint64_t playable = s->tal_mask, left = 0;
    int low = talon == TALON_STACK ? s->ptr - 1 : 0, n = s->tlen, gone = n;
    int8_t order[52]; /* rule 18: each talon card's number */
    for (int i = 0; i < low; i++) playable &= ~(1ULL << s->talon[i]);
    if (talon == TALON_CYCLE) {
        const int p = s->ptr, d = r->draw;
        playable = 0;
        for (int i = 0; i < n; i++) {
            order[s->talon[i]] = (int8_t)i;
            if ((i + 1 >= p && (i + 1 - p) % d == 0) || (i + 1) % d == 0 || i == n - 1)
                playable |= 1ULL << s->talon[i];
        }
    }
    uint64_t home = home_cards(s), home_tops = 0;
    for (int suit = 0; suit < 4; suit++)
        if (s->found[suit]) home_tops |= 1ULL << (13 * suit + s->found[suit] - 1);
    /* Face-up cards are uncovered once the card on them moves.  In a run the
     * card on c is c - 14, c + 25, c - 27 or c + 12 (one rank down, the other
     * colour), so "the card on it moves" is four shifts of M; any other pair
     * (a position given by hand, or a deal) is kept apart.  Face-down cards
     * are taken one by one below. */
    const uint64_t face_up = all & ~s->tal_mask & ~home & ~s->down_mask;
    uint64_t on14, on27, on_12, on_25, bottoms = 0;
    uint8_t odd_card[MAXC], odd_above[MAXC];
    uint8_t gated[MAXC], gate[MAXC]; /* (stock dealt) face-up cards under a pair not built */
    int n_odd = 0, n_gated = 0, empty = 0;
    /* The card on each column's highest face-down card (or that card, if it
     * tops the column): when it moves, the walk down the column goes on. */
    uint64_t watch = 0;
    const int ncols = s->ncols;
    for (int c = 0; c < ncols; c++) {
        int len = s->len[c], down = s->down[c];
        if (!len) { empty = 1; continue; }
        bottoms |= 1ULL << s->col[c][0];
        if (down) watch |= 1ULL << s->col[c][down < len ? down : down - 1];
    }
    if (!r->deals) {
        on14 = s->pair[PAIR_14] & face_up;
        on27 = s->pair[PAIR_27] & face_up;
        on_12 = s->pair[PAIR_M12] & face_up;
        on_25 = s->pair[PAIR_M25] & face_up;
        for (uint64_t odd = s->pair[PAIR_ODD] & face_up; odd; odd &= odd - 1) {
            int card = __builtin_ctzll(odd);
            odd_card[n_odd] = (uint8_t)card;
            odd_above[n_odd++] = s->col[s->at_col[card]][s->at_idx[card] + 1];
        }
    } else {
        /* Where the stock deals, a face-up card under a pair not built is
         * gated by the lower card of the nearest such pair at or above it. */
        on14 = on27 = on_12 = on_25 = 0;
        for (int c = 0; c < ncols; c++) {
            int len = s->len[c], down = s->down[c], lowest_odd = -1;
            for (int i = len - 2; i >= down; i--) {
                int card = s->col[c][i], above = s->col[c][i + 1];
                uint64_t bit = 1ULL << card;
                switch (card - above) {
                case 14: on14 |= bit; break;
                case 27: on27 |= bit; break;
                case -12: on_12 |= bit; break;
                case -25: on_25 |= bit; break;
                default:
                    odd_card[n_odd] = (uint8_t)card; odd_above[n_odd++] = (uint8_t)above;
                    lowest_odd = card;
                }
                if (lowest_odd >= 0) {
                    gated[n_gated] = (uint8_t)card; gate[n_gated++] = (uint8_t)lowest_odd;
                }
            }
        }
    }
    bottoms |= dealt;
    /* The column tops are uncovered now (X), and so bases (A); so are the
     * stock cards a deal will put on the columns. */
    uint64_t H = home, A = s->top_mask | dealt, M = 0, X = s->top_mask | dealt;
    uint64_t place = 0, placed_a = 0, placed_active = 0;
    uint64_t no_home = x ? x->no_home : 0;
    if (chained) frozen |= x->frozen;
    /* Rule 23: the facts given, and the cards that are no base (A) until a
     * card of gate_bases is (shut: those cards while the gate is shut). */
    uint64_t shut = given ? x->gate_cards : 0;
    if (given) {
        H |= x->seed_h;
        X |= x->seed_x;
        M |= x->seed_m;
        A = (A | x->seed_a | X) & ~shut; /* (A follows X: see the round's end) */
        if (shut && (A & x->gate_bases)) shut = 0, A |= X;
        if (x->npins) no_home |= pinned(x, H, A);
    }
    int placed_empty = -1, placed_bare = -1;
    for (;;) {
        /* H is a run up from the ace in each suit: it grows by the talon and
         * uncovered cards that continue it (once: the runs of the same cards
         * are the same runs). */
        H = runs_from_aces((H | playable | X) & ~no_home);
        /* The talon and foundation cards to their own fixpoint: the chains
         * through them need no column.  (place is a function of A and empty,
         * and under rule 20 of whether its base is home: the last round's
         * stands if none has changed since.) */
        for (;;) {
            int bare = x && x->kids && !(H >> x->base & 1);
            uint64_t active = 0;
            if (chained && x->kept)
                for (int k = 0; k < x->kept->n; k++)
                    if (!(H >> x->kept->base[k] & 1)) active |= 1ULL << x->kept->base[k];
            while (A != placed_a || empty != placed_empty || bare != placed_bare
                   || active != placed_active) {
                placed_a = A;
                placed_empty = empty;
                placed_bare = bare;
                placed_active = active;
                place = parent_in(A);
                /* Rule 20: the kids go on the base only once it has been home. */
                if (bare) place = parent_in(A & ~(1ULL << x->base)) | (place & ~x->kids);
                /* Rule 24: so do the kids of each pair. */
                if (active) place = place_kept_off(x->kept, A, active, place);
                place |= empty ? (r->any_empty ? all : kings) : 0;
                /* A foundation card comes back only after the cards on it. */
                A |= ((playable & place) | (r->recall ? home & place & (home_tops | (A >> 1)) : 0))
                     & ~shut;
                if (shut && (A & x->gate_bases)) shut = 0, A |= X;
            }
            /* Rule 17: down the waste while the card on the next one leaves. */
            int was_low = low, was_gone = gone;
            while (low > 0 && ((H | place) >> s->talon[low] & 1)) playable |= 1ULL << s->talon[--low];
            /* Rule 18: the cards that leave (new ones only) lower `gone`. */
            if (talon == TALON_CYCLE) {
                uint64_t leaving = playable & (H | place);
                for (uint64_t fresh = leaving & ~left; fresh; fresh &= fresh - 1) {
                    int i = order[__builtin_ctzll(fresh)];
                    if (i < gone) gone = i;
                }
                left = leaving;
                if (gone < was_gone) {
                    for (int i = gone + 1; i < was_gone; i++) playable |= 1ULL << s->talon[i];
                    if (gone > 0) playable |= 1ULL << s->talon[gone - 1];
                }
            }
            if (low == was_low && gone == was_gone) break;
            H = runs_from_aces((H | playable | X) & ~no_home);
            A |= playable & place & ~shut;
        }
        if ((H & stop) || reach_quits(x, H, A)) break;
        uint64_t ready = (aces | ((H << 1) & ~aces)) & ~no_home, old_x = X, old_m = M, old_h = H;
        int old_empty = empty;
        /* A face-up card moves with the run on it (and a gated one once its
         * gate is uncovered); a dealt card once it is dealt; a face-down
         * card once it is uncovered (the walk below). */
        uint64_t movable = face_up | dealt | (X & s->down_mask);
        if (n_gated)
            for (int k = 0; k < n_gated; k++)
                if (!(X >> gate[k] & 1)) movable &= ~(1ULL << gated[k]);
        M |= (H | (place & ~frozen)) & movable;
        X |= (on14 & (M << 14)) | (on27 & (M << 27)) | (on_12 & (M >> 12)) | (on_25 & (M >> 25));
        if (n_odd)
            for (int k = 0; k < n_odd; k++)
                if (M >> odd_above[k] & 1) X |= 1ULL << odd_card[k];
        /* Down a column's face-down cards while the card above moves. */
        for (uint64_t fire = M & watch; fire; fire &= fire - 1) {
            int above = __builtin_ctzll(fire), c = s->at_col[above], i = s->at_idx[above] - 1;
            watch &= ~(1ULL << above);
            for (; i >= 0; i--) {
                uint64_t bit = 1ULL << s->col[c][i];
                X |= bit;
                H |= bit & ready;
                /* (Or given as moved: rule 23's seeds.) */
                uint64_t moves = (H | (place & ~frozen) | (given ? M : 0)) & bit;
                M |= moves;
                if (!moves) {
                    watch |= bit;
                    break;
                }
            }
        }
        A |= X & ~shut;
        int opened = 0;
        if (shut && (A & x->gate_bases)) shut = 0, A |= X, opened = 1;
        H |= X & ready;
        empty |= (M & bottoms) != 0;
        /* Rule 23's pins let go as their kids go home or find their other
         * base (once let go, for good: H and A only grow). */
        if (given && x->npins) {
            uint64_t held = x->no_home | pinned(x, H, A);
            if (held != no_home) no_home = held, opened = 1;
        }
        if (x && x->snap_h) {
            int k = x->rounds < REACH_ROUNDS ? x->rounds++ : REACH_ROUNDS - 1;
            x->snap_h[k] = H;
            x->snap_a[k] = A;
        }
        /* The next round's first step has nothing new to start from. */
        if (H == all || (H & stop) || reach_quits(x, H, A)
            || (X == old_x && M == old_m && H == old_h && empty == old_empty && !opened))
            break;
    }
    if (x) {
        x->got_x = X;
        x->got_m = M;
    }
    *bases = A;
    return H;
}

/* The least solution above, without rule 23's given facts, gate and pins
 * or rule 24's facts (`given` and `chained` constants, so that the other
 * callers' code leaves them out). */
static inline __attribute__((always_inline)) uint64_t
reach_with(const State *s, const Rules *r, uint64_t frozen, uint64_t stop, int talon,
           uint64_t *bases, Reach *x)
{
    return reach_with_given(s, r, frozen, stop, talon, bases, x, 0, 0);
}

/* The least solution with rule 23's given facts, gate and pins (x). */
static __attribute__((noinline)) uint64_t
reach_given(const State *s, const Rules *r, int talon, uint64_t *bases, Reach *x)
{
    return reach_with_given(s, r, 0, 0, talon, bases, x, 1, 0);
}

/* The least solution with rule 24's facts (x's frozen and kept; with rule
 * 20's extras, and x's no_home). */
static __attribute__((noinline)) uint64_t
reach_chained(const State *s, const Rules *r, int talon, uint64_t *bases, Reach *x)
{
    return reach_with_given(s, r, 0, 0, talon, bases, x, 0, 1);
}

/* The relaxation as rules 8, 15, 17 and 18 take it. */
static __attribute__((noinline)) uint64_t
home_reach(const State *s, const Rules *r, uint64_t frozen, uint64_t stop, int talon,
           uint64_t *bases)
{
    return reach_with(s, r, frozen, stop, talon, bases, NULL);
}

/* The relaxation with rule 20's extras. */
static __attribute__((noinline)) uint64_t
home_reach_x(const State *s, const Rules *r, int talon, uint64_t *bases, Reach *x)
{
    return reach_with(s, r, 0, 0, talon, bases, x);
}

/* Rule 17 applies: no recycle is left, and the waste holds a card under its
 * top.  (Not where the stock deals: there is no waste.) */
static inline int waste_is_stack(const State *s, const Rules *r, const Options *o)
{
    return (o->prune & PRUNE_WASTE_STACK) && !r->deals && !can_recycle(s, r) && s->ptr > 1;
}

/* How the relaxation takes the position's talon (TALON_*): rule 17, rule 18
 * (a draw of more than one card, a recycle left), or every card playable. */
static inline int talon_mode(const State *s, const Rules *r, const Options *o)
{
    if (waste_is_stack(s, r, o)) return TALON_STACK;
    if ((o->prune & PRUNE_STOCK_CYCLE) && !r->deals && r->draw > 1 && can_recycle(s, r)
        && s->tlen > 0)
        return TALON_CYCLE;
    return TALON_FREE;
}

/* A lock rule's test of one card (1: lost), and of a whole position. */
typedef int (*LockAt)(const State *s, const Rules *r, int talon, int card);
typedef int (*LockAll)(const State *s, const Rules *r, int talon);

/* A lock rule in the search (rules 22 and 23): at most `most` cards of
 * `cards` a test, those it found lately first, then the others in turn
 * (lock_next; 1: lost). */
static inline int lock_some(const State *s, const Rules *r, int talon, LockMemo *m,
                            uint64_t cards, int most, LockAt at)
{
    uint64_t tried = 0;
    for (int k = 0, tries = 0; tries < most; k++) {
        int card = lock_next(m, cards, tried, k);
        if (card == -2) break;
        if (card < 0) continue;
        tried |= 1ULL << card;
        tries++;
        if (at(s, r, talon, card)) {
            lock_remember(m, card);
            return 1;
        }
    }
    return 0;
}

/* A lock rule (`flag`, with rule 8) on the position a search starts from,
 * once the portfolio finds it not decided at once: only where kings alone go
 * into empty columns and the stock never deals, and where rule 8 passes it
 * (rule 8's own verdict is the search's: it tested this position first). */
static inline int lock_at_start(const State *start, const Rules *r, const Options *o,
                                unsigned flag, LockAll locked)
{
    uint64_t bases;
    if ((o->prune & (PRUNE_DEAD_ENDS | flag)) != (PRUNE_DEAD_ENDS | flag) || r->any_empty
        || r->deals)
        return 0;
    int talon = talon_mode(start, r, o);
    if (home_reach(start, r, 0, 0, talon, &bases) != ALL_CARDS) return 0;
    return locked(start, r, talon);
}

/*
 * Rule 8's answer known (no rule of its own: skipping a test only keeps
 * positions).  Let P pass rule 8's test, where the stock never deals, and C
 * be P after one step that moves card c (a run's first card) from a column
 * or the talon, home or onto a column, where C's relaxation takes every
 * talon card as playable if the step played from the talon (rules 17 and 18
 * off in C: TALON_FREE).  Suppose that c is free in C:
 *   - c went home: A(c) holds outright in C: c is an ace, or recall is
 *     allowed and c fits on a top card of C, or C has an empty column that
 *     c may go into;
 *   - c went onto a column: M(c) holds outright in C: c fits on a top card
 *     of C, or C has an empty column that c may go into.
 * Then C passes too: every event of P's least solution holds in C's.
 *
 * The formulas of C differ from P's only where c is named, where a card is
 * turned up, and at the card c went on.
 *   - Where c was.  From a column: the card u left under c is a top in C
 *     (X(u)), face up, so movable (in P it was, face down, once X(u)); P
 *     needed M(c) for X(u), or for E where c was its column's first card,
 *     and an empty column gives E outright in C; the talon is as it was,
 *     and its formulas (rule 17's or 18's too) are the same, and grow with
 *     H and the bases.  From the talon: V(c) and L(c) are about c alone, and
 *     every talon card of C is playable (in P, at most the same ones).
 *   - c home: H(c) in C (in P too, as P passes).  c is in neither the
 *     tableau nor the talon of C, so X(c), M(c) and V(c) name nothing else.
 *     A(c) holds outright; and c's predecessor, a foundation's top in P, not
 *     in C, comes back in C only after c (A(c)): so under the same
 *     conditions as in P.
 *   - c on a column: c is face up in C, so movable, and X(c) and A(c) hold;
 *     H(c) needs what it needed in P (V(c) becomes X(c)).  M(c) holds
 *     outright, so the card p that c went on (a top in P) is uncovered in C
 *     too (X(p), A(p)), and if c went into an empty column, it is that
 *     column's first card, and E holds.  The cards on c moved with it, and
 *     lie on the same cards.
 * So, by induction over the rounds of P's solution, every event of it holds
 * in C, and H = all.  (Without the condition, a card recalled from under c,
 * or the card c covers, may be freed in P and not in C, and the test can
 * drop C: it does, in play.)
 *
 * Rule 15's test is still made (a card of P leaving the tableau can make its
 * second case hold).  The caller makes sure that P passed (it was tested, or
 * is known to pass by this or after a recall onto a card), and that C is P
 * after the one step m (no safe move or twin exchange after it).  Returns 0,
 * or the firing slot that counts the skip: FIRED_REACH_HOME (c went home) or
 * FIRED_REACH_COLUMN.
 */
static inline int reach_kept(const State *s, const Rules *r, const Options *o, const SMove *m)
{
    if (r->deals) return 0;
    int card, home;
    switch (m->kind) {
    case K_T2F:
        card = m->card;
        home = 1;
        break;
    case K_TAL:
        if (talon_mode(s, r, o) != TALON_FREE) return 0;
        card = m->card;
        home = m->dst == DST_FOUND;
        break;
    case K_T2T:
        card = s->col[m->dst][s->len[m->dst] - m->count];
        home = 0;
        break;
    default:
        return 0;
    }
    const int slot = home ? FIRED_REACH_HOME : FIRED_REACH_COLUMN, rank = card_rank(card);
    if (home && rank == 1) return slot;
    if (home && !r->recall) return 0;
    /* The cards c fits on: one rank up, in the suits of the other colour. */
    int red = card_red(card);
    uint64_t bases = rank == 13 ? 0
                   : 1ULL << ((red ? 0 : 1) * 13 + rank) | 1ULL << ((red ? 3 : 2) * 13 + rank);
    if (s->top_mask & bases) return slot;
    if (r->any_empty || rank == 13)
        for (int c = 0; c < s->ncols; c++)
            if (!s->len[c]) return slot;
    return 0;
}

#endif /* BONANZA_SEARCH_DEAD_ENDS_H */
