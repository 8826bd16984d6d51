/*
 * search_shortcut.h: short winning lines, through the line's own positions
 * (the engine's atomic moves they are made of: search_atomic.h).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 *
 * Short lines.  A winning line is the search's path, so a depth-first search
 * that wandered before it found the win returns the wandering too: it never
 * repeats a position (the table sees to that), but where every card may go
 * into an empty column it can move runs from column to column for hundreds
 * of thousands of moves (Easthaven deal 34: 849,907).  shorten_line cuts a
 * line found (in atomic moves) down to a shortest one through the line's
 * own positions:
 *
 *   - Positions are compared in place (columns not sorted, since later moves
 *     name columns) by place_key, and each stands for its last visit on the
 *     line (its "last index"): from there the line goes on to the win.
 *   - From the last index i of a position, each legal atomic move
 *     (legal_atomic, the engine's list, the line's own move among them)
 *     reaches some position; if the line visits it last at j > i, the move
 *     is an edge i -> j.  Edges only go forward, so one pass in line order
 *     finds the fewest moves from the start to every last index, the end
 *     (the win) included: plan_shortest.
 *   - That line is a shortest one over the line's positions in one-move
 *     steps, so a second pass cannot shorten it: its positions are among
 *     the first line's, in the same order, and an edge between two of them
 *     was an edge then.  (So does the greedy plan below: from each position
 *     it goes to the farthest the first line's positions allow.)  Its steps
 *     go to distinct last indices, so it never visits a position twice.
 *   - Keys can collide, so the short line is built by a replay that checks
 *     each step card by card against the line's own position, replayed
 *     beside it (follow_plan); a step that fails is replaced by the line's
 *     own moves.  Every move of the result is legal, and it ends in the
 *     line's won position.
 *   - The pass looks at every position once, at some 40 legal moves each
 *     in Easthaven; it stops at the time limit, and then the greedy plan
 *     (plan_greedy: from each position it comes to, the move that reaches
 *     farthest) is taken, which looks only at the positions it goes
 *     through.  It is quick, but it may jump past the way to a shorter line.
 *
 * Recycles are part of a position where passes are limited (they limit
 * what follows) and left out where they are not (they change nothing).
 * The memory (the last indices' table, 32 to 64 bytes a position, and its
 * filter, 1 or 2; the plan and the new line, 14) is allocated after the
 * search's table is freed, and only if it fits the search's memory
 * budget; if it does not, the line is kept as found (on Ctrl-C the solve
 * raises KeyboardInterrupt, and no line is returned).
 * Figures: docs/solver.md, "Winning lines".
 */
#ifndef BONANZA_SEARCH_SHORTCUT_H
#define BONANZA_SEARCH_SHORTCUT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search_atomic.h"
#include "search_cards.h"
#include "search_moves.h"
#include "search_path.h"
#include "search_state.h"
#include "search_zobrist.h"

/* ---- short lines ------------------------------------------------------------ */

/* A position's key in place: a sum of terms, one per column, each
 * including its place (unlike state_key's), and one for the talon (the
 * recycles count where `recycles` says).  Foundations are implied. */
static inline uint64_t col_term(uint64_t colh, int down, int c)
{
    return mix64(colh ^ Z_DOWN[down] ^ Z_PLACE[c]);
}

static inline uint64_t talon_term(uint64_t talh, int ptr, int rec, int recycles)
{
    uint64_t k = mix64(talh ^ Z_PTR[ptr] ^ 0x5DEECE66DULL);
    if (recycles) k += mix64((uint64_t)rec * 0x9E3779B97F4A7C15ULL + 0x52454359ULL);
    return k;
}

/* A position's terms and their sum (the key, but for place_key's last step). */
typedef struct {
    uint64_t col[NCOLS], talon, sum;
} PlaceTerms;

static void place_terms(const State *s, int recycles, PlaceTerms *t)
{
    t->talon = t->sum = talon_term(s->talh, s->ptr, s->rec, recycles);
    for (int c = 0; c < s->ncols; c++) t->sum += t->col[c] = col_term(s->colh[c], s->down[c], c);
}

static inline uint64_t key_of(uint64_t sum) { return sum ? sum : 1; }

static uint64_t place_key(const State *s, int recycles)
{
    PlaceTerms t;
    place_terms(s, recycles, &t);
    return key_of(t.sum);
}

/* The place_key of the position after atomic move `a` (legal, not a deal),
 * from the terms `t` of `s`, without playing it: only the terms of the piles
 * it changes are made again. */
