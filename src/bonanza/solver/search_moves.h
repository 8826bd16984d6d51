/*
 * search_moves.h: move generation, with the talon rules (10 and 14).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_MOVES_H
#define BONANZA_SEARCH_MOVES_H

#include <stdint.h>
#include <string.h>

#include "search_cards.h"
#include "search_dead_ends.h"
#include "search_safe.h"
#include "search_state.h"
#include "search_twins.h"

/* ---- move generation (rules 2-4, 7, 10 and 14) -------------------------- */

/* Waste sizes reachable by drawing from the current pointer (recycle 0) and,
 * when a recycle is allowed, after one recycle (recycle 1).  A size reachable
 * both ways is listed once, without the recycle. */
static int talon_targets(const State *s, const Rules *r, uint8_t *qs, uint8_t *recs)
{
    int n = s->tlen, d = r->draw, count = 0, q;
    uint64_t seen = 0;
    if (!n) return 0;
    q = s->ptr;
    if (q > 0) {
        qs[count] = (uint8_t)q; recs[count++] = 0; seen |= 1ULL << q;
    }
    while (q < n) {
        q = q + d < n ? q + d : n;
        qs[count] = (uint8_t)q; recs[count++] = 0; seen |= 1ULL << q;
    }
    if (can_recycle(s, r)) {
        q = 0;
        while (q < n) {
            q = q + d < n ? q + d : n;
            if (!(seen >> q & 1)) { qs[count] = (uint8_t)q; recs[count++] = 1; }
        }
    }
    return count;
}

/*
 * Rules 3 and 4 hold while the columns are interchangeable: not where the
 * stock deals onto them and still holds cards (a deal tells them apart: see
 * state_key).  Then every empty column is a destination, and a whole column
 * may move into one.
 */
static inline int places_matter(const State *s, const Rules *r)
{
    return r->deals && s->tlen;
}

/* The lowest card of column c (not empty) that may head a run: its lowest
 * face-up card, or, where the stock deals (face-up cards need not be one
 * run), the base of the run at its top, as the engine's run_start. */
static inline int run_base(const State *s, const Rules *r, int c)
{
    int i = s->len[c] - 1, down = s->down[c];
    if (!r->deals) return down;
    while (i > down && fits_on(s->col[c][i], s->col[c][i - 1])) i--;
    return i;
}

/* Column d as a destination for a card that may go into an empty column:
 * rule 3 keeps only the first empty one (`empty`), where it holds. */
static inline int empty_dest(const State *s, int d, int empty, int ordered)
{
    return !s->len[d] && (d == empty || ordered);
}

static int first_empty(const State *s)
{
    for (int c = 0; c < s->ncols; c++)
        if (!s->len[c]) return c;
    return -1;
}

/*
 * Rule 10 (draw 1, unlimited passes, where any talon card can be played at
 * any time: see rule 5).  When a winning line puts talon card c on a column
 * (on a card p, or into an empty column), let u be the next move that puts
 * a card or run on c or moves c.  Every move in between is legal with c
 * still in the talon: none touches c or puts a card on p, a run that carried
 * p carries the same cards but c, and the talon cards they play are still
 * within reach.  So the line may put c there just before u instead.  If u
 * moves c on (to a column or home), c can go there straight from the talon,
 * and the line is shorter.  So a winnable position has a winning line of
 * least length in which each talon card put on a column is at once covered
 * by the next move, and the search, after such a step, tries only the moves
 * that put a card or run on c (this node is then not stored in the table:
 * with the waste pointer ignored it has one parent, and nothing else leads
 * to it).  Putting c on a column makes no card safe, so no other move is
 * played with it; if the twin normalization covers c at once, c has been
 * used and the rule lifts.  Guards keep the other rules from
 * pruning any such move here: the rule is off when c's twin lies face up
 * under other cards (rule 7 drops moving those onto c; when c is the lower
 * twin, they are moved onto c at once and c is covered anyway) or a safe
 * foundation card fits on c (rule 2 drops its recall).
 */
