/*
 * cmd_calibrate.c - flagscope calibrate: how big a difference must be on
 * this machine before it is more than layout and noise (issue 27;
 * analysis/calibration.h computes it, doc/layout.md says why).
 *
 * A calibration is a study run through the pipeline like any other: the
 * calibrate preset (or the study given) holds a baseline and builds of it
 * that differ only in code alignment; calibrate adds the baseline's copy
 * (run --noise-floor), builds it, runs it and, a round at a time in turn
 * with it, the same builds as STUDY.aslr-off with ASLR off for its
 * children (the runner pads the environment per run then,
 * harness/layout.h), and stores one floor per item for this machine.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>

#include "analysis/calibration.h"
#include "analysis/results.h"
#include "analysis/stats.h"
#include "base/json.h"
#include "explorer/commands.h"
#include "explorer/options.h"
#include "explorer/progress.h"
#include "explorer/study_path.h"
#include "harness/build.h"
#include "harness/layout.h"
#include "pipeline/pipeline.h"

static format_set calibrate_formats(struct strbuf *err); /* writers[], below */

static struct {
	struct run_overrides study; /* --repeat, --metric, --workloads, --pin, --force */
	int jobs, dry_run, quiet, aslr_on_only;
	const char *db, *format;
} opt;

static const struct option_spec calibrate_options[] = {
	{"db", 0, OPT_STRING, &opt.db, "PATH", "results database that keeps the calibration (default ./flagscope.db)",
	 .def = "flagscope.db"},
	{"repeat", 'r', OPT_COUNT, &opt.study.repeat, "N",
	 "runs of each build (default: the study's repeat, 10 in the preset)"},
	{"metric", 'm', OPT_STRING, &opt.study.metric, "NAME",
	 "calibrate this metric (default: the study's, else time; user is CPU time, less moved by load)"},
	{"workloads", 'w', OPT_STRING, &opt.study.workloads, "\"A B\"", "calibrate only these workloads of the study"},
	{"jobs", 'j', OPT_COUNT, &opt.jobs, "N", "builds at a time (default: the number of CPUs)"},
	{"pin", 0, OPT_STRING, &opt.study.pin, "CPU-LIST",
	 "run the measured programs on these CPUs only (as run --pin; calibrate as you measure)"},
	{"force", 0, OPT_FLAG, &opt.study.force, NULL,
	 "start even when isolate = yes finds the machine busy"},
	{"aslr-on-only", 0, OPT_FLAG, &opt.aslr_on_only, NULL,
	 "skip the second pass with ASLR off (half the runs; no aslr and env figures)"},
	{"dry-run", 'n', OPT_FLAG, &opt.dry_run, NULL, "say what the calibration will build and run; build nothing"},
	{"format", 'f', OPT_FORMAT, &opt.format, "FMT", "output format", NULL, calibrate_formats,
	 .def = "table"},
	{"quiet", 'q', OPT_FLAG, &opt.quiet, NULL, "no progress lines"},
	{NULL},
};

const struct command_spec calibrate_cmd = {
	.name = "calibrate",
	.usage = "[STUDY] [options]",
	.summary = "Measure the smallest difference this machine can tell from layout and\n"
		   "noise, per workload, and store it in the results database for report,\n"
		   "recommend and compare to use (--min-effect auto, their default for time\n"
		   "metrics).",
	.details = "STUDY (default: the calibrate preset) names a baseline and builds of it\n"
		   "that differ only in code layout (-falign-functions=N, -falign-loops=N,\n"
		   "-falign-jumps=N).  calibrate adds the baseline's copy (the same flags\n"
		   "built again, as run --noise-floor), runs every build `repeat` times\n"
		   "interleaved through the same pipeline as run, and as often as the study\n"
		   "STUDY.aslr-off with ASLR off (the personality setarch -R sets; skipped\n"
		   "where the kernel refuses it or ASLR is off already), where the\n"
		   "environment is padded per run: a round (one run of every build) of each\n"
		   "in turn, so load drift lands on both alike.  repeat = auto or stable\n"
		   "count as their minimum.  Per workload (or run section) it prints:\n"
		   "  noise   the 95th percentile of |log ratio| of the medians of two halves\n"
		   "          of one binary's runs, over 2000 random splits (N runs a side);\n"
		   "  layout  the largest |log ratio| of the medians of two of the builds;\n"
		   "  floor   the larger of the two, as a relative difference: the smallest\n"
		   "          difference this machine tells from layout and noise;\n"
		   "  aslr    the baseline's median with ASLR off against on;\n"
		   "  env     the relative interquartile range of its runs with ASLR off\n"
		   "          and the environment padded, beside `spread`, the same with ASLR on.\n"
		   "The floors are stored per machine (CPU model, cores, virtual or not),\n"
		   "workload and metric, replacing that machine's earlier calibration; a\n"
		   "study measured on the same machine is then judged with them (doc/layout.md).\n"
		   "Exit status: 0 calibrated, 1 no workload could be calibrated or the\n"
		   "run was interrupted, 2 bad input or results that could not be stored.",
	.opts = calibrate_options,
};

