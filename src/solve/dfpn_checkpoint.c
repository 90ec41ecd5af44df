/*
 * dfpn_checkpoint.c - the prover's checkpoint file: the text head, the entries in a fixed
 * little-endian layout (a table written on one machine resumes on another), and an
 * FNV-1a checksum over both, so that a flipped or missing byte is caught before a damaged
 * table feeds the search wrong proofs.
 */
#include "solve/dfpn_checkpoint.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { REC = 24, BATCH = 4096, LINE_CAP = 8192 };
static const char MAGIC[] = "crown-prove-checkpoint";
static const uint64_t FNV_BASIS = 0xcbf29ce484222325u, FNV_PRIME = 0x100000001b3u;

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const uint8_t *b = data;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= FNV_PRIME;
    }
    return h;
}

static void put_le(uint8_t *b, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *b, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static void pack(uint8_t *b, const DfpnEntry *e)
{
    put_le(b, e->key, 8);
    put_le(b + 8, e->pn, 4);
    put_le(b + 12, e->dn, 4);
    put_le(b + 16, e->work, 4);
    put_le(b + 20, (uint32_t)e->depth, 4);
}

static DfpnEntry unpack(const uint8_t *b)
{
    return (DfpnEntry){.key = get_le(b, 8),
                       .pn = (uint32_t)get_le(b + 8, 4),
                       .dn = (uint32_t)get_le(b + 12, 4),
                       .work = (uint32_t)get_le(b + 16, 4),
                       .depth = (int32_t)(uint32_t)get_le(b + 20, 4)};
}

void dfpn_ckpt_question(const Game *g, const GameState *s, StrBuf *out)
{
    sb_printf(out, "game %s\n", g->ops->name);
    for (int i = 0; i < g->ops->option_count; i++)
        sb_printf(out, "rule %s=%s\n", g->ops->options[i].name, g->values[i]);
    StrBuf pos;
    sb_init(&pos);
    g->ops->format_position(g, s, &pos);
    sb_printf(out, "position %s\n", sb_str(&pos));
    sb_free(&pos);
}

Status dfpn_ckpt_write(const char *path, const char *question, const DfpnCkptInfo *info,
                       const DfpnEntry *table, uint64_t slots, uint64_t *bytes, ErrBuf *err)
{
    uint64_t used = 0;
    for (uint64_t i = 0; i < slots; i++)
        used += table[i].work != 0;
    StrBuf head;
    sb_init(&head);
    sb_printf(&head, "%s %d\n%s", MAGIC, DFPN_CKPT_VERSION, question);
    for (int r = 0; r < info->n_runs; r++)
        sb_printf(&head, "run %d %" PRIu32 " %" PRIu32 "\n", info->runs[r].attacker,
                  info->runs[r].pn, info->runs[r].dn);
    sb_printf(&head, "nodes %" PRIu64 "\nseconds %.3f\nentries %" PRIu64 "\n", info->nodes,
              info->seconds, used);
    char tmp[4096];
    uint8_t *buf = malloc((size_t)BATCH * REC);
    if (sb_failed(&head) || !buf) {
        sb_free(&head);
        free(buf);
        return err_set(err, STATUS_NOMEM, "no memory to write the checkpoint %s", path);
    }
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        sb_free(&head);
        free(buf);
        return err_set(err, STATUS_IO, "the checkpoint path %.60s... is too long", path);
    }
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        const int e = errno;
        sb_free(&head);
        free(buf);
        return err_set(err, STATUS_IO, "cannot write %s: %s", tmp, strerror(e));
    }
    uint64_t h = fnv(FNV_BASIS, sb_str(&head), head.len);
    bool ok = fwrite(sb_str(&head), 1, head.len, f) == head.len;
    *bytes = head.len + used * REC + 8;
    sb_free(&head);
    size_t n = 0;
    for (uint64_t i = 0; ok && i <= slots; i++) {
        if (i < slots && table[i].work != 0)
            pack(buf + REC * n++, &table[i]);
        if (n == BATCH || (i == slots && n > 0)) {
            h = fnv(h, buf, n * REC);
            ok = fwrite(buf, REC, n, f) == n;
            n = 0;
        }
    }
    put_le(buf, h, 8);
    ok = ok && fwrite(buf, 1, 8, f) == 8;
    free(buf);
    ok = fflush(f) == 0 && fsync(fileno(f)) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        const int e = errno;
        remove(tmp);
        return err_set(err, STATUS_IO, "cannot write %s: %s", path, strerror(e ? e : EIO));
    }
    return STATUS_OK;
}

/* The next line of the head, checksummed, without its newline; false at a line cut
 * short or too long, which in a head this program wrote means damage. */
static bool head_line(FILE *f, char *line, uint64_t *h)
{
    if (!fgets(line, LINE_CAP, f))
        return false;
    const size_t n = strlen(line);
    if (n == 0 || line[n - 1] != '\n')
        return false;
    *h = fnv(*h, line, n);
    line[n - 1] = '\0';
    return true;
}

