/*
 * search_zobrist.h: the Zobrist keys of the state key (see search_table.h).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_ZOBRIST_H
#define BONANZA_SEARCH_ZOBRIST_H

#include <stdint.h>

#include "search_cards.h"

/* ---- Zobrist keys ------------------------------------------------------ */

static uint64_t Z_COL[52][MAXC];   /* card at height h of a column */
static uint64_t Z_DOWN[MAXC + 1];  /* face-down count of a column */
static uint64_t Z_TAL[52];         /* card still in the talon */
static uint64_t Z_PTR[MAXC + 1];   /* waste size */
static uint64_t Z_PLACE[NCOLS];    /* a column's place, where it matters */
static const uint64_t Z_NO_PLACE[NCOLS]; /* (zeros: where it does not) */

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDULL;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ULL;
    return z ^ (z >> 33);
}

static void init_keys(void)
{
    uint64_t seed = 0x426F6E616E7A61ULL; /* "Bonanza" */
    for (int c = 0; c < 52; c++)
        for (int h = 0; h < MAXC; h++) Z_COL[c][h] = splitmix(&seed);
    for (int i = 0; i <= MAXC; i++) Z_DOWN[i] = splitmix(&seed);
    for (int c = 0; c < 52; c++) Z_TAL[c] = splitmix(&seed);
    for (int i = 0; i <= MAXC; i++) Z_PTR[i] = splitmix(&seed);
    for (int c = 0; c < NCOLS; c++) Z_PLACE[c] = splitmix(&seed);
}

#endif /* BONANZA_SEARCH_ZOBRIST_H */
