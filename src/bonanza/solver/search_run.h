/*
 * search_run.h: the depth-first search: entering positions, the search loop.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_RUN_H
#define BONANZA_SEARCH_RUN_H

#include <stdint.h>
#include <stdlib.h>

#include "search_cards.h"
#include "search_dead_ends.h"
#include "search_locks.h"
#include "search_forget.h"
#include "search_moves.h"
#include "search_path.h"
#include "search_safe.h"
#include "search_state.h"
#include "search_table.h"
#include "search_twins.h"

/* ---- the search loop ------------------------------------------------------ */

/* When no card is face down and every talon card can be reached at will (or
 * the talon is empty), the lowest card not home is always playable: it is
 * at the top of its column (the cards above it in a run are lower) or in the
 * talon.  Play the win out greedily; returns 1 if it was won, else undoes. */
static int finish_if_trivial(Search *x)
{
    State *s = &x->s;
    const Rules *r = &x->r;
    if (s->tlen && !(r->draw == 1 && r->recycles_allowed < 0)) return 0;
    for (int c = 0; c < s->ncols; c++)
        if (s->down[c]) return 0;
    size_t base = x->plen;
    while (!is_won(s)) {
        int best = -1, where = -1, in_talon = 0;
        for (int c = 0; c < s->ncols; c++) {
            if (!s->len[c]) continue;
            int card = s->col[c][s->len[c] - 1];
            if (card_rank(card) == s->found[card_suit(card)] + 1
                && (best < 0 || card_rank(card) < card_rank(best))) {
                best = card; where = c; in_talon = 0;
            }
        }
        for (int i = 0; i < s->tlen; i++) {
            int card = s->talon[i];
            if (card_rank(card) == s->found[card_suit(card)] + 1
                && (best < 0 || card_rank(card) < card_rank(best))) {
                best = card; where = i; in_talon = 1;
            }
        }
        if (best < 0) { path_unwind(x, base); return 0; }
        SMove m = {0};
        m.dst = DST_FOUND; m.count = 1;
        if (in_talon) {
            m.kind = K_TAL; m.q = (uint8_t)(where + 1); m.recycle = (uint8_t)(where + 1 < s->ptr);
        } else {
            m.kind = K_T2F; m.src = (uint8_t)where;
        }
        if (!play(x, m)) { path_unwind(x, base); return -1; }
    }
    return 1;
}

/*
 * Rule 14 (draw 1, unlimited passes, where any talon card can be played at
 * any time: see rule 5).  Let c, not a king, be a talon card that goes home,
 * and compare the position with c still in the talon (B) and with c home (A).
 * B can do whatever A can: every move of A that does not need c home is
 * legal in B too (the talon's other cards are within reach as before); the
 * moves that need c home are sending its successor home, which B may do
 * after sending c home first, and recalling c, which B does by playing c from
 * the talon instead (c stays its foundation's top until then).  A's other
 * difference, that c covers its predecessor in the foundation, only takes
 * moves away.  So a winning line may always keep c in the talon until just
 * before its successor goes home (or the line ends, which c, not a king,
 * never does first): after a step that sends a talon card home, the search
 * tries only the moves that send its successor home, from a column or the
 * talon (the latter passing the rule on).  Such a node is not stored in the
 * table: its children are a restricted set.  If a forced move has already
 * sent the successor home, the rule lifts.
 */

/* ---- the kept-out set beside the key (for tests: SIDE_KEPT_*) ------------ */

#define KEPT_SALT 0x6B6570746F7574ULL /* the kept-out set's term in a key */

/* Rule 12's kept-out set as a term of a key or check (0 for none). */
static inline uint64_t kept_term(const State *s, uint64_t salt)
{
    return s->kept_out ? mix64(s->kept_out ^ salt) : 0;
}

/* The table's key of the position (and its check, in *check): state_key's,
 * with the kept-out set in it under SIDE_KEPT_KEYED. */
static uint64_t table_key(Search *x, uint64_t *check)
{
    uint64_t key = state_key(&x->s, &x->r);
    *check = x->s.check;
    if (x->o.sides & SIDE_KEPT_KEYED) {
        key ^= kept_term(&x->s, KEPT_SALT);
        *check ^= kept_term(&x->s, KEPT_SALT ^ CHECK_SALT);
    }
    return key ? key : 1;
}

/* SIDE_KEPT_HITS: note the key with the kept-out set in a table of its own,
 * and count a hit of the search's table (`hit`) on a key that this table has
 * not seen with this set: an entry stored under another kept-out set
 * answered.  Its memory is not the search's (the search is the same).
 * 0 on memory failure. */
static int note_kept(Search *x, uint64_t key, uint64_t check, int hit)
{
    if (!(x->o.sides & SIDE_KEPT_HITS)) return 1;
    if (!x->kept.keys) {
        if (!tt_init(&x->kept, FIRST_SIDE_SLOTS)) return 0;
        x->kept_used = 2 * FIRST_SIDE_SLOTS * sizeof(uint64_t);
    }
    uint64_t k = key ^ kept_term(&x->s, KEPT_SALT);
    int ins = tt_insert(&x->kept, k ? k : 1, check ^ kept_term(&x->s, KEPT_SALT ^ CHECK_SALT),
                        SIZE_MAX, &x->kept_used);
    if (ins < 0) return 0;
    if (hit && ins) FIRE(&x->o, FIRED_KEPT_HITS);
    return 1;
}

