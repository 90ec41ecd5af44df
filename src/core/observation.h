/*
 * observation.h - a position as one observer sees it, as structured data: the board's
 * cells and what stands on each, and the game's named counters and lists. Interfaces
 * (the web page, the JSON API) draw from it instead of parsing position text, and
 * learning code turns it into a fixed-shape tensor of floats.
 *
 * A game that offers observations declares an ObsSchema once, in configure (it may
 * depend on the rule options: the board size), points Game.observation at it, and
 * implements GameOps.observe, which fills an Observation (plain fixed-capacity data;
 * the caller owns it; no allocation) through the helpers below. The conventions, which
 * every game follows so that one JSON writer and one tensor writer serve them all:
 *
 * Zones. A board is one zone or more, each a grid of cols x rows: OBS_SQUARE (col is the
 * file from the first player's left, row the rank from the first player's side, as
 * in "a1"), OBS_HEX (axial coordinates shifted to start at 0: col = q + offset, row =
 * r + offset; neighbours differ by (+-1, 0), (0, +-1), (+1, -1), (-1, +1); row 0 is
 * drawn at the top), OBS_LINE (a row or column of places such as a hill or a castle:
 * rows = 1, col counts from the first place). Every place of a square or line zone, and
 * every place of a hex zone's grid that is on the board, is listed in every observation,
 * in the same order, empty or not, under the name the game's notation gives it (the name
 * move_cells uses), so that a drawer can name cells by what it reads.
 *
 * Pieces. A cell holds a stack, pieces listed bottom to top (a single piece is a
 * stack of one). A piece has a kind (index into schema.kinds), an owner (a seat, or
 * -1 for nobody's or when the observer may not know it), flags and a small value (a
 * tile's number; 0 when meaningless). A piece the observer may not identify is kind
 * OBS_KIND_UNKNOWN with OBS_FACE_DOWN set; a face-down piece the observer may identify
 * (his own) keeps its kind and sets OBS_FACE_DOWN. Never put hidden information in a piece, a counter or a list: the
 * observation of a seat must be identical before and after determinize for that seat
 * (the contract suite checks it).
 *
 * Terrain. What a cell is, rather than what stands on it, is a bit mask over
 * schema.terrains: the Valley, a pillar, the Castle, a door on one side. It may also
 * carry transient marks of the position (the square a turn in progress started on).
 *
 * Counters and lists. A counter is a named integer, global (round, plies played) or per
 * player (gold: one value per seat). A list is a named ordered sequence of pieces,
 * global (a pile, what must be resolved) or per player (a hand), of at most `cap`
 * items; a pile whose order is hidden and whose size is all that is known is a counter,
 * not a list of face-down items. They live in flat slots, in schema order, a per-player
 * one taking `players` consecutive slots (obs_counter_slot, obs_list_slot). A
 * spectator (observer -1) gets only what every seat may see.
 *
 * Tensor. obs_write_tensor writes obs_tensor_size floats; the layout is fixed by the
 * schema alone. For every zone in order, these planes of rows x cols (row-major, row
 * 0 first; cells off the board are 0):
 *   for each stack level 0..max_stack-1, each owner 0..players-1 then "nobody", each
 *   kind then "unknown": 1 where such a piece is at that level;
 *   one plane per terrain name: 1 where the cell has it;
 *   one plane: 1 on every cell of the zone.
 * Then the scalar features: to_move one-hot over seats then "nobody/chance" (players +
 * 1), observer one-hot over seats then "spectator" (players + 1), the counter slots as
 * their raw values, and for each list slot `cap` items each as a one-hot over kinds
 * then "unknown" followed by the item's value (absent items are all 0), or for a
 * `counted` list the number of its items of each kind then "unknown". A game with a
 * single zone gets each scalar broadcast as a constant plane after that zone's planes,
 * so its shape is [planes, rows, cols] as OpenSpiel's board games have; a game with
 * several zones gets the flat vector [size].
 */
#ifndef CROWN_CORE_OBSERVATION_H
#define CROWN_CORE_OBSERVATION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "core/strbuf.h"

enum {
    OBS_MAX_ZONES = 8,
    OBS_MAX_CELLS = 192,
    OBS_MAX_STACK = 16,
    OBS_MAX_KINDS = 48,        /* a tiles table may bring many */
    OBS_MAX_TERRAINS = 32,     /* terrain is a uint32_t mask */
    OBS_MAX_COUNTERS = 24,     /* counter names */
    OBS_MAX_COUNTER_SLOTS = 64,
    OBS_MAX_LISTS = 12,        /* list names */
    OBS_MAX_LIST_SLOTS = 24,
    OBS_MAX_LIST_ITEMS = 64,
    OBS_NAME_LEN = 8,          /* a cell name, NUL included */
    OBS_MAX_DIMS = 3,
    OBS_KIND_UNKNOWN = -1,
    OBS_OWNER_NONE = -1,
};

