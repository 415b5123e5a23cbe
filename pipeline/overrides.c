/*
 * overrides.c - `run`'s way from a study file to a prepared plan
 * (pipeline_plan_study in pipeline.h): its options applied to the study,
 * the machine checked, then planned and prepared.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/machine.h"
#include "pipeline/pipeline.h"

static int apply_overrides(struct study *s, const struct run_overrides *o, struct strbuf *err)
{
	if (o->repeat > 0) {
		s->repeat = o->repeat;
		s->repeat_auto = s->repeat_stable = 0;
	}
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
	return 0;
}

int pipeline_plan_study(struct study_plan *p, const char *path, const struct run_overrides *o,
			const struct pipeline_options *po, struct strbuf *err)
{
	struct study s = {0};
	int rc = study_load(path, &s, err) || apply_overrides(&s, o, err) ||
		 machine_study_check(&s, "run", o->pin, o->force, err) ||
		 study_plan_init(p, &s, &o->sources, err) || pipeline_prepare(p, po, err);
	study_release(&s); /* what study_plan_init did not take */
	return rc ? -1 : 0;
}