static int pending_applies(const State *s, const Rules *r, int card)
{
    /* Rule 7 drops moves of a run from c's twin onto c, face up under it. */
    int twin = twin_of(card), tc = s->at_col[twin];
    if (tc >= 0 && s->at_idx[twin] >= s->down[tc] && s->at_idx[twin] < s->len[tc] - 1)
        return 0;
    /* Rule 2 drops recalls of safe cards. */
    if (r->recall && card_rank(card) > 1) {
        int rank = card_rank(card) - 1, lo = card_red(card) ? 0 : 1, hi = card_red(card) ? 3 : 2;
        if (s->found[lo] == rank && is_safe(s, r, lo * 13 + rank - 1)) return 0;
        if (s->found[hi] == rank && is_safe(s, r, hi * 13 + rank - 1)) return 0;
    }
    return 1;
}

/* May anything go on `card` next: a run headed by a card that fits on it,
 * such a talon card, or such a card recalled?  (Rule 10: if not, putting the
 * talon card on a column leads nowhere, and is not generated.) */
static int anything_fits_on(const State *s, const Rules *r, int card)
{
    int rank = card_rank(card);
    if (rank == 1) return 0;
    int suits[2] = {card_red(card) ? 0 : 1, card_red(card) ? 3 : 2};
    for (int k = 0; k < 2; k++) {
        int fit = suits[k] * 13 + rank - 2, c = s->at_col[fit];
        if (s->tal_mask >> fit & 1) return 1;
        if (c >= 0 && s->at_idx[fit] >= s->down[c] && (r->partial || s->at_idx[fit] == s->down[c]))
            return 1;
        if (c < 0 && r->recall && s->found[suits[k]] == rank - 1) return 1;
    }
    return 0;
}

/* Rule 10: putting talon card `card` on a column leads nowhere, since
 * nothing could go on it next. */
static int talon_card_stuck(const State *s, const Rules *r, const Options *o, int card)
{
    if (!((o->prune & PRUNE_COVER_TALON) && talon_at_will(r, o) && !anything_fits_on(s, r, card)
          && pending_applies(s, r, card)))
        return 0;
    FIRE(o, 10);
    return 1;
}

/* The recalls of the top card of `suit`'s foundation (rule 2: not a safe
 * one) onto every column it may go to; `empty` is the first empty column. */
static int recalls_of(const State *s, const Rules *r, const Options *o, int suit, int empty,
                      SMove *out)
{
    int n = 0, card = suit * 13 + s->found[suit] - 1, ordered = places_matter(s, r);
    if (!s->found[suit]) return 0;
    if ((o->prune & PRUNE_SAFE_MOVES) && is_safe(s, r, card)) {
        FIRE(o, 2);
        return 0;
    }
    for (int d = 0; d < s->ncols; d++) {
        if (s->len[d] ? fits_on(card, s->col[d][s->len[d] - 1])
                      : empty_dest(s, d, empty, ordered) && (r->any_empty || card_rank(card) == 13)) {
            SMove m = {0};
            m.kind = K_F2T; m.src = (uint8_t)suit; m.dst = (uint8_t)d; m.count = 1;
            m.card = (uint8_t)card;
            out[n++] = m;
        }
    }
    return n;
}

static void sort_moves(SMove *out, int n)
{
    /* Best first (stable insertion sort on score). */
    for (int i = 1; i < n; i++) {
        SMove v = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].score < v.score) { out[j + 1] = out[j]; j--; }
        out[j + 1] = v;
    }
}

/* Bound: 10 home, 52 face-up cards to 2 + 10 columns, 104 talon targets to
 * 4 places (or a deal), 4 recalls to 10 columns; and 26 * 17 two-move steps. */
#define MAX_GEN 2048

/* Score of a deal (Easthaven): after the moves that turn up a card or send
 * one home, before moving runs between columns. */
#define DEAL_SCORE 20

/* The talon moves: the card that is the waste top after some draws (and
 * perhaps a recycle) to its foundation or a column.  `top_col` maps column
 * tops to their columns, `movers` is the cards with a column to go to. */
