/* stats.c - see stats.h: random numbers, order statistics, summaries and
 * outliers, the bootstrap of one sample, shared ranks and the Pareto front
 * (the tests: stats_tests.c; ratios, across workloads and layouts:
 * stats_ratio.c) */
#include "analysis/stats.h"
#include "analysis/stats_internal.h"

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
struct rng *stats_rng_or_default(struct rng *r, struct rng *fallback)
{
	if (r)
		return r;
	rng_seed(fallback, STATS_DEFAULT_SEED);
	return fallback;
}

/* ---- order statistics -------------------------------------------------- */

int stats_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

int stats_has_nan(const double *x, size_t n)
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
	if (n == 0 || stats_has_nan(x, n))
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
	if (n == 0 || !(p >= 0 && p <= 1) || stats_has_nan(x, n))
		return NAN;
	double *v = copy_of(x, n);
	double q = quantile_inplace(v, n, p);
	free(v);
	return q;
}

/* ---- bootstrap --------------------------------------------------------- */

void stats_boot_init(struct stats_boot *b, const double *x, size_t n)
{
	b->sorted = copy_of(x, n);
	b->n = n;
	qsort(b->sorted, n, sizeof(double), stats_cmp_double);
	b->median = n % 2 ? b->sorted[n / 2]
			  : b->sorted[n / 2 - 1] + (b->sorted[n / 2] - b->sorted[n / 2 - 1]) / 2;
	b->constant = b->sorted[0] == b->sorted[n - 1];
}

void stats_boot_release(struct stats_boot *b)
{
	free(b->sorted);
	b->sorted = NULL;
}

/* count has room for b->n entries. */
double stats_boot_median(const struct stats_boot *b, uint32_t *count, struct rng *r)
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

int stats_conf_valid(double conf)
{
	return conf > 0 && conf < 1;
}

/* Percentile interval of the bootstrap statistics t (reordered); resamples
 * whose statistic is undefined (NaN) are left out. */
void stats_percentile_interval(double *t, size_t n, double conf, double *lo, double *hi)
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
double stats_ratio_of(double a, double b)
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
	if (n == 0 || stats_has_nan(x, n)) {
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
static void median_ci(const struct stats_boot *b, double conf, int iters, struct rng *r, double *lo,
		      double *hi)
{
	double *t = xmalloc((size_t)iters * sizeof(*t));
	uint32_t *count = xmalloc(b->n * sizeof(*count));

	for (int it = 0; it < iters; it++)
		t[it] = stats_boot_median(b, count, r);
	stats_percentile_interval(t, (size_t)iters, conf, lo, hi);
	free(count);
	free(t);
}

void stats_summarize(const double *x, size_t n, double conf, int iters, struct rng *r,
		     struct summary *s)
{
	struct rng fallback;
	struct stats_boot b;

	summary_undefined(s, n);
	if (n == 0 || stats_has_nan(x, n))
		return;
	stats_boot_init(&b, x, n);
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
	else if (iters > 0 && stats_conf_valid(conf))
		median_ci(&b, conf, iters, stats_rng_or_default(r, &fallback), &s->ci_lo, &s->ci_hi);
	stats_boot_release(&b);
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


struct rank_item {
	double v;
	size_t i;
};

static int cmp_rank_item(const void *pa, const void *pb)
{
	const struct rank_item *a = pa, *b = pb;
	int c = stats_cmp_double(&a->v, &b->v);
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
