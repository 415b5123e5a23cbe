/*
 * schedule.c - the order of a study's measured runs (pipeline_run in
 * pipeline.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/rank.h"
#include "analysis/results.h"
#include "analysis/stats.h"
#include "harness/fetch.h"
#include "pipeline/pipeline_internal.h"

static int stopping(const struct pipeline *pl)
{
	return pipeline_interrupted || pl->store_failed;
}

/* <cache>/refs/<baseline build key>/<run>: the reference outputs */
static char *ref_dir(const struct pipeline *pl, size_t w, const struct recipe_run *run)
{
	const struct build *bb = plan_build(pl->plan, (size_t)pl->plan->matrix.baseline, w);
	return xasprintf("%s/refs/%s/%s", flagscope_cache_dir(), bb->key,
			 *run->name ? run->name : "main");
}

static const char *binary_of(const struct pipeline *pl, const struct build *b)
{
	const struct study_plan *p = pl->plan;
	return p->binary_hash ? p->binary_hash[b - p->builds] : NULL;
}

/* under pl->lock */
static void record_run(struct pipeline *pl, const struct build *b, const struct recipe_run *run,
		       int rep, struct exec_result *res)
{
	const char *study = pl->plan->study.name;
	struct store_metric *m = xcalloc(res->m.n ? res->m.n : 1, sizeof(*m));
	for (size_t i = 0; i < res->m.n; i++)
		m[i] = (struct store_metric){res->m.v[i].name, res->m.v[i].value, res->m.v[i].unit};
	/* the metrics' directions went in with the study (pipeline.c); the
	 * row names the build it is stored under (a copy for an identical
	 * build: that build's own) */
	struct strbuf layout = {0};
	layout_describe(&res->layout, &layout);
	struct store_run row = {
		.study = study, .config_id = b->cfg->id, .workload = b->recipe->name,
		.run = run->name, .rep = rep, .status = outcome_name(res->outcome),
		.detail = res->detail, .build_key = b->key, .binary_hash = binary_of(pl, b),
		.layout = layout.buf,
	};
	pipeline_stored(pl, store_put_run_of(pl->store, &row, m, res->m.n));
	sb_release(&layout);
	free(m);
}

/* under pl->lock: count the run and tell the user */
static void run_done(struct pipeline *pl, const struct build *b, const struct recipe_run *run,
		     int rep, const struct exec_result *res)
{
	struct study_plan *p = pl->plan;
	pl->runs_done++;
	if (!pl->opt->ev.run_done)
		return;
	struct pipeline_run_event e = {
		.build = b, .run = run, .rep = rep, .res = res,
		.done = pl->runs_done + pl->runs_stored, .stored = pl->runs_stored,
		.total = pl->total_runs, .builds_total = p->nconfigs * p->nworkloads,
		.elapsed = now_seconds() - pl->started,
	};
	pl->opt->ev.run_done(&e, pl->opt->ev.user);
}

/* 1 when a resumed study need not run it: stored with an outcome a resume
 * keeps (another shard's build: not recorded here at all).  The baseline's
 * warm-up is done when its reference is there too: the references are
 * kept per baseline build key, so after the recipe changed the stored
 * warm-up has none, and it runs again (its row is replaced; the
 * repetitions stay); another shard's baseline is run here for its
 * reference only.  A run that found no reference runs again once there is
 * one. */
/* under pl->lock: OUTCOME_COUNT when none is stored, or when the one
 * stored was made by another build of the configuration (an older source,
 * recipe or compiler): its sample is never counted, the run is made again */
static enum outcome stored_outcome(struct pipeline *pl, const struct build *b,
				   const struct recipe_run *run, int rep)
{
	struct store_run_origin o;
	if (store_run_origin(pl->store, pl->plan->study.name, b->cfg->id, b->recipe->name,
			     run->name, rep, &o))
		return OUTCOME_COUNT;
	return store_run_origin_is(&o, b->key, binary_of(pl, b)) ? o.outcome : OUTCOME_COUNT;
}

/* under pl->lock: every identical build of build i has this run's copy.
 * A stop between a row and its copies (a kill, a full disk) leaves one
 * without: the run is made again and stored under all of them. */