static int talon_moves(const State *s, const Rules *r, const Options *o, const int8_t *top_col,
                       uint64_t movers, int empty, SMove *out)
{
    int n = 0;
    SMove m;
    uint8_t qs[2 * MAXC + 2], recs[2 * MAXC + 2];
    int nt = talon_targets(s, r, qs, recs);
    /* The talon cards with somewhere to go: home, a column top, an empty
     * column. */
    uint64_t goers = movers;
    for (int suit = 0; suit < 4; suit++)
        if (s->found[suit] < 13) goers |= 1ULL << (13 * suit + s->found[suit]);
    for (int t = 0; t < nt; t++) {
        int card = s->talon[qs[t] - 1];
        if (!(goers >> card & 1)) continue;
        int penalty = recs[t] ? 8 : 0;
        memset(&m, 0, sizeof m);
        m.kind = K_TAL; m.q = qs[t]; m.recycle = recs[t]; m.count = 1;
        m.card = (uint8_t)card;
        if (card_rank(card) == s->found[card_suit(card)] + 1) {
            m.dst = DST_FOUND;
            m.score = (int16_t)(60 - penalty);
            out[n++] = m;
        }
        int dests[3], nd = 0, rank = card_rank(card);
        if (rank < 13) {
            int lo = card_red(card) ? 0 : 1, hi = card_red(card) ? 3 : 2;
            if (top_col[lo * 13 + rank] >= 0) dests[nd++] = top_col[lo * 13 + rank];
            if (top_col[hi * 13 + rank] >= 0) dests[nd++] = top_col[hi * 13 + rank];
        }
        if (empty >= 0 && (r->any_empty || rank == 13)) dests[nd++] = empty;
        if (nd && talon_card_stuck(s, r, o, card)) nd = 0;
        for (int k = 0; k < nd; k++) {
            m.dst = (uint8_t)dests[k];
            m.score = (int16_t)(50 - penalty);
            out[n++] = m;
        }
    }
    return n;
}

