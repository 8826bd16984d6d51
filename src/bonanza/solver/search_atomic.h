/*
 * search_atomic.h: the engine's atomic moves.
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 *
 * Atomic moves are the engine's moves (bonanza.core.moves.Move): a source
 * pile, a destination pile and a count, in the engine's pile numbers.  A
 * search line is expanded into them (expand_atomic: a talon step becomes its
 * draws, perhaps a recycle, then the play), and legal_atomic lists every
 * legal one as the engine does (the tests hold it to the engine's list).
 * They are what a winning line is reported in, and what a line is cut short
 * through (search_shortcut.h).
 */
#ifndef BONANZA_SEARCH_ATOMIC_H
#define BONANZA_SEARCH_ATOMIC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search_cards.h"
#include "search_moves.h"
#include "search_path.h"
#include "search_state.h"

/* ---- atomic moves (engine semantics) ------------------------------------- */

typedef struct {
    uint8_t src, dst, count;
} Atomic;

/* Room for legal_atomic's moves (fewer than 52 cards to 11 places, and
 * the stock's). */
#define MAX_ATOMIC 2048

/* The moves of `count` cards headed by `card` from pile `src` (column
 * `own`, or -1) to the columns, as the engine has them: onto a column topped
 * by a card it fits on (`top_col` maps column tops to their columns), or
 * into any of the `ne` empty columns `empties` if it may fill one. */
static inline int atomic_dests(const Rules *r, const int8_t *top_col, const int *empties, int ne,
                               int card, int src, int own, int count, Atomic *out)
{
    int n = 0, rank = card_rank(card);
    if (rank < 13) {
        /* The cards one rank up of the other colour. */
        int lo = card_red(card) ? 0 : 1, hi = card_red(card) ? 3 : 2;
        int d = top_col[lo * 13 + rank];
        if (d >= 0 && d != own) out[n++] = (Atomic){(uint8_t)src, (uint8_t)col_pile(d), (uint8_t)count};
        d = top_col[hi * 13 + rank];
        if (d >= 0 && d != own) out[n++] = (Atomic){(uint8_t)src, (uint8_t)col_pile(d), (uint8_t)count};
    }
    if (r->any_empty || rank == 13)
        for (int k = 0; k < ne; k++)
            out[n++] = (Atomic){(uint8_t)src, (uint8_t)col_pile(empties[k]), (uint8_t)count};
    return n;
}

/* Every legal move of the position, as the engine lists them (any order),
 * in the engine's pile numbers. */
static int legal_atomic(const State *s, const Rules *r, Atomic *out)
{
    int n = 0, ne = 0, empties[NCOLS];
    int8_t top_col[52];
    memset(top_col, -1, sizeof top_col);
    for (int d = 0; d < s->ncols; d++) {
        if (s->len[d]) top_col[s->col[d][s->len[d] - 1]] = (int8_t)d;
        else empties[ne++] = d;
    }
    for (int c = 0; c < s->ncols; c++) {
        int len = s->len[c];
        if (!len) continue;
        int top = s->col[c][len - 1];
        if (card_rank(top) == s->found[card_suit(top)] + 1)
            out[n++] = (Atomic){(uint8_t)col_pile(c), (uint8_t)(P_FOUND + card_suit(top)), 1};
        int first = run_base(s, r, c), last = r->partial ? len : first + 1;
        for (int i = first; i < last; i++)
            n += atomic_dests(r, top_col, empties, ne, s->col[c][i], col_pile(c), c, len - i,
                              out + n);
    }
    if (s->ptr) {
        int card = s->talon[s->ptr - 1];
        if (card_rank(card) == s->found[card_suit(card)] + 1)
            out[n++] = (Atomic){P_WASTE, (uint8_t)(P_FOUND + card_suit(card)), 1};
        n += atomic_dests(r, top_col, empties, ne, card, P_WASTE, -1, 1, out + n);
    }
    if (r->recall)
        for (int suit = 0; suit < 4; suit++)
            if (s->found[suit])
                n += atomic_dests(r, top_col, empties, ne, suit * 13 + s->found[suit] - 1,
                                  P_FOUND + suit, -1, 1, out + n);
    int left = s->tlen - s->ptr;
    if (r->deals) {
        if (left > 0)
            out[n++] = (Atomic){P_STOCK, (uint8_t)col_pile(0),
                                (uint8_t)(left < s->ncols ? left : s->ncols)};
    } else if (left > 0) {
        out[n++] = (Atomic){P_STOCK, P_WASTE, (uint8_t)(left < r->draw ? left : r->draw)};
    } else if (s->ptr > 0 && can_recycle(s, r)) {
        out[n++] = (Atomic){P_WASTE, P_STOCK, (uint8_t)s->ptr};
    }
    return n;
}

