/*
 * children.h - a little work in child processes, `jobs` at a time, each
 * child's answer a string sent back over a pipe.  For work that is mostly
 * waiting on another program (valgrind, probing a compiler), kept apart
 * from this process in case that program takes it down.
 */
#ifndef FLAGSCOPE_SEARCH_CHILDREN_H
#define FLAGSCOPE_SEARCH_CHILDREN_H

#include "base/util.h"

/* Runs in the child for item i; what it adds to out is the answer. */
typedef void (*child_fn)(size_t i, void *user, struct strbuf *out);

/* Run fn for every i in [0, n), jobs (>= 1) at a time; out[i] gets each
 * answer (heap; "" when the child said nothing or could not start). */
void children_run(size_t n, int jobs, child_fn fn, void *user, char **out);

#endif
