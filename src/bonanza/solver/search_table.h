/*
 * search_table.h: the state key and the transposition table.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_TABLE_H
#define BONANZA_SEARCH_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define MAP_TABLES 1
#endif

#include "search_state.h"
#include "search_zobrist.h"

/* ---- state keys (rules 3, 5 and 9) --------------------------------------- */

#define CHECK_SALT 0xA5A5F00DCAFEBEEFULL /* makes the check's mixes differ from the key's */

/* A column's term of the key: its cards' hash, its face-down count and,
 * where it matters, its place (see state_key); `salt` 0 for the key, and
 * CHECK_SALT for the check. */
static inline uint64_t column_term(uint64_t colh, int down, uint64_t place, uint64_t salt)
{
    return mix64(colh ^ Z_DOWN[down] ^ place ^ salt);
}

/* The talon's word of the key, before its mix: its cards' hash, the waste
 * size where the pointer matters (rule 9: as 0 where it reaches what a
 * fresh stock reaches), the recycles where passes are limited. */
static inline uint64_t talon_word(const Rules *r, uint64_t talh, int ptr, int tlen, int rec)
{
    uint64_t t = talh;
    if (pointer_matters(r)) {
        /* Rule 9: with unlimited passes, a waste size that is a multiple of
         * the draw, or the whole talon, reaches exactly the cards a fresh
         * stock reaches (see talon_targets), so it is keyed as 0. */
        if (r->recycles_allowed < 0 && (ptr % r->draw == 0 || ptr == tlen)) ptr = 0;
        t ^= Z_PTR[ptr];
    }
    if (r->recycles_allowed >= 0) t ^= mix64((uint64_t)rec * 0x9E3779B97F4A7C15ULL + 0x52454359ULL);
    return t;
}

#define TALON_SALT 0x5DEECE66DULL /* the talon word's mix in the key */

static uint64_t state_key(State *s, const Rules *r)
{
    /* Rule 3: a sum of per-column hashes does not depend on column order, and
     * column order never matters (every rule treats the columns alike).
     * Foundations are implied by the other piles (all 52 cards are
     * somewhere), so they need no key of their own.  The column terms are
     * kept, and only those of changed columns recomputed.
     * Where the stock deals onto every column (Easthaven), column order
     * matters while the stock holds cards: a deal puts the stock's next
     * card onto column 1, the one after onto column 2, and the last deal
     * reaches the first three columns only.  So each column's term then
     * includes its place, and rule 3 waits for the stock to be empty. */
    if (r->deals && (s->tlen > 0) != s->ordered) {
        s->ordered = s->tlen > 0;
        s->stale = (1u << s->ncols) - 1;
    }
    const uint64_t *places = s->ordered ? Z_PLACE : Z_NO_PLACE;
    for (; s->stale; s->stale &= s->stale - 1) {
        int c = __builtin_ctz(s->stale);
        uint64_t term = column_term(s->colh[c], s->down[c], places[c], 0);
        s->cols_key += term - s->col_key[c];
        s->col_key[c] = term;
        uint64_t check = column_term(s->colh[c], s->down[c], places[c], CHECK_SALT);
        s->cols_check += check - s->col_check[c];
        s->col_check[c] = check;
    }
    uint64_t t = talon_word(r, s->talh, s->ptr, s->tlen, s->rec);
    uint64_t k = s->cols_key + mix64(t ^ TALON_SALT);
    /* The check (s->check): the same sum with other mixes, stored beside the
     * key.  A collision of 64-bit keys alone could call a won position seen,
     * and so lost: in a search of 15 M positions the chance is about one in
     * 10^5; with the check it is about one in 10^24.  It costs 6 % of the time
     * (13403359238029943187, draw 3: 18.6 s against 19.8 s) and doubles the
     * table's memory. */
    s->check = s->cols_check + mix64(t ^ CHECK_SALT);
    return k ? k : 1;
}

/* state_key of the position after step m, without playing it: the columns
 * m takes cards from or brings them to, and the talon, as apply_move would
 * leave them (turning up a card included), before any safe move.  For the
 * lookups that enter starts for the children (a wrong key would only fetch
 * the wrong slot), so it needs no check.  The column terms of s must be up to
 * date (s->stale 0).  0 where it does not say (a deal from the stock). */
