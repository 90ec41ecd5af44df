/*
 * kvs_table.c - writing, mapping, checking and probing the solved King's Valley table,
 * in either form: the full one (a byte an entry, read straight from the map) or the
 * packed one (kvs_pack.h), told apart by the header's first line. The packed form
 * leaves out the wins' distances: a win's value is read from its successors' (one ply
 * deeper), and a whole-table read unpacks the table once into memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/game_api.h"
#include "core/mem.h"
#include "solve/kvs_file.h"
#include "solve/kvs_pack.h"
#include "solve/kvs_table.h"

#define KVS_MAGIC "crown-kvs-table 1\n"

struct KvsTable {
    KvsIndex ix;
    KvsRules rules;
    const uint8_t *map;
    size_t map_len;
    const uint8_t *values; /* the full form's bytes, or NULL */
    KvsPacked *packed;     /* the packed form's reader, or NULL */
    KvsTable *base;        /* the packed table this one is coded against, or NULL */
    pthread_mutex_t lock;  /* guards unpacked */
    uint8_t *unpacked;     /* a packed table's whole values, once a bulk read asked */
    uint64_t checksum;
    char path[1024];
    char header[KVS_HEADER];
};

static uint64_t checksum(const uint8_t *p, uint64_t n)
{
    return kvs_checksum_add(kvs_checksum_start(n), p, n);
}

Status kvs_rules_of_game(const Game *g, KvsRules *out, ErrBuf *err)
{
    if (!(g->ops->flags & GAME_TABLE_SOLVED))
        return err_set(err, STATUS_UNSUPPORTED,
                       "only kings-valley and retrieve-the-king are solved, not %s",
                       g->ops->name);
    out->soldiers = KVS_MAX_SOLDIERS;
    out->locked_king_loses = game_option_is(g, "locked-king-loses", "on");
    out->no_move_draws = game_option_is(g, "no-move", "draw");
    return STATUS_OK;
}

/* The rules' part of file names and headers. A side without a move has a locked king,
 * so with locked-king-loses on the no-move option never applies. */
void kvs_rules_name(const KvsRules *r, char *out, size_t cap)
{
    if (r->locked_king_loses)
        snprintf(out, cap, "locked-king-loses-on");
    else
        snprintf(out, cap, "locked-king-loses-off-no-move-%s", r->no_move_draws ? "draw" : "loss");
}

static bool same_rules(const KvsRules *a, const KvsRules *b)
{
    return a->soldiers == b->soldiers && a->locked_king_loses == b->locked_king_loses &&
           (a->locked_king_loses || a->no_move_draws == b->no_move_draws);
}

bool kvs_pack_base_rules(const KvsRules *rules, KvsRules *base)
{
    if (rules->locked_king_loses)
        return false;
    // Thirteen positions tell no-move draw from loss; the rule off from on, 2 %.
    *base = *rules;
    base->locked_king_loses = !rules->no_move_draws;
    base->no_move_draws = false;
    return true;
}

Status kvs_sibling_path(const char *path, const KvsRules *rules, const char *ext, char *out,
                        size_t cap, ErrBuf *err)
{
    const char *slash = strrchr(path, '/');
    const int dir = slash ? (int)(slash - path + 1) : 0;
    char rn[64];
    kvs_rules_name(rules, rn, sizeof rn);
    const int n = snprintf(out, cap, "%.*skings-valley-%s%s", dir, path, rn, ext);
    return n < 0 || (size_t)n >= cap ? err_set(err, STATUS_IO, "the path %s is too long", path)
                                     : STATUS_OK;
}

Status kvs_default_path(const KvsRules *rules, char *out, size_t cap, ErrBuf *err)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    char rn[64];
    kvs_rules_name(rules, rn, sizeof rn);
    int n;
    if (xdg != NULL && xdg[0] == '/')
        n = snprintf(out, cap, "%s/crown/kings-valley-%s.kvt", xdg, rn);
    else if (home != NULL && home[0] != '\0')
        n = snprintf(out, cap, "%s/.local/share/crown/kings-valley-%s.kvt", home, rn);
    else
        return err_set(err, STATUS_NOT_FOUND, "neither XDG_DATA_HOME nor HOME is set");
    if (n < 0 || (size_t)n >= cap)
        return err_set(err, STATUS_IO, "the data directory's path is too long");
    return STATUS_OK;
}