/* The search's moves (with rules 2-4 and 7) into out; returns their count. */
static int gen_moves(const State *s, const Rules *r, const Options *o, SMove *out)
{
    const int ncols = s->ncols; /* (a local: stores through bytes cannot change it) */
    int n = 0, empty = first_empty(s), ordered = places_matter(s, r);
    SMove m;
    /* Tableau to foundation. */
    for (int c = 0; c < ncols; c++) {
        if (!s->len[c]) continue;
        int len = s->len[c];
        int card = s->col[c][len - 1];
        if (card_rank(card) != s->found[card_suit(card)] + 1) continue;
        int progress = len == 1 || len - 1 == s->down[c];
        memset(&m, 0, sizeof m);
        m.kind = K_T2F; m.src = (uint8_t)c; m.dst = DST_FOUND; m.count = 1;
        m.card = (uint8_t)card;
        m.score = (int16_t)(progress && len > 1 ? 100 + s->down[c] : 30);
        out[n++] = m;
    }
    /* Tableau to tableau: each face-up card that may head a run looks up
     * the columns topped by the two cards it may go on. */
    int8_t top_col[52];
    memset(top_col, -1, sizeof top_col);
    for (int d = 0; d < ncols; d++)
        if (s->len[d]) top_col[s->col[d][s->len[d] - 1]] = (int8_t)d;
    /* The cards that have somewhere to go: a column top to go on, or an
     * empty column. */
    uint64_t movers = parent_in(s->top_mask);
    if (empty >= 0) movers |= r->any_empty ? ~0ULL : RANK_MASK(13);
    for (int c = 0; c < ncols; c++) {
        int len = s->len[c], down = s->down[c];
        if (!len || !(s->col_mask[c] & movers)) continue;
        int first = run_base(s, r, c), last = r->partial ? len : first + 1;
        for (int i = first; i < last; i++) {
            int card = s->col[c][i], rank = card_rank(card);
            if (!(movers >> card & 1)) continue;
            int dests[2 + NCOLS], nd = 0;
            if (rank < 13) {
                /* The cards one rank up of the other colour. */
                int lo = card_red(card) ? 0 : 1, hi = card_red(card) ? 3 : 2;
                if (top_col[lo * 13 + rank] >= 0) dests[nd++] = top_col[lo * 13 + rank];
                if (top_col[hi * 13 + rank] >= 0) dests[nd++] = top_col[hi * 13 + rank];
            }
            /* Rules 3 and 4: only the first empty column, and never a whole
             * column with nothing face down (where they hold). */
            if (empty >= 0 && (i > 0 || ordered) && (r->any_empty || rank == 13)) {
                if (!ordered) dests[nd++] = empty;
                else
                    for (int d = empty; d < ncols; d++)
                        if (!s->len[d]) dests[nd++] = d;
            }
            for (int k = 0; k < nd; k++) {
                int d = dests[k], to_empty = !s->len[d];
                if (d == c) continue;
                if (!to_empty && i > down && (o->prune & PRUNE_TWINS) && r->partial
                    && s->col[c][i - 1] == twin_of(s->col[d][s->len[d] - 1])) {
                    FIRE(o, 7); /* a run moved between twins is undone by the normalization */
                    continue;
                }
                memset(&m, 0, sizeof m);
                m.kind = K_T2T; m.src = (uint8_t)c; m.dst = (uint8_t)d;
                m.count = (uint8_t)(len - i);
                m.score = (int16_t)(i > down ? (to_empty ? 5 : 10)
                                    : down ? (to_empty ? 80 : 90) + down : 40);
                out[n++] = m;
            }
        }
    }
    /* Talon (waste after k draws) to foundation and tableau; or a deal. */
    if (!r->deals) {
        n += talon_moves(s, r, o, top_col, movers, empty, out + n);
    } else if (s->tlen) {
        memset(&m, 0, sizeof m);
        m.kind = K_DEAL;
        m.count = (uint8_t)(s->tlen < ncols ? s->tlen : ncols);
        m.score = DEAL_SCORE;
        out[n++] = m;
    }
    /* Foundation to tableau. */
    /* Rule 2: a card that would be safe to play home from the tableau is
     * not recalled: that cannot help (the position after the recall is no
     * better than the one it came from, by rule 1's proof). */
    if (r->recall)
        for (int suit = 0; suit < 4; suit++) n += recalls_of(s, r, o, suit, empty, out + n);
    /* Rule 7: two-move steps from the other twin arrangement. */
    if ((o->prune & PRUNE_TWINS) && r->partial) {
        TwinPair tp[26];
        int np = twin_pairs(s, tp), base_n = n;
        for (int p = 0; p < np; p++) {
            int c = tp[p].col_low, h = tp[p].col_high;
            SMove pre = {0};
            pre.pre_src = (uint8_t)c; pre.pre_dst = (uint8_t)h;
            pre.pre_count = (uint8_t)(s->len[c] - 1 - tp[p].idx_low);
            if (card_rank(tp[p].low) == s->found[card_suit(tp[p].low)] + 1) {
                m = pre;
                m.kind = K_T2F; m.src = (uint8_t)c; m.dst = DST_FOUND; m.count = 1;
                m.card = (uint8_t)tp[p].low;
                m.score = 29;
                out[n++] = m;
            }
            for (int i = 0; i < base_n; i++) {
                m = out[i];
                if (m.dst != h || (m.kind == K_T2T && (m.src == c || m.src == h))
                    || m.kind == K_T2F || (m.kind == K_TAL && m.dst == DST_FOUND))
                    continue;
                m.pre_src = pre.pre_src; m.pre_dst = pre.pre_dst; m.pre_count = pre.pre_count;
                m.dst = (uint8_t)c;
                m.score = (int16_t)(m.score - 1);
                out[n++] = m;
            }
        }
    }
    if (o->seed) {
        uint64_t st = o->seed ^ (s->talh * 31 + s->colh[0] + s->colh[3]);
        for (int i = 0; i < n; i++) out[i].score = (int16_t)(out[i].score + (int)(splitmix(&st) % 24));
    }
    sort_moves(out, n);
    return n;
}

/* Rule 14's one move: `card` (the next of its suit) goes home from the top
 * of its column, from under a run that moves onto its exposed twin first
 * (rule 7), or from the talon.  The same as gen_moves's foundation moves of
 * the card, without building the others. */
