/*
 * search_quiet.h: can quiet moves reach progress?  (bonanza.solver.progress)
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 *
 * The question (the reference is bonanza.solver.quiet.explore, in Python):
 * does some line of *quiet* moves reach a position where an *informative*
 * move is legal?  Informative: a move that turns up a face-down card, or a
 * draw before the first recycle (it shows a card never seen).  Every other
 * legal move is quiet, except a recall the reference never tries
 * (quiet.is_pointless_recall; see recall_skipped).  The rules are not
 * thoughtful (then nothing is informative, and the caller asks the solver).
 *
 * Unseen stock.  A draw is legal whenever the stock is not empty, so with
 * no recycle made and cards in the stock the answer is "progress" at once.
 * Otherwise no draw anywhere in the search is informative: the stock only
 * gains cards by a recycle, after which every talon card has been seen.  So
 * from here on only turn-ups are informative, the talon is known, and the
 * recycle count matters only through the pass limit.
 *
 * The search is a depth-first search over positions, every position stored
 * in the solver's transposition table (search_table.h) under the solver's
 * state_key; it stops at the first position with a legal turn-up
 * ("progress"), when the space is exhausted ("none"), or at the node or
 * memory limit ("unknown").  Reachability does not depend on the order the
 * positions are visited in, so a position already stored is never entered
 * again.  The only pruning, each proven where it is done:
 *   Q1. talon macro moves: draws and recycles are not searched on their own;
 *       one step plays the card that is the waste top after some draws
 *       (across at most one recycle, the fewest recycles that reach it) to
 *       a column or home (see quiet_moves);
 *   Q2. columns are interchangeable: the key ignores column order, only the
 *       first empty column is a destination, and a whole column with nothing
 *       face down is never moved into an empty one (see quiet_moves);
 *   Q3. waste sizes from which the same waste sizes can be reached by draws
 *       and recycles alone share a key (the solver's rules 5 and 9; see
 *       quiet_key_sound);
 *   Q4. at least as many recycles left as talon cards count as unlimited
 *       passes (see py_quiet_progress in _search.c).
 * Nothing is pruned from the answer itself: "none" is exact up to a 128-bit
 * key collision (about one in 10^24 in a search of 10^7 positions, see
 * state_key).  None of the solver's other pruning rules is used: they keep
 * a win, not every reachable position.
 */
#ifndef BONANZA_SEARCH_QUIET_H
#define BONANZA_SEARCH_QUIET_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "search_cards.h"
#include "search_moves.h"
#include "search_path.h"
#include "search_safe.h"
#include "search_state.h"
#include "search_table.h"

enum { QUIET_UNKNOWN = -1, QUIET_NONE = 0, QUIET_PROGRESS = 1 };

/* Which recalls are skipped: only those proven never to help (RECALLS_SOUND,
 * the default, as quiet.is_pointless_recall), or those the rule without recall
 * would skip (RECALLS_REFERENCE: the first Python reference's rule, which can
 * miss progress; kept to show that flaw in the tests). See recall_skipped. */
enum { RECALLS_REFERENCE = 0, RECALLS_SOUND = 1 };

/* One quiet step, compactly: K_T2F (a: column), K_T2T (a: from, b: to,
 * c: cards), K_TAL (a: waste size after the draws, b: column or DST_FOUND,
 * c: a recycle first), K_F2T (a: suit, b: column). */
typedef struct {
    uint8_t kind, a, b, c;
} QMove;

/* A position on the search's path: the step that entered it (to undo) and
 * the end of its untried steps in the step stack; they begin where the
 * frame below ends. */
typedef struct {
    SMove played;
    size_t next, end;
} QFrame;

/* The most steps one position has: 10 home, 3 destinations for each of at
 * most 52 face-up cards, 4 for each of at most 2 * 52 talon targets, 3 for
 * each of 4 recalls. */
#define QUIET_MAX_STEPS (NCOLS + 3 * 52 + 4 * (2 * MAXC + 2) + 3 * 4)

/* The first table size, in slots: most checks store few positions. */
#define QUIET_FIRST_SLOTS ((size_t)1 << 12)

