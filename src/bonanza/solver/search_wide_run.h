/*
 * search_wide_run.h: generic.search in C (see search_wide.h); its Python
 * entry points are in search_wide_python.h.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_WIDE_RUN_H
#define BONANZA_SEARCH_WIDE_RUN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search_path.h"
#include "search_python.h"
#include "search_wide.h"
#include "search_wide_key.h"

#define W_FIRST_CHUNK 4096 /* the portfolio's first chunk, in nodes of each search */
#define W_PORTFOLIO_MOST 3 /* the portfolio's searches at most (w_portfolio) */

/* Every W_CHECKPOINT_EVERY-th position on the path (depth 0, 16, 32, ...) is
 * kept whole, encoded in the arena; a position between is made again, coming
 * back to it, by playing the line's moves from the checkpoint below it
 * (w_top).  The path is most of a hard deal's memory (nearly every new
 * position is deeper than the last): an encoded position is about 120 bytes,
 * against the 16 of its frame and 6 of its move on the line.  Every 16th
 * rather than every 8th (session 47): deal 805 (draw 1) searched 40.3 M nodes
 * before its memory ran out against 25.7 M, at the same CPU a node (two
 * pairs of runs, +0.9 % on average); every 32nd, 45.3 M, but 2.4 % slower. */
#define W_CHECKPOINT_EVERY 16

/* A position on the path (encoded at state_at in the arena if a checkpoint:
 * see w_encode) and how far through its moves the search is.  Only the top
 * position's moves are held (Wide.moves); coming back to a position, the
 * search makes them again, in the same order (docs/solver.md). */
typedef struct {
    size_t state_at;
    uint32_t mcount, mnext;
} WFrame;

/* The keys seen: the core's table (search_table.h), which doubles while the
 * budget holds it and then grows once to what the budget holds; the first
 * table has W_FIRST_SLOTS slots. */
#define W_FIRST_SLOTS ((size_t)1 << 12)

/* 1 if added, 0 if seen, -1 out of memory (within `budget` bytes, `used`
 * counting what is held). */
static int w_table_add(Table *t, uint64_t key, uint64_t check, size_t *used, size_t budget)
{
    if (!t->keys) {
        size_t bytes = 2 * W_FIRST_SLOTS * sizeof(uint64_t);
        if (*used + bytes > budget || !tt_init(t, W_FIRST_SLOTS)) return -1;
        *used += bytes;
    }
    return tt_insert(t, key, check, budget, used);
}

/* Give back a table's keys (its count stays, for the positions stored); the
 * bytes it held. */
static size_t w_table_free(Table *t)
{
    size_t bytes = t->keys ? 2 * t->cap * sizeof(uint64_t) : 0;
    keys_free(t->keys, 2 * t->cap);
    t->keys = NULL;
    t->cap = 0;
    return bytes;
}

/* The wide search's pruning rules (Wide.prune; solve_wide's prune): rule 8
 * for two decks, with it rule 18 (search_wide_dead_ends.h), and rule 10
 * (w_pending). */
#define W_DEAD_ENDS 1
#define W_STOCK_CYCLE 2
#define W_COVER_TALON 4

typedef struct {
    WRules r;
    Table seen;
    WFrame *frames;
    size_t fcap, flen;
    uint8_t *arena;                  /* the path's positions, encoded */
    size_t acap, alen;
    WState top;                      /* the position of frame top_of, decoded */
    size_t top_of;
    WMove *moves, *line;             /* the moves of frame moves_of; the line played */
    size_t mcap, moves_of, lcap, llen;
    uint64_t nodes, node_limit;      /* node_limit 0: none */
    uint64_t others;                 /* the other searches' nodes, under the portfolio */
    uint64_t pause_at;               /* pause when nodes reach it (0: never) */
    double (*clock)(void);           /* the time limit's: now_seconds or thread_cpu_seconds */
    double t0, deadline;             /* on that clock; deadline < 0: none */
    size_t *used, memory_limit;      /* bytes held (shared with the other searches, if any) */
    int limit;                       /* LIMIT_* */
    int prune;                       /* W_DEAD_ENDS (with W_STOCK_CYCLE), W_COVER_TALON */
    uint64_t dropped;                /* the hopeless positions it dropped */
    uint64_t cycle_dropped;          /* those that only rule 18 found hopeless */
    uint64_t covered;                /* the pending positions (rule 10) it expanded */
} Wide;

