/*
 * overrides.c - `run`'s way from a study file to a prepared plan
 * (pipeline_plan_study in pipeline.h): its options applied to the study,
 * the machine checked, then planned and prepared.
 */
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
	sl_split_ws(&only, o->workloads);
	for (size_t i = 0; i < only.n; i++)
		if (sl_find(&s->workloads, only.v[i]) < 0) {
			sb_addf(err, "%s: --workloads names '%s', which the study does not have",
				s->path, only.v[i]);
			sl_release(&only);
			return -1;
		}
	sl_release(&s->workloads);
	s->workloads = only;
	return 0;
}

static int check_machine(const struct study *s, const char *pin_arg, int force,
			 struct strbuf *err)
{
	struct strbuf why = {0};
	const char *pin = pin_arg ? pin_arg : s->pin;
	int rc = 0;
	if (pin && machine_pin_check(pin, s->run_host != NULL, &why)) {
		if (pin_arg)
			sb_addf(err, "run: --pin: %s", sb_str(&why));
		else
			sb_addf(err, "%s:%d: pin: %s", s->path, s->pin_line, sb_str(&why));
		rc = -1;
	} else if (s->isolate && !force &&
		   machine_quiet_check(machine_root(), s->isolate_load, &why)) {
		sb_addf(err, "%s:%d: isolate = yes: %s (wait for a quieter machine, raise isolate_load, "
			     "or pass --force)",
			s->path, s->isolate_line, sb_str(&why));
		rc = -1;
	}
	sb_release(&why);
	return rc;
}

int pipeline_plan_study(struct study_plan *p, const char *path, const struct run_overrides *o,
			const struct pipeline_options *po, struct strbuf *err)
{
	struct study s = {0};
	int rc = study_load(path, &s, err) || apply_overrides(&s, o, err) ||
		 check_machine(&s, o->pin, o->force, err) ||
		 study_plan_init(p, &s, &o->sources, err) || pipeline_prepare(p, po, err);
	study_release(&s); /* what study_plan_init did not take */
	return rc ? -1 : 0;
}
