/*
 * run_schedule.c - the order of a study's measured runs (run_session.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rank.h"
#include "analysis/results.h"
#include "analysis/stats.h"
#include "explorer/progress.h"
#include "explorer/run_session.h"
#include "harness/fetch.h"
#include "harness/runner_ssh.h"

volatile sig_atomic_t run_interrupted;

/* <cache>/refs/<baseline build key>/<run>: the reference outputs */
static char *ref_dir(struct session *s, size_t w, const struct recipe_run *run)
{
	const struct build *bb = &s->builds[(size_t)s->matrix.baseline * s->nrecipes + w];
	return xasprintf("%s/refs/%s/%s", flagscope_cache_dir(), bb->key,
			 *run->name ? run->name : "main");
}

static void record_run(struct session *s, const struct build *b, const struct recipe_run *run,
		       int rep, struct exec_result *res)
{
	struct store_metric *m = xcalloc(res->m.n ? res->m.n : 1, sizeof(*m));
	for (size_t i = 0; i < res->m.n; i++)
		m[i] = (struct store_metric){res->m.v[i].name, res->m.v[i].value, res->m.v[i].unit};
	store_put_run(&s->store, s->study.name, b->cfg->id, b->recipe->name, run->name, rep,
		      outcome_name(res->outcome), res->detail, m, res->m.n);
	for (size_t i = 0; i < run->nmetrics; i++)
		if (run->metrics[i].higher_better) {
			char *key = xasprintf("higher_better.%s", run->metrics[i].name);
			store_put_fact(&s->store, s->study.name, key, "1");
			free(key);
		}
	free(m);
}

static void run_one(struct session *s, size_t c, size_t w, size_t r, int rep)
{
	struct build *b = &s->builds[c * s->nrecipes + w];
	const struct recipe_run *run = &b->recipe->runs[r];
	char *ref = ref_dir(s, w, run);
	int recorded = s->in_shard[c * s->nrecipes + w];
	pthread_mutex_lock(&s->lock);
	int done = recorded ? store_has_run(&s->store, s->study.name, b->cfg->id, b->recipe->name,
					    run->name, rep)
			    : file_exists(ref);
	pthread_mutex_unlock(&s->lock);
	if (done) {
		free(ref);
		return;
	}
	int is_base = (int)c == s->matrix.baseline;
	struct exec_result res;
	if (s->in_errors[w]) {
		memset(&res, 0, sizeof(res));
		res.outcome = OUTCOME_RUN_FAILED;
		res.detail = xstrdup(s->in_errors[w]);
	} else {
		execute_run(&s->exec, b, run, s->in_dirs[w], rep == 0,
			    is_base && rep == 0 ? NULL : ref, is_base && rep == 0 ? ref : NULL,
			    &res);
	}
	pthread_mutex_lock(&s->lock);
	s->runs_done++;
	char eta[64];
	progress_eta(eta, sizeof(eta), now_seconds() - s->started, s->runs_done, s->total_runs);
	char what[32];
	if (rep)
		snprintf(what, sizeof(what), "rep %d", rep);
	else
		snprintf(what, sizeof(what), "warm-up");
	if (res.outcome != OUTCOME_OK || !progress_is_tty())
		progress_say("[run %d/%d] %s %s%s%s %s: %s%s%s (%s)", s->runs_done, s->total_runs,
			     b->cfg->label, b->recipe->name, *run->name ? "/" : "", run->name, what,
			     outcome_name(res.outcome), res.detail ? ": " : "",
			     res.detail ? res.detail : "", eta);
	if (progress_is_tty())
		progress_event("builds %zu/%zu, runs %d/%d: %s %s%s%s %s, %s", s->builds_total,
			       s->builds_total, s->runs_done, s->total_runs, b->cfg->label,
			       b->recipe->name, *run->name ? "/" : "", run->name, what, eta);
	if (recorded)
		record_run(s, b, run, rep, &res);
	pthread_mutex_unlock(&s->lock);
	exec_result_release(&res);
	free(ref);
}

