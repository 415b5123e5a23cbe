/*
 * cmd_why.c - flagscope why: where a difference between two
 * configurations comes from, as instructions per function of both builds
 * of one workload (valgrind cachegrind), largest change first.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/results.h"
#include "analysis/why.h"
#include "base/json.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/results_args.h"
#include "harness/build.h"
#include "harness/meter_cachegrind.h"
#include "pipeline/parts.h"
#include "pipeline/pipeline.h"

static struct {
	const char *db, *study, *run, *format;
	int top;
} opt;

static format_set why_formats(struct strbuf *err); /* writers[], below */

static const struct option_spec why_options[] = {
	{"db", 0, OPT_STRING, &opt.db, "PATH", "results database (default ./flagscope.db)",
	 .def = "flagscope.db"},
	{"study", 's', OPT_STRING, &opt.study, "NAME", "which study (default: the latest stored)"},
	{"run", 'r', OPT_STRING, &opt.run, "NAME", "the recipe's run section (default: the first)"},
	{"top", 'n', OPT_INT, &opt.top, "N", "show the N largest changes (default 25, 0: all)",
	 .def = "25"},
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "output format", NULL, why_formats,
	 .def = "table"},
	{NULL},
};

const struct command_spec why_cmd = {
	.name = "why",
	.usage = "LABEL_A LABEL_B WORKLOAD [options]",
	.summary = "Show where the difference between two configurations comes from: the\n"
		   "instructions each function executes in one run of WORKLOAD, built both\n"
		   "ways (valgrind --tool=cachegrind, natively), side by side, sorted by the\n"
		   "largest change.",
	.details = "The builds are the study's own, from the build cache; the run is the\n"
		   "recipe's (same arguments and inputs as a measured run).  A configuration\n"
		   "is named by its levels in any order, as a study's baseline = names one\n"
		   "(\"O2 gcc12\" for gcc12 O2, or gcc12 alone when one configuration has it);\n"
		   "levels that several configurations have are refused, naming them.",
	.opts = why_options,
};

/* The build folder of (label, workload) in the study, or NULL. */
static char *build_dir(struct store *st, const char *study, const char *label,
		       const char *workload)
{
	size_t n;
	struct result_config *c = results_configs(st, study, &n);
	struct strbuf why = {0};
	int i = compare_find_config(c, n, label, &why); /* by its levels, in any order */
	char *key = i < 0 ? NULL : results_build_key(st, study, c[i].id, workload);
	char *dir = NULL;
	if (i < 0)
		error_msg("%s: study '%s': %s", st->path, study, sb_str(&why));
	else if (!key || !*key)
		error_msg("%s: '%s' has no build of %s (run the study with that workload)",
			  st->path, c[i].label, workload);
	else
		dir = build_dir_of_key(key);
	free(key);
	sb_release(&why);
	result_configs_free(c, n);
	return dir;
}

static void print_table(const char *a, const char *b, const char *workload,
			const struct fn_counts *ca, const struct fn_counts *cb,
			const struct why_row *rows, size_t n)
{
	printf("why: %s -> %s on %s: instructions executed per function (valgrind cachegrind "
	       "Ir), largest change first\n\n", a, b, workload);
	printf("%-40s %16s %16s %16s %8s\n", "function", a, b, "change", "ratio");
	for (size_t i = 0; i < n; i++) {
		char ratio[16] = "-";
		if (rows[i].a > 0)
			snprintf(ratio, sizeof(ratio), "%.3f", rows[i].b / rows[i].a);
		printf("%-40.40s %16.0f %16.0f %+16.0f %8s\n", rows[i].name, rows[i].a, rows[i].b,
		       rows[i].b - rows[i].a, ratio);
	}
	printf("%-40s %16.0f %16.0f %+16.0f %8.3f\n", "total", ca->total, cb->total,
	       cb->total - ca->total, ca->total > 0 ? cb->total / ca->total : NAN);
}

static void print_json(const char *a, const char *b, const char *workload,
		       const struct fn_counts *ca, const struct fn_counts *cb,
		       const struct why_row *rows, size_t n)
{
	struct strbuf sb = {0};
	json_open(&sb, NULL, '{');
	json_put_str(&sb, "a", a);
	json_put_str(&sb, "b", b);
	json_put_str(&sb, "workload", workload);
	json_put_str(&sb, "event", "Ir");
	json_put_fmt(&sb, "total_a", "%.0f", ca->total);
	json_put_fmt(&sb, "total_b", "%.0f", cb->total);
	json_open(&sb, "functions", '[');
	for (size_t i = 0; i < n; i++) {
		json_open(&sb, NULL, '{');
		json_put_str(&sb, "name", rows[i].name);
		json_put_fmt(&sb, "a", "%.0f", rows[i].a);
		json_put_fmt(&sb, "b", "%.0f", rows[i].b);
		json_close(&sb, '}');
	}
	json_close(&sb, ']');
	json_close(&sb, '}');
	printf("%s\n", sb_str(&sb));
	sb_release(&sb);
}

