/*
 * overrides.c - `run`'s way from a study file to a prepared plan
 * (pipeline_plan_study in pipeline.h): its options applied to the study,
 * once, through the settings table (flagsets/settings.h), the machine
 * checked, then planned and prepared.  After this the study is the one
 * answer to "which metric, which meters, which CPUs": the pipeline never
 * sees the options.
 */
#include <stdlib.h>
#include <string.h>

#include "flagsets/settings.h"
#include "harness/machine.h"
#include "harness/study_names.h"
#include "pipeline/pipeline.h"

/* --metric and --meters into the study (a mistyped meter is refused here:
 * the whole study would run without it) */
static int apply_measures(struct study *s, const struct run_overrides *o, struct strbuf *err)
{
	if (o->meters) {
		struct strlist names = {0};
		sl_split_ws(&names, o->meters);
		int bad = meter_names_check(&names, "--meters", 0, err);
		sl_release(&names);
		if (bad || study_override(s, "meters", o->meters, err))
			return -1;
	}
	return o->metric ? study_override(s, "metric", o->metric, err) : 0;
}

/* --packages A,B (or a file of names): the study's workloads become these
 * Debian source packages, built without recipes (system = debian) */
static int apply_packages(struct study *s, const char *list, struct strbuf *err)
{
	char *words = xstrdup(list);
	for (char *c = words; *c; c++)
		if (*c == ',')
			*c = ' ';
	struct strlist w = {0}, names = {0};
	sl_split_ws(&w, words);
	free(words);
	struct strbuf why = {0};
	int rc = packages_resolve(&w, NULL, &names, &why);
	if (rc || !names.n) {
		sb_addf(err, "--packages: %s", rc ? sb_str(&why) : "names no package (name one or more "
								    "Debian source packages, e.g. libyaml,fribidi)");
		sl_release(&names);
		rc = -1;
	} else {
		sl_release(&s->workloads);
		sl_release(&s->packages);
		for (size_t i = 0; i < names.n; i++)
			sl_push(&s->workloads, names.v[i]);
		s->packages = names;
		sl_push(&s->overridden, "packages");
	}
	sl_release(&w);
	sb_release(&why);
	return rc;
}

static int apply_overrides(struct study *s, const struct run_overrides *o, struct strbuf *err)
{
	if (o->packages && apply_packages(s, o->packages, err))
		return -1;
	if (o->repeat > 0) {
		char *n = xasprintf("%d", o->repeat);
		int rc = study_override(s, "repeat", n, err);
		free(n);
		if (rc)
			return -1;
	}
	if (apply_measures(s, o, err))
		return -1;
	s->noise_floor = o->noise_floor;
	if (!o->workloads)
		return 0;
	struct strlist only = {0};
	int bad = 0;
	sl_split_ws(&only, o->workloads);
	if (!only.n) {
		char *all = sl_join(&s->workloads, " ");
		sb_addf(err, "--workloads names no workload (name one or more of: %s)", all);
		free(all);
		bad = 1;
	}
	for (size_t i = 0; i < only.n && !bad; i++) {
		if (sl_find(&s->workloads, only.v[i]) < 0) {
			char *all = sl_join(&s->workloads, " ");
			sb_addf(err, "%s: --workloads names '%s', which the study does not have "
				     "(its workloads: %s)", s->path, only.v[i], all);
			free(all);
		} else if (sl_find(&only, only.v[i]) < (int)i)
			sb_addf(err, "--workloads names '%s' twice (name it once)", only.v[i]);
		else
			continue;
		bad = 1;
	}
	if (bad) {
		sl_release(&only);
		return -1;
	}
	sl_release(&s->workloads);
	s->workloads = only;
	sl_push(&s->overridden, "workloads");
	return 0;
}

/* --pin, checked with the study's isolate = as it is (its refusal names
 * the option), then into the study */
static int check_machine(struct study *s, const struct run_overrides *o, struct strbuf *err)
{
	if (machine_study_check(s, "run", o->pin, o->force, err))
		return -1;
	return o->pin ? study_override(s, "pin", o->pin, err) : 0;
}

int pipeline_plan_study(struct study_plan *p, const char *path, const struct run_overrides *o,
			const struct pipeline_options *po, struct strbuf *err)
{
	struct study s = {0};
	int rc = study_load(path, &s, err) || apply_overrides(&s, o, err) ||
		 check_machine(&s, o, err) ||
		 study_plan_init(p, &s, &o->sources, err) || pipeline_prepare(p, po, err);
	study_release(&s); /* what study_plan_init did not take */
	return rc ? -1 : 0;
}
