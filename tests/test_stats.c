/*
 * test_stats.c - analysis/stats: hand-computed summaries, the exact and the
 * normal Mann-Whitney test against enumeration and published tables,
 * seeded bootstrap intervals, verdicts with a planted difference, shared
 * ranks and the Pareto front.  Every hard-coded number says where it comes
 * from; all of them were also recomputed independently (exact fractions,
 * pure Python) before being written here.
 */
#include "analysis/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "tests/testlib.h"

static int near(double got, double want, double tol)
{
	return fabs(got - want) <= tol * fmax(1, fabs(want));
}

#define CHECK_NEAR(got, want, tol) \
	T_CHECK(near((got), (want), (tol)), "got %.17g, want %.17g", (double)(got), (double)(want))

/* N(mu, sigma) by Box-Muller from the module's own generator */
static double normal(struct rng *r, double mu, double sigma)
{
	double u1 = 1 - rng_uniform(r), u2 = rng_uniform(r);
	return mu + sigma * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

static void noisy(double *x, size_t n, double mu, double rel_sd, struct rng *r)
{
	for (size_t i = 0; i < n; i++)
		x[i] = normal(r, mu, mu * rel_sd);
}

/* ---- random numbers ---------------------------------------------------- */

static void test_rng(void)
{
	/* First outputs of xoshiro256** seeded through splitmix64, from an
	 * independent Python transcription of Vigna's reference code: the
	 * stream must be the same on every machine. */
	static const struct {
		uint64_t seed, out[3];
	} known[] = {
		{ 0, { 0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL, 0x1a5f849d4933e6e0ULL } },
		{ 42, { 0x15780b2e0c2ec716ULL, 0x6104d9866d113a7eULL, 0xae17533239e499a1ULL } },
	};
	for (size_t c = 0; c < ARRAY_SIZE(known); c++) {
		struct rng r;
		rng_seed(&r, known[c].seed);
		for (int i = 0; i < 3; i++) {
			uint64_t v = rng_next(&r);
			T_CHECK(v == known[c].out[i], "seed %llu output %d: %llx",
			      (unsigned long long)known[c].seed, i, (unsigned long long)v);
		}
	}

	struct rng r;
	rng_seed(&r, 1);
	int hits[7] = { 0 };
	for (int i = 0; i < 7000; i++) {
		uint64_t k = rng_below(&r, 7);
		T_CHECK(k < 7, "rng_below(7) gave %llu", (unsigned long long)k);
		if (k < 7)
			hits[k]++;
		double u = rng_uniform(&r);
		T_CHECK(u >= 0 && u < 1, "rng_uniform gave %g", u);
	}
	/* 1000 expected per bucket, sd ~ 29: 850..1150 is over 5 sd */
	for (int k = 0; k < 7; k++)
		T_CHECK(hits[k] > 850 && hits[k] < 1150, "bucket %d hit %d times of 7000", k, hits[k]);
}

/* ---- descriptive statistics -------------------------------------------- */

static const struct summary_case {
	const char *name;
	double x[16];
	size_t n;
	double median, mad, mean, sd, min, max;
	size_t outliers;
	int constant;
} summary_cases[] = {
	/* |x - 3| = 2 1 0 1 97 -> MAD 1; mean 110/5; sd^2 = 7610/4; 100 has
	 * modified z 0.6745 * 97 = 65.4 > 3.5 */
	{ "odd with outlier", { 1, 2, 3, 4, 100 }, 5, 3, 1, 22, 43.617656975128774, 1, 100, 1, 0 },
	/* sorted 1 2 3 4: median 2.5; |x - 2.5| = 1.5 .5 .5 1.5 -> MAD 1;
	 * sd^2 = (2.25 + .25 + .25 + 2.25) / 3 = 5/3 */
	{ "even", { 4, 1, 3, 2 }, 4, 2.5, 1, 2.5, 1.2909944487358056, 1, 4, 0, 0 },
	{ "single run", { 42 }, 1, 42, 0, 42, NAN, 42, 42, 0, 1 },
	/* a deterministic count: no spread, the interval is the point */
	{ "deterministic", { 7, 7, 7, 7, 7 }, 5, 7, 0, 7, 0, 7, 7, 0, 1 },
	/* MAD 0 (12 of 13 equal): MeanAD 1/13, z = 1 / (1.253314 / 13) =
	 * 10.4 > 3.5, so the one run that moved is an outlier */
	{ "mad zero, one moved", { 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 101 },
	  13, 100, 0, 1301.0 / 13, 0.27735009811261457, 100, 101, 1, 0 },
	/* MAD 0 (7 of 13 equal) but six values at 101: MeanAD 6/13, z =
	 * 1 / (1.253314 * 6 / 13) = 1.73, so a zero MAD does not flag all */
	{ "mad zero, many moved", { 100, 101, 100, 101, 100, 101, 100, 101, 100, 101, 100, 101, 100 },
	  13, 100, 0, 1306.0 / 13, 0.51887452166277138, 100, 101, 0, 0 },
};

static int same(double got, double want)
{
	return isnan(want) ? isnan(got) : near(got, want, 1e-12);
}

static void test_summary_cases(void)
{
	for (size_t c = 0; c < ARRAY_SIZE(summary_cases); c++) {
		const struct summary_case *t = &summary_cases[c];
		double before[16];
		struct summary s;
		struct rng r;

		memcpy(before, t->x, sizeof(before));
		rng_seed(&r, 1);
		stats_summarize(t->x, t->n, 0.95, 500, &r, &s);
		T_CHECK(s.n == t->n, "%s: n %zu", t->name, s.n);
		T_CHECK(same(s.median, t->median), "%s: median %.17g", t->name, s.median);
		T_CHECK(same(stats_median(t->x, t->n), t->median), "%s: stats_median", t->name);
		T_CHECK(same(s.mad, t->mad), "%s: mad %.17g", t->name, s.mad);
		T_CHECK(same(stats_mad(t->x, t->n), t->mad), "%s: stats_mad", t->name);
		T_CHECK(same(s.mean, t->mean), "%s: mean %.17g", t->name, s.mean);
		T_CHECK(same(s.sd, t->sd), "%s: sd %.17g", t->name, s.sd);
		T_CHECK(s.min == t->min && s.max == t->max, "%s: min %g max %g", t->name, s.min, s.max);
		T_CHECK(s.outliers == t->outliers, "%s: %zu outliers", t->name, s.outliers);
		T_CHECK(stats_flag_outliers(t->x, t->n, NULL) == t->outliers, "%s: flag count", t->name);
		T_CHECK(s.constant == t->constant, "%s: constant %d", t->name, s.constant);
		T_CHECK(s.ci_lo <= s.median && s.median <= s.ci_hi, "%s: ci [%g, %g] misses median",
		      t->name, s.ci_lo, s.ci_hi);
		if (t->constant)
			T_CHECK(s.ci_lo == s.median && s.ci_hi == s.median, "%s: not a point", t->name);
		T_CHECK(!memcmp(before, t->x, sizeof(before)), "%s: input modified", t->name);
	}

	int flag[5];
	T_CHECK(stats_flag_outliers(summary_cases[0].x, 5, flag) == 1 && flag[4] && !flag[0],
	      "the outlier flagged is 100");
	T_CHECK(!stats_is_outlier(1e9, 0, 0), "MAD 0 flags nothing");
	T_CHECK(stats_is_outlier(6.2, 1, 1) && !stats_is_outlier(6.1, 1, 1),
	      "cut at 3.5 / 0.6745 = 5.189 MADs");

	struct summary s;
	stats_summarize(NULL, 0, 0.95, 100, NULL, &s);
	T_CHECK(s.n == 0 && isnan(s.median) && isnan(s.ci_lo) && s.outliers == 0, "empty summary");
	T_CHECK(isnan(stats_median(NULL, 0)) && isnan(stats_mad(NULL, 0)), "empty median/mad");
	double with_nan[] = { 1, NAN, 3 };
	T_CHECK(isnan(stats_median(with_nan, 3)), "NaN sample has no median");
}

static void test_quantile_selection(void)
{
	double q[] = { 4, 1, 3, 2 };
	/* type 7: h = (n - 1) p; 0.25 -> h = 0.75 -> 1 + 0.75 (2 - 1) */
	CHECK_NEAR(stats_quantile(q, 4, 0.25), 1.75, 1e-15);
	T_CHECK(stats_quantile(q, 4, 0) == 1 && stats_quantile(q, 4, 1) == 4, "ends");
	T_CHECK(isnan(stats_quantile(q, 4, 1.5)), "p outside [0, 1]");

	/* the selection against a full sort, with many repeats */
	struct rng r;
	rng_seed(&r, 3);
	for (size_t n = 1; n <= 40; n++) {
		double x[40], sorted[40];
		for (size_t i = 0; i < n; i++)
			x[i] = (double)rng_below(&r, n / 3 + 1);
		memcpy(sorted, x, n * sizeof(double));
		for (size_t i = 1; i < n; i++) /* insertion sort: obviously right */
			for (size_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
				double t = sorted[j];
				sorted[j] = sorted[j - 1];
				sorted[j - 1] = t;
			}
		for (size_t k = 0; k < n; k++) {
			double p = n > 1 ? (double)k / (double)(n - 1) : 0;
			/* (n - 1) * k / (n - 1) may land a hair under k */
			T_CHECK(near(stats_quantile(x, n, p), sorted[k], 1e-12), "n %zu k %zu", n, k);
		}
		double want = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
		T_CHECK(stats_median(x, n) == want, "median n %zu", n);
	}
}

/* ---- Mann-Whitney ------------------------------------------------------ */

/* Two samples with no ties whose U (pairs a > b) is exactly u: b are the
 * even numbers, each a sits just above the b's it beats. */
static void make_u(size_t m, size_t n, size_t u, double *a, double *b)
{
	for (size_t j = 0; j < n; j++)
		b[j] = 2.0 * (double)j;
	for (size_t i = 0; i < m; i++) {
		size_t k = u > n ? n : u;
		u -= k;
		a[i] = 2.0 * (double)k - 1 + 0.01 * (double)i;
	}
}

/* Two-sided p by enumerating all C(m+n, m) ways to split the pooled
 * values, with U counted pair by pair: shares no code with the module. */
static double brute_force_p(const double *a, size_t m, const double *b, size_t n)
{
	double pool[16];
	size_t N = m + n, le = 0, ge = 0, total = 0;
	double u0 = 0;

	memcpy(pool, a, m * sizeof(double));
	memcpy(pool + m, b, n * sizeof(double));
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			u0 += a[i] > b[j];
	for (unsigned mask = 0; mask < (1u << N); mask++) {
		if ((size_t)__builtin_popcount(mask) != m)
			continue;
		double u = 0;
		for (size_t i = 0; i < N; i++)
			for (size_t j = 0; j < N; j++)
				if ((mask >> i & 1) && !(mask >> j & 1))
					u += pool[i] > pool[j];
		total++;
		le += u <= u0;
		ge += u >= u0;
	}
	double p = 2.0 * (double)(le < ge ? le : ge) / (double)total;
	return p > 1 ? 1 : p;
}

static void test_mwu_exact_enumeration(void)
{
	static const size_t sizes[][2] = { { 1, 1 }, { 1, 5 }, { 3, 4 }, { 5, 5 }, { 6, 7 }, { 4, 9 } };
	struct rng r;

	rng_seed(&r, 11);
	for (size_t c = 0; c < ARRAY_SIZE(sizes); c++) {
		size_t m = sizes[c][0], n = sizes[c][1];
		for (int rep = 0; rep < 5; rep++) {
			double a[16], b[16];
			/* continuous draws: no ties; b shifted on some reps */
			for (size_t i = 0; i < m; i++)
				a[i] = rng_uniform(&r);
			for (size_t j = 0; j < n; j++)
				b[j] = rng_uniform(&r) + 0.3 * rep;
			double u, p = stats_mann_whitney(a, m, b, n, &u);
			double want = brute_force_p(a, m, b, n);
			CHECK_NEAR(p, want, 1e-12);
		}
	}
}

static const struct mwu_table_case {
	size_t m, n, u;
	double p;
} mwu_table[] = {
	/* 2 * P(U <= 2) = 2 * 4/252 = 0.0317 for n1 = n2 = 5: the classic
	 * small-sample value, here exact (2/63) */
	{ 5, 5, 2, 2.0 / 63 },
	/* Critical values of U at two-sided alpha 0.05 from the standard
	 * tables (e.g. Zar, Biostatistical Analysis, table B.11): p(u) <= .05
	 * and p(u + 1) > .05.  The p values are exact fractions computed by
	 * a memoized recursion in Python with fractions.Fraction. */
	{ 3, 5, 0, 0.035714285714285712 },   { 3, 5, 1, 0.071428571428571425 },
	{ 4, 5, 1, 0.031746031746031744 },   { 4, 5, 2, 0.063492063492063489 },
	{ 6, 6, 5, 0.041125541125541128 },   { 6, 6, 6, 0.064935064935064929 },
	{ 7, 7, 8, 0.037878787878787880 },   { 7, 7, 9, 0.053030303030303032 },
	{ 8, 8, 13, 0.049883449883449886 },  { 8, 8, 14, 0.064957264957264962 },
	{ 10, 10, 23, 0.043257052544978240 }, { 10, 10, 24, 0.052425902271103510 },
	{ 20, 20, 127, 0.049090325189372440 }, { 20, 20, 128, 0.052399521872849730 },
};

/* C(m + n, m) in doubles */
static double choose(size_t m, size_t n)
{
	double c = 1;
	for (size_t i = 1; i <= m; i++)
		c = c * (double)(n + i) / (double)i;
	return c;
}

static void test_mwu_table(void)
{
	for (size_t c = 0; c < ARRAY_SIZE(mwu_table); c++) {
		const struct mwu_table_case *t = &mwu_table[c];
		double a[20], b[20], u;
		make_u(t->m, t->n, t->u, a, b);
		double p = stats_mann_whitney(a, t->m, b, t->n, &u);
		T_CHECK(u == (double)t->u, "m %zu n %zu: U %g", t->m, t->n, u);
		CHECK_NEAR(p, t->p, 1e-12);
		/* swapping the samples mirrors U and keeps p */
		double u2, p2 = stats_mann_whitney(b, t->n, a, t->m, &u2);
		T_CHECK(u2 == (double)(t->m * t->n - t->u), "mirrored U %g", u2);
		CHECK_NEAR(p2, p, 1e-12);
	}

	/* The far tail, where counts pass 2^53: U = 0, 1, 2 are reached by
	 * 1, 1 and 2 orderings (the partitions of U), so the two-sided p is
	 * 2/C, 4/C and 8/C with C = C(m + n, m). */
	static const size_t big[][2] = { { 49, 49 }, { 30, 40 }, { 2, 49 } };
	for (size_t c = 0; c < ARRAY_SIZE(big); c++) {
		size_t m = big[c][0], n = big[c][1];
		static const double ways[] = { 2, 4, 8 };
		for (size_t u = 0; u < 3; u++) {
			double a[49], b[49], got;
			make_u(m, n, u, a, b);
			double p = stats_mann_whitney(a, m, b, n, &got);
			T_CHECK(got == (double)u, "U %g", got);
			CHECK_NEAR(p / (ways[u] / choose(m, n)), 1, 1e-12);
		}
	}
}

static void test_mwu_normal(void)
{
	/* Ties force the normal approximation.  Pooled and sorted:
	 * 1a 2a 2a 2b 3a 3b 4b 4b 5a 6b 7b, midranks 1, 3 3 3, 5.5 5.5,
	 * 7.5 7.5, 9, 10, 11: R_a = 1 + 3 + 3 + 5.5 + 9 = 21.5, U = 21.5 - 15
	 * = 6.5 (pair count: .5 + .5 + 1.5 + 4).  Ties 3, 2, 2: sum t^3 - t =
	 * 36; var = 30/12 (12 - 36/110) = 29.1818; z = (|6.5 - 15| - .5) /
	 * 5.40202 = 1.48093; p = erfc(z / sqrt 2) = 0.138626 */
	double a[] = { 1, 2, 2, 3, 5 }, b[] = { 2, 3, 4, 4, 6, 7 }, u;
	double p = stats_mann_whitney(a, 5, b, 6, &u);
	T_CHECK(u == 6.5, "U %g", u);
	CHECK_NEAR(p, 0.13862587987892772, 1e-9);

	double flat[] = { 3, 3, 3 };
	T_CHECK(stats_mann_whitney(flat, 3, flat, 2, &u) == 1 && u == 3, "all tied: p 1, U mn/2");
	T_CHECK(isnan(stats_mann_whitney(a, 0, b, 6, &u)) && isnan(u), "empty sample");

	/* At 49 x 49 the exact distribution is close to the normal one, and
	 * 50 x 50 (past the exact limit) takes the normal path: both must
	 * agree with z = (|U - mn/2| - .5) / sqrt(mn (N + 1) / 12) */
	static const size_t sides[] = { 49, 50 };
	for (size_t s = 0; s < ARRAY_SIZE(sides); s++) {
		size_t n = sides[s];
		double x[50], y[50];
		for (size_t want_u = n * n / 2 - 300; want_u <= n * n / 2; want_u += 100) {
			make_u(n, n, want_u, x, y);
			double mn = (double)(n * n);
			double z = (fabs((double)want_u - mn / 2) - 0.5) / sqrt(mn * (2 * n + 1) / 12);
			double approx = erfc(fmax(z, 0) / M_SQRT2);
			p = stats_mann_whitney(x, n, y, n, &u);
			T_CHECK(u == (double)want_u && fabs(p - approx) < 0.003,
			      "%zu x %zu U %zu: p %g vs normal %g", n, n, want_u, p, approx);
		}
	}
}

/* ---- bootstrap --------------------------------------------------------- */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double sorted_quantile(const double *v, size_t n, double p)
{
	double h = (double)(n - 1) * p, f = floor(h);
	size_t k = (size_t)f;
	return k + 1 < n ? v[k] + (h - f) * (v[k + 1] - v[k]) : v[n - 1];
}

/* The bootstrap the slow, obvious way: every resample built and sorted.
 * The module promises its draws: per resample, n indices with rng_below()
 * into the sorted sample. */
static void naive_median_ci(const double *x, size_t n, double conf, int iters, uint64_t seed,
			    double *lo, double *hi)
{
	double *sorted = xmalloc(n * sizeof(double)), *res = xmalloc(n * sizeof(double));
	double *t = xmalloc((size_t)iters * sizeof(double));
	struct rng r;

	memcpy(sorted, x, n * sizeof(double));
	qsort(sorted, n, sizeof(double), cmp_dbl);
	rng_seed(&r, seed);
	for (int it = 0; it < iters; it++) {
		for (size_t i = 0; i < n; i++)
			res[i] = sorted[rng_below(&r, n)];
		qsort(res, n, sizeof(double), cmp_dbl);
		t[it] = n % 2 ? res[n / 2] : (res[n / 2 - 1] + res[n / 2]) / 2;
	}
	qsort(t, (size_t)iters, sizeof(double), cmp_dbl);
	*lo = sorted_quantile(t, (size_t)iters, (1 - conf) / 2);
	*hi = sorted_quantile(t, (size_t)iters, (1 + conf) / 2);
	free(sorted);
	free(res);
	free(t);
}

static void test_bootstrap_reference(void)
{
	struct rng r;
	double x[40];
	struct summary s;

	rng_seed(&r, 13);
	for (size_t n = 2; n <= 40; n += 7) {
		for (size_t i = 0; i < n; i++)
			x[i] = (double)rng_below(&r, 1000) / 10; /* some ties */
		double lo, hi;
		naive_median_ci(x, n, 0.9, 1000, 99, &lo, &hi);
		rng_seed(&r, 99);
		stats_summarize(x, n, 0.9, 1000, &r, &s);
		T_CHECK(near(s.ci_lo, lo, 1e-12) && near(s.ci_hi, hi, 1e-12),
		      "n %zu: [%.17g, %.17g], sorting every resample gives [%.17g, %.17g]", n, s.ci_lo,
		      s.ci_hi, lo, hi);
	}

	/* {0, 1} resamples to 0, .5, 1 with chances 1/4, 1/2, 1/4, so the
	 * 30% and 70% points of 4000 resampled medians are both 0.5 (the
	 * chance of 0 or 1 reaching 30% is 5 sd away) */
	double two[] = { 0, 1 };
	stats_summarize(two, 2, 0.4, 4000, &r, &s);
	T_CHECK(s.ci_lo == 0.5 && s.ci_hi == 0.5, "{0, 1} at 40%%: [%g, %g]", s.ci_lo, s.ci_hi);
}

static void test_bootstrap(void)
{
	struct rng r;
	double x[31];
	struct summary s1, s2;

	rng_seed(&r, 5);
	for (size_t i = 0; i < 31; i++)
		x[i] = 10 + rng_uniform(&r);
	rng_seed(&r, 7);
	stats_summarize(x, 31, 0.95, 2000, &r, &s1);
	rng_seed(&r, 7);
	stats_summarize(x, 31, 0.95, 2000, &r, &s2);
	T_CHECK(s1.ci_lo == s2.ci_lo && s1.ci_hi == s2.ci_hi, "same seed, different interval");
	T_CHECK(s1.ci_lo < 10.5 && 10.5 < s1.ci_hi, "[%g, %g] misses the true median 10.5",
	      s1.ci_lo, s1.ci_hi);
	T_CHECK(s1.ci_lo >= s1.min && s1.ci_hi <= s1.max, "interval outside the data");
	double rh = stats_relative_halfwidth(&s1);
	CHECK_NEAR(rh, (s1.ci_hi - s1.ci_lo) / (2 * s1.median), 1e-15);
	T_CHECK(rh > 0 && rh < 0.05, "relative half-width %g", rh);

	/* coverage: 95% intervals over 200 fresh uniform samples of 31
	 * should hold the true median 0.5 about 95% of the time (binomial sd
	 * 1.5%); percentile intervals of a median run a little wide or narrow
	 * at this n, hence the band */
	int covered = 0;
	for (int rep = 0; rep < 200; rep++) {
		for (size_t i = 0; i < 31; i++)
			x[i] = rng_uniform(&r);
		stats_summarize(x, 31, 0.95, 1000, &r, &s1);
		covered += s1.ci_lo <= 0.5 && 0.5 <= s1.ci_hi;
	}
	T_CHECK(covered >= 178 && covered <= 198, "coverage %d of 200", covered);

	/* a narrower level gives a narrower interval from the same seed */
	rng_seed(&r, 7);
	stats_summarize(x, 31, 0.5, 2000, &r, &s2);
	T_CHECK(s2.ci_hi - s2.ci_lo < s1.ci_hi - s1.ci_lo, "50%% not narrower than 95%%");

	/* one run of a noisy metric must not look precise */
	stats_summarize(x, 1, 0.95, 100, &r, &s1);
	T_CHECK(isinf(stats_relative_halfwidth(&s1)), "n 1 half-width");
	stats_summarize(x, 5, 0.95, 0, &r, &s1);
	T_CHECK(isnan(s1.ci_lo) && isinf(stats_relative_halfwidth(&s1)), "no iterations: no interval");
	stats_summarize(summary_cases[3].x, 5, 0.95, 100, &r, &s1);
	T_CHECK(stats_relative_halfwidth(&s1) == 0, "deterministic half-width");
}

static void test_ratio_ci(void)
{
	struct rng r;
	double a[30], b[30], q, lo, hi;

	rng_seed(&r, 9);
	noisy(a, 30, 2.0, 0.02, &r);
	T_CHECK(stats_ratio_ci(a, 30, a, 30, 0.95, 2000, &r, &q, &lo, &hi) == 0, "identical");
	T_CHECK(q == 1 && lo < 1 && 1 < hi, "identical samples: %g [%g, %g]", q, lo, hi);

	noisy(b, 30, 1.0, 0.02, &r);
	T_CHECK(stats_ratio_ci(a, 30, b, 30, 0.95, 2000, &r, &q, &lo, &hi) == 0, "ratio");
	CHECK_NEAR(q, stats_median(a, 30) / stats_median(b, 30), 1e-15);
	T_CHECK(lo < q && q < hi && lo > 1.9 && hi < 2.1, "2x: %g [%g, %g]", q, lo, hi);

	/* NULL rng is the default seed: reproducible */
	double lo2, hi2;
	stats_ratio_ci(a, 30, b, 30, 0.95, 500, NULL, &q, &lo, &hi);
	stats_ratio_ci(a, 30, b, 30, 0.95, 500, NULL, &q, &lo2, &hi2);
	T_CHECK(lo == lo2 && hi == hi2, "NULL rng not reproducible");

	double zero[] = { 0, 0 }, one[] = { 1, 1, 1 };
	T_CHECK(stats_ratio_ci(a, 0, b, 30, 0.95, 10, &r, &q, &lo, &hi) == -EINVAL && isnan(q), "empty");
	T_CHECK(stats_ratio_ci(one, 3, zero, 2, 0.95, 10, &r, &q, &lo, &hi) == -EDOM, "x / 0");
	T_CHECK(stats_ratio_ci(zero, 2, zero, 2, 0.95, 10, &r, &q, &lo, &hi) == 0 && q == 1 && lo == 1 &&
		      hi == 1,
	      "0 / 0 is no change");
	double det_a[] = { 1050, 1050, 1050 }, det_b[] = { 1000, 1000 };
	T_CHECK(stats_ratio_ci(det_a, 3, det_b, 2, 0.95, 10, &r, &q, &lo, &hi) == 0 && q == 1.05 &&
		      lo == q && hi == q,
	      "deterministic ratio is a point");
}

static void test_geomean(void)
{
	/* deterministic ratios 2, 0.5, 1.5: geomean cbrt(1.5) = 1.1447142 */
	double c1[] = { 2, 2 }, b1[] = { 1 }, c2[] = { 1 }, b2[] = { 2, 2, 2 }, c3[] = { 3 }, b3[] = { 2 };
	struct sample_pair det[] = { { c1, 2, b1, 1 }, { c2, 1, b2, 3 }, { c3, 1, b3, 1 } };
	double gm, lo, hi;
	T_CHECK(stats_geomean_ratio(det, 3, 0.95, 1000, NULL, &gm, &lo, &hi) == 0, "deterministic");
	CHECK_NEAR(gm, 1.1447142425533319, 1e-15);
	T_CHECK(lo == gm && hi == gm, "exact ratios give a point [%g, %g]", lo, hi);

	/* one workload: the same draws as stats_ratio_ci, so the same interval */
	struct rng r;
	double a[20], b[20], q, qlo, qhi;
	rng_seed(&r, 21);
	noisy(a, 20, 1.1, 0.03, &r);
	noisy(b, 20, 1.0, 0.03, &r);
	struct sample_pair one[] = { { a, 20, b, 20 } };
	rng_seed(&r, 4);
	stats_geomean_ratio(one, 1, 0.95, 2000, &r, &gm, &lo, &hi);
	rng_seed(&r, 4);
	stats_ratio_ci(a, 20, b, 20, 0.95, 2000, &r, &q, &qlo, &qhi);
	CHECK_NEAR(gm, q, 1e-14);
	CHECK_NEAR(lo, qlo, 1e-12);
	CHECK_NEAR(hi, qhi, 1e-12);

	/* noisy ratios around 1.1 and 0.9: geomean of the two medians' ratios */
	double c[20], d[20], q2, l2, h2;
	noisy(c, 20, 0.9, 0.03, &r);
	noisy(d, 20, 1.0, 0.03, &r);
	struct sample_pair two[] = { { a, 20, b, 20 }, { c, 20, d, 20 } };
	stats_ratio_ci(c, 20, d, 20, 0.95, 10, &r, &q2, &l2, &h2);
	T_CHECK(stats_geomean_ratio(two, 2, 0.95, 2000, &r, &gm, &lo, &hi) == 0, "two workloads");
	CHECK_NEAR(gm, sqrt(q * q2), 1e-14);
	T_CHECK(lo < gm && gm < hi && lo > 0.95 && hi < 1.05, "%g [%g, %g]", gm, lo, hi);

	struct sample_pair empty[] = { { a, 20, b, 0 } };
	double zero[] = { 0 };
	struct sample_pair zeroed[] = { { zero, 1, b, 20 } };
	T_CHECK(stats_geomean_ratio(two, 0, 0.95, 10, &r, &gm, &lo, &hi) == -EINVAL, "no workloads");
	T_CHECK(stats_geomean_ratio(empty, 1, 0.95, 10, &r, &gm, &lo, &hi) == -EINVAL, "empty");
	T_CHECK(stats_geomean_ratio(zeroed, 1, 0.95, 10, &r, &gm, &lo, &hi) == -EDOM && isnan(gm),
	      "a zero ratio has no log");
}

/* ---- verdicts ---------------------------------------------------------- */

static const struct compare_case {
	const char *name;
	double cand_mu, base_mu, rel_sd, min_effect;
	enum verdict want;
} compare_cases[] = {
	{ "planted 5% regression", 1.05, 1.00, 0.005, 0.01, VERDICT_REGRESSED },
	{ "planted 5% improvement", 0.95, 1.00, 0.005, 0.01, VERDICT_IMPROVED },
	{ "planted null", 1.00, 1.00, 0.005, 0.01, VERDICT_UNCHANGED },
	/* 0.5% with 0.05% noise: p is tiny, but under the 1% minimum effect */
	{ "significant but small", 1.005, 1.00, 0.0005, 0.01, VERDICT_UNCHANGED },
	{ "same, 0.1% minimum", 1.005, 1.00, 0.0005, 0.001, VERDICT_REGRESSED },
	/* 5% in noise of 20% on n 15 is not significant */
	{ "drowned in noise", 1.05, 1.00, 0.20, 0.01, VERDICT_UNCHANGED },
};

static void test_compare(void)
{
	struct rng r;
	struct comparison c;
	double cand[15], base[15];

	rng_seed(&r, 77);
	for (size_t k = 0; k < ARRAY_SIZE(compare_cases); k++) {
		const struct compare_case *t = &compare_cases[k];
		noisy(cand, 15, t->cand_mu, t->rel_sd, &r);
		noisy(base, 15, t->base_mu, t->rel_sd, &r);
		stats_compare(cand, 15, base, 15, 0.05, t->min_effect, 2000, &r, &c);
		T_CHECK(c.verdict == t->want, "%s: %s (ratio %g [%g, %g] p %g)", t->name,
		      verdict_name(c.verdict), c.ratio, c.lo, c.hi, c.p);
		T_CHECK(c.na == 15 && c.nb == 15 && !c.exact && !c.error, "%s: counts", t->name);
		T_CHECK(c.lo <= c.ratio && c.ratio <= c.hi, "%s: interval", t->name);
		if (t->rel_sd < 0.01 && t->cand_mu != t->base_mu)
			T_CHECK(c.p < 1e-5, "%s: p %g for separated samples", t->name, c.p);
	}

	/* the false-positive rate at alpha 0.05 with no minimum effect: 400
	 * null comparisons, expect 20 (binomial sd 4.4) */
	int positives = 0;
	for (int rep = 0; rep < 400; rep++) {
		noisy(cand, 15, 1, 0.01, &r);
		noisy(base, 15, 1, 0.01, &r);
		stats_compare(cand, 15, base, 15, 0.05, 0, 50, &r, &c);
		positives += c.verdict != VERDICT_UNCHANGED;
	}
	T_CHECK(positives >= 6 && positives <= 36, "%d of 400 null comparisons significant", positives);

	/* deterministic metrics: exact, judged by the minimum effect alone */
	double i1050[] = { 1050, 1050, 1050 }, i1000[] = { 1000 }, i1004[] = { 1004 };
	stats_compare(i1050, 3, i1000, 1, 0.05, 0.01, 100, &r, &c);
	T_CHECK(c.exact && c.p == 0 && c.lo == c.hi && c.verdict == VERDICT_REGRESSED, "1050 vs 1000");
	stats_compare(i1050, 3, i1000, 1, 0.05, 0.05, 100, &r, &c);
	T_CHECK(c.verdict == VERDICT_REGRESSED, "an effect of exactly min_effect counts");
	/* 115 / 100 - 1 is 0.1499999999999999 in doubles */
	double i115[] = { 115 }, i100[] = { 100 };
	stats_compare(i115, 1, i100, 1, 0.05, 0.15, 100, &r, &c);
	T_CHECK(c.verdict == VERDICT_REGRESSED, "rounding must not hide an effect of min_effect");
	stats_compare(i1004, 1, i1000, 1, 0.05, 0.01, 100, &r, &c);
	T_CHECK(c.exact && c.verdict == VERDICT_UNCHANGED, "0.4%% under a 1%% minimum");
	stats_compare(i1000, 1, i1000, 1, 0.05, 0, 100, &r, &c);
	T_CHECK(c.exact && c.p == 1 && c.ratio == 1 && c.verdict == VERDICT_UNCHANGED, "equal counts");
	stats_compare(i1000, 0, i1000, 1, 0.05, 0, 100, &r, &c);
	T_CHECK(c.error == -EINVAL && c.verdict == VERDICT_UNCHANGED, "empty candidate");
	T_CHECK(!strcmp(verdict_name(VERDICT_REGRESSED), "regressed"), "verdict name");

	/* a noisy metric (time): one run on a side is not a test, however
	 * large the difference; zero spread is not exactness */
	double t150[] = { 1.5 }, t100[] = { 1.0 }, t100x3[] = { 1.0, 1.0, 1.0 };
	stats_compare_noisy(t150, 1, t100, 1, 0.05, 0.01, 100, &r, &c);
	T_CHECK(c.untested && !c.exact && c.ratio == 1.5 && isnan(c.lo) && isnan(c.hi) &&
		isnan(c.p) && c.verdict == VERDICT_UNCHANGED, "one run each: untested (p %g)", c.p);
	stats_compare_noisy(i1050, 3, t100, 1, 0.05, 0.01, 100, &r, &c);
	T_CHECK(c.untested && c.verdict == VERDICT_UNCHANGED, "one run on the baseline side");
	stats_compare_noisy(i1050, 3, t100x3, 3, 0.05, 0.01, 100, &r, &c);
	/* all ties within each side: Mann-Whitney with tie correction, 3 vs 3
	 * fully separated: z = 4 / sqrt(4.05), p = 0.0468 */
	T_CHECK(!c.untested && !c.exact && fabs(c.p - 0.0468) < 0.001 &&
		c.verdict == VERDICT_REGRESSED, "constant noisy samples: p %g", c.p);
	noisy(cand, 15, 0.9, 0.005, &r);
	noisy(base, 15, 1.0, 0.005, &r);
	stats_compare_noisy(cand, 15, base, 15, 0.05, 0.01, 2000, &r, &c);
	T_CHECK(!c.untested && c.p < 1e-5 && c.verdict == VERDICT_IMPROVED, "noisy n 15: tested");
}

/* ---- ranks and the Pareto front ---------------------------------------- */

static const struct rank_case {
	const char *name;
	size_t n;
	double value[8], lo[8], hi[8];
	int use_ci;
	int want[8];
} rank_cases[] = {
	{ "competition ranks, no intervals", 4, { 3, 1, 1, 2 }, { 0 }, { 0 }, 0, { 4, 1, 1, 3 } },
	/* sorted: #0 1.00, #4 1.00 (no interval: the point), #1 1.01 (all
	 * overlap #0's [.98, 1.02]), #2 1.20 opens rank 4, #5 overlaps it */
	{ "overlap and NaN", 6, { 1.00, 1.01, 1.20, NAN, 1.00, 1.25 },
	  { 0.98, 1.00, 1.18, NAN, NAN, 1.19 }, { 1.02, 1.03, 1.22, NAN, NAN, 1.31 }, 1,
	  { 1, 1, 4, 0, 1, 4 } },
	/* #2 overlaps #1 but not the group's best #0: it opens rank 3 */
	{ "overlap with the best, not a chain", 3, { 1.00, 1.08, 1.12 }, { 0.90, 1.05, 1.105 },
	  { 1.10, 1.11, 1.135 }, 1, { 1, 1, 3 } },
	{ "all NaN", 2, { NAN, NAN }, { 0 }, { 0 }, 0, { 0, 0 } },
};

static void test_ranks(void)
{
	for (size_t c = 0; c < ARRAY_SIZE(rank_cases); c++) {
		const struct rank_case *t = &rank_cases[c];
		int rank[8];
		stats_shared_ranks(t->value, t->use_ci ? t->lo : NULL, t->use_ci ? t->hi : NULL, t->n,
				   rank);
		for (size_t i = 0; i < t->n; i++)
			T_CHECK(rank[i] == t->want[i], "%s: item %zu rank %d, want %d", t->name, i, rank[i],
			      t->want[i]);
	}
	stats_shared_ranks(NULL, NULL, NULL, 0, NULL);
}

static void test_pareto(void)
{
	/* (3,3) is beaten by (2,2), (1,6) by (1,5), (6,6) by all; the two
	 * (2,2) do not beat each other; the NaN point is out */
	double x[] = { 1, 2, 5, 3, 2, 6, NAN, 1 };
	double y[] = { 5, 2, 1, 3, 2, 6, 0, 6 };
	int want[] = { 1, 1, 1, 0, 1, 0, 0, 0 }, front[8];
	stats_pareto(x, y, 8, front);
	for (size_t i = 0; i < 8; i++)
		T_CHECK(front[i] == want[i], "point %zu: %d", i, front[i]);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "rng", test_rng },
	{ "summary cases", test_summary_cases },
	{ "quantile and selection", test_quantile_selection },
	{ "mann-whitney exact vs enumeration", test_mwu_exact_enumeration },
	{ "mann-whitney published table", test_mwu_table },
	{ "mann-whitney normal approximation", test_mwu_normal },
	{ "bootstrap", test_bootstrap },
	{ "bootstrap against sorting every resample", test_bootstrap_reference },
	{ "ratio interval", test_ratio_ci },
	{ "geometric mean", test_geomean },
	{ "compare", test_compare },
	{ "shared ranks", test_ranks },
	{ "pareto", test_pareto },
};

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		int before = test_failures;
		tests[i].fn();
		printf("%s %s\n", test_failures == before ? "ok  " : "FAIL", tests[i].name);
	}
	return test_summary("test_stats");
}
