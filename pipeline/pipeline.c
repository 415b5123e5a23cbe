/*
 * pipeline.c - storing a study, building it and starting its runs
 * (pipeline.h).
 */
#include <stdlib.h>
#include <string.h>

#include "base/native_cpu.h"
#include "harness/identical.h"
#include "harness/layout_check.h"
#include "harness/pgo.h"
#include "pipeline/pipeline_internal.h"

volatile sig_atomic_t pipeline_interrupted;

void pipeline_init(struct pipeline *pl, struct study_plan *p, struct store *st,
		   const struct pipeline_options *o)
{
	memset(pl, 0, sizeof(*pl));
	pl->plan = p;
	pl->store = st;
	pl->opt = o;
	pl->metric = p->study.metric;
	pl->exec.pin = p->study.pin;
	/* before the builds, so load.before is the machine's, not flagscope's */
	machine_read(&pl->machine, machine_root(), pl->exec.pin);
	pthread_mutex_init(&pl->lock, NULL);
	/* Test hook (tests/it_store_full.sh): a database that fills up after
	 * N pages fails its writes as a full disk does (SQLITE_FULL). */
	const char *pages = getenv("FLAGSCOPE_TEST_DB_MAX_PAGES");
	if (pages && *pages && st->db)
		store_limit_pages(st, strtol(pages, NULL, 10));
}

void pipeline_release(struct pipeline *pl)
{
	pthread_mutex_destroy(&pl->lock);
	machine_release(&pl->machine);
	sb_release(&pl->store_error);
}

int pipeline_stored(struct pipeline *pl, int rc)
{
	if (rc && !pl->store_failed) {
		const char *cause = store_errmsg(pl->store);
		pl->store_failed = 1;
		sb_addf(&pl->store_error,
			"%s: cannot store results: %s (%s, then run the study again: it resumes where it stopped)",
			pl->store->path ? pl->store->path : "?", cause, store_errhint(pl->store));
	}
	return rc;
}

static enum pipeline_status store_failed(struct pipeline *pl, struct strbuf *err)
{
	sb_add(err, sb_str(&pl->store_error));
	return PIPELINE_STORE_FAILED;
}

/* level.NAME = AXIS for every level: a pivot (analysis/pivot.h) reads the
 * axes from these, so it needs no study file (a search batch's recorded
 * file is the user's, without the batch's axis) */
static int store_levels(struct pipeline *pl)
{
	const struct study *st = &pl->plan->study;
	int rc = 0;
	for (size_t a = 0; a < st->naxes && !rc; a++)
		for (size_t l = 0; l < st->axes[a].nlevels && !rc; l++) {
			char *key = xasprintf("level.%s", st->axes[a].levels[l].name);
			rc = pipeline_stored(pl, store_put_fact(pl->store, st->name, key,
								st->axes[a].name));
			free(key);
		}
	return rc;
}

/* "higher_better.METRIC" = 1 for each metric of r's runs that says so */
static int store_directions(struct pipeline *pl, const struct recipe *r)
{
	int rc = 0;
	for (size_t i = 0; i < r->nruns && !rc; i++)
		for (size_t m = 0; m < r->runs[i].nmetrics && !rc; m++) {
			if (!r->runs[i].metrics[m].higher_better)
				continue;
			char *key = xasprintf("higher_better.%s", r->runs[i].metrics[m].name);
			rc = pipeline_stored(pl, store_put_fact(pl->store, pl->plan->study.name, key, "1"));
			free(key);
		}
	return rc;
}

/* native.ID: what the configuration's -mX=native stands for on this, the
 * building, machine (base/native_cpu.h), and native_note.ID when that
 * needed a fallback or was refused; clang's DWARF records only the word
 * (analysis/recommend.h) */
static int store_native_cpus(struct pipeline *pl, const struct config *cfg)
{
	char *note = NULL, *cpus = native_cpu_flags(cfg->cc, cfg->cflags, &note);
	char *key = xasprintf("native.%s", cfg->id), *nkey = xasprintf("native_note.%s", cfg->id);
	int rc = cpus ? store_put_fact(pl->store, pl->plan->study.name, key, cpus) : 0;
	if (!rc && note)
		rc = store_put_fact(pl->store, pl->plan->study.name, nkey, note);
	free(key);
	free(nkey);
	free(cpus);
	free(note);
	return pipeline_stored(pl, rc);
}