static uint64_t child_key(const State *s, const PlaceTerms *t, Atomic a, int recycles)
{
    uint64_t k = t->sum - t->talon;
    if (a.src == P_STOCK) /* a draw */
        return key_of(k + talon_term(s->talh, s->ptr + a.count, s->rec, recycles));
    if (a.dst == P_STOCK) /* a recycle */
        return key_of(k + talon_term(s->talh, 0, s->rec + 1, recycles));
    const uint8_t *cards;
    int count = a.count;
    uint8_t one;
    if (a.src == P_WASTE) {
        one = s->talon[s->ptr - 1];
        cards = &one;
        k += talon_term(s->talh ^ Z_TAL[one], s->ptr - 1, s->rec, recycles);
    } else {
        k += t->talon;
        if (a.src >= P_FOUND && a.src < P_FOUND + 4) {
            one = (uint8_t)((a.src - P_FOUND) * 13 + s->found[a.src - P_FOUND] - 1);
            cards = &one;
        } else {
            int c = pile_col(a.src), i0 = s->len[c] - count, down = s->down[c];
            uint64_t h = s->colh[c];
            cards = s->col[c] + i0;
            for (int i = 0; i < count; i++) h ^= Z_COL[cards[i]][i0 + i];
            if (i0 > 0 && i0 == down) down--; /* the engine turns the next card up */
            k += col_term(h, down, c) - t->col[c];
        }
    }
    if (a.dst >= P_FOUND && a.dst < P_FOUND + 4) return key_of(k);
    int d = pile_col(a.dst), j0 = s->len[d];
    uint64_t h = s->colh[d];
    for (int i = 0; i < count; i++) h ^= Z_COL[cards[i]][j0 + i];
    return key_of(k + col_term(h, s->down[d], d) - t->col[d]);
}

/* Are a and b the same position, card for card (what place_key keys)? */
static int same_place(const State *a, const State *b, int recycles)
{
    if (a->ncols != b->ncols || a->tlen != b->tlen || a->ptr != b->ptr
        || memcmp(a->found, b->found, sizeof a->found) != 0
        || memcmp(a->talon, b->talon, (size_t)a->tlen) != 0 || (recycles && a->rec != b->rec))
        return 0;
    for (int c = 0; c < a->ncols; c++)
        if (a->len[c] != b->len[c] || a->down[c] != b->down[c]
            || memcmp(a->col[c], b->col[c], (size_t)a->len[c]) != 0)
            return 0;
    return 1;
}

/* Play line moves `from` .. `to` - 1 on `s`. */
static void replay_atoms(State *s, const Atomic *line, size_t from, size_t to)
{
    SMove m;
    for (size_t k = from; k < to; k++) atomic_apply(s, line[k], &m);
}

#define NOT_ON_LINE UINT32_MAX

/* What py_solve does with a line found: nothing, the shortest plan (the
 * greedy one past the time limit), or the greedy one alone (for tests). */
enum { SHORTEN_NONE, SHORTEN_SHORTEST, SHORTEN_GREEDY };

/* A shortening's work.  The last index of each position on the line is kept
 * by open addressing with linear probing, slot j being words[2j] (the key,
 * 0 for none) and words[2j + 1] (its last index), so that a lookup reads
 * one cache line; the table is allocated as the search's is (keys_alloc:
 * huge pages if large).  In front of it, a filter of a bit per key (eight
 * bits per position) spares most lookups of positions not on the line. */
typedef struct {
    const State *start;
    const Rules *r;
    const Atomic *moves;
    size_t n;      /* the line's moves (positions 0 .. n) */
    size_t first;  /* the start's last index */
    int recycles;  /* recycles are part of a position */
    uint64_t *words;
    size_t slots;
    uint64_t *bits;
    int shift;     /* a key's filter bit is its top bits after a multiply */
    uint32_t *next; /* the plan: from last index i the short line goes to next[i], */
    Atomic *via;    /* by move via[next[i]] */
    uint32_t *pred; /* (the shortest plan's own, and its distances in next) */
    Atomic legal[MAX_ATOMIC];
    uint64_t keys[MAX_ATOMIC];
    uint32_t at[MAX_ATOMIC];
} Shortcut;

static inline size_t filter_bit(const Shortcut *x, uint64_t key)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> x->shift);
}

static void visit(Shortcut *x, uint64_t key, uint32_t at)
{
    size_t mask = x->slots - 1, j = (size_t)key & mask;
    while (x->words[2 * j] && x->words[2 * j] != key) j = (j + 1) & mask;
    x->words[2 * j] = key;
    x->words[2 * j + 1] = at; /* (visits come in line order: the last one stays) */
    size_t b = filter_bit(x, key);
    x->bits[b / 64] |= 1ULL << (b % 64);
}

