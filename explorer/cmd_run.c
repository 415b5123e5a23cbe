/*
 * cmd_run.c - flagscope run: a study through build, verify, run, validate,
 * store and rank.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/rank.h"
#include "analysis/report.h"
#include "analysis/results.h"
#include "analysis/stats.h"
#include "analysis/merge.h"
#include "analysis/store.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/progress.h"
#include "explorer/run_session.h"
#include "explorer/study_path.h"
#include "flagsets/matrix.h"
#include "harness/build.h"
#include "harness/execute.h"
#include "harness/fetch.h"
#include "harness/libc.h"
#include "harness/runner_ssh.h"
#include "harness/sysroot.h"

static const char *const format_choices[] = {"table", "csv", "json", NULL};

static struct {
	int jobs;
	int dry_run;
	int repeat;
	int pin;
	int quiet;
	int build_only;
	const char *db;
	const char *format;
	const char *workloads;
	const char *meters;
	const char *metric;
	const char *shard;
	struct strlist sources; /* --source NAME=SPEC */
} opt;

static const struct option_spec run_options[] = {
	{"jobs", 'j', OPT_INT, &opt.jobs, "N", "builds at a time (default: the number of CPUs)"},
	{"dry-run", 'n', OPT_FLAG, &opt.dry_run, NULL,
	 "show the configurations, their build keys and what is cached; build nothing"},
	{"db", 0, OPT_STRING, &opt.db, "PATH", "results database (default ./flagscope.db)"},
	{"repeat", 'r', OPT_INT, &opt.repeat, "N", "repetitions per configuration (overrides the study)"},
	{"workloads", 'w', OPT_STRING, &opt.workloads, "\"A B\"", "run only these workloads"},
	{"meters", 0, OPT_STRING, &opt.meters, "\"rusage perf\"", "meters to use (default: the study's, else all usable)"},
	{"metric", 'm', OPT_STRING, &opt.metric, "NAME", "rank by this metric (default: the study's, else time)"},
	{"pin", 0, OPT_INT, &opt.pin, "CPU", "pin measured runs to one CPU"},
	{"format", 'f', OPT_CHOICE, &opt.format, "FMT", "ranking format", format_choices},
	{"build-only", 0, OPT_FLAG, &opt.build_only, NULL, "build and verify, store the builds, run nothing"},
	{"shard", 0, OPT_STRING, &opt.shard, "I/N",
	 "run only shard I of N (a fixed share of the configuration x workload pairs), for flagscope merge"},
	{"quiet", 'q', OPT_FLAG, &opt.quiet, NULL, "no progress lines"},
	{"source", 0, OPT_LIST, &opt.sources, "NAME=SPEC",
	 "build workload NAME from SPEC (e.g. local:/path) instead of its recipe's source; repeatable"},
	{NULL},
};

static const struct command_spec run_cmd = {
	.name = "run",
	.usage = "[STUDY] [options]",
	.summary = "Build every configuration of a study (default: the bundled default study),\n"
		   "verify the flags reached the binaries, run the workloads with warm-up and\n"
		   "interleaved repetitions, check every output against the baseline's, store\n"
		   "every sample in SQLite and print the ranking.  Rerunning resumes: stored\n"
		   "samples are kept and only missing ones run.",
	.details = "STUDY is a study file or the name of a preset (flagscope list presets).\n"
		   "Exit status: 0 the study ran (failed configurations are results),\n"
		   "2 bad input (the study file, an option).",
	.opts = run_options,
};



static void on_signal(int sig)
{
	(void)sig;
	run_interrupted = 1;
}

/* user: the time the builds started (double *) */
static void build_progress(const struct build *b, size_t done, size_t total, void *user)
{
	char eta[64];
	progress_eta(eta, sizeof(eta), now_seconds() - *(double *)user, (long)done, (long)total);
	if (b->outcome != OUTCOME_OK || !progress_is_tty())
		progress_say("[build %zu/%zu] %s %s: %s (%.1f s%s)%s%s", done, total, b->cfg->label,
			     b->recipe->name, outcome_name(b->outcome), b->seconds,
			     b->config_seeded ? ", configure from the group's proven cache" : "",
			     b->detail ? ": " : "", b->detail ? b->detail : "");
	if (progress_is_tty())
		progress_event("builds %zu/%zu: %s %s %s, %s", done, total, b->cfg->label,
			       b->recipe->name, outcome_name(b->outcome), eta);
}

