/*
 * test_pivot_sweep.c - analysis/pivot_sweep: the archive sweep table on a
 * synthetic study stored through the store API (baseline O2, then O3,
 * fast-math, lto).  Expected cells:
 *   pkga: O2 tests passed (tests.time 10 s, a metric of the build as
 *     system = debian stores it; text 1000 B); O3 tests passed
 *     (9 s: -10.0%, 1200 B: +20.0%); fast-math tests failed as the build's
 *     outcome ("tests failed: test_nan test_inf", as harness/debpkg.c words it); lto build failed, first error
 *     line only ("lto1: internal compiler error");
 *   pkgb: built, no test suite, everywhere it was tried; lto not tried;
 *   pkgc: its test suite a run section "check": O2 passed, fast-math
 *     tests_failed as the run's outcome ("t_exp");
 *   bench: [run] results: O2 ok, O3 wrong_output, others ok;
 *   pkgd: flags_not_applied under fast-math, not tried elsewhere: counted
 *     as ended otherwise, not as a failed build.
 * Summary, fast-math: 3 built (pkga's tests failed but it built), 0
 * passed tests, 2 failed tests, 0 failed to build.
 */
#include "analysis/pivot_sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/synthdb.h"
#include "tests/testlib.h"

static const char *const labels[] = {"O2", "O3", "fast-math", "lto"};
static const char *const cflags[] = {"-O2", "-O3", "-O2 -ffast-math", "-O2 -flto=auto"};

/* A build; its test step's time (tests.time, tests > 0) a metric of the
 * build, as system = debian stores it */
static void build_tested(struct store *st, const char *label, const char *w, const char *status,
			 const char *detail, double text, double tests)
{
	struct store_build b = {
		.study = "s", .config_id = synth_id(label), .workload = w, .key = "k",
		.status = status, .detail = detail, .facts = "[]", .seconds = 1,
	};
	store_put_build(st, &b);
	struct store_metric m[] = {{"size.text", text, "B"}, {SWEEP_TESTS_METRIC, tests, "s"}};
	if (text > 0)
		store_put_build_sizes(st, "s", synth_id(label), w, m, tests > 0 ? 2 : 1);
}

static void build(struct store *st, const char *label, const char *w, const char *status,
		  const char *detail, double text)
{
	build_tested(st, label, w, status, detail, text, 0);
}

static void tests_run(struct store *st, const char *label, const char *w, const char *run,
		      const char *status, const char *detail, double secs)
{
	struct store_metric m = {SWEEP_TESTS_METRIC, secs, "s"};
	store_put_run(st, "s", synth_id(label), w, run, 1, status, detail, secs > 0 ? &m : NULL,
		      secs > 0);
}

static void make_study(struct store *st, const char *dir)
{
	synth_open(st, dir, "sweep.db", "s", "time", labels, cflags, 4);
	build_tested(st, "O2", "pkga", "ok", "", 1000, 10);
	build_tested(st, "O3", "pkga", "ok", "", 1200, 9);
	build(st, "fast-math", "pkga", "tests_failed", "tests failed: test_nan test_inf", 1100);
	build(st, "lto", "pkga", "build_failed",
	      "lto1: internal compiler error\nmake[1]: *** [Makefile:12: all] Error 1", 0);
	for (size_t i = 0; i < 3; i++)
		build(st, labels[i], "pkgb", "ok", "no test suite", 500);
	for (size_t i = 0; i < 4; i++)
		build(st, labels[i], "pkgc", "ok", "", 300);
	tests_run(st, "O2", "pkgc", "check", "ok", "", 4);
	tests_run(st, "O3", "pkgc", "check", "ok", "", 4);
	tests_run(st, "fast-math", "pkgc", "check", "tests_failed", "t_exp", 0);
	tests_run(st, "lto", "pkgc", "check", "ok", "", 4.4);
	build(st, "fast-math", "pkgd", "flags_not_applied", "pkgd: unit a.c: -ffast-math expected, "
	      "absent", 0);
	for (size_t i = 0; i < 4; i++)
		synth_item(st, "s", labels[i], "bench", i == 1 ? "wrong_output" : "ok", "time", "s",
			   1.0, 0.01, 3, 800, i + 1);
}

static char *print(const struct sweep_table *t, const char *format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	T_CHECK(!sweep_table_print(f, t, format), "format %s", format);
	fclose(f);
	return buf;
}

static const struct sweep_cell *cell(const struct sweep_table *t, const char *w, size_t k)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (!strcmp(t->rows[r].workload, w))
			return &t->rows[r].cells[k];
	return NULL;
}

