/* cmd_report.c - flagscope report: the ranking stored in a database */
#include <stdlib.h>
#include <string.h>

#include "analysis/pivot.h"
#include "analysis/pivot_distro.h"
#include "analysis/pivot_sweep.h"
#include "analysis/rank.h"
#include "analysis/report.h"
#include "analysis/report_lnt.h"
#include "analysis/sample_origins.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/results_args.h"

/* the ranking's formats, and lnt (not a ranking: every sample, per configuration) */
static format_set report_offers(struct strbuf *err)
{
	return report_formats(err) | FORMAT_BIT(FORMAT_LNT);
}

static struct {
	struct results_opts r;
	const char *format, *metric, *pareto, *pivot, *memory;
	const char *output;
	int samples;
} opt;

static const struct option_spec report_options[] = {
	RESULTS_OPTIONS(&opt.r.db, &opt.r.study, &opt.r.alpha, &opt.r.min_effect),
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "output format", NULL, report_offers,
	 .def = "table"},
	{"output", 'o', OPT_STRING, &opt.output, "FILE",
	 "write the report (any format, --pivot too) to FILE instead of stdout (never over a "
	 "results database or a study file); without --format the ranking's format follows "
	 "FILE's ending: .html, .json, .csv"},
	{"metric", 'm', OPT_STRING, &opt.metric, "SEL",
	 "rank by this metric: time, user, sys, mem.res, size.text, perf/task-clock, insns, a "
	 "recipe's metric; or only some items: WORKLOAD[/RUN][/METRIC] (see below)"},
	{"pareto", 'p', OPT_STRING, &opt.pareto, "X,Y",
	 "Pareto front of two metrics or selectors (default: METRIC,size.text and METRIC,mem.res "
	 "over the same items, maxrss without mem.res; 'none': no front)"},
	{"pivot", 0, OPT_STRING, &opt.pivot, "AXIS",
	 "one row per workload, one column group per level of AXIS (e.g. libc), one block per combination of the other axes; "
	 "'distro': the distribution rebuild table; 'sweep': packages x configurations, what "
	 "built and passed its tests (below)"},
	{"memory", 0, OPT_STRING, &opt.memory, "V,R,D",
	 "with --pivot: the virtual, resident and dirty memory metrics (default mem.virt,mem.res,mem.dirty)"},
	{"samples", 0, OPT_FLAG, &opt.samples, NULL,
	 "list every stored run (table or csv): its value of METRIC, the build (key, binary hash) "
	 "that made it, and whether it counts (another build's never does)"},
	{NULL},
};

