/*
 * kd_setup.c - the back rank: drawn from the 16-piece pool, numbered, and placed.
 *
 * The draw (R-KD-2, R-KD-3): seven pieces taken at random without replacement from
 * {Q, L, R, R, B, B, N, N, A, A, G, G, M, M, E, E}, then those seven and the king shuffled
 * over the eight first-rank squares (with king-file=e the king stays on e1 and the seven
 * are shuffled over the other squares). Black gets the same piece on the same file.
 *
 * Set-up ids number every possible back rank: the rank read from a1 to h1 as a word over
 * the alphabet K Q L R B N A G M E, in dictionary order, from 0. Counting the words that
 * complete a prefix is a small product of binomials, so the id and its back rank convert
 * both ways without tables.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "games/kingdown/kd_internal.h"

/* The alphabet of ids, in order, and how many of each the pool (plus the king) has. */
static const uint8_t ID_ORDER[10] = {KD_KING,   KD_QUEEN, KD_PALADIN, KD_ROOK,    KD_BISHOP,
                                     KD_KNIGHT, KD_ARCHER, KD_GUARD,  KD_MAESTER, KD_BEAST};
static const uint8_t ID_CAP[10] = {1, 1, 1, 2, 2, 2, 2, 2, 2, 2};

/* The pool the seven pieces are drawn from. */
static const uint8_t POOL[16] = {KD_QUEEN,  KD_PALADIN, KD_ROOK,    KD_ROOK,   KD_BISHOP, KD_BISHOP,
                                 KD_KNIGHT, KD_KNIGHT,  KD_ARCHER,  KD_ARCHER, KD_GUARD,  KD_GUARD,
                                 KD_MAESTER, KD_MAESTER, KD_BEAST,  KD_BEAST};

static const uint8_t CLASSIC[8] = {KD_ROOK, KD_KNIGHT, KD_BISHOP, KD_QUEEN,
                                   KD_KING, KD_BISHOP, KD_KNIGHT, KD_ROOK};

