/*
 * search_wide.h: the generic search in C, for the games the Klondike core
 * does not take: two decks (Double Klondike), any column count up to ten.
 *
 * It is solver/generic.py's search, move for move: the same legal moves in
 * the engine's order (Position.legal_moves), sorted into the same buckets
 * (generic.move_order), the same depth-first order, the same positions
 * merged (generic.position_key, as a 128-bit hash with one value for each
 * value of that key: w_key), and the same count of positions, so both
 * searches give the same verdict, line, node count and table size at any
 * node limit
 * (tests/solver/test_wide.py checks it).  Only memory is its own: the bytes
 * it holds (16 a table slot, in the core's table, which grows to what the
 * budget holds; the path), within the core's budget (WIDE_DEFAULT_MEMORY
 * unless given).  Nothing is pruned
 * (but under solve, with its prune flags, the hopeless positions of
 * search_wide_dead_ends.h and rule 10's moves, search_wide_run.h): "unsolvable" means every position reachable was
 * searched.  It keeps the engine's card
 * ids (0-103), as the engine's move order depends on them, and renames
 * twins as Position._send_home does.
 *
 * Talon macros (WRules.macro, asked for by solve, not by the fair hints'
 * samples, which keep the Python search's answers): with draw 1 and
 * unlimited passes the search stops copying the Python one.  Let T be the
 * talon in draw order, the waste from its bottom up and then the stock from
 * its next card on.  A draw moves the stock's next card onto the waste and a
 * recycle turns the waste over into the stock: neither changes T, only how
 * many of its cards are in the waste (the pointer), and from any pointer
 * draws and a recycle reach any other (draw to the end, recycle, draw on),
 * touching nothing else.  So positions that differ only in the pointer reach
 * each other, and are won or lost together: the key leaves the pointer (and
 * the recycles) out, the talon is kept as T alone (in `waste`), and a
 * position's moves are its other moves and every talon card T[i] played
 * where it may go, as the waste top at pointer i + 1 would be; the draws are
 * left out (they stay within the position).  Every move of every position of
 * the class is so a move of the class, and every such move is one: nothing
 * won is lost.  The line comes back with each talon play naming i, and
 * wide.py puts the draws and the recycle in front of it from the actual
 * pointer.
 *
 * Stepped talon macros (any other draw or pass limit): the pointer matters
 * and stays in the key, but the draws still make no positions of their own.
 * Draws and recycles touch nothing but the pointer and the recycle count,
 * so in a winning line they can be put off until just before the next play
 * from the waste (the moves in between do not look at the talon), and a
 * line that plays no waste card after them needs none of them.  So a
 * position's moves are its other moves and the plays of each card that
 * draws (and at most one recycle, where passes are left) make the waste
 * top; a card that draws reach within this pass is not played after a
 * recycle (the same position with a recycle fewer left, which it
 * dominates).  This is the Klondike core's stock rule (Bjarnason, Fern and
 * Tadepalli; _search.c).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_WIDE_H
#define BONANZA_SEARCH_WIDE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "search_cards.h"
#include "search_zobrist.h"

#define W_COLS 10                 /* columns at most (Westcliff's ten) */
#define W_HEIGHT 64               /* cards in a column at most (given + 13) */
#define W_CARDS 104               /* two decks */
#define W_FOUNDS 8
#define W_RANKS 13
#define W_DECK 52
#define W_MOVES_MAX 4096          /* moves of one position at most (see w_legal_moves) */
#define W_CLOCK_EVERY 256         /* generic.CLOCK_EVERY */

/* The engine's pile number of foundation h (the core's P_* for the rest:
 * search_cards.h); the second deck's are 16-19 (core.moves.Pile). */
#define W_FOUND2 16
static inline int w_found_pile(int h) { return h < 4 ? P_FOUND + h : W_FOUND2 + h - 4; }

enum { W_PLAIN, W_MERGED, W_STEPPED }; /* WRules.macro */

/* generic.py's buckets (move_order), most promising first. */
enum { W_SAFE_HOME, W_TURNS_UP, W_HOME, W_FREEING, W_STOCK_MOVE, W_TABLEAU, W_RECYCLE, W_RECALL };

/* Where a move goes or comes from, beside a column (0..W_COLS-1). */
enum { W_AT_STOCK = 100, W_AT_WASTE = 101, W_AT_TALON = 102, W_AT_FOUND = 110 /* + foundation */ };