static int load_recipes(struct session *s, struct strbuf *err)
{
	s->nrecipes = s->study.workloads.n;
	s->recipes = xcalloc(s->nrecipes, sizeof(*s->recipes));
	for (size_t w = 0; w < s->nrecipes; w++)
		if (recipe_load(s->study.workloads.v[w], &s->recipes[w], err))
			return -1;
	return 0;
}

/* A cross configuration gets its compiler: Debian's cross gcc for glibc,
 * or a musl sysroot built with the configuration's own target flags
 * (Debian's MIPS libraries are release-2 code a Loongson 2F cannot run).
 * Flags the sysroot must add (e.g. -ffp-contract=off under QEMU 7.2) go
 * into the configuration's flags and label: visible, never silent. */
static int prepare_cross(struct config *cfg, struct strbuf *why)
{
	char *triple_cc = xasprintf("%s-gcc", cfg->target);
	int default_cc = !strcmp(cfg->cc, "gcc");
	if (cfg->libc && !strcmp(cfg->libc, "glibc")) {
		if (default_cc) {
			free(cfg->cc);
			cfg->cc = triple_cc;
		} else {
			free(triple_cc);
		}
		char *ld = xasprintf("-static%s%s", *cfg->ldflags ? " " : "", cfg->ldflags);
		free(cfg->ldflags);
		cfg->ldflags = ld;
		return 0;
	}
	if (cfg->libc && strcmp(cfg->libc, "musl")) {
		sb_addf(why, "%s for %s: only glibc (Debian's cross libc) or musl (a built sysroot) cross-compile",
			cfg->libc, cfg->target);
		free(triple_cc);
		return -1;
	}
	/* the C library is built for the target (-m flags: ISA, ABI, FP), not
	 * per optimisation level: one sysroot serves -O2 and -O3 alike */
	struct strlist words = {0}, target_words = {0};
	sl_split_ws(&words, cfg->cflags);
	for (size_t i = 0; i < words.n; i++)
		if (str_starts_with(words.v[i], "-m"))
			sl_push(&target_words, words.v[i]);
	char *target_flags = sl_join(&target_words, " ");
	sl_release(&words);
	sl_release(&target_words);
	struct sysroot_spec spec = {.triple = cfg->target, .cc = default_cc ? NULL : cfg->cc,
				    .cflags = target_flags, .emulated = cfg->cpu != NULL};
	struct sysroot_plan plan;
	char *dir = NULL, *cc = NULL, *tflags = NULL, *ldflags = NULL;
	free(triple_cc);
	if (sysroot_plan(&spec, &plan, why)) {
		free(target_flags);
		return -1;
	}
	progress_say("sysroot for %s (%s %s): building or reusing", cfg->label, cfg->target,
		 target_flags);
	int rc = sysroot_build(&spec, &dir, opt.quiet ? NULL : stderr, why) ||
		 sysroot_toolchain(dir, &cc, &tflags, &ldflags, why);
	if (!rc) {
		if (*plan.added) {
			char *label = xasprintf("%s [+%s]", cfg->label, plan.added);
			char *flags = xasprintf("%s %s", cfg->cflags, plan.added);
			free(cfg->label);
			free(cfg->cflags);
			cfg->label = label;
			cfg->cflags = flags;
			cfg->notes = xasprintf("added %s: %s", plan.added, plan.notes);
		}
		char *ld = xasprintf("%s%s%s", ldflags, *cfg->ldflags ? " " : "", cfg->ldflags);
		free(cfg->ldflags);
		cfg->ldflags = ld;
		free(cfg->cc);
		cfg->cc = cc;
		cc = NULL;
		cfg->sysroot = dir;
		dir = NULL;
		cfg->link = 1;
	}
	free(dir);
	free(cc);
	free(tflags);
	free(ldflags);
	free(target_flags);
	sysroot_plan_release(&plan);
	return rc ? -1 : 0;
}

