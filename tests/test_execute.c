/*
 * test_execute.c - one measured run (execute_run): a recipe's tolerance
 * script judged on worker threads, as board runs are (explorer's crew: one
 * thread per board, each on its own build folder, all in one process).
 *
 * Expected: an output beyond the tolerance is WRONG_OUTPUT every time, and
 * one within it is OK every time, whatever the other threads do.  (When the
 * script went through the environment, one thread's unsetenv could hand
 * another's shell an empty script, which exits 0: a wrong output accepted.)
 *
 * And the runner hooks as execute_run calls them, with a test runner
 * forced through exec_ctx.runner: prepare's refusal is UNRUNNABLE with its
 * reason, diagnose's crash and where reach the detail ("on B: ..."), the
 * note stays on every outcome, and timed meters measure repetitions only.
 *
 * And ratio.NAME = A / B (recipe.h): a metric divided by another, both
 * printed by the run here (under QEMU, A is the meter's insns); a ratio
 * whose A was not measured is left out, never zero.
 *
 * And metrics are found in outputs read a chunk (1 MiB) of whole lines at
 * a time: a metric line across a chunk's end, after a line longer than a
 * chunk, on a last line without its newline, in stderr only; the first
 * matching line wins; none is RUN_FAILED.
 */
#include <pthread.h>
#include <sys/stat.h>

#include "harness/execute.h"
#include "tests/testlib.h"

#define NTHREADS 6
#define NRUNS 100

/* the near fixture's rule: the printed value may be off by at most 2 */
static const char near_tolerance[] =
	"got=$(awk '{print $2}' \"$RUN/stdout\"); want=$(awk '{print $2}' \"$REF/stdout\")\n"
	"d=$((got - want)); [ $d -lt 0 ] && d=$((-d))\n"
	"echo \"value off by $d (tolerance 2)\"\n"
	"[ $d -le 2 ]";

struct worker {
	pthread_t thread;
	char *dir;      /* the build folder, program in out/ */
	const char *ref;
	int value;      /* what the program prints; the reference says 0 */
	int wrong_ok;   /* runs accepted although beyond the tolerance */
	int right_bad;  /* runs rejected although within it */
	char *last;     /* the last detail */
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct recipe_run run = {.name = "", .args = "prog", .timeout = 30,
				 .tolerate = (char *)near_tolerance};
	struct build b = {.dir = w->dir, .out_dir = xasprintf("%s/out", w->dir)};
	struct exec_ctx ctx = {.runner = &runner_native};
	for (int i = 0; i < NRUNS; i++) {
		struct exec_result res;
		execute_run(&ctx, &b, &run, w->dir, 0, w->ref, NULL, &res);
		if (w->value > 2 && res.outcome == OUTCOME_OK)
			w->wrong_ok++;
		if (w->value <= 2 && res.outcome != OUTCOME_OK)
			w->right_bad++;
		free(w->last);
		w->last = xstrdup(res.detail ? res.detail : "");
		exec_result_release(&res);
	}
	free(b.out_dir);
	return NULL;
}

static void check_tolerance_threads(const char *dir)
{
	char *ref = xasprintf("%s/ref", dir);
	mkdir_p(ref, 0755);
	free(test_write(ref, "stdout", "value 0\n"));
	struct worker w[NTHREADS] = {{0}};
	for (int t = 0; t < NTHREADS; t++) {
		w[t].dir = xasprintf("%s/build%d", dir, t);
		w[t].ref = ref;
		w[t].value = t % 3 == 2 ? 1 : 10; /* a third within the tolerance */
		char *out = xasprintf("%s/out", w[t].dir);
		mkdir_p(out, 0755);
		char *text = xasprintf("#!/bin/sh\necho value %d\n", w[t].value);
		char *prog = test_write(out, "prog", text);
		chmod(prog, 0755);
		free(prog);
		free(text);
		free(out);
	}
	for (int t = 0; t < NTHREADS; t++)
		pthread_create(&w[t].thread, NULL, work, &w[t]);
	for (int t = 0; t < NTHREADS; t++)
		pthread_join(w[t].thread, NULL);
	for (int t = 0; t < NTHREADS; t++) {
		T_CHECK(!w[t].wrong_ok, "value %d: %d of %d wrong outputs accepted (last: %s)",
			w[t].value, w[t].wrong_ok, NRUNS, w[t].last);
		T_CHECK(!w[t].right_bad, "value %d: %d of %d good outputs rejected (last: %s)",
			w[t].value, w[t].right_bad, NRUNS, w[t].last);
		const char *want = w[t].value > 2 ? "beyond tolerance: value off by 10 (tolerance 2)"
						  : "within tolerance: value off by 1 (tolerance 2)";
		T_CHECK(strstr(w[t].last, want), "value %d: detail '%s'", w[t].value, w[t].last);
		free(w[t].dir);
		free(w[t].last);
	}
	free(ref);
}