typedef struct {
    int ncols, decks, draw, recycles_allowed; /* recycles_allowed < 0: unlimited */
    int any_empty, recall, partial;
    int macro; /* W_PLAIN, or talon macros: W_MERGED (draw 1, unlimited passes), W_STEPPED */
} WRules;

typedef struct {
    uint8_t col[W_COLS][W_HEIGHT];
    uint8_t len[W_COLS], down[W_COLS];
    uint8_t stock[W_CARDS], waste[W_CARDS]; /* next to draw / top last */
    uint8_t nstock, nwaste;
    uint8_t ptr; /* talon macros: the pointer the position was met with (see w_legal_moves) */
    uint8_t found[W_FOUNDS];
    int recycles;
    /* The key's hashes, kept as the piles change (search_wide_key.h): each
     * column's (colh, where `hashed` has its bit), the stock's and the
     * waste's (pileh, where it has W_TALON_HASHED); each column's term of the
     * key (colt, where it has W_TERMED(c)) and their sum (colsum, always
     * the sum of colt, where it has W_SUMMED); a state made whole (w_build,
     * w_decode) has none, and w_key makes them. */
    uint64_t colh[W_COLS][2], pileh[2][2], colt[W_COLS][2], colsum[2];
    uint32_t hashed;
} WState;

#define W_TALON_HASHED (1u << W_COLS)
#define W_SUMMED (1u << (W_COLS + 1))
#define W_TERMED(c) (1u << (16 + (c)))

/* Two random words (the key's and its check's) for each place in a pile and
 * each card, twins alike: a pile's hash is the exclusive or of its cards'
 * words at their places (filled at the module's import, w_init_hashes). */
static uint64_t w_card_words[W_CARDS][W_DECK][2];

/* Put `n` cards into, or take them out of, a pile's hash h, from place `at` on. */
static inline void w_hash_cards(uint64_t *h, const uint8_t *cards, int at, int n)
{
    for (int i = 0; i < n; i++) {
        const uint64_t *words = w_card_words[at + i][cards[i] - (cards[i] >= W_DECK) * W_DECK];
        h[0] ^= words[0];
        h[1] ^= words[1];
    }
}

typedef struct {
    uint8_t src, dst, count, bucket; /* src, dst: columns, W_AT_* */
    uint8_t index;                   /* W_AT_TALON: the card's place in the talon (T) */
    uint8_t recycle;                 /* W_AT_TALON, stepped: played after a recycle */
} WMove;

/* The core's card helpers (search_cards.h) for ids of either deck. */
static inline int w_rank(int card) { return card_rank(card % W_DECK); }
static inline int w_suit(int card) { return card_suit(card % W_DECK); }
static inline int w_red(int card) { return card_red(card % W_DECK); }

static int w_won(const WState *s, const WRules *r)
{
    for (int h = 0; h < 4 * r->decks; h++)
        if (s->found[h] != W_RANKS) return 0;
    return 1;
}

/* Position._home_card: a rank home once is the twin c + 52; when both are
 * home, c comes off first. */
static int w_home_card(const WState *s, const WRules *r, int home)
{
    int height = s->found[home], suit = home % 4, card = suit * W_RANKS + height - 1;
    if (r->decks == 1) return card;
    int both = (s->found[suit] >= height) + (s->found[suit + 4] >= height) > 1;
    return both ? card : card + W_DECK;
}

/* Position._send_home: with two decks, a rank home once is the twin c + 52,
 * so the twin still out becomes c (the first met in the columns, the stock,
 * then the waste). */
static void w_send_home(WState *s, const WRules *r, int card, int home)
{
    s->found[home]++;
    if (card >= W_DECK || r->decks == 1) return;
    int suit = home % 4, rank = w_rank(card);
    if ((s->found[suit] >= rank) + (s->found[suit + 4] >= rank) > 1) return;
    int twin = card + W_DECK;
    for (int c = 0; c < r->ncols; c++)
        for (int i = 0; i < s->len[c]; i++)
            if (s->col[c][i] == twin) { s->col[c][i] = (uint8_t)card; return; }
    for (int i = 0; i < s->nstock; i++)
        if (s->stock[i] == twin) { s->stock[i] = (uint8_t)card; return; }
    for (int i = 0; i < s->nwaste; i++)
        if (s->waste[i] == twin) { s->waste[i] = (uint8_t)card; return; }
}

