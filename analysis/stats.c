/* stats.c - see stats.h */
#include "analysis/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* ---- random numbers ---------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	/* splitmix64 never yields four zero words, the one state xoshiro must
	 * not start from */
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double rng_uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* Lemire, "Fast random integer generation in an interval" (2019):
	 * a multiply instead of a division, rejection only in the biased
	 * sliver, so every machine draws the same numbers */
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t low = (uint64_t)m;

	if (low < n) {
		uint64_t threshold = -n % n;
		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* A caller may pass NULL for a reproducible default stream. */
static struct rng *rng_or_default(struct rng *r, struct rng *fallback)
{
	if (r)
		return r;
	rng_seed(fallback, STATS_DEFAULT_SEED);
	return fallback;
}

/* ---- order statistics -------------------------------------------------- */

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

static int has_nan(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isnan(x[i]))
			return 1;
	return 0;
}

static double *copy_of(const double *x, size_t n)
{
	double *v = xmalloc(n * sizeof(*v));
	memcpy(v, x, n * sizeof(*v));
	return v;
}

/*
 * Partially order v so that v[k] is the k-th smallest, nothing before it
 * larger and nothing after it smaller: Hoare's FIND as Wirth writes it,
 * with a median-of-three pivot.  Expected O(n), and runs of equal values
 * (bootstrap medians repeat a lot) split evenly instead of degrading.
 */
