/*
 * search_wide_dead_ends.h: hopeless positions of the wide search (two decks:
 * Double Klondike), rule 8 of the Klondike core (search_dead_ends.h) written
 * for cards that have twins.
 *
 * A position is dropped when some card can provably never go home.  As in
 * the core, the test is a relaxation: for every card it over-approximates
 * which events can ever happen, ignoring when they happen, as the least
 * solution of (a "card" is one physical card, where it lies now; its class is
 * its suit and rank, which it shares with its twin)
 *
 *   X(c)  c, in the tableau, is ever the top of its column: it is the top now,
 *         or the card directly on it ever leaves (M of that card).
 *   B(k)  some card of class k is ever a base, the top of a column that a
 *         card may go on: a tableau card of the class with X; a talon card of
 *         it, or (with recall) one home, once it can go on a column: P(k) or
 *         K(k).
 *   P(k)  B(p) for one of the two classes p (one rank up, the other colour)
 *         that a card of class k may go on.
 *   K(k)  a card of class k may go into an empty column (a king, or any card
 *         by the rules), and E: a column is empty now, or the first card of
 *         some column ever leaves (M of that card).
 *   H(c)  c ever goes home: its class is an ace, or some card of the class
 *         one rank below is home now or ever goes home (H); and c is in the
 *         talon, or X(c).
 *   M(c)  c, in the tableau, is ever moved as the first card of a run: H(c),
 *         or it may move (it is face up, or X(c)) and P or K of its class.
 *
 * Each is a condition that every line of play meets at the time of the
 * event, by what the event needs then: a card goes home onto a foundation
 * whose top is a card of the class below it (home earlier, or from the
 * start), and only from the talon or the top of a column; a card goes on a
 * column only onto a top of a class it fits on (which was a base then), or
 * into an empty column; a card lies on the tableau under the cards put on it
 * until the one directly on it leaves; a foundation card comes back only
 * where it may go on a column.  Talon cards are counted as playable at any
 * time, and a home card as able to come back at any time, which only keeps
 * positions (more events).  Renaming twins (Position._send_home) changes a
 * card's id, not where it lies, and the formulas read only where a card lies
 * and its class.  So, by induction over any line, every event of the line is
 * in the least solution, computed by applying the formulas from "nothing
 * happens" until nothing changes (they are monotone).  If H is false for a
 * card not home, no line from the position wins.
 *
 * Rule 18 for two decks (W_STOCK_CYCLE, with a draw d > 1 and a recycle
 * left): a talon card is played only as the waste top, so not every talon
 * card is playable at any time.  Number the talon t_0 .. t_(n-1) in draw
 * order (the waste from its bottom up, then the stock from its next card
 * on; under talon macros, T), with the pointer at p (the waste's size; under
 * stepped macros, the position's pointer).  The core's proof (rule 18 in
 * search_dead_ends.h) reads only how draws, recycles and plays of the waste
 * top move the pointer and take cards out of the talon, which two decks do
 * alike (w_apply), and renaming a twin changes no card's place.  So
 *
 *   V(t_i)  t_i is ever played: i + 1 = p + k d for some k >= 0, or
 *           i + 1 = k d for some k >= 1 (after a recycle), or i = n - 1; or
 *           L(t_(i+1)); or L(t_j) for some j < i.
 *   L(t)    t leaves the talon: V(t), and H(t) or t may go on a column (P or
 *           K of its class).
 *
 * and V stands for "in the talon" in H and B above: a talon card goes home,
 * or becomes a base, only once played.  Every play of a talon card meets
 * this at the time it happens, so the least solution still holds every event
 * of a real line.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_WIDE_DEAD_ENDS_H
#define BONANZA_SEARCH_WIDE_DEAD_ENDS_H

#include <stdint.h>
#include <string.h>

#include "search_dead_ends.h"
#include "search_wide.h"

#define W_NOWHERE 255 /* a card not in the tableau */

/* Is position s hopeless: is some card not home unable ever to go home?  Rule
 * 8 for two decks (see above): every talon card is playable, or under rule 18
 * (`stock_cycle`, where it applies) those that V holds.  A class is a card
 * id of one deck (0-51), so the sets of classes are the core's 52-bit card
 * sets, and P is the core's parent_in. */
