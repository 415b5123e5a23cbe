/*
 * test_stats_layout.c - layout as a random effect (analysis/stats.h, the
 * nested bootstrap; analysis/verdict.h, verdict_pair) on synthetic data
 * with a planted layout effect.
 *
 * Expected: all checks pass.  With three layouts a side whose medians
 * differ by a few percent (alignment-only builds on a layout-sensitive
 * CPU) and little run-to-run noise, comparing one binary with another
 * calls the A/A pair different, the nested rule calls it unchanged, and a
 * 3x difference (-O0 against -O2) is still significant with the same
 * layouts.  Over many simulated A/A studies the nested rule calls far
 * fewer pairs different than the per-binary one (the rates are printed).
 * With one layout a side the nested functions give the plain numbers bit
 * for bit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/verdict.h"
#include "tests/testlib.h"

#define RUNS 10 /* per layout */
#define MAXL 4

static double normal(struct rng *r, double mu, double sigma)
{
	double u1 = 1 - rng_uniform(r), u2 = rng_uniform(r);
	return mu + sigma * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* RUNS runs of each of k layouts: layout l's runs around mu * factor[l],
 * with relative noise rel_sd; layout ids 0..k-1 into id. */
static void side(double *x, int *id, size_t k, double mu, const double *factor, double rel_sd,
		 struct rng *r)
{
	for (size_t l = 0; l < k; l++)
		for (size_t i = 0; i < RUNS; i++) {
			x[l * RUNS + i] = normal(r, mu * factor[l], mu * factor[l] * rel_sd);
			id[l * RUNS + i] = (int)l;
		}
}

static const struct verdict_rule rule = {
	.alpha = 0.05, .min_effect = 0.01, .iters = 2000, .seed = STATS_DEFAULT_SEED,
};

/* Alignment-only variants: layouts that move the medians by -4..+4%. */
static const double base_layouts[] = {0.96, 1.00, 1.04};
static const double cand_layouts[] = {1.03, 0.98, 1.01};

static void test_planted(void)
{
	struct rng r;
	rng_seed(&r, 7);
	double a[3 * RUNS], b[3 * RUNS], slow[3 * RUNS];
	int la[3 * RUNS], lb[3 * RUNS], ls[3 * RUNS];
	side(a, la, 3, 100, cand_layouts, 0.003, &r);
	side(b, lb, 3, 100, base_layouts, 0.003, &r);
	side(slow, ls, 3, 300, cand_layouts, 0.003, &r);

	/* one binary against another: the first layouts, 103 against 96 */
	struct comparison one;
	verdict_part(&rule, a, RUNS, b, RUNS, &one);
	T_CHECK(one.verdict == VERDICT_REGRESSED, "per binary: %s (ratio %.4f p %.2g), want regressed",
		verdict_name(one.verdict), one.ratio, one.p);

	/* the same runs with layout as a random effect */
	struct comparison aa;
	verdict_pair(&rule, &(struct sample_pair){a, 3 * RUNS, b, 3 * RUNS, la, lb}, &aa);
	T_CHECK(aa.verdict == VERDICT_UNCHANGED, "nested A/A: %s (ratio %.4f [%.4f, %.4f] p %.3g)",
		verdict_name(aa.verdict), aa.ratio, aa.lo, aa.hi, aa.p);
	T_CHECK(aa.layouts_cand == 3 && aa.layouts_base == 3, "layouts %zu %zu", aa.layouts_cand,
		aa.layouts_base);
	T_CHECK(aa.lo < 1 && aa.hi > 1, "nested A/A interval [%.4f, %.4f] holds 1", aa.lo, aa.hi);
	printf("A/A, 3 layouts x %d runs: per binary %.4f p %.2g %s; nested %.4f [%.4f, %.4f] p %.3g %s\n",
	       RUNS, one.ratio, one.p, verdict_name(one.verdict), aa.ratio, aa.lo, aa.hi, aa.p,
	       verdict_name(aa.verdict));

	/* a real difference, -O0 against -O2 sized, with the same layouts */
	struct comparison big;
	verdict_pair(&rule, &(struct sample_pair){slow, 3 * RUNS, b, 3 * RUNS, ls, lb}, &big);
	T_CHECK(big.verdict == VERDICT_REGRESSED, "nested 3x: %s (ratio %.4f [%.4f, %.4f] p %.3g)",
		verdict_name(big.verdict), big.ratio, big.lo, big.hi, big.p);
	printf("3x, 3 layouts: nested %.4f [%.4f, %.4f] p %.3g %s\n", big.ratio, big.lo, big.hi,
	       big.p, verdict_name(big.verdict));

	/* without a layout effect a 2% difference is still found */
	static const double flat[] = {1, 1, 1};
	double c2[3 * RUNS], b2[3 * RUNS];
	int lc2[3 * RUNS], lb2[3 * RUNS];
	side(c2, lc2, 3, 102, flat, 0.005, &r);
	side(b2, lb2, 3, 100, flat, 0.005, &r);
	struct comparison small;
	verdict_pair(&rule, &(struct sample_pair){c2, 3 * RUNS, b2, 3 * RUNS, lc2, lb2}, &small);
	T_CHECK(small.verdict == VERDICT_REGRESSED, "2%%, no layout effect: %s (%.4f p %.3g)",
		verdict_name(small.verdict), small.ratio, small.p);

	/* the ratio is of the means of the layouts' medians */
	double mc = 0, mb = 0;
	for (int l = 0; l < 3; l++) {
		mc += stats_median(a + l * RUNS, RUNS) / 3;
		mb += stats_median(b + l * RUNS, RUNS) / 3;
	}
	T_CHECK(fabs(aa.ratio - mc / mb) < 1e-12, "ratio %.15g, means of medians %.15g", aa.ratio,
		mc / mb);

	/* higher-is-better orientation goes through verdict_pair too */
	struct verdict_rule hb = rule;
	hb.higher_better = 1;
	verdict_pair(&hb, &(struct sample_pair){slow, 3 * RUNS, b, 3 * RUNS, ls, lb}, &big);
	T_CHECK(big.verdict == VERDICT_IMPROVED, "higher is better: %s", verdict_name(big.verdict));
}

/* One layout a side: verdict_pair is verdict_part, and the geometric
 * mean with layouts all one id is the plain one, bit for bit. */
static void test_one_layout_is_plain(void)
{
	struct rng r;
	rng_seed(&r, 11);
	double a[RUNS], b[RUNS];
	int zero[RUNS] = {0};
	static const double one[] = {1};
	side(a, zero, 1, 100, one, 0.02, &r);
	side(b, zero, 1, 103, one, 0.02, &r);
	struct comparison p, q;
	verdict_part(&rule, a, RUNS, b, RUNS, &p);
	verdict_pair(&rule, &(struct sample_pair){a, RUNS, b, RUNS, zero, zero}, &q);
	T_CHECK(p.ratio == q.ratio && p.lo == q.lo && p.hi == q.hi && p.p == q.p &&
			p.verdict == q.verdict && !q.layouts_cand,
		"one layout: part %.17g [%.17g, %.17g] p %g, pair %.17g [%.17g, %.17g] p %g", p.ratio,
		p.lo, p.hi, p.p, q.ratio, q.lo, q.hi, q.p);

	struct sample_pair flat = {a, RUNS, b, RUNS, NULL, NULL};
	struct sample_pair named = {a, RUNS, b, RUNS, zero, zero};
	double g1, l1, h1, g2, l2, h2;
	struct rng r1, r2;
	rng_seed(&r1, 5);
	rng_seed(&r2, 5);
	T_CHECK(!stats_geomean_ratio(&flat, 1, 0.95, 500, &r1, &g1, &l1, &h1) &&
			!stats_geomean_ratio(&named, 1, 0.95, 500, &r2, &g2, &l2, &h2) && g1 == g2 &&
			l1 == l2 && h1 == h2,
		"geomean: flat %.17g [%.17g, %.17g], one layout %.17g [%.17g, %.17g]", g1, l1, h1, g2,
		l2, h2);
	T_CHECK(stats_layout_count(NULL, 3) == 1 && stats_layout_count(zero, 0) == 0,
		"layout counts of NULL and of nothing");
	int ids[] = {4, 9, 4, 2, 9};
	T_CHECK(stats_layout_count(ids, 5) == 3, "3 distinct ids: %zu",
		stats_layout_count(ids, 5));
}

/* A summary over parts with layouts resamples them nested: the planted
 * A/A part's interval in the geometric mean holds 1. */
static void test_nested_summary(void)
{
	struct rng r;
	rng_seed(&r, 13);
	double a[3 * RUNS], b[3 * RUNS];
	int la[3 * RUNS], lb[3 * RUNS];
	side(a, la, 3, 100, cand_layouts, 0.003, &r);
	side(b, lb, 3, 100, base_layouts, 0.003, &r);
	struct sample_pair nested = {a, 3 * RUNS, b, 3 * RUNS, la, lb};
	struct sample_pair flat = {a, 3 * RUNS, b, 3 * RUNS, NULL, NULL};
	double g, lo, hi, fg, flo, fhi;
	T_CHECK(!stats_geomean_ratio(&nested, 1, 0.95, 2000, NULL, &g, &lo, &hi) &&
			!stats_geomean_ratio(&flat, 1, 0.95, 2000, NULL, &fg, &flo, &fhi),
		"geomean ok");
	T_CHECK(lo < 1 && hi > 1 && hi - lo > 2 * (fhi - flo),
		"nested interval [%.4f, %.4f] holds 1 and is wider than the pooled [%.4f, %.4f]", lo,
		hi, flo, fhi);
}

/* One A/A study of k layouts a side, each layout's effect N(0, 3%),
 * runs +-0.5%: whether the per-binary rule (the first layouts only, what
 * one build per configuration measures), the pooled runs and the nested
 * rule call it different (bit 0, 1, 2). */
static int aa_trial(size_t k, const struct verdict_rule *rule, struct rng *r)
{
	double fa[MAXL], fb[MAXL], a[MAXL * RUNS], b[MAXL * RUNS];
	int la[MAXL * RUNS], lb[MAXL * RUNS];
	for (size_t l = 0; l < k; l++) {
		fa[l] = exp(normal(r, 0, 0.03));
		fb[l] = exp(normal(r, 0, 0.03));
	}
	side(a, la, k, 100, fa, 0.005, r);
	side(b, lb, k, 100, fb, 0.005, r);
	struct comparison c;
	int called = 0;
	verdict_part(rule, a, RUNS, b, RUNS, &c);
	called |= c.verdict != VERDICT_UNCHANGED;
	verdict_part(rule, a, k * RUNS, b, k * RUNS, &c);
	called |= (c.verdict != VERDICT_UNCHANGED) << 1;
	verdict_pair(rule, &(struct sample_pair){a, k * RUNS, b, k * RUNS, la, lb}, &c);
	called |= (c.verdict != VERDICT_UNCHANGED) << 2;
	return called;
}

/* Many A/A studies: how often each rule calls the pair different, at 2
 * to MAXL layouts a side (printed); the nested rule must call far fewer
 * than the other two. */
static void test_false_positives(void)
{
	enum { TRIALS = 200 };
	struct verdict_rule fast = rule;
	fast.iters = 1000;
	for (size_t k = 2; k <= MAXL; k++) {
		struct rng r;
		rng_seed(&r, 17);
		int n[3] = {0};
		for (int t = 0; t < TRIALS; t++) {
			int called = aa_trial(k, &fast, &r);
			for (int i = 0; i < 3; i++)
				n[i] += (called >> i) & 1;
		}
		printf("A/A x %d (layout sd 3%%, runs 0.5%%, %zu layouts x %d runs): called "
		       "different: per binary %.0f%%, pooled runs %.0f%%, nested %.1f%%\n",
		       TRIALS, k, RUNS, 100.0 * n[0] / TRIALS, 100.0 * n[1] / TRIALS,
		       100.0 * n[2] / TRIALS);
		T_CHECK(n[2] * 4 < n[0] && n[2] * 4 < n[1],
			"%zu layouts: nested %d should be far below per binary %d and pooled %d", k,
			n[2], n[0], n[1]);
	}
}

/* Welch's t against values integrated independently (Simpson's rule over
 * the t density, Python): {1,2,3} against {4,5,6} is t = -3.674 on 4
 * degrees of freedom, p 0.021312. */
static void test_welch(void)
{
	static const double a[] = {1, 2, 3}, b[] = {4, 5, 6}, c[] = {2, 2}, d[] = {3, 3};
	double p = stats_welch_p(a, 3, b, 3);
	T_CHECK(fabs(p - 0.0213116374) < 1e-7, "welch p %.10f, want 0.0213116374", p);
	T_CHECK(stats_welch_p(b, 3, a, 3) == p, "symmetric");
	T_CHECK(isnan(stats_welch_p(c, 2, d, 2)) && stats_welch_p(c, 2, c, 2) == 1,
		"no spread: untestable (NAN) when the means differ, 1 when not");
	T_CHECK(isnan(stats_welch_p(a, 1, b, 3)), "one value a side: NAN");
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{"welch", test_welch},
	{"planted layout effect", test_planted},
	{"one layout is the plain rule", test_one_layout_is_plain},
	{"summary resamples nested", test_nested_summary},
	{"A/A false positives", test_false_positives},
};

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		int before = test_failures;
		tests[i].fn();
		printf("%s %s\n", test_failures == before ? "ok  " : "FAIL", tests[i].name);
	}
	return test_summary("test_stats_layout");
}