static void select_kth(double *v, size_t n, size_t k)
{
	ptrdiff_t l = 0, m = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (l < m) {
		double a = v[l], b = v[l + (m - l) / 2], c = v[m], x;
		if (a < b)
			x = b < c ? b : (a < c ? c : a);
		else
			x = a < c ? a : (b < c ? c : b);

		ptrdiff_t i = l, j = m;
		do {
			while (v[i] < x)
				i++;
			while (x < v[j])
				j--;
			if (i <= j) {
				double t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
}

/* The smallest of v[from..n). */
static double min_from(const double *v, size_t from, size_t n)
{
	double m = v[from];
	for (size_t i = from + 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

/* Median of v, which it reorders; n > 0. */
static double median_inplace(double *v, size_t n)
{
	size_t k = n / 2;
	select_kth(v, n, k);
	if (n % 2)
		return v[k];
	/* the lower middle is the largest of the half before k */
	double lower = v[0];
	for (size_t i = 1; i < k; i++)
		if (v[i] > lower)
			lower = v[i];
	return lower + (v[k] - lower) / 2;
}

/* Type-7 quantile of v, which it reorders; n > 0. */
static double quantile_inplace(double *v, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t k = (size_t)floor(h);
	double frac = h - (double)k;

	if (k >= n - 1)
		k = n - 1, frac = 0;
	select_kth(v, n, k);
	if (frac == 0)
		return v[k];
	double lo = v[k], hi = min_from(v, k + 1, n);
	return lo == hi ? lo : lo + frac * (hi - lo);
}

double stats_median(const double *x, size_t n)
{
	if (n == 0 || has_nan(x, n))
		return NAN;
	double *v = copy_of(x, n);
	double m = median_inplace(v, n);
	free(v);
	return m;
}

/* MAD around a known median; n > 0. */
static double mad_around(const double *x, size_t n, double median)
{
	double *d = xmalloc(n * sizeof(*d));
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(x[i] - median);
	double m = median_inplace(d, n);
	free(d);
	return m;
}

double stats_mad(const double *x, size_t n)
{
	double median = stats_median(x, n);
	return isnan(median) ? NAN : mad_around(x, n, median);
}

double stats_quantile(const double *x, size_t n, double p)
{
	if (n == 0 || !(p >= 0 && p <= 1) || has_nan(x, n))
		return NAN;
	double *v = copy_of(x, n);
	double q = quantile_inplace(v, n, p);
	free(v);
	return q;
}

/* ---- bootstrap --------------------------------------------------------- */

/*
 * One sample prepared for resampling.  The copy is sorted once; a resample
 * is then n draws of an index, counted, and its median is read off the
 * sorted copy by walking the counts: O(n) per resample with no comparison
 * sort, because the k-th smallest of a resample is sorted[the k-th smallest
 * drawn index].
 */
struct boot {
	double *sorted;
	size_t n;
	double median;
	int constant;
};

static void boot_init(struct boot *b, const double *x, size_t n)
{
	b->sorted = copy_of(x, n);
	b->n = n;
	qsort(b->sorted, n, sizeof(double), cmp_double);
	b->median = n % 2 ? b->sorted[n / 2]
			  : b->sorted[n / 2 - 1] + (b->sorted[n / 2] - b->sorted[n / 2 - 1]) / 2;
	b->constant = b->sorted[0] == b->sorted[n - 1];
}

static void boot_release(struct boot *b)
{
	free(b->sorted);
	b->sorted = NULL;
}

/* count has room for b->n entries. */
static double boot_resample_median(const struct boot *b, uint32_t *count, struct rng *r)
{
	size_t n = b->n, i = 0, seen = 0;

	if (b->constant)
		return b->median;
	memset(count, 0, n * sizeof(*count));
	for (size_t d = 0; d < n; d++)
		count[rng_below(r, n)]++;

	size_t k_lo = (n - 1) / 2, k_hi = n / 2;
	while (seen + count[i] <= k_lo)
		seen += count[i++];
	double lo = b->sorted[i];
	while (seen + count[i] <= k_hi)
		seen += count[i++];
	double hi = b->sorted[i];
	return lo + (hi - lo) / 2;
}

/* ---- layouts (stats.h: layout as a random effect) ------------------------ */

/* A side as layouts, each prepared for resampling. */
struct nested {
	struct boot *g;
	size_t k, nmax;
	double stat;  /* mean of the layouts' medians */
	int constant; /* every value equal: the statistic is exact */
};

size_t stats_layout_count(const int *layout, size_t n)
{
	if (!n)
		return 0;
	if (!layout)
		return 1;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < i && layout[j] != layout[i])
			j++;
		k += j == i;
	}
	return k;
}

/* n > 0.  Layouts in the order their first value comes. */
static void nested_init(struct nested *s, const double *x, const int *layout, size_t n)
{
	*s = (struct nested){.k = stats_layout_count(layout, n)};
	s->g = xcalloc(s->k, sizeof(*s->g));
	double *v = xmalloc(n * sizeof(*v));
	int *ids = xmalloc(s->k * sizeof(*ids));
	size_t made = 0;
	double sum = 0, lo = x[0], hi = x[0];
	for (size_t i = 0; i < n; i++) {
		lo = x[i] < lo ? x[i] : lo;
		hi = x[i] > hi ? x[i] : hi;
		int id = layout ? layout[i] : 0;
		size_t j = 0;
		while (j < made && ids[j] != id)
			j++;
		if (j < made)
			continue;
		ids[made] = id;
		size_t m = 0;
		for (size_t t = i; t < n; t++)
			if (!layout || layout[t] == id)
				v[m++] = x[t];
		boot_init(&s->g[made], v, m);
		sum += s->g[made].median;
		s->nmax = m > s->nmax ? m : s->nmax;
		made++;
	}
	s->stat = s->k == 1 ? s->g[0].median : sum / (double)s->k;
	s->constant = lo == hi;
	free(v);
	free(ids);
}

static void nested_release(struct nested *s)
{
	for (size_t i = 0; i < s->k; i++)
		boot_release(&s->g[i]);
	free(s->g);
	s->g = NULL;
}

/* One nested resample of the side's statistic; count has room for nmax.
 * One layout draws no layout (the plain bootstrap's stream, bit for bit). */
static double nested_resample(const struct nested *s, uint32_t *count, struct rng *r)
{
	if (s->constant)
		return s->stat;
	if (s->k == 1)
		return boot_resample_median(&s->g[0], count, r);
	double sum = 0;
	for (size_t d = 0; d + 1 < s->k; d++)
		sum += boot_resample_median(&s->g[rng_below(r, s->k)], count, r);
	return sum / (double)(s->k - 1);
}

static int conf_valid(double conf)
{
	return conf > 0 && conf < 1;
}

/* Percentile interval of the bootstrap statistics t (reordered); resamples
 * whose statistic is undefined (NaN) are left out. */
static void percentile_interval(double *t, size_t n, double conf, double *lo, double *hi)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(t[i]))
			t[m++] = t[i];
	if (m == 0) {
		*lo = *hi = NAN;
		return;
	}
	*lo = quantile_inplace(t, m, (1 - conf) / 2);
	*hi = quantile_inplace(t, m, (1 + conf) / 2);
}

/* a / b where two zero medians mean "no change" */
static double ratio_of(double a, double b)
{
	if (b == 0)
		return a == 0 ? 1 : copysign(INFINITY, a);
	return a / b;
}

/* ---- summaries and outliers -------------------------------------------- */

int stats_is_outlier(double x, double median, double mad)
{
	if (!(mad > 0))
		return 0;
	return fabs(0.6745 * (x - median) / mad) > STATS_OUTLIER_Z;
}

/*
 * The scale the outlier rule divides by.  With more than half the values
 * equal the MAD is 0 and every other value would be "infinitely" far out;
 * SPSS's modified z-score then uses the mean absolute deviation instead,
 * (x - median) / (1.253314 MeanAD), which this returns in MAD units so that
 * stats_is_outlier()'s 0.6745 / mad gives exactly that.  All values equal
 * leaves 0, which flags nothing.
 */
static double outlier_scale(const double *x, size_t n, double median, double mad)
{
	if (mad > 0 || n == 0)
		return mad;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += fabs(x[i] - median);
	return 0.6745 * 1.253314 * (sum / (double)n);
}

static size_t flag_with(const double *x, size_t n, double median, double scale, int *flag)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		int out = stats_is_outlier(x[i], median, scale);
		if (flag)
			flag[i] = out;
		count += (size_t)out;
	}
	return count;
}

