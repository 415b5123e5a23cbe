/* parts.c - see parts.h */
#include "pipeline/parts.h"

#include <stdlib.h>
#include <string.h>

#include "harness/build.h"
#include "harness/meter.h"
#include "harness/runner.h"
#include "harness/study_names.h"

int pipeline_study_load(const char *path, struct study *s, struct strbuf *err)
{
	return study_load(path, s, err) || study_check_names(s, err) ? -1 : 0;
}

enum outcome pipeline_probe_flags(const struct config *cfg, const struct toolchain *tc,
				  char **detail)
{
	return build_probe_flags(cfg, tc, detail);
}

const char *pipeline_record_flag(const struct toolchain *tc)
{
	return toolchain_record_flag(tc);
}

char *pipeline_build_dir(const char *key)
{
	return build_dir_of_key(key);
}

static int meter_gives(const struct meter_ops *m, const char *metric)
{
	struct strlist names = {0};
	meter_push_metrics(m, &names);
	int gives = sl_find(&names, metric) >= 0;
	sl_release(&names);
	return gives;
}

void pipeline_meters_for(const struct study *s, const struct config *cfg, const char *metric,
			 struct strlist *meters)
{
	sl_release(meters);
	sl_push(meters, "rusage");
	struct run_target board = {0};
	struct run_job job = {.cross = cfg->target, .board = s->run_host ? &board : NULL};
	const struct runner_ops *r = runner_select(&job);
	if ((r && r->meter && meter_gives(r->meter, metric)) || meter_gives(&meter_rusage, metric))
		return;
	const struct meter_ops *m;
	for (size_t i = 0; (m = meter_at(i)); i++)
		if (!m->own && meter_gives(m, metric)) {
			sl_push(meters, m->name);
			return;
		}
}