Status kvs_find_path(const KvsRules *rules, char *out, size_t cap, ErrBuf *err)
{
    const Status st = kvs_default_path(rules, out, cap, err);
    if (st != STATUS_OK || access(out, F_OK) == 0)
        return st;
    const size_t n = strlen(out);
    if (n < 4 || n >= cap)
        return STATUS_OK;
    memcpy(out + n - 4, ".kvz", 5);
    if (access(out, F_OK) != 0)
        memcpy(out + n - 4, ".kvt", 5);
    return STATUS_OK;
}

Status kvs_table_write(const char *path, const KvsIndex *ix, const KvsRules *rules,
                       const uint8_t *values, const KvsSolveStats *stats, ErrBuf *err)
{
    char head[KVS_HEADER];
    memset(head, 0, sizeof head);
    char rn[64];
    kvs_rules_name(rules, rn, sizeof rn);
    snprintf(head, sizeof head,
             KVS_MAGIC "rules %s\nsoldiers %d\nentries %llu\nchecksum %016llx\n"
             "won %llu\nlost %llu\ndrawn %llu\nlongest %d\nlongest-entry %llu\n",
             rn, rules->soldiers, (unsigned long long)ix->size,
             (unsigned long long)checksum(values, ix->size), (unsigned long long)stats->won,
             (unsigned long long)stats->lost, (unsigned long long)stats->drawn, stats->longest,
             (unsigned long long)stats->longest_index);
    return kvs_file_write(path, head, sizeof head, values, ix->size, err);
}

/* Opens the base a packed table's header names, beside it (at most `depth` deep); its
 * failure's message is whole (names both files) and sets *named. */
static Status load_base(KvsTable *t, int depth, bool *named, ErrBuf *err);