static void prepare_toolchains(struct session *s)
{
	size_t n = s->matrix.n;
	s->tcs = xcalloc(n, sizeof(*s->tcs));
	s->tc_ok = xcalloc(n, sizeof(int));
	s->cfg_outcome = xcalloc(n, sizeof(*s->cfg_outcome));
	s->cfg_detail = xcalloc(n, sizeof(char *));
	for (size_t c = 0; c < n; c++) {
		struct config *cfg = &s->matrix.configs[c];
		struct strbuf err = {0};
		char *driver = NULL;
		/* the libc level decides the compiler driver (musl-gcc, diet) */
		if (cfg->libc && !cfg->target &&
		    libc_lookup(cfg->libc)->driver(cfg->cc, cfg->link, &driver, &err)) {
			s->cfg_outcome[c] = OUTCOME_UNSUPPORTED;
			s->cfg_detail[c] = sb_detach(&err);
			continue;
		}
		if (driver) {
			free(cfg->cc);
			cfg->cc = driver;
		}
		if (cfg->target && prepare_cross(cfg, &err)) {
			s->cfg_outcome[c] = OUTCOME_UNSUPPORTED;
			s->cfg_detail[c] = sb_detach(&err);
			continue;
		}
		if (toolchain_probe(cfg->cc, &s->tcs[c], &err)) {
			s->cfg_outcome[c] = OUTCOME_UNSUPPORTED;
			s->cfg_detail[c] = sb_detach(&err);
			continue;
		}
		s->tc_ok[c] = 1;
		if (!opt.dry_run)
			s->cfg_outcome[c] = build_probe_flags(cfg, &s->tcs[c], &s->cfg_detail[c]);
		sb_release(&err);
	}
}

static void prepare_sources(struct session *s)
{
	s->src_dirs = xcalloc(s->nrecipes, sizeof(char *));
	s->src_ids = xcalloc(s->nrecipes, sizeof(*s->src_ids));
	s->src_errors = xcalloc(s->nrecipes, sizeof(char *));
	for (size_t w = 0; w < s->nrecipes; w++) {
		struct strbuf err = {0};
		progress_say("source %s: %s", s->recipes[w].name, s->recipes[w].source);
		if (source_fetch(s->recipes[w].source, s->recipes[w].dir, &s->src_dirs[w],
				 s->src_ids[w], &err)) {
			s->src_errors[w] = xasprintf("source: %s", sb_str(&err));
			progress_say("source %s failed: %s", s->recipes[w].name, sb_str(&err));
		}
		sb_release(&err);
	}
}

/* Another shard's pairs are not built here, except the baseline of a
 * workload this shard measures: its warm-up makes the reference. */
static int shard_needs_reference(const struct session *s, size_t c, size_t w)
{
	if ((int)c != s->matrix.baseline)
		return 0;
	for (size_t k = 0; k < s->matrix.n; k++)
		if (s->in_shard[k * s->nrecipes + w])
			return 1;
	return 0;
}

static void select_shard(struct session *s)
{
	size_t n = s->matrix.n * s->nrecipes;
	s->in_shard = xcalloc(n ? n : 1, 1);
	for (size_t c = 0; c < s->matrix.n; c++)
		for (size_t w = 0; w < s->nrecipes; w++)
			s->in_shard[c * s->nrecipes + w] =
				s->shard_n <= 1 || shard_selects(s->matrix.configs[c].id,
								 s->recipes[w].name, s->shard_i,
								 s->shard_n);
}

static void prepare_builds(struct session *s)
{
	size_t nw = s->nrecipes;
	s->builds = xcalloc(s->matrix.n * nw, sizeof(*s->builds));
	for (size_t c = 0; c < s->matrix.n; c++)
		for (size_t w = 0; w < nw; w++) {
			struct build *b = &s->builds[c * nw + w];
			b->cfg = &s->matrix.configs[c];
			b->tc = &s->tcs[c];
			b->recipe = &s->recipes[w];
			b->src_dir = s->src_dirs[w] ? s->src_dirs[w] : s->recipes[w].dir;
			b->src_id = s->src_dirs[w] ? s->src_ids[w] : "unavailable";
			if (s->tc_ok[c])
				build_init(b);
			/* what cannot be built is settled before the pool starts */
			if (!s->in_shard[c * nw + w] && !shard_needs_reference(s, c, w)) {
				b->settled = 1;
				b->outcome = OUTCOME_UNSUPPORTED;
				b->detail = xstrdup("in another shard");
			} else if (s->cfg_outcome[c] != OUTCOME_OK) {
				b->settled = 1;
				b->outcome = s->cfg_outcome[c];
				b->detail = xstrdup(s->cfg_detail[c] ? s->cfg_detail[c] : "");
			} else if (s->src_errors[w]) {
				b->settled = 1;
				b->outcome = OUTCOME_BUILD_FAILED;
				b->detail = xstrdup(s->src_errors[w]);
			}
		}
}

