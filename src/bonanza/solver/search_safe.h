/*
 * search_safe.h: safe foundation moves (rules 1, 2, 5, 6 and 12).
 *
 * Part of bonanza.solver._search: _search.c includes it, after <Python.h>
 * (which sets the feature macros), and builds everything as one
 * translation unit.
 */
#ifndef BONANZA_SEARCH_SAFE_H
#define BONANZA_SEARCH_SAFE_H

#include "search_cards.h"
#include "search_path.h"
#include "search_state.h"

/* ---- safe foundation moves (rules 1 and 2) ------------------------------ */

/*
 * May `card`, the next card of its suit, go home without losing a win?
 * Let r be its rank, `opp` the lower of the two opposite-colour foundations
 * and `same` the other same-colour foundation.
 *
 * Aces and twos: always.  Nothing can be built on an ace; only aces of the
 * other colour on a two, and an ace can always go home instead.
 *
 * Recall off (Blake & Gent's rule): safe if opp >= r - 1, or if opp >= r - 2
 * and same >= r - 3.  Proof sketch: the cards that could ever be built on the
 * card, directly or through a chain, are the opposite-colour (r - 1)s and on
 * them the other same-colour (r - 2); every other candidate is already home
 * and cannot come back.  Whenever a winning line puts one of those on the
 * card (or on one of them), the line with the card home can play it to its
 * foundation instead (its predecessor is home by the two conditions), and
 * every other move of the line stays legal with these cards removed.
 *
 * Recall on: a card already home may come back and serve as a base, so the
 * chain above is not closed (a recalled black 4 on a red 5 can take a red 3
 * that is not home; the rule above would lose such wins).  Safe only if
 * opp >= r - 1 and same >= r - 2.  Proof sketch: let D be every card of rank
 * <= r - 2, the opposite-colour (r - 1)s and the card's own (r - 1).  All of
 * D is home, and any card that may be built on the card or on a card of D is
 * in D.  Take a winning line and delete every move of a card of D and of the
 * card itself (including recalls of them): no card outside D is ever put on
 * them, so every remaining move is still legal (foundations only hold more
 * cards, runs lose only D cards on their top), and the line still wins.
 *
 * Where the stock deals onto every column (Easthaven, and only with partial
 * runs: see prune_for): the rule with recall on, whatever recall says, and
 * twos are no exception (a two is safe when both opposite aces are home).  A
 * deal may put any card on the card or on a D card, so the chain argument
 * of the rule without recall fails, but the proof with recall on holds, with
 * deals.  Delete the moves of D cards and of the card from a winning line;
 * then each column is, at every step, the line's column without its D cards
 * (all home), with no more cards face down.  A run the line moves, less its
 * D cards (they lie at its top: a card that goes on a D card is in D), is
 * the top of its column, built, and face up, so with partial runs it may
 * move; its base is not in D, so neither is the card it goes on, which tops
 * its column in both; a deal puts the same stock cards on the same columns;
 * a card the line sends home or recalls is not in D and the top of its pile
 * in both (its suit's D cards are a run up from the ace below it); a turn-up
 * of the line is one here, or was made earlier.  Without partial runs it
 * fails: cards that lay apart around a D card may form a longer run, which
 * must then move whole.
 */
/* The lower of the two foundations of the other colour than `card`. */
static inline int opposite_home(const State *s, int card)
{
    return card_red(card) ? (s->found[0] < s->found[3] ? s->found[0] : s->found[3])
                          : (s->found[1] < s->found[2] ? s->found[1] : s->found[2]);
}

static inline int is_safe(const State *s, const Rules *r, int card)
{
    int rank = card_rank(card), suit = card_suit(card);
    if (rank <= 2 && !r->deals) return 1;
    int opp = opposite_home(s, card);
    /* Suits C D H S are 0 1 2 3: the same-colour partner of suit s is 3 - s. */
    int same = s->found[3 - suit];
    if (r->recall || r->deals) return opp >= rank - 1 && same >= rank - 2;
    return opp >= rank - 1 || (opp >= rank - 2 && same >= rank - 3);
}

