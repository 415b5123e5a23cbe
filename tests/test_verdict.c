/*
 * test_verdict.c - analysis/verdict: the one rule.  Expect: a summary is
 * improved only with its interval clear of 1 by min_effect AND some part
 * significantly better AND none worse; parts better and worse are MIXED
 * whatever the mean; one part is its own summary; an untested part makes
 * the summary untested; higher-is-better flips sides; the case
 * (two runs a side, 10% faster: an interval clear of 1 while no part can
 * be significant) is UNCHANGED; the same pair gives bit-identical figures
 * however many other pairs were judged before; the fewest runs a side
 * Mann-Whitney needs is computed from the test itself (4 at 5%).
 *
 * `test_verdict --write-dbs DIR` writes the synthetic databases
 * tests/it_verdicts_agree.sh reads with every command (described at
 * write_dbs below) and exits.
 */
#include "analysis/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/synthdb.h"
#include "tests/testlib.h"

static const struct verdict_rule rule5 = {
	.alpha = 0.05, .min_effect = 0.01, .iters = 2000, .seed = STATS_DEFAULT_SEED,
};

#define I VERDICT_IMPROVED
#define R VERDICT_REGRESSED
#define U VERDICT_UNCHANGED
#define M VERDICT_MIXED

static void test_summary_rule(void)
{
	static const struct {
		const char *what;
		int higher_better;
		double ratio, lo, hi;
		size_t nparts;
		enum verdict one;
		size_t improved, regressed;
		int untested;
		enum verdict want;
	} cases[] = {
		{"clear of 1, a part better", 0, 0.9, 0.85, 0.95, 2, U, 1, 0, 0, I},
		{"clear of 1, no part significant (the issue's repeat = 2)", 0, 0.9, 0.821, 0.991, 2, U,
		 0, 0, 0, U},
		{"clear of 1, a part worse too", 0, 0.9, 0.85, 0.95, 2, U, 1, 1, 0, M},
		{"parts better and worse, mean near 1 (lz4's +1.7%)", 0, 1.017, 0.95, 1.08, 2, U, 1, 1,
		 0, M},
		{"interval includes 1", 0, 0.97, 0.93, 1.01, 3, U, 1, 0, 0, U},
		{"under min_effect", 0, 0.995, 0.99, 0.999, 3, U, 2, 0, 0, U},
		{"worse", 0, 1.2, 1.1, 1.3, 2, U, 0, 2, 0, R},
		{"worse interval but the worse part is not significant", 0, 1.2, 1.1, 1.3, 2, U, 1, 0,
		 0, U},
		{"one part: its own verdict", 0, 0.9, 0.8, 1.1, 1, I, 1, 0, 0, I},
		{"one part unchanged though the interval is clear", 0, 0.9, 0.85, 0.95, 1, U, 0, 0, 0,
		 U},
		{"untested", 0, 0.9, NAN, NAN, 2, U, 1, 0, 1, U},
		{"higher is better: above 1 is better", 1, 1.1, 1.05, 1.15, 2, U, 1, 0, 0, I},
		{"higher is better: below 1 is worse", 1, 0.9, 0.85, 0.95, 2, U, 0, 1, 0, R},
		{"exactly min_effect", 0, 0.99, 0.98, 0.995, 2, U, 1, 0, 0, I},
		{"no parts", 0, NAN, NAN, NAN, 0, U, 0, 0, 0, U},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct verdict_rule r = rule5;
		r.higher_better = cases[i].higher_better;
		enum verdict v = verdict_of_summary(&r, cases[i].ratio, cases[i].lo, cases[i].hi,
						    cases[i].nparts, cases[i].one, cases[i].improved,
						    cases[i].regressed, cases[i].untested);
		T_CHECK(v == cases[i].want, "%s: %s, want %s", cases[i].what, verdict_name(v),
			verdict_name(cases[i].want));
	}
}