static const struct why_writer {
	enum format format;
	void (*print)(const char *a, const char *b, const char *workload,
		      const struct fn_counts *ca, const struct fn_counts *cb,
		      const struct why_row *rows, size_t n);
} writers[] = {
	{FORMAT_TABLE, print_table},
	{FORMAT_JSON, print_json},
};

static format_set why_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("why formats", writers, err);
}

/* workload's recipe as `run` planned it: the study file the database
 * recorded, loaded and checked (pipeline_study_load), its recipes loaded
 * with its [sources] and checked (study_plan_init).  NULL after saying
 * why; plan is released by the caller either way. */
static const struct recipe *study_recipe(struct store *st, const char *study,
					 const char *workload, struct study_plan *plan)
{
	struct study s = {0};
	struct strbuf err = {0};
	char *path = results_study_path(st, study);
	memset(plan, 0, sizeof(*plan));
	int rc = pipeline_study_load(path, &s, &err) || study_plan_init(plan, &s, NULL, &err);
	const struct recipe *r = NULL;
	for (size_t w = 0; !rc && w < plan->nworkloads && !r; w++)
		if (!strcmp(plan->study.workloads.v[w], workload))
			r = &plan->workloads[w].recipe;
	if (rc)
		error_msg("%s", sb_str(&err));
	else if (!r)
		error_msg("%s: study '%s' has no workload '%s' (see its workloads =)", path, study,
			  workload);
	study_release(&s); /* what study_plan_init did not take */
	free(path);
	sb_release(&err);
	return r;
}

/* Profile both builds; 0 or 2 (the error said). */
static int explain(struct store *st, const char *study, char **argv)
{
	const char *label[2] = {argv[0], argv[1]};
	char *workload = xstrndup(argv[2], strcspn(argv[2], "/"));
	const char *run_name = opt.run ? opt.run : strchr(argv[2], '/') ? strchr(argv[2], '/') + 1
									: NULL;
	struct study_plan plan;
	struct strbuf err = {0};
	struct fn_counts c[2] = {{0}};
	char *in_dir = NULL, *dir[2] = {NULL, NULL};
	int rc = 2;
	const struct recipe *r = study_recipe(st, study, workload, &plan);
	const struct recipe_run *run = NULL;
	for (size_t i = 0; r && i < r->nruns && !run; i++)
		if (run_name ? !strcmp(r->runs[i].name, run_name) : i == 0)
			run = &r->runs[i];
	if (!r)
		goto out;
	if (!run) {
		error_msg("%s: no run section '%s' (see its recipe.ini)", workload,
			  run_name ? run_name : "");
		goto out;
	}
	for (int k = 0; k < 2; k++)
		if (!(dir[k] = build_dir(st, study, label[k], workload)))
			goto out;
	if (workload_inputs(r, &in_dir, &err)) {
		error_msg("%s", sb_str(&err));
		goto out;
	}
	for (int k = 0; k < 2; k++)
		if (cachegrind_run(dir[k], run, in_dir, &c[k], &err)) {
			error_msg("%s: %s", label[k], sb_str(&err));
			goto out;
		}
	size_t n;
	struct why_row *rows = why_diff(&c[0], &c[1], &n);
	size_t shown = opt.top > 0 && (size_t)opt.top < n ? (size_t)opt.top : n;
	const struct why_writer *w = FORMAT_WRITER(writers, opt.format);
	if (w) /* the option parser took only writers' formats */
		w->print(label[0], label[1], argv[2], &c[0], &c[1], rows, shown);
	free(rows);
	rc = 0;
out:
	for (int k = 0; k < 2; k++) {
		fn_counts_release(&c[k]);
		free(dir[k]);
	}
	free(in_dir);
	study_plan_release(&plan);
	free(workload);
	sb_release(&err);
	return rc;
}

int cmd_why(int argc, char **argv)
{
	struct strlist pos = {0};
	struct store st;
	int rc = options_parse(&why_cmd, argc, argv, &pos);
	if (rc)
		return rc > 0 ? 0 : 2;
	if (pos.n != 3) {
		error_msg("why: give two configuration labels and a workload (see flagscope why "
			  "--help)");
		sl_release(&pos);
		return 2;
	}
	char *study;
	rc = 2;
	if (!results_open(opt.db, opt.study, &st, &study)) {
		rc = explain(&st, study, pos.v);
		free(study);
		store_close(&st);
	}
	sl_release(&pos);
	return rc;
}