static int twins_stored(struct pipeline *pl, size_t i, const struct recipe_run *run, int rep)
{
	struct study_plan *p = pl->plan;
	size_t nw = p->nworkloads, c = i / nw, w = i % nw;
	for (size_t t = 0; p->twin && t < p->nconfigs; t++) {
		if (p->twin[t * nw + w] != (int)c)
			continue;
		enum outcome o = stored_outcome(pl, plan_build(p, t, w), run, rep);
		if (o == OUTCOME_COUNT || outcome_retried(o))
			return 0;
	}
	return 1;
}

static int already_done(struct pipeline *pl, const struct build *b, const struct recipe_run *run,
			int rep, int is_base, const char *ref)
{
	struct study_plan *p = pl->plan;
	int makes_ref = is_base && rep == 0 && !file_exists(ref);
	if (makes_ref || !p->in_shard[b - p->builds])
		return !makes_ref;
	pthread_mutex_lock(&pl->lock);
	enum outcome stored = stored_outcome(pl, b, run, rep);
	int twins = twins_stored(pl, (size_t)(b - p->builds), run, rep);
	/* no_reference against a reference the baseline does not reproduce
	 * (store_unreproducible_runs) is final: running it again would only
	 * differ again */
	size_t w = (size_t)(b - p->builds) % p->nworkloads;
	int unreproducible = stored == OUTCOME_NO_REFERENCE &&
		stored_outcome(pl, plan_build(p, (size_t)p->matrix.baseline, w), run, 1) ==
			OUTCOME_WRONG_OUTPUT;
	pthread_mutex_unlock(&pl->lock);
	if (stored == OUTCOME_NO_REFERENCE && !unreproducible)
		return !file_exists(ref);
	return stored != OUTCOME_COUNT && !outcome_retried(stored) && twins;
}

/* Under pl->lock, after the baseline's warm-up saved the reference ref:
 * a run that prints nothing and names no expected stdout or outputs =
 * validates nothing, and every configuration's runs would be "ok".  Said
 * once per run and kept as a fact (unvalidated.W/RUN), so the report says
 * it too. */
static void say_unvalidated(struct pipeline *pl, const struct build *b,
			    const struct recipe_run *run, const char *ref)
{
	char *out = xasprintf("%s/stdout", ref);
	struct stat st;
	int empty = !stat(out, &st) && st.st_size == 0;
	free(out);
	if (!empty || run->expect || run->outputs.n)
		return;
	char *what = xasprintf("%s%s%s", b->recipe->name, *run->name ? "/" : "", run->name);
	char *key = xasprintf("unvalidated.%s", what);
	pipeline_say_result(pl->opt, "%s: the baseline printed nothing and the recipe names no "
			    "outputs =, so no configuration's output is checked (print a checksum "
			    "on stdout, or name the output files)", what);
	pipeline_stored(pl, store_put_fact(pl->store, pl->plan->study.name, key,
					   "empty stdout, no outputs ="));
	free(key);
	free(what);
}

static int measured_here(const struct study_plan *p, size_t c, size_t w);

/* A run a resume finds stored counts as done in the progress ("[run 9/16]"
 * after 8 stored), but not in runs_done: that says what was measured now. */
static void run_stored(struct pipeline *pl, size_t c, size_t w)
{
	pthread_mutex_lock(&pl->lock);
	pl->runs_stored += measured_here(pl->plan, c, w);
	pthread_mutex_unlock(&pl->lock);
}