const struct command_spec report_cmd = {
	.name = "report",
	.usage = "[options]",
	.summary = "Print the ranking of a stored study: per configuration the geometric mean of\n"
		   "its ratios to the baseline with a bootstrap interval, and per workload the\n"
		   "sample summary (n, median, MAD, outliers), the ratio with its interval, the\n"
		   "Mann-Whitney p and a verdict.  Configurations not significantly different\n"
		   "share a rank; failed, wrong or noisy ones are shown and never ranked.",
	.details = "--metric selects a metric, or items and a metric, by the names the study\n"
		   "stored: METRIC (every item: time, perf/task-clock), WORKLOAD (its items,\n"
		   "the study's metric), WORKLOAD/RUN (libcbench/malloc_big1), WORKLOAD/METRIC\n"
		   "(coremark/iterations_per_sec: every run of it) or WORKLOAD/RUN/METRIC\n"
		   "(coremark/single/iterations_per_sec).  Only the selected items are\n"
		   "ranked; a configuration that fails on any item is still not ranked.\n"
		   "Items no configuration measured the metric on, and items failing the same\n"
		   "way in every configuration (a source that cannot be fetched), are left out\n"
		   "and listed once.  Instruction counts and sizes are deterministic: one\n"
		   "run is a measurement; one run of anything else is shown but not tested.\n"
		   "table, json and html list the rank verdicts not settled (more than 5% of\n"
		   "the bootstrap resamples would give another verdict, or for a tie fall\n"
		   "outside the study's tie_margin, default 1%: \"clang O2 vs gcc O2:\n"
		   "not settled after 30 runs\"; a tie's line says the band 95% of them do\n"
		   "fall within; JSON fragile, and per configuration versus, p_change,\n"
		   "settled, tie_within; csv's columns versus, p_change, settled (1/0) and,\n"
		   "last, tie_within on each row) and the configurations whose build was\n"
		   "identical to another's and reused its runs (\"identical to X\"; JSON\n"
		   "identical_to, csv's column identical_to on each row whose runs were\n"
		   "reused).\n"
		   "\n"
		   "Formats: table (coloured where a difference is significant, when stdout is\n"
		   "a terminal and NO_COLOR is unset), csv (one row per workload; no Pareto\n"
		   "front), json, html (one self-contained file with SVG charts:\n"
		   "flagscope report --format html -o report.html), lnt (LNT's JSON report\n"
		   "format 2, one submission per configuration and line: the configuration\n"
		   "is LNT's machine, \"STUDY__LABEL\" (a baseline's: its study's); the run\n"
		   "order llvm_project_revision is the start time's digits; tests\n"
		   "\"flagscope/WORKLOAD[/RUN]\" carry execution_time, compile_time,\n"
		   "code_size and mem_bytes; split -l 1 makes one file per submission for\n"
		   "lnt submit).  Every format but csv and lnt\n"
		   "ends with the machine state of the study and a warning when its load\n"
		   "average exceeded 0.75 per core.\n"
		   "\n"
		   "--pivot AXIS prints the study as the published libc comparisons do\n"
		   "(table, csv or json): per block a table of METRIC (per workload and run,\n"
		   "each level's median and the performance ratio REF/LEVEL - 1 in %,\n"
		   "positive: LEVEL is faster), then one table each for the memory figures\n"
		   "(VSZ, RSS, dirty) in the same form (positive: LEVEL uses less), REF\n"
		   "being the baseline's level; csv and json also carry the plain ratios.\n"
		   "The metric's ratio and verdict are the ones report, compare and\n"
		   "recommend give the same pair, under --alpha and --min-effect (with\n"
		   "layouts = N, of the layouts' medians); the table marks a ratio '~' not\n"
		   "significant, '?' not tested, csv has LEVEL.verdict.\n"
		   "Configurations are compared within each combination of the other axes'\n"
		   "levels (one block each); a block without the reference level compares\n"
		   "with the baseline.  The axes are those recorded with the study, so a\n"
		   "search batch (--study search-...) pivots on its axis flagscope-search.\n"
		   "A level whose flags say more than its name is headed \"NAME (FLAGS)\"\n"
		   "(a batch's candidates: \"c527310a4a865 (-fno-tree-vrp)\"); json lists\n"
		   "them in level_flags, each block's other levels in others_labelled; csv\n"
		   "in the columns LEVEL.flags and block_labelled.  csv's columns: study,\n"
		   "axis, metric, block, block_labelled, workload, run, reference, then per\n"
		   "level LEVEL.status, LEVEL.flags, LEVEL.METRIC (the median), LEVEL.pct,\n"
		   "the memory figures LEVEL.virt, .res, .dirty, their plain ratios\n"
		   "LEVEL.virt_ratio, .res_ratio, .dirty_ratio and in % LEVEL.virt_pct,\n"
		   ".res_pct, .dirty_pct; a study with a noise floor (the baseline built\n"
		   "and run again) adds noise_floor.status, noise_floor.METRIC and\n"
		   "noise_floor.pct.  json's cells add verdict: the level against the\n"
		   "block's reference by the rule every command reads (doc/statistics.md).\n"
		   "Published figures: --pivot libc on a workload with published figures\n"
		   "(libcbench, libc-bench: the Eta Labs libc comparison's seconds and min.\n"
		   "dirty, and the Raspberry Pi 4 study's seconds and heap dirty) names each\n"
		   "source with its hardware and versions and adds, per source and level,\n"
		   "the published ratio in the same form (a column headed by the source's\n"
		   "label, etalabs or rpi4: REF/LEVEL - 1 of its figures) and \"same\" (yes:\n"
		   "the measured ratio has the published sign), in the time table and in the\n"
		   "dirty table, and closes with \"sign agreement: N of M rows\" per source\n"
		   "and kind; csv appends published_row, published_dirty_row\n"
		   "and per level LEVEL.published_pct, LEVEL.same_sign (yes, no or empty),\n"
		   "LEVEL.dirty_published_pct, LEVEL.dirty_same_sign for the first source,\n"
		   "LABEL.published_row, LEVEL.LABEL.published_pct, ... for the next; json\n"
		   "has published, sign_agreement and per cell published_pct, same_sign,\n"
		   "dirty_published_pct, dirty_same_sign for the first, and every source in\n"
		   "published_sources (label, source, hardware, versions, sign_agreement)\n"
		   "and per row and cell published_by.LABEL.\n"
		   "--metric takes the same selectors as above: the pivot shows its metric\n"
		   "over its items only (--pivot libc --metric libcbench/malloc_big1).\n"
		   "E.g. flagscope report --pivot libc, or for the\n"
		   "dietlibc preset: --pivot libc --memory\n"
		   "server_virt_kb,server_rss_kb,server_dirty_kb.\n"
		   "\n"
		   "--pivot distro prints the table distributions' rebuild studies publish\n"
		   "(the distro-levels and lto presets): one row per workload, one column per\n"
		   "configuration but the baseline, each with the change of METRIC in percent\n"
		   "against the baseline (geometric mean over the workload's runs; negative:\n"
		   "less time), marked ~ when not significant (its interval includes 0, it\n"
		   "is under --min-effect, or no run of it is significant), ! when mixed (runs\n"
		   "significantly better and worse, listed below the table; json mixed) and\n"
		   "? when not tested (one run), and the change of\n"
		   "size.text of its binaries and libraries (exact); the sub-columns are\n"
		   "headed by METRIC's name and text.  Above the table a flags line per\n"
		   "configuration gives its CFLAGS (\", profile-guided\" when the pgo axis made\n"
		   "it gen-use); below it which training run each profile-guided build used\n"
		   "(json pgo_train).  csv and json add the\n"
		   "intervals and the sizes: csv has one row per workload and configuration,\n"
		   "columns study, workload, config, baseline, metric, unit, time_pct (the\n"
		   "change of METRIC, whatever its name), time_lo_pct, time_hi_pct (its\n"
		   "interval), significant (1/0), verdict, untested (1/0), runs,\n"
		   "size_text, size_text_baseline (bytes), size_text_pct, status, detail,\n"
		   "cflags, baseline_cflags, pgo (1: profile-guided), then per configuration\n"
		   "the table's geomean row (workload geomean: time_pct and size_text_pct,\n"
		   "detail \"geometric mean of N ok rows\"); json has\n"
		   "baseline_cflags, baseline_pgo, configs, config_flags (config, cflags,\n"
		   "pgo), geomean and per row baseline_value, baseline_size_text and cells\n"
		   "with the same keys.\n"
		   "\n"
		   "--pivot sweep prints an archive sweep (system = debian packages, the\n"
		   "archive-sweep preset): one row per package, one column per configuration,\n"
		   "the baseline first; each cell built, tests passed, tests failed, build\n"
		   "failed or not tried (where the package has [run] benchmarks: their\n"
		   "outcome, ok, wrong_output, ...), the change of size.text (text) and of the\n"
		   "test-suite time tests.time (tests; where both suites passed; '-' where\n"
		   "there is no value) against the baseline in percent.  Below it, per\n"
		   "configuration how many packages built, passed tests, failed tests and\n"
		   "failed to build, then the details: which tests failed, a build's first\n"
		   "error line.  --metric WORKLOAD keeps one package.  csv: one row per\n"
		   "package and configuration, columns study, workload, config, baseline,\n"
		   "cflags, result (not_tried, built, tests_passed, tests_failed,\n"
		   "build_failed or another outcome's name), detail, size_text,\n"
		   "size_text_pct, tests_time, tests_time_pct, tests_unit, then per\n"
		   "configuration a row with result summary and the counts as detail; json:\n"
		   "configs (config, cflags, summary with built, tests_passed, tests_failed,\n"
		   "build_failed, not_tried, other) and rows of cells with the same keys\n"
		   "and built, ran.\n"
		   "Exit status: 0 printed, 1 nothing could be ranked (said in one line),\n"
		   "2 bad usage, a database or file that cannot be read or written.",
	.opts = report_options,
};