static int successor_moves(const State *s, const Rules *r, const Options *o, int card,
                           SMove *out)
{
    SMove m = {0};
    m.dst = DST_FOUND; m.count = 1; m.card = (uint8_t)card;
    int c = s->at_col[card];
    if (c >= 0) {
        int i = s->at_idx[card], len = s->len[c], twin = twin_of(card), h = s->at_col[twin];
        m.kind = K_T2F; m.src = (uint8_t)c;
        if (i == len - 1) {
            out[0] = m;
            return 1;
        }
        if ((o->prune & PRUNE_TWINS) && r->partial && i >= s->down[c] && card_suit(card) < 2 && h >= 0
            && s->at_idx[twin] == s->len[h] - 1) {
            m.pre_src = (uint8_t)c; m.pre_dst = (uint8_t)h; m.pre_count = (uint8_t)(len - 1 - i);
            out[0] = m;
            return 1;
        }
    } else if (s->tal_mask >> card & 1) {
        m.kind = K_TAL;
        if (!pointer_matters(r)) {
            const uint8_t *at = memchr(s->talon, card, (size_t)s->tlen);
            m.q = (uint8_t)(at - s->talon + 1); m.recycle = (uint8_t)(m.q < s->ptr);
            out[0] = m;
            return 1;
        }
        /* (The hasty side search: only if the card is within reach.) */
        uint8_t qs[2 * MAXC + 2], recs[2 * MAXC + 2];
        int nt = talon_targets(s, r, qs, recs);
        for (int t = 0; t < nt; t++)
            if (s->talon[qs[t] - 1] == card) {
                m.q = qs[t]; m.recycle = recs[t];
                out[0] = m;
                return 1;
            }
    }
    return 0;
}

/* gen_moves's moves that put a run, talon card or foundation card on
 * `card`, the top of column `col` (unsorted). */
static int moves_onto(const State *s, const Rules *r, const Options *o, int card, int col,
                      SMove *out)
{
    int n = 0, rank = card_rank(card);
    SMove m;
    int fits[2] = {(card_red(card) ? 0 : 1) * 13 + rank - 2, (card_red(card) ? 3 : 2) * 13 + rank - 2};
    for (int k = 0; k < 2 && rank > 1; k++) {
        int fit = fits[k], c = s->at_col[fit];
        memset(&m, 0, sizeof m);
        m.dst = (uint8_t)col; m.count = 1; m.card = (uint8_t)fit;
        if (c >= 0) {
            int i = s->at_idx[fit], down = s->down[c];
            if (c == col || i < down || (!r->partial && i > down)) continue;
            if (i > down && (o->prune & PRUNE_TWINS) && r->partial && s->col[c][i - 1] == twin_of(card)) {
                FIRE(o, 7); /* as in gen_moves */
                continue;
            }
            m.kind = K_T2T; m.src = (uint8_t)c; m.count = (uint8_t)(s->len[c] - i); m.card = 0;
            m.score = (int16_t)(i > down ? 10 : down ? 90 + down : 40);
            out[n++] = m;
        } else if (s->tal_mask >> fit & 1) {
            uint8_t qs[2 * MAXC + 2], recs[2 * MAXC + 2];
            int nt = talon_targets(s, r, qs, recs);
            if (talon_card_stuck(s, r, o, fit)) continue; /* as in gen_moves */
            for (int t = 0; t < nt; t++) {
                if (s->talon[qs[t] - 1] != fit) continue;
                m.kind = K_TAL; m.q = qs[t]; m.recycle = recs[t];
                m.score = (int16_t)(50 - (recs[t] ? 8 : 0));
                out[n++] = m;
            }
        } else if (r->recall && s->found[card_suit(fit)] == rank - 1
                   && !((o->prune & PRUNE_SAFE_MOVES) && is_safe(s, r, fit))) {
            m.kind = K_F2T; m.src = (uint8_t)card_suit(fit);
            out[n++] = m;
        }
    }
    return n;
}

/* Rule 10's moves after a talon card went on column `pc`: those that put
 * something on it (see pending_applies), built alone. */
static int pending_moves(const State *s, const Rules *r, const Options *o, int card, int pc,
                         SMove *out)
{
    int n = moves_onto(s, r, o, card, pc, out);
    sort_moves(out, n);
    return n;
}

#endif /* BONANZA_SEARCH_MOVES_H */
