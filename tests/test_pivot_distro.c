/*
 * test_pivot_distro.c - analysis/pivot_distro: the distribution rebuild
 * table on a synthetic study (baseline x86-64 O2).  Expected:
 *   w1 (two runs) at O3: 10% less time in both runs -> about -10%,
 *     significant; its .text 1000 -> 1250 B -> +25.0% exactly;
 *   w2 at O3: 0.2% slower, within noise -> not significant (~);
 *   w2 at x86-64-v3 O2: build failed -> the outcome, no numbers;
 *   one run of each side -> untested (?), never significant.
 */
#include "analysis/pivot_distro.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/synthdb.h"
#include "tests/testlib.h"

static const char *const labels[] = {"x86-64 O2", "x86-64 O3", "x86-64-v3 O2"};
static const char *const cflags[] = {"-march=x86-64 -O2", "-march=x86-64 -O3",
				     "-march=x86-64-v3 -O2"};

static void make_study(struct store *st, const char *dir, size_t reps)
{
	synth_open(st, dir, "distro.db", "d", "time", labels, cflags, 3);
	synth_run(st, "d", labels[0], "w1", "a", "ok", NULL, "time", "s", 1.0, 0.004, reps, 1000, 1);
	synth_run(st, "d", labels[0], "w1", "b", "ok", NULL, "time", "s", 2.0, 0.004, reps, 1000, 2);
	synth_item(st, "d", labels[0], "w2", "ok", "time", "s", 3.0, 0.004, reps, 500, 3);
	synth_run(st, "d", labels[1], "w1", "a", "ok", NULL, "time", "s", 0.9, 0.004, reps, 1250, 4);
	synth_run(st, "d", labels[1], "w1", "b", "ok", NULL, "time", "s", 1.8, 0.004, reps, 1250, 5);
	synth_item(st, "d", labels[1], "w2", "ok", "time", "s", 3.006, 0.004, reps, 520, 6);
	synth_run(st, "d", labels[2], "w1", "a", "ok", NULL, "time", "s", 1.0, 0.004, reps, 990, 7);
	synth_run(st, "d", labels[2], "w1", "b", "ok", NULL, "time", "s", 2.0, 0.004, reps, 990, 8);
	synth_build_failed(st, "d", labels[2], "w2", "ld: cannot find -lfoo");
}

static char *print(const struct distro_table *t, const char *format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	T_CHECK(!distro_table_print(f, t, format), "format %s", format);
	fclose(f);
	return buf;
}

