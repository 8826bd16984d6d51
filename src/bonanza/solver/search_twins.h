/*
 * search_twins.h: twins (rule 7).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_TWINS_H
#define BONANZA_SEARCH_TWINS_H

#include <stdint.h>

#include "search_cards.h"
#include "search_path.h"
#include "search_state.h"

/* ---- twins (rule 7) ------------------------------------------------------- */

/*
 * Rule 7 (partial runs allowed).  Two cards of the same rank and colour are
 * twins: any card that may go on one may go on the other.  When both are face
 * up in the tableau, one is the top of its column and a run U lies on the
 * other, moving U onto the exposed twin is legal, and so is moving it back:
 * the two positions can reach each other, so they are equally winnable.  The
 * search keeps only the one with U on the twin of lower card number, moving U
 * there (and recording the move) whenever a step leaves it on the other.
 * What the other arrangement allowed at once is generated as a two-move step
 * from the kept one: U moves back to the higher twin and then the lower twin
 * goes home, or a card goes onto the lower twin.  Every other move of the
 * other arrangement has a counterpart leading to the same kept position (a
 * run ending in a twin moves with or without U on top; U or part of it moves
 * alike from either twin).
 */

typedef struct {
    int low, col_low, idx_low; /* the covered twin (lower card number) */
    int col_high;              /* the column the exposed twin tops */
} TwinPair;

/* The column topped by the lowest card that is a lower twin (club or
 * diamond) whose twin lies face up under other cards, or -1. */
static int twin_to_normalize(const State *s)
{
    uint64_t tableau = 0;
    for (int c = 0; c < s->ncols; c++) tableau |= s->col_mask[c];
    /* Hearts and spades face up under other cards, as their twins. */
    uint64_t covered = tableau & ~s->down_mask & ~s->top_mask;
    uint64_t lows = ((covered & SUIT_MASK(3)) >> 39) | ((covered & SUIT_MASK(2)) >> 13);
    lows &= s->top_mask;
    return lows ? s->at_col[__builtin_ctzll(lows)] : -1;
}

/* Move runs so that no run lies on a higher twin whose lower twin is
 * exposed.  0 on memory failure. */
static int normalize_twins(Search *x)
{
    State *s = &x->s;
    for (int cl; (cl = twin_to_normalize(s)) >= 0;) {
        int high = twin_of(s->col[cl][s->len[cl] - 1]), ch = s->at_col[high];
        SMove m = {0};
        m.kind = K_T2T; m.src = (uint8_t)ch; m.dst = (uint8_t)cl;
        m.count = (uint8_t)(s->len[ch] - 1 - s->at_idx[high]);
        FIRE(&x->o, 7);
        if (!play(x, m)) return 0;
    }
    return 1;
}

/* Pairs kept by normalize_twins with a run on the lower twin. */
static int twin_pairs(const State *s, TwinPair *out)
{
    uint64_t tableau = 0;
    for (int c = 0; c < s->ncols; c++) tableau |= s->col_mask[c];
    /* Clubs and diamonds face up under other cards, and the twins of the
     * hearts and spades that top columns. */
    uint64_t covered = tableau & ~s->down_mask & ~s->top_mask & (SUIT_MASK(0) | SUIT_MASK(1));
    uint64_t exposed = ((s->top_mask & SUIT_MASK(3)) >> 39) | ((s->top_mask & SUIT_MASK(2)) >> 13);
    int n = 0;
    for (uint64_t lows = covered & exposed; lows; lows &= lows - 1) {
        int low = __builtin_ctzll(lows);
        out[n].low = low; out[n].col_low = s->at_col[low]; out[n].idx_low = s->at_idx[low];
        out[n].col_high = s->at_col[twin_of(low)];
        n++;
    }
    return n;
}

#endif /* BONANZA_SEARCH_TWINS_H */