typedef enum ObsShape { OBS_SQUARE, OBS_HEX, OBS_LINE } ObsShape;

/* Piece flags. */
enum ObsFlags {
    OBS_FACE_DOWN = 1u << 0,
};

typedef struct ObsZone {
    const char *name;
    ObsShape shape;
    int cols, rows;
} ObsZone;

typedef struct ObsCounterDef {
    const char *name;
    bool per_player;
} ObsCounterDef;

/* The names of a global counter's values when it is an enumeration (a phase), so that
 * readers need no copy of the game's table (JSON "named"): count of them, or NULL. */
typedef struct ObsValueNames {
    const char *const *names;
    int count;
} ObsValueNames;

typedef struct ObsListDef {
    const char *name;
    bool per_player;
    int cap; /* most items the list ever holds; <= OBS_MAX_LIST_ITEMS */
    /* The tensor gives how many items of each kind the list holds rather than each item
     * in its slot: for a list whose order and values mean nothing (captured pieces). */
    bool counted;
} ObsListDef;

/* What a configured game's observations look like. Names are static strings. */
typedef struct ObsSchema {
    int players;
    int max_stack; /* tallest stack; 1 for games of single pieces */
    int zone_count;
    ObsZone zones[OBS_MAX_ZONES];
    int kind_count;
    const char *kinds[OBS_MAX_KINDS];
    int terrain_count;
    const char *terrains[OBS_MAX_TERRAINS];
    int counter_count;
    ObsCounterDef counters[OBS_MAX_COUNTERS];
    ObsValueNames counter_values[OBS_MAX_COUNTERS]; /* by counter; zero for plain numbers */
    int list_count;
    ObsListDef lists[OBS_MAX_LISTS];
} ObsSchema;

typedef struct ObsPiece {
    int8_t kind;  /* index into kinds, or OBS_KIND_UNKNOWN */
    int8_t owner; /* seat, or OBS_OWNER_NONE */
    uint8_t flags; /* enum ObsFlags */
    uint8_t pad;
    int16_t value;
} ObsPiece;

typedef struct ObsCell {
    char name[OBS_NAME_LEN];
    uint8_t zone;
    uint8_t col, row;
    uint8_t height;   /* pieces in the stack */
    uint32_t terrain; /* bit i: terrains[i] */
    ObsPiece pieces[OBS_MAX_STACK]; /* bottom first */
} ObsCell;

typedef struct ObsList {
    int count;
    ObsPiece items[OBS_MAX_LIST_ITEMS];
} ObsList;

typedef struct Observation {
    int observer; /* a seat, or -1 for a spectator */
    int to_move;  /* a seat, PLAYER_CHANCE or PLAYER_NONE */
    int cell_count;
    ObsCell cells[OBS_MAX_CELLS];
    int counters[OBS_MAX_COUNTER_SLOTS];
    ObsList lists[OBS_MAX_LIST_SLOTS];
} Observation;

/* --- for games filling an observation --------------------------------------------- */

/* Clears *o (every byte, so that equal observations compare equal with memcmp). */
void obs_begin(Observation *o, int observer, int to_move);
/* Appends a cell; returns it, or NULL when the capacity is used up (a schema bug
 * that obs_check reports as a missing cell). The name is cut to OBS_NAME_LEN - 1. */
ObsCell *obs_add_cell(Observation *o, int zone, int col, int row, const char *name);
/* Puts a piece on top of the cell's stack; ignored past OBS_MAX_STACK. */
void obs_push(ObsCell *c, int kind, int owner, unsigned flags, int value);
/* The slot of counter i (player ignored for a global counter), and of list i. */
int obs_counter_slot(const ObsSchema *sc, int counter, int player);
int obs_list_slot(const ObsSchema *sc, int list, int player);
/* Appends an item to list i of `player` (ignored for a global list); ignored when
 * full. */
void obs_list_push(const ObsSchema *sc, Observation *o, int list, int player, int kind,
                   int owner, unsigned flags, int value);

/* --- for readers -------------------------------------------------------------------- */

/* Checks an observation against its schema: every cell of every zone exactly once with
 * a unique non-empty name, coordinates and heights within bounds, kinds, owners and
 * terrain bits known, lists within their caps. */
bool obs_check(const ObsSchema *sc, const Observation *o, ErrBuf *err);

/* Appends the observation as one JSON object (docs/API.md describes it); names rather
 * than indices, so that a reader needs no schema. */
void obs_write_json(const ObsSchema *sc, const Observation *o, StrBuf *out);

/* The tensor's length in floats, and its shape ([planes, rows, cols] for one zone,
 * [size] otherwise); returns the number of dimensions. */
int obs_tensor_size(const ObsSchema *sc);
int obs_tensor_shape(const ObsSchema *sc, int dims[OBS_MAX_DIMS]);
/* Writes obs_tensor_size(sc) floats. */
void obs_write_tensor(const ObsSchema *sc, const Observation *o, float *out);

#endif
