/*
 * search.h - the search loop: a strategy proposes points, the evaluation
 * cache answers what is known, the evaluator measures the rest as one
 * batch (in parallel), the strategy observes, until the budget is spent
 * or the strategy has nothing more to try (minimisation: minimise.h).
 *
 * Resumption.  Strategies are deterministic (strategy.h), every result is
 * stored as it lands, and a search's id names what it is (context,
 * strategy, seed, space as loaded).  Running the same search again replays
 * the strategy: everything already measured comes from the cache, and the
 * measuring resumes where the killed run stopped.
 *
 * Known-bad flags.  Flags the compiler rejects or crashes on are dropped
 * from the space when a search begins; those learned while it runs are
 * masked: a candidate carrying one is evaluated without it (its
 * dimension at the start point's state), unless the candidate itself was
 * already measured.  A resumed search drops what was dropped when it
 * began (recorded with it) and masks the rest, so it walks the same space,
 * its strategy sees the same objectives, and its trace and budget carry
 * on.
 *
 * Counting.  An evaluation is a flag set this search has not met before;
 * the baseline ("" flags, objective 1 by definition) is free, and so is a
 * flag set met again.  The budget counts evaluations whether the cache
 * answered them (another search measured them) or the evaluator did.
 */
#ifndef FLAGSCOPE_SEARCH_SEARCH_H
#define FLAGSCOPE_SEARCH_SEARCH_H

#include <signal.h>

#include "search/evalcache.h"
#include "search/space.h"
#include "search/strategy.h"

struct evaluator {
	/* Measure n flag sets (none of them ""), filling res[i] with heap
	 * strings the caller then owns.  0; or -1 to stop the search (it was
	 * interrupted, the pipeline cannot run) with a reason in err. */
	int (*evaluate)(void *ctx, char *const *flags, size_t n, struct eval_result *res,
			struct strbuf *err);
	void *ctx;
};

/* Called after each evaluation (cached or measured). */
typedef void (*search_progress_fn)(void *user, size_t evals, const char *flags,
				   const struct eval_result *r, int cached, double best);

struct search_params {
	const struct strategy_ops *strategy;
	uint64_t seed;
	size_t budget;   /* evaluations; 0: no limit */
	double seconds;  /* time spent evaluating, over all sessions; 0: no limit */
	size_t batch;    /* most candidates per round (>= 1) */
	const char *id;  /* the search's id in the store */
	const struct known_bad *bad; /* masked out of candidates; it may grow
					during the search (the evaluator learns);
					may be NULL */
	volatile sig_atomic_t *stop; /* set from a signal handler; may be NULL */
	search_progress_fn progress;
	void *user;
};

struct search_result {
	unsigned char *best; /* heap, ndims bytes: the best point met, or the
				start point (objective 1) when none beat it */
	double best_obj;
	char *best_flags;
	size_t evals;    /* evaluations (see the top of this file) */
	size_t measured; /* of them, measured by the evaluator in this session */
	size_t resumed;  /* of them, replayed from an earlier session's trace */
	int finished;    /* the strategy had nothing more to try */
	int stopped;     /* interrupted */
	double elapsed;  /* seconds spent evaluating, over all sessions */
};
void search_result_release(struct search_result *r);

/* Flags the compiler rejects or crashes on: one word, or several words
 * that fail only together ("-fa -fb"). */
struct known_bad {
	struct strlist flags;
	struct strlist why; /* parallel: the compiler's message */
};
/* Add an entry unless it is known; 1 when it was new. */
int known_bad_add(struct known_bad *kb, const char *flags, const char *why);
void known_bad_release(struct known_bad *kb);
/* Reset every dimension of pt that carries a known-bad flag to the start
 * point's state (for words that fail together: the last word's); how
 * many were reset. */
size_t known_bad_mask(const struct known_bad *kb, const struct space *sp, unsigned char *pt);

/* The id of a search: a hash of context, strategy, seed and the space as
 * loaded, before any known-bad flag is dropped (so learning about a flag
 * does not make a search another one).  16 hex digits and a NUL. */
void search_make_id(const char *context, const char *strategy, uint64_t seed,
		    const struct space *sp, char out[17]);

/* Drop the known-bad flags from sp as search id did when it first began
 * (the single-word entries of kb naming a dimension, recorded in the
 * store then); when it is new, record what is dropped now.  sp->dropped
 * says why. */
void search_prepare_space(struct evalcache *ec, const char *id, struct space *sp,
			  const struct known_bad *kb);

/* Run (or resume) the search.  0 when it ran to its budget or its end,
 * also when stopped (out->stopped); -1 with a reason in err when the
 * evaluator failed. */
int search_run(struct evalcache *ec, const struct space *sp, const struct search_params *p,
	       const struct evaluator *ev, struct search_result *out, struct strbuf *err);

/* Objectives of n points through the cache and, for what it does not
 * know, one call of the evaluator; new results are stored.  res may be
 * NULL; *measured (may be NULL) gets how many the evaluator measured.
 * 0, or -1 from the evaluator. */
int search_evaluate(struct evalcache *ec, const struct space *sp, const struct evaluator *ev,
		    const unsigned char *pts, size_t n, double *obj, struct eval_result *res,
		    size_t *measured, struct strbuf *err);

/* Flags blamed for broken candidates of the context: a flag is blamed
 * when it never appeared in a good flag set, or when it was in a broken
 * set that no such never-good flag explains (then every flag of that set
 * is a suspect: they break together).  Per flag: how many broken and how
 * many good flag sets carry it, whether a broken set carried it alone,
 * and the first evidence. */
struct unsafe_flag {
	char *flag;
	size_t broken, ok;
	int alone;      /* a broken candidate had only this flag */
	int suspect;    /* in a broken set no never-good flag explains */
	char *evidence; /* "-fwrapv: flagbug: wrong_output: ..." */
};
/* Sorted: alone first, then by broken / (broken + ok), descending.
 * *n set; heap array. */
struct unsafe_flag *search_unsafe_flags(struct evalcache *ec, size_t *n);
void unsafe_flags_free(struct unsafe_flag *u, size_t n);

#endif
