/*
 * kvs_table.h - the solved table of 5x5 King's Valley on disk, and its probes.
 *
 * The file is a text header of KVS_HEADER bytes (format, rules, entries, checksum, the
 * solve's figures) followed by one byte per kvs_index entry (kvs_retro.h's values), or,
 * packed for sharing, by zstd blocks (kvs_pack.h); every function here reads both. One
 * table serves kings-valley and retrieve-the-king, which differ only in their start;
 * locked-king-loses on and off (and, when off, no-move) each need their own. Probes go
 * through the game's interface (position text, legal moves), so a table answers for
 * any GameState of those games.
 */
#ifndef CROWN_SOLVE_KVS_TABLE_H
#define CROWN_SOLVE_KVS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/rng.h"
#include "solve/kvs_pack.h"
#include "solve/kvs_retro.h"

/* A value for the side to move: outcome 1 win, 0 draw, -1 loss, in `plies` plies. */
typedef struct KvsValue {
    int outcome;
    int plies;
} KvsValue;

typedef struct KvsTable KvsTable;

/* The rules a game's options ask for; STATUS_UNSUPPORTED for a game the tables do not
 * cover (only kings-valley and retrieve-the-king). */
Status kvs_rules_of_game(const Game *g, KvsRules *out, ErrBuf *err);

/* The name of the rules in file names and headers: "locked-king-loses-on", ... */
void kvs_rules_name(const KvsRules *r, char *out, size_t cap);

/* The rules whose packed table a packed table of `rules` is coded against (kvs_pack.h):
 * locked-king-loses off with no-move=loss against on, off with no-move=draw against off
 * with no-move=loss; false for on, which stands alone. */
bool kvs_pack_base_rules(const KvsRules *rules, KvsRules *base);
/* The path of the table for `rules` in the folder of `path`: kings-valley-<rules><ext>. */
Status kvs_sibling_path(const char *path, const KvsRules *rules, const char *ext, char *out,
                        size_t cap, ErrBuf *err);

/* Where the table for these rules lives by default: $XDG_DATA_HOME/crown/ or
 * ~/.local/share/crown/, then kings-valley-<rules>.kvt. */
Status kvs_default_path(const KvsRules *rules, char *out, size_t cap, ErrBuf *err);
/* The table to open for these rules: the default full table if it is there, else its
 * packed form beside it (the same name ending .kvz) if that is there, else the full
 * table's path (which opening then reports missing). */
Status kvs_find_path(const KvsRules *rules, char *out, size_t cap, ErrBuf *err);

/* Writes a finished table (kvs_solve's) to path, through a temporary file. */
Status kvs_table_write(const char *path, const KvsIndex *ix, const KvsRules *rules,
                       const uint8_t *values, const KvsSolveStats *stats, ErrBuf *err);

/* Maps the table at path and checks its header against the rules of g: STATUS_NOT_FOUND
 * when there is no file, STATUS_CORRUPT for a file that is not a table or is cut short,
 * STATUS_UNSUPPORTED for a table of other rules. */
Status kvs_table_open(const char *path, const Game *g, KvsTable **out, ErrBuf *err);
void kvs_table_close(KvsTable *t);
/* kvs_table_open in two steps: map a table and check the file alone, then whether it
 * answers for game g (STATUS_UNSUPPORTED with the reason if not). A packed table coded
 * against a base opens its base too, from beside it. */
Status kvs_table_load(const char *path, KvsTable **out, ErrBuf *err);
Status kvs_table_fits(const KvsTable *t, const Game *g, ErrBuf *err);
const char *kvs_table_path(const KvsTable *t);
const KvsRules *kvs_table_rules(const KvsTable *t);
/* Reads every byte and compares the checksum of the header. A packed table is unpacked
 * into memory for it (and for kvs_table_read), once: a byte an entry, and its wins'
 * distances from their successors, about three minutes on two cores for the game's. */
Status kvs_table_verify(const KvsTable *t, ErrBuf *err);
/* The header's text, for display. */
const char *kvs_table_header(const KvsTable *t);
const KvsIndex *kvs_table_index(const KvsTable *t);
/* The stored value of entry i (kvs_retro.h), for tests and tools; 0 for an entry of a
 * damaged packed block (kvs_table_verify finds those). A packed table's win is read from
 * its successors. */
uint8_t kvs_table_entry(const KvsTable *t, uint64_t i);
/* Entry i without a packed table's wins' distances (KVS_PACK_WON for a win): one block's
 * probe. */
uint8_t kvs_table_outcome(const KvsTable *t, uint64_t i);
/* Entries [start, start + n) into out, in bulk. */
Status kvs_table_read(const KvsTable *t, uint64_t start, uint64_t n, uint8_t *out, ErrBuf *err);
/* Counts the whole table's values (kvs_table_stats): won, lost, drawn, the longest; a
 * packed table's come from its header. */
void kvs_table_counts(const KvsTable *t, KvsSolveStats *out);
bool kvs_table_is_packed(const KvsTable *t);
/* Writes the packed form of a full table to path, coded against base (either form; the
 * table of kvs_pack_base_rules, whose packed form must then lie beside path for the
 * result to open) or alone if base is NULL. */
Status kvs_table_pack(const KvsTable *t, const KvsTable *base, const char *path,
                      const KvsPackOptions *opt, KvsPackStats *stats, ErrBuf *err);

/* The value of s for the player to move. On the very first ply under first-move-soldier
 * it is the best over the moves that rule allows. STATUS_ILLEGAL if the game is over,
 * STATUS_UNSUPPORTED for a position with other numbers of soldiers than the table's. */
Status kvs_probe(const KvsTable *t, const Game *g, const GameState *s, KvsValue *out,
                 ErrBuf *err);
/* Every legal move of s and its value for the player to move (a move that ends the game
 * at once counts as that result in 1 ply). Writes up to MOVELIST_CAP entries. */
Status kvs_probe_moves(const KvsTable *t, const Game *g, const GameState *s, MoveList *moves,
                       KvsValue *values, ErrBuf *err);
/* The value for `mover` of the position after one of its moves: the game's result if it
 * is over (a win or loss in 1 ply), else the table's value turned round, one ply longer. */
Status kvs_probe_after(const KvsTable *t, const Game *g, const GameState *child, int mover,
                       KvsValue *out, ErrBuf *err);
/* The move a perfect player makes: the shortest win, else a draw, else the longest
 * defence; among equal moves one drawn by rng. */
Status kvs_best_move(const KvsTable *t, const Game *g, const GameState *s, Rng *rng,
                     Move *best, KvsValue *value, ErrBuf *err);

/* Positive when a is better than b for the side to move, 0 when equal. */
int kvs_value_compare(KvsValue a, KvsValue b);
/* "win in 9", "loss in 4", "draw". */
void kvs_value_format(KvsValue v, StrBuf *out);

/* The position of the table's side-to-move form out of the game's position text; for
 * tests and tools. STATUS_PARSE if the text is not a 5x5 position. */
Status kvs_pos_from_text(const char *text, KvsPos *out, int *turn, int *soldiers, ErrBuf *err);

/* The game's position text of p with `mover` (0: the first player) to move after `ply`
 * plies; out needs KVS_TEXT_CAP bytes. */
enum { KVS_TEXT_CAP = 64 };
void kvs_pos_text(const KvsPos *p, int mover, int ply, char *out);

#endif