size_t stats_flag_outliers(const double *x, size_t n, int *flag)
{
	if (n == 0 || has_nan(x, n)) {
		for (size_t i = 0; flag && i < n; i++)
			flag[i] = 0;
		return 0;
	}
	double median = stats_median(x, n);
	double mad = mad_around(x, n, median);
	return flag_with(x, n, median, outlier_scale(x, n, median, mad), flag);
}

static void summary_undefined(struct summary *s, size_t n)
{
	*s = (struct summary){
		.n = n,
		.median = NAN, .mad = NAN, .mean = NAN, .sd = NAN,
		.min = NAN, .max = NAN, .ci_lo = NAN, .ci_hi = NAN,
	};
}

/* Bootstrap interval of the median of a prepared, non-constant sample. */
static void median_ci(const struct boot *b, double conf, int iters, struct rng *r, double *lo,
		      double *hi)
{
	double *t = xmalloc((size_t)iters * sizeof(*t));
	uint32_t *count = xmalloc(b->n * sizeof(*count));

	for (int it = 0; it < iters; it++)
		t[it] = boot_resample_median(b, count, r);
	percentile_interval(t, (size_t)iters, conf, lo, hi);
	free(count);
	free(t);
}

void stats_summarize(const double *x, size_t n, double conf, int iters, struct rng *r,
		     struct summary *s)
{
	struct rng fallback;
	struct boot b;

	summary_undefined(s, n);
	if (n == 0 || has_nan(x, n))
		return;
	boot_init(&b, x, n);
	s->median = b.median;
	s->min = b.sorted[0];
	s->max = b.sorted[n - 1];
	s->constant = b.constant;

	/* sorted order makes the sum independent of the sample's order */
	double sum = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		sum += b.sorted[i];
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (b.sorted[i] - s->mean) * (b.sorted[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
	if (b.constant)
		s->mean = s->median, s->sd = n > 1 ? 0 : NAN;

	s->mad = mad_around(x, n, s->median);
	s->outliers = flag_with(x, n, s->median, outlier_scale(x, n, s->median, s->mad), NULL);

	if (b.constant)
		s->ci_lo = s->ci_hi = s->median;
	else if (iters > 0 && conf_valid(conf))
		median_ci(&b, conf, iters, rng_or_default(r, &fallback), &s->ci_lo, &s->ci_hi);
	boot_release(&b);
}

double stats_relative_halfwidth(const struct summary *s)
{
	if (s->n < 2 || isnan(s->ci_lo) || isnan(s->ci_hi) || isnan(s->median))
		return INFINITY;
	double width = s->ci_hi - s->ci_lo;
	if (width == 0)
		return 0;
	if (s->median == 0)
		return INFINITY;
	return width / (2 * fabs(s->median));
}

/* ---- against a baseline ------------------------------------------------ */

int stats_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double conf, int iters,
		   struct rng *r, double *ratio, double *lo, double *hi)
{
	struct rng fallback;
	struct boot ba, bb;

