/*
 * test_compare.c - analysis/compare on synthetic databases: a planted 5%
 * regression is REGRESSED and a planted null difference UNCHANGED (two
 * databases paired by label); an improvement, a higher-is-better metric, a
 * difference below the minimum effect, exact size metrics, an item that
 * now gives wrong output, two labels of one database, an item that worked
 * and now is unsupported (UNSUPPORTED, not REGRESSED) beside one that now
 * fails to build (REGRESSED), and the errors.
 */
#include "analysis/compare.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/synthdb.h"
#include "tests/testlib.h"

static const char *const labels[] = {"gcc O2", "gcc O3"};

static const struct compare_line *find(const struct compare_result *r, const char *config,
				       const char *item, const char *metric)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].config, config) && !strcmp(r->v[i].item, item) &&
		    !strcmp(r->v[i].metric, metric))
			return &r->v[i];
	return NULL;
}

/* res printed in format fmt; heap */
static char *printed(const struct compare_result *res, const char *fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	compare_print(f, res, fmt);
	fclose(f);
	return buf;
}

/* old.db and new.db: the same study; in new, "gcc O2" is 5% slower on
 * "slow" and unchanged on "same" (fresh draws from the same distribution);
 * "gcc O3" is 5% faster on "slow" and gives wrong output on "same". */
static void make_databases(const char *dir, struct store *old, struct store *new)
{
	synth_open(old, dir, "old.db", "s", "time", labels, NULL, 2);
	synth_open(new, dir, "new.db", "s", "time", labels, NULL, 2);
	for (size_t c = 0; c < 2; c++) {
		synth_item(old, "s", labels[c], "slow", "ok", "time", "s", 1.0, 0.01, 12, 1000, 1 + c);
		synth_item(old, "s", labels[c], "same", "ok", "time", "s", 2.0, 0.01, 12, 500, 3 + c);
	}
	synth_item(new, "s", "gcc O2", "slow", "ok", "time", "s", 1.05, 0.01, 12, 1000, 11);
	synth_item(new, "s", "gcc O2", "same", "ok", "time", "s", 2.0, 0.01, 12, 500, 12);
	synth_item(new, "s", "gcc O3", "slow", "ok", "time", "s", 0.95, 0.01, 12, 1100, 13);
	synth_item(new, "s", "gcc O3", "same", "wrong_output", "time", "s", 2.0, 0.01, 12, 500, 14);
}

static void test_two_databases(const char *dir)
{
	struct store old, new;
	make_databases(dir, &old, &new);
	struct compare_result res;
	struct strbuf err = {0};
	struct strlist metrics = {0};
	sl_push(&metrics, "time");
	sl_push(&metrics, "size.text");
	T_CHECK(!compare_databases(&old, &new, "s", &metrics, NULL, &res, &err), "%s", sb_str(&err));
	T_CHECK(res.n == 2 * 2 * 2, "lines %zu", res.n);

	const struct compare_line *l = find(&res, "gcc O2", "slow", "time");
	T_CHECK(l && l->verdict == VERDICT_REGRESSED, "planted 5%% regression: %s",
		l ? verdict_name(l->verdict) : "missing");
	T_CHECK(l && l->c.ratio > 1.03 && l->c.ratio < 1.07, "ratio %g", l ? l->c.ratio : NAN);
	T_CHECK(l && l->c.lo > 1 && l->c.lo <= l->c.ratio && l->c.ratio <= l->c.hi,
		"interval [%g, %g]", l ? l->c.lo : NAN, l ? l->c.hi : NAN);
	T_CHECK(l && l->c.p < 0.001, "p %g", l ? l->c.p : NAN);
	T_CHECK(l && l->c.na == 12 && l->c.nb == 12, "counts");

	l = find(&res, "gcc O2", "same", "time");
	T_CHECK(l && l->verdict == VERDICT_UNCHANGED && !l->incomplete, "planted null: %s",
		l ? verdict_name(l->verdict) : "missing");
	T_CHECK(l && l->c.lo < 1 && l->c.hi > 1, "null interval [%g, %g] holds 1",
		l ? l->c.lo : NAN, l ? l->c.hi : NAN);
	T_CHECK(l && l->c.p > 0.05, "null p %g", l ? l->c.p : NAN);

	l = find(&res, "gcc O3", "slow", "time");
	T_CHECK(l && l->verdict == VERDICT_IMPROVED, "5%% faster: %s",
		l ? verdict_name(l->verdict) : "missing");
	l = find(&res, "gcc O3", "same", "time");
	T_CHECK(l && l->verdict == VERDICT_REGRESSED && strstr(l->detail, "wrong_output"),
		"ok -> wrong output is a regression: %s", l ? l->detail : "missing");

	/* sizes are exact: 1100 vs 1000 is +10%, judged without a test */
	l = find(&res, "gcc O3", "slow", "size.text");
	T_CHECK(l && l->c.exact && l->verdict == VERDICT_REGRESSED && l->c.ratio == 1.1,
		"exact size: exact %d ratio %g", l ? l->c.exact : -1, l ? l->c.ratio : NAN);
	l = find(&res, "gcc O2", "slow", "size.text");
	T_CHECK(l && l->c.exact && l->verdict == VERDICT_UNCHANGED, "equal sizes");
	/* O2 slow time, O3 slow size, and O3 same in both metrics (wrong output) */
	T_CHECK(res.regressed == 4 && res.improved == 1, "regressed %zu improved %zu",
		res.regressed, res.improved);

	/* both formats print every line; json parses as one object */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	T_CHECK(!compare_print(f, &res, "json"), "json format");
	fclose(f);
	T_CHECK(strstr(buf, "\"verdict\":\"regressed\",\"config\":\"gcc O2\",\"workload\":\"slow\""),
		"json line: %.200s", buf);
	free(buf);
	f = open_memstream(&buf, &len);
	compare_print(f, &res, "table");
	fclose(f);
	T_CHECK(strstr(buf, "REGRESSED") && strstr(buf, "UNCHANGED") && strstr(buf, "IMPROVED") &&
		strstr(buf, "12/12"), "table: %s", buf);
	T_CHECK(!strchr(buf, '\033'), "no colour when not a terminal");
	free(buf);
	T_CHECK(compare_print(stdout, &res, "yaml") == -1, "unknown format");
	compare_result_release(&res);

	/* the same study must be in both */
	T_CHECK(compare_databases(&old, &new, "nosuch", &metrics, NULL, &res, &err) == -1 &&
		strstr(sb_str(&err), "no study 'nosuch'"), "missing study: %s", sb_str(&err));
	compare_result_release(&res);
	sl_release(&metrics);
	sb_release(&err);
	store_close(&old);
	store_close(&new);
}