static uint64_t step_key(const State *s, const Rules *r, const SMove *m)
{
    if (r->deals) return 0;
    uint64_t k = s->cols_key, t = s->talh;
    int ptr = s->ptr, tlen = s->tlen, rec = s->rec;
    int from = -1, to = -1, card, from_down = 0;
    uint64_t from_h = 0, to_h = 0;
    switch (m->kind) {
    case K_T2F:
    case K_T2T: {
        int count = m->kind == K_T2F ? 1 : m->count, i0 = s->len[m->src] - count;
        from = m->src;
        from_h = s->colh[from];
        if (m->kind == K_T2T) {
            to = m->dst;
            to_h = s->colh[to];
        }
        for (int i = 0; i < count; i++) {
            card = s->col[from][i0 + i];
            from_h ^= Z_COL[card][i0 + i];
            if (to >= 0) to_h ^= Z_COL[card][s->len[to] + i];
        }
        from_down = s->down[from] - (i0 > 0 && i0 == s->down[from]);
        break;
    }
    case K_TAL:
        card = s->talon[m->q - 1];
        t ^= Z_TAL[card];
        ptr = m->q - 1;
        tlen--;
        rec += m->recycle;
        if (m->dst != DST_FOUND) {
            to = m->dst;
            to_h = s->colh[to] ^ Z_COL[card][s->len[to]];
        }
        break;
    case K_F2T:
        card = m->src * 13 + s->found[m->src] - 1;
        to = m->dst;
        to_h = s->colh[to] ^ Z_COL[card][s->len[to]];
        break;
    default:
        return 0;
    }
    /* (Without deals the columns' places are not in their terms.) */
    if (from >= 0) k += column_term(from_h, from_down, 0, 0) - s->col_key[from];
    if (to >= 0) k += column_term(to_h, s->down[to], 0, 0) - s->col_key[to];
    k += mix64(talon_word(r, t, ptr, tlen, rec) ^ TALON_SALT);
    return k ? k : 1;
}

/* ---- transposition table ------------------------------------------------- */

/* Open addressing with linear probing: slot j is keys[2j] (the key, 0 for an
 * empty slot) and keys[2j + 1] (its check); cap slots, any number of them.  A
 * key's home slot is its place in [0, cap) scaled from its place among all
 * 64-bit values (tt_home), so that a table may be any size: it doubles while
 * the budget allows, then grows once more to what the budget holds
 * (tt_insert). */
typedef struct {
    uint64_t *keys;
    size_t cap, count;
} Table;

/* The home slot of `key` in a table of `cap` slots: key * cap / 2^64, which
 * keeps the keys' order (so a table's keys go to a larger one in order). */
static inline size_t tt_home(uint64_t key, size_t cap)
{
    return (size_t)(((unsigned __int128)key * cap) >> 64);
}

/* A zeroed array of `cap` 64-bit words, freed by keys_free.  Large ones are mapped
 * straight from the kernel, so that freeing returns them (malloc would keep
 * them for later and the process would grow), and on huge pages where the
 * system offers them: each lookup is a random access, and with small pages
 * most would also miss the address translation cache. */
#define HUGE_PAGE ((size_t)2 << 20)

/* Is an array of `cap` words mapped from the kernel (else malloc'd)? */
static int keys_mapped(size_t cap)
{
#ifdef MAP_TABLES
    size_t bytes = cap * sizeof(uint64_t);
    return bytes >= HUGE_PAGE && bytes % HUGE_PAGE == 0;
#else
    (void)cap;
    return 0;
#endif
}

/* Return one huge page of a mapped key array to the kernel (its keys are
 * no longer needed; keys_free still unmaps the whole array). */
static void keys_give_back(uint64_t *page)
{
#ifdef MAP_TABLES
    munmap(page, HUGE_PAGE);
#else
    (void)page;
#endif
}

