/*
 * test_execute.c - one measured run (execute_run): a recipe's tolerance
 * script judged on worker threads, as board runs are (explorer's crew: one
 * thread per board, each on its own build folder, all in one process).
 *
 * Expected: an output beyond the tolerance is WRONG_OUTPUT every time, and
 * one within it is OK every time, whatever the other threads do.  (When the
 * script went through the environment, one thread's unsetenv could hand
 * another's shell an empty script, which exits 0: a wrong output accepted.)
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
	struct exec_ctx ctx = {.runner = &runner_native, .pin_cpu = -1};
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

int main(void)
{
	char *dir = test_tmpdir("execute");
	check_tolerance_threads(dir);
	free(dir);
	return test_summary("test_execute");
}