static void print_dry_run(struct session *s)
{
	printf("study %s: %zu configurations (%zu excluded) x %zu workloads, repeat %d\n",
	       s->study.name, s->matrix.n, s->matrix.excluded, s->nrecipes, s->study.repeat);
	size_t cached = 0, todo = 0;
	for (size_t c = 0; c < s->matrix.n; c++) {
		struct config *cfg = &s->matrix.configs[c];
		printf("\nconfig %s  %s%s\n  cc: %s%s%s\n  cflags: %s\n  ldflags: %s\n", cfg->id,
		       cfg->label, cfg->is_baseline ? "  (baseline)" : "", cfg->cc,
		       s->tc_ok[c] ? " = " : "", s->tc_ok[c] ? s->tcs[c].version : "",
		       cfg->cflags, cfg->ldflags);
		if (!s->tc_ok[c]) {
			printf("  unsupported: %s\n", s->cfg_detail[c]);
			continue;
		}
		for (size_t w = 0; w < s->nrecipes; w++) {
			struct build *b = &s->builds[c * s->nrecipes + w];
			printf("  %-12s build %.16s  %s\n", b->recipe->name, b->key,
			       b->settled ? outcome_name(b->outcome) : b->cached ? "cached" : "would build");
			if (b->cached)
				cached++;
			else
				todo++;
		}
	}
	printf("\n%zu builds cached, %zu would be built\n", cached, todo);
}

static void store_builds(struct session *s, int *built, int *cached, int *failed)
{
	for (size_t i = 0; i < s->matrix.n * s->nrecipes; i++) {
		struct build *b = &s->builds[i];
		if (!s->in_shard[i])
			continue;
		struct store_build sb = {
			.study = s->study.name, .config_id = b->cfg->id, .workload = b->recipe->name,
			.key = b->key, .status = outcome_name(b->outcome), .detail = b->detail,
			.facts = b->facts_json, .seconds = b->seconds, .cached = b->cached,
		};
		store_put_build(&s->store, &sb);
		int really_built = !b->cached && b->seconds > 0;
		*built += really_built && b->outcome == OUTCOME_OK;
		*cached += b->cached && b->outcome == OUTCOME_OK;
		*failed += b->outcome != OUTCOME_OK;
		if (b->size_text >= 0 && !b->settled &&
		    (b->outcome == OUTCOME_OK || b->outcome == OUTCOME_FLAGS_NOT_APPLIED)) {
			struct store_metric m[] = {
				{"size.text", b->size_text, "B"}, {"size.data", b->size_data, "B"},
				{"size.bss", b->size_bss, "B"},   {"size.rodata", b->size_rodata, "B"},
				{"size.file", b->size_file, "B"},
			};
			store_put_run(&s->store, s->study.name, b->cfg->id, b->recipe->name, "@build", 0,
				      outcome_name(b->outcome), b->detail, m, ARRAY_SIZE(m));
		}
	}
}

static void setup_meters(struct session *s)
{
	struct strlist names = {0};
	if (opt.meters)
		sl_split_ws(&names, opt.meters);
	else if (s->study.meters.n)
		for (size_t i = 0; i < s->study.meters.n; i++)
			sl_push(&names, s->study.meters.v[i]);
	else
		sl_split_ws(&names, meter_names());
	s->exec.runner = &runner_native;
	s->exec.pin_cpu = opt.pin;
	if (s->study.run_host) {
		s->target = (struct run_target){
			.host = s->study.run_host, .port = s->study.run_port,
			.identity = s->study.run_identity, .workdir = s->study.run_workdir,
			.known_hosts = s->study.run_known_hosts,
		};
		s->exec.target = &s->target;
		s->exec.mstate.target = &s->target; /* perf probes the boards */
		runner_ssh_set_options(&(struct runner_ssh_options){
			.per_board = s->study.run_per_board, .helper_cc = s->study.run_helper_cc,
			.cpu = s->study.run_cpu});
	}
	s->exec.timeout = s->study.timeout;
	for (size_t i = 0; i < names.n; i++) {
		const struct meter_ops *m = meter_lookup(names.v[i]);
		struct strbuf fact = {0};
		if (!m) {
			warn_msg("unknown meter '%s' ignored (known: %s)", names.v[i], meter_names());
			continue;
		}
		int usable = m->probe(&s->exec.mstate, &fact);
		if (s->exec.target && m->exit_stop) {
			usable = 0;
			sb_release(&fact);
			sb_add(&fact, "memory: not measured on boards over ssh");
		}
		char *key = xasprintf("meter.%s", m->name);
		store_put_fact(&s->store, s->study.name, key, sb_str(&fact));
		free(key);
		if (usable && s->exec.nmeters < ARRAY_SIZE(s->exec.meters))
			s->exec.meters[s->exec.nmeters++] = m;
		else
			progress_say("%s", sb_str(&fact));
		sb_release(&fact);
	}
	sl_release(&names);
}


