/*
 * profile.c - one run of a build under cachegrind (profile.h).
 */
#include "pipeline/profile.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/build.h"
#include "harness/execute.h"

/* cachegrind as a wrapping meter, so the profiled run is exactly the
 * recipe's run (execute_run builds argv, input, environment).  A meter's
 * callbacks get no context pointer, so the valgrind path and the counts
 * being collected live here for the duration of one why_profile() call. */
static struct {
	char valgrind[PATH_MAX];
	struct why_counts *out;
	struct strbuf *err;
	int done;
} profiling;

static int cg_probe(struct meter_state *st, struct strbuf *fact)
{
	(void)st;
	sb_addf(fact, "cachegrind: instructions per function (valgrind %s)", profiling.valgrind);
	return 1;
}

static void cg_wrap(const struct meter_state *st, const char *scratch, struct strlist *prefix)
{
	(void)st;
	sl_push(prefix, profiling.valgrind);
	sl_push(prefix, "--tool=cachegrind");
	sl_push(prefix, "--cache-sim=no");
	sl_push_owned(prefix, xasprintf("--cachegrind-out-file=%s", scratch));
}

static int cg_collect(const struct meter_state *st, const struct run_result *r,
		      const char *scratch, struct measurements *out)
{
	(void)st;
	(void)r;
	(void)out;
	profiling.done = 1;
	return why_parse_cachegrind(scratch, profiling.out, profiling.err);
}

static const struct meter_ops meter_cachegrind = {
	.name = "cachegrind",
	.timed = 0,
	.probe = cg_probe,
	.wrap = cg_wrap,
	.collect = cg_collect,
};

int why_profile(const char *build_dir, const struct recipe_run *run, const char *in_dir,
		struct why_counts *out, struct strbuf *err)
{
	memset(out, 0, sizeof(*out));
	char *vg = why_valgrind_path();
	if (!vg) {
		sb_addf(err, "valgrind: not found on PATH (install the valgrind package)");
		return -1;
	}
	snprintf(profiling.valgrind, sizeof(profiling.valgrind), "%s", vg);
	free(vg);
	struct build b = {
		.dir = xstrdup(build_dir),
		.out_dir = xasprintf("%s/out", build_dir),
	};
	if (!is_dir(b.out_dir)) {
		sb_addf(err, "%s: the build is not in the cache (run the study again to rebuild it)",
			b.out_dir);
		free(b.dir);
		free(b.out_dir);
		return -1;
	}
	/* valgrind runs the program tens of times slower than it runs */
	struct exec_ctx ctx = {
		.runner = &runner_native,
		.meters = {&meter_cachegrind},
		.nmeters = 1,
		.pin_cpu = -1,
		.timeout = 60 * (run->timeout > 0 ? run->timeout : 60),
	};
	profiling.out = out;
	profiling.err = err;
	profiling.done = 0;
	struct exec_result res;
	execute_run(&ctx, &b, run, in_dir, 1, NULL, NULL, &res);
	int rc = 0;
	if (res.outcome != OUTCOME_OK) {
		sb_addf(err, "%s: the run failed before profiling: %s%s%s", b.out_dir,
			outcome_name(res.outcome), res.detail ? ": " : "", res.detail ? res.detail : "");
		rc = -1;
	} else if (!profiling.done) {
		sb_addf(err, "%s: the program failed under valgrind --tool=cachegrind (try it by "
			     "hand)", b.out_dir);
		rc = -1;
	} else if (!out->n) {
		rc = -1; /* the parser said why */
	}
	exec_result_release(&res);
	memset(&profiling, 0, sizeof(profiling));
	free(b.dir);
	free(b.out_dir);
	return rc;
}