/* the test runner: native, plus what its hooks are told to say */
static struct {
	int refuse;
	int prepared, diagnosed, released;
} fake;

static int fake_select(const struct run_job *job)
{
	(void)job;
	return 0;
}

static int fake_prepare(struct run_job *job, struct strbuf *why)
{
	fake.prepared++;
	if (fake.refuse) {
		sb_add(why, "no such board here");
		return 0;
	}
	job->note = xstrdup("a note");
	return 1;
}

static int fake_exec(const struct run_spec *spec, struct run_result *res, struct strbuf *err)
{
	return runner_native.exec(spec, res, err);
}

static void fake_diagnose(struct run_job *job, const struct run_result *rr)
{
	fake.diagnosed++;
	job->where = xstrdup("board7");
	if (rr && !rr->exited)
		job->crash = xasprintf("signal %d, explained", rr->signal);
}

static void fake_release(struct run_job *job)
{
	(void)job;
	fake.released++;
}

static const struct runner_ops runner_fake = {
	.name = "fake",
	.help = "a test runner",
	.select = fake_select,
	.prepare = fake_prepare,
	.exec = fake_exec,
	.diagnose = fake_diagnose,
	.release = fake_release,
};

/* A build folder DIR/NAME whose out/prog is the shell script SCRIPT. */
static struct build script_build(const char *dir, const char *name, const char *script)
{
	struct build b = {.dir = xasprintf("%s/%s", dir, name)};
	b.out_dir = xasprintf("%s/out", b.dir);
	mkdir_p(b.out_dir, 0755);
	char *prog = test_write(b.out_dir, "prog", script);
	chmod(prog, 0755);
	free(prog);
	return b;
}

static void script_build_release(struct build *b)
{
	free((char *)b->dir);
	free((char *)b->out_dir);
}

static void check_hooks(const char *dir)
{
	struct build b = script_build(dir, "hooks", "#!/bin/sh\n[ \"$1\" = die ] && kill -SEGV $$\necho ok\n");
	struct exec_ctx ctx = {.runner = &runner_fake,
			       .meters = {&meter_rusage}, .nmeters = 1};
	struct recipe_run good = {.name = "", .args = "prog", .timeout = 10};
	struct recipe_run bad = {.name = "", .args = "prog die", .timeout = 10};
	struct exec_result res;

	execute_run(&ctx, &b, &good, dir, 1, NULL, NULL, &res);
	T_CHECK(res.outcome == OUTCOME_OK && res.detail && !strcmp(res.detail, "on board7: a note"),
		"warm-up: %s '%s'", outcome_name(res.outcome), res.detail ? res.detail : "");
	T_CHECK(res.m.n == 0, "a timed meter measured the warm-up (%zu figures)", res.m.n);
	exec_result_release(&res);
	execute_run(&ctx, &b, &good, dir, 0, NULL, NULL, &res);
	int has_time = 0;
	for (size_t i = 0; i < res.m.n; i++)
		has_time |= !strcmp(res.m.v[i].name, "time");
	T_CHECK(res.outcome == OUTCOME_OK && has_time, "repetition: %s, time %d",
		outcome_name(res.outcome), has_time);
	exec_result_release(&res);
	execute_run(&ctx, &b, &bad, dir, 1, NULL, NULL, &res);
	T_CHECK(res.outcome == OUTCOME_CRASHED && res.detail &&
			!strcmp(res.detail, "on board7: signal 11, explained; a note"),
		"crash: %s '%s'", outcome_name(res.outcome), res.detail ? res.detail : "");
	exec_result_release(&res);
	fake.refuse = 1;
	execute_run(&ctx, &b, &good, dir, 1, NULL, NULL, &res);
	T_CHECK(res.outcome == OUTCOME_UNRUNNABLE && res.detail &&
			!strcmp(res.detail, "no such board here"),
		"refused: %s '%s'", outcome_name(res.outcome), res.detail ? res.detail : "");
	exec_result_release(&res);
	T_CHECK(fake.prepared == 4 && fake.diagnosed == 3 && fake.released == 4,
		"hooks called: prepare %d diagnose %d release %d", fake.prepared, fake.diagnosed,
		fake.released);
	script_build_release(&b);
}

