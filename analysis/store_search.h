/*
 * store_search.h - a search's memory in the results database: the rows of
 * the search_* tables (made by store.c with the rest of the schema; what
 * each row means is search/evalcache.h's).  The search reads and writes
 * them only through these functions, on a store opened with store_open.
 *
 * Writes: every *_put returns 0, or -1 with nothing of it stored and the
 * cause in store_errmsg()/store_errhint() (store.h); each is committed at
 * once (drops_put as one transaction).  Reads return what is stored, or
 * nothing when the query fails.
 *
 * Objectives: INFINITY (a broken flag set) is stored as NULL and read back
 * as INFINITY.  Outcomes are stored by name (base/outcome.h); a name this
 * flagscope does not know (a newer one's) reads as OUTCOME_RUN_FAILED,
 * never as ok.
 */
#ifndef FLAGSCOPE_STORE_SEARCH_H
#define FLAGSCOPE_STORE_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/store.h"
#include "base/outcome.h"
#include "base/util.h"

/* search_contexts: what a context hash stands for, for people reading the
 * database (replaces the row of that id). */
int store_search_context_put(struct store *st, const char *context, const char *description);

/* search_evals: one evaluation of flags in context.  Read: detail and
 * batch are heap strings ("" when empty).  Write: NULL strings are
 * stored as "". */
struct store_search_eval {
	double obj;
	enum outcome status;
	char *detail, *batch;
};
/* 1 and *e filled when flags were evaluated in context, else 0. */
int store_search_eval_get(struct store *st, const char *context, const char *flags,
			  struct store_search_eval *e);
/* Replaces the row of (context, flags), stamped with the time now. */
int store_search_eval_put(struct store *st, const char *context, const char *flags,
			  const struct store_search_eval *e);
/* Every evaluation of context, in the order they were stored; flags and
 * e are valid for the call only. */
typedef void (*store_search_eval_fn)(void *user, const char *flags,
				     const struct store_search_eval *e);
void store_search_evals_each(struct store *st, const char *context, store_search_eval_fn fn,
			     void *user);

/* search_searches: one row per search id.  Read: strings are heap ("" when
 * empty).  Write: NULL strategy and best_flags are stored as "", a NULL
 * state as "running". */
struct store_search_row {
	char *strategy;
	uint64_t seed;
	size_t evals;
	double elapsed;
	char *best_flags;
	double best_obj;
	char *state;
};
/* 1 and *row filled when search id is stored; 0 (row zeroed) when not. */
int store_search_row_get(struct store *st, const char *id, struct store_search_row *row);
/* Replaces the row of id, of context, stamped with the time now. */
int store_search_row_put(struct store *st, const char *id, const char *context,
			 const struct store_search_row *row);

/* search_trace: the seq-th flag set search id met and its objective
 * (replaces that step). */
int store_search_trace_add(struct store *st, const char *id, size_t seq, const char *flags,
			   double obj);
/* The trace of search id by seq; heap arrays (NULL when empty), *n set. */
void store_search_trace_get(struct store *st, const char *id, char ***flags, double **obj,
			    size_t *n);

/* search_probes: every flag probed for toolchain, by flag, appended to
 * probed; those with a message (the compiler objected) appended to
 * rejected as "FLAG: message". */
void store_search_probes_get(struct store *st, const char *toolchain, struct strlist *probed,
			     struct strlist *rejected);
/* What the compiler said about flag (NULL or "": accepted); replaces it. */
int store_search_probe_put(struct store *st, const char *toolchain, const char *flag,
			   const char *message);

/* search_drops: the flags search id dropped from its space when it first
 * began.  1 and the flags appended (possibly none) when recorded, 0 when
 * not. */
int store_search_drops_get(struct store *st, const char *id, struct strlist *flags);
/* Record them, with an empty flag that marks the record as made also
 * when none were dropped; rows already there are kept.  One transaction. */
int store_search_drops_put(struct store *st, const char *id, const struct strlist *flags);

#endif