/* An extra warm-up: run, validate, discard.  Skipped when the item's
 * first repetition is stored already (a resumed study is warm enough). */
static void warm_one(struct session *s, size_t c, size_t w, size_t r)
{
	struct build *b = &s->builds[c * s->nrecipes + w];
	const struct recipe_run *run = &b->recipe->runs[r];
	if (s->in_errors[w])
		return;
	pthread_mutex_lock(&s->lock);
	int stored = store_has_run(&s->store, s->study.name, b->cfg->id, b->recipe->name,
				   run->name, 1);
	pthread_mutex_unlock(&s->lock);
	if (stored)
		return;
	char *ref = ref_dir(s, w, run);
	struct exec_result res;
	execute_run(&s->exec, b, run, s->in_dirs[w], 0, ref, NULL, &res);
	pthread_mutex_lock(&s->lock);
	s->runs_done++;
	char eta[64];
	progress_eta(eta, sizeof(eta), now_seconds() - s->started, s->runs_done, s->total_runs);
	if (res.outcome != OUTCOME_OK || !progress_is_tty())
		progress_say("[run %d/%d] %s %s%s%s warm-up: %s%s%s (%s)", s->runs_done,
			     s->total_runs, b->cfg->label, b->recipe->name, *run->name ? "/" : "",
			     run->name, outcome_name(res.outcome), res.detail ? ": " : "",
			     res.detail ? res.detail : "", eta);
	if (progress_is_tty())
		progress_event("builds %zu/%zu, runs %d/%d: %s %s%s%s warm-up, %s", s->builds_total,
			       s->builds_total, s->runs_done, s->total_runs, b->cfg->label,
			       b->recipe->name, *run->name ? "/" : "", run->name, eta);
	pthread_mutex_unlock(&s->lock);
	exec_result_release(&res);
	free(ref);
}

/* ---- a round of items, on the workers or here ---- */

/* One run to make: rep >= 0 for run_one, -1 for warm_one. */
struct item {
	size_t c, w, r;
	int rep;
	int state; /* 0: to run, 1: running, 2: done */
};

/* The workers live as long as the schedule: the ssh runner's connections
 * and helper sessions end with the thread that opened them. */
struct crew {
	struct session *s;
	pthread_mutex_t lock;
	pthread_cond_t work, done;
	struct item *items;
	size_t n, alloc, left; /* left: not yet done */
	int quit;
	pthread_t *threads;
	size_t nthreads;
};

static void crew_add(struct crew *k, size_t c, size_t w, size_t r, int rep)
{
	pthread_mutex_lock(&k->lock);
	if (k->n == k->alloc) {
		k->alloc = k->alloc ? 2 * k->alloc : 64;
		k->items = xrealloc(k->items, k->alloc * sizeof(*k->items));
	}
	k->items[k->n++] = (struct item){c, w, r, rep, 0};
	pthread_mutex_unlock(&k->lock);
}

static void item_run(struct session *s, const struct item *it)
{
	if (run_interrupted)
		return;
	if (it->rep < 0)
		warm_one(s, it->c, it->w, it->r);
	else
		run_one(s, it->c, it->w, it->r, it->rep);
}

static const char *item_dir(const struct crew *k, const struct item *it)
{
	return k->s->builds[it->c * k->s->nrecipes + it->w].dir;
}

/* under k->lock: the first item to run whose build folder no running item
 * uses (two configurations with the same flags share one build, and a run
 * makes its folder in the build's), or NULL */
static struct item *crew_take(struct crew *k)
{
	/* between rounds (left == 0) the items are being added */
	for (size_t i = 0; k->left && i < k->n; i++) {
		if (k->items[i].state)
			continue;
		int busy = 0;
		for (size_t j = 0; j < k->n && !busy; j++)
			busy = k->items[j].state == 1 &&
			       k->items[j].r == k->items[i].r &&
			       !strcmp(item_dir(k, &k->items[j]), item_dir(k, &k->items[i]));
		if (!busy)
			return &k->items[i];
	}
	return NULL;
}