/* Position.apply. */
static void w_apply(WState *s, const WRules *r, WMove m)
{
    if (m.src >= W_COLS && m.src < W_AT_FOUND) s->hashed &= ~W_TALON_HASHED; /* (the talon moves) */
    if (m.dst == W_AT_STOCK) { /* a recycle */
        for (int i = 0; i < s->nwaste; i++) s->stock[i] = s->waste[s->nwaste - 1 - i];
        s->nstock = s->nwaste;
        s->nwaste = 0;
        s->recycles++;
        return;
    }
    if (m.src == W_AT_STOCK) {
        for (int k = 0; k < m.count; k++) s->waste[s->nwaste++] = s->stock[--s->nstock];
        return;
    }
    uint8_t cards[W_HEIGHT];
    int n = 1;
    if (m.src < W_COLS) {
        int c = m.src;
        n = m.count;
        s->len[c] = (uint8_t)(s->len[c] - n);
        memcpy(cards, &s->col[c][s->len[c]], (size_t)n);
        if (s->len[c] && s->len[c] == s->down[c]) s->down[c]--;
        if (s->hashed >> c & 1) w_hash_cards(s->colh[c], cards, s->len[c], n);
        s->hashed &= ~W_TERMED(c);
    } else if (m.src == W_AT_WASTE) {
        cards[0] = s->waste[--s->nwaste];
    } else if (m.src == W_AT_TALON) {
        cards[0] = s->waste[m.index];
        memmove(s->waste + m.index, s->waste + m.index + 1, (size_t)(s->nwaste - m.index - 1));
        s->nwaste--;
        s->ptr = m.index; /* (the waste is T[0..index) now) */
        s->recycles += m.recycle;
    } else {
        int home = m.src - W_AT_FOUND;
        cards[0] = (uint8_t)w_home_card(s, r, home);
        s->found[home]--;
    }
    if (m.dst < W_COLS) {
        if (s->hashed >> m.dst & 1) w_hash_cards(s->colh[m.dst], cards, s->len[m.dst], n);
        s->hashed &= ~W_TERMED(m.dst);
        memcpy(&s->col[m.dst][s->len[m.dst]], cards, (size_t)n);
        s->len[m.dst] = (uint8_t)(s->len[m.dst] + n);
    } else {
        w_send_home(s, r, cards[0], m.dst - W_AT_FOUND);
    }
}

/* core.safety.never_needed. */
static int w_never_needed(const WState *s, const WRules *r, int card)
{
    static const int twin_suit[4] = {3, 2, 1, 0};
    int rank = w_rank(card);
    if (rank <= 2) return 1;
    if (r->recall && r->decks > 1) return 0;
    int opposite = W_RANKS;
    for (int h = 0; h < 4 * r->decks; h++)
        if (w_red(h % 4 * W_RANKS) != w_red(card) && s->found[h] < opposite) opposite = s->found[h];
    if (opposite < rank - 1) return 0;
    return !r->recall || s->found[twin_suit[w_suit(card)]] >= rank - 2;
}

/* Is talon play m (talon macros) of the waste's top card, with no draw? */
static inline int w_waste_top(const WState *s, WMove m)
{
    return m.index + 1 == s->ptr && !m.recycle;
}

/* generic._bucket (the moving card of a move home is the top of its source). */
static int w_bucket(const WState *s, const WRules *r, WMove m)
{
    if (m.src >= W_AT_FOUND) return W_RECALL;
    if (m.dst == W_AT_STOCK) return W_RECYCLE;
    if (m.src == W_AT_STOCK) return W_STOCK_MOVE;
    if (m.dst >= W_AT_FOUND) {
        int card = m.src == W_AT_WASTE ? s->waste[s->nwaste - 1]
                 : m.src == W_AT_TALON ? s->waste[m.index] : s->col[m.src][s->len[m.src] - 1];
        if (w_never_needed(s, r, card)) return W_SAFE_HOME;
        /* (A talon card under talon macros but the waste top: after draws.) */
        return m.src == W_AT_TALON && !w_waste_top(s, m) ? W_STOCK_MOVE : W_HOME;
    }
    if (m.src == W_AT_WASTE || (m.src == W_AT_TALON && w_waste_top(s, m))) return W_FREEING;
    if (m.src == W_AT_TALON) return W_STOCK_MOVE;
    int down = s->down[m.src];
    if (m.count == s->len[m.src] - down) return down ? W_TURNS_UP : W_FREEING;
    return W_TABLEAU;
}

/* The cards each card (of the first deck; a twin's are the same) may go onto
 * in a column: the next rank's cards of the other colour, in id order, the
 * first deck's two and then the second deck's (a King's: none).  Filled once
 * (w_init_parents, at the module's import); the moves' loops read it instead
 * of trying every card of the next rank, which took most of their time. */