static int store_study(struct pipeline *pl)
{
	struct study_plan *p = pl->plan;
	struct study *st = &p->study;
	/* absolute, so `why` finds the study's own workloads/ from anywhere */
	char *abs = st->path ? realpath(st->path, NULL) : NULL;
	struct store_study ss = {
		.name = st->name, .path = abs ? abs : st->path, .metric = st->metric,
		.repeat_target = st->repeat_auto ? st->target : 0,
		.repeat_min = st->repeat, .repeat_max = st->max_repeat,
	};
	int rc = store_put_study(pl->store, &ss);
	free(abs);
	/* the report judges ties with the study's margin (analysis/rank.h) */
	char *margin = xasprintf("%.9g", st->tie_margin);
	rc = rc ? rc : store_put_fact(pl->store, st->name, "tie_margin", margin);
	free(margin);
	/* ... and an "apart" verdict at its look's level: the
	 * looks repeat = stable may take, its cap and its rule (rank.h) */
	char *looks = xasprintf("%d", st->repeat_stable ? st->max_repeat - st->repeat + 1 : 1);
	char *max = xasprintf("%d", st->max_repeat);
	rc = rc ? rc : store_put_fact(pl->store, st->name, "stable_looks", looks);
	rc = rc ? rc : store_put_fact(pl->store, st->name, "stable_max_repeat", max);
	rc = rc ? rc : store_put_fact(pl->store, st->name, "stable_rule", stable_rule_name(st->stable_rule));
	free(looks);
	free(max);
	if (pipeline_stored(pl, rc) || store_levels(pl))
		return -1;
	/* where each workload's source came from (an override says so), and
	 * which of its metrics are better higher: with the study, so a study
	 * stopped after its last run still ranks them the right way up */
	for (size_t w = 0; w < p->nworkloads; w++) {
		const struct recipe *r = &p->workloads[w].recipe;
		char *key = xasprintf("source.%s", r->name), *value = recipe_source_fact(r);
		rc = store_put_fact(pl->store, st->name, key, value);
		free(key);
		free(value);
		if (pipeline_stored(pl, rc) || store_directions(pl, r))
			return -1;
	}
	/* the study is what its file says now: a configuration edited away
	 * keeps its rows but leaves the study */
	if (pipeline_stored(pl, store_configs_leave_study(pl->store, st->name)))
		return -1;
	for (size_t c = 0; c < p->nconfigs; c++) {
		const struct plan_config *pc = &p->configs[c];
		const struct config *cfg = pc->cfg;
		struct store_config sc = {
			.study = st->name, .id = cfg->id, .label = cfg->label, .cc = cfg->cc,
			.toolchain_id = pc->tc_ok ? pc->tc->id : "",
			.toolchain_version = pc->tc_ok ? pc->tc->version : "",
			.cflags = cfg->cflags, .ldflags = cfg->ldflags,
			.link = cfg->link == 1 ? "static" : cfg->link == 0 ? "dynamic" : "default",
			.is_baseline = cfg->is_baseline, .order = (int)c,
			.target = cfg->target, .cpu = cfg->cpu, .libc = cfg->libc,
			.sysroot = cfg->sysroot, .notes = cfg->notes, .pgo = cfg->pgo,
			.layout = cfg->layout,
			.layout_of = cfg->layout ? p->configs[cfg->layout_of].cfg->id : "",
		};
		if (pipeline_stored(pl, store_put_config(pl->store, &sc)) ||
		    (pc->tc_ok && store_native_cpus(pl, cfg)))
			return -1;
	}
	return 0;
}

/* The builds and their section sizes (a build's own metrics), and the
 * counts of what was built, cached and failed. */
