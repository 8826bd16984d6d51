/*
 * search_cards.h: cards and piles: ranks, suits, colours, what fits on what.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_CARDS_H
#define BONANZA_SEARCH_CARDS_H

#include <stdint.h>

/* Columns: up to NCOLS (Westcliff's ten); a position's own count is
 * State.ncols (Klondike and Easthaven seven).  Pile numbers are the engine's
 * (bonanza.core.moves.Pile): columns 1-7 are piles 0-6, then the stock, the
 * waste and the four foundations, and columns 8-10 are piles 13-15. */
#define NCOLS 10
#define KLONDIKE_NCOLS 7
#define MAXC 52
#define P_STOCK 7
#define P_WASTE 8
#define P_FOUND 9
#define P_COL8 13
#define DST_FOUND 255

/* The engine's pile number of column c. */
static inline int col_pile(int c) { return c < KLONDIKE_NCOLS ? c : P_COL8 + c - KLONDIKE_NCOLS; }

static const uint8_t RANK[52] = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
};
static inline int card_rank(int c) { return RANK[c]; }
static inline int card_suit(int c) { return c / 13; }
static inline int card_red(int c) { return c >= 13 && c < 39; }

/* The card of the same rank and colour. */
static inline int twin_of(int card)
{
    /* C<->S (suits 0 and 3), D<->H (1 and 2). */
    return (3 - card_suit(card)) * 13 + card % 13;
}

static inline int fits_on(int card, int base)
{
    return card_rank(base) == card_rank(card) + 1 && card_red(base) != card_red(card);
}

/* Card sets (bit = card): the cards of a suit, and the four of a rank. */
#define SUIT_MASK(suit) (((1ULL << 13) - 1) << (13 * (suit)))
#define RANK_MASK(rank) (0x0008004002001ULL << ((rank) - 1)) /* the four cards of a rank */
#define ALL_CARDS ((1ULL << 52) - 1) /* every card, as a mask */

/* The cards `card` goes on: one rank up, of the other colour (none for a king). */
static inline uint64_t bases_of(int card)
{
    int rank = card_rank(card), black = card_red(card) ? 0 : 1;
    if (rank == 13) return 0;
    return 1ULL << (black * 13 + rank) | 1ULL << ((3 - black) * 13 + rank);
}

#endif /* BONANZA_SEARCH_CARDS_H */