	*ratio = *lo = *hi = NAN;
	if (na == 0 || nb == 0)
		return -EINVAL;
	if (has_nan(a, na) || has_nan(b, nb))
		return -EDOM;
	boot_init(&ba, a, na);
	boot_init(&bb, b, nb);

	int err = 0;
	double q = ratio_of(ba.median, bb.median);
	if (!isfinite(q)) {
		err = -EDOM;
	} else if (ba.constant && bb.constant) {
		*ratio = *lo = *hi = q;
	} else {
		*ratio = q;
		if (iters > 0 && conf_valid(conf)) {
			r = rng_or_default(r, &fallback);
			double *t = xmalloc((size_t)iters * sizeof(*t));
			uint32_t *count = xmalloc((na > nb ? na : nb) * sizeof(*count));
			for (int it = 0; it < iters; it++) {
				double ma = boot_resample_median(&ba, count, r);
				double mb = boot_resample_median(&bb, count, r);
				t[it] = ratio_of(ma, mb);
			}
			percentile_interval(t, (size_t)iters, conf, lo, hi);
			free(count);
			free(t);
		}
	}
	boot_release(&ba);
	boot_release(&bb);
	return err;
}

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
	return cmp_double(&((const struct ranked *)pa)->v, &((const struct ranked *)pb)->v);
}

double stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u)
{
	if (u)
		*u = NAN;
	if (na == 0 || nb == 0 || has_nan(a, na) || has_nan(b, nb))
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
	double conf = conf_valid(1 - alpha) ? 1 - alpha : 0.95;
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

/* ---- across workloads -------------------------------------------------- */

int stats_geomean_ratio(const struct sample_pair *p, size_t np, double conf, int iters,
			struct rng *r, double *gm, double *lo, double *hi)
{
	return stats_geomean_ratio_boot(p, np, conf, iters, r, gm, lo, hi, NULL);
}

/* 0 when every pair has values on both sides and no NaN, else the
 * error stats_geomean_ratio returns. */
static int pairs_check(const struct sample_pair *p, size_t np)
{
	if (np == 0)
		return -EINVAL;
	for (size_t w = 0; w < np; w++) {
		if (p[w].ncand == 0 || p[w].nbase == 0)
			return -EINVAL;
		if (has_nan(p[w].cand, p[w].ncand) || has_nan(p[w].base, p[w].nbase))
			return -EDOM;
	}
	return 0;
}

int stats_geomean_ratio_boot(const struct sample_pair *p, size_t np, double conf, int iters,
			     struct rng *r, double *gm, double *lo, double *hi, double *boot)
{
	struct rng fallback;

	*gm = *lo = *hi = NAN;
	int err = pairs_check(p, np);
	if (err)
		return err;

	struct nested *bc = xmalloc(np * sizeof(*bc)), *bb = xmalloc(np * sizeof(*bb));
	size_t nmax = 0;
	int all_constant = 1;
	double logsum = 0;
	for (size_t w = 0; w < np; w++) {
		nested_init(&bc[w], p[w].cand, p[w].cand_layout, p[w].ncand);
		nested_init(&bb[w], p[w].base, p[w].base_layout, p[w].nbase);
		nmax = bc[w].nmax > nmax ? bc[w].nmax : nmax;
		nmax = bb[w].nmax > nmax ? bb[w].nmax : nmax;
		all_constant &= bc[w].constant && bb[w].constant;
		double q = ratio_of(bc[w].stat, bb[w].stat);
		if (!(q > 0 && isfinite(q)))
			err = -EDOM;
		logsum += log(q);
	}

	if (!err) {
		*gm = exp(logsum / (double)np);
		if (all_constant) {
			*lo = *hi = *gm;
			for (int it = 0; boot && it < iters; it++)
				boot[it] = *gm;
		} else if (iters > 0 && conf_valid(conf)) {
			r = rng_or_default(r, &fallback);
			double *t = xmalloc((size_t)iters * sizeof(*t));
			uint32_t *count = xmalloc(nmax * sizeof(*count));
			for (int it = 0; it < iters; it++) {
				double sum = 0;
				for (size_t w = 0; w < np; w++) {
					double mc = nested_resample(&bc[w], count, r);
					double mb = nested_resample(&bb[w], count, r);
					sum += log(ratio_of(mc, mb));
				}
				t[it] = exp(sum / (double)np);
			}
			if (boot)
				memcpy(boot, t, (size_t)iters * sizeof(*t));
			percentile_interval(t, (size_t)iters, conf, lo, hi);
			free(count);
			free(t);
		}
	}
	for (size_t w = 0; w < np; w++) {
		nested_release(&bc[w]);
		nested_release(&bb[w]);
	}
	free(bc);
	free(bb);
	return err;
}

/* Two-sided bootstrap p of "ratio 1": twice the smaller share of
 * resamples on one side of 1, ties half to each. */
static double boot_p(const double *t, size_t n)
{
	double below = 0, above = 0, defined = 0;
	for (size_t i = 0; i < n; i++) {
		if (isnan(t[i]))
			continue;
		defined++;
		below += t[i] < 1 ? 1 : t[i] == 1 ? 0.5 : 0;
		above += t[i] > 1 ? 1 : t[i] == 1 ? 0.5 : 0;
	}
	if (!defined)
		return NAN;
	double p = 2 * fmin(below, above) / defined;
	return p > 1 ? 1 : p;
}

int stats_nested_ratio_ci(const struct sample_pair *p, double conf, int iters, struct rng *r,
			  double *ratio, double *lo, double *hi, double *pvalue)
{
	struct rng fallback;
	double pv = NAN;
	*ratio = *lo = *hi = NAN;
	int err = pairs_check(p, 1);
	if (pvalue)
		*pvalue = NAN;
	if (err)
		return err;
	struct nested c, b;
	nested_init(&c, p->cand, p->cand_layout, p->ncand);
	nested_init(&b, p->base, p->base_layout, p->nbase);
	double q = ratio_of(c.stat, b.stat);
	if (!isfinite(q)) {
		err = -EDOM;
	} else if (c.constant && b.constant) {
		*ratio = *lo = *hi = q;
		pv = q == 1 ? 1 : 0;
	} else {
		*ratio = q;
		if (iters > 0 && conf_valid(conf)) {
			r = rng_or_default(r, &fallback);
			double *t = xmalloc((size_t)iters * sizeof(*t));
			size_t nmax = c.nmax > b.nmax ? c.nmax : b.nmax;
			uint32_t *count = xmalloc(nmax * sizeof(*count));
			for (int it = 0; it < iters; it++)
				t[it] = ratio_of(nested_resample(&c, count, r),
						 nested_resample(&b, count, r));
			pv = boot_p(t, (size_t)iters);
			percentile_interval(t, (size_t)iters, conf, lo, hi);
			free(count);
			free(t);
		}
	}
	if (pvalue)
		*pvalue = pv;
	nested_release(&c);
	nested_release(&b);
	return err;
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
	if (na < 2 || nb < 2 || has_nan(a, na) || has_nan(b, nb))
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

/* The log of each layout's median of a prepared side, into out (k). */
static void layout_log_medians(const struct nested *s, double *out)
{
	for (size_t i = 0; i < s->k; i++)
		out[i] = log(s->g[i].median);
}

/* Welch's test on the layouts' log medians, both sides with two or more
 * layouts and positive medians; NAN otherwise. */
static double layout_welch_p(const struct sample_pair *p)
{
	struct nested c, b;
	nested_init(&c, p->cand, p->cand_layout, p->ncand);
	nested_init(&b, p->base, p->base_layout, p->nbase);
	double pv = NAN;
	int positive = 1;
	for (size_t i = 0; i < c.k; i++)
		positive &= c.g[i].median > 0;
	for (size_t i = 0; i < b.k; i++)
		positive &= b.g[i].median > 0;
	if (c.k >= 2 && b.k >= 2 && positive) {
		double *lc = xmalloc(c.k * sizeof(*lc)), *lb = xmalloc(b.k * sizeof(*lb));
		layout_log_medians(&c, lc);
		layout_log_medians(&b, lb);
		pv = stats_welch_p(lc, c.k, lb, b.k);
		free(lc);
		free(lb);
	}
	nested_release(&c);
	nested_release(&b);
	return pv;
}

void stats_compare_nested(const struct sample_pair *p, double alpha, double min_effect,
			  int iters, struct rng *r, struct comparison *c)
{
	*c = (struct comparison){
		.na = p->ncand, .nb = p->nbase, .verdict = VERDICT_UNCHANGED,
		.layouts_cand = stats_layout_count(p->cand_layout, p->ncand),
		.layouts_base = stats_layout_count(p->base_layout, p->nbase),
	};
	double conf = conf_valid(1 - alpha) ? 1 - alpha : 0.95;
	c->error = stats_nested_ratio_ci(p, conf, iters, r, &c->ratio, &c->lo, &c->hi, &c->p);
	stats_mann_whitney(p->cand, p->ncand, p->base, p->nbase, &c->u);
	if (c->error)
		return;
	if (p->ncand < 2 || p->nbase < 2) {
		c->untested = 1;
		c->lo = c->hi = c->p = c->u = NAN;
		return;
	}
	/* the layouts are the units: with two or more a side their medians
	 * are tested, the bootstrap's p only where a side has one */
	double welch = layout_welch_p(p);
	if (!isnan(welch))
		c->p = welch;
	double effect = fabs(c->ratio - 1);
	if (c->p < alpha && effect >= min_effect * (1 - 1e-9))
		c->verdict = c->ratio < 1 ? VERDICT_IMPROVED : VERDICT_REGRESSED;
}

struct rank_item {
	double v;
	size_t i;
};

static int cmp_rank_item(const void *pa, const void *pb)
{
	const struct rank_item *a = pa, *b = pb;
	int c = cmp_double(&a->v, &b->v);
	return c ? c : (a->i > b->i) - (a->i < b->i);
}

void stats_shared_ranks(const double *value, const double *lo, const double *hi, size_t n,
			int *rank)
{
	struct rank_item *items = xmalloc((n ? n : 1) * sizeof(*items));
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		rank[i] = 0;
		if (!isnan(value[i]))
			items[m++] = (struct rank_item){ value[i], i };
	}
	qsort(items, m, sizeof(*items), cmp_rank_item);

	double lead_lo = 0, lead_hi = 0;
	int lead_rank = 0;
	for (size_t k = 0; k < m; k++) {
		size_t i = items[k].i;
		double l = lo && !isnan(lo[i]) ? lo[i] : value[i];
		double h = hi && !isnan(hi[i]) ? hi[i] : value[i];
		if (k > 0 && l <= lead_hi && lead_lo <= h) {
			rank[i] = lead_rank;
			continue;
		}
		lead_lo = l;
		lead_hi = h;
		lead_rank = (int)k + 1;
		rank[i] = lead_rank;
	}
	free(items);
}

void stats_pareto(const double *x, const double *y, size_t n, int *front)
{
	for (size_t i = 0; i < n; i++) {
		front[i] = !isnan(x[i]) && !isnan(y[i]);
		for (size_t j = 0; j < n && front[i]; j++) {
			if (j == i || isnan(x[j]) || isnan(y[j]))
				continue;
			if (x[j] <= x[i] && y[j] <= y[i] && (x[j] < x[i] || y[j] < y[i]))
				front[i] = 0;
		}
	}
}

double stats_fraction_within(const double *t, size_t n, double lo, double hi)
{
	size_t in = 0, defined = 0;
	for (size_t i = 0; i < n; i++) {
		if (isnan(t[i]))
			continue;
		defined++;
		in += t[i] >= lo && t[i] <= hi;
	}
	return defined ? (double)in / (double)defined : NAN;
}