static void test_table(const char *dir)
{
	struct store st;
	make_study(&st, dir, 12);
	struct distro_table t;
	struct strbuf err = {0};
	T_CHECK(!distro_table_compute(&st, "d", NULL, NULL, &t, &err), "%s", sb_str(&err));
	T_CHECK(t.ncols == 2 && !strcmp(t.baseline, "x86-64 O2"), "columns %zu", t.ncols);
	T_CHECK(t.nrows == 2 && !strcmp(t.rows[0].workload, "w1"), "rows %zu", t.nrows);
	const struct distro_cell *o3w1 = &t.rows[0].cells[0], *o3w2 = &t.rows[1].cells[0];
	const struct distro_cell *v3w2 = &t.rows[1].cells[1];
	T_CHECK(fabs(o3w1->pct + 10) < 1 && o3w1->time.nruns == 2, "w1 O3 %.2f%% over %zu runs",
		o3w1->pct, o3w1->time.nruns);
	T_CHECK(o3w1->time.verdict == VERDICT_IMPROVED && o3w1->hi_pct < 0,
		"w1 O3 significant: %s [%.2f, %.2f]", verdict_name(o3w1->time.verdict),
		o3w1->lo_pct, o3w1->hi_pct);
	T_CHECK(fabs(o3w1->size_pct - 25.0) < 1e-9, "w1 O3 size %+.3f%%", o3w1->size_pct);
	T_CHECK(fabs(o3w2->size_pct - 4.0) < 1e-9, "w2 O3 size %+.3f%%", o3w2->size_pct);
	T_CHECK(o3w2->time.verdict == VERDICT_UNCHANGED && fabs(o3w2->pct) < 1,
		"w2 O3 not significant: %s %.2f%%", verdict_name(o3w2->time.verdict), o3w2->pct);
	T_CHECK(v3w2->time.status == OUTCOME_BUILD_FAILED && isnan(v3w2->pct) &&
			isnan(v3w2->size_pct) && strstr(v3w2->time.detail, "-lfoo"),
		"w2 v3 %s %s", outcome_name(v3w2->time.status), v3w2->time.detail);
	/* geomean row: O3 over w1 and w2, v3 over w1 only (w2 failed) */
	double g = 100 * (sqrt((1 + o3w1->pct / 100) * (1 + o3w2->pct / 100)) - 1);
	T_CHECK(t.summary[0].n == 2 && fabs(t.summary[0].pct - g) < 1e-9 &&
			fabs(t.summary[0].size_pct - 100 * (sqrt(1.25 * 1.04) - 1)) < 1e-9,
		"O3 geomean %.3f%% (want %.3f%%) size %.3f%% over %zu", t.summary[0].pct, g,
		t.summary[0].size_pct, t.summary[0].n);
	T_CHECK(t.summary[1].n == 1 && fabs(t.summary[1].size_pct + 1.0) < 1e-9,
		"v3 geomean over %zu rows, size %.3f%%", t.summary[1].n, t.summary[1].size_pct);
	char *txt = print(&t, "table"), *csv = print(&t, "csv"), *json = print(&t, "json");
	char want[32];
	snprintf(want, sizeof(want), "%+.1f%%    +25.0%%", o3w1->pct);
	T_CHECK(strstr(txt, want) && strstr(txt, "%~") &&
			strstr(txt, "build_failed"), "table:\n%s", txt);
	T_CHECK(strstr(csv, "\"w1\",\"x86-64 O3\"") && strstr(csv, ",1,improved,0,2,1250,1000,25"),
		"csv:\n%s", csv);
	/* the text table's geomean row, in CSV too: one row per configuration */
	char gm[160];
	snprintf(gm, sizeof(gm), "\n\"d\",\"geomean\",\"x86-64 O3\",\"x86-64 O2\",\"time\",\"s\","
		 "%.9g,,,,,,,,,%.9g,ok,\"geometric mean of 2 ok rows\",", t.summary[0].pct,
		 t.summary[0].size_pct);
	T_CHECK(strstr(csv, gm) && strstr(csv, "\"geometric mean of 1 ok rows\""),
		"csv geomean rows (want %s):\n%s", gm, csv);
	T_CHECK(strstr(json, "\"size_text_pct\":25") && strstr(json, "\"significant\":false"),
		"json:\n%s", json);
	free(txt);
	free(csv);
	free(json);
	distro_table_release(&t);
	/* a selector names the workload: one row */
	T_CHECK(!distro_table_compute(&st, "d", "w2", NULL, &t, &err), "%s", sb_str(&err));
	T_CHECK(t.nrows == 1 && !strcmp(t.rows[0].workload, "w2"), "selector rows %zu", t.nrows);
	distro_table_release(&t);
	store_close(&st);
	sb_release(&err);
}

static void test_one_run_untested(const char *dir)
{
	struct store st;
	make_study(&st, dir, 1);
	struct distro_table t;
	struct strbuf err = {0};
	T_CHECK(!distro_table_compute(&st, "d", NULL, NULL, &t, &err), "%s", sb_str(&err));
	const struct distro_cell *c = &t.rows[0].cells[0];
	T_CHECK(c->time.untested && c->time.verdict == VERDICT_UNCHANGED,
		"one run: untested %d %s", c->time.untested, verdict_name(c->time.verdict));
	char *txt = print(&t, "table");
	T_CHECK(strstr(txt, "%?"), "table:\n%s", txt);
	T_CHECK(!strstr(txt, "trained on"), "no profile-guided build, no training line:\n%s", txt);
	free(txt);
	distro_table_release(&t);
	/* a profile-guided study says which training run each profile came from */
	store_put_fact(&st, "d", "pgo.train.w1", "[train] w1 small; measured: [run] w1 big");
	T_CHECK(!distro_table_compute(&st, "d", NULL, NULL, &t, &err), "%s", sb_str(&err));
	txt = print(&t, "table");
	T_CHECK(strstr(txt, "trained on another input than the measured runs:\n  w1: [train] w1 "
			    "small; measured: [run] w1 big\n"), "table:\n%s", txt);
	free(txt);
	txt = print(&t, "json");
	T_CHECK(strstr(txt, "\"pgo_train\":[\"w1: [train] w1 small; measured: [run] w1 big\"]"),
		"json:\n%s", txt);
	free(txt);
	distro_table_release(&t);
	T_CHECK(distro_table_compute(&st, "nope", NULL, NULL, &t, &err) && *sb_str(&err),
		"unknown study accepted");
	distro_table_release(&t);
	store_close(&st);
	sb_release(&err);
}