typedef struct {
    State s;
    Rules r;
    int recalls; /* RECALLS_* */
    Table tt;
    QMove *steps;
    size_t scap;
    QFrame *frames;
    size_t fcap;
    uint64_t nodes, node_limit; /* positions entered; 0: no limit */
    size_t budget, used;        /* bytes */
    int limit;                  /* LIMIT_* when the answer is unknown */
} Quiet;

/* Grow `*array` (of `size`-byte items) to hold at least `need`, within the
 * memory budget; 0 if it cannot. */
static int quiet_reserve(Quiet *x, void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap) return 1;
    size_t ncap = *cap ? *cap : 256;
    while (ncap < need) ncap *= 2;
    if (x->used + (ncap - *cap) * size > x->budget) return 0;
    void *p = realloc(*array, ncap * size);
    if (!p) return 0;
    x->used += (ncap - *cap) * size;
    *array = p;
    *cap = ncap;
    return 1;
}

static void quiet_free(Quiet *x)
{
    keys_free(x->tt.keys, 2 * x->tt.cap);
    free(x->steps);
    free(x->frames);
}

/*
 * Is recalling `card` (the top of its foundation) skipped?
 *
 * RECALLS_REFERENCE: the rule without recall, which the first Python
 * reference used: an ace or a two, or a card whose opposite-colour cards
 * one rank down are home.  Unsound with recall on (below).
 *
 * RECALLS_SOUND: only when opp >= r - 1 and same >= r - 2 (the solver's
 * rule 2 with recall on; r the rank, opp the lower opposite-colour
 * foundation, same the card's twin suit's).  Proof that no progress is
 * lost: let D be the cards of rank <= r - 2, the opposite-colour (r - 1)s
 * and the card's own (r - 1).  All of D is home, each suit's share of D and
 * the card is a run up from its ace, and a card that may go on the card or
 * on a card of D is in D.  Take a quiet line from the recall to a legal
 * turn-up and delete every move of the card and of D cards.  No other card
 * was ever put on them, so every remaining move is legal (the foundations
 * hold more cards, but only below the cards the line plays home or
 * recalls; runs lose only D cards from their tops), turns up nothing it did
 * not (a recalled card never lies right on a face-down card: it went onto a
 * face-up card or into an empty column), and the last position has the same
 * turn-up: its run's base is not in D, nor is what it goes on.
 *
 * The reference's rule is not sound with recall on: a red 5 whose black 4s
 * are home is never recalled, but a black 4 recalled onto it could take a
 * red 3 that lies on face-down cards (see tests/solver/test_quiet_progress.py).
 */
static int recall_skipped(const State *s, int card, int recalls)
{
    int rank = card_rank(card), opp = opposite_home(s, card);
    if (recalls == RECALLS_SOUND) return opp >= rank - 1 && s->found[3 - card_suit(card)] >= rank - 2;
    return rank <= 2 || opp >= rank - 1;
}

/* Is a turn-up legal: can some column's face-up cards all leave it (the
 * lowest one with its run onto another column's top or into an empty
 * column, or the only one home) while a card lies face down under them? */
static int quiet_turnup(const State *s, const Rules *r)
{
    int empty = first_empty(s) >= 0;
    for (int c = 0; c < s->ncols; c++) {
        int down = s->down[c];
        if (!down) continue;
        int base = s->col[c][down], rank = card_rank(base);
        if (s->len[c] - down == 1 && rank == s->found[card_suit(base)] + 1) return 1;
        if (empty && (r->any_empty || rank == 13)) return 1;
        if (rank == 13) continue;
        /* The cards one rank up of the other colour, as column tops elsewhere. */
        int lo = (card_red(base) ? 0 : 1) * 13 + rank, hi = (card_red(base) ? 3 : 2) * 13 + rank;
        if ((s->top_mask >> lo & 1) && s->at_col[lo] != c) return 1;
        if ((s->top_mask >> hi & 1) && s->at_col[hi] != c) return 1;
    }
    return 0;
}

/* The columns topped by a card `card` fits on, and the first empty column
 * when `card` may go there; returns their count. */
static int quiet_dests(const Rules *r, const int8_t *top_col, int empty, int card, int *dests)
{
    int n = 0, rank = card_rank(card);
    if (rank < 13) {
        int lo = (card_red(card) ? 0 : 1) * 13 + rank, hi = (card_red(card) ? 3 : 2) * 13 + rank;
        if (top_col[lo] >= 0) dests[n++] = top_col[lo];
        if (top_col[hi] >= 0) dests[n++] = top_col[hi];
    }
    if (empty >= 0 && (r->any_empty || rank == 13)) dests[n++] = empty;
    return n;
}