static int store_builds(struct pipeline *pl, struct pipeline_counts *n)
{
	struct study_plan *p = pl->plan;
	size_t nbuilds = p->nconfigs * p->nworkloads;
	free(p->binary_hash);
	p->binary_hash = xcalloc(nbuilds + 1, sizeof(*p->binary_hash));
	for (size_t i = 0; i < nbuilds; i++) {
		struct build *b = &p->builds[i];
		/* an interrupted build is neither ok nor failed: the resumed study builds it */
		if (!p->in_shard[i] || b->interrupted)
			continue;
		/* the runs it makes carry it: a sample of another binary never counts */
		if (build_binary_hash(b, p->binary_hash[i]))
			p->binary_hash[i][0] = '\0';
		struct store_build sb = {
			.study = p->study.name, .config_id = b->cfg->id, .workload = b->recipe->name,
			.key = b->key, .status = outcome_name(b->outcome), .detail = b->detail,
			.facts = b->facts_json, .seconds = b->seconds, .cached = b->cached,
			.binary_hash = p->binary_hash[i],
		};
		if (pipeline_stored(pl, store_put_build(pl->store, &sb)))
			return -1;
		int really_built = !b->cached && b->seconds > 0;
		n->built += really_built && b->outcome == OUTCOME_OK;
		n->cached += b->cached && b->outcome == OUTCOME_OK;
		n->failed += b->outcome != OUTCOME_OK;
		if (b->size_text >= 0 && !b->settled &&
		    (b->outcome == OUTCOME_OK || b->outcome == OUTCOME_FLAGS_NOT_APPLIED ||
		     b->outcome == OUTCOME_TESTS_FAILED)) {
			const double v[BUILD_NSIZES] = {b->size_text, b->size_data, b->size_bss,
							 b->size_rodata, b->size_file};
			struct store_metric m[BUILD_NSIZES + 1];
			size_t nm = 0;
			for (size_t k = 0; k < BUILD_NSIZES; k++)
				m[nm++] = (struct store_metric){build_size_names[k], v[k], "B"};
			/* a package's test step: the suite's time, not a benchmark */
			if (b->tests_seconds >= 0)
				m[nm++] = (struct store_metric){BUILD_TESTS_TIME, b->tests_seconds, "s"};
			if (pipeline_stored(pl, store_put_build_sizes(pl->store, p->study.name,
								      b->cfg->id, b->recipe->name,
								      m, nm)))
				return -1;
		}
	}
	/* complete only once the runs went through: a stop, a kill or
	 * --build-only from here on leaves the study incomplete */
	if (pipeline_store_progress(pl, 0))
		return -1;
	return pipeline_stored(pl, store_put_last_run(pl->store, p->study.name, n->built,
						      n->cached, n->failed));
}

int pipeline_store_progress(struct pipeline *pl, int complete)
{
	const struct study_plan *p = pl->plan;
	char *shard = p->shard_n > 1 ? xasprintf("%d/%d", p->shard_i, p->shard_n) : xstrdup("");
	struct store_progress_part *parts = xcalloc(p->nworkloads + 1, sizeof(*parts));
	for (size_t w = 0; w < p->nworkloads; w++) {
		parts[w].workload = p->workloads[w].recipe.name;
		for (size_t c = 0; c < p->nconfigs; c++)
			if (p->in_shard[c * p->nworkloads + w] && plan_build(p, c, w)->outcome == OUTCOME_OK)
				parts[w].expected += (int)plan_build(p, c, w)->recipe->nruns * p->study.repeat;
	}
	/* `run --workloads W` plans W only: the other workloads keep theirs */
	int only = sl_find(&p->study.overridden, "workloads") >= 0;
	int rc = store_put_progress(pl->store, p->study.name, shard, parts, p->nworkloads, only,
				    complete);
	free(parts);
	free(shard);
	return pipeline_stored(pl, rc);
}

/* pgo.train.NAME: the training run a workload's gen-use builds used, and
 * the runs measured, so a reader sees they differ */
static int store_pgo_facts(struct pipeline *pl)
{
	struct study_plan *p = pl->plan;
	for (size_t w = 0; w < p->nworkloads; w++) {
		const char *train = NULL;
		for (size_t c = 0; c < p->nconfigs && !train; c++)
			train = plan_build(p, c, w)->pgo_train;
		if (!train)
			continue;
		const struct recipe *r = &p->workloads[w].recipe;
		struct strbuf value = {0};
		sb_addf(&value, "%s; measured:", train);
		for (size_t i = 0; i < r->nruns; i++) {
			char *run = recipe_run_fact("run", &r->runs[i]);
			sb_addf(&value, "%s %s", i ? "," : "", run);
			free(run);
		}
		char *key = xasprintf("pgo.train.%s", r->name);
		int rc = store_put_fact(pl->store, p->study.name, key, sb_str(&value));
		free(key);
		sb_release(&value);
		if (pipeline_stored(pl, rc))
			return -1;
	}
	return 0;
}