static Status load_at(const char *path, int depth, bool *named, KvsTable **out, ErrBuf *err)
{
    *out = NULL;
    const int fd = open(path, O_RDONLY);
    if (fd < 0)
        return err_set(err, errno == ENOENT ? STATUS_NOT_FOUND : STATUS_IO, "cannot open %s: %s",
                       path, strerror(errno));
    struct stat sbuf;
    if (fstat(fd, &sbuf) != 0 || sbuf.st_size < KVS_HEADER) {
        close(fd);
        return err_set(err, STATUS_CORRUPT, "%s is not a King's Valley table (too short)", path);
    }
    void *map = mmap(NULL, (size_t)sbuf.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return err_set(err, STATUS_IO, "cannot map %s: %s", path, strerror(errno));
    KvsTable *t = calloc(1, sizeof *t);
    if (t == NULL) {
        munmap(map, (size_t)sbuf.st_size);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    pthread_mutex_init(&t->lock, NULL);
    t->map = map;
    t->map_len = (size_t)sbuf.st_size;
    snprintf(t->path, sizeof t->path, "%s", path);
    memcpy(t->header, map, KVS_HEADER);
    t->header[KVS_HEADER - 1] = '\0';
    const char *rules = kvs_file_header_field(t->header, "rules");
    const char *sold = kvs_file_header_field(t->header, "soldiers");
    const char *entries = kvs_file_header_field(t->header, "entries");
    const char *sum = kvs_file_header_field(t->header, "checksum");
    const bool packed = strncmp(t->header, KVS_PACK_MAGIC, strlen(KVS_PACK_MAGIC)) == 0;
    if (strncmp(t->header, KVS_PACK_MAGIC_1, strlen(KVS_PACK_MAGIC_1)) == 0) {
        kvs_table_close(t);
        return err_set(err, STATUS_UNSUPPORTED, "%s was packed by an older crown: pack it again "
                       "from the full table (crown solve --compress)", path);
    }
    if ((!packed && strncmp(t->header, KVS_MAGIC, strlen(KVS_MAGIC)) != 0) || !rules || !sold ||
        !entries || !sum) {
        kvs_table_close(t);
        return err_set(err, STATUS_CORRUPT, "%s is not a King's Valley table of this version", path);
    }
    t->rules.soldiers = atoi(sold);
    t->rules.locked_king_loses = strncmp(rules, "locked-king-loses-on", 20) == 0;
    t->rules.no_move_draws = strncmp(rules, "locked-king-loses-off-no-move-draw", 34) == 0;
    t->checksum = strtoull(sum, NULL, 16);
    if (t->rules.soldiers < 0 || t->rules.soldiers > KVS_MAX_SOLDIERS) {
        kvs_table_close(t);
        return err_set(err, STATUS_CORRUPT, "%s: bad soldier count", path);
    }
    kvs_index_init(&t->ix, t->rules.soldiers);
    if (packed) {
        Status st = strtoull(entries, NULL, 10) != t->ix.size
                        ? err_set(err, STATUS_CORRUPT, "the table's entries do not match its soldiers")
                        : load_base(t, depth, named, err);
        if (st == STATUS_OK)
            st = kvs_packed_open(t->header, t->map + KVS_HEADER, t->map_len - KVS_HEADER,
                                 t->ix.size, t->base ? t->base->packed : NULL, &t->packed, err);
        if (st != STATUS_OK) {
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err->msg);
            kvs_table_close(t);
            return *named ? st : err_set(err, st, "%s: %s", path, msg);
        }
        *out = t;
        return STATUS_OK;
    }
    if (strtoull(entries, NULL, 10) != t->ix.size || t->map_len != KVS_HEADER + t->ix.size) {
        const size_t have = t->map_len;
        const unsigned long long need = KVS_HEADER + t->ix.size;
        kvs_table_close(t);
        return err_set(err, STATUS_CORRUPT, "%s is cut short or too long: %zu bytes, not %llu",
                       path, have, need);
    }
    t->values = t->map + KVS_HEADER;
    *out = t;
    return STATUS_OK;
}

static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static Status load_base(KvsTable *t, int depth, bool *named, ErrBuf *err)
{
    const char *name = kvs_file_header_field(t->header, "base");
    if (name == NULL)
        return STATUS_OK;
    const char *sum = kvs_file_header_field(t->header, "base-checksum");
    KvsRules want;
    char rn[64] = "";
    const bool has = kvs_pack_base_rules(&t->rules, &want);
    if (has)
        kvs_rules_name(&want, rn, sizeof rn);
    if (depth <= 0 || sum == NULL || !has || !kvs_file_header_is(name, rn))
        return err_set(err, STATUS_CORRUPT, "its base is not one this version reads");
    char path[1100];
    Status st = kvs_sibling_path(t->path, &want, ".kvz", path, sizeof path, err);
    if (st != STATUS_OK)
        return st;
    bool deeper = false;
    *named = true;
    if ((st = load_at(path, depth - 1, &deeper, &t->base, err)) != STATUS_OK) {
        // The deepest missing base is the one to fetch: its message stands.
        if (deeper)
            return st;
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        return err_set(err, st, "%s is coded against %s, which does not open: %s",
                       file_name(t->path), file_name(path), msg);
    }
    want.soldiers = t->rules.soldiers;
    if (t->base->packed == NULL || !same_rules(&want, &t->base->rules) ||
        t->base->checksum != strtoull(sum, NULL, 16))
        return err_set(err, STATUS_CORRUPT, "%s is not the table %s was coded against", path,
                       file_name(t->path));
    *named = false;
    return STATUS_OK;
}

Status kvs_table_load(const char *path, KvsTable **out, ErrBuf *err)
{
    // Off with no-move=draw against off against on: two bases deep at most.
    bool named = false;
    return load_at(path, 2, &named, out, err);
}

Status kvs_table_fits(const KvsTable *t, const Game *g, ErrBuf *err)
{
    KvsRules want = {0};
    Status st = kvs_rules_of_game(g, &want, err);
    if (st != STATUS_OK)
        return st;
    // A reduced table (fewer soldiers, from the tests) answers only its own positions.
    want.soldiers = t->rules.soldiers;
    if (!same_rules(&want, &t->rules)) {
        char a[64], b[64];
        kvs_rules_name(&t->rules, a, sizeof a);
        kvs_rules_name(&want, b, sizeof b);
        return err_set(err, STATUS_UNSUPPORTED, "%s is the table for %s, but the game plays %s",
                       t->path, a, b);
    }
    return STATUS_OK;
}

Status kvs_table_open(const char *path, const Game *g, KvsTable **out, ErrBuf *err)
{
    KvsRules want;
    Status st = kvs_rules_of_game(g, &want, err);
    if (st == STATUS_OK)
        st = kvs_table_load(path, out, err);
    if (st == STATUS_OK && (st = kvs_table_fits(*out, g, err)) != STATUS_OK) {
        kvs_table_close(*out);
        *out = NULL;
    }
    return st;
}

const char *kvs_table_path(const KvsTable *t)
{
    return t->path;
}

const KvsRules *kvs_table_rules(const KvsTable *t)
{
    return &t->rules;
}

void kvs_table_close(KvsTable *t)
{
    if (t == NULL)
        return;
    kvs_packed_close(t->packed);
    kvs_table_close(t->base);
    munmap((void *)t->map, t->map_len);
    pthread_mutex_destroy(&t->lock);
    free(t->unpacked);
    free(t);
}

/* ---- a packed table's wins ---- */

/* The value of the win at entry i of a packed table: the valley at once, else one ply
 * past its shortest losing successor. `values` is the whole table being unpacked (read
 * with relaxed atomics: other threads fill in wins, and only losses are read), or NULL
 * to probe through the cache. */
static Status derive_win(const KvsTable *t, const uint8_t *values, uint64_t i, uint8_t *out,
                         ErrBuf *err)
{
    const KvsIndex *ix = &t->ix;
    const KvsPos p = kvs_index_position(ix, i);
    KvsPos succ[KVS_MAX_SUCC];
    bool valley;
    const int n = kvs_successors(&ix->board, &p, succ, &valley);
    if (valley) {
        *out = 2;
        return STATUS_OK;
    }
    KvsImages im;
    kvs_images_init(&im, p.soldiers[1], p.soldiers[0]);
    int best = 256;
    for (int k = 0; k < n; k++) {
        int stab;
        const uint64_t j = kvs_index_near(ix, &im, &succ[k], &stab);
        uint8_t v;
        if (values != NULL) {
            v = __atomic_load_n(&values[j], __ATOMIC_RELAXED);
        } else {
            const Status st = kvs_packed_entry(t->packed, j, &v, err);
            if (st != STATUS_OK)
                return st;
        }
        if ((v & 1) && v + 1 < best)
            best = v + 1;
    }
    if (best > KVS_PACK_WON - 2)
        return err_set(err, STATUS_CORRUPT, "entry %llu of the packed table is a win with no "
                       "losing reply", (unsigned long long)i);
    *out = (uint8_t)best;
    return STATUS_OK;
}

typedef struct UnpackJob {
    const KvsTable *t;
    uint8_t *values;
    uint64_t first, last;
    Status st;
    ErrBuf err;
} UnpackJob;

static void *unpack_worker(void *arg)
{
    UnpackJob *j = arg;
    err_clear(&j->err);
    j->st = STATUS_OK;
    for (uint64_t i = j->first; i < j->last && j->st == STATUS_OK; i++) {
        if (j->values[i] == 0)
            continue;
        uint8_t v = 0;
        if (!kvs_index_canonical(&j->t->ix, i)) // stored to suit the compressor
            __atomic_store_n(&j->values[i], 0, __ATOMIC_RELAXED);
        else if (j->values[i] == KVS_PACK_WON) {
            j->st = derive_win(j->t, j->values, i, &v, &j->err);
            __atomic_store_n(&j->values[i], v, __ATOMIC_RELAXED);
        }
    }
    return NULL;
}

enum { UNPACK_THREADS = 8 };

/* Unpacks a packed table whole into t->unpacked, once: the outcomes and losses from the
 * blocks, then every win from its successors, on threads. */
static Status unpack(const KvsTable *t, ErrBuf *err)
{
    KvsTable *m = (KvsTable *)t; // the unpacked copy is a cache of the table's own
    pthread_mutex_lock(&m->lock);
    Status st = STATUS_OK;
    if (m->unpacked == NULL) {
        uint8_t *values = mem_huge_alloc(t->ix.size);
        st = values ? kvs_packed_range(t->packed, 0, t->ix.size, values, err)
                    : err_set(err, STATUS_NOMEM, "out of memory unpacking the table");
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        const int threads = cpus < 1 ? 1 : cpus > UNPACK_THREADS ? UNPACK_THREADS : (int)cpus;
        UnpackJob job[UNPACK_THREADS];
        pthread_t th[UNPACK_THREADS];
        int started = 0;
        for (int k = 0; k < threads && st == STATUS_OK; k++) {
            job[k] = (UnpackJob){.t = t, .values = values,
                                 .first = t->ix.size * (uint64_t)k / (uint64_t)threads,
                                 .last = t->ix.size * (uint64_t)(k + 1) / (uint64_t)threads};
            if (pthread_create(&th[k], NULL, unpack_worker, &job[k]) != 0) {
                unpack_worker(&job[k]); // this thread does the part itself
                continue;
            }
            started |= 1 << k;
        }
        for (int k = 0; k < threads && st == STATUS_OK; k++) {
            if (started & (1 << k))
                pthread_join(th[k], NULL);
        }
        for (int k = 0; k < threads && st == STATUS_OK; k++)
            if (job[k].st != STATUS_OK)
                st = err_set(err, job[k].st, "%s", job[k].err.msg);
        if (st == STATUS_OK)
            m->unpacked = values;
        else
            free(values);
    }
    pthread_mutex_unlock(&m->lock);
    return st;
}

Status kvs_table_verify(const KvsTable *t, ErrBuf *err)
{
    if (t->packed != NULL) {
        const Status st = unpack(t, err);
        if (st != STATUS_OK)
            return st;
    }
    const uint64_t got = checksum(t->packed ? t->unpacked : t->values, t->ix.size);
    if (got != t->checksum)
        return err_set(err, STATUS_CORRUPT, "the table's checksum is %016llx, the header says %016llx",
                       (unsigned long long)got, (unsigned long long)t->checksum);
    return STATUS_OK;
}

const char *kvs_table_header(const KvsTable *t)
{
    return t->header;
}

const KvsIndex *kvs_table_index(const KvsTable *t)
{
    return &t->ix;
}

bool kvs_table_is_packed(const KvsTable *t)
{
    return t->packed != NULL;
}

/* Entry i in either form. */
static Status entry_at(const KvsTable *t, uint64_t i, uint8_t *out, ErrBuf *err)
{
    if (t->packed == NULL) {
        *out = t->values[i];
        return STATUS_OK;
    }
    const Status st = kvs_packed_entry(t->packed, i, out, err);
    if (st == STATUS_OK && *out != 0 && !kvs_index_canonical(&t->ix, i))
        *out = 0; // an unused entry, stored to suit the compressor
    return st == STATUS_OK && *out == KVS_PACK_WON ? derive_win(t, NULL, i, out, err) : st;
}

uint8_t kvs_table_outcome(const KvsTable *t, uint64_t i)
{
    if (t->packed == NULL)
        return t->values[i];
    uint8_t v = 0;
    ErrBuf err;
    return kvs_packed_entry(t->packed, i, &v, &err) == STATUS_OK && kvs_index_canonical(&t->ix, i)
               ? v
               : 0;
}

uint8_t kvs_table_entry(const KvsTable *t, uint64_t i)
{
    uint8_t v = 0;
    ErrBuf err;
    return entry_at(t, i, &v, &err) == STATUS_OK ? v : 0;
}

Status kvs_table_read(const KvsTable *t, uint64_t start, uint64_t n, uint8_t *out, ErrBuf *err)
{
    if (start > t->ix.size || n > t->ix.size - start)
        return err_set(err, STATUS_UNSUPPORTED, "the range is past the table");
    if (t->packed != NULL) {
        const Status st = unpack(t, err);
        if (st != STATUS_OK)
            return st;
    }
    memcpy(out, (t->packed ? t->unpacked : t->values) + start, n);
    return STATUS_OK;
}

static uint64_t header_count(const KvsTable *t, const char *name)
{
    const char *v = kvs_file_header_field(t->header, name);
    return v ? strtoull(v, NULL, 10) : 0;
}

void kvs_table_counts(const KvsTable *t, KvsSolveStats *out)
{
    memset(out, 0, sizeof *out);
    if (t->packed == NULL) {
        kvs_table_stats(&t->ix, t->values, out);
        return;
    }
    // The packed form repeats the full table's counts (verified by the checksum).
    out->won = header_count(t, "won");
    out->lost = header_count(t, "lost");
    out->drawn = header_count(t, "drawn");
    out->unused = header_count(t, "unused");
    const char *longest = kvs_file_header_field(t->header, "longest");
    out->longest = longest ? atoi(longest) : -1;
    out->longest_index = header_count(t, "longest-entry");
}

Status kvs_table_pack(const KvsTable *t, const KvsTable *base, const char *path,
                      const KvsPackOptions *opt, KvsPackStats *stats, ErrBuf *err)
{
    if (t->packed != NULL)
        return err_set(err, STATUS_UNSUPPORTED, "%s is packed already", t->path);
    KvsRules want;
    if (base != NULL) {
        if (!kvs_pack_base_rules(&t->rules, &want) ||
            (want.soldiers = t->rules.soldiers, !same_rules(&want, &base->rules))) {
            char a[64];
            kvs_rules_name(&base->rules, a, sizeof a);
            return err_set(err, STATUS_UNSUPPORTED, "the table for %s is not this one's base", a);
        }
        if (base->packed != NULL) {
            const Status st = unpack(base, err);
            if (st != STATUS_OK)
                return st;
        }
    }
    KvsSolveStats c;
    kvs_table_counts(t, &c);
    // The full header after its first line, with the one count it lacks, and the base.
    char head[KVS_HEADER], named[200] = "";
    if (base != NULL) {
        char rn[64];
        kvs_rules_name(&base->rules, rn, sizeof rn);
        snprintf(named, sizeof named, "base %s\nbase-checksum %016llx\n", rn,
                 (unsigned long long)base->checksum);
    }
    const char *rest = strchr(t->header, '\n');
    snprintf(head, sizeof head, "%sunused %llu\n%s", rest ? rest + 1 : "",
             (unsigned long long)c.unused, named);
    return kvs_pack_write(path, &t->ix, t->values,
                          base ? (base->packed ? base->unpacked : base->values) : NULL, head,
                          opt, stats, err);
}

Status kvs_pos_from_text(const char *text, KvsPos *out, int *turn, int *soldiers, ErrBuf *err)
{
    uint32_t sold[2] = {0, 0};
    int king[2] = {-1, -1};
    int rank = KVS_SIZE - 1, file = 0;
    const char *p = text;
    for (; *p && *p != ' '; p++) {
        const char c = *p;
        if (c == '/') {
            if (file != KVS_SIZE || rank == 0)
                return err_set(err, STATUS_PARSE, "not a 5x5 position: %s", text);
            rank--;
            file = 0;
            continue;
        }
        if (c >= '1' && c <= '5') {
            file += c - '0';
        } else if (c == 'S' || c == 's' || c == 'K' || c == 'k') {
            if (file >= KVS_SIZE)
                return err_set(err, STATUS_PARSE, "not a 5x5 position: %s", text);
            const int who = c == 'S' || c == 'K' ? 0 : 1;
            const int sq = rank * KVS_SIZE + file;
            if (c == 'K' || c == 'k')
                king[who] = sq;
            else
                sold[who] |= 1u << sq;
            file++;
        } else {
            return err_set(err, STATUS_PARSE, "not a 5x5 King's Valley position: %s", text);
        }
        if (file > KVS_SIZE)
            return err_set(err, STATUS_PARSE, "not a 5x5 position: %s", text);
    }
    if (rank != 0 || file != KVS_SIZE || king[0] < 0 || king[1] < 0 || (p[0] != ' ') ||
        (p[1] != '1' && p[1] != '2'))
        return err_set(err, STATUS_PARSE, "not a 5x5 King's Valley position: %s", text);
    const int mover = p[1] - '1';
    out->soldiers[0] = sold[mover];
    out->soldiers[1] = sold[!mover];
    out->king[0] = (uint8_t)king[mover];
    out->king[1] = (uint8_t)king[!mover];
    *turn = mover;
    const int n0 = __builtin_popcount(sold[0]), n1 = __builtin_popcount(sold[1]);
    *soldiers = n0 == n1 ? n0 : -1;
    return STATUS_OK;
}

void kvs_pos_text(const KvsPos *p, int mover, int ply, char *out)
{
    char *o = out;
    for (int rank = KVS_SIZE - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < KVS_SIZE; file++) {
            const int sq = rank * KVS_SIZE + file;
            char c = 0;
            for (int side = 0; side < 2; side++) {
                const bool first = (side == 0) == (mover == 0);
                if (p->king[side] == sq)
                    c = first ? 'K' : 'k';
                else if (p->soldiers[side] & (1u << sq))
                    c = first ? 'S' : 's';
            }
            if (c == 0) {
                empty++;
                continue;
            }
            if (empty)
                *o++ = (char)('0' + empty);
            empty = 0;
            *o++ = c;
        }
        if (empty)
            *o++ = (char)('0' + empty);
        if (rank > 0)
            *o++ = '/';
    }
    snprintf(o, KVS_TEXT_CAP - (size_t)(o - out), " %d %d", mover + 1, ply);
}