static const struct {
	const char *workload;
	size_t col;
	const char *word, *key, *detail;
} cases[] = {
	{"pkga", 0, "tests passed", "tests_passed", ""},
	{"pkga", 1, "tests passed", "tests_passed", ""},
	{"pkga", 2, "tests failed", "tests_failed", "tests failed: test_nan test_inf"},
	{"pkga", 3, "build failed", "build_failed", "lto1: internal compiler error"},
	{"pkgb", 0, "built", "built", "no test suite"},
	{"pkgb", 2, "built", "built", "no test suite"},
	{"pkgb", 3, "not tried", "not_tried", ""},
	{"pkgc", 0, "tests passed", "tests_passed", ""},
	{"pkgc", 2, "tests failed", "tests_failed", "t_exp"},
	{"pkgc", 3, "tests passed", "tests_passed", ""},
	{"bench", 0, "ok", "ok", ""},
	{"bench", 1, "wrong_output", "wrong_output", "output differs from the reference at byte 4"},
};

static void test_cells(const struct sweep_table *t)
{
	T_CHECK(t->ncols == 4 && !strcmp(t->labels[0], "O2") && !strcmp(t->labels[3], "lto"),
		"columns %zu", t->ncols);
	T_CHECK(t->nrows == 5, "rows %zu", t->nrows);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct sweep_cell *c = cell(t, cases[i].workload, cases[i].col);
		T_CHECK(c && !strcmp(sweep_cell_word(c), cases[i].word) &&
				!strcmp(sweep_cell_key(c), cases[i].key) &&
				!strcmp(c->detail, cases[i].detail),
			"%s %s: %s / %s (%s)", cases[i].workload, labels[cases[i].col],
			c ? sweep_cell_word(c) : "no cell", c ? sweep_cell_key(c) : "",
			c ? c->detail : "");
	}
	const struct sweep_cell *a3 = cell(t, "pkga", 1);
	T_CHECK(fabs(a3->size_pct - 20.0) < 1e-9 && fabs(a3->tests_pct + 10.0) < 1e-9,
		"pkga O3 text %+.3f%% tests %+.3f%%", a3->size_pct, a3->tests_pct);
	T_CHECK(isnan(cell(t, "pkga", 0)->size_pct) && isnan(cell(t, "pkga", 2)->tests_pct) &&
			isnan(cell(t, "pkga", 3)->size_pct),
		"the baseline, a failed suite and a failed build have no change");
	T_CHECK(fabs(cell(t, "pkga", 2)->size_pct - 10.0) < 1e-9, "a failed suite still built");
	T_CHECK(fabs(cell(t, "pkgc", 3)->tests_pct - 10.0) < 1e-9, "pkgc lto tests %+.3f%%",
		cell(t, "pkgc", 3)->tests_pct);
	T_CHECK(cell(t, "bench", 0)->ran && !cell(t, "pkga", 0)->ran, "[run] results are told");
	const struct sweep_summary *fm = &t->summary[2], *lto = &t->summary[3];
	T_CHECK(fm->built == 4 && fm->tests_passed == 0 && fm->tests_failed == 2 &&
			fm->build_failed == 0 && fm->other == 1,
		"fast-math: %zu built %zu passed %zu failed %zu build failed %zu other", fm->built,
		fm->tests_passed, fm->tests_failed, fm->build_failed, fm->other);
	T_CHECK(lto->built == 2 && lto->tests_passed == 1 && lto->build_failed == 1 &&
			lto->not_tried == 2,
		"lto: %zu built %zu passed %zu build failed %zu not tried", lto->built,
		lto->tests_passed, lto->build_failed, lto->not_tried);
	T_CHECK(t->summary[1].other == 1, "O3: bench's wrong output counted apart");
}