/* layouts = N: each variant differs from its plain build only in
 * addresses (harness/layout_check.h), or it is not measured: its build is
 * stored as unsupported with the reason, and said.  The verdict of each
 * check is kept as the fact layout.ID.WORKLOAD. */
static int check_layouts(struct pipeline *pl)
{
	struct study_plan *p = pl->plan;
	for (size_t c = 0; c < p->nconfigs; c++) {
		const struct config *cfg = p->configs[c].cfg;
		for (size_t w = 0; cfg->layout && w < p->nworkloads; w++) {
			struct build *b = plan_build(p, c, w);
			const struct build *plain = plan_build(p, cfg->layout_of, w);
			if (b->outcome != OUTCOME_OK || plain->outcome != OUTCOME_OK)
				continue;
			struct strbuf why = {0};
			int ok = layout_check_builds(plain, b, &why);
			char *key = xasprintf("layout.%s.%s", cfg->id, b->recipe->name);
			char *value = xasprintf("%s: %s", ok > 0 ? "ok" : "rejected", sb_str(&why));
			int rc = pipeline_stored(pl, store_put_fact(pl->store, p->study.name, key, value));
			pipeline_say(pl->opt, "%s %s: layout check %s", cfg->label, b->recipe->name, value);
			if (ok <= 0) {
				b->outcome = OUTCOME_UNSUPPORTED;
				free(b->detail);
				b->detail = xasprintf("layout variant %d not used: %s", cfg->layout,
						      sb_str(&why));
			}
			free(key);
			free(value);
			sb_release(&why);
			if (rc)
				return -1;
		}
	}
	return 0;
}

int plan_measures(const struct study_plan *p)
{
	for (size_t w = 0; w < p->nworkloads; w++)
		if (p->workloads[w].recipe.nruns)
			return 1;
	return 0;
}

/* The study's first line: what will be built, and what measured; a sweep
 * of packages measures nothing, so it names no repetitions */
static void say_study(const struct study_plan *p, const struct pipeline_options *o)
{
	const char *cs = p->nconfigs == 1 ? "" : "s";
	if (!plan_measures(p)) {
		pipeline_say(o, "study %s: %zu configuration%s x %zu package%s, built and tested "
				"(nothing to measure), %d build jobs",
			     p->study.name, p->nconfigs, cs, p->nworkloads,
			     p->nworkloads == 1 ? "" : "s", o->jobs);
		return;
	}
	pipeline_say(o, "study %s: %zu configuration%s x %zu workload%s, %d repetitions%s, %d build jobs",
		     p->study.name, p->nconfigs, cs, p->nworkloads, p->nworkloads == 1 ? "" : "s",
		     p->study.repeat,
		     p->study.repeat_stable ? " and more until the ranks are settled (repeat = stable)"
					    : "", o->jobs);
}

enum pipeline_status pipeline_build(struct pipeline *pl, struct pipeline_counts *counts,
				    struct strbuf *err)
{
	struct study_plan *p = pl->plan;
	const struct pipeline_options *o = pl->opt;
	struct pipeline_counts n = {0};
	if (store_study(pl))
		return store_failed(pl, err);
	say_study(p, o);
	size_t nbuilds = p->nconfigs * p->nworkloads, npgo = 0;
	for (size_t i = 0; i < nbuilds; i++)
		npgo += p->builds[i].pgo_phase == PGO_USE && !p->builds[i].settled;
	if (npgo)
		pipeline_say(o, "pgo: %zu profile-guided builds: their instrumented builds and training runs first",
			     npgo);
	pgo_train_all(p->builds, nbuilds, o->jobs, &pipeline_interrupted);
	if (o->ev.builds_begin)
		o->ev.builds_begin(p->builds, nbuilds, o->ev.user);
	build_all(p->builds, p->nconfigs * p->nworkloads, o->jobs,
		  o->logs_dir ? pipeline_build_kept : o->ev.build_done,
		  o->logs_dir ? (void *)pl : o->ev.user, &pipeline_interrupted);
	if (o->ev.builds_end)
		o->ev.builds_end(o->ev.user);
	if (store_pgo_facts(pl) || check_layouts(pl) || store_builds(pl, &n))
		return store_failed(pl, err);
	if (o->logs_dir)
		pipeline_keep_logs(pl);
	if (pl->store_failed)
		return store_failed(pl, err);
	if (counts)
		*counts = n;
	return PIPELINE_OK;
}