static void on_signal(int sig)
{
	(void)sig;
	pipeline_interrupted = 1;
}

/* The runs a pass takes: per build and run section the validating
 * warm-up, its repetitions, and the study's extra warm-ups (warmup = N:
 * N - 1) once a round: a round follows the other pass's, whose runs had
 * the caches. */
static long pass_runs(const struct study_plan *p)
{
	long per = 1 + p->study.repeat + (long)(p->study.warmup - 1) * p->study.repeat, n = 0;
	for (size_t w = 0; w < p->nworkloads; w++)
		n += (long)p->workloads[w].recipe.nruns;
	return n * (long)p->nconfigs * per;
}

static long cached_builds(const struct study_plan *p)
{
	long n = 0;
	for (size_t i = 0; i < p->nconfigs * p->nworkloads; i++)
		n += p->builds[i].cached;
	return n;
}

/* 1 when a second pass with ASLR off can run: ASLR is on now and this
 * process may set ADDR_NO_RANDOMIZE (containers' seccomp often refuse). */
static int aslr_off_possible(const char **why)
{
	if (layout_aslr() != 1) {
		*why = "ASLR is off here already: the runs above were padded per run";
		return 0;
	}
	int cur = personality(0xffffffff);
	if (cur == -1 || personality((unsigned long)cur | ADDR_NO_RANDOMIZE) == -1) {
		*why = "this process may not turn ASLR off (personality refused)";
		return 0;
	}
	personality((unsigned long)cur);
	return 1;
}

static int dry_run(const struct study_plan *p, int second, const char *why)
{
	long runs = pass_runs(p);
	printf("calibrate %s: %zu builds (%zu configurations incl. the baseline's copy x %zu "
	       "workloads; %ld cached), %ld runs%s",
	       p->study.name, p->nconfigs * p->nworkloads, p->nconfigs, p->nworkloads,
	       cached_builds(p), runs, second ? "" : "\n");
	if (second)
		printf(", and %ld with ASLR off, a round of each in turn (no new builds): %ld runs in "
		       "all\n", runs, 2 * runs);
	else
		printf("no second pass with ASLR off: %s\n", why);
	return 0;
}

/* A pipeline step's status, its errors printed: 0, 1 failed, 2 store
 * failure. */
static int step_status(enum pipeline_status s, struct strbuf *err)
{
	progress_end();
	if (err->len)
		print_error_lines(sb_str(err));
	sb_release(err);
	return s == PIPELINE_OK ? 0 : s == PIPELINE_STORE_FAILED ? 2 : 1;
}

/* Store a pass's study and make (or find cached) its builds. */
static int build_pass(struct study_plan *p, struct store *st, const struct pipeline_options *po)
{
	struct strbuf err = {0};
	return step_status(pipeline_execute(p, st, po, 1, NULL, &err), &err);
}

/* Round rep of a pass: its runs up to repetition rep (the rounds before
 * stored the others: they are skipped), with ASLR off for every program
 * it starts when aslr_off.  *done counts the runs made. */
static int run_round(struct study_plan *p, int rep, int aslr_off, struct store *st,
		     const struct pipeline_options *po, int *done)
{
	struct strbuf err = {0};
	struct pipeline_counts n = {0};
	int repeat = p->study.repeat, cur = personality(0xffffffff);
	p->study.repeat = rep;
	if (aslr_off)
		personality((unsigned long)cur | ADDR_NO_RANDOMIZE);
	enum pipeline_status s = pipeline_execute_runs(p, st, po, &n, &err);
	*done += n.runs_done;
	if (aslr_off)
		personality((unsigned long)cur);
	p->study.repeat = repeat;
	return step_status(s, &err);
}