static void *crew_worker(void *arg)
{
	struct crew *k = arg;
	pthread_mutex_lock(&k->lock);
	for (;;) {
		struct item *it = NULL;
		while (!k->quit && !(it = crew_take(k)))
			pthread_cond_wait(&k->work, &k->lock);
		if (!it)
			break;
		it->state = 1;
		struct item copy = *it;
		pthread_mutex_unlock(&k->lock);
		item_run(k->s, &copy);
		pthread_mutex_lock(&k->lock);
		it->state = 2;
		if (--k->left == 0)
			pthread_cond_signal(&k->done);
		pthread_cond_broadcast(&k->work); /* a build folder is free again */
	}
	pthread_mutex_unlock(&k->lock);
	return NULL;
}

/* Workers for a study on boards: one per board of the pool and per
 * run at a time on a board; none (runs here, in order) otherwise. */
static void crew_init(struct crew *k, struct session *s)
{
	memset(k, 0, sizeof(*k));
	k->s = s;
	pthread_mutex_init(&k->lock, NULL);
	pthread_cond_init(&k->work, NULL);
	pthread_cond_init(&k->done, NULL);
	if (!s->exec.target)
		return;
	struct ssh_dest *dests;
	size_t nboards = 0;
	struct strbuf err = {0};
	if (!ssh_target_parse(s->exec.target, &dests, &nboards, &err))
		ssh_dests_free(dests, nboards);
	sb_release(&err);
	size_t per = s->study.run_per_board > 1 ? (size_t)s->study.run_per_board : 1;
	size_t want = nboards * per;
	if (want < 2)
		return;
	k->threads = xcalloc(want, sizeof(*k->threads));
	for (size_t i = 0; i < want; i++)
		if (!pthread_create(&k->threads[k->nthreads], NULL, crew_worker, k))
			k->nthreads++;
}

/* Run the items added since the last round, and clear them: on the
 * workers (returns when all are done), else here in their order. */
static void crew_round(struct crew *k)
{
	if (!k->nthreads) {
		for (size_t i = 0; i < k->n; i++)
			item_run(k->s, &k->items[i]);
		k->n = 0;
		return;
	}
	pthread_mutex_lock(&k->lock);
	k->left = k->n;
	pthread_cond_broadcast(&k->work);
	while (k->left)
		pthread_cond_wait(&k->done, &k->lock);
	k->n = 0;
	pthread_mutex_unlock(&k->lock);
}

static void crew_release(struct crew *k)
{
	pthread_mutex_lock(&k->lock);
	k->quit = 1;
	pthread_cond_broadcast(&k->work);
	pthread_mutex_unlock(&k->lock);
	for (size_t i = 0; i < k->nthreads; i++)
		pthread_join(k->threads[i], NULL);
	free(k->threads);
	free(k->items);
	pthread_mutex_destroy(&k->lock);
	pthread_cond_destroy(&k->work);
	pthread_cond_destroy(&k->done);
}

static int build_ok(const struct session *s, size_t c, size_t w)
{
	return s->builds[c * s->nrecipes + w].outcome == OUTCOME_OK;
}

/* built and measured by this run (not another shard's) */
static int measured_here(const struct session *s, size_t c, size_t w)
{
	return build_ok(s, c, w) && s->in_shard[c * s->nrecipes + w];
}

/* repeat = auto: an item stops once the interval of its median (at the
 * level and with the resamples the report uses) is within the target;
 * what never gets there is reported NOISY.  A deterministic metric
 * (instruction counts, sizes) stops after one run. */