/* The resident-memory metric to plot: mem.res (VmHWM read at exit) when
 * stored; maxrss (wait4, which counts the forking parent too) otherwise. */
static const char *rss_metric(struct store *st, const struct ranking *rk)
{
	return results_has_metric(st, rk->study, "mem.res") ? "mem.res" : "maxrss";
}

/* 0 when selector names something the study stored, else -1 after saying
 * so (a typo is an error, not an empty front) */
static int pareto_known(struct store *st, const char *study, const char *selector)
{
	struct result_select sel;
	struct strbuf err = {0};
	int rc = results_select(st, study, selector, NULL, &sel, &err);
	if (rc)
		error_msg("report: --pareto: %s", sb_str(&err));
	results_select_release(&sel);
	sb_release(&err);
	return rc;
}

static int add_paretos(struct store *st, struct ranking *rk)
{
	if (opt.pareto && !strcmp(opt.pareto, "none"))
		return 0;
	const char *self = *rk->selector ? rk->selector : rk->metric;
	if (!opt.pareto) {
		const char *other[] = {"size.text", rss_metric(st, rk)};
		for (size_t i = 0; i < ARRAY_SIZE(other); i++) {
			if (!strcmp(rk->metric, other[i]))
				continue;
			char *y = ranking_selector_for(rk, other[i]);
			ranking_add_pareto(st, rk, self, y);
			free(y);
		}
		return 0;
	}
	const char *comma = strchr(opt.pareto, ',');
	if (!comma || comma == opt.pareto || !comma[1] || strchr(comma + 1, ',')) {
		error_msg("report: --pareto takes two metrics X,Y, not '%s' (e.g. --pareto "
			  "time,size.text)", opt.pareto);
		return -1;
	}
	char *x = xstrndup(opt.pareto, (size_t)(comma - opt.pareto));
	int rc = pareto_known(st, rk->study, x) || pareto_known(st, rk->study, comma + 1) ? -1 : 0;
	if (!rc && ranking_add_pareto(st, rk, x, comma + 1))
		warn_msg("report: fewer than two ranked configurations have both %s and %s: no "
			 "Pareto front", x, comma + 1);
	free(x);
	return rc;
}