static uint64_t binom(int n, int k)
{
    uint64_t r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

/* Words of length `len` that use letter i at most left[i] times and the king (letter 0)
 * exactly left[0] times. */
static uint64_t completions(const int left[10], int len)
{
    // ways[l]: words of length l over the letters handled so far (king: exact count).
    uint64_t ways[9] = {0};
    if (left[0] > len)
        return 0;
    ways[left[0]] = 1;
    for (int i = 1; i < 10; i++) {
        uint64_t next[9] = {0};
        for (int l = 0; l <= len; l++) {
            if (ways[l] == 0)
                continue;
            for (int j = 0; j <= left[i] && l + j <= len; j++)
                next[l + j] += ways[l] * binom(l + j, j);
        }
        memcpy(ways, next, sizeof ways);
    }
    return ways[len];
}

static int letter_index(int type)
{
    for (int i = 0; i < 10; i++)
        if (ID_ORDER[i] == type)
            return i;
    return -1;
}

uint64_t kd_setup_count(void)
{
    int left[10];
    for (int i = 0; i < 10; i++)
        left[i] = ID_CAP[i];
    return completions(left, 8);
}

uint64_t kd_setup_id(const uint8_t rank[8])
{
    int left[10];
    for (int i = 0; i < 10; i++)
        left[i] = ID_CAP[i];
    uint64_t id = 0;
    for (int pos = 0; pos < 8; pos++) {
        const int actual = letter_index(rank[pos]);
        for (int i = 0; i < actual; i++) {
            if (left[i] == 0)
                continue;
            left[i]--;
            id += completions(left, 7 - pos);
            left[i]++;
        }
        left[actual]--;
    }
    return id;
}

bool kd_setup_from_id(uint64_t id, uint8_t rank[8])
{
    if (id >= kd_setup_count())
        return false;
    int left[10];
    for (int i = 0; i < 10; i++)
        left[i] = ID_CAP[i];
    for (int pos = 0; pos < 8; pos++) {
        for (int i = 0; i < 10; i++) {
            if (left[i] == 0)
                continue;
            left[i]--;
            const uint64_t n = completions(left, 7 - pos);
            if (id < n) {
                rank[pos] = ID_ORDER[i];
                break;
            }
            id -= n;
            left[i]++;
        }
    }
    return true;
}

void kd_draw_back_rank(const KdConfig *c, uint64_t seed, uint8_t rank[8])
{
    Rng rng;
    rng_seed(&rng, seed);
    uint8_t pool[16];
    memcpy(pool, POOL, sizeof pool);
    // The first seven of a Fisher-Yates shuffle are a uniform draw without replacement.
    for (int i = 0; i < 7; i++) {
        const int j = i + (int)rng_below(&rng, (uint32_t)(16 - i));
        const uint8_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    uint8_t row[8];
    memcpy(row, pool, 7);
    row[7] = KD_KING;
    if (c->king_file_e) {
        // Shuffle the seven over the files other than e.
        for (int i = 6; i > 0; i--) {
            const int j = (int)rng_below(&rng, (uint32_t)(i + 1));
            const uint8_t t = row[i];
            row[i] = row[j];
            row[j] = t;
        }
        for (int f = 0, k = 0; f < 8; f++)
            rank[f] = f == 4 ? KD_KING : row[k++];
        return;
    }
    for (int i = 7; i > 0; i--) {
        const int j = (int)rng_below(&rng, (uint32_t)(i + 1));
        const uint8_t t = row[i];
        row[i] = row[j];
        row[j] = t;
    }
    memcpy(rank, row, 8);
}

Status kd_parse_setup(const char *text, KdSetupKind *kind, uint8_t rank[8], ErrBuf *err)
{
    if (strcmp(text, "random") == 0) {
        *kind = KD_SETUP_RANDOM;
        return STATUS_OK;
    }
    if (strcmp(text, "classic") == 0) {
        *kind = KD_SETUP_FIXED;
        memcpy(rank, CLASSIC, 8);
        return STATUS_OK;
    }
    if (isdigit((unsigned char)text[0])) {
        char *end;
        errno = 0;
        const unsigned long long id = strtoull(text, &end, 10);
        uint8_t row[8];
        if (errno != 0 || *end != '\0' || !kd_setup_from_id(id, row))
            return err_set(err, STATUS_PARSE, "set-up ids run from 0 to %llu, not '%.40s'",
                           (unsigned long long)(kd_setup_count() - 1), text);
        *kind = KD_SETUP_FIXED;
        memcpy(rank, row, 8);
        return STATUS_OK;
    }
    uint8_t row[8];
    int count[KD_TYPES] = {0};
    size_t len = strlen(text);
    if (len != 8)
        return err_set(err, STATUS_PARSE,
                       "setup is random, classic, a set-up id, or eight piece letters from a1 "
                       "to h1 such as RNBQKBNR; not '%.40s'",
                       text);
    for (int i = 0; i < 8; i++) {
        const int t = kd_type_of_letter((char)toupper((unsigned char)text[i]));
        if (t == KD_EMPTY || t == KD_PAWN)
            return err_set(err, STATUS_PARSE, "'%c' is not a back-rank piece letter (K Q L R B N A G M E)",
                           text[i]);
        row[i] = (uint8_t)t;
        count[t]++;
    }
    for (int i = 0; i < 10; i++)
        if (count[ID_ORDER[i]] > ID_CAP[i] || (i == 0 && count[KD_KING] != 1))
            return err_set(err, STATUS_PARSE,
                           "a back rank has one king and at most the pool's pieces (one Q and "
                           "one L, two of each other); '%s' does not fit",
                           text);
    *kind = KD_SETUP_FIXED;
    memcpy(rank, row, 8);
    return STATUS_OK;
}

void kd_start_position(const KdConfig *c, KdPos *p, const uint8_t rank[8])
{
    memset(p, 0, sizeof *p);
    p->ep = p->chain_sq = p->haste_sq = KD_NO_SQ;
    p->fullmove = 1;
    for (int f = 0; f < 8; f++) {
        kd_put(c, p, f, 0, rank[f]);
        kd_put(c, p, 8 + f, 0, KD_PAWN);
        kd_put(c, p, 48 + f, 1, KD_PAWN);
        kd_put(c, p, 56 + f, 1, rank[f]);
    }
    if (c->castling) {
        // The outermost rook on each side of the king keeps the castling right, as the
        // corner rook does in chess; with castling-rooks=all an inner one too.
        const int kf = p->king[0];
        int low = -1, high = -1;
        for (int f = 0; f < 8; f++) {
            if (rank[f] != KD_ROOK)
                continue;
            if (c->castle_all_rooks)
                p->castle |= kd_bit(f) | kd_bit(56 + f);
            if (f < kf && low < 0)
                low = f;
            if (f > kf)
                high = f;
        }
        const int rooks[2] = {low, high};
        for (int i = 0; i < 2; i++)
            if (rooks[i] >= 0)
                p->castle |= kd_bit(rooks[i]) | kd_bit(56 + rooks[i]);
    }
    p->phase = c->armies ? KD_PHASE_PICK_KING : KD_PHASE_PLAY;
    p->hash = kd_compute_hash(c, p);
}