/* What each metric of m can resolve, kept with the study so that a report
 * on another machine judges by the measuring machine's figure
 * (analysis/verdict.h; results_metric_resolution reads it) */
static void pipeline_store_resolutions(struct pipeline *pl, const struct meter_ops *m)
{
	struct strlist names = {0};
	meter_push_metrics(m, &names);
	for (size_t i = 0; i < names.n && !pl->store_failed; i++) {
		struct strbuf how = {0};
		const char *unit = "";
		double q = meter_resolution(names.v[i], &unit, &how);
		char *key = xasprintf("resolution.%s", names.v[i]);
		char *value = xasprintf("%.9g %s: %s", q, unit, sb_str(&how));
		if (q >= 0)
			pipeline_stored(pl, store_put_fact(pl->store, pl->plan->study.name, key, value));
		free(key);
		free(value);
		sb_release(&how);
	}
	sl_release(&names);
}

static void setup_meters(struct pipeline *pl)
{
	struct study_plan *p = pl->plan;
	struct strlist names = {0};
	if (p->study.meters.n)
		for (size_t i = 0; i < p->study.meters.n; i++)
			sl_push(&names, p->study.meters.v[i]);
	else
		sl_split_ws(&names, meter_names());
	pl->exec.runner = &runner_native;
	if (p->study.run_host) {
		pl->target = (struct run_target){
			.host = p->study.run_host, .port = p->study.run_port,
			.identity = p->study.run_identity, .workdir = p->study.run_workdir,
			.known_hosts = p->study.run_known_hosts,
		};
		pl->exec.target = &pl->target;
		pl->exec.mstate.target = &pl->target; /* perf probes the boards */
		const struct runner_ops *r = runner_for(pl->exec.target);
		if (r->open_study)
			r->open_study(&p->study);
	}
	pl->exec.timeout = p->study.timeout;
	pl->exec.stop = &pipeline_interrupted; /* Ctrl-C kills the run in flight */
	for (size_t i = 0; i < names.n && !pl->store_failed; i++) {
		const struct meter_ops *m = meter_lookup(names.v[i]);
		struct strbuf fact = {0};
		if (!m) {
			warn_msg("unknown meter '%s' ignored (known: %s)", names.v[i], meter_known_names());
			continue;
		}
		int usable = m->probe(&pl->exec.mstate, &fact);
		if (pl->exec.target && m->exit_stop) {
			usable = 0;
			sb_release(&fact);
			sb_add(&fact, "memory: not measured on boards over ssh");
		}
		char *key = xasprintf("meter.%s", m->name);
		pipeline_stored(pl, store_put_fact(pl->store, p->study.name, key, sb_str(&fact)));
		free(key);
		if (usable)
			pipeline_store_resolutions(pl, m);
		if (usable && pl->exec.nmeters < ARRAY_SIZE(pl->exec.meters))
			pl->exec.meters[pl->exec.nmeters++] = m;
		else
			pipeline_say(pl->opt, "%s", sb_str(&fact));
		sb_release(&fact);
	}
	sl_release(&names);
}

/* Every board answers before anything runs, and what it is (kernel, CPU,
 * MHz) is kept with the study. */
