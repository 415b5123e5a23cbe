/*
 * cmd_run.c - flagscope run: a study through the pipeline (build, verify,
 * run, validate, store; pipeline/pipeline.h), then its ranking.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rank.h"
#include "analysis/report.h"
#include "analysis/results.h"
#include "analysis/verdict.h"
#include "base/util.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/progress.h"
#include "explorer/study_path.h"
#include "flagsets/settings.h"
#include "harness/build.h"
#include "harness/meter.h"
#include "harness/runner.h"
#include "pipeline/pipeline.h"

/* the ranking's formats but html (a page, not something to print after a run) */
static format_set run_formats(struct strbuf *err)
{
	return report_formats(err) & ~FORMAT_BIT(FORMAT_HTML);
}

static struct {
	/* --repeat, --metric, --meters, --noise-floor, --packages, --workloads, --pin,
	 * --force, --source: applied into the study before it is planned */
	struct run_overrides study;
	int jobs, dry_run, quiet, build_only;
	const char *db, *format, *shard, *shard_by, *logs;
} opt;

static const char *const shard_by_choices[] = {"pair", "package", NULL};

static const struct option_spec run_options[] = {
	{"jobs", 'j', OPT_COUNT, &opt.jobs, "N", "builds at a time (default: the number of CPUs)"},
	{"dry-run", 'n', OPT_FLAG, &opt.dry_run, NULL,
	 "show the configurations, their build keys and what is cached; build nothing"},
	{"db", 0, OPT_STRING, &opt.db, "PATH", "results database (default ./flagscope.db)",
	 .def = "flagscope.db"},
	{"repeat", 'r', OPT_COUNT, &opt.study.repeat, "N", "repetitions per configuration (overrides the study, and its repeat = stable)"},
	{"workloads", 'w', OPT_STRING, &opt.study.workloads, "\"A B\"", "run only these workloads"},
	{"packages", 0, OPT_STRING, &opt.study.packages, "A,B|FILE",
	 "build these Debian source packages as the workloads, no recipe needed (system = debian: apt-get source, build-deps installed unless build_deps = refuse, debian/rules, then the package's own test step: tests_failed, tests.time); a FILE lists names one a line"},
	{"meters", 0, OPT_STRING, &opt.study.meters, "\"rusage perf\"", "meters to use (default: the study's, else the default ones below that are usable)"},
	{"metric", 'm', OPT_STRING, &opt.study.metric, "NAME", "rank by this metric or selector WORKLOAD[/RUN][/METRIC] (default: the study's, else time); one the study cannot give is refused before building"},
	{"pin", 0, OPT_STRING, &opt.study.pin, "CPU-LIST",
	 "run the measured programs on these CPUs only (e.g. 0 or 0-1,3; overrides the study's pin =)"},
	{"force", 0, OPT_FLAG, &opt.study.force, NULL,
	 "start even when isolate = yes finds the machine busy"},
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "ranking format", NULL, run_formats,
	 .def = "table"},
	{"build-only", 0, OPT_FLAG, &opt.build_only, NULL, "build and verify, store the builds, run nothing"},
	{"noise-floor", 0, OPT_FLAG, &opt.study.noise_floor, NULL,
	 "add a copy of the baseline, \"LABEL (noise floor)\", built and run as its own configuration: its ratio is what noise alone does here"},
	{"shard", 0, OPT_STRING, &opt.shard, "I/N",
	 "run only shard I of N (a fixed share of the configuration x workload pairs), for flagscope merge"},
	{"shard-by", 0, OPT_CHOICE, &opt.shard_by, "HOW",
	 "with --shard: pair (default: a share of the configuration x workload pairs) or package "
	 "(whole workloads, workload k in shard k mod N: a package's configurations share its "
	 "source and build dependencies)", shard_by_choices},
	{"logs", 0, OPT_STRING, &opt.logs, "DIR",
	 "keep the log of every build of this run (its shard's) in DIR/WORKLOAD/LABEL.log as "
	 "each build ends, and record DIR in the database: a failed build's line, its report "
	 "details and recommend's evidence name that copy, not the build cache's (report "
	 "--pivot sweep names the logs of what broke; flagscope merge --logs reads them there "
	 "before the build cache)"},
	{"quiet", 'q', OPT_FLAG, &opt.quiet, NULL,
	 "no progress lines (lines that state results, as repeat = stable's end and a shard's share of the judging, still print)"},
	{"source", 0, OPT_LIST, &opt.study.sources, "NAME=SPEC",
	 "build workload NAME from SPEC (e.g. local:/path) instead of its recipe's source, or with NAME.EXTRA=SPEC its recipe's source.EXTRA (webservice.sqlite=local:/src/sqlite); repeatable"},
	{NULL},
};

/* from the registries, so a new meter or runner is described at once */
static void run_plugins_help(FILE *out)
{
	settings_help(out);
	char *meters = meter_help_text();
	fprintf(out, "\nmeters (a study's meters =, or --meters):\n%s", meters);
	free(meters);
	fprintf(out, "\nrunners (chosen per run, in this order):\n");
	for (size_t i = 0; runner_at(i); i++)
		fprintf(out, "  %-10s %s\n", runner_at(i)->name, runner_at(i)->help);
}