static bool read_u64(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    const unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || *text == '-')
        return false;
    *out = v;
    return true;
}

/* The first line where the file's question and ours differ, for a message that says
 * what changed. */
static void first_difference(const char *a, const char *b, char *la, char *lb, size_t cap)
{
    while (*a && *b) {
        const size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
        if (na != nb || memcmp(a, b, na) != 0)
            break;
        a += na + (a[na] == '\n');
        b += nb + (b[nb] == '\n');
    }
    // A question that ends first (a summed one beside a weak one) says so.
    snprintf(la, cap, "%.*s", *a ? (int)strcspn(a, "\n") : 9, *a ? a : "(no line)");
    snprintf(lb, cap, "%.*s", *b ? (int)strcspn(b, "\n") : 9, *b ? b : "(no line)");
}

/* The head up to the entries. With question NULL any question is taken, and put into
 * `asked` when that is not NULL. */
static Status read_head(FILE *f, const char *path, const char *question, StrBuf *asked,
                        DfpnCkptInfo *info, uint64_t *h, char *line, ErrBuf *err)
{
    const Status bad = STATUS_CORRUPT;
    if (!head_line(f, line, h) || strncmp(line, MAGIC, sizeof MAGIC - 1) != 0 ||
        line[sizeof MAGIC - 1] != ' ')
        return err_set(err, bad, "%s is not a crown prove checkpoint", path);
    uint64_t version;
    if (!read_u64(line + sizeof MAGIC, &version) || version != DFPN_CKPT_VERSION)
        return err_set(err, bad, "%s is a checkpoint of format '%.20s'; this crown reads %d",
                       path, line + sizeof MAGIC, DFPN_CKPT_VERSION);
    StrBuf q;
    sb_init(&q);
    bool ok;
    while ((ok = head_line(f, line, h)) && strncmp(line, "run ", 4) != 0)
        sb_printf(&q, "%s\n", line);
    if (ok && sb_failed(&q)) {
        sb_free(&q);
        return err_set(err, STATUS_NOMEM, "no memory to read the checkpoint %s", path);
    }
    if (ok && question && strcmp(sb_str(&q), question) != 0) {
        char mine[80], theirs[80];
        first_difference(sb_str(&q), question, theirs, mine, sizeof mine);
        sb_free(&q);
        return err_set(err, STATUS_CONFLICT,
                       "%s is for another question: it has '%s' where this one has '%s'",
                       path, theirs, mine);
    }
    if (ok && asked)
        sb_puts(asked, sb_str(&q));
    sb_free(&q);
    if (!ok)
        return err_set(err, bad, "%s is damaged: its head is cut short", path);
    info->n_runs = 0;
    do {
        int attacker;
        unsigned long pn, dn;
        char tail;
        if (info->n_runs == DFPN_CKPT_MAX_RUNS ||
            sscanf(line + 4, "%d %lu %lu %c", &attacker, &pn, &dn, &tail) != 3 ||
            attacker < 0 || attacker > 1 || pn > UINT32_MAX || dn > UINT32_MAX)
            return err_set(err, bad, "%s is damaged: bad line '%.40s'", path, line);
        info->runs[info->n_runs++] = (DfpnCkptRun){attacker, (uint32_t)pn, (uint32_t)dn};
    } while ((ok = head_line(f, line, h)) && strncmp(line, "run ", 4) == 0);
    char *end;
    if (!ok || strncmp(line, "nodes ", 6) != 0 || !read_u64(line + 6, &info->nodes) ||
        !head_line(f, line, h) || strncmp(line, "seconds ", 8) != 0 ||
        !((info->seconds = strtod(line + 8, &end)) >= 0) || *end ||
        !head_line(f, line, h) || strncmp(line, "entries ", 8) != 0 ||
        !read_u64(line + 8, &info->entries))
        return err_set(err, bad, "%s is damaged: bad line '%.40s'", path, ok ? line : "");
    return STATUS_OK;
}

