/*
 * search_forget.h: a full transposition table forgets entries, and the
 * search goes on (the root search's table; SIDE_NO_FORGET stops it instead).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_FORGET_H
#define BONANZA_SEARCH_FORGET_H

#include <stddef.h>
#include <stdint.h>

#include "search_path.h"
#include "search_table.h"
#include "search_zobrist.h"

/*
 * What the table is for, and which entries the search needs.
 *
 * The table holds no values: an entry says only "this position was stored",
 * and a position found there is not expanded again.  An entry is stored
 * when the search enters a position (before its dead-end test, so a
 * hopeless position is stored too), and rule 9 stores the copies that a
 * position entered dominates (its fresh stock, its larger wastes) without
 * expanding them.  The search ends "lost" only after every frame has run
 * out of moves.  Forgetting an entry lets its position be stored and
 * expanded again when it is met again: that costs nodes, and changes no
 * verdict, by the two facts below.
 *
 * Soundness.  Every proof that a table hit loses no win (rules 3 and 9 at
 * state_key and enter, rule 12's at top_goes_home, the plain transposition
 * argument) is a least-counterexample argument over the positions *stored*:
 * take a winnable stored position of least order (the least number of moves
 * to a win; rule 12 refines it), that was expanded, or whose rule-9 copy
 * was; the first move of a shortest win from it was tried (in that
 * expansion, whichever one), and its child was won, or stored, now or
 * before, with a smaller order; a contradiction.  Each step uses an entry
 * only at the moment of a hit, as evidence that the position was stored and
 * expanded (or its dominating copy was) at some earlier time, and that
 * expansion was finished by the time the search ends "lost".  None uses an
 * entry's still being there later, nor that a position is expanded once
 * only.  So with "stored" read as "stored at some time during the search",
 * every proof holds word for word when entries are forgotten: a forgotten
 * position met again is either expanded again (which only adds moves tried)
 * or, if stored again meanwhile, a hit on that later entry.  A win is a line
 * of play, replayed by the engine; forgetting cannot make one.
 *
 * Termination.  The entries of the positions on the current path (each
 * frame's key) are never forgotten: a position met again on its own path is
 * a hit, as before, so every path holds each stored position at most once,
 * and the depth-first search, over finitely many positions, ends.  (Rules 10
 * and 14 store no entry for a position whose moves they restrict; such a
 * position moves a card from the talon and leads to a stored one, as
 * without forgetting.)  Those entries are the only load-bearing ones: every
 * other entry is a cache of a finished (or dominated) expansion, and costs
 * only a search again if forgotten.  A search that never fills its table
 * forgets nothing, and is the same, node for node, as before.
 *
 * The policy.  The table forgets only where it stopped the search before:
 * when it cannot grow within the memory budget and is 95 % full.  One
 * sweep (tt_thin) then keeps about FORGET_KEEP_EIGHTHS eighths of its slots'
 * worth of entries, chosen by a hash of the key that changes with each
 * sweep (the table holds no age or subtree size to choose by: 128 bits a
 * slot are the key and its check, and a bit taken from them would weaken
 * the check), and puts the path's entries back.  A sweep costs one pass over
 * the table, and is followed by many insertions before the next.  Keeping
 * more costs fewer nodes and more sweeps: the hardest lost draw-3 deal of
 * docs/solver.md in a table of half the entries it needs (160 MiB budget)
 * took 119.3 M nodes keeping five eighths (46 s), 89.5 M keeping six (34.8
 * s), 72.3 M keeping seven (34.4 s); 33.9 M in a table that holds them all.
 */

#ifndef FORGET_KEEP_EIGHTHS
#define FORGET_KEEP_EIGHTHS 7 /* the table's load after a sweep, in eighths */
#endif
#define FORGET_SALT 0x666F72676574ULL /* the sweeps' hash of the key */

/* Forget entries of the full table of search x, none of its path's, nor the
 * entry (key, check) of the position being entered (key 0: none).  Returns
 * 1 if the table has room again, else 0 (the path fills it). */
static int forget_some(Search *x, uint64_t key, uint64_t check)
{
    Table *t = &x->tt;
    size_t cap = t->cap, keep = cap / 8 * FORGET_KEEP_EIGHTHS;
    if (t->count <= keep) return 0;
    /* Keep each entry with probability keep / count. */
    double share = (double)keep / (double)t->count;
    uint64_t keep_below = (uint64_t)(share * 18446744073709549568.0); /* 2^64 less an ulp */
    x->thinned++;
    uint64_t salt = FORGET_SALT + x->thinned * 0x9E3779B97F4A7C15ULL;
    size_t before = t->count;
    tt_thin(t, salt, keep_below);
    for (size_t k = 0; k < x->flen; k++)
        if (x->frames[k].key) tt_put(t, x->frames[k].key, x->frames[k].check);
    if (key) tt_put(t, key, check);
    if (before > t->count) x->o.fired[FIRED_FORGOTTEN] += before - t->count;
    return (t->count + 1) * 20 <= cap * 19;
}

/* store's way when the table is full: forget some entries if the search may
 * (keeping (own, own_check), the position being entered, if own is not 0),
 * and insert again.  Apart, so that store stays small where it is inlined. */
static __attribute__((noinline, cold)) int store_full(Search *x, uint64_t key, uint64_t check,
                                                      uint64_t own, uint64_t own_check)
{
    if (!x->forget || !forget_some(x, own, own_check)) return -1;
    return tt_insert(&x->tt, key, check, x->budget, &x->used);
}

/* tt_insert into the search's table, forgetting entries when it is full (see
 * store_full).  1 inserted, 0 already present, -1 no memory. */
static inline __attribute__((always_inline)) int store(Search *x, uint64_t key, uint64_t check,
                                                       uint64_t own, uint64_t own_check)
{
    int ins = tt_insert(&x->tt, key, check, x->budget, &x->used);
    if (__builtin_expect(ins >= 0, 1)) return ins;
    return store_full(x, key, check, own, own_check);
}

#endif /* BONANZA_SEARCH_FORGET_H */