/* Room for `need` items of `size` bytes in *array (doubling), within the
 * budget (x->used counts what is held); 0 if not. */
static int w_reserve(Wide *x, void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 1;
    size_t grown = *cap ? *cap : 64;
    while (grown < need) grown *= 2;
    if (*x->used + (grown - *cap) * size > x->memory_limit) return 0;
    void *bigger = realloc(*array, grown * size);
    if (!bigger) return 0;
    *x->used += (grown - *cap) * size;
    *array = bigger;
    *cap = grown;
    return 1;
}

/* Rule 10 for two decks (W_COVER_TALON, under merged talon macros: draw 1,
 * unlimited passes), the core's rule 10: a talon card put on a column is
 * covered by the very next move.  Take a winning line that puts talon card t
 * on column c and later uses it: puts a card on it, moves it, or moves a run
 * from under it.  The moves in between touch neither t nor c (t tops c), and
 * under merged macros every talon card is playable at any time whatever the
 * others do, so they are legal with t still in the talon: play them first,
 * then t, then its use.  If the use moves t, play t straight there instead;
 * if it moves a run from under t, move that run alone and put t on it after.
 * Each rewrite keeps the line's length or shortens it, and puts t's
 * placement just before a move onto it.  (The rewritten line need not be
 * one the search plays: a safe card may go home at once on the way.  By
 * induction on the shortest winning line it is enough that its first move
 * is tried from the position before t's placement, which is not pending,
 * and leaves a shorter winning line.)  So the position after a talon card
 * goes onto a column need only try the moves onto that card; it is not
 * stored (its moves are not all tried), as the core's rule 10 does not store
 * it, and its children are.  Returns the column a move puts a talon card on,
 * whose child is so restricted (w_frame_moves), or -1. */
static int w_pending(const Wide *x, WMove into)
{
    return (x->prune & W_COVER_TALON) && x->r.macro == W_MERGED && into.src == W_AT_TALON
           && into.dst < W_COLS ? into.dst : -1;
}

/* The moves of position s (into x->moves), of which a pending position
 * (w_pending) keeps only those onto its column, unless a safe card goes home
 * at once. */
static int w_frame_moves(Wide *x, const WState *s, int pending)
{
    int n = w_ordered_moves(s, &x->r, x->moves), k = 0;
    if (pending < 0 || (n == 1 && x->moves[0].bucket == W_SAFE_HOME)) return n;
    for (int i = 0; i < n; i++)
        if (x->moves[i].dst == pending) x->moves[k++] = x->moves[i];
    return k;
}

/* Push a frame for s with its moves (w_frame_moves); 0 out of memory. */
static int w_push(Wide *x, const WState *s, int pending)
{
    if (!w_reserve(x, (void **)&x->frames, &x->fcap, x->flen + 1, sizeof(WFrame))
        || !w_reserve(x, (void **)&x->moves, &x->mcap, W_MOVES_MAX, sizeof(WMove))
        || !w_reserve(x, (void **)&x->arena, &x->acap, x->alen + W_CODE_MAX, 1))
        return 0;
    WFrame *f = &x->frames[x->flen];
    f->state_at = x->alen;
    if (x->flen % W_CHECKPOINT_EVERY == 0) x->alen += (size_t)w_encode(s, &x->r, x->arena + x->alen);
    f->mcount = (uint32_t)w_frame_moves(x, s, pending);
    f->mnext = 0;
    x->top = *s;
    x->top_of = x->moves_of = x->flen++;
    return 1;
}

/* Make the top frame's position again (x->top): decode the checkpoint at or
 * below it and play the line's moves from there (x->line[k] is the move from
 * frame k to frame k + 1; w_apply is deterministic, so this is the position
 * that was pushed). */
static void w_top(Wide *x)
{
    size_t top = x->flen - 1, at = top - top % W_CHECKPOINT_EVERY;
    w_decode(x->arena + x->frames[at].state_at, &x->r, &x->top);
    w_hash_piles(&x->top, &x->r); /* (so that the moves keep the hashes, and its children copy them) */
    for (; at < top; at++) w_apply(&x->top, &x->r, x->line[at]);
    x->top_of = top;
}

