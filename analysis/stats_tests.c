/* stats_tests.c - see stats.h: the tests (Mann-Whitney U, Welch's t) and
 * the part verdicts against a baseline built on them */
#include "analysis/stats.h"
#include "analysis/stats_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/*
 * P(U' <= k) under the null for sizes m and n without ties.  The counts of
 * orderings by U are the coefficients of the Gaussian binomial
 * [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), built one
 * factor at a time and cut at degree k: O(m k) instead of the O(m n k) of
 * the textbook recurrence.  The factors subtract, so the counts are kept as
 * exact 128-bit integers (C(98, 49) < 2^95) rather than doubles.
 */
static double mwu_exact_cdf(size_t m, size_t n, size_t k)
{
	__int128 *c = xcalloc(k + 1, sizeof(*c));
	unsigned __int128 below = 0, total = 1;

	c[0] = 1;
	for (size_t i = 1; i <= m; i++) {
		/* times (1 - q^(n+i)): downwards, so c[u - n - i] is the old one */
		for (size_t u = k + 1; u-- > n + i;)
			c[u] -= c[u - n - i];
		/* divided by (1 - q^i): upwards, c[u - i] is already the quotient */
		for (size_t u = i; u <= k; u++)
			c[u] += c[u - i];
		total = total * (n + i) / i;
	}
	for (size_t u = 0; u <= k; u++)
		below += (unsigned __int128)c[u];
	free(c);
	return (double)below / (double)total;
}

struct ranked {
	double v;
	int in_a;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	return stats_cmp_double(&((const struct ranked *)pa)->v, &((const struct ranked *)pb)->v);
}

double stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u)
{
	if (u)
		*u = NAN;
	if (na == 0 || nb == 0 || stats_has_nan(a, na) || stats_has_nan(b, nb))
		return NAN;

	size_t N = na + nb;
	struct ranked *all = xmalloc(N * sizeof(*all));
	for (size_t i = 0; i < na; i++)
		all[i] = (struct ranked){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		all[na + i] = (struct ranked){ b[i], 0 };
	qsort(all, N, sizeof(*all), cmp_ranked);

	/* midranks: a run of t equal values at positions i..j-1 (0-based)
	 * shares rank (i + 1 + j) / 2 */
	double rank_sum_a = 0, ties = 0;
	for (size_t i = 0, j; i < N; i = j) {
		for (j = i + 1; j < N && all[j].v == all[i].v; j++)
			;
		double t = (double)(j - i), mid = (double)(i + 1 + j) / 2;
		for (size_t k = i; k < j; k++)
			if (all[k].in_a)
				rank_sum_a += mid;
		ties += t * t * t - t;
	}
	free(all);

	double mn = (double)na * (double)nb;
	double U = rank_sum_a - (double)na * (double)(na + 1) / 2;
	if (u)
		*u = U;

	double p;
	if (ties == 0 && na <= STATS_MWU_EXACT_MAX && nb <= STATS_MWU_EXACT_MAX) {
		/* the null distribution is symmetric: P(U' >= U) = P(U' <= mn - U) */
		size_t k = (size_t)fmin(U, mn - U);
		p = 2 * mwu_exact_cdf(na, nb, k);
	} else {
		double Nd = (double)N;
		double var = mn / 12 * ((Nd + 1) - ties / (Nd * (Nd - 1)));
		if (!(var > 0))
			return 1;
		double z = fmax(0, fabs(U - mn / 2) - 0.5) / sqrt(var);
		p = erfc(z / M_SQRT2);
	}
	return p > 1 ? 1 : p;
}

static int zero_spread(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (x[i] != x[0])
			return 0;
	return 1;
}

const char *verdict_name(enum verdict v)
{
	static const char *const names[] = {
		[VERDICT_UNCHANGED] = "unchanged",
		[VERDICT_IMPROVED] = "improved",
		[VERDICT_REGRESSED] = "regressed",
		[VERDICT_MIXED] = "mixed",
	};
	return (unsigned)v < ARRAY_SIZE(names) ? names[v] : "unknown";
}

static void compare(const double *cand, size_t nc, const double *base, size_t nb, double alpha,
		    double min_effect, int iters, struct rng *r, int deterministic,
		    struct comparison *c)
{
	*c = (struct comparison){ .na = nc, .nb = nb, .verdict = VERDICT_UNCHANGED };
	/* the interval at the test's own level, so "significant" and "the
	 * interval excludes 1" usually agree */
	double conf = stats_conf_valid(1 - alpha) ? 1 - alpha : 0.95;
	c->error = stats_ratio_ci(cand, nc, base, nb, conf, iters, r, &c->ratio, &c->lo, &c->hi);
	c->p = stats_mann_whitney(cand, nc, base, nb, &c->u);
	if (c->error)
		return;

	if (!deterministic && (nc < 2 || nb < 2)) {
		/* one run of a noisy metric: a point, not a measurement of
		 * the difference */
		c->untested = 1;
		c->lo = c->hi = c->p = c->u = NAN;
		return;
	}
	c->exact = deterministic && zero_spread(cand, nc) && zero_spread(base, nb);
	if (c->exact)
		c->p = c->ratio == 1 ? 1 : 0;

	/* an effect of exactly min_effect must not fail on the last bit */
	double effect = fabs(c->ratio - 1);
	if (c->p < alpha && effect >= min_effect * (1 - 1e-9))
		c->verdict = c->ratio < 1 ? VERDICT_IMPROVED : VERDICT_REGRESSED;
}

void stats_compare(const double *cand, size_t nc, const double *base, size_t nb, double alpha,
		   double min_effect, int iters, struct rng *r, struct comparison *c)
{
	compare(cand, nc, base, nb, alpha, min_effect, iters, r, 1, c);
}

void stats_compare_noisy(const double *cand, size_t nc, const double *base, size_t nb,
			 double alpha, double min_effect, int iters, struct rng *r,
			 struct comparison *c)
{
	compare(cand, nc, base, nb, alpha, min_effect, iters, r, 0, c);
}

/* Continued fraction of the incomplete beta function (Lentz's method, as
 * Numerical Recipes' betacf); x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = 1 / (fabs(d) < tiny ? tiny : d);
	double h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m;
		double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		for (int half = 0; half < 2; half++) {
			d = 1 + aa * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + aa / c;
			c = fabs(c) < tiny ? tiny : c;
			h *= d * c;
			aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		}
		if (fabs(d * c - 1) < 1e-15)
			break;
	}
	return h;
}

/* The regularised incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double stats_welch_p(const double *a, size_t na, const double *b, size_t nb)
{
	if (na < 2 || nb < 2 || stats_has_nan(a, na) || stats_has_nan(b, nb))
		return NAN;
	double ma = 0, mb = 0, va = 0, vb = 0;
	for (size_t i = 0; i < na; i++)
		ma += a[i] / (double)na;
	for (size_t i = 0; i < nb; i++)
		mb += b[i] / (double)nb;
	for (size_t i = 0; i < na; i++)
		va += (a[i] - ma) * (a[i] - ma) / (double)(na - 1);
	for (size_t i = 0; i < nb; i++)
		vb += (b[i] - mb) * (b[i] - mb) / (double)(nb - 1);
	double sa = va / (double)na, sb = vb / (double)nb, se2 = sa + sb;
	/* no spread on either side: equal means are no difference; different
	 * ones are no evidence either (t is infinite only because every value
	 * repeats, as medians of a tick-counted time do), so untestable */
	if (!(se2 > 0))
		return ma == mb ? 1 : NAN;
	double t = (ma - mb) / sqrt(se2);
	/* Welch-Satterthwaite degrees of freedom */
	double df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	double p = beta_inc(df / 2, 0.5, df / (df + t * t));
	return p > 1 ? 1 : p;
}