/* Both passes a round at a time, ABBA (on off, off on, ...): drift of the
 * machine's load lands on ASLR on and off alike, as the runs of one pass
 * interleave its builds.  p2 NULL: the first pass alone. */
static int run_rounds(struct study_plan *p, struct study_plan *p2, struct store *st,
		      const struct pipeline_options *po)
{
	int rc = build_pass(p, st, po), done = 0;
	if (!rc && p2)
		rc = build_pass(p2, st, po);
	for (int rep = 1; rep <= p->study.repeat && !rc && !pipeline_interrupted; rep++) {
		int off_first = p2 && rep % 2 == 0;
		for (int k = 0; k < (p2 ? 2 : 1) && !rc && !pipeline_interrupted; k++) {
			int off = k == 0 ? off_first : !off_first;
			rc = run_round(off ? p2 : p, rep, off, st, po, &done);
		}
	}
	if (!rc && pipeline_interrupted) {
		error_msg("interrupted during the calibration (%d of %ld runs done): run the same "
			  "command again to resume", done, pass_runs(p) * (p2 ? 2 : 1));
		rc = 1;
	}
	return rc;
}

/* The plan of STUDY again as STUDY.aslr-off. */
static int plan_aslr_off(struct study_plan *p, const char *path, const struct pipeline_options *po,
			 struct strbuf *err)
{
	if (pipeline_plan_study(p, path, &opt.study, po, err))
		return -1;
	char *name = xasprintf("%s.aslr-off", p->study.name);
	free(p->study.name);
	p->study.name = name;
	return 0;
}

/* The configurations of a plan by role. */
struct roles {
	const char *base, *copy;
	struct strlist variants;
};

static void plan_roles(const struct study_plan *p, struct roles *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t c = 0; c < p->nconfigs; c++) {
		const struct config *cfg = p->configs[c].cfg;
		if (cfg->noise_floor)
			r->copy = cfg->id;
		else if (cfg->is_baseline)
			r->base = cfg->id;
		else
			sl_push(&r->variants, cfg->id);
	}
}

struct item_samples {
	double *v;
	size_t n;
};

static struct item_samples get(struct store *st, const char *study, const char *id,
			       const char *w, const char *run, const char *metric)
{
	struct item_samples s = {0};
	if (id)
		s.v = results_samples(st, study, id, w, run, metric, &s.n, NULL);
	return s;
}

/* One item's row; 0, or -1 when it has too few runs. */
static int calibrate_item(struct store *st, const struct study_plan *p, const struct roles *r,
			  const char *off_study, const char *w, const char *run,
			  struct calib_row *row)
{
	const char *metric = p->study.metric;
	size_t nv = r->variants.n;
	struct item_samples base = get(st, p->study.name, r->base, w, run, metric);
	struct item_samples copy = get(st, p->study.name, r->copy, w, run, metric);
	struct item_samples off = get(st, off_study, off_study ? r->base : NULL, w, run, metric);
	struct item_samples *vs = xcalloc(nv ? nv : 1, sizeof(*vs));
	struct calib_samples *cv = xcalloc(nv ? nv : 1, sizeof(*cv));
	for (size_t i = 0; i < nv; i++) {
		vs[i] = get(st, p->study.name, r->variants.v[i], w, run, metric);
		cv[i] = (struct calib_samples){vs[i].v, vs[i].n};
	}
	struct calib_input in = {
		.base = {base.v, base.n}, .copy = {copy.v, copy.n}, .variants = cv,
		.nvariants = nv, .aslr_off = {off.v, off.n},
	};
	int rc = calibration_compute(&in, STATS_DEFAULT_SEED, row);
	if (!rc) {
		row->item = *run ? xasprintf("%s/%s", w, run) : xstrdup(w);
		row->metric = xstrdup(metric);
	}
	for (size_t i = 0; i < nv; i++)
		free(vs[i].v);
	free(vs);
	free(cv);
	free(base.v);
	free(copy.v);
	free(off.v);
	return rc;
}

static void pct(char *buf, size_t n, double v, int sign)
{
	snprintf(buf, n, isnan(v) ? "-" : sign ? "%+.2f%%" : "%.2f%%", 100 * v);
}

/* What a writer prints: the stored calibration and where it went. */
struct calib_output {
	const struct calib_row *rows;
	size_t n;
	const char *cpu, *id; /* the machine's */
	const char *study, *db;
};

