/*
 * spelling.h - the other ways players write a move: upper case, squares run together
 * (`b1b4`) or joined by a dash (`e2-e4`). play_parse_turn tries them when the game's own
 * notation refuses a text, so the terminal and the web read the same spellings.
 */
#ifndef CROWN_PLAY_SPELLING_H
#define CROWN_PLAY_SPELLING_H

#include <stddef.h>

enum { PLAY_SPELLING_MAX = 8 }; /* the most respellings of one text */

/* Writes the respellings of `text` that differ from it and from each other into
 * out[0..n) (each at most `len` bytes with its NUL; longer ones are left out) and
 * returns n. Respellings only touch letter case and the dashes between two squares
 * (a letter and one or two digits); whether one is a move is the game's to say. */
int play_respellings(const char *text, char out[][64], size_t len);

#endif