/* The dead-end test of the position entered (1: lost, drop it).  `step`:
 * the one step from a position that passed the test, or NULL; where
 * reach_kept knows rule 8's answer after it, only rule 15 is tested (rule 20
 * is not: it needs rule 8's rounds), and under SIDE_CHECK_SKIPS rule 8's
 * test is made too, and decides. */
static int dead_end(Search *x, const SMove *step)
{
    int slot = step ? reach_kept(&x->s, &x->r, &x->o, step) : 0;
    if (!slot) return hopeless(&x->s, &x->r, &x->o, 0);
    FIRE(&x->o, slot);
    if (hopeless(&x->s, &x->r, &x->o, 1)) return 1;
    if ((x->o.sides & SIDE_CHECK_SKIPS) && reach_drops(&x->s, &x->r, &x->o)) {
        FIRE(&x->o, FIRED_REACH_WRONG);
        return 1;
    }
    return 0;
}

/* Enter the position after a step: safe moves, win test, table, children.
 * Returns 1 won, 0 continue (frame pushed or position already seen),
 * -1 a limit was hit. */
static int enter(Search *x, size_t path_base)
{
    for (;;) {
        size_t mark = x->plen;
        if (!play_safe_moves(x)) { x->limit = LIMIT_MEMORY; return -1; }
        if ((x->o.prune & PRUNE_TWINS) && x->r.partial && !normalize_twins(x)) {
            x->limit = LIMIT_MEMORY;
            return -1;
        }
        if (x->plen == mark) break;
    }
    if (is_won(&x->s)) return 1;
    int t = finish_if_trivial(x);
    if (t > 0) return 1;
    if (t < 0) { x->limit = LIMIT_MEMORY; return -1; }
    /* Rule 10: a talon card just put on a column, still its top, waits
     * for a move that uses it. */
    int pending = x->pending, pc = pending >= 0 ? x->s.at_col[pending] : -1;
    x->pending = -1;
    if (pc < 0 || x->s.col[pc][x->s.len[pc] - 1] != pending || !pending_applies(&x->s, &x->r, pending))
        pending = -1;
    else
        FIRE(&x->o, 10);
    int after_recall = x->after_recall;
    x->after_recall = 0;
    int successor = x->successor;
    x->successor = -1;
    if (successor >= 0 && card_rank(successor) <= x->s.found[card_suit(successor)]) successor = -1;
    if (successor >= 0) FIRE(&x->o, 14);
    int ins = 1;
    uint64_t key = 0, check = 0; /* the position's entry (key 0: not stored) */
    if (pending < 0 && successor < 0) {
        key = table_key(x, &check);
        ins = store(x, key, check, 0, 0);
        if (ins >= 0 && !note_kept(x, key, check, !ins)) ins = -1;
    }
    if (ins < 0) { x->limit = LIMIT_MEMORY; return -1; }
    /* Rule 9: a position whose waste size is not a whole number of draws
     * reaches every talon card that the same one with a fresh stock reaches
     * (its draws, then a recycle), so that one needs no search of its own:
     * it is marked seen (its lookup is started before the dead-end test). */
    uint64_t seen[MAXC / 2 + 1], seen_check[MAXC / 2 + 1];
    int n_seen = 0;
    if (ins && x->r.recycles_allowed < 0 && x->r.draw > 1 && x->s.ptr % x->r.draw
        && x->s.ptr != x->s.tlen) {
        /* Rule 9 too: the same position with a larger waste of the same
         * size modulo the draw is reached from this one by drawing on, so it
         * needs no search of its own either.  Neither it nor the fresh stock
         * is ever reached from here (the waste size changes only when a talon
         * card is played), so this search does not depend on them. */
        int ptr = x->s.ptr, last = (x->o.prune & PRUNE_LARGER_WASTES) ? x->s.tlen - 1 : 0;
        x->s.ptr = 0;
        seen[n_seen] = table_key(x, &seen_check[n_seen]);
        n_seen++;
        for (int q = ptr + x->r.draw; q <= last; q += x->r.draw) {
            x->s.ptr = q;
            seen[n_seen] = table_key(x, &seen_check[n_seen]);
            n_seen++;
            FIRE(&x->o, 9);
        }
        x->s.ptr = ptr;
        for (int k = 0; k < n_seen; k++) __builtin_prefetch(&x->tt.keys[2 * tt_home(seen[k], x->tt.cap)]);
    }
    /* No dead-end test where rule 14 leaves one move, tried at once, nor
     * after a recall onto a card: the card put back on a column only adds to
     * what the relaxation allows, and the position before it passed the
     * test.  (Skipping a test only keeps a position.)  After one step from
     * a position that passed, with no safe move after it, reach_kept may
     * know rule 8's part (see dead_end). */
    int passed = 0, tested = ins && successor < 0 && !after_recall
                                 && (x->o.prune & PRUNE_DEAD_ENDS);
    if (tested) {
        int parent_passed = x->flen && x->frames[x->flen - 1].passed;
        passed = !dead_end(x, parent_passed && x->plen == path_base + 1
                                  ? &x->path[path_base] : NULL);
    } else if (ins && after_recall) {
        passed = x->flen && x->frames[x->flen - 1].passed;
    }
    if (ins == 0 || (tested && !passed)) {
        path_unwind(x, path_base);
        return 0;
    }
    for (int k = 0; k < n_seen; k++)
        if (store(x, seen[k], seen_check[k], key, check) < 0
            || !note_kept(x, seen[k], seen_check[k], 0)) {
            x->limit = LIMIT_MEMORY;
            return -1;
        }
    if (!reserve(x, (void **)&x->moves, &x->mcap, x->mlen + MAX_GEN, sizeof(SMove))
        || !reserve(x, (void **)&x->frames, &x->fcap, x->flen + 1, sizeof(Frame))) {
        x->limit = LIMIT_MEMORY;
        return -1;
    }
    SMove *ms = x->moves + x->mlen;
    int n = successor >= 0 ? successor_moves(&x->s, &x->r, &x->o, successor, ms)
          : pending >= 0 ? pending_moves(&x->s, &x->r, &x->o, pending, pc, ms)
          : gen_moves(&x->s, &x->r, &x->o, ms);
    if (x->tt.cap > PREFETCH_SLOTS) {
        /* A large table misses the caches on nearly every lookup: start
         * the lookups of all the children now, so that they overlap. */
        state_key(&x->s, &x->r); /* (step_key reads its column terms) */
        for (int i = 0; i < n; i++) {
            uint64_t child = ms[i].pre_count ? 0 : step_key(&x->s, &x->r, &ms[i]);
            if (child) __builtin_prefetch(&x->tt.keys[2 * tt_home(child, x->tt.cap)]);
        }
    }
    Frame *f = &x->frames[x->flen++];
    f->mstart = x->mlen;
    f->mcount = (size_t)n;
    f->mnext = 0;
    f->path_base = path_base;
    f->key = key;
    f->check = check;
    f->passed = passed;
    x->mlen += (size_t)n;
    return 0;
}

