/*
 * fuzz_record.c - libFuzzer target: the saved-game reader (record_parse, which
 * record_load runs on a file's text). Any text must be accepted or refused cleanly; an
 * accepted record, written out and read back, must be the same record and write the
 * same text.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/record.h"
#include "play/registry.h"
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether a "rule" line of the record asks for a file (see fuzz_reads_a_file). */
static bool rules_name_a_file(const char *text)
{
    for (const char *l = text; l != NULL; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, "rule ", 5) != 0)
            continue;
        const char *end = strchr(l, '\n');
        const size_t len = end ? (size_t)(end - l) : strlen(l);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line ? len : sizeof line - 1), l);
        if (fuzz_reads_a_file(line + 5))
            return true;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (text == NULL)
        return 0;
    GameRecord r, r2;
    ErrBuf err;
    if (rules_name_a_file(text) || record_parse(text, registry_find, &r, &err) != STATUS_OK) {
        free(text);
        return 0;
    }
    StrBuf out, out2;
    sb_init(&out);
    sb_init(&out2);
    record_write(&r, NULL, &out);
    if (record_parse(sb_str(&out), registry_find, &r2, &err) != STATUS_OK)
        fuzz_fail("a written record is refused", err.msg);
    const Game *g = r.game;
    if (r2.game->ops != g->ops || r2.count != r.count ||
        memcmp(r2.game->values, g->values, sizeof g->values) != 0 ||
        memcmp(r2.moves, r.moves, sizeof *r.moves * (size_t)r.count) != 0 ||
        memcmp(r2.start, r.start, g->state_size) != 0 ||
        memcmp(r2.current, r.current, g->state_size) != 0 || strcmp(r2.players, r.players) != 0)
        fuzz_fail("a written record reads back different", sb_str(&out));
    record_write(&r2, NULL, &out2);
    if (strcmp(sb_str(&out), sb_str(&out2)) != 0)
        fuzz_fail("the record text is not stable", sb_str(&out2));
    sb_free(&out);
    sb_free(&out2);
    record_free(&r);
    record_free(&r2);
    free(text);
    return 0;
}