/*
 * Rule 12 (recall on): a card that is not safe may still go home at once,
 * from the talon with draw 1 and unlimited passes, or from the top of a
 * column where it lies face up on a card it fits on, when it is "nearly
 * safe": opp >= r - 2 and same >= r - 3, as rule 1 asks with recall off.
 *
 * Proof sketch.  Let D be the cards of its suit below it, the cards of rank
 * <= r - 2 of the other colour and those of rank <= r - 3 of the twin suit.
 * All are home, each suit's share of D is a run up from its ace, and any card
 * that may go on a card of D is in D.  So from a winning line every move of a
 * D card can be deleted, as in rule 1, and the line still wins; in it the
 * card's own predecessor never leaves home.  Now play that line with the card
 * home: until the line plays the card (or moves what it lies on, or puts
 * something on it), every move is the same (its successor cannot go home
 * before it does; rule 5: the talon's other cards can be reached as
 * before); then recall the card to wherever the line plays it (or to the
 * card it lay on), and the two positions are the same.
 */
static int nearly_safe(const State *s, int card)
{
    int rank = card_rank(card);
    return opposite_home(s, card) >= rank - 2 && s->found[3 - card_suit(card)] >= rank - 3;
}

/*
 * Keeping out (rule 12).  A card that a recall puts on a card is *kept out*
 * (State.kept_out) for as long as it tops its column: rule 12 does not send
 * it home again.  Without that, a recall onto a card that the card fits on
 * would be undone by the next step, and no line could use it.
 *
 * Why the search stays complete.  Let w(P) be the least number of moves,
 * not counting recalls onto a card, of a line that wins from P.  Sending a
 * nearly safe card c home from the card it lies on does not raise w: a
 * winning line from the position with c out is followed with c home, until
 * its first move of c or onto c; c going home is then dropped, c going onto
 * another card becomes a recall there, and before a card goes onto c, c is
 * recalled onto the card it lay on.  From then on c is kept out, so the two
 * lines meet.  From any position the search enters, every recall onto a
 * card is tried (rule 2 aside, whose proof is rule 1's), and the recalled
 * cards stay out together, however many, until the line covers them; so the
 * search meets each winning line's first move that is not such a recall,
 * and w falls by one.
 *
 * Why the table may share an entry between positions that differ only in
 * kept_out, which is not in the key (a position reached along two paths may
 * have different cards kept out).  kept_out is read in one place, here in
 * top_goes_home; the key, the moves generated, the dead-end test, the twins
 * and the talon rules read the position alone.  So two arrivals at one
 * position P, with kept sets K and K', differ only in which of rule 12's
 * firings the safe moves after later steps make.  The search ends "lost"
 * only when every position stored was expanded once, under the kept set of
 * its first arrival.  Suppose the root is winnable, and order winnable
 * positions by mu = (w, rho), lexicographically, where rho is the least
 * number of recalls onto a card among the lines that win in w other moves.
 * Take a stored winnable position P of least mu that was expanded (one that
 * rule 9 only marked seen has an expanded copy with a waste that reaches
 * every talon card it reaches, so whose mu is no larger), K the kept set it
 * was expanded under, and L a line of least mu from P.
 *   - If L starts with a recall of a card c onto a card, the search tries it
 *     (rule 2 drops only recalls of safe cards, and a line of least mu
 *     recalls none: rule 1's proof deletes such a recall and no other move
 *     of w).  In the child, c is kept out whatever K held (apply_move keeps
 *     a card recalled onto a card), and the safe moves play nothing: a recall
 *     lowers a foundation, which makes no card safe or nearly safe, and the
 *     only new top is c.  The child's mu is at most (w, rho - 1).
 *   - Else L's first move m is tried, and its child is P after m and the
 *     safe moves.  Each card that rule 1, 5 or 6 sends there does not raise
 *     w (their proofs delete moves from a line), nor does one that rule 12
 *     sends (the argument above), and a card K keeps out is not sent, which
 *     changes nothing.  So w falls by one, whichever cards K keeps out.
 * The child is won (and the search did not end lost), or dropped as hopeless
 * (impossible: it is winnable), or stored, now or before: a winnable stored
 * position of smaller mu, against the choice of P.  K entered nowhere, so
 * the entry stored under one kept set answers for every other.  (The
 * differential check: SIDE_KEPT_HITS counts the table hits on an entry
 * stored under another kept set, SIDE_KEPT_KEYED puts the set in the key;
 * benchmarks/soundness.py and tests/solver/test_kept_out.py compare the
 * verdicts with it and with rule 12 off.)
 *
 * Rule 13, removed.  It sent the next card of its suit home from any card it
 * fitted on (a recall puts it back), and after a recall onto a card it tried
 * only the moves that need the recalled card, since "any other move is also
 * a move of the position before the recall, and after it the card goes home
 * again".  That step was false: the position before the recall may itself
 * have been entered by a recall, and try only the moves that need its own
 * card, so the two restrictions sent each other round in a circle.  With the
 * ten of spades recalled onto a red jack, the nine of hearts onto the ten
 * and the nine of spades onto the ten of hearts must both be out before the
 * eight of spades can come back onto the nine of hearts; after either recall
 * the other needs nothing the first put out, and was dropped.  Besides, a
 * card recalled onto a card went home again at the next step (nothing kept
 * it out), so two such cards could never lie out at once.  Deal
 * GuZETjDXmm2KYEXxs3R2nWKR5urtqB1PCDGQQcr (draw 1) was called lost.  Without
 * its restriction, and with keeping out, the rule is sound, but it cost
 * nodes (first 300 draw-1 deals: 37.1 M with it, 33.2 M without), so it went.
 */
