/*
 * fuzz_support.h - what the libFuzzer targets share: turning the fuzzer's bytes into
 * text, creating the game an input names, and stopping loudly when a property fails.
 *
 * Inputs that name a game start with a line "GAME [rule=value ...]", the layout of the
 * perft tables, so that their lines seed the corpora as they are.
 */
#ifndef CROWN_TESTS_FUZZ_SUPPORT_H
#define CROWN_TESTS_FUZZ_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

/* A NUL-terminated copy of the input (an embedded NUL ends the text); free with free().
 * NULL when memory is short. */
char *fuzz_text(const uint8_t *data, size_t size);

/* Cuts the first line off *text (in place) and returns it; *text moves past it. */
char *fuzz_line(char **text);

/* Whether the rule setting "NAME=VALUE" (a copy is split) names a file for any game: a
 * RULE_FILE option set to anything but its default. The fuzzers never let a game read
 * files, which could block (/dev/stdin) or be slow. */
bool fuzz_reads_a_file(const char *setting);

/* Creates the game named by `line` ("GAME [rule=value ...]"), or NULL if it names none,
 * its rules are refused, or they ask for a file. */
Game *fuzz_game(const char *line);

/* The game named by an input's first line: *text is the input as text (the caller frees
 * it) and *rest what follows that line. NULL, with nothing to free, when the input names
 * no game this way. */
Game *fuzz_input_game(const uint8_t *data, size_t size, char **text, char **rest);

/* Reports a failed property with the input's text and aborts, so that libFuzzer keeps
 * the input as a crash. */
void fuzz_fail(const char *what, const char *detail) __attribute__((noreturn));

#endif
