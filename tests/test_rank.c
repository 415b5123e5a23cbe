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
	store_put_fact(&st, "n", "repeat.auto", "target=0.01 min=5 max=30");
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

int main(void)
{
	char *dir = test_tmpdir("test_rank");
	test_ranks(dir);
	test_noisy(dir);
	test_higher_better(dir);
	free(dir);
	return test_summary("test_rank");
}