static double figure(const struct exec_result *res, const char *name)
{
	for (size_t i = 0; i < res->m.n; i++)
		if (!strcmp(res->m.v[i].name, name))
			return res->m.v[i].value;
	return -1;
}

static void check_ratio(const char *dir)
{
	struct build b = script_build(dir, "ratio", "#!/bin/sh\necho 'requests: 4' >&2\necho 'work: 10' >&2\n");
	struct exec_ctx ctx = {.runner = &runner_native};
	struct recipe_metric m[] = {
		{.name = "requests", .regex = "^requests: ([0-9]+)", .unit = ""},
		{.name = "work", .regex = "^work: ([0-9]+)", .unit = ""},
		{.name = "work_per_request", .unit = "w/req", .ratio_of = "work", .ratio_by = "requests"},
		{.name = "insns_per_request", .unit = "", .ratio_of = "insns", .ratio_by = "requests"},
	};
	struct recipe_run run = {.name = "", .args = "prog", .timeout = 10, .metrics = m, .nmetrics = 4};
	struct exec_result res;
	execute_run(&ctx, &b, &run, dir, 0, NULL, NULL, &res);
	T_CHECK(res.outcome == OUTCOME_OK, "ratio run: %s '%s'", outcome_name(res.outcome),
		res.detail ? res.detail : "");
	T_CHECK(figure(&res, "work_per_request") == 2.5, "work_per_request = %g (want 10 / 4)",
		figure(&res, "work_per_request"));
	T_CHECK(figure(&res, "insns_per_request") == -1, "insns_per_request without insns: %g",
		figure(&res, "insns_per_request"));
	exec_result_release(&res);
	script_build_release(&b);
}

static void check_metric_scan(const char *dir)
{
	static const struct {
		const char *what, *script;
		double want; /* -1: not found, the run RUN_FAILED */
	} cases[] = {
		{"a last line without its newline", "printf 'a\\nv=7'", 7},
		{"after a line longer than a chunk",
		 "head -c 1572864 /dev/zero | tr '\\0' x; printf '\\nv=8\\n'", 8},
		{"a line across a chunk's end",
		 "head -c 1048574 /dev/zero | tr '\\0' x; printf '\\nv=6\\n'", 6},
		{"in stderr only", "echo v=3 >&2", 3},
		{"the first matching line", "printf 'v=1\\nv=2\\n'; echo v=4 >&2", 1},
		{"nowhere", "echo w=1", -1},
	};
	struct recipe_metric m[] = {{.name = "v", .regex = "^v=([0-9]+)$", .unit = ""}};
	struct recipe_run run = {.name = "", .args = "prog", .timeout = 10, .metrics = m, .nmetrics = 1};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *script = xasprintf("#!/bin/sh\n%s\n", cases[i].script);
		struct build b = script_build(dir, "scan", script);
		struct exec_ctx ctx = {.runner = &runner_native};
		struct exec_result res;
		execute_run(&ctx, &b, &run, dir, 0, NULL, NULL, &res);
		enum outcome want = cases[i].want < 0 ? OUTCOME_RUN_FAILED : OUTCOME_OK;
		T_CHECK(res.outcome == want && figure(&res, "v") == cases[i].want,
			"%s: %s '%s', v = %g (want %g)", cases[i].what, outcome_name(res.outcome),
			res.detail ? res.detail : "", figure(&res, "v"), cases[i].want);
		exec_result_release(&res);
		script_build_release(&b);
		free(script);
	}
}

int main(void)
{
	char *dir = test_tmpdir("execute");
	check_tolerance_threads(dir);
	check_hooks(dir);
	check_ratio(dir);
	check_metric_scan(dir);
	free(dir);
	return test_summary("test_execute");
}