/* n values around mu, rel_sd spread, from a seed */
static double *draw(double mu, double rel_sd, size_t n, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	double *v = xcalloc(n, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = synth_normal(&r, mu, mu * rel_sd);
	return v;
}

/* Two parts named w1 and w2 judged into p, each's comparison in c[]. */
static void judge_two(const struct sample_pair pairs[2], struct verdict_parts *p,
		      struct comparison c[2])
{
	verdict_parts_init(p, 2);
	for (size_t i = 0; i < 2; i++) {
		verdict_part(&rule5, pairs[i].cand, pairs[i].ncand, pairs[i].base, pairs[i].nbase,
			     &c[i]);
		verdict_parts_add(p, pairs[i], i ? "w2" : "w1", &c[i]);
	}
}

/* The failure from samples: 10% faster on two workloads, two runs
 * a side.  The bootstrap's interval of the geometric mean is clear of 1,
 * yet neither workload's test can be significant: the summary is
 * unchanged, and so are its parts. */
static void test_two_runs(void)
{
	double *a1 = draw(0.9, 0.01, 2, 1), *b1 = draw(1.0, 0.01, 2, 2);
	double *a2 = draw(1.8, 0.01, 2, 3), *b2 = draw(2.0, 0.01, 2, 4);
	struct sample_pair pairs[] = {{a1, 2, b1, 2}, {a2, 2, b2, 2}};
	struct verdict_parts parts;
	struct comparison c[2];
	judge_two(pairs, &parts, c);
	for (size_t i = 0; i < 2; i++)
		T_CHECK(c[i].verdict == U && c[i].p > 0.3, "part %zu at two runs: %s p %g", i,
			verdict_name(c[i].verdict), c[i].p);
	struct verdict_summary s;
	T_CHECK(!verdict_summarise(&rule5, &parts, &s), "summarise");
	T_CHECK(s.hi < 1 && s.verdict == U && !s.mixed, "two runs: %.3f [%.3f, %.3f] %s (the "
		"interval is clear of 1 but no part is significant)", s.ratio, s.lo, s.hi,
		verdict_name(s.verdict));
	verdict_parts_release(&parts);
	free(a1), free(b1), free(a2), free(b2);
}

/* Significant parts both ways make MIXED, listed; the same pair judged
 * again after others gives the same figures. */
static void test_mixed_and_reproducible(void)
{
	double *fast = draw(0.75, 0.02, 10, 5), *slow = draw(3.75, 0.02, 10, 6);
	double *b1 = draw(1.0, 0.02, 10, 7), *b2 = draw(3.0, 0.02, 10, 8);
	struct sample_pair pairs[] = {{fast, 10, b1, 10}, {slow, 10, b2, 10}};
	struct verdict_parts parts;
	struct comparison cs[2], first;
	judge_two(pairs, &parts, cs);
	first = cs[0];
	T_CHECK(parts.named[0].verdict == I && parts.named[1].verdict == R, "parts %s %s",
		verdict_name(parts.named[0].verdict), verdict_name(parts.named[1].verdict));
	struct verdict_summary s, again;
	verdict_summarise(&rule5, &parts, &s);
	T_CHECK(s.verdict == M && s.improved == 1 && s.regressed == 1, "mixed: %s",
		verdict_name(s.verdict));
	T_CHECK(s.mixed && !strncmp(s.mixed, "mixed: -2", 9) && strstr(s.mixed, "% w1, +2") &&
			strstr(s.mixed, "% w2") && !strstr(s.mixed, "w2,"),
		"%s", s.mixed ? s.mixed : "(none)");
	free(s.mixed);
	struct comparison c;
	verdict_part(&rule5, pairs[0].cand, 10, pairs[0].base, 10, &c);
	T_CHECK(c.lo == first.lo && c.hi == first.hi && c.p == first.p, "a part again: [%g, %g] "
		"then [%g, %g]", first.lo, first.hi, c.lo, c.hi);
	verdict_summarise(&rule5, &parts, &again);
	T_CHECK(again.lo == s.lo && again.hi == s.hi, "a summary again");
	free(again.mixed);
	verdict_parts_release(&parts);
	free(fast), free(slow), free(b1), free(b2);
}

static void test_power(void)
{
	static const struct {
		double alpha;
		size_t want;
	} cases[] = {{0.05, 4}, {0.2, 3}, {0.01, 5}, {0.5, 2}, {0, 0}};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		T_CHECK(verdict_min_runs(cases[i].alpha) == cases[i].want, "alpha %g: %zu, want %zu",
			cases[i].alpha, verdict_min_runs(cases[i].alpha), cases[i].want);
	/* 2 / C(6, 3) */
	T_CHECK(fabs(verdict_smallest_p(3, 3) - 0.1) < 1e-9, "smallest p at 3: %g",
		verdict_smallest_p(3, 3));
	char *w = verdict_power_warning(3, 0.05, "x.study:4: repeat = 3", "repeat");
	T_CHECK(w && !strncmp(w, "x.study:4: repeat = 3: with 3 runs a side no workload can be "
				 "significant: the smallest Mann-Whitney p is 0.1", 97) &&
			strstr(w, "repeat = stable, the default") && strstr(w, "repeat = 4 or more)"),
		"%s", w ? w : "(none)");
	free(w);
	T_CHECK(!verdict_power_warning(4, 0.05, "x", "repeat"), "4 runs can be significant");
}

/*
 * The databases it_verdicts_agree.sh reads (study "agree", metric time):
 *  two.db    the repeat = 2: base and o3, o3 10% faster on w1 and
 *            w2 (one run each), two runs a side;
 *  mixed.db  ten runs a side: base; v1 the same everywhere; v2 the same
 *            on w1, 25% faster on lz4/default and 25% slower on lz4/best
 *            (the distro table's "+1.7%~"); v3 10% faster everywhere.
 */
static void write_dbs(const char *dir)
{
	struct store st;
	static const char *const two[] = {"base", "o3"};
	synth_open(&st, dir, "two.db", "agree", "time", two, NULL, 2);
	synth_item(&st, "agree", "base", "w1", "ok", "time", "s", 1.0, 0.01, 2, 1000, 1);
	synth_item(&st, "agree", "base", "w2", "ok", "time", "s", 2.0, 0.01, 2, 1000, 2);
	synth_item(&st, "agree", "o3", "w1", "ok", "time", "s", 0.9, 0.01, 2, 1000, 3);
	synth_item(&st, "agree", "o3", "w2", "ok", "time", "s", 1.8, 0.01, 2, 1000, 4);
	store_close(&st);
	static const char *const mixed[] = {"base", "v1", "v2", "v3"};
	static const double factor[][3] = {{1, 1, 1}, {1, 1, 1}, {1, 0.75, 1.25}, {0.9, 0.9, 0.9}};
	synth_open(&st, dir, "mixed.db", "agree", "time", mixed, NULL, 4);
	for (size_t c = 0; c < ARRAY_SIZE(mixed); c++) {
		uint64_t seed = 100 * (c + 1);
		synth_item(&st, "agree", mixed[c], "w1", "ok", "time", "s", factor[c][0], 0.005, 10,
			   1000, seed + 1);
		synth_run(&st, "agree", mixed[c], "lz4", "default", "ok", NULL, "time", "s",
			  factor[c][1], 0.005, 10, 2000, seed + 2);
		synth_run(&st, "agree", mixed[c], "lz4", "best", "ok", NULL, "time", "s",
			  3 * factor[c][2], 0.005, 10, 2000, seed + 3);
	}
	store_close(&st);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write-dbs")) {
		write_dbs(argv[2]);
		return 0;
	}
	test_summary_rule();
	test_two_runs();
	test_mixed_and_reproducible();
	test_power();
	return test_summary("test_verdict");
}