static void test_formats(const struct sweep_table *t)
{
	char *txt = print(t, "table"), *csv = print(t, "csv"), *json = print(t, "json");
	T_CHECK(strstr(txt, "tests failed") && strstr(txt, "build failed") &&
			strstr(txt, "not tried") && strstr(txt, "+20.0%") && strstr(txt, "-10.0%"),
		"table cells:\n%s", txt);
	T_CHECK(strstr(txt, "pkga, lto: build failed: lto1: internal compiler error\n") &&
			!strstr(txt, "Error 1"),
		"the first error line only:\n%s", txt);
	T_CHECK(strstr(txt, "pkga, fast-math: tests failed: test_nan test_inf\n"),
		"the harness's detail names the outcome itself: said once:\n%s", txt);
	T_CHECK(strstr(txt, "fast-math: 4 built, 0 passed tests, 2 failed tests, 0 failed to build"),
		"summary line:\n%s", txt);
	T_CHECK(strstr(csv, "\"s\",\"pkga\",\"fast-math\",\"O2\",\"-O2 -ffast-math\","
			    "\"tests_failed\",\"tests failed: test_nan test_inf\",1100,10,,,\"s\"\n"),
		"csv cell:\n%s", csv);
	T_CHECK(strstr(csv, "\"pkgb\",\"lto\",\"O2\",\"-O2 -flto=auto\",\"not_tried\",\"\",,,,,\"s\"\n"), "csv not tried:\n%s",
		csv);
	T_CHECK(strstr(csv, "\"\",\"lto\",\"O2\",\"-O2 -flto=auto\",\"summary\",\"2 built, 1 "
			    "passed tests, 0 failed tests, 1 failed to build, 2 not tried\",,,,,\n"),
		"csv summary:\n%s", csv);
	T_CHECK(strstr(json, "\"pivot\":\"sweep\"") &&
			strstr(json, "{\"config\":\"lto\",\"result\":\"build_failed\",\"detail\":"
				     "\"lto1: internal compiler error\"") &&
			strstr(json, "\"summary\":{\"built\":4,\"tests_passed\":0,\"tests_failed\":2,"
				     "\"build_failed\":0"),
		"json:\n%s", json);
	free(txt);
	free(csv);
	free(json);
}

/* A package with [run] benchmarks and its test suite's time stored with
 * the build (system = debian with a recipe's [run]): the cell is its
 * [run]'s outcome (ok, not "tests passed": the benchmark ran), the tests
 * column its suite's time all the same (12 s against 10 s: +20.0%). */
static void test_run_and_suite(const char *dir)
{
	struct store st;
	struct strbuf err = {0};
	struct sweep_table t;
	synth_open(&st, dir, "both.db", "s", "time", labels, cflags, 2);
	for (size_t i = 0; i < 2; i++) {
		synth_run(&st, "s", labels[i], "pkge", "speed", "ok", NULL, "time", "s", 1.0, 0.01, 3,
			  800, 10 + i);
		struct store_metric m = {SWEEP_TESTS_METRIC, i ? 12 : 10, "s"};
		store_put_build_sizes(&st, "s", synth_id(labels[i]), "pkge", &m, 1);
	}
	T_CHECK(!sweep_table_compute(&st, "s", NULL, &t, &err), "%s", sb_str(&err));
	const struct sweep_cell *b = cell(&t, "pkge", 0), *o3 = cell(&t, "pkge", 1);
	T_CHECK(b && o3 && b->ran && o3->ran && !strcmp(sweep_cell_key(b), "ok") &&
			!strcmp(sweep_cell_key(o3), "ok") && b->tests == 10 &&
			fabs(o3->tests_pct - 20.0) < 1e-9,
		"pkge: %s (ran %d, tests %g) / %s (tests %+.3f%%)", b ? sweep_cell_key(b) : "-",
		b ? b->ran : -1, b ? b->tests : NAN, o3 ? sweep_cell_key(o3) : "-",
		o3 ? o3->tests_pct : NAN);
	T_CHECK(t.summary[0].tests_passed == 1, "its suite passed: %zu", t.summary[0].tests_passed);
	sweep_table_release(&t);
	sb_release(&err);
	store_close(&st);
}

/* A package that fails at the baseline too (sed's tests as root; a
 * package that does not build at Debian's own flags):
 *   sed: O2 tests failed (panic-tests follow-symlinks); O3 the same two
 *     (as baseline); fast-math those and misc-nan (tests failed, the
 *     detail naming misc-nan alone); lto build failed (new: the baseline
 *     built);
 *   gzip: O2 build failed; O3 build failed, fast-math tests failed (both
 *     as baseline: the baseline never got to its tests);
 *   mute: O2 tests failed naming no test, O3 naming one (as baseline:
 *     nothing says O3 broke more).
 * Summary, O3: 0 failed tests, 0 failed to build, 3 fail at the baseline
 * too; fast-math: 1 failed tests, 1 at the baseline. */
