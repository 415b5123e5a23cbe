/*
 * test_rank.c - analysis/rank and the report formats on synthetic
 * databases: per-item p and verdicts, ranks shared only by configurations
 * not significantly different, failed configurations never ranked, NOISY
 * items of repeat = auto studies, exact size metrics, higher-is-better
 * metrics, the Pareto front, and the keys and elements each format prints.
 */
#include "analysis/rank.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/results.h"
#include "tests/synthdb.h"
#include "tests/testlib.h"

static const struct rank_config *config(const struct ranking *r, const char *label)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->configs[i].label, label))
			return &r->configs[i];
	return NULL;
}

static char *print(const struct ranking *r, const char *format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	report_print(f, r, report_format(format));
	fclose(f);
	return buf;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* Over two workloads, 12 runs each at 1% noise: base; same (a null
 * difference: fresh draws, 30% larger); fast (10% faster, 20% larger);
 * slow (5% slower, 10% smaller); wrong (fastest, but wrong output on w2);
 * tiny (base's very samples, 20% smaller). */
static const char *const labels[] = {"base", "same", "fast", "slow", "wrong", "tiny"};
static const struct {
	double time, size;
	const char *w2_status;
	int seed;
} plan[] = {{1.0, 1000, "ok", 0}, {1.0, 1300, "ok", 1}, {0.9, 1200, "ok", 2},
	    {1.05, 900, "ok", 3}, {0.8, 1000, "wrong_output", 4}, {1.0, 800, "ok", 0}};

static void make_study(struct store *st, const char *dir)
{
	synth_open(st, dir, "rank.db", "r", "time", labels, NULL, ARRAY_SIZE(labels));
	for (size_t c = 0; c < ARRAY_SIZE(labels); c++) {
		synth_item(st, "r", labels[c], "w1", "ok", "time", "s", plan[c].time, 0.01, 12,
			   plan[c].size, 100 + plan[c].seed);
		synth_item(st, "r", labels[c], "w2", plan[c].w2_status, "time", "s",
			   2 * plan[c].time, 0.01, 12, plan[c].size, 200 + plan[c].seed);
	}
	store_put_last_run(st, "r", 12, 0, 0);
}

static void test_ranks(const char *dir)
{
	struct store st;
	make_study(&st, dir);
	struct ranking r;
	struct strbuf err = {0};
	T_CHECK(!ranking_compute(&st, "r", NULL, &r, &err), "%s", sb_str(&err));
	const struct rank_config *base = config(&r, "base"), *same = config(&r, "same"),
				 *fast = config(&r, "fast"), *slow = config(&r, "slow"),
				 *wrong = config(&r, "wrong"), *tiny = config(&r, "tiny");
	T_CHECK(fast->rank == 1, "fast rank %d", fast->rank);
	T_CHECK(base->rank == 2 && same->rank == 2 && tiny->rank == 2,
		"null differences share rank 2: base %d same %d tiny %d", base->rank, same->rank,
		tiny->rank);
	T_CHECK(slow->rank == 5, "5%% slower is rank 5 (1 + four before it): %d", slow->rank);
	T_CHECK(wrong->rank == 0 && wrong->status == OUTCOME_WRONG_OUTPUT &&
		strstr(wrong->detail, "w2:"), "wrong output never ranked: %d %s", wrong->rank,
		wrong->detail);
	/* per item: p, verdict, counts, summaries */
	const struct rank_item *it = &slow->items[0];
	T_CHECK(it->verdict == VERDICT_REGRESSED && it->p < 0.001 && it->s.n == 12 &&
		it->nbase == 12, "slow w1: %s p %g", verdict_name(it->verdict), it->p);
	T_CHECK(it->lo < 1.05 && it->hi > 1.05 && it->lo > 1, "slow w1 interval [%g, %g]", it->lo,
		it->hi);
	T_CHECK(it->s.mad > 0 && it->s.sd > 0 && it->s.min <= it->s.median &&
		it->s.median <= it->s.max && it->s.ci_lo <= it->s.median &&
		it->s.median <= it->s.ci_hi, "summary of slow w1");
	T_CHECK(same->items[0].verdict == VERDICT_UNCHANGED && same->items[0].p > 0.05,
		"null: p %g", same->items[0].p);
	T_CHECK(same->verdict == VERDICT_UNCHANGED && fast->verdict == VERDICT_IMPROVED &&
		slow->verdict == VERDICT_REGRESSED && fast->improved == 2 && slow->regressed == 2,
		"configuration verdicts");
	T_CHECK(fast->hi < 1 && fast->lo < fast->ratio, "fast geomean [%g, %g]", fast->lo,
		fast->hi);
	T_CHECK(base->ratio == 1 && base->items[0].ratio == 1, "baseline ratio 1");

	/* Pareto, time vs size.text: "fast" (fastest) and "tiny" (smallest)
	 * are on the front; "tiny" dominates "base" (same time, smaller) and
	 * "slow" (faster and smaller), "fast" dominates "same" */
	T_CHECK(!ranking_add_pareto(&st, &r, "time", "size.text"), "pareto added");
	const struct rank_pareto *p = &r.pareto[0];
	T_CHECK(p->front[fast - r.configs] && p->front[tiny - r.configs] &&
		!p->front[base - r.configs] && !p->front[slow - r.configs] &&
		isnan(p->xv[wrong - r.configs]), "front fast %d tiny %d base %d slow %d",
		p->front[fast - r.configs], p->front[tiny - r.configs], p->front[base - r.configs],
		p->front[slow - r.configs]);
	T_CHECK(ranking_add_pareto(&st, &r, "time", "no-such-metric") == 1,
		"a metric nobody has gives no front");

	/* the formats: issue 2's JSON keys, CSV rows, HTML elements */
	char *json = print(&r, "json");
	T_CHECK(strstr(json, "\"configs\":[{\"label\":\"fast\",\"id\":\"id-fast\",\"rank\":1,"
			     "\"ratio\":") && strstr(json, "\"builds\":{\"built\":12,") &&
		strstr(json, "\"workloads\":[{\"name\":\"w1\",\"n\":12,\"median\":") &&
		strstr(json, "\"status\":\"wrong_output\"") && strstr(json, "\"front\":true") &&
		strstr(json, "\"p\":"), "json: %.300s", json);
	free(json);
	char *csv = print(&r, "csv");
	T_CHECK(count(csv, "\n") == 1 + ARRAY_SIZE(labels) * 2, "csv rows: %zu",
		count(csv, "\n"));
	free(csv);
	char *table = print(&r, "table");
	T_CHECK(strstr(table, "regressed") && strstr(table, "improved") && !strchr(table, '\033'),
		"table: verdicts, no colour when not a terminal");
	free(table);
	char *html = print(&r, "html");
	T_CHECK(count(html, "<svg class=\"chart bars\"") == 2, "one bar chart per workload");
	/* w1: every configuration has a ratio; w2: all but "wrong" */
	T_CHECK(count(html, "class=\"bar\"") == 2 * ARRAY_SIZE(labels) - 1, "bars %zu",
		count(html, "class=\"bar\""));
	T_CHECK(count(html, "class=\"whisker\"") == 2 * ARRAY_SIZE(labels) - 1, "whiskers");
	T_CHECK(count(html, "<svg class=\"chart scatter\"") == 1 &&
		count(html, "<circle class=\"point") == ARRAY_SIZE(labels) - 1 &&
		count(html, "<circle class=\"point front\"") == 2, "scatter points");
	T_CHECK(!strstr(html, "http:") && !strstr(html, "https:") && !strstr(html, "src="),
		"self-contained");
	free(html);
	ranking_release(&r);

	/* ranking by size: exact, no fake interval */
	T_CHECK(!ranking_compute(&st, "r", "size.text", &r, &err), "%s", sb_str(&err));
	it = &config(&r, "fast")->items[0];
	T_CHECK(it->exact && it->from_build && it->ratio == 1.2 && it->lo == it->hi &&
		it->verdict == VERDICT_REGRESSED, "size exact: %g", it->ratio);
	T_CHECK(config(&r, "tiny")->rank == 1 && config(&r, "slow")->rank == 2 &&
		config(&r, "base")->rank == 3 && config(&r, "fast")->rank == 4 &&
		config(&r, "same")->rank == 5, "exact sizes rank by value");
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
}

/* repeat = auto: an interval still wider than the target is NOISY */
static void test_noisy(const char *dir)
{
	static const char *const l[] = {"base", "calm", "jumpy"};
	struct store st;
	synth_open(&st, dir, "noisy.db", "n", "time", l, NULL, 3);
	synth_item(&st, "n", "base", "w", "ok", "time", "s", 1.0, 0.001, 30, 100, 1);
	synth_item(&st, "n", "calm", "w", "ok", "time", "s", 0.9, 0.001, 30, 100, 2);
	synth_item(&st, "n", "jumpy", "w", "ok", "time", "s", 0.8, 0.2, 30, 100, 3);
	store_put_study(&st, &(struct store_study){.name = "n", .path = "synthetic.study",
						    .metric = "time", .repeat_target = 0.01,
						    .repeat_min = 5, .repeat_max = 30});
	struct ranking r;
	struct strbuf err = {0};
	T_CHECK(!ranking_compute(&st, "n", NULL, &r, &err), "%s", sb_str(&err));
	const struct rank_config *j = config(&r, "jumpy"), *c = config(&r, "calm");
	T_CHECK(j->status == OUTCOME_NOISY && j->rank == 0 && j->items[0].halfwidth > 0.01 &&
		strstr(j->detail, "target"), "noisy: %s %s", outcome_name(j->status), j->detail);
	T_CHECK(!isnan(j->items[0].ratio), "a noisy item still shows its ratio");
	T_CHECK(c->status == OUTCOME_OK && c->rank == 1 && c->items[0].halfwidth <= 0.01,
		"calm ranked: %s %d", outcome_name(c->status), c->rank);
	T_CHECK(r.noisy_target == 0.01, "target %g", r.noisy_target);
	ranking_release(&r);
	/* the size metric is exact, never noisy */
	ranking_compute(&st, "n", "size.text", &r, &err);
	T_CHECK(config(&r, "jumpy")->status == OUTCOME_OK, "sizes are not noisy");
	ranking_release(&r);
	T_CHECK(ranking_compute(&st, "missing", NULL, &r, &err) == -1 &&
		strstr(sb_str(&err), "no study 'missing'"), "%s", sb_str(&err));
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
}

/* a higher-is-better metric: the bigger score wins and is "improved" */
static void test_higher_better(const char *dir)
{
	static const char *const l[] = {"base", "better"};
	struct store st;
	synth_open(&st, dir, "score.db", "h", "score", l, NULL, 2);
	synth_item(&st, "h", "base", "w", "ok", "score", "", 100, 0.01, 12, 100, 1);
	synth_item(&st, "h", "better", "w", "ok", "score", "", 120, 0.01, 12, 100, 2);
	store_put_fact(&st, "h", "higher_better.score", "1");
	struct ranking r;
	struct strbuf err = {0};
	T_CHECK(!ranking_compute(&st, "h", NULL, &r, &err), "%s", sb_str(&err));
	const struct rank_config *b = config(&r, "better");
	T_CHECK(r.higher_better && b->rank == 1 && config(&r, "base")->rank == 2 &&
		b->verdict == VERDICT_IMPROVED && b->items[0].verdict == VERDICT_IMPROVED &&
		b->ratio > 1.1, "higher is better: rank %d %s", b->rank, verdict_name(b->verdict));
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
}

/* base, fast and broken over libcbench (two runs, time; malloc_big1 also
 * perf/task-clock), coremark/single (its score, higher is better, and its
 * own time) and lame/cbr128 (time).  broken gives wrong output on
 * libcbench/strlen only. */
static void make_subs(struct store *st, const char *dir)
{
	static const char *const l[] = {"base", "fast", "broken"};
	static const double speed[] = {1.0, 0.8, 1.0};
	synth_open(st, dir, "subs.db", "u", "time", l, NULL, 3);
	for (int c = 0; c < 3; c++) {
		uint64_t seed = 1000 + 10 * (uint64_t)c;
		synth_run(st, "u", l[c], "libcbench", "malloc_big1", "ok", NULL, "time", "s",
			  speed[c], 0.01, 10, 500, seed);
		synth_run(st, "u", l[c], "libcbench", "malloc_big1", "ok", NULL, "perf/task-clock",
			  "ms", 1000 * speed[c], 0.01, 10, 500, seed + 1);
		synth_run(st, "u", l[c], "libcbench", "strlen", c == 2 ? "wrong_output" : "ok", NULL,
			  "time", "s", 1.0, 0.01, 10, 500, seed + 2);
		synth_run(st, "u", l[c], "coremark", "single", "ok", NULL, "iterations_per_sec",
			  "iter/s", 100 / speed[c], 0.01, 10, 700, seed + 3);
		synth_run(st, "u", l[c], "coremark", "single", "ok", NULL, "time", "s", speed[c],
			  0.01, 10, 700, seed + 4);
		synth_run(st, "u", l[c], "lame", "cbr128", "ok", NULL, "time", "s", 1.0, 0.01, 10,
			  900, seed + 5);
	}
	store_put_fact(st, "u", "higher_better.iterations_per_sec", "1");
}

/* --metric selectors: workload/run, workload/metric, run/metric, a
 * stored metric with a slash in its name, and what names nothing */
static void test_selectors(const char *dir)
{
	struct store st;
	make_subs(&st, dir);
	struct ranking r;
	struct strbuf err = {0};

	T_CHECK(!ranking_compute(&st, "u", "libcbench/malloc_big1", &r, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(r.metric, "time") && r.scope && !strcmp(r.scope, "libcbench/malloc_big1") &&
		r.configs[0].nitems == 1 && !strcmp(r.configs[0].items[0].name,
						    "libcbench/malloc_big1"),
		"workload/run: metric %s scope %s items %zu", r.metric, r.scope,
		r.configs[0].nitems);
	T_CHECK(config(&r, "fast")->rank == 1 && config(&r, "base")->rank == 2 &&
		config(&r, "fast")->verdict == VERDICT_IMPROVED, "fast ranks first by malloc_big1");
	/* a configuration broken on another item is still not ranked */
	T_CHECK(config(&r, "broken")->rank == 0 &&
		config(&r, "broken")->status == OUTCOME_WRONG_OUTPUT &&
		strstr(config(&r, "broken")->detail, "libcbench/strlen: output differs"),
		"broken elsewhere: %s", config(&r, "broken")->detail);
	char *table = print(&r, "table");
	T_CHECK(strstr(table, "metric time in s of libcbench/malloc_big1 only "
			      "(--metric libcbench/malloc_big1)"), "table: %.200s", table);
	free(table);
	char *json = print(&r, "json");
	T_CHECK(strstr(json, "\"selector\":\"libcbench/malloc_big1\",\"scope\":"
			     "\"libcbench/malloc_big1\""), "json scope: %.300s", json);
	free(json);
	/* Pareto over the same item: time against its .text size */
	char *y = ranking_selector_for(&r, "size.text");
	T_CHECK(!strcmp(y, "libcbench/malloc_big1/size.text"), "selector for size: %s", y);
	T_CHECK(!ranking_add_pareto(&st, &r, "libcbench/malloc_big1", y), "pareto on selectors");
	free(y);
	ranking_release(&r);

	/* workload/metric, and workload/run/metric: coremark's score */
	static const char *const scores[] = {"coremark/iterations_per_sec",
					     "coremark/single/iterations_per_sec"};
	for (size_t i = 0; i < ARRAY_SIZE(scores); i++) {
		T_CHECK(!ranking_compute(&st, "u", scores[i], &r, &err), "%s", sb_str(&err));
		T_CHECK(!strcmp(r.metric, "iterations_per_sec") && r.higher_better &&
			r.configs[0].nitems == 1 && config(&r, "fast")->rank == 1 &&
			config(&r, "fast")->verdict == VERDICT_IMPROVED && config(&r, "fast")->ratio > 1.2,
			"%s: metric %s rank %d", scores[i], r.metric, config(&r, "fast")->rank);
		ranking_release(&r);
	}

	/* a metric only one workload has: the others are skipped, not failed */
	T_CHECK(!ranking_compute(&st, "u", "iterations_per_sec", &r, &err), "%s", sb_str(&err));
	T_CHECK(!r.scope && r.configs[0].nitems == 1 && config(&r, "fast")->rank == 1 &&
		config(&r, "base")->rank == 2 && config(&r, "base")->status == OUTCOME_OK,
		"plain score metric: fast %d base %d (%s)", config(&r, "fast")->rank,
		config(&r, "base")->rank, config(&r, "base")->detail);
	T_CHECK(r.nleft_out == 2 && !strcmp(r.left_out[0].name, "lame") &&
		!strcmp(r.left_out[1].name, "libcbench") && r.left_out[1].status == OUTCOME_OK &&
		strstr(r.left_out[1].why, "no samples of metric 'iterations_per_sec' in any"),
		"left out: %zu %s", r.nleft_out, r.nleft_out ? r.left_out[0].name : "");
	table = print(&r, "table");
	T_CHECK(strstr(table, "left out of the ranking:\n  lame: no samples of metric "
			      "'iterations_per_sec' in any configuration\n  libcbench: "), "%s", table);
	free(table);
	ranking_release(&r);

	/* a stored metric whose name has a slash, alone and after a run */
	T_CHECK(!ranking_compute(&st, "u", "perf/task-clock", &r, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(r.metric, "perf/task-clock") && !r.scope && r.configs[0].nitems == 1,
		"perf/task-clock: %s %zu items", r.metric, r.configs[0].nitems);
	ranking_release(&r);
	T_CHECK(!ranking_compute(&st, "u", "libcbench/malloc_big1/perf/task-clock", &r, &err), "%s",
		sb_str(&err));
	T_CHECK(!strcmp(r.metric, "perf/task-clock") && !strcmp(r.scope, "libcbench/malloc_big1"),
		"run then a metric with a slash: %s", r.metric);
	ranking_release(&r);
	/* a workload alone: its items, the study's metric */
	T_CHECK(!ranking_compute(&st, "u", "libcbench", &r, &err), "%s", sb_str(&err));
	T_CHECK(r.configs[0].nitems == 2 && !strcmp(r.metric, "time") &&
		config(&r, "broken")->rank == 0, "workload alone: %zu items", r.configs[0].nitems);
	ranking_release(&r);

	/* names that select nothing are errors that say what exists */
	static const struct {
		const char *sel, *want;
	} bad[] = {
		{"libcbench/nosuch", "workload libcbench has no run or metric 'nosuch' (its runs: "
				     "malloc_big1, strlen;"},
		{"single/iterations_per_sec", "'single' is a run of coremark, not a workload (write "
					      "coremark/single/iterations_per_sec)"},
		{"nosuchmetric", "stored no such metric and has no such workload (metrics: "},
		{"nope/time", "has no workload 'nope' (workloads: coremark, lame, libcbench)"},
		{"coremark/single/nosuch", "stored no metric 'nosuch'"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		sb_release(&err);
		T_CHECK(ranking_compute(&st, "u", bad[i].sel, &r, &err) == -1 &&
			strstr(sb_str(&err), bad[i].want), "%s: %s", bad[i].sel, sb_str(&err));
		ranking_release(&r);
	}
	sb_release(&err);
	store_close(&st);
}

/* A mistyped metric of a study with many: every stored name is listed,
 * not the first twelve (which left "time" out after the a*, m* and
 * perf ones, so nobody saw the name meant) */
static void test_many_metrics(const char *dir)
{
	static const char *const l[] = {"base", "O3"};
	struct store st;
	struct strbuf err = {0};
	struct ranking r;
	synth_open(&st, dir, "many.db", "m", "time", l, NULL, 2);
	for (int c = 0; c < 2; c++)
		for (int k = 0; k <= 14; k++) {
			char *metric = k < 14 ? xasprintf("a%02d", k) : xstrdup("time");
			synth_item(&st, "m", l[c], "w", "ok", metric, "s", 1.0, 0.01, 3, 100,
				   (uint64_t)(c * 20 + k));
			free(metric);
		}
	T_CHECK(ranking_compute(&st, "m", "tiem", &r, &err) == -1 &&
			strstr(sb_str(&err), "a13, ") && strstr(sb_str(&err), ", time;") &&
			!strstr(sb_str(&err), "..."),
		"%s", sb_str(&err));
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
}

/* An item failing the same way everywhere is left out once; failing in
 * some configurations only, it still unranks them. */
static void test_left_out(const char *dir)
{
	static const char *const l[] = {"base", "O3", "O3x"};
	static const char *const fetch = "cannot fetch git:https://github.com/eembc/coremark "
					 "(no network)";
	struct store st;
	synth_open(&st, dir, "left.db", "f", "time", l, NULL, 3);
	for (int c = 0; c < 3; c++) {
		synth_item(&st, "f", l[c], "crc32", "ok", "time", "s", c ? 0.9 : 1.0, 0.01, 10, 100,
			   50 + (uint64_t)c);
		synth_build_failed(&st, "f", l[c], "coremark", fetch);
		synth_run(&st, "f", l[c], "lame", "cbr128", "ok", NULL, "time", "s", 1.0, 0.01, 10,
			  100, 60 + (uint64_t)c);
		synth_run(&st, "f", l[c], "lame", "vbr2", "run_failed", "exit status 3", "time", "s",
			  1.0, 0.01, 0, 100, 70 + (uint64_t)c);
		if (c == 2)
			synth_build_failed(&st, "f", l[c], "gzip", "undefined reference to `cos'");
		else
			synth_item(&st, "f", l[c], "gzip", "ok", "time", "s", 1.0, 0.01, 10, 100,
				   80 + (uint64_t)c);
	}
	struct ranking r;
	struct strbuf err = {0};
	T_CHECK(!ranking_compute(&st, "f", NULL, &r, &err), "%s", sb_str(&err));
	T_CHECK(config(&r, "O3")->rank == 1 && config(&r, "base")->rank == 2 &&
		config(&r, "O3")->status == OUTCOME_OK, "the rest ranks: O3 %d base %d",
		config(&r, "O3")->rank, config(&r, "base")->rank);
	T_CHECK(config(&r, "O3x")->rank == 0 && config(&r, "O3x")->status == OUTCOME_BUILD_FAILED &&
		strstr(config(&r, "O3x")->detail, "gzip: undefined reference"),
		"failing in one configuration still unranks it: %s", config(&r, "O3x")->detail);
	T_CHECK(r.nleft_out == 2 && !strcmp(r.left_out[0].name, "coremark") &&
		r.left_out[0].status == OUTCOME_BUILD_FAILED &&
		!strcmp(r.left_out[1].name, "lame/vbr2") &&
		!strcmp(r.left_out[1].why, "run_failed in every configuration: exit status 3"),
		"left out: %zu", r.nleft_out);
	T_CHECK(r.configs[0].nitems == 3, "ranked items crc32 gzip lame/cbr128: %zu",
		r.configs[0].nitems);
	char *table = print(&r, "table");
	T_CHECK(strstr(table, "  coremark: build_failed in every configuration: cannot fetch "
			      "git:https://github.com/eembc/coremark (no network)\n") &&
		count(table, "coremark:") == 1, "reported once:\n%s", table);
	free(table);
	char *json = print(&r, "json");
	T_CHECK(strstr(json, "\"left_out\":[{\"name\":\"coremark\",\"status\":\"build_failed\","
			     "\"why\":\"build_failed in every configuration: cannot fetch"), "%.400s",
		json);
	free(json);
	char *html = print(&r, "html");
	T_CHECK(strstr(html, "<li>coremark: build_failed in every configuration: "), "html");
	free(html);
	ranking_release(&r);
	store_close(&st);

	/* every run crashed: no time stored anywhere, only the builds' sizes;
	 * the study's metric still reports the failure */
	synth_open(&st, dir, "crash.db", "k", "time", l, NULL, 2);
	for (int c = 0; c < 2; c++)
		synth_item(&st, "k", l[c], "w", "crashed", "time", "s", 1, 0, 0, 100, 1);
	T_CHECK(!ranking_compute(&st, "k", "time", &r, &err), "%s", sb_str(&err));
	T_CHECK(r.nleft_out == 1 && r.left_out[0].status == OUTCOME_CRASHED &&
		r.configs[0].rank == 0, "all crashed: left out %zu", r.nleft_out);
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
}

/* A recipe's tolerant check accepted an output: the report says so. */
static void test_note(const char *dir)
{
	static const char *const l[] = {"base", "v3"};
	static const char *const tol = "within tolerance: decoded PCM SNR 32.9 dB against the "
				       "reference (tolerance 30 dB) (out.mp3 differs at byte 188)";
	struct store st;
	synth_open(&st, dir, "note.db", "t", "time", l, NULL, 2);
	synth_run(&st, "t", "base", "lame", "cbr128", "ok", NULL, "time", "s", 1.0, 0.01, 10, 100, 1);
	synth_run(&st, "t", "v3", "lame", "cbr128", "ok", tol, "time", "s", 0.9, 0.01, 10, 100, 2);
	struct ranking r;
	struct strbuf err = {0};
	T_CHECK(!ranking_compute(&st, "t", NULL, &r, &err), "%s", sb_str(&err));
	const struct rank_config *v3 = config(&r, "v3");
	T_CHECK(v3->status == OUTCOME_OK && v3->rank == 1 && v3->items[0].note &&
		!strcmp(v3->items[0].note, tol) && !config(&r, "base")->items[0].note,
		"note: %s", v3->items[0].note);
	static const struct {
		const char *format, *want;
	} fmts[] = {
		{"table", "          note: within tolerance: decoded PCM SNR 32.9 dB"},
		{"csv", ",0,\"within tolerance: decoded PCM SNR 32.9 dB"},
		{"json", "\"note\":\"within tolerance: decoded PCM SNR 32.9 dB"},
		{"html", "<span class=\"note\">note: within tolerance: decoded PCM SNR 32.9 dB"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(fmts); i++) {
		char *out = print(&r, fmts[i].format);
		T_CHECK(strstr(out, fmts[i].want) && count(out, "within tolerance") == 1,
			"%s shows the note once", fmts[i].format);
		free(out);
	}
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
}

/* One run: a noisy metric is not tested, a deterministic one is exact */
static void test_one_run(const char *dir)
{
	static const char *const l[] = {"base", "fast", "faster"};
	struct store st;
	synth_open(&st, dir, "one.db", "o", "time", l, NULL, 3);
	for (int c = 0; c < 3; c++) {
		synth_item(&st, "o", l[c], "w", "ok", "time", "s", 1.0 - 0.05 * c, 0, 1, 100, 1);
		synth_item(&st, "o", l[c], "w", "ok", "insns", "insn", 1000 - 100 * c, 0, 1, 100, 1);
	}
	struct ranking r;
	struct strbuf err = {0};
	T_CHECK(!ranking_compute(&st, "o", NULL, &r, &err), "%s", sb_str(&err));
	const struct rank_config *f = config(&r, "faster");
	T_CHECK(!r.deterministic && f->items[0].untested && !f->items[0].exact &&
		isnan(f->items[0].p) && f->items[0].verdict == VERDICT_UNCHANGED &&
		fabs(f->items[0].ratio - 0.9) < 1e-9, "one run of time: untested, ratio %g",
		f->items[0].ratio);
	T_CHECK(f->untested && f->verdict == VERDICT_UNCHANGED && isnan(f->lo) &&
		f->rank == 1 && config(&r, "fast")->rank == 1 && config(&r, "base")->rank == 1,
		"nothing significant: one shared rank (%d %d %d)", f->rank, config(&r, "fast")->rank,
		config(&r, "base")->rank);
	char *table = print(&r, "table");
	T_CHECK(strstr(table, "one run: not tested") && strstr(table, "not tested") &&
		strstr(table, "One run of a noisy metric is not tested"), "%s", table);
	free(table);
	ranking_release(&r);

	/* a package's test-suite time beside its [run] benchmark (system =
	 * debian stores it with the build): ranked by it, one value a build,
	 * labelled a test-suite time and not sent to repeat = N */
	for (int c = 0; c < 3; c++) {
		struct store_metric m = {RESULTS_TESTS_TIME, 10.0 - c, "s"};
		store_put_build_sizes(&st, "o", synth_id(l[c]), "w", &m, 1);
	}
	T_CHECK(!ranking_compute(&st, "o", RESULTS_TESTS_TIME, &r, &err), "%s", sb_str(&err));
	f = config(&r, "faster");
	T_CHECK(f->nitems == 1 && f->items[0].from_build && fabs(f->items[0].ratio - 0.8) < 1e-9 &&
			f->items[0].untested,
		"tests.time: ratio %g", f->nitems ? f->items[0].ratio : NAN);
	table = print(&r, "table");
	T_CHECK(strstr(table, "a test-suite time, not a benchmark") &&
			!strstr(table, "use repeat >= 2"),
		"%s", table);
	free(table);
	ranking_release(&r);

	/* instruction counts: one run is the measurement; with repeat = auto
	 * they are never NOISY */
	store_put_study(&st, &(struct store_study){.name = "o", .path = "synthetic.study",
						    .metric = "time", .repeat_target = 0.01,
						    .repeat_min = 1, .repeat_max = 30});
	T_CHECK(!ranking_compute(&st, "o", "insns", &r, &err), "%s", sb_str(&err));
	f = config(&r, "faster");
	T_CHECK(r.deterministic && f->items[0].exact && !f->items[0].untested &&
		f->items[0].verdict == VERDICT_IMPROVED && f->status == OUTCOME_OK && f->rank == 1 &&
		config(&r, "fast")->rank == 2 && config(&r, "base")->rank == 3,
		"insns exact: %s rank %d", outcome_name(f->status), f->rank);
	static const char *const formats[] = {"table", "json", "html"};
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		char *out = print(&r, formats[i]);
		T_CHECK(strstr(out, "insns: instructions counted by QEMU (TCG plugin), not timed; "
				    "deterministic") && !strstr(out, "not tested"),
			"%s names the insns rule", formats[i]);
		free(out);
	}
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
}

/* A database made before the cross columns gets them when opened. */
static void test_old_schema(const char *dir)
{
	char *path = xasprintf("%s/old.db", dir);
	unlink(path);
	sqlite3 *db;
	sqlite3_open(path, &db);
	sqlite3_exec(db, "CREATE TABLE configs(study TEXT, id TEXT, label TEXT, cc TEXT,"
			 " toolchain_id TEXT, toolchain_version TEXT, cflags TEXT, ldflags TEXT,"
			 " link TEXT, is_baseline INT, ord INT, PRIMARY KEY(study, id));"
			 "INSERT INTO configs VALUES('s','id1','gcc O2','gcc','t','v','-O2','',"
			 "'default',1,0);", NULL, NULL, NULL);
	sqlite3_close(db);
	struct store st;
	struct strbuf err = {0};
	T_CHECK(!store_open(&st, path, 0, &err), "%s", sb_str(&err));
	size_t n;
	struct result_config *c = results_configs(&st, "s", &n);
	T_CHECK(n == 1 && !strcmp(c[0].label, "gcc O2") && !strcmp(c[0].target, ""),
		"old configs read: %zu", n);
	result_configs_free(c, n);
	struct store_config sc = {
		.study = "s", .id = "id2", .label = "mips", .cc = "gcc", .toolchain_id = "t",
		.toolchain_version = "v", .cflags = "-O2 -march=loongson2f", .ldflags = "",
		.link = "static", .order = 1, .target = "mips64el-linux-gnuabi64",
		.cpu = "Loongson-2F", .libc = "musl", .sysroot = "/cache/sysroot/abc",
		.notes = "-ffp-contract=off: QEMU 7.2 lacks Loongson's fused multiply-add",
	};
	T_CHECK(!store_put_config(&st, &sc), "put a cross configuration");
	c = results_configs(&st, "s", &n);
	T_CHECK(n == 2 && !strcmp(c[1].target, "mips64el-linux-gnuabi64") &&
		!strcmp(c[1].cpu, "Loongson-2F") && !strcmp(c[1].libc, "musl") &&
		!strcmp(c[1].sysroot, "/cache/sysroot/abc") && strstr(c[1].notes, "fp-contract"),
		"cross columns stored and read");
	result_configs_free(c, n);
	store_close(&st);
	sb_release(&err);
	free(path);
}

/* ranking_why_unranked: NULL while something ranks, else why nothing does */
static void test_unranked(const char *dir)
{
	static const char *const l[] = {"base", "other"};
	static const struct {
		const char *status[2]; /* of workload w in base, other */
		const char *why;       /* a substring of the line; NULL: ranked */
	} cases[] = {
		{{"ok", "ok"}, NULL},
		{{"ok", "wrong_output"}, NULL}, /* the baseline alone still ranks */
		{{"crashed", "crashed"},
		 "nothing ranked: every workload is left out of the ranking (w: crashed in every "
		 "configuration"},
		{{"crashed", "run_failed"}, "nothing ranked: every configuration failed (base: w: "},
		{{"crashed", "ok"}, "nothing ranked: the baseline base is crashed, so no configuration "
				    "has a ratio to it"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct store st;
		synth_open(&st, dir, "unranked.db", "u", "time", l, NULL, 2);
		for (int c = 0; c < 2; c++)
			synth_item(&st, "u", l[c], "w", cases[i].status[c], "time", "s", 1, 0.01,
				   !strcmp(cases[i].status[c], "ok") ? 5 : 0, 100, 90 + (uint64_t)c);
		struct ranking r;
		struct strbuf err = {0};
		T_CHECK(!ranking_compute(&st, "u", NULL, &r, &err), "%s", sb_str(&err));
		char *why = ranking_why_unranked(&r);
		T_CHECK(cases[i].why ? why && strstr(why, cases[i].why) : !why,
			"%s/%s: '%s', want '%s'", cases[i].status[0], cases[i].status[1],
			why ? why : "(ranked)", cases[i].why ? cases[i].why : "(ranked)");
		T_CHECK(!why || !strchr(why, '\n'), "one line: %s", why);
		free(why);
		ranking_release(&r);
		sb_release(&err);
		store_close(&st);
	}
}

/* The settled rule (rank.h "Settled") on synthetic samples: a 10%
 * difference at 1% noise is settled after 20 runs; a 1.2% difference at
 * 3% noise after 5 runs is not (and its line says so); the same after
 * 200 runs at 0.3% noise is; two identical sample sets are a settled tie;
 * one run a side never settles. */
static size_t fragile_rule(const char *dir, double b_mu, double sd, size_t n, int same_seed,
			   int looks, const char *rule, char **line)
{
	static const char *const l[] = {"gcc O2", "clang O2"};
	struct store st;
	synth_open(&st, dir, "settle.db", "s", "time", l, NULL, 2);
	for (int w = 0; w < 2; w++) {
		const char *wl = w ? "w2" : "w1";
		synth_item(&st, "s", "gcc O2", wl, "ok", "time", "s", 1.0, sd, n, 100, 10 + w);
		synth_item(&st, "s", "clang O2", wl, "ok", "time", "s", b_mu, sd, n, 100,
			   same_seed ? 10 + w : 20 + w);
	}
	if (looks > 1) {
		char *v = xasprintf("%d", looks);
		T_CHECK(!store_put_fact(&st, "s", "stable_looks", v), "stable_looks");
		free(v);
	}
	if (rule) /* a study of repeat = stable's defaults, 5 to 30 rounds */
		T_CHECK(!store_put_fact(&st, "s", "stable_rule", rule) &&
			!store_put_fact(&st, "s", "stable_max_repeat", "30"), "stable_rule");
	struct ranking r;
	struct strbuf err = {0};
	T_CHECK(!ranking_compute(&st, "s", NULL, &r, &err), "%s", sb_str(&err));
	size_t k = ranking_fragile(&r);
	*line = NULL;
	for (size_t c = 0; c < r.n && !*line; c++)
		*line = rank_config_fragility(&r, &r.configs[c]);
	char *text = print(&r, "table"), *json = print(&r, "json");
	T_CHECK((count(text, "not settled after") == k) && (count(json, "\"fragile\"") == 1),
		"the reports list %zu fragile verdict(s):\n%s\n%s", k, text, json);
	if (looks > 1)
		T_CHECK(strstr(text, rule ? "a verdict that ranks two apart is settled at its look's level of O'Brien-Fleming-type alpha spending of 5%"
					  : "a verdict that ranks two apart is settled once at most 0.19% of the"),
			"the rule text names the level of %d looks (%s):\n%s", looks,
			rule ? rule : "bonferroni", text);
	free(text);
	free(json);
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
	return k;
}

static size_t fragile_looks(const char *dir, double b_mu, double sd, size_t n, int same_seed,
			    int looks, char **line)
{
	return fragile_rule(dir, b_mu, sd, n, same_seed, looks, NULL, line);
}

static size_t fragile_of(const char *dir, double b_mu, double sd, size_t n, int same_seed,
			 char **line)
{
	return fragile_looks(dir, b_mu, sd, n, same_seed, 1, line);
}

static void test_settled(const char *dir)
{
	char *line;
	T_CHECK(fragile_of(dir, 0.9, 0.01, 20, 0, &line) == 0, "10%% apart, 1%% noise: %s", line);
	free(line);
	T_CHECK(fragile_of(dir, 1.012, 0.03, 5, 0, &line) == 1 && line &&
		strstr(line, "vs gcc O2: not settled after 5 runs"), "1.2%% at 3%%, 5 runs: %s",
		line ? line : "(settled)");
	free(line);
	T_CHECK(fragile_of(dir, 1.05, 0.003, 200, 0, &line) == 0, "5%% at 0.3%%, 200 runs: %s",
		line);
	free(line);
	T_CHECK(fragile_of(dir, 1.0, 0.05, 5, 1, &line) == 0, "identical samples: %s", line);
	free(line);
	T_CHECK(fragile_of(dir, 1.3, 0.01, 1, 0, &line) == 1, "one run a side settles nothing");
	free(line);
	/* a study that could look 26 times settles "apart" only at 5% / 26:
	 * 4% apart at 3% noise after 10 runs is settled at one look, not
	 * at 26; 10% apart at 1% noise is settled at both */
	T_CHECK(fragile_looks(dir, 1.04, 0.03, 10, 0, 1, &line) == 0, "4%% at 3%%, 1 look: %s", line);
	free(line);
	T_CHECK(fragile_looks(dir, 1.04, 0.03, 10, 0, 26, &line) == 1 && line &&
		strstr(line, "ranked apart"), "4%% at 3%%, 26 looks: %s", line ? line : "(settled)");
	free(line);
	T_CHECK(fragile_looks(dir, 0.9, 0.01, 20, 0, 26, &line) == 0, "10%% at 1%%, 26 looks: %s",
		line);
	free(line);
	/* alpha spending: a clear difference settles at the look after 20
	 * runs; a 4% one at 3% noise is not after 10 (its level is 0.06%) */
	T_CHECK(fragile_rule(dir, 0.9, 0.01, 20, 0, 26, "obrien-fleming", &line) == 0,
		"10%% at 1%%, spending: %s", line);
	free(line);
	T_CHECK(fragile_rule(dir, 1.04, 0.03, 10, 0, 26, "obrien-fleming", &line) == 1,
		"4%% at 3%%, 10 runs, spending: %s", line ? line : "(settled)");
	free(line);
}

/* A tie not settled at its margin says the band that 95% of its
 * resamples do hold: two equal configurations at 3% noise after 10 runs a
 * side (two items) are known to about +-2% (normal theory for the
 * geometric mean of two ratios of medians: 1.25 x 3% x sqrt(2 / 10) /
 * sqrt(2) x 1.96 = 2.3%; the bootstrap of a median of 10 says 1.7% with
 * these seeds), more than the 1% band, so not settled, and the line and
 * JSON say the band; 200 runs at 0.3% noise settle the tie, its band
 * inside 1%; identical samples hold +-0. */
static void test_tie_within(const char *dir)
{
	static const struct {
		double sd;
		size_t n;
		int same_seed, settled;
		double lo, hi; /* tie_within between */
	} cases[] = {
		{0.03, 10, 0, 0, 0.01, 0.05},
		{0.003, 200, 0, 1, 0, 0.01},
		{0.05, 5, 1, 1, 0, 0},
	};
	static const char *const l[] = {"gcc O2", "clang O2"};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct store st;
		synth_open(&st, dir, "within.db", "t", "time", l, NULL, 2);
		for (int w = 0; w < 2; w++) {
			const char *wl = w ? "w2" : "w1";
			synth_item(&st, "t", "gcc O2", wl, "ok", "time", "s", 1.0, cases[i].sd, cases[i].n,
				   100, 40 + w);
			synth_item(&st, "t", "clang O2", wl, "ok", "time", "s", 1.0, cases[i].sd,
				   cases[i].n, 100, cases[i].same_seed ? 40 + w : 50 + w);
		}
		struct ranking r;
		struct strbuf err = {0};
		T_CHECK(!ranking_compute(&st, "t", NULL, &r, &err), "%s", sb_str(&err));
		const struct rank_config *c = NULL;
		for (size_t k = 0; k < r.n; k++)
			if (r.configs[k].versus >= 0)
				c = &r.configs[k];
		char *line = c ? rank_config_fragility(&r, c) : NULL, *json = print(&r, "json");
		T_CHECK(c && c->rank == r.configs[c->versus].rank && c->tie_within >= cases[i].lo &&
				c->tie_within <= cases[i].hi && (line == NULL) == cases[i].settled,
			"case %zu: a tie %d, within %g, line %s", i,
			c && c->rank == r.configs[c->versus].rank, c ? c->tie_within : NAN,
			line ? line : "(settled)");
		const char *band = line ? strstr(line, "95% fall within +-") : NULL;
		T_CHECK(!line || (band && c && fabs(strtod(band + 18, NULL) - 100 * c->tie_within) < 0.06),
			"the line says the band: %s", line);
		T_CHECK(strstr(json, "\"tie_within\":"), "JSON tie_within");
		/* CSV too, after identical_to (it had only JSON's) */
		char *csv = print(&r, "csv"), want[64];
		snprintf(want, sizeof(want), ",%.9g,", c ? c->tie_within : NAN);
		T_CHECK(strstr(csv, ",identical_to,tie_within,") && strstr(csv, want),
			"CSV tie_within %s:\n%s", want, csv);
		free(csv);
		free(json);
		free(line);
		ranking_release(&r);
		sb_release(&err);
		store_close(&st);
	}
}

/* run --noise-floor's copy of the baseline is no Pareto point: it is the
 * baseline's own build (the same size) run again, so noise alone would
 * put it on the front in the baseline's place */
static void test_noise_floor_pareto(const char *dir)
{
	static const char *const l[] = {"O2", "O3", "O2 (noise floor)"};
	struct store st;
	synth_open(&st, dir, "noise.db", "n", "time", l, NULL, 3);
	const double mu[] = {1.0, 0.8, 0.95}, size[] = {1000, 1300, 1000};
	for (int c = 0; c < 3; c++)
		synth_item(&st, "n", l[c], "w", "ok", "time", "s", mu[c], 0.005, 12, size[c],
			   30 + (uint64_t)c);
	struct ranking r;
	struct strbuf err = {0};
	T_CHECK(!ranking_compute(&st, "n", NULL, &r, &err), "%s", sb_str(&err));
	T_CHECK(!ranking_add_pareto(&st, &r, "time", "size.text"), "pareto added");
	int o2 = -1, nf = -1;
	for (size_t c = 0; c < r.n; c++) {
		if (!strcmp(r.configs[c].label, "O2"))
			o2 = (int)c;
		if (!strcmp(r.configs[c].label, "O2 (noise floor)"))
			nf = (int)c;
	}
	T_CHECK(o2 >= 0 && nf >= 0 && r.npareto && r.pareto[0].front[o2] &&
			!r.pareto[0].front[nf] && isnan(r.pareto[0].xv[nf]),
		"front: O2 %d, noise floor %d", o2 >= 0 && r.npareto ? r.pareto[0].front[o2] : -1,
		nf >= 0 && r.npareto ? r.pareto[0].front[nf] : -1);
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
}

/* a size is the build's: a workload with two run sections weighs it once
 * in the geometric mean (w1 .text x2, w2 the same: sqrt(2), not the
 * cube root of 4 it gave) */
static void test_size_once_per_workload(const char *dir)
{
	static const char *const l[] = {"base", "big"};
	struct store st;
	synth_open(&st, dir, "size.db", "z", "time", l, NULL, 2);
	for (int c = 0; c < 2; c++) {
		double text = c ? 2000 : 1000;
		synth_run(&st, "z", l[c], "w1", "a", "ok", NULL, "time", "s", 1, 0.01, 5, text,
			  40 + (uint64_t)c);
		synth_run(&st, "z", l[c], "w1", "b", "ok", NULL, "time", "s", 2, 0.01, 5, text,
			  50 + (uint64_t)c);
		synth_item(&st, "z", l[c], "w2", "ok", "time", "s", 3, 0.01, 5, 1000,
			   60 + (uint64_t)c);
	}
	struct ranking r;
	struct strbuf err = {0};
	T_CHECK(!ranking_compute(&st, "z", "size.text", &r, &err), "%s", sb_str(&err));
	const struct rank_config *big = config(&r, "big");
	T_CHECK(big->nitems == 3, "items %zu (each run section still listed)", big->nitems);
	T_CHECK(fabs(big->ratio - sqrt(2)) < 1e-9, "size.text geometric mean %.6f, want %.6f "
		"(w1 once, w2 once)", big->ratio, sqrt(2));
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
}

int main(void)
{
	char *dir = test_tmpdir("test_rank");
	test_noise_floor_pareto(dir);
	test_ranks(dir);
	test_noisy(dir);
	test_higher_better(dir);
	test_selectors(dir);
	test_left_out(dir);
	test_many_metrics(dir);
	test_unranked(dir);
	test_note(dir);
	test_one_run(dir);
	test_old_schema(dir);
	test_settled(dir);
	test_tie_within(dir);
	test_size_once_per_workload(dir);
	free(dir);
	return test_summary("test_rank");
}