/* One database: the candidate against the baseline by label; the effect
 * threshold and the direction of a higher-is-better metric. */
static void test_labels(const char *dir)
{
	static const char *const three[] = {"base", "tiny-change", "score-up"};
	struct store st;
	synth_open(&st, dir, "one.db", "t", "time", three, NULL, 3);
	synth_item(&st, "t", "base", "w", "ok", "time", "s", 1.0, 0.0005, 15, 100, 21);
	synth_item(&st, "t", "tiny-change", "w", "ok", "time", "s", 1.005, 0.0005, 15, 100, 22);
	synth_item(&st, "t", "base", "w2", "ok", "score", "", 100, 0.005, 15, 100, 23);
	synth_item(&st, "t", "score-up", "w2", "ok", "score", "", 110, 0.005, 15, 100, 24);
	store_put_fact(&st, "t", "higher_better.score", "1");
	struct compare_result res;
	struct strbuf err = {0};
	struct strlist m = {0};
	sl_push(&m, "time");
	T_CHECK(!compare_labels(&st, "t", "base", "tiny-change", &m, NULL, &res, &err), "%s",
		sb_str(&err));
	const struct compare_line *l = find(&res, "base -> tiny-change", "w", "time");
	T_CHECK(l && l->c.p < 0.001 && l->verdict == VERDICT_UNCHANGED,
		"0.5%% is significant but below the 1%% minimum effect: p %g %s",
		l ? l->c.p : NAN, l ? verdict_name(l->verdict) : "missing");
	compare_result_release(&res);
	struct rank_options o;
	rank_options_default(&o);
	o.min_effect = 0.001;
	compare_labels(&st, "t", "base", "tiny-change", &m, &o, &res, &err);
	l = find(&res, "base -> tiny-change", "w", "time");
	T_CHECK(l && l->verdict == VERDICT_REGRESSED, "min effect 0.1%%: %s",
		l ? verdict_name(l->verdict) : "missing");
	compare_result_release(&res);

	sl_release(&m);
	sl_push(&m, "score");
	compare_labels(&st, "t", "base", "score-up", &m, NULL, &res, &err);
	l = find(&res, "base -> score-up", "w2", "score");
	T_CHECK(l && l->c.ratio > 1.05 && l->verdict == VERDICT_IMPROVED,
		"a higher score is an improvement: %s", l ? verdict_name(l->verdict) : "missing");
	compare_result_release(&res);

	T_CHECK(compare_labels(&st, "t", "base", "nope", &m, NULL, &res, &err) == -1 &&
			strstr(sb_str(&err), "--candidate: no configuration has the level 'nope'"),
		"unknown label: %s", sb_str(&err));
	compare_result_release(&res);
	sl_release(&m);
	sb_release(&err);
	store_close(&st);
}