static void session_release(struct session *s)
{
	for (size_t i = 0; i < s->matrix.n * s->nrecipes && s->builds; i++)
		build_release(&s->builds[i]);
	free(s->builds);
	free(s->in_shard);
	for (size_t c = 0; c < s->matrix.n; c++) {
		if (s->tcs && s->tc_ok[c])
			toolchain_release(&s->tcs[c]);
		if (s->cfg_detail)
			free(s->cfg_detail[c]);
	}
	free(s->tcs);
	free(s->tc_ok);
	free(s->cfg_outcome);
	free(s->cfg_detail);
	for (size_t w = 0; w < s->nrecipes; w++) {
		recipe_release(&s->recipes[w]);
		if (s->src_dirs)
			free(s->src_dirs[w]);
		if (s->src_errors)
			free(s->src_errors[w]);
		if (s->in_dirs)
			free(s->in_dirs[w]);
		if (s->in_errors)
			free(s->in_errors[w]);
	}
	free(s->recipes);
	free(s->src_dirs);
	free(s->src_ids);
	free(s->src_errors);
	free(s->in_dirs);
	free(s->in_errors);
	matrix_release(&s->matrix);
	study_release(&s->study);
	store_close(&s->store);
}

static void print_errors(const char *text)
{
	char *copy = xstrdup(text);
	for (char *save, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		error_msg("%s", l);
	free(copy);
}

/* Every board answers before anything runs, and what it is (kernel, CPU,
 * MHz) is kept with the study. */
static int board_facts(struct session *s)
{
	struct strlist lines = {0}, down = {0};
	struct strbuf err = {0};
	if (runner_ssh_facts(s->exec.target, &lines, &down, &err)) {
		error_msg("%s:%d: %s (check [run] host and that ssh reaches it in batch mode)",
			  s->study.path, s->study.run_line, sb_str(&err));
		sb_release(&err);
		sl_release(&down);
		return -1;
	}
	for (size_t i = 0; i < down.n; i++) /* the study goes on with the others */
		warn_msg("%s:%d: %s (going on without that board; check [run] hosts)",
			 s->study.path, s->study.run_line, down.v[i]);
	sl_release(&down);
	for (size_t i = 0; i < lines.n; i++) {
		char *colon = strstr(lines.v[i], ": ");
		char *key = colon ? xasprintf("board.%.*s", (int)(colon - lines.v[i]), lines.v[i])
				  : xasprintf("board.%zu", i);
		store_put_fact(&s->store, s->study.name, key, colon ? colon + 2 : lines.v[i]);
		progress_say("board %s", lines.v[i]);
		free(key);
	}
	sl_release(&lines);
	return 0;
}

static int finish(struct session *s)
{
	int built = 0, cached = 0, failed = 0;
	store_builds(s, &built, &cached, &failed);
	store_put_last_run(&s->store, s->study.name, built, cached, failed);
	if (opt.build_only) {
		printf("builds: %d built, %d cached, %d failed\n", built, cached, failed);
		return 0;
	}
	setup_meters(s);
	if (s->exec.target && board_facts(s))
		return 1;
	run_all(s);
	if (s->exec.target)
		runner_ssh_release();
	if (run_interrupted)
		progress_say("interrupted: the samples stored so far are kept; run again to resume");
	struct ranking rk;
	struct strbuf err = {0};
	const char *metric = opt.metric ? opt.metric : s->study.metric;
	if (ranking_compute(&s->store, s->study.name, metric, &rk, &err)) {
		print_errors(sb_str(&err));
		sb_release(&err);
		return 1;
	}
	progress_end();
	report_print(stdout, &rk, report_format(opt.format));
	ranking_release(&rk);
	return run_interrupted ? 1 : 0;
}

int cmd_run(int argc, char **argv)
{
	struct strlist pos = {0};
	struct strbuf err = {0};
	struct session s;
	memset(&opt, 0, sizeof(opt));
	memset(&s, 0, sizeof(s));
	opt.jobs = cpu_count();
	opt.repeat = -1;
	opt.pin = -1;
	opt.db = "flagscope.db";
	opt.format = "table";
	int rc = options_parse(&run_cmd, argc, argv, &pos);
	if (rc) {
		sl_release(&opt.sources);
		return rc > 0 ? 0 : 2;
	}
	progress_init(opt.quiet, -1);
	if (pos.n > 1) {
		error_msg("run: one study at a time (see flagscope run --help)");
		sl_release(&pos);
		sl_release(&opt.sources);
		return 2;
	}
	s.shard_n = 1;
	if (opt.shard && (sscanf(opt.shard, "%d/%d", &s.shard_i, &s.shard_n) != 2 || s.shard_n < 1 ||
			  s.shard_i < 0 || s.shard_i >= s.shard_n)) {
		error_msg("run: --shard wants I/N with 0 <= I < N, not '%s'", opt.shard);
		sl_release(&pos);
		sl_release(&opt.sources);
		return 2;
	}
	char *path = study_path_resolve(pos.n ? pos.v[0] : "default");
	sl_release(&pos);
	rc = 2;
	if (study_load(path, &s.study, &err)) {
		print_errors(sb_str(&err));
		goto out;
	}
	if (opt.repeat > 0) {
		s.study.repeat = opt.repeat;
		s.study.repeat_auto = 0;
	}
	if (opt.workloads) {
		struct strlist only = {0};
		sl_split_ws(&only, opt.workloads);
		for (size_t i = 0; i < only.n; i++)
			if (sl_find(&s.study.workloads, only.v[i]) < 0) {
				error_msg("%s: --workloads names '%s', which the study does not have", path,
					  only.v[i]);
				sl_release(&only);
				goto out;
			}
		sl_release(&s.study.workloads);
		s.study.workloads = only;
	}
	if (matrix_expand(&s.study, &s.matrix, &err) || load_recipes(&s, &err) ||
	    study_override_sources(&s.study, s.recipes, s.nrecipes, &opt.sources, &err)) {
		print_errors(sb_str(&err));
		goto out;
	}
	prepare_toolchains(&s);
	/* dry runs fetch too: a build key needs the source's identity */
	prepare_sources(&s);
	select_shard(&s);
	prepare_builds(&s);
	if (opt.dry_run) {
		print_dry_run(&s);
		rc = 0;
		goto out;
	}
	if (store_open(&s.store, opt.db, 1, &err) || store_lock(&s.store, &err)) {
		print_errors(sb_str(&err));
		goto out;
	}
	store_put_study(&s.store, s.study.name, path, s.study.metric);
	for (size_t w = 0; w < s.nrecipes; w++) {
		char *key = xasprintf("source.%s", s.recipes[w].name);
		char *value = recipe_source_fact(&s.recipes[w]);
		store_put_fact(&s.store, s.study.name, key, value);
		free(key);
		free(value);
	}
	if (s.study.repeat_auto) {
		char *v = xasprintf("target=%g min=%d max=%d", s.study.target, s.study.repeat,
				    s.study.max_repeat);
		store_put_fact(&s.store, s.study.name, "repeat.auto", v);
		free(v);
	}
	for (size_t c = 0; c < s.matrix.n; c++) {
		struct config *cfg = &s.matrix.configs[c];
		struct store_config sc = {
			.study = s.study.name, .id = cfg->id, .label = cfg->label, .cc = cfg->cc,
			.toolchain_id = s.tc_ok[c] ? s.tcs[c].id : "",
			.toolchain_version = s.tc_ok[c] ? s.tcs[c].version : "",
			.cflags = cfg->cflags, .ldflags = cfg->ldflags,
			.link = cfg->link == 1 ? "static" : cfg->link == 0 ? "dynamic" : "default",
			.is_baseline = cfg->is_baseline, .order = (int)c,
			.target = cfg->target, .cpu = cfg->cpu, .libc = cfg->libc,
			.sysroot = cfg->sysroot, .notes = cfg->notes,
		};
		store_put_config(&s.store, &sc);
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	progress_say("study %s: %zu configurations x %zu workloads, %d repetitions, %d build jobs",
		 s.study.name, s.matrix.n, s.nrecipes, s.study.repeat, opt.jobs);
	double builds_started = now_seconds();
	s.builds_total = s.matrix.n * s.nrecipes;
	build_all(s.builds, s.builds_total, opt.jobs, build_progress, &builds_started);
	progress_end();
	rc = finish(&s);
out:
	sb_release(&err);
	session_release(&s);
	sl_release(&opt.sources);
	free(path);
	return rc;
}