/* Run the search: 1 solved (x->path holds the line), 0 unsolvable,
 * -1 unknown (x->limit says why). */
static int run_search(Search *x)
{
    if (!x->started) {
        x->started = 1;
        x->pending = -1;
        x->after_recall = 0;
        x->successor = -1;
        x->nodes = 1;
        int e = enter(x, 0);
        if (e) return e;
    }
    while (x->flen) {
        if (x->pause_at && x->nodes >= x->pause_at) return -2;
        Frame *f = &x->frames[x->flen - 1];
        if (f->mnext == f->mcount) {
            path_unwind(x, f->path_base);
            x->mlen = f->mstart;
            x->flen--;
            continue;
        }
        SMove m = x->moves[f->mstart + f->mnext++];
        size_t base = x->plen;
        if (m.pre_count) {
            SMove pre = {0};
            pre.kind = K_T2T; pre.src = m.pre_src; pre.dst = m.pre_dst; pre.count = m.pre_count;
            m.pre_count = 0;
            if (!play(x, pre)) { x->limit = LIMIT_MEMORY; return -1; }
        }
        x->after_recall = m.kind == K_F2T && x->s.len[m.dst];
        if (!play(x, m)) { x->limit = LIMIT_MEMORY; return -1; }
        x->pending = (x->o.prune & PRUNE_COVER_TALON) && talon_at_will(&x->r, &x->o)
                     && m.kind == K_TAL && m.dst != DST_FOUND ? m.card : -1;
        x->successor = (x->o.prune & PRUNE_SUCCESSOR) && talon_at_will(&x->r, &x->o) && m.kind == K_TAL
                       && m.dst == DST_FOUND && card_rank(m.card) < 13 ? m.card + 1 : -1;
        /* The root search stops before a node would pass its limit (a hard
         * cap); a probe, on its budget, counts the node one over it. */
        if (!nodes_left(x)) {
            x->limit = LIMIT_NODES;
            return -1;
        }
        x->nodes++;
        if (x->node_limit && x->nodes + x->probe_nodes > x->node_limit) {
            x->limit = LIMIT_NODES;
            return -1;
        }
        if ((x->nodes & (CHECK_EVERY - 1)) == 0) {
            if (stop_requested) {
                x->limit = LIMIT_STOPPED;
                return -1;
            }
            if (x->deadline >= 0 && x->clock() - x->t0 > x->deadline) {
                x->limit = LIMIT_TIME;
                return -1;
            }
        }
        int e = enter(x, base);
        if (e) return e;
    }
    return 0;
}

static void free_search(Search *x)
{
    keys_free(x->tt.keys, x->tt.keys ? 2 * x->tt.cap : 0);
    keys_free(x->kept.keys, x->kept.keys ? 2 * x->kept.cap : 0);
    free(x->moves);
    free(x->path);
    free(x->frames);
}

#endif /* BONANZA_SEARCH_RUN_H */
