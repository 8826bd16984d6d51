/* The batch engine's steps: observations, outcomes, and games started, played
 * or dealt anew.
 * Part of _batch.c, which #includes it: one translation unit. */
#ifndef BONANZA_RL_BATCH_STEPS_H
#define BONANZA_RL_BATCH_STEPS_H

/* -- observations ------------------------------------------------------- */

static int8_t capped(int value) { return (int8_t)(value < COUNT_CAP ? value : COUNT_CAP); }

/* Card cells show a card's face, 0-51: twins look alike. */
static ALWAYS_INLINE void observe(const Batch *b, const Table *t, const Game *g, int8_t *o)
{
    int show_down = b->all_visible, show_stock = b->all_visible || g->recycles > 0;
    if (!show_down || !show_stock) {
        /* The last card whose place is unknown is known by elimination. */
        int unknown = show_stock ? 0 : g->stock_len;
        for (int c = 0; c < t->columns; c++)
            unknown += g->down[c];
        if (unknown <= 1)
            show_down = show_stock = 1;
    }
    for (int c = 0; c < t->columns; c++) {
        int8_t *row = o + t->o_tableau + c * t->slots;
        const uint8_t *cards = column(t, g, c);
        int size = g->len[c], down = show_down ? 0 : g->down[c];
        for (int s = 0; s < t->slots; s++)
            row[s] = s >= size ? NO_CARD : s < down ? HIDDEN : (int8_t)face_of(cards[s]);
        o[t->o_down + c] = (int8_t)g->down[c];
    }
    for (int s = 0; s < t->talon; s++)
        o[t->o_stock + s] = s >= g->stock_len ? NO_CARD
                            : show_stock      ? (int8_t)face_of(g->stock[g->stock_len - 1 - s])
                                              : HIDDEN;
    for (int f = 0; f < t->foundations; f++)
        o[t->o_foundations + f] = (int8_t)g->home[f];
    o[t->o_stock_size] = (int8_t)g->stock_len;
    if (t->every_column)
        return;
    for (int s = 0; s < t->talon; s++)
        o[t->o_waste + s] =
            s >= g->waste_len ? NO_CARD : (int8_t)face_of(g->waste[g->waste_len - 1 - s]);
    o[t->o_waste_size] = (int8_t)g->waste_len;
    o[t->o_recycles] = capped(g->recycles);
    o[t->o_recycles_left] =
        b->recycles_allowed < 0 ? COUNT_CAP : capped(b->recycles_allowed - g->recycles);
}

static void set_outcome(Batch *b, Py_ssize_t i, double reward, int terminated, int truncated)
{
    ((double *)b->reward.buf)[i] = reward;
    ((uint8_t *)b->terminated.buf)[i] = (uint8_t)terminated;
    ((uint8_t *)b->truncated.buf)[i] = (uint8_t)truncated;
}

/* Write game i's observation and mask; return its number of legal actions. */
static ALWAYS_INLINE int publish_on(Batch *b, const Table *t, Py_ssize_t i)
{
    Game *g = &b->games[i];
    int legal = find_legal(b, t, g, (uint8_t *)b->mask.buf + i * t->actions);
    observe(b, t, g, (int8_t *)b->obs.buf + i * t->obs_size);
    return legal;
}

/* Play legal action a in game i and write its row. */
static ALWAYS_INLINE void play_on(Batch *b, const Table *t, Py_ssize_t i, int a)
{
    Game *g = &b->games[i];
    int home = cards_home(t, g);
    int turned = apply(b, t, g, a);
    g->steps++;
    int legal = publish_on(b, t, i);
    int now_home = cards_home(t, g);
    int won = now_home == t->cards;
    double reward = (won ? 1.0 : 0.0) + b->home_reward * (now_home - home) +
                    b->turned_reward * turned;
    int terminated = won || legal == 0;
    int truncated = !terminated && b->max_steps > 0 && g->steps >= b->max_steps;
    set_outcome(b, i, reward, terminated, truncated);
    g->pending_reset = (uint8_t)(terminated || truncated);
}

/* The engine twice: once on KLONDIKE, whose sizes the compiler folds in, and
 * once on the batch's own table. */
static void publish_klondike(Batch *b, Py_ssize_t i) { publish_on(b, &KLONDIKE, i); }
static void publish_table(Batch *b, Py_ssize_t i) { publish_on(b, &b->t, i); }
static void play_klondike(Batch *b, Py_ssize_t i, int a) { play_on(b, &KLONDIKE, i, a); }
static void play_table(Batch *b, Py_ssize_t i, int a) { play_on(b, &b->t, i, a); }

static void publish(Batch *b, Py_ssize_t i)
{
    if (b->klondike)
        publish_klondike(b, i);
    else
        publish_table(b, i);
}

static void play_legal(Batch *b, Py_ssize_t i, int a)
{
    if (b->klondike)
        play_klondike(b, i, a);
    else
        play_table(b, i, a);
}

/* Start game i on a deal's cards: a clean mask, then its row. */
static void start(Batch *b, Py_ssize_t i, const uint8_t *cards)
{
    Game *g = &b->games[i];
    deal_cards(&b->t, g, cards);
    memset(g->mask, 0, (size_t)b->t.actions);
    memset((uint8_t *)b->mask.buf + i * b->t.actions, 0, (size_t)b->t.actions);
    g->legal_count = 0;
    publish(b, i);
}

/* An illegal action under `penalize`: the game stays as it is, the step counts. */
static void idle(Batch *b, Py_ssize_t i)
{
    Game *g = &b->games[i];
    g->steps++;
    int truncated = b->max_steps > 0 && g->steps >= b->max_steps;
    set_outcome(b, i, -b->illegal_penalty, 0, truncated);
    g->pending_reset = (uint8_t)truncated;
}

static void new_deal(Batch *b, Py_ssize_t i)
{
    Game *g = &b->games[i];
    uint8_t deck[MAX_CARDS];
    g->deal = splitmix64(&g->rng);
    g->has_number = 1;
    shuffle(g->deal, b->t.decks, deck);
    start(b, i, deck);
    set_outcome(b, i, 0.0, 0, 0);
}


#endif /* BONANZA_RL_BATCH_STEPS_H */
