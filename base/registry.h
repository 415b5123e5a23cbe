/*
 * registry.h - what every registry (one const table of ops, STYLE.md §1:
 * runners, meters, libcs, source kinds, build systems, strategies, study
 * settings) is checked for once at start-up (explorer/main.c): each entry
 * has a name, and no two share one, so a lookup by name finds the entry it
 * means.  Each registry's own X_check() adds what its ops must have.
 */
#ifndef FLAGSCOPE_REGISTRY_H
#define FLAGSCOPE_REGISTRY_H

#include <stddef.h>

#include "base/util.h"

/* names[0..n) of registry `what` ("libcs"): 0, or -1 with one
 * "WHAT: ..." line per problem added to err (a programming error). */
int registry_check(const char *what, const char *const *names, size_t n, struct strbuf *err);

/* Add "WHAT: NAME: PROBLEM" to err when !ok; returns !ok. */
int registry_require(int ok, const char *what, const char *name, const char *problem,
		     struct strbuf *err);

#endif
