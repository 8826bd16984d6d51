/*
 * search_wide_key.h: the generic search's positions as bytes: encoded for
 * its path (w_encode, w_decode), and as generic.position_key's bytes and
 * their 128-bit hash, its table's key (see search_wide.h).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_WIDE_KEY_H
#define BONANZA_SEARCH_WIDE_KEY_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
}

/* Compare two columns as generic.position_key's bytes (down, *cards) sort. */
static int w_column_cmp(const WState *s, int a, int b)
{
    if (s->down[a] != s->down[b]) return s->down[a] < s->down[b] ? -1 : 1;
    int la = s->len[a], lb = s->len[b], common = la < lb ? la : lb;
    int c = memcmp(s->col[a], s->col[b], (size_t)common);
    if (c) return c;
    return la == lb ? 0 : la < lb ? -1 : 1;
}

/* The cards of `from` with each twin written as its first deck's card
 * (c + 52 as c), into `to`; returns n.  (Branch-free, so the compiler
 * vectorizes it: a division by 52 a card took a fifth of the key's time.) */
static inline int w_as_one_deck(uint8_t *to, const uint8_t *from, int n)
{
    for (int i = 0; i < n; i++) to[i] = (uint8_t)(from[i] - (from[i] >= W_DECK) * W_DECK);
    return n;
}

/* generic.position_key's bytes into key (columns sorted by their bytes,
 * twins then written as one card, the foundations' heights of a suit in
 * order, the recycles where passes are limited); returns its length. */
static int w_key_bytes(const WState *s, const WRules *r, uint8_t *key)
{
    int order[W_COLS], n = 0;
    for (int c = 0; c < r->ncols; c++) {
        int i = c;
        while (i > 0 && w_column_cmp(s, order[i - 1], c) > 0) { order[i] = order[i - 1]; i--; }
        order[i] = c;
    }
    for (int k = 0; k < r->ncols; k++) {
        int c = order[k];
        key[n++] = s->down[c];
        n += w_as_one_deck(key + n, s->col[c], s->len[c]);
        key[n++] = W_SEPARATOR;
    }
    n += w_as_one_deck(key + n, s->stock, s->nstock);
    key[n++] = W_SEPARATOR;
    n += w_as_one_deck(key + n, s->waste, s->nwaste);
    key[n++] = W_SEPARATOR;
    for (int suit = 0; suit < 4; suit++) {
        if (r->decks == 1) { key[n++] = s->found[suit]; continue; }
        int a = s->found[suit], b = s->found[suit + 4];
        key[n++] = (uint8_t)(a < b ? a : b);
        key[n++] = (uint8_t)(a < b ? b : a);
    }
    if (r->recycles_allowed >= 0) {
        /* b"%c%d" % (SEPARATOR, recycles) */
        char digits[24];
        int d = snprintf(digits, sizeof digits, "%d", s->recycles);
        key[n++] = W_SEPARATOR;
        memcpy(key + n, digits, (size_t)d);
        n += d;
    }
    if (r->macro == W_STEPPED) { /* (the talon is all in the waste: its pointer) */
        key[n++] = W_SEPARATOR;
        key[n++] = s->ptr;
    }
    return n;
}

/* Two independent 64-bit hashes of the key's bytes (key, check). */
static void w_hash(const uint8_t *bytes, int n, uint64_t *key, uint64_t *check)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n, g = 0xC2B2AE3D27D4EB4FULL + (uint64_t)n;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, bytes + i, 8);
        h = mix64(h ^ w);
        g = mix64(g + w * 0x9FB21C651E98DF25ULL);
    }
    uint64_t w = 0;
    memcpy(&w, bytes + i, (size_t)(n - i));
    h = mix64(h ^ w ^ 0xA5);
    g = mix64(g + (w ^ 0x5A) * 0x9FB21C651E98DF25ULL);
    *key = h ? h : 1;
    *check = g;
}

#endif /* BONANZA_SEARCH_WIDE_KEY_H */
