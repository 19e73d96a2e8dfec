/*
 * parse.h - the DOM parser's internal switch, for tests: which of its two
 * paths takes strict input (parse.c explains both).
 */
#ifndef TYJSON_DOM_PARSE_H
#define TYJSON_DOM_PARSE_H

#include "base/internal.h"

#define TYJSON__INDEX_AUTO 0   /* the index when a vector kernel runs and it pays */
#define TYJSON__INDEX_ALWAYS 1 /* the index whenever a vector kernel runs */
#define TYJSON__INDEX_NEVER 2  /* always the byte-at-a-time state machine */

/** Sets the policy (TYJSON__INDEX_*); not meant to be called while other
 *  threads parse. */
void tyjson__parse_set_index_policy(int policy);

#endif /* TYJSON_DOM_PARSE_H */