const struct command_spec run_cmd = {
	.name = "run",
	.usage = "[STUDY] [options]",
	.summary = "Build every configuration of a study (default: the bundled default study),\n"
		   "verify the flags reached the binaries, run the workloads with warm-up and\n"
		   "interleaved repetitions, check every output against the baseline's, store\n"
		   "every sample in SQLite and print the ranking.  Rerunning resumes: stored\n"
		   "samples are kept and only missing ones run.",
	.details = "STUDY is a study file or the name of a preset (flagscope list presets).\n"
		   "Reserved axes: cc, ldflags, link, libc, target, cpu and pgo (levels none,\n"
		   "gen-use: build instrumented, run the recipe's [train] run, rebuild with the\n"
		   "profile; doc/study-format.md).\n"
		   "Repetitions: a study without `repeat` (and the default study) has\n"
		   "repeat = stable: 5 rounds, then a round at a time until every rank\n"
		   "verdict (each configuration against the leader it is compared with) is\n"
		   "settled, i.e. at most 5% of its 2000 bootstrap resamples would give\n"
		   "another verdict (a tie: would put the two more than tie_margin, 1%,\n"
		   "apart; two ranked apart: at most the look's level, as it looks after\n"
		   "every round: O'Brien-Fleming-type alpha spending of 5% over the looks,\n"
		   "from 0.00016% after 5 rounds to 3.1% after 30; stable_rule = pocock\n"
		   "or bonferroni share it out otherwise), or max_repeat (30) rounds or\n"
		   "max_seconds (300 s) are reached; the report lists what is still not\n"
		   "settled (\"clang O2 vs gcc O2: not settled after 30 runs\"), also for\n"
		   "repeat = N and repeat = auto.  Fewer runs a side than Mann-Whitney needs\n"
		   "to reach p < 0.05 (4; computed, doc/statistics.md) are said before\n"
		   "building, and by --dry-run: nothing could be called significant.\n"
		   "Identical builds (the same loadable ELF sections; notes, debug info and\n"
		   ".GCC.command.line left out) are run once: the other configuration gets\n"
		   "the same samples as its own rows and the report says \"identical to X\".\n"
		   "Exit status: 0 the study ran and ranked (failed configurations are\n"
		   "results), 1 nothing could be ranked (said in one line) or the run was\n"
		   "interrupted, 2 bad input (the study file, an option) or results that\n"
		   "could not be stored.\n"
		   "Stopping: SIGINT (Ctrl-C), SIGTERM (a batch system's stop) and SIGHUP (the\n"
		   "terminal went away) stop the study: the build, input script or run in\n"
		   "flight is killed with its process group and nothing of it is stored,\n"
		   "nothing new starts, every result stored so far is kept, and the run says\n"
		   "what it stopped in one line (no ranking) and exits 1.  Run the same\n"
		   "command again to resume: only what is missing is built and run.  Killed\n"
		   "outright (SIGKILL: a lost node, the OOM killer), it takes its builds and\n"
		   "runs in flight with it and holds no lock; the same command resumes too.",
	.opts = run_options,
	.more_help = run_plugins_help,
};

static void on_signal(int sig)
{
	(void)sig;
	pipeline_interrupted = 1;
}

/* A stopped study says what was stopped and how to resume, and nothing
 * more: a ranking of half the samples would read as the study's result. */
static int say_interrupted(const struct pipeline_counts *n)
{
	progress_end();
	if (n->runs_total)
		error_msg("interrupted during the runs (%d of %d done): the results stored so far are kept (run the same command again to resume)",
			  n->runs_done, n->runs_total);
	else
		error_msg("interrupted during the builds (%d built, %d cached, %d failed): the results stored so far are kept (run the same command again to resume)",
			  n->built, n->cached, n->failed);
	return 1;
}

/* The report of a study that ran; the exit status. */
static int report(struct store *store, const struct study_plan *plan)
{
	struct strbuf err = {0};
	struct ranking rk;
	if (ranking_compute(store, plan->study.name, plan->study.metric, &rk, &err)) {
		print_error_lines(sb_str(&err));
		sb_release(&err);
		return 1;
	}
	progress_end();
	report_print(stdout, &rk, report_format(opt.format));
	/* a shard ranks only its share: the merged database answers */
	char *unranked = plan->shard_n > 1 ? NULL : ranking_why_unranked(&rk);
	if (unranked)
		error_msg("%s", unranked);
	ranking_release(&rk);
	int rc = unranked ? 1 : 0;
	free(unranked);
	return rc;
}

/* Before building: a study that cannot take enough runs a side for its
 * test to call anything significant says so (analysis/verdict.h), also
 * in a dry run; it still runs (a quick look is a fair use).  Said once the
 * database is open, so a run refused for its database gets one line. */