static KvsValue value_of_byte(uint8_t v)
{
    KvsValue r = {0, 0};
    if (v != 0) {
        r.plies = v - 1;
        r.outcome = (r.plies & 1) ? 1 : -1;
    }
    return r;
}

/* The table's value of a position in play, seen by its side to move. */
static Status lookup(const KvsTable *t, const Game *g, const GameState *s, KvsValue *out,
                     ErrBuf *err)
{
    StrBuf text;
    sb_init(&text);
    g->ops->format_position(g, s, &text);
    KvsPos p;
    int turn, soldiers;
    Status st = kvs_pos_from_text(sb_str(&text), &p, &turn, &soldiers, err);
    sb_free(&text);
    if (st != STATUS_OK)
        return st;
    if (soldiers != t->rules.soldiers)
        return err_set(err, STATUS_UNSUPPORTED,
                       "the table holds positions with %d soldiers a side, not this one",
                       t->rules.soldiers);
    int stab;
    uint8_t v;
    st = entry_at(t, kvs_index_of(&t->ix, &p, &stab), &v, err);
    if (st == STATUS_OK)
        *out = value_of_byte(v);
    return st;
}

Status kvs_probe_after(const KvsTable *t, const Game *g, const GameState *child, int mover,
                       KvsValue *out, ErrBuf *err)
{
    if (game_is_over(g, child)) {
        double ret[MAX_PLAYERS];
        g->ops->returns(g, child, ret);
        out->outcome = ret[mover] > 0 ? 1 : ret[mover] < 0 ? -1 : 0;
        out->plies = out->outcome != 0 ? 1 : 0;
        return STATUS_OK;
    }
    KvsValue v;
    const Status st = lookup(t, g, child, &v, err);
    if (st != STATUS_OK)
        return st;
    out->outcome = -v.outcome;
    out->plies = v.outcome != 0 ? v.plies + 1 : 0;
    return STATUS_OK;
}