static uint32_t last_visit(const Shortcut *x, uint64_t key)
{
    size_t b = filter_bit(x, key);
    if (!(x->bits[b / 64] >> (b % 64) & 1)) return NOT_ON_LINE;
    size_t mask = x->slots - 1, j = (size_t)key & mask;
    while (x->words[2 * j]) {
        if (x->words[2 * j] == key) return (uint32_t)x->words[2 * j + 1];
        j = (j + 1) & mask;
    }
    return NOT_ON_LINE;
}

/* 1. Each position's last index (the keys of the next few positions made
 * first and their slots' lookups started, so that the misses overlap). */
static void find_last_visits(Shortcut *x)
{
    State s = *x->start;
    SMove m;
    uint64_t keys[16];
    for (size_t i = 0; i <= x->n + 15; i++) {
        if (i <= x->n) {
            uint64_t key = keys[i % 16] = place_key(&s, x->recycles);
            __builtin_prefetch(&x->words[2 * (key & (x->slots - 1))], 1);
            if (i < x->n) atomic_apply(&s, x->moves[i], &m);
        }
        if (i >= 15) visit(x, keys[(i - 15) % 16], (uint32_t)(i - 15));
    }
    x->first = last_visit(x, place_key(x->start, x->recycles));
}

/* The legal moves at `s` (x->legal) and the last index each reaches
 * (x->at; NOT_ON_LINE: not on the line); returns their count. */
static int reaches(Shortcut *x, State *s)
{
    PlaceTerms terms;
    SMove m;
    place_terms(s, x->recycles, &terms);
    int count = legal_atomic(s, x->r, x->legal);
    /* Every child's key first, with its lookup started, so that the lookups
     * (which miss the caches) overlap. */
    for (int k = 0; k < count; k++) {
        Atomic a = x->legal[k];
        if (a.src == P_STOCK && a.dst != P_WASTE) { /* a deal */
            atomic_apply(s, a, &m);
            x->keys[k] = place_key(s, x->recycles);
            atomic_undo(s, &m);
        } else {
            x->keys[k] = child_key(s, &terms, a, x->recycles);
        }
#ifdef SHORTCUT_CHECK_KEYS
        atomic_apply(s, a, &m);
        if (x->keys[k] != place_key(s, x->recycles)) abort();
        atomic_undo(s, &m);
#endif
        size_t b = filter_bit(x, x->keys[k]);
        __builtin_prefetch(&x->bits[b / 64]);
    }
    for (int k = 0; k < count; k++) {
        size_t b = filter_bit(x, x->keys[k]);
        if (x->bits[b / 64] >> (b % 64) & 1)
            __builtin_prefetch(&x->words[2 * (x->keys[k] & (x->slots - 1))]);
    }
    for (int k = 0; k < count; k++) x->at[k] = last_visit(x, x->keys[k]);
    return count;
}

/* How often (in positions) the shortening looks at the clock and the stop flag. */
#define SHORTCUT_CHECK_EVERY 1024

static int shortcut_stopped(double deadline, double (*clock)(void))
{
    return stop_requested || (deadline >= 0 && clock() > deadline);
}

/* 2. The shortest plan: the fewest moves to each last index, in line order
 * (edges go forward, so each is final when its turn comes; only last
 * indices are reached, since edges lead to them).  0 if stopped first
 * (Ctrl-C, or `deadline` passed on `clock`). */
static int plan_shortest(Shortcut *x, double deadline, double (*clock)(void))
{
    uint32_t *dist = x->next;
    for (size_t i = 0; i <= x->n; i++) dist[i] = NOT_ON_LINE;
    dist[x->first] = 0;
    State s = *x->start;
    SMove m;
    for (size_t i = 0; i < x->n; i++) {
        if (i % SHORTCUT_CHECK_EVERY == 0 && shortcut_stopped(deadline, clock)) return 0;
        if (dist[i] != NOT_ON_LINE) {
            int count = reaches(x, &s);
            for (int k = 0; k < count; k++) {
                uint32_t j = x->at[k];
                if (j != NOT_ON_LINE && j > i && dist[i] + 1 < dist[j]) {
                    dist[j] = dist[i] + 1;
                    x->pred[j] = (uint32_t)i;
                    x->via[j] = x->legal[k];
                }
            }
        }
        atomic_apply(&s, x->moves[i], &m);
    }
    /* dist[n] is finite, since the line's own moves are edges; should a
     * change ever make the line's moves and legal_atomic disagree, pred
     * would hold unset entries, so that case gives up here (0: the greedy
     * plan, which checks each step, or the line as found). The plan is pred
     * reversed. */
    if (dist[x->n] == NOT_ON_LINE) return 0;
    for (size_t j = x->n; j != x->first; j = x->pred[j]) x->next[x->pred[j]] = (uint32_t)j;
    return 1;
}