/* generic._limit_hit (memory is met where it is allocated). */
static int w_limit_hit(const Wide *x)
{
    if (x->node_limit && x->nodes + x->others >= x->node_limit)
        return LIMIT_NODES;
    if (x->deadline >= 0 && x->nodes % W_CLOCK_EVERY == 0 && x->clock() - x->t0 >= x->deadline)
        return LIMIT_TIME;
    if (stop_requested) return LIMIT_STOPPED;
    return LIMIT_NONE;
}

/* Is the dead-end test made after move m from s to child?  Only where m
 * turned a card face up (the relaxation gains a card), or moved the talon (a
 * play from it, a draw or a recycle: what rule 18 takes as playable
 * changes), and at the start: skipping the test only keeps positions.
 * (Testing after the talon's moves too decided 11 of the 100 draw-3 deals
 * that were unknown at 10 s, within 3 M nodes, against 2 with the turn-ups
 * alone: docs/solver.md.) */
static int w_test_due(const WState *s, const WState *child, const WRules *r, WMove m)
{
    if (m.src == W_AT_TALON || m.src == W_AT_WASTE || m.src == W_AT_STOCK || m.dst == W_AT_STOCK)
        return 1;
    for (int c = 0; c < r->ncols; c++)
        if (child->down[c] < s->down[c]) return 1;
    return 0;
}

/* Is s hopeless (search_wide_dead_ends.h)?  Counts it dropped, and (testing
 * again without rule 18, for the firing counts) whether only rule 18 saw it. */
static int w_dead_end(Wide *x, const WState *s)
{
    int cycle = x->prune & W_STOCK_CYCLE;
    if (!w_hopeless(s, &x->r, cycle)) return 0;
    x->dropped++;
    if (cycle && !w_hopeless(s, &x->r, 0)) x->cycle_dropped++;
    return 1;
}

/* generic.search from `start`: 1 solved (x->line), 0 unsolvable, -1 unknown
 * (x->limit), -2 paused (at x->pause_at nodes; w_run goes on). */
static int w_run(Wide *x);

static int w_search(Wide *x, const WState *given)
{
    uint64_t key, check;
    WState copy = *given, *start = &copy; /* (w_key keeps its hashes) */
    if (w_won(start, &x->r)) {
        x->seen.count = 1;
        return 1;
    }
    w_key(start, &x->r, &key, &check);
    if (w_table_add(&x->seen, key, check, x->used, x->memory_limit) < 0) {
        x->limit = LIMIT_MEMORY;
        return -1;
    }
    if ((x->prune & W_DEAD_ENDS) && w_dead_end(x, start)) return 0;
    if (!w_push(x, start, -1)) {
        x->limit = LIMIT_MEMORY;
        return -1;
    }
    return w_run(x);
}

static int w_run(Wide *x)
{
    uint64_t key, check;
    while (x->flen) {
        WFrame *f = &x->frames[x->flen - 1];
        if (f->mnext == f->mcount) {
            x->alen = f->state_at;
            x->flen--;
            if (x->llen) x->llen--;
            continue;
        }
        if (x->pause_at && x->nodes >= x->pause_at) return -2;
        if ((x->limit = w_limit_hit(x)) != LIMIT_NONE) return -1;
        if (x->top_of != x->flen - 1) w_top(x);
        if (x->moves_of != x->flen - 1) {
            w_frame_moves(x, &x->top, x->flen > 1 ? w_pending(x, x->line[x->flen - 2]) : -1);
            x->moves_of = x->flen - 1;
        }
        WMove m = x->moves[f->mnext++];
        WState child = x->top;
        w_apply(&child, &x->r, m);
        x->nodes++;
        if (!w_reserve(x, (void **)&x->line, &x->lcap, x->llen + 1, sizeof(WMove))) {
            x->limit = LIMIT_MEMORY;
            return -1;
        }
        if (w_won(&child, &x->r)) {
            x->line[x->llen++] = m;
            return 1;
        }
        /* (A pending position is not stored: its moves are not all tried.) */
        int pending = w_pending(x, m);
        if (pending < 0) {
            w_key(&child, &x->r, &key, &check);
            int added = w_table_add(&x->seen, key, check, x->used, x->memory_limit);
            if (added < 0) { x->limit = LIMIT_MEMORY; return -1; }
            if (!added) continue;
        }
        if ((x->prune & W_DEAD_ENDS) && w_test_due(&x->top, &child, &x->r, m)
            && w_dead_end(x, &child))
            continue;
        if (!w_push(x, &child, pending)) { x->limit = LIMIT_MEMORY; return -1; }
        x->covered += pending >= 0;
        x->line[x->llen++] = m;
    }
    return 0;
}