static void print_table(const struct calib_output *o)
{
	const struct calib_row *rows = o->rows;
	size_t n = o->n;
	const char *cpu = o->cpu, *id = o->id, *db = o->db;
	printf("calibration of this machine: %s (machine %s), metric %s\n", cpu, id,
	       n ? rows[0].metric : "-");
	printf("%-22s %5s %6s %8s %8s %8s %10s %8s %8s\n", "workload", "runs", "builds", "noise",
	       "layout", "floor", "aslr-off", "env", "spread");
	for (size_t i = 0; i < n; i++) {
		const struct calib_row *r = &rows[i];
		char no[16], la[16], fl[16], as[16], en[16], sp[16];
		pct(no, sizeof(no), exp(r->noise) - 1, 0);
		pct(la, sizeof(la), exp(r->layout) - 1, 0);
		pct(fl, sizeof(fl), r->floor, 0);
		pct(as, sizeof(as), isnan(r->aslr) ? NAN : exp(r->aslr) - 1, 1);
		pct(en, sizeof(en), r->env, 0);
		pct(sp, sizeof(sp), r->spread, 0);
		printf("%-22s %5d %6d %8s %8s %8s %10s %8s %8s\n", r->item, r->runs, r->builds, no,
		       la, fl, as, en, sp);
	}
	printf("\nfloor = the larger of noise and layout; stored in %s for this machine: report, "
	       "recommend and compare judge time with it (--min-effect auto, their default)\n", db);
}

static void print_json(const struct calib_output *o)
{
	struct strbuf sb = {0};
	json_open(&sb, NULL, '{');
	json_put_str(&sb, "machine", o->id);
	json_put_str(&sb, "cpu", o->cpu);
	json_put_str(&sb, "study", o->study);
	json_open(&sb, "items", '[');
	for (size_t i = 0; i < o->n; i++) {
		const struct calib_row *r = &o->rows[i];
		json_open(&sb, NULL, '{');
		json_put_str(&sb, "item", r->item);
		json_put_str(&sb, "metric", r->metric);
		json_put_fmt(&sb, "runs", "%d", r->runs);
		json_put_fmt(&sb, "builds", "%d", r->builds);
		/* relative differences, as --min-effect takes them */
		json_put_num(&sb, "floor", r->floor);
		json_put_num(&sb, "noise", exp(r->noise) - 1);
		json_put_num(&sb, "layout", exp(r->layout) - 1);
		json_put_num(&sb, "aslr", isnan(r->aslr) ? NAN : exp(r->aslr) - 1);
		json_put_num(&sb, "env", r->env);
		json_put_num(&sb, "spread", r->spread);
		json_close(&sb, '}');
	}
	json_close(&sb, ']');
	json_close(&sb, '}');
	printf("%s\n", sb_str(&sb));
	sb_release(&sb);
}

static const struct calib_writer {
	enum format format;
	void (*print)(const struct calib_output *o);
} writers[] = {
	{FORMAT_TABLE, print_table},
	{FORMAT_JSON, print_json},
};

static format_set calibrate_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("calibrate formats", writers, err);
}

/* Compute, store and print every item's floor: the exit status. */
static int finish(struct store *st, const struct study_plan *p, const char *off_study)
{
	struct roles r;
	plan_roles(p, &r);
	struct strlist wls = {0}, runs = {0};
	results_items(st, p->study.name, &wls, &runs);
	struct calib_row *rows = xcalloc(wls.n ? wls.n : 1, sizeof(*rows));
	size_t n = 0;
	for (size_t i = 0; i < wls.n; i++) {
		if (calibrate_item(st, p, &r, off_study, wls.v[i], runs.v[i], &rows[n]))
			warn_msg("%s%s%s: not calibrated: fewer than 2 ok runs of the baseline or its "
				 "copy (see flagscope report --study %s)", wls.v[i],
				 *runs.v[i] ? "/" : "", runs.v[i], p->study.name);
		else
			n++;
	}
	char id[17], *cpu = NULL;
	int rc = 0;
	if (!n) {
		error_msg("%s: no workload could be calibrated (see flagscope report --study %s)",
			  p->study.name, p->study.name);
		rc = 1;
	} else if (calibration_machine_id(st, p->study.name, id, &cpu)) {
		error_msg("%s: the study stored no machine state, so the calibration has no machine "
			  "to belong to (run it again)", p->study.name);
		rc = 1;
	} else if (calibration_store(st, id, cpu, p->study.name, rows, n)) {
		error_msg("%s: cannot store the calibration: %s (check the disk)", st->path,
			  sb_str(&st->why));
		rc = 2;
	} else {
		const struct calib_output o = {rows, n, cpu, id, p->study.name, st->path};
		const struct calib_writer *w = FORMAT_WRITER(writers, opt.format);
		if (w) /* the option parser took only writers' formats */
			w->print(&o);
	}
	for (size_t i = 0; i < n; i++)
		calib_row_release(&rows[i]);
	free(rows);
	free(cpu);
	sl_release(&wls);
	sl_release(&runs);
	sl_release(&r.variants);
	return rc;
}