static Status read_file(const char *path, const char *question, StrBuf *asked,
                        DfpnCkptInfo *info, DfpnCkptInsert insert, void *ctx, ErrBuf *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return err_set(err, STATUS_NOT_FOUND, "no checkpoint at %s", path);
        return err_set(err, STATUS_IO, "cannot read %s: %s", path, strerror(errno));
    }
    char *line = malloc(LINE_CAP);
    uint8_t *buf = malloc((size_t)BATCH * REC);
    if (!line || !buf) {
        fclose(f);
        free(line);
        free(buf);
        return err_set(err, STATUS_NOMEM, "no memory to read the checkpoint %s", path);
    }
    uint64_t h = FNV_BASIS;
    Status st = read_head(f, path, question, asked, info, &h, line, err);
    for (uint64_t at = 0; st == STATUS_OK && at < info->entries;) {
        const size_t n = (size_t)(info->entries - at < BATCH ? info->entries - at : BATCH);
        if (fread(buf, REC, n, f) != n) {
            st = err_set(err, STATUS_CORRUPT, "%s is damaged: cut short in its entries", path);
            break;
        }
        h = fnv(h, buf, n * REC);
        for (size_t i = 0; i < n && st == STATUS_OK; i++) {
            const DfpnEntry e = unpack(buf + REC * i);
            // A slot the search never fills: no work, a root entry, or no numbers at all.
            if (e.work == 0 || e.depth < 1 || (e.pn == 0 && e.dn == 0))
                st = err_set(err, STATUS_CORRUPT, "%s is damaged: entry %" PRIu64
                             " is not one the prover writes", path, at + i);
            else
                insert(ctx, &e);
        }
        at += n;
    }
    if (st == STATUS_OK) {
        if (fread(buf, 1, 8, f) != 8)
            st = err_set(err, STATUS_CORRUPT, "%s is damaged: its checksum is missing", path);
        else if (get_le(buf, 8) != h)
            st = err_set(err, STATUS_CORRUPT, "%s is damaged: its checksum does not match",
                         path);
        else if (fgetc(f) != EOF)
            st = err_set(err, STATUS_CORRUPT, "%s is damaged: bytes after its end", path);
    }
    fclose(f);
    free(line);
    free(buf);
    return st;
}

Status dfpn_ckpt_read(const char *path, const char *question, DfpnCkptInfo *info,
                      DfpnCkptInsert insert, void *ctx, ErrBuf *err)
{
    return read_file(path, question, NULL, info, insert, ctx, err);
}

/* The entries kept so far, a min-heap on (work, key): its top is the first to give way
 * to an entry of more work. */
typedef struct Shrink {
    DfpnEntry *heap;
    uint64_t count, cap;
} Shrink;

static bool less_work(const DfpnEntry *a, const DfpnEntry *b)
{
    return a->work != b->work ? a->work < b->work : a->key > b->key;
}

static void sift_down(DfpnEntry *heap, uint64_t n, uint64_t i)
{
    for (;;) {
        uint64_t least = i;
        const uint64_t l = 2 * i + 1, r = l + 1;
        if (l < n && less_work(&heap[l], &heap[least]))
            least = l;
        if (r < n && less_work(&heap[r], &heap[least]))
            least = r;
        if (least == i)
            return;
        const DfpnEntry t = heap[i];
        heap[i] = heap[least];
        heap[least] = t;
        i = least;
    }
}

static void shrink_take(void *ctx, const DfpnEntry *e)
{
    Shrink *k = ctx;
    if (k->count < k->cap) {
        uint64_t i = k->count++;
        k->heap[i] = *e;
        while (i > 0 && less_work(&k->heap[i], &k->heap[(i - 1) / 2])) {
            const DfpnEntry t = k->heap[i];
            k->heap[i] = k->heap[(i - 1) / 2];
            k->heap[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
    } else if (k->cap > 0 && less_work(&k->heap[0], e)) {
        k->heap[0] = *e;
        sift_down(k->heap, k->count, 0);
    }
}

/* Key order; a position's proof, disproof and open numbers are separate entries of one
 * key, ordered by their numbers. */
static int by_key(const void *pa, const void *pb)
{
    const DfpnEntry *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->pn != b->pn)
        return a->pn < b->pn ? -1 : 1;
    if (a->dn != b->dn)
        return a->dn < b->dn ? -1 : 1;
    return (a->depth > b->depth) - (a->depth < b->depth);
}

Status dfpn_ckpt_shrink(const char *from, const char *to, uint64_t keep, DfpnShrinkStats *stats,
                        ErrBuf *err)
{
    *stats = (DfpnShrinkStats){0};
    Shrink k = {.heap = malloc((size_t)(keep ? keep : 1) * sizeof(DfpnEntry)), .cap = keep};
    StrBuf question;
    sb_init(&question);
    if (!k.heap) {
        sb_free(&question);
        return err_set(err, STATUS_NOMEM, "no memory to keep %" PRIu64 " entries", keep);
    }
    DfpnCkptInfo info;
    Status st = read_file(from, NULL, &question, &info, shrink_take, &k, err);
    if (st == STATUS_OK && sb_failed(&question))
        st = err_set(err, STATUS_NOMEM, "no memory to read the checkpoint %s", from);
    if (st == STATUS_OK) {
        // The heap's top is the least work kept; read it before the sort undoes the heap.
        stats->least_work = k.count ? k.heap[0].work : 0;
        // In key order, so that the same file and count give the same bytes.
        qsort(k.heap, (size_t)k.count, sizeof *k.heap, by_key);
        stats->entries_before = info.entries;
        stats->entries = k.count;
        info.entries = k.count;
        st = dfpn_ckpt_write(to, sb_str(&question), &info, k.heap, k.count, &stats->bytes, err);
    }
    sb_free(&question);
    free(k.heap);
    return st;
}