#define W_PARENTS_MOST 4
static uint8_t w_parents[W_DECK][W_PARENTS_MOST];
static uint64_t w_child_mask[W_CARDS][2]; /* the cards (both decks) that go on each card */

static void w_init_parents(void)
{
    for (int card = 0; card < W_DECK; card++) {
        int n = 0, rank = w_rank(card);
        for (int parent = rank; rank < W_RANKS && parent < W_CARDS; parent += W_RANKS)
            if (w_red(parent) != w_red(card)) {
                w_parents[card][n++] = (uint8_t)parent;
                for (int twin = card; twin < W_CARDS; twin += W_DECK)
                    w_child_mask[parent][twin / 64] |= 1ULL << twin % 64;
            }
    }
}

/* The columns' top cards: the column of each (or -1), and the cards that
 * go on one of them (w_child_mask), as a set. */
typedef struct {
    int8_t at[W_CARDS];
    uint64_t movable[2];
} WTops;

/* Is any parent of card a column's top?  (Most cards have none: one test
 * of the set spares the loop over the parents and its branches.) */
static inline int w_parent_on_top(const WTops *tops, int card)
{
    return tops->movable[card / 64] >> card % 64 & 1;
}

/* How many of w_parents[card % W_DECK] there are with r's decks. */
static inline int w_parent_count(const WRules *r, int card)
{
    return w_rank(card) < W_RANKS ? W_PARENTS_MOST / 2 * r->decks : 0;
}

static inline int w_add(WMove *out, int n, int src, int dst, int count)
{
    WMove m = {(uint8_t)src, (uint8_t)dst, (uint8_t)count, 0, 0, 0};
    out[n] = m;
    return n + 1;
}

/* _to_tableau: `card`, with the cards on it (`count` in all), from `src` to the
 * columns (its parents by id, then the empty columns). */
static inline int w_to_tableau(const WRules *r, int card, int count, int src, const WTops *tops,
                        const int *empty, int nempty, WMove *out, int n)
{
    if (w_parent_on_top(tops, card)) {
        const uint8_t *parents = w_parents[card % W_DECK];
        for (int p = 0, most = w_parent_count(r, card); p < most; p++)
            if (tops->at[parents[p]] >= 0) n = w_add(out, n, src, tops->at[parents[p]], count);
    }
    if (nempty && (r->any_empty || w_rank(card) == W_RANKS))
        for (int k = 0; k < nempty; k++) n = w_add(out, n, src, empty[k], count);
    return n;
}

/* Position.legal_moves, in its order (the engine's default stock, where a
 * draw turns cards onto the waste); under talon macros the talon's plays in
 * place of the waste's and the stock's.  At most: 10 columns x 2 home, each
 * of the 104 cards from a column or the talon x (2 home + 4 parents + 10
 * empty columns), 8 x 14 recalls and a stock move: under W_MOVES_MAX. */