static void run_one(struct pipeline *pl, size_t c, size_t w, size_t r, int rep)
{
	struct study_plan *p = pl->plan;
	struct plan_workload *pw = &p->workloads[w];
	struct build *b = plan_build(p, c, w);
	const struct recipe_run *run = &b->recipe->runs[r];
	char *ref = ref_dir(pl, w, run);
	int recorded = p->in_shard[c * p->nworkloads + w];
	int is_base = (int)c == p->matrix.baseline;
	if (already_done(pl, b, run, rep, is_base, ref)) {
		run_stored(pl, c, w);
		free(ref);
		return;
	}
	struct exec_result res;
	if (pw->in_error) {
		/* the inputs' failure, not the program's: retried, so fixing the
		 * script brings the runs back on the next run */
		memset(&res, 0, sizeof(res));
		res.outcome = OUTCOME_INPUT_FAILED;
		res.detail = xstrdup(pw->in_error);
	} else {
		execute_run(&pl->exec, b, run, pw->in_dir, rep == 0,
			    is_base && rep == 0 ? NULL : ref, is_base && rep == 0 ? ref : NULL,
			    &res);
	}
	if (res.interrupted) { /* Ctrl-C killed it: the resumed study runs it */
		exec_result_release(&res);
		free(ref);
		return;
	}
	pthread_mutex_lock(&pl->lock);
	/* the sample is stored before anyone is told it ran; identical
	 * builds get the same rows (identical.c) */
	if (is_base && rep == 0 && res.outcome == OUTCOME_OK && recorded)
		say_unvalidated(pl, b, run, ref);
	if (recorded)
		record_run(pl, b, run, rep, &res);
	for (size_t t = 0; recorded && p->twin && t < p->nconfigs; t++)
		if (p->twin[t * p->nworkloads + w] == (int)c)
			record_run(pl, plan_build(p, t, w), run, rep, &res);
	if (!pl->store_failed)
		run_done(pl, b, run, rep, &res);
	pthread_mutex_unlock(&pl->lock);
	exec_result_release(&res);
	free(ref);
}

/* An extra warm-up: run, validate, discard.  Skipped when the item's
 * first repetition is stored already (a resumed study is warm enough). */