/*
 * The quiet steps of a position without a legal turn-up, into `out`;
 * returns their count.
 *
 * Q1 (talon macro moves).  Claim: every position a quiet line reaches
 * differs only in its waste size and recycle count (more recycles) from a
 * position the steps reach, so both have the same turn-ups (those depend on
 * the columns and foundations alone).  Proof: draws and recycles touch only
 * the talon and no other move's legality depends on the talon except the
 * waste top's, so in a quiet line every draw and recycle can be moved on to
 * just before the next play from the waste (or to the line's end, and then
 * dropped); each run of them and the play after it is one step here: the
 * waste size before the play is reached from the current one by drawing on,
 * or after recycles; two recycles with no play between reach nothing one
 * would not, and one recycle fewer leaves every later move legal (the pass
 * limit allows more; no draw is informative, see the top of this file), so
 * a target reachable both ways is taken without the recycle
 * (talon_targets).  Stock moves are quiet, so nothing informative is skipped.
 *
 * Q2 (columns are interchangeable).  Every rule treats the columns alike, so
 * positions that differ only in column order reach the same positions up to
 * column order, and have the same answer: moving a card or run into the
 * second empty column gives the position moving it into the first gives,
 * up to column order; moving a whole column with nothing face down into an
 * empty column gives the position itself, up to column order.
 */
static int quiet_moves(const State *s, const Rules *r, int recalls, QMove *out)
{
    int n = 0, empty = first_empty(s), dests[3];
    int8_t top_col[52];
    memset(top_col, -1, sizeof top_col);
    for (int d = 0; d < s->ncols; d++)
        if (s->len[d]) top_col[s->col[d][s->len[d] - 1]] = (int8_t)d;
    for (int c = 0; c < s->ncols; c++) {
        int len = s->len[c], down = s->down[c];
        if (!len) continue;
        /* Home from the top (not the last face-up card on a face-down one:
         * that turn-up would have been found). */
        int top = s->col[c][len - 1];
        if (card_rank(top) == s->found[card_suit(top)] + 1 && !(down && len - down == 1))
            out[n++] = (QMove){K_T2F, (uint8_t)c, 0, 0};
        /* Runs onto other columns: not from the lowest face-up card on a
         * face-down one (a turn-up), and whole runs only if the rules say so. */
        int first = down ? down + 1 : 0, last = r->partial ? len : down + 1;
        for (int i = first; i < last; i++) {
            int nd = quiet_dests(r, top_col, empty, s->col[c][i], dests);
            for (int k = 0; k < nd; k++) {
                int d = dests[k];
                if (d == c || (i == 0 && !s->len[d])) continue; /* Q2: a whole column */
                out[n++] = (QMove){K_T2T, (uint8_t)c, (uint8_t)d, (uint8_t)(len - i)};
            }
        }
    }
    /* Talon cards (Q1). */
    uint8_t qs[2 * MAXC + 2], recs[2 * MAXC + 2];
    int nt = talon_targets(s, r, qs, recs);
    for (int t = 0; t < nt; t++) {
        int card = s->talon[qs[t] - 1];
        if (card_rank(card) == s->found[card_suit(card)] + 1)
            out[n++] = (QMove){K_TAL, qs[t], DST_FOUND, recs[t]};
        int nd = quiet_dests(r, top_col, empty, card, dests);
        for (int k = 0; k < nd; k++) out[n++] = (QMove){K_TAL, qs[t], (uint8_t)dests[k], recs[t]};
    }
    /* Recalls. */
    if (r->recall)
        for (int suit = 0; suit < 4; suit++) {
            if (!s->found[suit]) continue;
            int card = suit * 13 + s->found[suit] - 1;
            if (recall_skipped(s, card, recalls)) continue;
            int nd = quiet_dests(r, top_col, empty, card, dests);
            for (int k = 0; k < nd; k++) out[n++] = (QMove){K_F2T, (uint8_t)suit, (uint8_t)dests[k], 0};
        }
    return n;
}