static void say_power(const struct study_plan *plan)
{
	const struct study *s = &plan->study;
	const char *metric = s->metric;
	/* with layouts = N the layouts are the units: Welch's test on their
	 * medians can call 2 or 3 a side significant whatever the runs per
	 * layout (doc/layout.md), so the Mann-Whitney bound does not apply */
	if (!metric || results_metric_deterministic(metric) || s->layouts > 1)
		return;
	struct rank_options ro;
	rank_options_default(&ro);
	int fixed = !s->repeat_stable && !s->repeat_auto;
	int runs = fixed ? s->repeat : s->max_repeat;
	const char *key = fixed ? "repeat" : "max_repeat";
	char *from = setting_where(s, key);
	char *where = sl_find(&s->overridden, key) >= 0 ? xasprintf("%s %d", from, runs)
							: xasprintf("%s: %s = %d", from, key, runs);
	free(from);
	char *w = runs > 0 ? verdict_power_warning((size_t)runs, ro.alpha, where, key) : NULL;
	if (w)
		warn_msg("%s", w);
	free(w);
	free(where);
}

/* Per build of a package, its outcome and what its test step said */
static void print_package_builds(const struct study_plan *plan)
{
	for (size_t i = 0; i < plan->nconfigs * plan->nworkloads; i++) {
		const struct build *b = &plan->builds[i];
		if (!recipe_is_package(b->recipe) || (b->settled && b->outcome == OUTCOME_UNSUPPORTED &&
						      b->detail && !strcmp(b->detail, "in another shard")))
			continue;
		printf("%s %s: %s", b->recipe->name, b->cfg->label, outcome_name(b->outcome));
		if (b->outcome == OUTCOME_OK && b->tests == DEBPKG_TESTS_PASSED)
			printf(", tests passed (test-suite time %.1f s)", b->tests_seconds);
		if (b->detail && *b->detail)
			printf(": %s", b->detail);
		putchar('\n');
	}
}

/* Build and run into the store, then the report; the exit status.  An
 * error is left in err. */
static int build_and_run(struct study_plan *plan, struct store *store,
			 const struct pipeline_options *po, double *started, struct strbuf *err)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	*started = now_seconds();
	struct pipeline_counts n = {0};
	enum pipeline_status st = pipeline_execute(plan, store, po, opt.build_only, &n, err);
	progress_end();
	if (st != PIPELINE_OK)
		return st == PIPELINE_STORE_FAILED ? 2 : 1;
	if (pipeline_interrupted)
		return say_interrupted(&n);
	if (!opt.build_only && plan_measures(plan))
		return report(store, plan);
	print_package_builds(plan);
	printf("builds: %d built, %d cached, %d failed\n", n.built, n.cached, n.failed);
	return 0;
}

/* --logs DIR made before any build: a folder that cannot be made is said
 * now, not after every build is done and the logs are due */
static int logs_folder(struct strbuf *err)
{
	int rc = opt.logs ? mkdir_p(opt.logs, 0755) : 0;
	if (rc)
		sb_addf(err, "%s: cannot make the log folder: %s (give --logs a folder you can write)",
			opt.logs, strerror_lc(-rc));
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct strlist pos = {0};
	struct strbuf err = {0};
	struct study_plan plan = {0};
	struct store store = {0};
	double builds_started = 0;
	char *path = NULL;
	opt.jobs = cpu_count();
	opt.study.repeat = -1;
	int rc = options_parse(&run_cmd, argc, argv, &pos);
	if (rc) {
		rc = rc > 0 ? 0 : 2;
		goto out;
	}
	struct pipeline_options po = {
		.jobs = opt.jobs, .dry_run = opt.dry_run, .shard_n = 1, .no_ranking = opt.build_only,
		.shard_by_workload = opt.shard_by && !strcmp(opt.shard_by, "package"),
		.logs_dir = opt.logs,
	};
	progress_start(&po.ev, opt.quiet, &builds_started);
	rc = 2;
	if (pos.n > 1)
		sb_add(&err, "run: one study at a time (see flagscope run --help)");
	else if (opt.shard && (sscanf(opt.shard, "%d/%d", &po.shard_i, &po.shard_n) != 2 ||
			       po.shard_n < 1 || po.shard_i < 0 || po.shard_i >= po.shard_n))
		sb_addf(&err, "run: --shard wants I/N with 0 <= I < N, not '%s'", opt.shard);
	if (err.len)
		goto out;
	if (study_path_resolve(pos.n ? pos.v[0] : "default", &path, &err) ||
	    pipeline_plan_study(&plan, path, &opt.study, &po, &err))
		goto out;
	if (opt.dry_run) {
		say_power(&plan);
		study_plan_print(&plan, stdout);
		rc = 0;
	} else if (logs_folder(&err)) {
		rc = 2;
	} else if (!store_open(&store, opt.db, 1, &err) && !store_lock(&store, &err)) {
		if (plan_measures(&plan))
			say_power(&plan);
		rc = build_and_run(&plan, &store, &po, &builds_started, &err);
	}
out:
	if (err.len)
		print_error_lines(sb_str(&err));
	sb_release(&err);
	store_close(&store);
	study_plan_release(&plan);
	sl_release(&opt.study.sources);
	sl_release(&pos);
	free(path);
	return rc;
}