int kvs_value_compare(KvsValue a, KvsValue b)
{
    if (a.outcome != b.outcome)
        return a.outcome - b.outcome;
    if (a.outcome > 0)
        return b.plies - a.plies;
    if (a.outcome < 0)
        return a.plies - b.plies;
    return 0;
}

void kvs_value_format(KvsValue v, StrBuf *out)
{
    if (v.outcome == 0)
        sb_puts(out, "draw");
    else
        sb_printf(out, "%s in %d", v.outcome > 0 ? "win" : "loss", v.plies);
}

Status kvs_probe_moves(const KvsTable *t, const Game *g, const GameState *s, MoveList *moves,
                       KvsValue *values, ErrBuf *err)
{
    if (game_is_over(g, s))
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    const int mover = g->ops->to_move(g, s);
    g->ops->gen_moves(g, s, moves);
    GameState *child = game_state_clone(g, s);
    void *undo = game_undo_new(g);
    Status st = child && undo ? STATUS_OK : err_set(err, STATUS_NOMEM, "out of memory");
    for (int k = 0; k < moves->count && st == STATUS_OK; k++) {
        g->ops->make(g, child, moves->moves[k], undo);
        st = kvs_probe_after(t, g, child, mover, &values[k], err);
        g->ops->unmake(g, child, moves->moves[k], undo);
    }
    free(child);
    free(undo);
    return st;
}