static void test_fails_at_baseline(const char *dir)
{
	struct store st;
	struct strbuf err = {0};
	struct sweep_table t;
	synth_open(&st, dir, "basefails.db", "s", "time", labels, cflags, 4);
	const char *sed2 = "tests failed: panic-tests follow-symlinks | log: /c/sed/tests.log";
	build(&st, "O2", "sed", "tests_failed", sed2, 900);
	build(&st, "O3", "sed", "tests_failed",
	      "tests failed: follow-symlinks panic-tests | log: /c/sed/tests.log", 950);
	build(&st, "fast-math", "sed", "tests_failed",
	      "tests failed: panic-tests misc-nan follow-symlinks | log: /c/sed/tests.log", 900);
	build(&st, "lto", "sed", "build_failed", "lto1: internal compiler error", 0);
	build(&st, "O2", "gzip", "build_failed", "gzip.c:1: error: x", 0);
	build(&st, "O3", "gzip", "build_failed", "gzip.c:1: error: x", 0);
	build(&st, "fast-math", "gzip", "tests_failed", "tests failed: t1 | log: /c/g.log", 700);
	build(&st, "O2", "mute", "tests_failed", "tests failed (exit status 2; the log names no "
	      "failing test) | log: /c/m.log", 500);
	build(&st, "O3", "mute", "tests_failed", "tests failed: t9 | log: /c/m.log", 500);
	T_CHECK(!sweep_table_compute(&st, "s", NULL, &t, &err), "%s", sb_str(&err));
	static const struct {
		const char *workload;
		size_t col;
		const char *key, *detail;
	} want[] = {
		{"sed", 0, "tests_failed", "tests failed: panic-tests follow-symlinks | log: "
					   "/c/sed/tests.log"},
		{"sed", 1, "as_baseline", "fails at the baseline too (tests_failed: tests failed: "
					  "follow-symlinks panic-tests | log: /c/sed/tests.log)"},
		{"sed", 2, "tests_failed", "tests failed: misc-nan (panic-tests follow-symlinks fail "
					   "at the baseline too) | log: /c/sed/tests.log"},
		{"sed", 3, "build_failed", "lto1: internal compiler error"},
		{"gzip", 1, "as_baseline", "fails at the baseline too (build_failed: gzip.c:1: "
					   "error: x)"},
		{"gzip", 2, "as_baseline", "fails at the baseline too (tests_failed: tests failed: "
					   "t1 | log: /c/g.log)"},
		{"mute", 1, "as_baseline", "fails at the baseline too (tests_failed: tests failed: "
					   "t9 | log: /c/m.log)"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct sweep_cell *c = cell(&t, want[i].workload, want[i].col);
		T_CHECK(c && !strcmp(sweep_cell_key(c), want[i].key) &&
				!strcmp(c->detail, want[i].detail),
			"%s %s: %s (%s)", want[i].workload, labels[want[i].col],
			c ? sweep_cell_key(c) : "no cell", c ? c->detail : "");
	}
	const struct sweep_summary *o3 = &t.summary[1], *fm = &t.summary[2];
	T_CHECK(o3->tests_failed == 0 && o3->build_failed == 0 && o3->at_baseline == 3 &&
			fm->tests_failed == 1 && fm->at_baseline == 1,
		"O3: %zu failed tests, %zu failed to build, %zu at the baseline; fast-math: %zu "
		"failed tests, %zu at the baseline", o3->tests_failed, o3->build_failed,
		o3->at_baseline, fm->tests_failed, fm->at_baseline);
	char *txt = print(&t, "table"), *json = print(&t, "json");
	T_CHECK(strstr(txt, "as baseline") &&
			strstr(txt, "O3: 2 built, 0 passed tests, 0 failed tests, 0 failed to "
				    "build, 3 fail at the baseline too") &&
			strstr(txt, "sed, O3: fails at the baseline too (tests_failed: "),
		"table:\n%s", txt);
	T_CHECK(strstr(json, "\"result\":\"as_baseline\"") && strstr(json, "\"at_baseline\":3"),
		"json:\n%s", json);
	free(txt);
	free(json);
	sweep_table_release(&t);
	sb_release(&err);
	store_close(&st);
}

int main(void)
{
	char *dir = test_tmpdir("pivot_sweep");
	struct store st;
	make_study(&st, dir);
	struct sweep_table t;
	struct strbuf err = {0};
	T_CHECK(!sweep_table_compute(&st, "s", NULL, &t, &err), "%s", sb_str(&err));
	test_cells(&t);
	test_formats(&t);
	sweep_table_release(&t);
	T_CHECK(!sweep_table_compute(&st, "s", "pkgb", &t, &err) && t.nrows == 1,
		"one package: %zu rows", t.nrows);
	sweep_table_release(&t);
	sb_release(&err);
	T_CHECK(sweep_table_compute(&st, "s", "nope", &t, &err) && strstr(sb_str(&err), "nope"),
		"an unknown package: %s", sb_str(&err));
	sweep_table_release(&t);
	sb_release(&err);
	store_close(&st);
	test_run_and_suite(dir);
	test_fails_at_baseline(dir);
	remove_tree(dir);
	free(dir);
	return test_summary("test_pivot_sweep");
}