/* Every line's ratio starts in the header's "ratio" column, however long
 * the configuration and item names ("libcbench/malloc_big1" is wider than
 * the default column). */
static void check_table_aligned(const struct compare_result *res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	compare_print(f, res, "table");
	fclose(f);
	long col = -1;
	size_t lines = 0;
	for (const char *l = buf; *l;) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);
		if (!strncmp(l, "verdict ", 8)) {
			const char *r = strstr(l, " ratio ");
			col = r && r < l + n ? r - l + 1 : -1;
		} else if (col > 0 && (!strncmp(l, "IMPROVED ", 9) || !strncmp(l, "UNCHANGED ", 10))) {
			T_CHECK((long)n > col && l[col - 1] == ' ' && isdigit((unsigned char)l[col]),
				"no ratio under the header's column %ld: %.*s", col, (int)n, l);
			lines++;
		}
		l += n + (e != NULL);
	}
	T_CHECK(lines == res->n, "%zu aligned lines of %zu:\n%s", lines, res->n, buf);
	free(buf);
}

/* Selectors pick items and metrics; items without the metric are skipped
 * once; one run of a noisy metric is not tested; a bad selector is an
 * error. */
static void test_selectors(const char *dir)
{
	static const char *const two[] = {"base", "fast"};
	struct store st;
	synth_open(&st, dir, "sel.db", "u", "time", two, NULL, 2);
	for (int c = 0; c < 2; c++) {
		double k = c ? 0.8 : 1.0;
		synth_run(&st, "u", two[c], "libcbench", "malloc_big1", "ok", NULL, "time", "s", k,
			  0.01, 10, 100, 31 + (uint64_t)c);
		synth_run(&st, "u", two[c], "libcbench", "strlen", "ok", NULL, "time", "s", 1.0, 0.01,
			  10, 100, 33 + (uint64_t)c);
		synth_run(&st, "u", two[c], "coremark", "single", "ok", NULL, "iterations_per_sec",
			  "iter/s", 100 / k, 0.01, 10, 100, 35 + (uint64_t)c);
		synth_run(&st, "u", two[c], "once", "", "ok", NULL, "wall", "s", k, 0, 1, 100, 37);
	}
	store_put_fact(&st, "u", "higher_better.iterations_per_sec", "1");
	struct compare_result res;
	struct strbuf err = {0};
	struct strlist m = {0};
	sl_push(&m, "coremark/iterations_per_sec");
	sl_push(&m, "libcbench/malloc_big1");
	T_CHECK(!compare_labels(&st, "u", "base", "fast", &m, NULL, &res, &err), "%s", sb_str(&err));
	const struct compare_line *a = find(&res, "base -> fast", "coremark/single",
					    "iterations_per_sec");
	const struct compare_line *b = find(&res, "base -> fast", "libcbench/malloc_big1", "time");
	T_CHECK(res.n == 2 && a && a->verdict == VERDICT_IMPROVED && b &&
		b->verdict == VERDICT_IMPROVED && !res.skipped.n, "selected lines: %zu", res.n);
	check_table_aligned(&res);
	compare_result_release(&res);

	/* a metric one workload has: the rest is skipped, listed once */
	sl_release(&m);
	sl_push(&m, "iterations_per_sec");
	T_CHECK(!compare_labels(&st, "u", "base", "fast", &m, NULL, &res, &err), "%s", sb_str(&err));
	T_CHECK(res.n == 1 && res.incomplete == 0 && res.skipped.n == 3 &&
		!strcmp(res.skipped.v[0], "libcbench/malloc_big1: no samples of iterations_per_sec "
					  "on either side"), "skipped %zu, lines %zu", res.skipped.n,
		res.n);
	char *buf = printed(&res, "table");
	T_CHECK(strstr(buf, "skipped (the metric is not measured there):\n  libcbench/malloc_big1:"),
		"%s", buf);
	free(buf);
	compare_result_release(&res);

	/* one run each of wall time: a ratio, not a verdict */
	sl_release(&m);
	sl_push(&m, "once/wall");
	T_CHECK(!compare_labels(&st, "u", "base", "fast", &m, NULL, &res, &err), "%s", sb_str(&err));
	T_CHECK(res.n == 1 && res.v[0].c.untested && res.v[0].verdict == VERDICT_UNCHANGED &&
		fabs(res.v[0].c.ratio - 0.8) < 1e-9 && strstr(res.v[0].detail, "not tested"),
		"one run: %s", res.n ? res.v[0].detail : "");
	compare_result_release(&res);

	/* samples on one side only: not comparable, and the table says so
	 * rather than UNCHANGED, with no "nan" median */
	sl_release(&m);
	sl_push(&m, "half/wall");
	synth_run(&st, "u", "base", "half", "", "ok", NULL, "wall", "s", 1.0, 0, 5, 100, 41);
	synth_run(&st, "u", "fast", "half", "", "ok", NULL, "wall", "s", 1.0, 0, 0, 100, 43);
	T_CHECK(!compare_labels(&st, "u", "base", "fast", &m, NULL, &res, &err), "%s", sb_str(&err));
	T_CHECK(res.n == 1 && res.v[0].incomplete && res.incomplete == 1 && !res.unchanged,
		"one side's samples: %zu lines, %zu not comparable", res.n, res.incomplete);
	buf = printed(&res, "table");
	T_CHECK(strstr(buf, "\nN/A ") && !strstr(buf, "UNCHANGED") && !strstr(buf, "nan") &&
			strstr(buf, "1 -> - s  (no samples of wall on the new side)"),
		"%s", buf);
	free(buf);
	buf = printed(&res, "json");
	T_CHECK(strstr(buf, "{\"verdict\":\"n/a\"") && strstr(buf, "\"comparable\":false"),
		"json: %s", buf);
	free(buf);
	compare_result_release(&res);

	sl_release(&m);
	sl_push(&m, "libcbench/nosuch");
	T_CHECK(compare_labels(&st, "u", "base", "fast", &m, NULL, &res, &err) == -1 &&
		strstr(sb_str(&err), "workload libcbench has no run or metric 'nosuch'"), "%s",
		sb_str(&err));
	compare_result_release(&res);
	sl_release(&m);
	sb_release(&err);
	store_close(&st);
}