static int w_hopeless(const WState *s, const WRules *r, int stock_cycle)
{
    const uint64_t all = (1ULL << W_DECK) - 1, aces = RANK_MASK(1), kings = RANK_MASK(13);
    uint8_t x[W_CARDS] = {0}, m[W_CARDS] = {0}, h[W_CARDS] = {0}, face_up[W_CARDS] = {0};
    uint8_t col_of[W_CARDS], above[W_CARDS], talon[W_CARDS] = {0}, bottoms[W_COLS];
    uint64_t home = 0, talon_classes = 0, bases = 0, went_home = 0;
    memset(col_of, W_NOWHERE, sizeof col_of);
    memset(above, W_NOWHERE, sizeof above);
    for (int f = 0; f < 4 * r->decks; f++)
        home |= ((1ULL << s->found[f]) - 1) << (W_RANKS * (f % 4));
    int empty = 0;
    for (int c = 0; c < r->ncols; c++) {
        int len = s->len[c];
        bottoms[c] = len ? s->col[c][0] : W_NOWHERE;
        if (!len) { empty = 1; continue; }
        for (int i = 0; i < len; i++) {
            int card = s->col[c][i];
            col_of[card] = (uint8_t)c;
            face_up[card] = i >= s->down[c];
            if (i + 1 < len) above[card] = s->col[c][i + 1];
        }
        x[s->col[c][len - 1]] = 1;
    }
    for (int i = 0; i < s->nstock; i++) talon[s->stock[i]] = 1;
    for (int i = 0; i < s->nwaste; i++) talon[s->waste[i]] = 1;
    /* Rule 18: the talon in draw order (t_i is order[i], its number i), and
     * which of its cards V holds (played); gone, the least number of a card
     * that leaves (n: none yet). */
    uint8_t order[W_CARDS], played[W_CARDS], number[W_CARDS];
    int n = 0;
    for (int i = 0; i < s->nwaste; i++) order[n++] = s->waste[i];
    for (int i = s->nstock - 1; i >= 0; i--) order[n++] = s->stock[i];
    int gone = n, cycle = stock_cycle && r->draw > 1 && n
                          && (r->recycles_allowed < 0 || s->recycles < r->recycles_allowed);
    if (cycle) {
        const int p = r->macro ? s->ptr : s->nwaste, d = r->draw;
        memset(played, 0, sizeof played);
        for (int i = 0; i < n; i++) {
            number[order[i]] = (uint8_t)i;
            if ((i + 1 >= p && (i + 1 - p) % d == 0) || (i + 1) % d == 0 || i == n - 1)
                played[order[i]] = 1;
        }
    } else {
        memcpy(played, talon, sizeof played);
    }
    /* The cards in play (in the tableau or the talon), and how many of them
     * are not yet known to go home: none left, and the position is not hopeless. */
    uint8_t in_play[W_CARDS];
    int n_in = 0;
    for (int card = 0; card < W_CARDS; card++)
        if (played[card]) talon_classes |= 1ULL << (card % W_DECK);
    /* By rank, aces first: a suit's cards that go home in turn then all do
     * so in one round (the order changes only the rounds it takes). */
    for (int rank = 0; rank < W_RANKS; rank++)
        for (int card = rank; card < W_CARDS; card += W_RANKS)
            if (col_of[card] != W_NOWHERE || talon[card]) in_play[n_in++] = (uint8_t)card;
    int open = n_in;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int c = 0; c < r->ncols && !empty; c++)
            if (bottoms[c] != W_NOWHERE && m[bottoms[c]]) empty = 1;
        /* P or K by class; then the talon and home classes that become bases. */
        uint64_t fits = parent_in(bases) | (empty ? (r->any_empty ? all : kings) : 0);
        uint64_t more = fits & (talon_classes | (r->recall ? home : 0)) & ~bases;
        if (more) { bases |= more; changed = 1; }
        uint64_t follows = aces | (((home | went_home) << 1) & ~aces & all);
        for (int k = 0; k < n_in; k++) {
            int card = in_play[k];
            uint64_t bit = 1ULL << (card % W_DECK);
            if (!h[card] && (follows & bit) && (played[card] || x[card])) {
                h[card] = 1;
                went_home |= bit;
                follows |= (bit << 1) & ~aces & all;
                changed = 1;
                if (--open == 0) return 0;
            }
            if (col_of[card] == W_NOWHERE) {
                /* Rule 18: a talon card that leaves (L) makes the card before
                 * it played, and every card after it. */
                if (!cycle || !played[card] || !(h[card] || (fits & bit))) continue;
                int i = number[card], first = i ? i - 1 : i, last = i < gone ? gone : i + 1;
                if (i < gone) gone = i; /* (the cards after the old gone are played) */
                for (int j = first; j < last; j++) {
                    if (played[order[j]]) continue;
                    played[order[j]] = 1;
                    talon_classes |= 1ULL << (order[j] % W_DECK);
                    changed = 1;
                }
                continue;
            }
            if (x[card] && !(bases & bit)) {
                bases |= bit;
                fits |= parent_in(bit);
                changed = 1;
            }
            if (!m[card] && (h[card] || ((face_up[card] || x[card]) && (fits & bit)))) {
                m[card] = 1;
                changed = 1;
            }
            /* The card under this one is uncovered once this one moves. */
            int on = above[card];
            if (on != W_NOWHERE && m[on] && !x[card]) { x[card] = 1; changed = 1; }
        }
    }
    return open > 0;
}

#endif /* BONANZA_SEARCH_WIDE_DEAD_ENDS_H */