/* a study of its baseline alone has no column: refused, not an empty table */
/* each configuration's flags said once (a label alone did not say what
 * was built), a profile-guided one marked, and the sub-columns named by
 * the metric shown (they said "time" for any metric) */
static void test_flags_pgo_metric(const char *dir)
{
	struct store st;
	make_study(&st, dir, 12);
	T_CHECK(sqlite3_exec(st.db, "UPDATE configs SET pgo=1 WHERE label='x86-64 O3'", NULL, NULL,
			     NULL) == SQLITE_OK, "set pgo");
	struct distro_table t;
	struct strbuf err = {0};
	T_CHECK(!distro_table_compute(&st, "d", NULL, NULL, &t, &err), "%s", sb_str(&err));
	char *txt = print(&t, "table"), *csv = print(&t, "csv"), *json = print(&t, "json");
	T_CHECK(strstr(txt, "\nflags:\n  x86-64 O2 (baseline): -march=x86-64 -O2\n"
			    "  x86-64 O3: -march=x86-64 -O3, profile-guided (pgo gen-use: "
			    "-fprofile-generate, a training run, -fprofile-use)\n"
			    "  x86-64-v3 O2: -march=x86-64-v3 -O2\n"),
		"table flags:\n%s", txt);
	T_CHECK(strstr(txt, "\n          time     text"),
		"time sub-columns:\n%s", txt);
	T_CHECK(strstr(csv, ",status,detail,cflags,baseline_cflags,pgo\n") &&
			strstr(csv, ",\"-march=x86-64 -O3\",\"-march=x86-64 -O2\",1\n") &&
			strstr(csv, ",\"-march=x86-64-v3 -O2\",\"-march=x86-64 -O2\",0\n"),
		"csv:\n%s", csv);
	T_CHECK(strstr(json, "\"baseline_cflags\":\"-march=x86-64 -O2\"") &&
			strstr(json, "{\"config\":\"x86-64 O3\",\"cflags\":\"-march=x86-64 -O3\","
				     "\"pgo\":true}"),
		"json:\n%s", json);
	free(txt);
	free(csv);
	free(json);
	distro_table_release(&t);
	/* another metric: its name heads the sub-columns */
	T_CHECK(!distro_table_compute(&st, "d", "size.text", NULL, &t, &err), "%s", sb_str(&err));
	txt = print(&t, "table");
	T_CHECK(strstr(txt, "size.text text") && !strstr(txt, " time "),
		"size.text sub-columns:\n%s", txt);
	free(txt);
	distro_table_release(&t);
	store_close(&st);
	sb_release(&err);
}

static void test_baseline_alone(const char *dir)
{
	static const char *const one[] = {"x86-64 O2"};
	struct store st;
	synth_open(&st, dir, "alone.db", "a", "time", one, NULL, 1);
	synth_item(&st, "a", one[0], "w1", "ok", "time", "s", 1.0, 0.01, 5, 1000, 1);
	struct distro_table t;
	struct strbuf err = {0};
	T_CHECK(distro_table_compute(&st, "a", NULL, NULL, &t, &err) &&
			strstr(sb_str(&err), "study 'a' has one configuration, its baseline x86-64 O2"),
		"baseline alone: '%s'", sb_str(&err));
	distro_table_release(&t);
	store_close(&st);
	sb_release(&err);
}

int main(void)
{
	char *dir = test_tmpdir("test_pivot_distro");
	test_table(dir);
	test_one_run_untested(dir);
	test_baseline_alone(dir);
	test_flags_pgo_metric(dir);
	free(dir);
	return test_summary("test_pivot_distro");
}
