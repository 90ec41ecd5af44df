/*
 * kvs_retro.c - retrograde analysis over the kvs_index numbering, with threads,
 * progress and checkpoints.
 *
 * While solving, one byte per entry holds either a count or a result:
 *   0            an unused entry (the twin of a mirror-symmetric king placement)
 *   1..C         undecided: the weight of the moves not yet known to lose
 *   255 - n      decided in n plies, for every n with 255 - n > C
 * C is the largest weight the terminal pass met (31 in the game; 80 at most), kept in
 * the checkpoint, so results may run to 254 - C plies. A side without a move that draws
 * keeps a weight of 1 that nothing ever takes away (it has no move to refute).
 * Weights make the counts exact with symmetry folded out: a move to a position that a
 * mirror maps onto itself counts 2 (its stored entry is reached by two un-moves), and a
 * predecessor that is itself mirror-symmetric takes 2 off per un-move found.
 *
 * The frontier: a backward ply only looks at the blocks of FRONT_BLOCK entries where the
 * ply before (or the terminal pass) decided something, kept as one bit a block for
 * each parity of the plies. Late plies decide a few thousand positions, so they read a
 * few megabytes instead of the whole table; early ones touch every block anyway. The
 * order in which a ply expands its positions does not change any result, so the table
 * is byte for byte the one a full scan gives.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/mem.h"
#include "solve/kvs_file.h"
#include "solve/kvs_retro.h"

enum {
    W_UNUSED = 0,
    W_COUNT_LIMIT = 80, /* four soldiers and a king, eight ways each, weight 2 at most */
    CHUNK = 1 << 16,
    FRONT_SHIFT = 12,
    FRONT_BLOCK = 1 << FRONT_SHIFT, /* entries per frontier bit; CHUNK is a multiple */
};

static inline uint8_t decided(int plies)
{
    return (uint8_t)(255 - plies);
}

typedef struct Job {
    const KvsIndex *ix;
    const KvsSolveOptions *opt;
    uint8_t *w;
    int pass;          /* -1: the initial pass, else the plies of the positions expanded */
    uint64_t next;     /* atomic: the next chunk to take */
    uint64_t done;     /* atomic: entries finished */
    uint64_t found;    /* atomic: positions expanded (or decided, in the initial pass) */
    int overflow;      /* atomic: a result needed more plies than a byte holds */
    int count_max;     /* C above: the largest weight (atomic max in the terminal pass) */
    uint64_t *front[2]; /* by parity of n: blocks holding positions decided in n plies */
    uint64_t front_words;
    int64_t start_ms;
    int64_t next_print_ms;
    int64_t solve_start_ms;
} Job;

/* Notes that entry i was decided in `plies`: its block is in that ply's frontier. The
 * load first keeps the threads from fighting over a word whose bit is set already. */
static void front_mark(Job *j, uint64_t i, int plies)
{
    uint64_t *word = &j->front[plies & 1][i >> (FRONT_SHIFT + 6)];
    const uint64_t bit = 1ULL << ((i >> FRONT_SHIFT) & 63);
    if (!(__atomic_load_n(word, __ATOMIC_RELAXED) & bit))
        __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
}

static bool front_has(const Job *j, int plies, uint64_t block)
{
    return (__atomic_load_n(&j->front[plies & 1][block >> 6], __ATOMIC_RELAXED) >> (block & 63)) & 1;
}

