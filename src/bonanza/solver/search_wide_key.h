/*
 * search_wide_key.h: the generic search's positions encoded as bytes for
 * its path (w_encode, w_decode), and its table's key: generic.position_key
 * as a 128-bit hash (w_key).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_WIDE_KEY_H
#define BONANZA_SEARCH_WIDE_KEY_H

#include <stdint.h>
#include <string.h>

#include "search_table.h"
#include "search_wide.h"
#include "search_zobrist.h"

/* A position in a few bytes, for the path (a column's length, its face-down
 * count and cards; the stock's, the waste's; the foundations; the recycles):
 * at most W_CODE_MAX bytes. */
#define W_CODE_MAX (2 * W_COLS + W_CARDS + 2 + W_FOUNDS + 5)

static int w_encode(const WState *s, const WRules *r, uint8_t *out)
{
    int n = 0;
    for (int c = 0; c < r->ncols; c++) {
        out[n++] = s->len[c];
        out[n++] = s->down[c];
        memcpy(out + n, s->col[c], s->len[c]);
        n += s->len[c];
    }
    out[n++] = s->nstock;
    memcpy(out + n, s->stock, s->nstock);
    n += s->nstock;
    out[n++] = s->nwaste;
    memcpy(out + n, s->waste, s->nwaste);
    n += s->nwaste;
    memcpy(out + n, s->found, W_FOUNDS);
    n += W_FOUNDS;
    uint32_t recycles = (uint32_t)s->recycles;
    memcpy(out + n, &recycles, 4);
    out[n + 4] = s->ptr;
    return n + 5;
}

static void w_decode(const uint8_t *in, const WRules *r, WState *s)
{
    int n = 0;
    for (int c = 0; c < r->ncols; c++) {
        s->len[c] = in[n++];
        s->down[c] = in[n++];
        memcpy(s->col[c], in + n, s->len[c]);
        n += s->len[c];
    }
    s->nstock = in[n++];
    memcpy(s->stock, in + n, s->nstock);
    n += s->nstock;
    s->nwaste = in[n++];
    memcpy(s->waste, in + n, s->nwaste);
    n += s->nwaste;
    memcpy(s->found, in + n, W_FOUNDS);
    n += W_FOUNDS;
    uint32_t recycles;
    memcpy(&recycles, in + n, 4);
    s->recycles = (int)recycles;
    s->ptr = in[n + 4];
    s->hashed = 0;
}

/* The key: generic.position_key as a 128-bit hash (the key and its check),
 * one for each value of that key, up to a collision of both halves.  That
 * key's bytes are the columns (each its face-down count and cards, every
 * twin written as its first deck's card) sorted, the stock's and the
 * waste's cards written so too, the foundations' heights of each suit in
 * order, the recycles where passes are limited and the pointer under
 * stepped talon macros.  Here each pile's cards are hashed as w_card_words
 * says (twins alike); a column's term mixes its hash with its face-down
 * count, and the terms are summed, which does not depend on the columns'
 * order, as the sort does not.  The piles' hashes and the columns' terms
 * are kept as the moves change them (w_apply), so a key mixes only the
 * columns a move changed: writing the bytes out, sorting the columns and
 * hashing the bytes took a third of a Double Klondike search's time
 * (docs/solver.md).  A position has the same key whichever way it was
 * reached, so the search merges the same positions, and makes the same
 * nodes, as the Python search with the bytes themselves. */
#define W_KEY_SALT 0x57494445ULL            /* "WIDE" */
#define W_STOCK_SALT 0x53544F434BULL        /* "STOCK" */
#define W_WASTE_SALT 0x5741535445ULL        /* "WASTE" */
#define W_DOWN_SALT 0x444F574EULL           /* "DOWN" */
#define W_RECYCLES_SHIFT 32                 /* the recycles' bits in the rest's word */
#define W_POINTER_SHIFT 56                  /* the pointer's */

static void w_init_hashes(void)
{
    uint64_t seed = 0x446F75626C65ULL; /* "Double" */
    for (int at = 0; at < W_CARDS; at++)
        for (int card = 0; card < W_DECK; card++)
            for (int half = 0; half < 2; half++) w_card_words[at][card][half] = splitmix(&seed);
}

/* Hash what `s->hashed` does not have yet. */
static void w_hash_piles(WState *s, const WRules *r)
{
    for (int c = 0; c < r->ncols; c++)
        if (!(s->hashed >> c & 1)) {
            s->colh[c][0] = s->colh[c][1] = 0;
            w_hash_cards(s->colh[c], s->col[c], 0, s->len[c]);
            s->hashed |= 1u << c;
        }
    if (!(s->hashed & W_TALON_HASHED)) {
        memset(s->pileh, 0, sizeof s->pileh);
        w_hash_cards(s->pileh[0], s->stock, 0, s->nstock);
        w_hash_cards(s->pileh[1], s->waste, 0, s->nwaste);
        s->hashed |= W_TALON_HASHED;
    }
}

/* The key of s (and its check, in *check); makes its piles' hashes. */
static void w_key(WState *s, const WRules *r, uint64_t *key, uint64_t *check)
{
    w_hash_piles(s, r);
    if (!(s->hashed & W_SUMMED)) {
        memset(s->colt, 0, sizeof s->colt);
        memset(s->colsum, 0, sizeof s->colsum);
        s->hashed |= W_SUMMED;
    }
    /* Only the terms of the columns a move changed are mixed again. */
    for (unsigned stale = ~s->hashed >> 16 & ((1u << r->ncols) - 1); stale; stale &= stale - 1) {
        int c = __builtin_ctz(stale);
        uint64_t down = (uint64_t)s->down[c] * 0x9E3779B97F4A7C15ULL ^ W_DOWN_SALT;
        uint64_t term = mix64(s->colh[c][0] ^ down), check = mix64(s->colh[c][1] ^ down ^ CHECK_SALT);
        s->colsum[0] += term - s->colt[c][0];
        s->colsum[1] += check - s->colt[c][1];
        s->colt[c][0] = term;
        s->colt[c][1] = check;
        s->hashed |= W_TERMED(c);
    }
    uint64_t k = s->colsum[0], g = s->colsum[1];
    /* The rest in one word: each suit's heights in order (4 bits each), the
     * recycles and the pointer where they are in the key. */
    uint64_t rest = 0;
    for (int suit = 0; suit < 4; suit++) {
        int a = s->found[suit], b = r->decks == 1 ? 0 : s->found[suit + 4];
        rest = rest << 8 | (uint64_t)(a < b ? a : b) << 4 | (uint64_t)(a < b ? b : a);
    }
    if (r->recycles_allowed >= 0) rest |= (uint64_t)(uint32_t)s->recycles << W_RECYCLES_SHIFT;
    if (r->macro == W_STEPPED) rest |= (uint64_t)s->ptr << W_POINTER_SHIFT;
    k += mix64(s->pileh[0][0] ^ W_STOCK_SALT) + mix64(s->pileh[1][0] ^ W_WASTE_SALT)
         + mix64(rest ^ W_KEY_SALT);
    g += mix64(s->pileh[0][1] ^ W_STOCK_SALT ^ CHECK_SALT)
         + mix64(s->pileh[1][1] ^ W_WASTE_SALT ^ CHECK_SALT) + mix64(rest ^ CHECK_SALT);
    *key = k ? k : 1;
    *check = g;
}

#endif /* BONANZA_SEARCH_WIDE_KEY_H */