/* A line of atomic moves. */
typedef struct {
    Atomic *moves;
    size_t len, cap;
} AtomLine;

static int atoms_push(AtomLine *l, int src, int dst, int count)
{
    if (l->len == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 256;
        Atomic *p = realloc(l->moves, ncap * sizeof *p);
        if (!p) return 0;
        l->moves = p;
        l->cap = ncap;
    }
    l->moves[l->len++] = (Atomic){(uint8_t)src, (uint8_t)dst, (uint8_t)count};
    return 1;
}

/* Expand a search line into atomic moves, replaying it from `start`, onto
 * `out`: 1 done, 0 out of memory, -1 a talon step misses its card (a bug). */
static int expand_atomic(const State *start, const Rules *r, const SMove *line, size_t n,
                         AtomLine *out)
{
    State s = *start;
    for (size_t k = 0; k < n; k++) {
        SMove m = line[k];
        if (m.kind == K_TAL) {
            int cur = s.ptr, total = s.tlen;
            if (m.recycle) {
                while (cur < total) {
                    int turn = total - cur < r->draw ? total - cur : r->draw;
                    if (!atoms_push(out, P_STOCK, P_WASTE, turn)) return 0;
                    cur += turn;
                }
                if (!atoms_push(out, P_WASTE, P_STOCK, total)) return 0;
                cur = 0;
            }
            while (cur < m.q) {
                int turn = total - cur < r->draw ? total - cur : r->draw;
                if (!atoms_push(out, P_STOCK, P_WASTE, turn)) return 0;
                cur += turn;
            }
            if (cur != m.q) return -1;
        }
        apply_move(&s, &m);
        int src = m.kind == K_T2F || m.kind == K_T2T ? col_pile(m.src)
                : m.kind == K_TAL ? P_WASTE : m.kind == K_DEAL ? P_STOCK : P_FOUND + m.src;
        int dst = m.dst == DST_FOUND ? P_FOUND + card_suit(m.card) : col_pile(m.dst);
        if (!atoms_push(out, src, dst, m.count)) return 0;
    }
    return 1;
}

/* Steps that only atomic moves make: a draw, a recycle (see atomic_apply). */
enum { K_DRAW = 16, K_RECYCLE };

/* The column of engine pile p (a column's pile). */
static inline int pile_col(int p) { return p < KLONDIKE_NCOLS ? p : p - P_COL8 + KLONDIKE_NCOLS; }

/* Play atomic move `a` (legal) on `s`, as the engine does; `*m` is what
 * atomic_undo needs to take it back. */
static void atomic_apply(State *s, Atomic a, SMove *m)
{
    memset(m, 0, sizeof *m);
    m->count = a.count;
    if (a.src == P_STOCK && a.dst == P_WASTE) {
        m->kind = K_DRAW;
        s->ptr += a.count;
        return;
    }
    if (a.dst == P_STOCK) {
        m->kind = K_RECYCLE;
        m->old_ptr = (uint8_t)s->ptr;
        s->ptr = 0;
        s->rec++;
        return;
    }
    int home = a.dst >= P_FOUND && a.dst < P_FOUND + 4;
    if (a.src == P_STOCK) {
        m->kind = K_DEAL; /* onto columns 0 .. count - 1 */
    } else if (a.src == P_WASTE) {
        m->kind = K_TAL;
        m->q = (uint8_t)s->ptr;
        m->dst = home ? DST_FOUND : (uint8_t)pile_col(a.dst);
    } else if (a.src >= P_FOUND && a.src < P_FOUND + 4) {
        m->kind = K_F2T;
        m->src = (uint8_t)(a.src - P_FOUND);
        m->dst = (uint8_t)pile_col(a.dst);
    } else {
        m->kind = home ? K_T2F : K_T2T;
        m->src = (uint8_t)pile_col(a.src);
        m->dst = home ? DST_FOUND : (uint8_t)pile_col(a.dst);
    }
    apply_move(s, m);
}

static void atomic_undo(State *s, const SMove *m)
{
    if (m->kind == K_DRAW) {
        s->ptr -= m->count;
    } else if (m->kind == K_RECYCLE) {
        s->ptr = m->old_ptr;
        s->rec--;
    } else {
        undo_move(s, m);
    }
}

#endif /* BONANZA_SEARCH_ATOMIC_H */