static void auto_close(struct session *s, char *open_items)
{
	struct rank_options ro;
	rank_options_default(&ro);
	int exact = results_metric_deterministic(s->study.metric);
	struct rng rng;
	rng_seed(&rng, ro.seed);
	for (size_t c = 0; c < s->matrix.n; c++)
		for (size_t w = 0; w < s->nrecipes; w++)
			for (size_t r = 0; r < s->recipes[w].nruns && r < 64; r++) {
				char *open = &open_items[(c * s->nrecipes + w) * 64 + r];
				if (!*open)
					continue;
				size_t n;
				double *v = store_get_samples(&s->store, s->study.name,
							      s->matrix.configs[c].id,
							      s->recipes[w].name, s->recipes[w].runs[r].name,
							      s->study.metric, &n);
				struct summary sum;
				if (exact && n >= 1) {
					*open = 0;
				} else if (n >= 2) {
					stats_summarize(v, n, 1 - ro.alpha, ro.iters, &rng, &sum);
					if (stats_relative_halfwidth(&sum) <= s->study.target)
						*open = 0;
				}
				free(v);
			}
}

void run_all(struct session *s)
{
	size_t nw = s->nrecipes, nc = s->matrix.n, base = (size_t)s->matrix.baseline;
	s->in_dirs = xcalloc(nw, sizeof(char *));
	s->in_errors = xcalloc(nw, sizeof(char *));
	for (size_t w = 0; w < nw; w++) {
		struct strbuf err = {0};
		if (workload_inputs(&s->recipes[w], &s->in_dirs[w], &err))
			s->in_errors[w] = sb_detach(&err);
		sb_release(&err);
	}
	for (size_t c = 0; c < nc; c++)
		for (size_t w = 0; w < nw; w++)
			if (measured_here(s, c, w))
				s->total_runs += (int)s->recipes[w].nruns *
						 ((s->study.repeat_auto ? s->study.max_repeat : s->study.repeat) +
						  s->study.warmup);
	s->started = now_seconds();
	pthread_mutex_init(&s->lock, NULL);
	struct crew k;
	crew_init(&k, s);
	/* the baseline's warm-up makes the reference, so it goes first */
	for (size_t w = 0; w < nw && !run_interrupted; w++)
		for (size_t r = 0; r < s->recipes[w].nruns && build_ok(s, base, w); r++)
			run_one(s, base, w, r, 0);
	for (size_t c = 0; c < nc; c++)
		for (size_t w = 0; w < nw && c != base; w++)
			for (size_t r = 0; r < s->recipes[w].nruns && measured_here(s, c, w); r++)
				crew_add(&k, c, w, r, 0);
	crew_round(&k);
	/* warmup = N: N - 1 more unrecorded runs after the validating one,
	 * where the item still has repetitions to measure */
	for (int n = 1; n < s->study.warmup && !run_interrupted; n++) {
		for (size_t w = 0; w < nw; w++)
			for (size_t r = 0; r < s->recipes[w].nruns; r++)
				for (size_t c = 0; c < nc; c++)
					if (measured_here(s, c, w))
						crew_add(&k, c, w, r, -1);
		crew_round(&k);
	}
	/* A B C A B C: drift lands on every configuration alike; on boards a
	 * round ends before the next starts, so it holds there too */
	int last = s->study.repeat_auto ? s->study.max_repeat : s->study.repeat;
	char *open_items = xcalloc(nc * nw * 64 + 1, 1); /* auto: still measuring */
	memset(open_items, 1, nc * nw * 64);
	for (int rep = 1; rep <= last && !run_interrupted; rep++) {
		for (size_t w = 0; w < nw; w++)
			for (size_t r = 0; r < s->recipes[w].nruns && r < 64; r++)
				for (size_t c = 0; c < nc; c++)
					if (measured_here(s, c, w) && open_items[(c * nw + w) * 64 + r])
						crew_add(&k, c, w, r, rep);
		if (!k.n)
			break;
		crew_round(&k);
		if (s->study.repeat_auto &&
		    (rep >= s->study.repeat || results_metric_deterministic(s->study.metric)))
			auto_close(s, open_items);
	}
	free(open_items);
	crew_release(&k);
	pthread_mutex_destroy(&s->lock);
}