static int board_facts(struct pipeline *pl, struct strbuf *err)
{
	struct study_plan *p = pl->plan;
	struct strlist lines = {0}, down = {0};
	struct strbuf why = {0};
	const struct runner_ops *r = runner_for(pl->exec.target);
	if (r->facts && r->facts(pl->exec.target, &lines, &down, &why)) {
		sb_addf(err, "%s:%d: %s (check [run] host and that ssh reaches it in batch mode)",
			p->study.path, p->study.run_line, sb_str(&why));
		sb_release(&why);
		sl_release(&down);
		return -1;
	}
	for (size_t i = 0; i < down.n; i++) /* the study goes on with the others */
		warn_msg("%s:%d: %s (going on without that board; check [run] hosts)",
			 p->study.path, p->study.run_line, down.v[i]);
	sl_release(&down);
	for (size_t i = 0; i < lines.n && !pl->store_failed; i++) {
		char *colon = strstr(lines.v[i], ": ");
		char *key = colon ? xasprintf("board.%.*s", (int)(colon - lines.v[i]), lines.v[i])
				  : xasprintf("board.%zu", i);
		pipeline_stored(pl, store_put_fact(pl->store, p->study.name, key,
						   colon ? colon + 2 : lines.v[i]));
		pipeline_say(pl->opt, "board %s", lines.v[i]);
		free(key);
	}
	sl_release(&lines);
	return 0;
}

/* The machine state is stored before the runs (an interrupted study
 * keeps it) and again with the load during and after them; a rerun that
 * runs nothing leaves the state of the runs stored. */
static void run_watched(struct pipeline *pl)
{
	const char *study = pl->plan->study.name;
	struct machine_watch watch;
	struct strlist keys = {0}, values = {0};
	store_get_machine(pl->store, study, &keys, &values);
	if (!keys.n)
		pipeline_stored(pl, store_put_machine(pl->store, study, machine_key_names,
						      pl->machine.v, MACHINE_NKEYS));
	sl_release(&keys);
	sl_release(&values);
	machine_watch_start(&watch, machine_root());
	pipeline_schedule(pl);
	machine_finish(&pl->machine, machine_root(), machine_watch_stop(&watch));
	if (pl->runs_done && !pl->store_failed)
		pipeline_stored(pl, store_put_machine(pl->store, study, machine_key_names,
						      pl->machine.v, MACHINE_NKEYS));
}

enum pipeline_status pipeline_run(struct pipeline *pl, struct strbuf *err)
{
	setup_meters(pl);
	if (pl->store_failed)
		return store_failed(pl, err);
	if (pl->exec.target && board_facts(pl, err))
		return PIPELINE_FAILED;
	if (pl->store_failed)
		return store_failed(pl, err);
	run_watched(pl);
	/* a second `flagscope run` of a finished study measures nothing: said,
	 * so the report that follows is not taken for new measurements */
	if (!pl->runs_done && pl->total_runs > 0 && !pipeline_interrupted && !pl->store_failed)
		pipeline_say_result(pl->opt, "study %s: every run is stored already, nothing was "
				    "measured now; the report below is of the stored runs (run with "
				    "another --db, or a higher repeat, to measure again)",
				    pl->plan->study.name);
	const struct runner_ops *r = runner_for(pl->exec.target);
	if (r->release_study)
		r->release_study();
	return pl->store_failed ? store_failed(pl, err) : PIPELINE_OK;
}

enum pipeline_status pipeline_execute(struct study_plan *p, struct store *st,
				      const struct pipeline_options *o, int build_only,
				      struct pipeline_counts *counts, struct strbuf *err)
{
	struct pipeline pl;
	pipeline_init(&pl, p, st, o);
	enum pipeline_status status = pipeline_build(&pl, counts, err);
	/* a stop during the builds: no input script, no run starts */
	if (status == PIPELINE_OK && !build_only && !pipeline_interrupted)
		status = pipeline_run(&pl, err);
	if (counts) {
		counts->runs_done = pl.runs_done;
		counts->runs_total = pl.total_runs;
	}
	pipeline_release(&pl);
	return status;
}

enum pipeline_status pipeline_execute_runs(struct study_plan *p, struct store *st,
					   const struct pipeline_options *o,
					   struct pipeline_counts *counts, struct strbuf *err)
{
	struct pipeline pl;
	pipeline_init(&pl, p, st, o);
	enum pipeline_status status = pipeline_run(&pl, err);
	if (counts) {
		counts->runs_done = pl.runs_done;
		counts->runs_total = pl.total_runs;
	}
	pipeline_release(&pl);
	return status;
}