/* An item that was ok and is now unsupported (the flag does not exist
 * on the new compiler) gets its own verdict, UNSUPPORTED, counted apart
 * from the regressions; one that now fails to build is REGRESSED. */
static void test_unsupported(const char *dir)
{
	struct store old, new;
	synth_open(&old, dir, "uold.db", "s", "time", labels, NULL, 2);
	synth_open(&new, dir, "unew.db", "s", "time", labels, NULL, 2);
	for (size_t c = 0; c < 2; c++)
		synth_item(&old, "s", labels[c], "w", "ok", "time", "s", 1.0, 0.01, 6, 1000, 21 + c);
	struct store_build b = {
		.study = "s", .config_id = synth_id("gcc O2"), .workload = "w", .key = "k",
		.status = "unsupported_flag", .detail = "gcc: unrecognized option '-fnew'",
		.facts = "[]", .seconds = 1,
	};
	store_put_build(&new, &b);
	synth_build_failed(&new, "s", "gcc O3", "w", "ld: undefined reference");
	struct compare_result res;
	struct strbuf err = {0};
	T_CHECK(!compare_databases(&old, &new, "s", NULL, NULL, &res, &err), "%s", sb_str(&err));
	const struct compare_line *l = find(&res, "gcc O2", "w", "time");
	T_CHECK(l && l->unsupported && l->verdict != VERDICT_REGRESSED &&
			strstr(l->detail, "unsupported_flag"),
		"ok -> unsupported_flag: unsupported %d, %s", l ? l->unsupported : -1,
		l ? verdict_name(l->verdict) : "missing");
	l = find(&res, "gcc O3", "w", "time");
	T_CHECK(l && l->verdict == VERDICT_REGRESSED, "ok -> build_failed: %s",
		l ? verdict_name(l->verdict) : "missing");
	T_CHECK(res.regressed == 1 && res.unsupported == 1 && res.unchanged == 0,
		"regressed %zu unsupported %zu unchanged %zu", res.regressed, res.unsupported,
		res.unchanged);
	char *buf = printed(&res, "table");
	/* the verdict column is as wide as UNSUPPORTED, the widest verdict */
	T_CHECK(strstr(buf, "\nverdict     configuration ") && strstr(buf, "\nUNSUPPORTED gcc O2 ") &&
			strstr(buf, "\nREGRESSED   gcc O3 ") &&
			strstr(buf, "1 regressed, 0 improved, 0 unchanged, 0 not comparable, "
				    "1 unsupported now"),
		"table: %s", buf);
	free(buf);
	buf = printed(&res, "json");
	T_CHECK(strstr(buf, "{\"verdict\":\"unsupported\",\"config\":\"gcc O2\"") &&
			strstr(buf, "\"unsupported\":1"),
		"json: %s", buf);
	free(buf);
	compare_result_release(&res);
	sb_release(&err);
	store_close(&old);
	store_close(&new);
}

int main(void)
{
	char *dir = test_tmpdir("test_compare");
	test_two_databases(dir);
	test_labels(dir);
	test_selectors(dir);
	test_unsupported(dir);
	free(dir);
	return test_summary("test_compare");
}
