/* parts.c - see parts.h */
#include "pipeline/parts.h"

#include <stdlib.h>
#include <string.h>

#include "harness/build.h"
#include "harness/execute.h"
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

const char *pipeline_toolchain_id(const struct toolchain *tc)
{
	return tc->id;
}

const char *pipeline_toolchain_version(const struct toolchain *tc)
{
	return tc->version;
}

void pipeline_build_line(const struct build *b, size_t done, size_t total, struct strbuf *out)
{
	sb_addf(out, "[build %zu/%zu] %s %s: %s%s%s", done, total, b->cfg->label, b->recipe->name,
		outcome_name(b->outcome), b->detail ? ": " : "", b->detail ? b->detail : "");
}

void pipeline_run_line(const struct pipeline_run_event *e, struct strbuf *out)
{
	sb_addf(out, "[run %d/%d] %s %s%s%s rep %d: %s%s%s", e->done, e->total,
		e->build->cfg->label, e->build->recipe->name, *e->run->name ? "/" : "",
		e->run->name, e->rep, outcome_name(e->res->outcome), e->res->detail ? ": " : "",
		e->res->detail ? e->res->detail : "");
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
