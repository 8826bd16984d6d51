/* The batch engine's sizes, action and observation constants, and its types.
 * Part of _batch.c, which #includes it: one translation unit. */
#ifndef BONANZA_RL_BATCH_TABLE_H
#define BONANZA_RL_BATCH_TABLE_H

/* Cards and piles. */
#define DECK 52
#define MAX_DECKS 2
#define MAX_CARDS (MAX_DECKS * DECK)
#define SUITS 4
#define RANKS 13
#define KING 13
#define MAX_COLUMNS 10
#define MAX_FOUNDATIONS (MAX_DECKS * SUITS)
#define THREE_CARDS 3     /* cards per column in the three-two-down deal */
#define LONGEST_RUN RANKS /* the most cards one tableau move carries: a King down to an Ace */
#define MAX_DRAW 24

/* Action numbers: bonanza.rl.actions.  The blocks after these two start where
 * the table's sizes put them (Table). */
#define A_STOCK 0   /* a draw, or a deal onto every column */
#define A_RECYCLE 1 /* tables with a waste only */

/* Observation cells: bonanza.rl.observation. */
#define HIDDEN 52 /* a card the player cannot place */
#define NO_CARD 53
#define COUNT_CAP 100 /* recycle counts are capped here; "unlimited" reads as the cap */

#define NO_DEAL_NUMBER UINT64_MAX /* with `has_number` 0: a deal given as cards */

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* A table's shape, and the sizes and offsets that follow from it. */
typedef struct {
    int decks, cards, columns, foundations, parents;
    int staircase;    /* column n gets n cards; else three each, two face down */
    int every_column; /* the stock deals onto every column (no waste) */
    int waste_start;  /* cards dealt onto the waste */
    int talon;        /* the cards not dealt to the columns: stock and waste */
    int slots;        /* the most cards a column can hold */
    int max_down;     /* the most face-down cards in a column */
    /* the first action of each block, and the count */
    int a_waste_column, a_waste_foundation, a_column_foundation, a_foundation_column;
    int a_column_column, actions;
    /* the first cell of each field, and the size */
    int o_tableau, o_down, o_stock, o_waste, o_foundations, o_stock_size, o_waste_size;
    int o_recycles, o_recycles_left, obs_size;
} Table;

/* Klondike's table, as set_table makes it (checked when the module loads):
 * 615 actions and 196 cells, docs/rl.md. */
static const Table KLONDIKE = {
    .decks = 1, .cards = 52, .columns = 7, .foundations = 4, .parents = 2,
    .staircase = 1, .every_column = 0, .waste_start = 0, .talon = 24, .slots = 19, .max_down = 6,
    .a_waste_column = 2, .a_waste_foundation = 9, .a_column_foundation = 13,
    .a_foundation_column = 41, .a_column_column = 69, .actions = 615,
    .o_tableau = 0, .o_down = 133, .o_stock = 140, .o_waste = 164, .o_foundations = 188,
    .o_stock_size = 192, .o_waste_size = 193, .o_recycles = 194, .o_recycles_left = 195,
    .obs_size = 196,
};

typedef struct {
    uint8_t *col; /* `columns` rows of `slots` cards */
    uint8_t *stock, *waste; /* `talon` cards each */
    uint8_t *mask;          /* the legal actions, for checking the player's */
    uint16_t *legal;        /* the same, listed: clearing and sampling in O(legal) */
    int legal_count;
    uint8_t len[MAX_COLUMNS];
    uint8_t down[MAX_COLUMNS];
    uint8_t home[MAX_FOUNDATIONS];
    uint8_t stock_len, waste_len;
    uint8_t pending_reset; /* the last step ended an episode (next-step autoreset) */
    uint8_t has_number;
    int32_t recycles;
    int32_t steps;
    uint64_t deal;
    uint64_t rng; /* SplitMix64 state choosing the next deal number */
} Game;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    Game *games;
    void *arena; /* every game's cards, mask and list */
    Table t;
    int klondike; /* t is KLONDIKE: play the specialised engine */
    int draw, recycles_allowed; /* recycles_allowed < 0: unlimited */
    int any_empty, recall, partial, all_visible;
    int max_steps; /* 0: no limit */
    double home_reward, turned_reward;
    int penalize;          /* an illegal action in range is a no-op costing illegal_penalty */
    double illegal_penalty;
    Py_buffer obs, mask, reward, terminated, truncated;
    int bound;
} Batch;

#endif /* BONANZA_RL_BATCH_TABLE_H */