static void init_entry(Job *j, uint64_t i)
{
    const KvsIndex *ix = j->ix;
    const KvsPos p = kvs_index_position(ix, i);
    int stab;
    if (ix->canon_count[p.king[0]][p.king[1]] == 2 && kvs_index_of(ix, &p, &stab) != i) {
        j->w[i] = W_UNUSED;
        return;
    }
    if (j->opt->rules.locked_king_loses && kvs_locked(&ix->board, &p)) {
        j->w[i] = decided(0);
        front_mark(j, i, 0);
        return;
    }
    KvsPos succ[KVS_MAX_SUCC];
    bool valley;
    const int n = kvs_successors(&ix->board, &p, succ, &valley);
    if (valley) {
        j->w[i] = decided(1);
        front_mark(j, i, 1);
        return;
    }
    if (n == 0) {
        j->w[i] = j->opt->rules.no_move_draws ? 1 : decided(0);
        if (!j->opt->rules.no_move_draws)
            front_mark(j, i, 0);
        return;
    }
    int weight = 0;
    KvsImages im;
    kvs_images_init(&im, p.soldiers[1], p.soldiers[0]);
    for (int k = 0; k < n; k++) {
        int s = 1;
        if (ix->canon_count[succ[k].king[0]][succ[k].king[1]] == 2)
            (void)kvs_index_near(ix, &im, &succ[k], &s);
        weight += s;
    }
    j->w[i] = (uint8_t)weight;
    int seen = __atomic_load_n(&j->count_max, __ATOMIC_RELAXED);
    while (weight > seen && !__atomic_compare_exchange_n(&j->count_max, &seen, weight, false,
                                                         __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* Win in plies + 1 for an undecided predecessor of a lost position. */
static void mark_win(Job *j, uint64_t i, int plies)
{
    uint8_t v = __atomic_load_n(&j->w[i], __ATOMIC_RELAXED);
    while (v >= 1 && v <= j->count_max) {
        if (__atomic_compare_exchange_n(&j->w[i], &v, decided(plies), false, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            front_mark(j, i, plies);
            return;
        }
    }
}

/* One more move of predecessor i is known to lose; lost in plies once none is left. */
static void take_move(Job *j, uint64_t i, int weight, int plies)
{
    uint8_t v = __atomic_load_n(&j->w[i], __ATOMIC_RELAXED);
    while (v >= 1 && v <= j->count_max) {
        const int left = v - weight;
        const uint8_t nv = left <= 0 ? decided(plies) : (uint8_t)left;
        if (__atomic_compare_exchange_n(&j->w[i], &v, nv, false, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
            if (left <= 0)
                front_mark(j, i, plies);
            return;
        }
    }
}

static void expand_entry(Job *j, uint64_t i)
{
    const KvsIndex *ix = j->ix;
    const KvsPos p = kvs_index_position(ix, i);
    KvsPos pred[KVS_MAX_PRED];
    uint64_t at[KVS_MAX_PRED];
    int weight[KVS_MAX_PRED];
    const int n = kvs_predecessors(&ix->board, &p, pred);
    // Every predecessor swaps the sides of p and moves one man back: its masks are near
    // p's. Index everything first and prefetch, so that the cache misses overlap.
    KvsImages im;
    kvs_images_init(&im, p.soldiers[1], p.soldiers[0]);
    for (int k = 0; k < n; k++) {
        at[k] = kvs_index_near(ix, &im, &pred[k], &weight[k]);
        __builtin_prefetch(&j->w[at[k]], 1);
    }
    const int plies = j->pass + 1;
    if (plies > 254 - j->count_max) {
        __atomic_store_n(&j->overflow, 1, __ATOMIC_RELAXED);
        return;
    }
    const bool lost_here = (j->pass & 1) == 0;
    for (int k = 0; k < n; k++) {
        if (lost_here)
            mark_win(j, at[k], plies);
        else
            take_move(j, at[k], weight[k], plies);
    }
}

static void print_progress(Job *j, bool last)
{
    const int64_t now = clock_ms();
    if (!last && now < j->next_print_ms)
        return;
    j->next_print_ms = now + 500;
    const uint64_t done = __atomic_load_n(&j->done, __ATOMIC_RELAXED);
    const double frac = (double)done / (double)j->ix->size;
    const double el = (double)(now - j->start_ms) / 1000.0;
    const double left = frac > 0.001 ? el / frac - el : 0.0;
    char bar[31];
    const int fill = (int)(frac * 30.0);
    for (int k = 0; k < 30; k++)
        bar[k] = k < fill ? '#' : '.';
    bar[30] = '\0';
    const double total = (double)(now - j->solve_start_ms) / 1000.0;
    char name[32];
    if (j->pass < 0)
        snprintf(name, sizeof name, "terminal");
    else
        snprintf(name, sizeof name, "ply %3d", j->pass);
    fprintf(stderr, "\r%s [%s] %3.0f%%  %12llu found  pass left %5.0fs  total %6.0fs ",
            name, bar, frac * 100.0, (unsigned long long)__atomic_load_n(&j->found, __ATOMIC_RELAXED),
            left, total);
    if (last)
        fputc('\n', stderr);
    fflush(stderr);
}

/* Takes chunks until none is left; the thread that draws the bar does so between them. */
static void work(Job *j, bool draw)
{
    const uint64_t size = j->ix->size;
    const uint8_t target = j->pass >= 0 ? decided(j->pass) : 0;
    for (;;) {
        const uint64_t c = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
        const uint64_t lo = c * CHUNK;
        if (lo >= size)
            break;
        const uint64_t hi = lo + CHUNK < size ? lo + CHUNK : size;
        uint64_t found = 0;
        if (j->pass < 0) {
            for (uint64_t i = lo; i < hi; i++) {
                init_entry(j, i);
                found += j->w[i] > W_COUNT_LIMIT;
            }
        } else {
            for (uint64_t b = lo; b < hi; b += FRONT_BLOCK) {
                if (!front_has(j, j->pass, b >> FRONT_SHIFT))
                    continue;
                const uint64_t end = b + FRONT_BLOCK < hi ? b + FRONT_BLOCK : hi;
                for (uint64_t i = b; i < end; i++) {
                    if (__atomic_load_n(&j->w[i], __ATOMIC_RELAXED) == target) {
                        expand_entry(j, i);
                        found++;
                    }
                }
            }
        }
        __atomic_fetch_add(&j->found, found, __ATOMIC_RELAXED);
        __atomic_fetch_add(&j->done, hi - lo, __ATOMIC_RELAXED);
        if (draw)
            print_progress(j, false);
    }
}

static void *worker(void *arg)
{
    work(arg, false);
    return NULL;
}

/* Runs one pass over every entry on opt->threads threads; returns positions found. */
static uint64_t run_pass(Job *j)
{
    j->next = 0;
    j->done = 0;
    j->found = 0;
    j->start_ms = clock_ms();
    j->next_print_ms = 0;
    enum { MAX_THREADS = 64 };
    pthread_t th[MAX_THREADS];
    int started = 0;
    for (int t = 1; t < j->opt->threads && t < MAX_THREADS; t++)
        if (pthread_create(&th[started], NULL, worker, j) == 0)
            started++;
    work(j, j->opt->progress);
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    if (j->opt->progress)
        print_progress(j, true);
    return j->found;
}

/* The checkpoint: a line of text naming the rules, the entries and the last pass done,
 * padded to CKPT_HEAD bytes, then the working bytes. Written aside and renamed, so a
 * kill leaves the previous checkpoint whole. */
enum { CKPT_HEAD = 256 };

static void ckpt_header(const Job *j, int pass_done, char head[CKPT_HEAD])
{
    memset(head, 0, CKPT_HEAD);
    snprintf(head, CKPT_HEAD,
             "crown-kvs-checkpoint 1 soldiers %d locked-king-loses %d no-move-draws %d "
             "entries %llu pass %d counts %d\n",
             j->opt->rules.soldiers, j->opt->rules.locked_king_loses, j->opt->rules.no_move_draws,
             (unsigned long long)j->ix->size, pass_done, j->count_max);
}

static Status write_checkpoint(const Job *j, int pass_done, ErrBuf *err)
{
    char head[CKPT_HEAD];
    ckpt_header(j, pass_done, head);
    return kvs_file_write(j->opt->checkpoint, head, CKPT_HEAD, j->w, j->ix->size, err);
}

/* Takes up a checkpoint of the same rules: the last pass it finished, or -2 if none. A
 * checkpoint from before the largest weight was kept in it (no "counts") ended before
 * any result reached 174 plies, so every byte up to 80 is still a weight. */
static int read_checkpoint(Job *j)
{
    FILE *f = fopen(j->opt->checkpoint, "rb");
    if (f == NULL)
        return -2;
    char head[CKPT_HEAD];
    int pass = -2;
    int soldiers, lkl, nmd, p, counts = -1;
    unsigned long long entries;
    if (fread(head, 1, CKPT_HEAD, f) == CKPT_HEAD) {
        head[CKPT_HEAD - 1] = '\0';
        const int got = sscanf(head,
                               "crown-kvs-checkpoint 1 soldiers %d locked-king-loses %d "
                               "no-move-draws %d entries %llu pass %d counts %d",
                               &soldiers, &lkl, &nmd, &entries, &p, &counts);
        bool ok = got >= 5 && soldiers == j->opt->rules.soldiers &&
                  lkl == j->opt->rules.locked_king_loses && nmd == j->opt->rules.no_move_draws &&
                  entries == j->ix->size;
        for (uint64_t off = 0; ok && off < j->ix->size; off += 1u << 26) {
            const size_t n = (size_t)(j->ix->size - off < (1u << 26) ? j->ix->size - off : (1u << 26));
            ok = fread(j->w + off, 1, n, f) == n;
        }
        if (ok && got < 6) {
            counts = 0;
            for (uint64_t i = 0; i < j->ix->size; i++)
                if (j->w[i] <= W_COUNT_LIMIT && j->w[i] > counts)
                    counts = j->w[i];
        }
        if (ok) {
            pass = p;
            j->count_max = counts;
        }
    }
    fclose(f);
    return pass;
}

Status kvs_solve(const KvsIndex *ix, const KvsSolveOptions *opt, uint8_t **table,
                 KvsSolveStats *stats, ErrBuf *err)
{
    memset(stats, 0, sizeof *stats);
    if (opt->rules.soldiers != ix->soldiers)
        return err_set(err, STATUS_UNSUPPORTED, "the index is for %d soldiers a side, not %d",
                       ix->soldiers, opt->rules.soldiers);
    // A weight of 1 is always undecided, even in a game where no position has moves.
    Job j = {.ix = ix, .opt = opt, .solve_start_ms = clock_ms(), .count_max = 1};
    j.w = mem_huge_alloc(ix->size); // every un-move reads a random entry of 1.68 GB
    if (j.w == NULL)
        return err_set(err, STATUS_NOMEM, "cannot allocate the %llu-byte table",
                       (unsigned long long)ix->size);
    j.front_words = ((ix->size + FRONT_BLOCK - 1) / FRONT_BLOCK + 63) / 64;
    j.front[0] = calloc(j.front_words, sizeof(uint64_t));
    j.front[1] = calloc(j.front_words, sizeof(uint64_t));
    if (j.front[0] == NULL || j.front[1] == NULL) {
        free(j.front[0]);
        free(j.front[1]);
        free(j.w);
        return err_set(err, STATUS_NOMEM, "cannot allocate the frontier");
    }
    int pass = -1;
    const int resumed = opt->checkpoint ? read_checkpoint(&j) : -2;
    if (resumed >= -1) {
        // The checkpoint does not keep the frontier: the next two plies look everywhere.
        memset(j.front[0], 0xff, j.front_words * sizeof(uint64_t));
        memset(j.front[1], 0xff, j.front_words * sizeof(uint64_t));
        stats->resumed = true;
        pass = resumed + 1;
        if (opt->progress)
            fprintf(stderr, "resuming from %s after %s\n", opt->checkpoint,
                    resumed < 0 ? "the terminal pass" : "a backward ply");
    }
    int64_t last_ckpt = clock_ms();
    Status st = STATUS_OK;
    for (;; pass++) {
        j.pass = pass;
        const uint64_t found = run_pass(&j);
        if (j.overflow) {
            st = err_set(err, STATUS_UNSUPPORTED,
                         "a result is longer than %d plies, more than the table's bytes hold",
                         254 - j.count_max);
            break;
        }
        if (pass >= 0) {
            stats->passes++;
            // Ply pass is expanded; its bits are reused for ply pass + 2.
            memset(j.front[pass & 1], 0, j.front_words * sizeof(uint64_t));
        }
        // A pass that expands nothing decides nothing new: ply pass + 1 stays empty.
        if (pass >= 1 && found == 0)
            break;
        const bool stop = opt->stop_after > 0 && stats->passes >= opt->stop_after;
        if (opt->checkpoint &&
            (stop || clock_ms() - last_ckpt >= (int64_t)opt->checkpoint_seconds * 1000)) {
            st = write_checkpoint(&j, pass, err);
            if (st != STATUS_OK)
                break;
            last_ckpt = clock_ms();
        }
        if (stop) {
            st = err_set(err, STATUS_CONFLICT, "stopped after %d backward plies", stats->passes);
            break;
        }
    }
    free(j.front[0]);
    free(j.front[1]);
    if (st != STATUS_OK) {
        free(j.w);
        return st;
    }
    // The final values: plies + 1, or 0 for a draw or an unused entry.
    for (uint64_t i = 0; i < ix->size; i++) {
        const uint8_t v = j.w[i];
        j.w[i] = v > j.count_max ? (uint8_t)(256 - v) : 0;
    }
    kvs_table_stats(ix, j.w, stats);
    stats->seconds = (double)(clock_ms() - j.solve_start_ms) / 1000.0;
    *table = j.w;
    return STATUS_OK;
}

void kvs_table_stats(const KvsIndex *ix, const uint8_t *table, KvsSolveStats *stats)
{
    stats->won = stats->lost = stats->drawn = stats->unused = 0;
    stats->longest = -1;
    stats->longest_index = 0;
    uint64_t hist[256] = {0};
    for (uint64_t i = 0; i < ix->size; i++)
        hist[table[i]]++;
    for (int v = 1; v < 256; v++) {
        if (hist[v] == 0)
            continue;
        if ((v - 1) & 1)
            stats->won += hist[v];
        else
            stats->lost += hist[v];
        stats->longest = v - 1;
    }
    // Zeros are draws and unused twins; only the twins need telling apart.
    for (uint64_t i = 0; i < ix->size; i++) {
        if (table[i] == 0 && ix->canon_count[ix->pair_king[i / ix->per_pair][0]][ix->pair_king[i / ix->per_pair][1]] == 2 &&
            !kvs_index_canonical(ix, i))
            stats->unused++;
        if (stats->longest >= 0 && table[i] == stats->longest + 1 && stats->longest_index == 0)
            stats->longest_index = i;
    }
    stats->drawn = hist[0] - stats->unused;
}
