/*
 * metric_names.c - the metric names a study can give, known before anything
 * builds: its meters' (harness/meter.h), its recipes' metric.NAME and
 * ratio.NAME, every build's section sizes, and a package's test-suite time
 * (tests.time, system = debian).  A --metric (or a study's
 * metric =) naming none of them is refused here, not after the whole
 * study ran and the ranking found no samples.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/execute.h"
#include "harness/meter.h"
#include "flagsets/settings.h"
#include "harness/runner.h"
#include "pipeline/pipeline_internal.h"

const char *const build_size_names[BUILD_NSIZES] = {
	"size.text", "size.data", "size.bss", "size.rodata", "size.file",
};

static void push_once(struct strlist *out, const char *name)
{
	if (sl_find(out, name) < 0)
		sl_push(out, name);
}

/* The names every run of the study can give: the meters run picks
 * (setup_meters in pipeline.c: --meters, else the study's, else the
 * default set), the own meter of each runner its configurations' runs
 * select (qemu-insn for a foreign target), and the build sizes. */
static void common_names(const struct study_plan *p, struct strlist *out)
{
	char *study_meters = p->study.meters.n ? sl_join(&p->study.meters, " ") : NULL;
	meter_metric_names(study_meters, out);
	free(study_meters);
	struct run_target board = {0};
	for (size_t c = 0; c < p->nconfigs; c++) {
		struct run_job job = {.cross = p->configs[c].cfg->target,
				      .board = p->study.run_host ? &board : NULL};
		const struct runner_ops *r = runner_select(&job);
		if (r && r->meter)
			meter_push_metrics(r->meter, out);
	}
	for (size_t i = 0; i < BUILD_NSIZES; i++)
		push_once(out, build_size_names[i]);
	for (size_t w = 0; w < p->nworkloads; w++)
		if (recipe_is_package(&p->workloads[w].recipe))
			push_once(out, BUILD_TESTS_TIME);
}

/* a run section of r declares name (metric.NAME, ratio.NAME) */
static int recipe_gives(const struct recipe *r, const char *name)
{
	for (size_t i = 0; i < r->nruns; i++)
		if (recipe_has_metric(&r->runs[i], name))
			return 1;
	return 0;
}

static int any_recipe_gives(const struct study_plan *p, const char *name)
{
	for (size_t w = 0; w < p->nworkloads; w++)
		if (recipe_gives(&p->workloads[w].recipe, name))
			return 1;
	return 0;
}

/* Every recipe's metric names, after the common ones (for the message) */
static void push_recipe_names(const struct study_plan *p, struct strlist *out)
{
	for (size_t w = 0; w < p->nworkloads; w++) {
		const struct recipe *r = &p->workloads[w].recipe;
		for (size_t i = 0; i < r->nruns; i++)
			for (size_t m = 0; m < r->runs[i].nmetrics; m++)
				push_once(out, r->runs[i].metrics[m].name);
	}
}

static int run_gives(const struct recipe_run *run, const struct strlist *common, const char *name)
{
	return sl_find(common, name) >= 0 || recipe_has_metric(run, name);
}

/* rest after "WORKLOAD/": METRIC, RUN, or RUN/METRIC of r */
static int known_in_workload(const struct recipe *r, const struct strlist *common,
			     const char *rest)
{
	if (sl_find(common, rest) >= 0 || recipe_gives(r, rest))
		return 1;
	for (size_t i = 0; i < r->nruns; i++) {
		size_t n = strlen(r->runs[i].name);
		if (n && !strncmp(rest, r->runs[i].name, n) &&
		    (!rest[n] || (rest[n] == '/' && run_gives(&r->runs[i], common, rest + n + 1))))
			return 1;
	}
	return 0;
}

/* sel in one of the forms results_select reads (analysis/results.h):
 * METRIC, WORKLOAD, WORKLOAD/METRIC, WORKLOAD/RUN, WORKLOAD/RUN/METRIC */
static int selector_known(const struct study_plan *p, const struct strlist *common,
			  const char *sel)
{
	if (sl_find(common, sel) >= 0 || any_recipe_gives(p, sel))
		return 1;
	const char *slash = strchr(sel, '/');
	size_t head = slash ? (size_t)(slash - sel) : strlen(sel);
	for (size_t w = 0; w < p->nworkloads; w++) {
		const struct recipe *r = &p->workloads[w].recipe;
		if (strlen(r->name) == head && !strncmp(r->name, sel, head))
			return !slash || known_in_workload(r, common, slash + 1);
	}
	return 0;
}

/* "--metric", "file:line" of the study's metric = (its path alone for a
 * default): where a refusal of the metric starts */
static void add_where(struct strbuf *err, const struct study_plan *p)
{
	char *where = setting_where(&p->study, "metric");
	sb_add(err, where);
	free(where);
}

/* A perf event sel names (perf/EVENT at its start or after a '/') that
 * perf cannot count here, for runs on this machine: every run would have
 * no value.  Runs under qemu or on boards are not this perf's. */
static int perf_event_missing(const struct study_plan *p, const char *sel,
			      const char **event)
{
	const char *in = strstr(sel, "/perf/");
	const char *e = str_starts_with(sel, "perf/") ? sel + 5 : in ? in + 6 : NULL;
	if (!e || !*e || p->study.run_host)
		return 0;
	int native = 0;
	for (size_t c = 0; c < p->nconfigs; c++)
		native |= !p->configs[c].cfg->target;
	*event = e;
	return native && meter_perf_counts(e) == 0;
}

int pipeline_check_metric(const struct study_plan *p, const struct pipeline_options *o,
			  struct strbuf *err)
{
	/* a build-only run checks only a metric it was given */
	if (o->no_ranking && sl_find(&p->study.overridden, "metric") < 0)
		return 0;
	const char *sel = p->study.metric;
	struct strlist known = {0};
	common_names(p, &known);
	int ok = selector_known(p, &known, sel);
	if (!ok) {
		push_recipe_names(p, &known);
		/* the list names what can rank here: not perf/cycles without counters */
		struct strlist usable = {0};
		for (size_t i = 0; i < known.n; i++) {
			const char *ev = NULL;
			if (!perf_event_missing(p, known.v[i], &ev))
				sl_push(&usable, known.v[i]);
		}
		char *list = sl_join(&usable, ", ");
		sl_release(&usable);
		const char *hint = p->study.metric_set ? "" :
				   "its default; pass --metric, or a meter that gives it; ";
		sb_addf(err, "%s", err->len ? "\n" : "");
		add_where(err, p);
		sb_addf(err, ": study '%s' gives no metric '%s' (%sits metrics: %s; or "
			     "WORKLOAD[/RUN][/METRIC])",
			p->study.name, sel, hint, list);
		free(list);
	}
	const char *event = NULL;
	if (ok && perf_event_missing(p, sel, &event)) {
		sb_addf(err, "%s", err->len ? "\n" : "");
		add_where(err, p);
		sb_addf(err, ": this machine does not count perf/%s (perf stat says <not supported>: "
			     "no hardware counters here); rank by perf/task-clock, time, or insns with "
			     "--meters cachegrind", event);
		ok = 0;
	}
	sl_release(&known);
	return ok ? 0 : -1;
}