static uint64_t *keys_alloc(size_t cap)
{
    size_t bytes = cap * sizeof(uint64_t);
#ifdef MAP_TABLES
    if (keys_mapped(cap)) {
        /* Map a huge page more and trim it to a huge-page boundary. */
        uint8_t *p = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        size_t head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
        if (head) munmap(p, head);
        if (HUGE_PAGE - head) munmap(p + head + bytes, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
        madvise(p + head, bytes, MADV_HUGEPAGE);
#endif
        return (uint64_t *)(p + head);
    }
#endif
    return calloc(cap, sizeof(uint64_t));
}

static void keys_free(uint64_t *keys, size_t cap)
{
#ifdef MAP_TABLES
    if (keys && keys_mapped(cap)) {
        munmap(keys, cap * sizeof(uint64_t));
        return;
    }
#endif
    free(keys);
}

static int tt_init(Table *t, size_t cap)
{
    t->keys = keys_alloc(2 * cap);
    t->cap = cap;
    t->count = 0;
    return t->keys != NULL;
}

/* The first table sizes, in slots (16 bytes each): the exact search's, and a
 * side search's or probe's.  Most deals are decided in a few hundred nodes:
 * their table stays in the caches, where a first table of 2^15 slots (512 KB,
 * fresh pages to fault in and cache lines to miss) cost the median draw-3
 * deal about a tenth of its time (docs/solver.md, "Speed").  A table grows
 * (tt_insert), which changes no search: it only says which positions were
 * seen, until it is full. */
#define FIRST_SLOTS ((size_t)1 << 11)
#define FIRST_SIDE_SLOTS ((size_t)1 << 13)

#ifndef PREFETCH_SLOTS
#define PREFETCH_SLOTS ((size_t)1 << 21) /* 32 MB of slots: more than the caches hold */
#endif

/* The slot of (key, check) in the table, or the empty slot where it would go
 * (the table is never full). */
static inline size_t tt_slot(const Table *t, uint64_t key, uint64_t check)
{
    size_t j = tt_home(key, t->cap);
    while (t->keys[2 * j]) {
        if (t->keys[2 * j] == key && t->keys[2 * j + 1] == check) return j;
        if (++j == t->cap) j = 0;
    }
    return j;
}

/* Whether (key, check) is in the table. */
static int tt_has(const Table *t, uint64_t key, uint64_t check)
{
    return t->keys[2 * tt_slot(t, key, check)] != 0;
}

/* Put a key in a table with room for it: 1 inserted, 0 already present. */
static int tt_put(Table *t, uint64_t key, uint64_t check)
{
    size_t j = tt_slot(t, key, check);
    if (t->keys[2 * j]) return 0;
    t->keys[2 * j] = key;
    t->keys[2 * j + 1] = check;
    t->count++;
    return 1;
}

/* Forget entries: keep each one when mix64(key ^ salt) <= keep_below (about
 * keep_below / 2^64 of them, chosen alike for every key, so a search stays the
 * same from run to run).  Returns how many were forgotten.  In place, in one
 * sweep that starts after an empty slot: each entry is taken out and, if
 * kept, put back from its home slot, which it reaches at or before its old
 * slot (every slot between was full, or was emptied in this sweep).  A key's
 * run from its home slot to its slot never crosses the empty slot the sweep
 * starts after, so every kept entry is put back after the slots its run
 * needs filled were settled: each is found by tt_put as before.  Which
 * entries may be forgotten is the caller's to say (see forget_some). */
static size_t tt_thin(Table *t, uint64_t salt, uint64_t keep_below)
{
    size_t cap = t->cap, start = 0, forgotten = 0;
    while (t->keys[2 * start]) start++; /* (the table is never full) */
    for (size_t n = 1, i = start; n <= cap; n++) {
        if (++i == cap) i = 0;
        uint64_t key = t->keys[2 * i];
        if (!key) continue;
        uint64_t check = t->keys[2 * i + 1];
        t->keys[2 * i] = t->keys[2 * i + 1] = 0;
        t->count--;
        if (mix64(key ^ salt) <= keep_below) tt_put(t, key, check);
        else forgotten++;
    }
    return forgotten;
}

/* Slots a table grows by at the end, past doubling: whole huge pages. */
#define GROW_STEP_SLOTS (HUGE_PAGE / (2 * sizeof(uint64_t)))
/* The last growth leaves this share of what the budget still holds to other
 * searches (the side searches share the budget), and is made only if it adds
 * at least a quarter. */
#define GROW_LEAVE_SIXTEENTHS 1

/* The slots a full table of `cap` slots grows to: twice as many if the budget
 * holds them (with the table's own bytes given back), else as many as it
 * holds, less a sixteenth, in whole huge pages; `cap` if that is not a
 * quarter more. */
static size_t tt_grown(size_t cap, size_t budget, size_t used)
{
    const size_t slot = 2 * sizeof(uint64_t);
    size_t others = used - cap * slot;
    if (others >= budget) return cap;
    size_t room = (budget - others) / slot;
    if (2 * cap <= room) return 2 * cap;
    room -= room / 16 * GROW_LEAVE_SIXTEENTHS;
    room -= room % GROW_STEP_SLOTS;
    return room >= cap + cap / 4 ? room : cap;
}

/* 1: inserted, 0: already present, -1: no memory left within the budget (for a
 * position not stored). */
static int tt_insert(Table *t, uint64_t key, uint64_t check, size_t budget, size_t *used)
{
    size_t cap = t->cap;
    /* Grow at 3/4 full (linear probing slows down sharply beyond). */
    size_t full = cap / 4 * 3;
    if (t->count + 1 > full) {
        size_t grown = tt_grown(cap, budget, *used);
        uint64_t *keys = grown > cap ? keys_alloc(2 * grown) : NULL;
        if (keys) {
            /* tt_home keeps the keys' order, so the new table's pages are
             * touched in order, and a mapped old table gives back each huge
             * page once read: the process never holds both tables whole (the
             * peak is the new table, not one and a half times it). */
            size_t page = HUGE_PAGE / sizeof(uint64_t) / 2;
            int give_back = keys_mapped(2 * cap);
            for (size_t i = 0; i < cap; i++) {
                uint64_t k = t->keys[2 * i];
                if (k) {
                    size_t j = tt_home(k, grown);
                    while (keys[2 * j])
                        if (++j == grown) j = 0;
                    keys[2 * j] = k;
                    keys[2 * j + 1] = t->keys[2 * i + 1];
                }
                if (give_back && (i + 1) % page == 0) keys_give_back(t->keys + 2 * (i + 1 - page));
            }
            keys_free(t->keys, 2 * cap);
            t->keys = keys;
            t->cap = grown;
            *used = *used - 2 * cap * sizeof(uint64_t) + 2 * grown * sizeof(uint64_t);
        } else if ((t->count + 1) * 20 > cap * 19) {
            return tt_has(t, key, check) ? 0 : -1; /* a position stored is still found */
        }
    }
    return tt_put(t, key, check);
}

#endif /* BONANZA_SEARCH_TABLE_H */