static int w_legal_moves(const WState *s, const WRules *r, WMove *out)
{
    int n = 0, empty[W_COLS], nempty = 0, founds = 4 * r->decks;
    WTops tops = {.movable = {0, 0}};
    if (w_won(s, r)) return 0;
    memset(tops.at, -1, sizeof tops.at);
    for (int c = 0; c < r->ncols; c++) {
        if (s->len[c]) {
            int top = s->col[c][s->len[c] - 1];
            tops.at[top] = (int8_t)c;
            tops.movable[0] |= w_child_mask[top][0];
            tops.movable[1] |= w_child_mask[top][1];
        }
        else empty[nempty++] = c;
    }
    for (int c = 0; c < r->ncols; c++) {
        int size = s->len[c];
        if (!size) continue;
        int top = s->col[c][size - 1], suit = w_suit(top);
        if (s->found[suit] == w_rank(top) - 1) n = w_add(out, n, c, W_AT_FOUND + suit, 1);
        if (r->decks > 1 && s->found[suit + 4] == w_rank(top) - 1)
            n = w_add(out, n, c, W_AT_FOUND + suit + 4, 1);
        int first = s->down[c], last = r->partial ? size : first + 1;
        for (int at = first; at < last; at++)
            n = w_to_tableau(r, s->col[c][at], size - at, c, &tops, empty, nempty, out, n);
    }
    if (r->macro) {
        /* The talon's plays (see "Talon macros"), in the order draws from
         * the pointer would make each card the waste top: merged, every
         * card (that order is only the search's: any pointer would do);
         * stepped, the waste top, the cards the draws of this pass reach,
         * then after a recycle the others they reach. */
        int8_t reached[W_CARDS + 1] = {0};
        int order[W_CARDS * 2], recycled[W_CARDS * 2], count = 0, size = s->nwaste;
        if (r->macro == W_MERGED) {
            for (int k = 0; k < size; k++) {
                order[count] = ((s->ptr ? s->ptr - 1 : 0) + k) % size + 1;
                recycled[count++] = 0;
            }
        } else {
            if (s->ptr) { order[count] = s->ptr; recycled[count++] = 0; reached[s->ptr] = 1; }
            for (int q = s->ptr; q < size;) {
                q += size - q < r->draw ? size - q : r->draw;
                order[count] = q; recycled[count++] = 0; reached[q] = 1;
            }
            if (r->recycles_allowed < 0 || s->recycles < r->recycles_allowed)
                for (int q = 0; q < size;) {
                    q += size - q < r->draw ? size - q : r->draw;
                    if (!reached[q]) { order[count] = q; recycled[count++] = 1; }
                }
        }
        for (int k = 0; k < count; k++) {
            int i = order[k] - 1, card = s->waste[i], suit = w_suit(card), from = n;
            if (s->found[suit] == w_rank(card) - 1) n = w_add(out, n, W_AT_TALON, W_AT_FOUND + suit, 1);
            if (r->decks > 1 && s->found[suit + 4] == w_rank(card) - 1)
                n = w_add(out, n, W_AT_TALON, W_AT_FOUND + suit + 4, 1);
            n = w_to_tableau(r, card, 1, W_AT_TALON, &tops, empty, nempty, out, n);
            for (int j = from; j < n; j++) {
                out[j].index = (uint8_t)i;
                out[j].recycle = (uint8_t)recycled[k];
            }
        }
    } else if (s->nwaste) {
        int card = s->waste[s->nwaste - 1], suit = w_suit(card);
        if (s->found[suit] == w_rank(card) - 1) n = w_add(out, n, W_AT_WASTE, W_AT_FOUND + suit, 1);
        if (r->decks > 1 && s->found[suit + 4] == w_rank(card) - 1)
            n = w_add(out, n, W_AT_WASTE, W_AT_FOUND + suit + 4, 1);
        n = w_to_tableau(r, card, 1, W_AT_WASTE, &tops, empty, nempty, out, n);
    }
    if (r->recall)
        for (int h = 0; h < founds; h++)
            if (s->found[h])
                n = w_to_tableau(r, h % 4 * W_RANKS + s->found[h] - 1, 1, W_AT_FOUND + h, &tops,
                                 empty, nempty, out, n);
    if (r->macro) return n; /* (the draws stay within the position) */
    if (s->nstock) n = w_add(out, n, W_AT_STOCK, W_AT_WASTE, s->nstock < r->draw ? s->nstock : r->draw);
    else if (s->nwaste && (r->recycles_allowed < 0 || s->recycles < r->recycles_allowed))
        n = w_add(out, n, W_AT_WASTE, W_AT_STOCK, s->nwaste);
    return n;
}

/* generic._ordered without a seed: the legal moves, stably sorted by bucket. */
static int w_ordered_moves(const WState *s, const WRules *r, WMove *out)
{
    WMove all[W_MOVES_MAX];
    int n = w_legal_moves(s, r, all), at[W_RECALL + 2] = {0};
    for (int i = 0; i < n; i++) {
        all[i].bucket = (uint8_t)w_bucket(s, r, all[i]);
        at[all[i].bucket + 1]++;
    }
    for (int b = W_SAFE_HOME; b <= W_RECALL; b++) at[b + 1] += at[b];
    for (int i = 0; i < n; i++) out[at[all[i].bucket]++] = all[i]; /* (stable: a counting sort) */
    /* Under talon macros a safe card goes home at once (core.safety: no
     * winning line needs it in the tableau): from a column's top, from the
     * waste's top with draw 1, and merged from anywhere in the talon (with
     * draw 1 and unlimited passes, as free as a column's top). */
    for (int i = 0; r->macro && i < n && out[i].bucket == W_SAFE_HOME; i++)
        if (out[i].src < W_COLS || r->macro == W_MERGED
            || (r->draw == 1 && w_waste_top(s, out[i]))) {
            out[0] = out[i];
            return 1;
        }
    return n;
}

#endif /* BONANZA_SEARCH_WIDE_H */
