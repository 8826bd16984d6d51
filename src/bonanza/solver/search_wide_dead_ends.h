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
 * 8 for two decks (see above); the talon as the waste and the stock (or, under
 * talon macros, T in the waste): every card of either is playable.  A class is
 * a card id of one deck (0-51), so the sets of classes are the core's 52-bit
 * card sets, and P is the core's parent_in. */
static int w_hopeless(const WState *s, const WRules *r)
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
    for (int card = 0; card < W_CARDS; card++)
        if (talon[card]) talon_classes |= 1ULL << (card % W_DECK);
    for (int changed = 1; changed;) {
        changed = 0;
        for (int c = 0; c < r->ncols && !empty; c++)
            if (bottoms[c] != W_NOWHERE && m[bottoms[c]]) empty = 1;
        /* P or K by class; then the talon and home classes that become bases. */
        uint64_t fits = parent_in(bases) | (empty ? (r->any_empty ? all : kings) : 0);
        uint64_t more = fits & (talon_classes | (r->recall ? home : 0)) & ~bases;
        if (more) { bases |= more; changed = 1; }
        uint64_t follows = aces | (((home | went_home) << 1) & ~aces & all);
        for (int card = 0; card < W_CARDS; card++) {
            if (col_of[card] == W_NOWHERE && !talon[card]) continue; /* home, or not in play */
            uint64_t bit = 1ULL << (card % W_DECK);
            if (!h[card] && (follows & bit) && (talon[card] || x[card])) {
                h[card] = 1;
                went_home |= bit;
                changed = 1;
            }
            if (col_of[card] == W_NOWHERE) continue;
            if (x[card] && !(bases & bit)) { bases |= bit; changed = 1; }
            if (!m[card] && (h[card] || ((face_up[card] || x[card]) && (fits & bit)))) {
                m[card] = 1;
                changed = 1;
            }
            /* The card under this one is uncovered once this one moves. */
            int on = above[card];
            if (on != W_NOWHERE && m[on] && !x[card]) { x[card] = 1; changed = 1; }
        }
    }
    for (int card = 0; card < W_CARDS; card++)
        if ((col_of[card] != W_NOWHERE || talon[card]) && !h[card]) return 1;
    return 0;
}

#endif /* BONANZA_SEARCH_WIDE_DEAD_ENDS_H */
