/*
 * evalcache.h - what a search remembers, kept in the results database
 * (tables of the store's schema, analysis/store.c, next to the study
 * tables):
 *
 *   search_evals    one row per (context, flag set): the objective, or the
 *                   outcome that broke it and the evidence.  The cache every
 *                   strategy and every resumed search reads first, so a flag
 *                   set is never built or run twice.
 *   search_searches one row per search (its id is a hash of what it is):
 *                   strategy, seed, evaluations, time spent, best so far.
 *   search_trace    the order in which a search met its flag sets.
 *   search_probes   per toolchain, what the compiler said about each flag
 *                   probed alone ("" = accepted), and flags (or flags
 *                   that fail only together, "-fa -fb") found to be
 *                   rejected or to crash the compiler during a search:
 *                   they are remembered and skipped by later searches.
 *   search_drops    per search, the known-bad flags dropped from its space
 *                   when it first began, so a resumed search drops the
 *                   same ones (search.h).
 *
 * A context is a hash of everything an objective depends on (toolchain,
 * baseline flags, linkage, workloads and their recipes, metric); objectives
 * of different contexts never mix.  Every write is committed at once.
 */
#ifndef FLAGSCOPE_SEARCH_EVALCACHE_H
#define FLAGSCOPE_SEARCH_EVALCACHE_H

#include <stdint.h>

#include "analysis/store.h"
#include "base/outcome.h"
#include "base/util.h"

struct eval_result {
	double obj;   /* geometric mean over items of metric / baseline's; INFINITY when broken */
	enum outcome status; /* OUTCOME_OK, or the outcome that broke it (stored by its name) */
	char *detail; /* broken: the evidence ("flagbug: wrong_output: ...");
			 ok: the ratio per item ("crc32=0.981 nbody=1.002") */
	char *batch;  /* the generated study that measured it, or "" */
};
void eval_result_release(struct eval_result *r);
/* The baseline's own result: objective 1, status ok. */
void eval_result_baseline(struct eval_result *r);

struct evalcache {
	struct store store; /* opened by store_open: the schema and the queries are the
			       store's (analysis/store_search.h) */
	char *path;
	char *context;
	int lock_fd;
	struct strbuf why;   /* the first write that failed: store_errmsg() then */
	int code, sys_errno; /* and its SQLite code and errno */
};
/* Every *_put and *_save returns 0, or -1 and keeps the cause of the first
 * failure; evalcache_check() then adds "PATH: cannot store search results:
 * CAUSE (WHAT TO DO, ...)" to err and returns -1 (0 when every write went
 * in).  A search checks it after each round and stops on it. */
int evalcache_check(const struct evalcache *ec, struct strbuf *err);

/* Open (creating the tables) and take PATH.search.lock so two searches
 * never write one database at once.  description is stored with the
 * context for people reading the database.  0, or -1 with a reason. */
int evalcache_open(struct evalcache *ec, const char *path, const char *context,
		   const char *description, struct strbuf *err);
void evalcache_close(struct evalcache *ec);

/* 1 and *res filled (heap strings) when flags were evaluated in this
 * context; 0 when not. */
int evalcache_get(struct evalcache *ec, const char *flags, struct eval_result *res);
int evalcache_put(struct evalcache *ec, const char *flags, const struct eval_result *res);
/* Every evaluation of the context, in the order they were stored. */
typedef void (*evalcache_fn)(void *user, const char *flags, const struct eval_result *r);
void evalcache_each(struct evalcache *ec, evalcache_fn fn, void *user);

struct search_row {
	char *strategy;
	uint64_t seed;
	size_t evals;
	double elapsed; /* seconds spent evaluating, over every session */
	char *best_flags;
	double best_obj;
	char *state; /* "running", "done" */
};
void search_row_release(struct search_row *r);
/* 1 and *row filled when the search id exists, 0 when not. */
int evalcache_search_load(struct evalcache *ec, const char *id, struct search_row *row);
int evalcache_search_save(struct evalcache *ec, const char *id, const struct search_row *row);
int evalcache_trace_put(struct evalcache *ec, const char *id, size_t seq, const char *flags,
			double obj);
/* The stored trace of a search, in order; *n set; heap arrays. */
void evalcache_trace_get(struct evalcache *ec, const char *id, char ***flags, double **obj,
			 size_t *n);

/* Flags probed for a toolchain: every one to probed, those the compiler
 * objected to to rejected as "FLAG: message". */
void evalcache_probes_get(struct evalcache *ec, const char *toolchain, struct strlist *probed,
			  struct strlist *rejected);
int evalcache_probe_put(struct evalcache *ec, const char *toolchain, const char *flag,
			const char *message);

/* The flags search id dropped when it began: 1 and *flags filled when
 * recorded (possibly none), 0 when the search is new. */
int evalcache_drops_get(struct evalcache *ec, const char *id, struct strlist *flags);
/* Record them (once, at a search's first start). */
int evalcache_drops_put(struct evalcache *ec, const char *id, const struct strlist *flags);

#endif