Status kvs_probe(const KvsTable *t, const Game *g, const GameState *s, KvsValue *out,
                 ErrBuf *err)
{
    if (game_is_over(g, s))
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    // The table assumes the king may move; on the first ply under first-move-soldier it
    // may not, so that position's value is the best of the moves allowed.
    StrBuf text;
    sb_init(&text);
    g->ops->format_position(g, s, &text);
    const char *sp = strrchr(sb_str(&text), ' ');
    const bool first_ply = sp != NULL && strcmp(sp, " 0") == 0;
    sb_free(&text);
    if (!(first_ply && game_option_is(g, "first-move-soldier", "on")))
        return lookup(t, g, s, out, err);
    MoveList *moves = malloc(sizeof *moves);
    KvsValue *vals = malloc(sizeof *vals * MOVELIST_CAP);
    Status st = moves && vals ? kvs_probe_moves(t, g, s, moves, vals, err)
                              : err_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK) {
        *out = vals[0];
        for (int k = 1; k < moves->count; k++)
            if (kvs_value_compare(vals[k], *out) > 0)
                *out = vals[k];
    }
    free(moves);
    free(vals);
    return st;
}

Status kvs_best_move(const KvsTable *t, const Game *g, const GameState *s, Rng *rng,
                     Move *best, KvsValue *value, ErrBuf *err)
{
    MoveList *moves = malloc(sizeof *moves);
    KvsValue *vals = malloc(sizeof *vals * MOVELIST_CAP);
    Status st = moves && vals ? kvs_probe_moves(t, g, s, moves, vals, err)
                              : err_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && moves->count == 0)
        st = err_set(err, STATUS_ILLEGAL, "no legal move");
    if (st == STATUS_OK) {
        int pick = 0, ties = 1;
        for (int k = 1; k < moves->count; k++) {
            const int c = kvs_value_compare(vals[k], vals[pick]);
            if (c > 0) {
                pick = k;
                ties = 1;
            } else if (c == 0 && rng_below(rng, (uint32_t)++ties) == 0) {
                pick = k; // reservoir sampling: each equal move is kept with 1/ties
            }
        }
        *best = moves->moves[pick];
        *value = vals[pick];
    }
    free(moves);
    free(vals);
    return st;
}
