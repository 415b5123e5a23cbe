/* meter_cachegrind.c - see meter_cachegrind.h */
#include "harness/meter_cachegrind.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/execute.h"

int cachegrind_parse(const char *path, struct fn_counts *out, struct strbuf *err)
{
	memset(out, 0, sizeof(*out));
	FILE *f = fopen(path, "r");
	if (!f) {
		sb_addf(err, "%s: cannot read the cachegrind output: %s", path, strerror_lc(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0, cur = SIZE_MAX;
	int events_ok = 0;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (str_starts_with(line, "events:")) {
			events_ok = str_starts_with(str_trim(line + 7), "Ir");
		} else if (str_starts_with(line, "fn=")) {
			/* a function spread over several files comes back: one row */
			cur = fn_counts_find(out, line + 3);
			if (cur == SIZE_MAX) {
				out->name = xrealloc(out->name, (out->n + 1) * sizeof(char *));
				out->ir = xrealloc(out->ir, (out->n + 1) * sizeof(double));
				out->name[out->n] = xstrdup(line + 3);
				out->ir[out->n] = 0;
				cur = out->n++;
			}
		} else if (str_starts_with(line, "summary:")) {
			out->total = strtod(line + 8, NULL);
		} else if (cur != SIZE_MAX && line[0] >= '0' && line[0] <= '9') {
			char *p;
			strtoul(line, &p, 10); /* the source line */
			out->ir[cur] += strtod(p, NULL);
		}
	}
	free(line);
	fclose(f);
	if (!events_ok || !out->n) {
		sb_addf(err, "%s: %s (is this a cachegrind output file?)", path,
			!events_ok ? "no Ir event" : "no function counts");
		fn_counts_release(out);
		return -1;
	}
	return 0;
}

char *cachegrind_valgrind_path(void)
{
	const char *path = getenv("PATH");
	char *copy = xstrdup(path && *path ? path : "/usr/bin:/bin"), *save = NULL, *found = NULL;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/valgrind", d);
		if (!access(p, X_OK))
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}

static int cg_probe(struct meter_state *st, struct strbuf *fact)
{
	if (st->target) {
		sb_add(fact, "cachegrind: not on boards over ssh (valgrind runs here)");
		return 0;
	}
	char *vg = cachegrind_valgrind_path();
	if (!vg || strlen(vg) >= sizeof(st->valgrind)) {
		sb_add(fact, "cachegrind: valgrind not found on PATH (install the valgrind package)");
		free(vg);
		return 0;
	}
	snprintf(st->valgrind, sizeof(st->valgrind), "%s", vg);
	free(vg);
	sb_addf(fact, "cachegrind: instructions executed, per function (valgrind %s), one wrapped "
		      "run", st->valgrind);
	return 1;
}

static void cg_wrap(const struct meter_run *mr, struct strlist *prefix)
{
	sl_push(prefix, mr->st->valgrind);
	sl_push(prefix, "--tool=cachegrind");
	sl_push(prefix, "--cache-sim=no");
	sl_push_owned(prefix, xasprintf("--cachegrind-out-file=%s", mr->scratch));
}

/* mr->out, when given, is a struct fn_counts that gets the per-function
 * counts (cachegrind_run) */
static int cg_collect(const struct meter_run *mr, struct measurements *out, struct strbuf *note)
{
	struct fn_counts p;
	if (cachegrind_parse(mr->scratch, &p, note))
		return -1;
	measurements_add(out, "insns", p.total, "insn");
	if (mr->out) {
		fn_counts_release(mr->out);
		*(struct fn_counts *)mr->out = p;
	} else {
		fn_counts_release(&p);
	}
	return 0;
}

static const struct meter_metric cg_table[] = {{"insns", GRAIN_EXACT}, {NULL, 0}};

const struct meter_ops meter_cachegrind = {
	.name = "cachegrind",
	.help = "instructions executed (valgrind cachegrind's Ir), one wrapped run, natively",
	.timed = 0,
	.probe = cg_probe,
	.wrap = cg_wrap,
	.collect = cg_collect,
	.table = cg_table,
};

int cachegrind_run(const char *build_dir, const struct recipe_run *run, const char *in_dir,
		   struct fn_counts *out, struct strbuf *err)
{
	memset(out, 0, sizeof(*out));
	struct exec_ctx ctx = {
		.meters = {&meter_cachegrind},
		.nmeters = 1,
		/* valgrind runs the program tens of times slower than it runs */
		.timeout = 60 * (run->timeout > 0 ? run->timeout : 60),
		.meter_out = out,
	};
	struct strbuf fact = {0};
	int usable = meter_cachegrind.probe(&ctx.mstate, &fact);
	sb_release(&fact);
	if (!usable) {
		sb_addf(err, "valgrind: not found on PATH (install the valgrind package)");
		return -1;
	}
	struct build b = {
		.dir = xstrdup(build_dir),
		.out_dir = xasprintf("%s/out", build_dir),
	};
	int rc = 0;
	if (!is_dir(b.out_dir)) {
		sb_addf(err, "%s: the build is not in the cache (run the study again to rebuild it)",
			b.out_dir);
		rc = -1;
	} else {
		struct exec_result res;
		execute_run(&ctx, &b, run, in_dir, 1, NULL, NULL, &res);
		if (res.outcome != OUTCOME_OK) {
			sb_addf(err, "%s: the run failed before profiling: %s%s%s", b.out_dir,
				outcome_name(res.outcome), res.detail ? ": " : "",
				res.detail ? res.detail : "");
			rc = -1;
		} else if (!out->n) {
			sb_addf(err, "%s: the program failed under valgrind --tool=cachegrind (try it "
				     "by hand)", b.out_dir);
			rc = -1;
		}
		exec_result_release(&res);
	}
	free(b.dir);
	free(b.out_dir);
	return rc;
}