static SMove quiet_smove(QMove q)
{
    SMove m = {0};
    m.kind = q.kind;
    m.count = 1;
    switch (q.kind) {
    case K_T2F: m.src = q.a; m.dst = DST_FOUND; break;
    case K_T2T: m.src = q.a; m.dst = q.b; m.count = q.c; break;
    case K_TAL: m.q = q.a; m.dst = q.b; m.recycle = q.c; break;
    default: m.src = q.a; m.dst = q.b; break; /* K_F2T */
    }
    return m;
}

/*
 * Q3 (the key).  state_key (search_table.h) ignores column order (Q2) and,
 * with unlimited passes, the recycle count and some waste sizes:
 *   - with draw 1 the waste size is left out: from any waste size every
 *     other one can be reached by draws and recycles alone;
 *   - with a larger draw, a waste size that is a multiple of the draw or the
 *     whole talon is keyed as 0: from each of these the same sizes (the
 *     multiples of the draw and the whole talon) are reached by draws and
 *     recycles alone, and 0 among them.
 * Positions that quiet moves lead to and from (draws and recycles are quiet
 * here) reach the same positions, so they have the same answer and one key
 * is enough.  With unlimited passes the recycle count never matters (no
 * draw is informative, and a recycle is always allowed); under a pass limit
 * it is keyed, and so is the exact waste size.
 */
static uint64_t quiet_key_sound(State *s, const Rules *r)
{
    return state_key(s, r);
}

/* The search (see the top of this file): QUIET_PROGRESS, QUIET_NONE, or
 * QUIET_UNKNOWN with x->limit set. */
static int quiet_search(Quiet *x)
{
    State *s = &x->s;
    const Rules *r = &x->r;
    if (quiet_turnup(s, r)) return QUIET_PROGRESS;
    uint64_t key = quiet_key_sound(s, r); /* (sets s->check) */
    int inserted = tt_insert(&x->tt, key, s->check, x->budget, &x->used);
    if (inserted < 0) { x->limit = LIMIT_MEMORY; return QUIET_UNKNOWN; }
    x->nodes = 1;
    size_t depth = 0, top = 0; /* frames on the path; steps on the stack */
    if (!quiet_reserve(x, (void **)&x->steps, &x->scap, QUIET_MAX_STEPS, sizeof(QMove))
        || !quiet_reserve(x, (void **)&x->frames, &x->fcap, 1, sizeof(QFrame))) {
        x->limit = LIMIT_MEMORY;
        return QUIET_UNKNOWN;
    }
    top = (size_t)quiet_moves(s, r, x->recalls, x->steps);
    x->frames[depth++] = (QFrame){{0}, 0, top};
    while (depth) {
        QFrame *f = &x->frames[depth - 1];
        if (f->next == f->end) {
            if (depth > 1) undo_move(s, &f->played);
            depth--;
            top = depth ? x->frames[depth - 1].end : 0;
            continue;
        }
        SMove m = quiet_smove(x->steps[f->next++]);
        apply_move(s, &m);
        key = quiet_key_sound(s, r);
        inserted = tt_insert(&x->tt, key, s->check, x->budget, &x->used);
        if (inserted == 0) {
            undo_move(s, &m);
            continue;
        }
        if (inserted < 0) { x->limit = LIMIT_MEMORY; return QUIET_UNKNOWN; }
        if (quiet_turnup(s, r)) return QUIET_PROGRESS;
        if (x->node_limit && x->nodes >= x->node_limit) { x->limit = LIMIT_NODES; return QUIET_UNKNOWN; }
        if (++x->nodes % CHECK_EVERY == 0 && stop_requested) {
            x->limit = LIMIT_STOPPED;
            return QUIET_UNKNOWN;
        }
        if (!quiet_reserve(x, (void **)&x->steps, &x->scap, top + QUIET_MAX_STEPS, sizeof(QMove))
            || !quiet_reserve(x, (void **)&x->frames, &x->fcap, depth + 1, sizeof(QFrame))) {
            x->limit = LIMIT_MEMORY;
            return QUIET_UNKNOWN;
        }
        int n = quiet_moves(s, r, x->recalls, x->steps + top);
        if (!n) {
            undo_move(s, &m);
            continue;
        }
        x->frames[depth++] = (QFrame){m, top, top + (size_t)n};
        top += (size_t)n;
    }
    return QUIET_NONE;
}

#endif /* BONANZA_SEARCH_QUIET_H */