/* "a,b,c" -> three heap strings in v; -1 when it is not three names. */
static int split_memory(const char *arg, char *v[PIVOT_NMEM])
{
	struct strlist parts = {0};
	char *copy = xstrdup(arg);
	for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		sl_push(&parts, t);
	free(copy);
	int ok = parts.n == PIVOT_NMEM;
	for (size_t k = 0; k < PIVOT_NMEM; k++)
		v[k] = ok ? xstrdup(parts.v[k]) : NULL;
	sl_release(&parts);
	return ok ? 0 : -1;
}

static int print_distro(struct store *st, const char *study, const struct rank_options *ro)
{
	struct distro_table t;
	struct strbuf err = {0};
	int rc = 2;
	if (format_offered("report --pivot distro", opt.format, distro_table_formats(NULL)))
		return 2;
	if (distro_table_compute(st, study, opt.metric, ro, &t, &err)) {
		error_msg("report: %s", sb_str(&err));
	} else {
		FILE *out = results_output_open(opt.output);
		if (out) {
			distro_table_print(out, &t, opt.format);
			rc = results_output_close(out, opt.output) ? 2 : 0;
		}
	}
	distro_table_release(&t);
	sb_release(&err);
	return rc;
}

/* --metric WORKLOAD narrows the sweep to one package; the sweep has no
 * metric of its own to select */
static int print_sweep(struct store *st, const char *study)
{
	struct sweep_table t;
	struct strbuf err = {0};
	int rc = 2;
	if (format_offered("report --pivot sweep", opt.format, sweep_table_formats(NULL)))
		return 2;
	if (sweep_table_compute(st, study, opt.metric, &t, &err)) {
		error_msg("report: %s", sb_str(&err));
	} else {
		FILE *out = results_output_open(opt.output);
		if (out) {
			sweep_table_print(out, &t, opt.format);
			rc = results_output_close(out, opt.output) ? 2 : 0;
		}
	}
	sweep_table_release(&t);
	sb_release(&err);
	return rc;
}

static int print_pivot(struct store *st, const char *study, const struct rank_options *ro)
{
	if (format_offered("report --pivot", opt.format, pivot_formats(NULL)))
		return 2;
	const struct pivot_ops *ops = pivot_format(opt.format);
	char *mem[PIVOT_NMEM] = {NULL};
	if (opt.memory && split_memory(opt.memory, mem)) {
		error_msg("report: --memory takes three metrics V,R,D, not '%s' (e.g. --memory "
			  "mem.virt,mem.res,mem.dirty)", opt.memory);
		return 2;
	}
	struct pivot pv;
	struct strbuf err = {0};
	int rc = 2;
	if (pivot_compute(st, study, opt.pivot, opt.metric,
			  opt.memory ? (const char *const *)mem : NULL, ro, &pv, &err)) {
		error_msg("report: %s", sb_str(&err));
	} else {
		FILE *out = results_output_open(opt.output);
		if (out) {
			pivot_print(out, &pv, ops);
			rc = results_output_close(out, opt.output) ? 2 : 0;
		}
	}
	pivot_release(&pv);
	for (size_t k = 0; k < PIVOT_NMEM; k++)
		free(mem[k]);
	sb_release(&err);
	return rc;
}