/* The position and rules under talon macros: the talon as T (see "Talon
 * macros"), the waste and then the stock from its next card on; merged
 * with draw 1 and unlimited passes, else stepped. */
static void w_to_macros(WState *s, WRules *r)
{
    r->macro = r->draw == 1 && r->recycles_allowed < 0 ? W_MERGED : W_STEPPED;
    s->ptr = s->nwaste;
    for (int i = s->nstock - 1; i >= 0; i--) s->waste[s->nwaste++] = s->stock[i];
    s->nstock = 0;
    s->hashed &= ~W_TALON_HASHED;
    if (r->macro == W_MERGED) s->recycles = 0;
}

/* Give back a search's table and path, keeping its line. */
static void w_drop_path(Wide *x)
{
    if (!x) return;
    w_table_free(&x->seen);
    free(x->frames);
    free(x->arena);
    free(x->moves);
    x->frames = NULL;
    x->arena = NULL;
    x->moves = NULL;
}

/* Give back what search x holds (its table, path and line), from *x->used. */
static void w_release(Wide *x)
{
    *x->used -= w_table_free(&x->seen) + x->fcap * sizeof(WFrame) + x->acap
                + (x->mcap + x->lcap) * sizeof(WMove);
    w_drop_path(x);
    free(x->line);
    x->line = NULL;
    x->fcap = x->acap = x->mcap = x->lcap = 0;
    x->flen = x->alen = x->llen = 0;
}

static void w_free(Wide *x)
{
    if (!x) return;
    w_drop_path(x);
    free(x->line);
    free(x);
}

/* The searches `members` (w_members: one, or with talon macros asked for
 * the search as it is, the Python one's, and under talon macros) side by
 * side, in chunks of doubling size, in the order given: the first verdict
 * decides (all are exact).  Each finds some deals at once that the other
 * does not (Double Klondike, 100 deals of seed 2026 at 300,000 nodes: 90 and
 * 88 won, 96 by either), and so do the macro searches with rule 10 and
 * without it (w_members).  A lone search runs to its end.  A
 * search out of memory ends, gives its memory back, and the others go on
 * (the plain search's path is long: nearly every position it stores is
 * deeper than the last, so it is the one that runs out).  Returns as
 * w_search; *winner is the one whose verdict it is. */
static int w_portfolio(Wide *const *members, const WState *const *starts, int n, Wide **winner)
{
    int alive[W_PORTFOLIO_MOST], begun[W_PORTFOLIO_MOST] = {0}, left = n;
    for (int k = 0; k < n; k++) alive[k] = 1;
    uint64_t chunk = W_FIRST_CHUNK;
    for (;;) {
        for (int k = 0; k < n; k++) {
            if (!alive[k]) continue;
            Wide *y = members[k];
            y->others = 0;
            for (int j = 0; j < n; j++)
                if (j != k) y->others += members[j]->nodes;
            y->pause_at = left > 1 ? y->nodes + chunk : 0;
            int result = begun[k] ? w_run(y) : w_search(y, starts[k]);
            begun[k] = 1;
            *winner = y;
            if (result >= 0) return result;
            if (result == -1 && (y->limit != LIMIT_MEMORY || left == 1)) return -1;
            if (result == -1) { /* out of memory: the others go on */
                alive[k] = 0;
                left--;
                w_release(y);
            }
        }
        chunk *= 2;
    }
}

#endif /* BONANZA_SEARCH_WIDE_RUN_H */
