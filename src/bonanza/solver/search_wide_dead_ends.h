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

#include "search_wide.h"

#define W_NOWHERE 255 /* a card not in the tableau */

/* The two classes (suit * 13 + rank - 1) that a card of class k goes on, one
 * rank up and of the other colour; 0 for a king (none). */
static int w_parents(int k, int *out)
{
    int rank = k % W_RANKS + 1, suit = k / W_RANKS;
    if (rank == W_RANKS) return 0;
    int n = 0;
    for (int other = 0; other < 4; other++)
        if (card_red(other * W_RANKS) != card_red(suit * W_RANKS)) out[n++] = other * W_RANKS + rank;
    return n;
}

/* Is position s hopeless: is some card not home unable ever to go home?  Rule
 * 8 for two decks (see above); the talon as the waste and the stock (or, under
 * talon macros, T in the waste): every card of either is playable. */
static int w_hopeless(const WState *s, const WRules *r)
{
    uint8_t x[W_CARDS] = {0}, m[W_CARDS] = {0}, h[W_CARDS] = {0};
    uint8_t col_of[W_CARDS], above[W_CARDS], talon[W_CARDS] = {0}, face_up[W_CARDS] = {0};
    uint8_t base[W_DECK] = {0}, home_class[W_DECK] = {0}, ever_home[W_DECK] = {0};
    uint8_t talon_class[W_DECK] = {0};
    int parents[W_DECK][2], nparents[W_DECK];
    memset(col_of, W_NOWHERE, sizeof col_of);
    memset(above, W_NOWHERE, sizeof above);
    for (int k = 0; k < W_DECK; k++) nparents[k] = w_parents(k, parents[k]);
    for (int f = 0; f < 4 * r->decks; f++)
        for (int rank = 1; rank <= s->found[f]; rank++) home_class[(f % 4) * W_RANKS + rank - 1] = 1;
    int empty = 0;
    uint8_t bottoms[W_COLS];
    for (int c = 0; c < r->ncols; c++) {
        int len = s->len[c];
        if (!len) { empty = 1; bottoms[c] = W_NOWHERE; continue; }
        bottoms[c] = s->col[c][0];
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
        if (talon[card]) talon_class[card % W_DECK] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        /* E, then B, P and K by class. */
        for (int c = 0; c < r->ncols && !empty; c++)
            if (bottoms[c] != W_NOWHERE && m[bottoms[c]]) empty = 1;
        uint8_t fits[W_DECK];
        for (int k = 0; k < W_DECK; k++) {
            int p = 0;
            for (int j = 0; j < nparents[k]; j++) p |= base[parents[k][j]];
            fits[k] = (uint8_t)(p || (empty && (r->any_empty || k % W_RANKS == W_RANKS - 1)));
        }
        for (int k = 0; k < W_DECK; k++)
            if (!base[k] && fits[k] && (talon_class[k] || (r->recall && home_class[k]))) {
                base[k] = 1;
                changed = 1;
            }
        for (int card = 0; card < W_CARDS; card++) {
            if (col_of[card] == W_NOWHERE && !talon[card]) continue; /* home, or not in play */
            int k = card % W_DECK, rank = k % W_RANKS + 1;
            int below_home = rank == 1 || home_class[k - 1] || ever_home[k - 1];
            if (!h[card] && below_home && (talon[card] || x[card])) {
                h[card] = 1;
                ever_home[k] = 1;
                changed = 1;
            }
            if (col_of[card] == W_NOWHERE) continue;
            if (x[card] && !base[k]) { base[k] = 1; changed = 1; }
            if (!m[card] && (h[card] || ((face_up[card] || x[card]) && fits[k]))) {
                m[card] = 1;
                changed = 1;
            }
        }
        for (int card = 0; card < W_CARDS; card++) {
            int on = above[card];
            if (on != W_NOWHERE && m[on] && !x[card]) { x[card] = 1; changed = 1; }
        }
    }
    for (int card = 0; card < W_CARDS; card++)
        if ((col_of[card] != W_NOWHERE || talon[card]) && !h[card]) return 1;
    return 0;
}

#endif /* BONANZA_SEARCH_WIDE_DEAD_ENDS_H */