static void warm_one(struct pipeline *pl, size_t c, size_t w, size_t r)
{
	struct study_plan *p = pl->plan;
	struct plan_workload *pw = &p->workloads[w];
	struct build *b = plan_build(p, c, w);
	const struct recipe_run *run = &b->recipe->runs[r];
	if (pw->in_error)
		return;
	pthread_mutex_lock(&pl->lock);
	enum outcome stored = stored_outcome(pl, b, run, 1);
	pthread_mutex_unlock(&pl->lock);
	if (stored != OUTCOME_COUNT && !outcome_retried(stored)) {
		run_stored(pl, c, w);
		return;
	}
	char *ref = ref_dir(pl, w, run);
	struct exec_result res;
	execute_run(&pl->exec, b, run, pw->in_dir, 0, ref, NULL, &res);
	pthread_mutex_lock(&pl->lock);
	if (!res.interrupted)
		run_done(pl, b, run, 0, &res);
	pthread_mutex_unlock(&pl->lock);
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
	struct pipeline *pl;
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

static void item_run(struct pipeline *pl, const struct item *it)
{
	if (stopping(pl))
		return;
	if (it->rep < 0)
		warm_one(pl, it->c, it->w, it->r);
	else
		run_one(pl, it->c, it->w, it->r, it->rep);
}

static const char *item_dir(const struct crew *k, const struct item *it)
{
	return plan_build(k->pl->plan, it->c, it->w)->dir;
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
		item_run(k->pl, &copy);
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
static void crew_init(struct crew *k, struct pipeline *pl)
{
	memset(k, 0, sizeof(*k));
	k->pl = pl;
	pthread_mutex_init(&k->lock, NULL);
	pthread_cond_init(&k->work, NULL);
	pthread_cond_init(&k->done, NULL);
	if (!pl->exec.target)
		return;
	const struct runner_ops *r = runner_for(pl->exec.target);
	size_t nboards = r->machines ? r->machines(pl->exec.target) : 1;
	int per_board = pl->plan->study.run_per_board;
	size_t want = nboards * (per_board > 1 ? (size_t)per_board : 1);
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
			item_run(k->pl, &k->items[i]);
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

static int build_ok(const struct study_plan *p, size_t c, size_t w)
{
	return plan_build(p, c, w)->outcome == OUTCOME_OK;
}

/* built and measured by this run (not another shard's, not reusing an
 * identical build's runs) */
static int measured_here(const struct study_plan *p, size_t c, size_t w)
{
	size_t i = c * p->nworkloads + w;
	return build_ok(p, c, w) && p->in_shard[i] && !(p->twin && p->twin[i] >= 0);
}

/* repeat = auto: still measuring configuration c's run section r of w */
static char *open_item(const struct study_plan *p, size_t c, size_t w, size_t r)
{
	return &p->workloads[w].open[c * p->workloads[w].recipe.nruns + r];
}

/* repeat = auto: an item stops once the interval of its median (at the
 * level and with the resamples the report uses) on the metric the study
 * is ranked by is within the target; what never gets there is reported
 * NOISY.  A deterministic metric (instruction counts, sizes) stops after
 * one run. */
static void auto_close(struct pipeline *pl)
{
	struct study_plan *p = pl->plan;
	struct rank_options ro;
	rank_options_default(&ro);
	int exact = results_metric_deterministic(pl->metric);
	struct rng rng;
	rng_seed(&rng, ro.seed);
	for (size_t c = 0; c < p->nconfigs; c++)
		for (size_t w = 0; w < p->nworkloads; w++)
			for (size_t r = 0; r < p->workloads[w].recipe.nruns; r++) {
				char *open = open_item(p, c, w, r);
				if (!*open)
					continue;
				size_t n;
				double *v = store_get_samples(pl->store, p->study.name,
							      p->configs[c].cfg->id,
							      p->workloads[w].recipe.name,
							      p->workloads[w].recipe.runs[r].name,
							      pl->metric, &n);
				struct summary sum;
				if (exact && n >= 1) {
					*open = 0;
				} else if (n >= 2) {
					stats_summarize(v, n, 1 - ro.alpha, ro.iters, &rng, &sum);
					if (stats_relative_halfwidth(&sum) <= p->study.target)
						*open = 0;
				}
				free(v);
			}
}

/* What repeat = stable found after a round: the ranking's verdicts, the
 * ones not settled, and (in a shard) the configurations measured here
 * that the shard's own ranking cannot judge. */
struct stable_count {
	size_t verdicts, fragile, unjudged;
};

/* Not ranked: their baseline or another of their workloads is in another
 * shard (or they failed). */
static size_t shard_unjudged(const struct study_plan *p, const struct ranking *r)
{
	size_t n = 0;
	for (size_t c = 0; c < p->nconfigs; c++) {
		int here = 0;
		for (size_t w = 0; w < p->nworkloads; w++)
			here |= measured_here(p, c, w);
		for (size_t k = 0; here && k < r->n; k++)
			n += !strcmp(r->configs[k].id, p->configs[c].cfg->id) && !r->configs[k].rank;
	}
	return n;
}

static void stable_count(struct pipeline *pl, struct stable_count *n)
{
	struct ranking r;
	struct strbuf err = {0};
	*n = (struct stable_count){.fragile = 1};
	if (!ranking_compute(pl->store, pl->plan->study.name, pl->metric, &r, &err)) {
		for (size_t c = 0; c < r.n; c++)
			n->verdicts += r.configs[c].rank && r.configs[c].versus >= 0;
		n->fragile = ranking_fragile(&r);
		n->unjudged = shard_unjudged(pl->plan, &r);
	}
	ranking_release(&r);
	sb_release(&err);
}

/* The end of repeat = stable, said once; a shard says that it judged
 * its own share only (no shard sees another's samples: the report of
 * the merged database judges every verdict again). */
static void stable_say(struct pipeline *pl, const char *why, int rep, const struct stable_count *n)
{
	const struct study_plan *p = pl->plan;
	char *in = p->shard_n > 1 ? xasprintf(" within shard %d/%d", p->shard_i, p->shard_n)
				  : xstrdup("");
	const struct pipeline_options *o = pl->opt;
	if (n->fragile)
		pipeline_say_result(o, "repeat = stable: %zu verdict(s)%s not settled after %d rounds (%s)",
				    n->fragile, in, rep, why);
	else if (!n->verdicts)
		pipeline_say_result(o, "repeat = stable: no verdict to judge%s: stopped after %d rounds",
				    in, rep);
	else
		pipeline_say_result(o, "repeat = stable: every verdict%s settled after %d rounds", in,
				    rep);
	if (p->shard_n > 1)
		pipeline_say_result(o, "repeat = stable: shard %d/%d judged settledness among its own "
				       "samples only (%zu configuration(s) measured here could not be "
				       "judged in it); flagscope report on the merged database judges "
				       "every verdict", p->shard_i, p->shard_n, n->unjudged);
	free(in);
}

/* repeat = stable: measuring stops once every configuration-level
 * verdict of the ranking (rank.h, "Settled") is settled, or at a cap;
 * 1 to stop.  Rounds are whole, so the interleaving holds. */
static int stable_enough(struct pipeline *pl, int rep)
{
	struct study_plan *p = pl->plan;
	struct stable_count n;
	stable_count(pl, &n);
	double spent = now_seconds() - pl->started;
	char *why = spent >= p->study.max_seconds
		? xasprintf("max_seconds %g, %.0f s", p->study.max_seconds, spent)
		: rep >= p->study.max_repeat ? xstrdup("max_repeat") : NULL;
	int stop = !n.fragile || why;
	if (stop)
		stable_say(pl, why ? why : "", rep, &n);
	free(why);
	return stop;
}

/* Before the runs: stored runs another build of the same configuration
 * made (the source, recipe or compiler changed since, or the build was
 * made again) are said, per build and in total; they do not count and are
 * made again (stored_outcome). */
static void say_replaced(struct pipeline *pl)
{
	struct study_plan *p = pl->plan;
	int total = 0, builds = 0;
	for (size_t i = 0; i < p->nconfigs * p->nworkloads; i++) {
		const struct build *b = &p->builds[i];
		if (!p->in_shard[i] || b->outcome != OUTCOME_OK)
			continue;
		int same_key;
		pthread_mutex_lock(&pl->lock);
		int n = store_runs_of_other_build(pl->store, p->study.name, b->cfg->id,
						  b->recipe->name, b->key, binary_of(pl, b), &same_key);
		pthread_mutex_unlock(&pl->lock);
		if (!n)
			continue;
		total += n;
		builds++;
		pipeline_say(pl->opt, "%s %s: %d stored run(s) were made by another build (%s): not "
			     "counted, run again with build %.12s", b->cfg->label, b->recipe->name, n,
			     same_key == n ? "another binary under the same build key: it was built again"
					   : "its source, recipe or compiler changed since",
			     b->key);
	}
	if (total)
		pipeline_say_result(pl->opt, "replacing %d stored run(s) of %d build(s) made by an "
				    "earlier build of the same configuration (their samples are not "
				    "counted; report --samples shows each sample's build)", total, builds);
}

/* After each round (so a stopped study is right too): the other
 * configurations' wrong_output against a reference the baseline itself
 * does not reproduce becomes no_reference (store_unreproducible_runs);
 * how many changed, which the schedule says once at its end. */
static int unreproducible_after_round(struct pipeline *pl)
{
	const struct config *base = pl->plan->configs[pl->plan->matrix.baseline].cfg;
	pthread_mutex_lock(&pl->lock);
	int n = store_unreproducible_runs(pl->store, pl->plan->study.name, base->id, base->label);
	pipeline_stored(pl, n < 0 ? -1 : 0);
	pthread_mutex_unlock(&pl->lock);
	return n > 0 ? n : 0;
}

/* The configurations of round rep in a random order, seeded by the round
 * (a resumed study runs the same order).  A fixed order gave each
 * configuration one place in every round, and a configuration's layout
 * variants neighbouring places: on a loaded machine the wall time rose
 * through a round by 10%, which the nested rule read as a difference of
 * configurations (doc/layout.md, bench/aa_layouts.sh). */
static void round_order(size_t *order, size_t nc, int rep)
{
	struct rng r;
	rng_seed(&r, STATS_DEFAULT_SEED + (uint64_t)rep);
	for (size_t i = 0; i < nc; i++)
		order[i] = i;
	for (size_t i = nc; i > 1; i--) {
		size_t j = (size_t)rng_below(&r, i), t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
}

void pipeline_schedule(struct pipeline *pl)
{
	struct study_plan *p = pl->plan;
	const struct study *st = &p->study;
	size_t nw = p->nworkloads, nc = p->nconfigs, base = (size_t)p->matrix.baseline;
	for (size_t w = 0; w < nw; w++) {
		struct plan_workload *pw = &p->workloads[w];
		struct strbuf err = {0};
		/* after a stop no input script starts (the runs will not either);
		 * a plan run again (calibrate's rounds) keeps the inputs it made */
		int made = pw->in_dir || pw->in_error;
		if (!made && stopping(pl))
			pw->in_error = xstrdup("interrupted before its inputs were made");
		else if (!made &&
			 workload_inputs_stop(&pw->recipe, &pw->in_dir, &pipeline_interrupted, &err))
			pw->in_error = sb_detach(&err);
		sb_release(&err);
		size_t n = nc * pw->recipe.nruns;
		free(pw->open);
		pw->open = xcalloc(n ? n : 1, 1);
		memset(pw->open, 1, n);
	}
	pipeline_find_identical(pl);
	say_replaced(pl);
	int adaptive = st->repeat_auto || st->repeat_stable;
	int last = adaptive ? st->max_repeat : st->repeat;
	for (size_t c = 0; c < nc; c++)
		for (size_t w = 0; w < nw; w++)
			if (measured_here(p, c, w))
				pl->total_runs += (int)p->workloads[w].recipe.nruns * (last + st->warmup);
	pl->started = now_seconds();
	struct crew k;
	crew_init(&k, pl);
	/* the baseline's warm-up makes the reference, so it goes first */
	for (size_t w = 0; w < nw && !stopping(pl); w++)
		for (size_t r = 0; r < p->workloads[w].recipe.nruns && build_ok(p, base, w); r++)
			if (!stopping(pl))
				run_one(pl, base, w, r, 0);
	for (size_t c = 0; c < nc; c++)
		for (size_t w = 0; w < nw && c != base; w++)
			for (size_t r = 0; r < p->workloads[w].recipe.nruns && measured_here(p, c, w); r++)
				crew_add(&k, c, w, r, 0);
	crew_round(&k);
	/* warmup = N: N - 1 more unrecorded runs after the validating one,
	 * where the item still has repetitions to measure */
	for (int n = 1; n < st->warmup && !stopping(pl); n++) {
		for (size_t w = 0; w < nw; w++)
			for (size_t r = 0; r < p->workloads[w].recipe.nruns; r++)
				for (size_t c = 0; c < nc; c++)
					if (measured_here(p, c, w))
						crew_add(&k, c, w, r, -1);
		crew_round(&k);
	}
	int relabelled = 0;
	/* A B C B C A: drift lands on every configuration alike, and not on
	 * one place of a round (round_order); on boards a round ends before
	 * the next starts, so it holds there too */
	size_t *order = xmalloc((nc ? nc : 1) * sizeof(*order));
	for (int rep = 1; rep <= last && !stopping(pl); rep++) {
		round_order(order, nc, rep);
		for (size_t w = 0; w < nw; w++)
			for (size_t r = 0; r < p->workloads[w].recipe.nruns; r++)
				for (size_t i = 0; i < nc; i++) {
					size_t c = order[i];
					if (measured_here(p, c, w) && *open_item(p, c, w, r))
						crew_add(&k, c, w, r, rep);
				}
		if (!k.n)
			break;
		crew_round(&k);
		relabelled += unreproducible_after_round(pl);
		int enough = rep >= st->repeat || results_metric_deterministic(pl->metric);
		if (st->repeat_auto && enough)
			auto_close(pl);
		if (st->repeat_stable && enough && stable_enough(pl, rep))
			break;
	}
	free(order);
	crew_release(&k);
	if (relabelled)
		pipeline_say_result(pl->opt, "%d run(s) of other configurations are no_reference, "
				    "not wrong_output: the baseline %s's own output is not "
				    "reproducible, so it judges no one (its runs say where)", relabelled,
				    p->configs[base].cfg->label);
	if (!stopping(pl))
		pipeline_store_progress(pl, 1);
}