/* 2'. The greedy plan: from each last index it comes to, the move that
 * reaches the farthest.  It looks only at the positions it goes through,
 * so it is quick, but it may jump past the way to a shorter line.
 * 0 if Ctrl-C stopped it. */
static int plan_greedy(Shortcut *x)
{
    State s = *x->start;
    replay_atoms(&s, x->moves, 0, x->first);
    for (size_t i = x->first; i < x->n; ) {
        if (stop_requested) return 0;
        int count = reaches(x, &s);
        uint32_t best = NOT_ON_LINE;
        for (int k = 0; k < count; k++) {
            uint32_t j = x->at[k];
            if (j != NOT_ON_LINE && j > i && (best == NOT_ON_LINE || j > best)) {
                best = j;
                x->via[j] = x->legal[k];
            }
        }
        if (best == NOT_ON_LINE) return 0; /* (cannot happen: the line's own move is one) */
        x->next[i] = best;
        replay_atoms(&s, x->moves, i, best);
        i = best;
    }
    return 1;
}

/* 3. Follow the plan beside the line, checking each step card by card: the
 * position its move reaches against the line's own (keys can collide); the
 * line's own moves stand in for a step that fails.  Into `out`; 0 if Ctrl-C
 * stopped it. */
static int follow_plan(const Shortcut *x, AtomLine *out)
{
    State at = *x->start, ahead = at, moved;
    SMove m;
    replay_atoms(&ahead, x->moves, 0, x->first);
    if (!same_place(&ahead, &at, x->recycles))
        for (size_t k = 0; k < x->first; k++) out->moves[out->len++] = x->moves[k];
    at = ahead;
    for (size_t i = x->first; i < x->n; ) {
        if (stop_requested) return 0;
        size_t j = x->next[i];
        moved = at;
        atomic_apply(&moved, x->via[j], &m);
        ahead = at;
        replay_atoms(&ahead, x->moves, i, j);
        if (same_place(&moved, &ahead, x->recycles))
            out->moves[out->len++] = x->via[j];
        else
            for (size_t k = i; k < j; k++) out->moves[out->len++] = x->moves[k];
        at = ahead;
        i = j;
    }
    return 1;
}

/*
 * Shorten `line`, which wins from `start` under `r` (the rules as given, not
 * as the search relaxed them), in place (see the top of this file): the
 * shortest plan until `deadline` (on `clock`; < 0: none), else the greedy
 * one.  Returns 1 if it was shortened (or is as short as it gets), 0 if it
 * was left as found (no memory within `budget` bytes, or Ctrl-C).
 */
static int shorten_line(const State *start, const Rules *r, AtomLine *line, size_t budget,
                        double deadline, double (*clock)(void), int greedy)
{
    size_t n = line->len;
    if (n < 2) return 1;
    if (n >= NOT_ON_LINE - 1) return 0;
    size_t slots = 64, filter = 4096;
    int shift = 64 - 12;
    while (slots < 2 * (n + 1)) slots *= 2;
    while (filter < 8 * (n + 1)) { filter *= 2; shift--; }
    if (sizeof(Shortcut) + 2 * slots * sizeof(uint64_t) + filter / 8
            + (n + 1) * (2 * sizeof(uint32_t) + sizeof(Atomic)) + n * sizeof(Atomic) > budget)
        return 0;
    Shortcut *x = malloc(sizeof(Shortcut));
    AtomLine out = {malloc(n * sizeof(Atomic)), 0, n};
    int done = 0;
    if (!x || !out.moves) goto end;
    x->start = start;
    x->r = r;
    x->moves = line->moves;
    x->n = n;
    x->recycles = r->recycles_allowed >= 0;
    x->words = keys_alloc(2 * slots);
    x->slots = slots;
    x->bits = calloc(filter / 64, sizeof(uint64_t));
    x->shift = shift;
    x->next = malloc((n + 1) * sizeof(uint32_t));
    x->pred = malloc((n + 1) * sizeof(uint32_t));
    x->via = malloc((n + 1) * sizeof(Atomic));
    if (!x->words || !x->bits || !x->next || !x->pred || !x->via) goto release;
    find_last_visits(x);
    int planned = greedy ? 0 : plan_shortest(x, deadline, clock);
    if (!planned && !stop_requested) planned = plan_greedy(x);
    if (planned && follow_plan(x, &out)) {
        free(line->moves);
        *line = out;
        out.moves = NULL;
        done = 1;
    }
release:
    keys_free(x->words, 2 * slots);
    free(x->bits);
    free(x->next);
    free(x->pred);
    free(x->via);
end:
    free(x);
    free(out.moves);
    return done;
}

#endif /* BONANZA_SEARCH_SHORTCUT_H */