/* Does the next card of its suit, the top of column c, go home at once?
 * 0 if not, else the rule that sends it (1 or 12). */
static int top_goes_home(const State *s, const Rules *r, const Options *o, int c, int card)
{
    if (is_safe(s, r, card)) return 1;
    if (!r->recall || (s->kept_out >> card & 1)) return 0;
    int len = s->len[c];
    if (len - 1 <= s->down[c] || !fits_on(card, s->col[c][len - 2])) return 0;
    return (o->prune & PRUNE_NEARLY_SAFE) && nearly_safe(s, card) ? 12 : 0;
}

/* Play every safe foundation move (rules 1, 5, 6).  0 on memory failure. */
static int play_safe_moves(Search *x)
{
    State *s = &x->s;
    const Rules *r = &x->r;
    const Options *o = &x->o;
    int progress = (o->prune & PRUNE_SAFE_MOVES) != 0;
    while (progress) {
        progress = 0;
        uint64_t next = 0;
        for (int suit = 0; suit < 4; suit++)
            if (s->found[suit] < 13) next |= 1ULL << (13 * suit + s->found[suit]);
        for (uint64_t tops = s->top_mask & next; tops; tops &= tops - 1) {
            int card = __builtin_ctzll(tops);
            int rule = top_goes_home(s, r, o, s->at_col[card], card);
            if (rule) {
                FIRE(o, rule);
                SMove m = {0};
                m.kind = K_T2F;
                m.src = (uint8_t)s->at_col[card];
                m.dst = DST_FOUND;
                m.count = 1;
                if (!play(x, m)) return 0;
                progress = 1;
            }
        }
        if (r->draw != 1 || !s->tlen || r->deals) continue;
        /* Rule 6 (draw 1): a safe waste top goes home.  A winning line from
         * the position with the card still in the waste maps to one from the
         * position without it: skip the card's own moves and, later, the
         * single draw that would turn it; with draw 1 every other draw turns
         * the same card in both lines and the recycles match.
         * Rule 5 (draw 1, unlimited passes): the same for any talon card,
         * since the pointer does not matter (see pointer_matters). */
        if (!(s->tal_mask & next)) continue;
        int lo = r->recycles_allowed < 0 ? 0 : s->ptr - 1;
        int hi = r->recycles_allowed < 0 ? s->tlen - 1 : s->ptr - 1;
        for (int i = lo >= 0 ? lo : 0; i <= hi && lo >= 0; i++) {
            int card = s->talon[i];
            int rule = !(next >> card & 1) ? 0
                     : is_safe(s, r, card) ? (pointer_matters(r) ? 6 : 5)
                     : r->recycles_allowed < 0 && r->recall && (o->prune & PRUNE_NEARLY_SAFE)
                       && nearly_safe(s, card) ? 12 : 0;
            if (rule) {
                FIRE(o, rule);
                SMove m = {0};
                m.kind = K_TAL;
                m.q = (uint8_t)(i + 1);
                m.recycle = (uint8_t)(i + 1 < s->ptr);
                m.dst = DST_FOUND;
                m.count = 1;
                if (!play(x, m)) return 0;
                progress = 1;
                break;
            }
        }
    }
    return 1;
}

#endif /* BONANZA_SEARCH_SAFE_H */