/* Check what calibrate needs of a study: a noisy metric and a baseline
 * with other builds to compare. */
static int check_plan(const struct study_plan *p, struct strbuf *err)
{
	if (results_metric_deterministic(p->study.metric))
		sb_addf(err, "%s: metric %s is deterministic: layout and noise do not move it "
			     "(calibrate a time metric: leave metric out, or metric = time)",
			p->study.path, p->study.metric);
	else if (p->matrix.baseline < 0 || p->nconfigs < 3)
		sb_addf(err, "%s: calibrate needs a baseline and at least one build that differs "
			     "from it only in layout (see the calibrate preset: flagscope list presets)",
			p->study.path);
	return err->len ? -1 : 0;
}

static int calibrate(const char *path, struct study_plan *p, const struct pipeline_options *po)
{
	struct strbuf err = {0};
	struct store st = {0};
	struct study_plan p2 = {0};
	const char *why = NULL;
	int second = !opt.aslr_on_only && aslr_off_possible(&why);
	if (opt.aslr_on_only)
		why = "--aslr-on-only";
	int rc = 2;
	/* calibrate measures exactly `repeat` runs a build: a round is one
	 * repetition of every build (repeat = auto or stable would run them
	 * all in the first) */
	p->study.repeat_auto = p->study.repeat_stable = 0;
	if (opt.dry_run) {
		rc = dry_run(p, second, why);
		goto out;
	}
	if (store_open(&st, opt.db, 1, &err) || store_lock(&st, &err))
		goto out;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	if (second && plan_aslr_off(&p2, path, po, &err))
		goto out;
	p2.study.repeat_auto = p2.study.repeat_stable = 0;
	progress_say("calibrate: %zu builds, %ld runs%s", p->nconfigs * p->nworkloads,
		     pass_runs(p) * (second ? 2 : 1),
		     second ? ": a round with ASLR as the machine has it and one with ASLR off (the "
			      "environment padded per run) in turn" : "");
	if (!second)
		progress_say("calibrate: no second pass with ASLR off: %s", why);
	if ((rc = run_rounds(p, second ? &p2 : NULL, &st, po)))
		goto out;
	rc = finish(&st, p, second ? p2.study.name : NULL);
out:
	if (err.len)
		print_error_lines(sb_str(&err));
	sb_release(&err);
	study_plan_release(&p2);
	store_close(&st);
	return rc;
}

int cmd_calibrate(int argc, char **argv)
{
	struct strlist pos = {0};
	struct strbuf err = {0};
	struct study_plan plan = {0};
	char *path = NULL;
	double started = 0;
	opt.jobs = cpu_count();
	opt.study.repeat = -1;
	int rc = options_parse(&calibrate_cmd, argc, argv, &pos);
	if (rc) {
		rc = rc > 0 ? 0 : 2;
		goto out;
	}
	/* the baseline's copy: one binary's runs twice, the A/A pair of noise */
	opt.study.noise_floor = 1;
	struct pipeline_options po = {.jobs = opt.jobs, .dry_run = opt.dry_run, .shard_n = 1};
	progress_start(&po.ev, opt.quiet, &started);
	rc = 2;
	if (pos.n > 1)
		sb_add(&err, "calibrate: one study at a time (see flagscope calibrate --help)");
	else if (!study_path_resolve(pos.n ? pos.v[0] : "calibrate", &path, &err) &&
		 !pipeline_plan_study(&plan, path, &opt.study, &po, &err) &&
		 !check_plan(&plan, &err))
		rc = calibrate(path, &plan, &po);
out:
	if (err.len)
		print_error_lines(sb_str(&err));
	sb_release(&err);
	study_plan_release(&plan);
	sl_release(&pos);
	free(path);
	return rc;
}
