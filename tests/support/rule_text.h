/*
 * rule_text.h - game creation from rule settings written "name=value", the way tests
 * and perft tables write them. The text is split at its first '=' here, at the tests'
 * edge, with the same splitter as the command line, and the game gets the pairs.
 */
#ifndef CROWN_TESTS_SUPPORT_RULE_TEXT_H
#define CROWN_TESTS_SUPPORT_RULE_TEXT_H

#include "core/game_api.h"

/* game_create with settings as "name=value" texts (NULL when n is 0); a setting that is
 * not of that form is an error like any other bad setting. */
Status rule_text_create(const GameOps *ops, int players, const char *const *settings, int n,
                        Game **out, ErrBuf *err);

#endif