static int print_lnt(struct store *st, const char *study)
{
	FILE *out = results_output_open(opt.output);
	if (!out)
		return 2;
	int empty = report_lnt(out, st, study);
	if (empty)
		error_msg("%s: study '%s' has no configurations (run it first)", st->path, study);
	return results_output_close(out, opt.output) ? 2 : empty ? 1 : 0;
}

static int print_samples(struct store *st, const char *study)
{
	if (format_offered("report --samples", opt.format, sample_origins_formats(NULL)))
		return 2;
	char *metric = opt.metric ? xstrdup(opt.metric) : results_study_metric(st, study);
	FILE *out = results_output_open(opt.output);
	int n = out ? sample_origins_print(out, st, study, metric, opt.format) : 0;
	if (out && !n)
		error_msg("%s: study '%s' has no stored runs (run it first)", st->path, study);
	free(metric);
	return !out || results_output_close(out, opt.output) ? 2 : n ? 0 : 1;
}

/* An option the chosen output would ignore: 0, or -1 after saying which
 * (the user asked for something they would not get). */
/* -o report.html without --format: the file's ending says which (a text
 * table in a .html file is never what was meant); a pivot's and
 * --samples' formats are their own, so only the ranking's */
static void format_from_ending(void)
{
	static const struct {
		const char *ending, *format;
	} endings[] = {{".html", "html"}, {".htm", "html"}, {".json", "json"}, {".csv", "csv"}};
	const struct option_spec *f = report_options;
	while (f->long_name && strcmp(f->long_name, "format"))
		f++;
	if (!opt.output || opt.pivot || opt.samples || !f->long_name || options_given(f))
		return;
	const char *dot = strrchr(opt.output, '.');
	for (size_t i = 0; dot && i < ARRAY_SIZE(endings); i++)
		if (!strcmp(dot, endings[i].ending))
			opt.format = endings[i].format;
}

static int options_apply(void)
{
	format_from_ending();
	int lnt = format_is(opt.format, FORMAT_LNT);
	const char *why = NULL;
	if (opt.memory && (!opt.pivot || !strcmp(opt.pivot, "distro") || !strcmp(opt.pivot, "sweep")))
		why = "--memory is for --pivot AXIS (its memory tables; drop it, or add --pivot libc)";
	else if (lnt && opt.pivot)
		why = "--format lnt writes every configuration's results, not a --pivot (drop one)";
	else if (lnt && opt.metric)
		why = "--format lnt writes every item and metric, so --metric does not apply (drop it)";
	else if (opt.pareto && (lnt || opt.pivot || format_is(opt.format, FORMAT_CSV)))
		why = "--pareto is for the table, json and html rankings (csv, lnt and a --pivot "
		      "have no Pareto front; drop it)";
	if (why)
		error_msg("report: %s", why);
	return why ? -1 : 0;
}

int cmd_report(int argc, char **argv)
{
	struct strbuf err = {0};
	struct store st;
	struct rank_options ro;
	char *study;
	int rc = results_command_start(&report_cmd, argc, argv, &opt.r, &ro, &st, &study);
	if (rc)
		return rc == 1 ? 0 : 2;
	if (options_apply()) {
		free(study);
		store_close(&st);
		return 2;
	}
	if (opt.samples) {
		rc = print_samples(&st, study);
		free(study);
		store_close(&st);
		return rc;
	}
	if (format_is(opt.format, FORMAT_LNT)) {
		rc = print_lnt(&st, study);
		free(study);
		store_close(&st);
		return rc;
	}
	if (opt.pivot) {
		rc = !strcmp(opt.pivot, "distro")  ? print_distro(&st, study, &ro)
		     : !strcmp(opt.pivot, "sweep") ? print_sweep(&st, study)
						   : print_pivot(&st, study, &ro);
		free(study);
		store_close(&st);
		return rc;
	}
	struct ranking rk;
	rc = 2;
	if (ranking_compute_opts(&st, study, opt.metric, &ro, &rk, &err)) {
		error_msg("%s", sb_str(&err));
	} else {
		const struct report_ops *ops = report_format(opt.format);
		FILE *out = NULL;
		if ((format_is(opt.format, FORMAT_CSV) || !add_paretos(&st, &rk)) && (out = results_output_open(opt.output))) {
			report_print(out, &rk, ops);
			char *unranked = ranking_why_unranked(&rk);
			if (unranked)
				error_msg("%s", unranked);
			rc = results_output_close(out, opt.output) ? 2 : unranked ? 1 : 0;
			free(unranked);
		}
	}
	ranking_release(&rk);
	free(study);
	sb_release(&err);
	store_close(&st);
	return rc;
}
