#!/bin/bash
# stats-bench.sh - how long the statistics of one ranking take, and what the
# O(n)-per-resample bootstrap saves over sorting every resample.
#
# Goal (issue 7): a 2000-resample bootstrap on 30 samples per side in a few
# milliseconds, so adaptive repetition can recompute intervals after every
# round.  Prints times and ratios; it is not a test and asserts nothing.
#
#   bench/stats-bench.sh            # builds with cc -O2 into a temporary dir
#   CC=clang bench/stats-bench.sh
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/bench.c" <<'EOF'
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "base/util.h"

#define REPS 15

static double data_a[64], data_b[64];
static volatile double sink;

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The bootstrap the usual way, for the ratio: copy, qsort every resample. */
static void naive_ratio_ci(const double *a, size_t na, const double *b, size_t nb, int iters,
			   struct rng *r)
{
	double ra[64], rb[64], *t = malloc((size_t)iters * sizeof(double));
	for (int it = 0; it < iters; it++) {
		for (size_t i = 0; i < na; i++)
			ra[i] = a[rng_below(r, na)];
		for (size_t i = 0; i < nb; i++)
			rb[i] = b[rng_below(r, nb)];
		qsort(ra, na, sizeof(double), cmp);
		qsort(rb, nb, sizeof(double), cmp);
		t[it] = ((ra[(na - 1) / 2] + ra[na / 2]) / 2) / ((rb[(nb - 1) / 2] + rb[nb / 2]) / 2);
	}
	qsort(t, (size_t)iters, sizeof(double), cmp);
	sink = t[iters / 40] + t[iters - iters / 40 - 1];
	free(t);
}

enum job { SUMMARIZE, RATIO, NAIVE_RATIO, GEOMEAN10, MWU_EXACT49, MWU_NORMAL200, COMPARE };

static void run(enum job j, struct rng *r)
{
	double q, lo, hi;
	struct summary s;
	struct comparison c;
	struct sample_pair p[10];

	switch (j) {
	case SUMMARIZE:
		stats_summarize(data_a, 30, 0.95, 2000, r, &s);
		sink = s.ci_lo;
		break;
	case RATIO:
		stats_ratio_ci(data_a, 30, data_b, 30, 0.95, 2000, r, &q, &lo, &hi);
		sink = lo;
		break;
	case NAIVE_RATIO:
		naive_ratio_ci(data_a, 30, data_b, 30, 2000, r);
		break;
	case GEOMEAN10:
		for (int w = 0; w < 10; w++)
			p[w] = (struct sample_pair){ data_a, 30, data_b, 30 };
		stats_geomean_ratio(p, 10, 0.95, 2000, r, &q, &lo, &hi);
		sink = lo;
		break;
	case MWU_EXACT49: { /* overlapping samples: U mid-range, the costly case */
		double shifted[49];
		for (int i = 0; i < 49; i++)
			shifted[i] = data_a[63 - i] + 0.001;
		sink = stats_mann_whitney(data_a, 49, shifted, 49, NULL);
		break;
	}
	case MWU_NORMAL200: {
		static double big_a[200], big_b[200];
		for (int i = 0; i < 200; i++)
			big_a[i] = data_a[i % 64] + i, big_b[i] = data_b[i % 64] + i;
		sink = stats_mann_whitney(big_a, 200, big_b, 200, NULL);
		break;
	}
	case COMPARE:
		stats_compare(data_a, 30, data_b, 30, 0.05, 0.01, 2000, r, &c);
		sink = c.p;
		break;
	}
}

/* median milliseconds of REPS calls */
static double time_ms(enum job j)
{
	double t[REPS];
	struct rng r;
	rng_seed(&r, 1);
	run(j, &r); /* warm caches */
	for (int k = 0; k < REPS; k++) {
		double t0 = now_seconds();
		run(j, &r);
		t[k] = (now_seconds() - t0) * 1e3;
	}
	return stats_median(t, REPS);
}

int main(void)
{
	struct rng r;
	rng_seed(&r, 2);
	for (int i = 0; i < 64; i++) {
		data_a[i] = 1.00 + 0.02 * rng_uniform(&r);
		data_b[i] = 1.03 + 0.02 * rng_uniform(&r);
	}
	static const struct {
		const char *what;
		enum job job;
	} rows[] = {
		{ "summarize, n 30, 2000 resamples", SUMMARIZE },
		{ "ratio interval, 30 vs 30, 2000 resamples", RATIO },
		{ "  same, sorting every resample (reference)", NAIVE_RATIO },
		{ "geomean interval, 10 workloads of 30 vs 30", GEOMEAN10 },
		{ "mann-whitney exact, 49 vs 49", MWU_EXACT49 },
		{ "mann-whitney normal, 200 vs 200", MWU_NORMAL200 },
		{ "compare (ratio + test), 30 vs 30", COMPARE },
	};
	double ms[ARRAY_SIZE(rows)];
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		ms[i] = time_ms(rows[i].job);
		printf("%-46s %8.3f ms\n", rows[i].what, ms[i]);
	}
	printf("speed-up of counting resamples over sorting them: %.1fx\n", ms[2] / ms[1]);
	printf("ratio interval against the few-ms goal (5 ms): %.2f of budget\n", ms[1] / 5);
	return 0;
}
EOF

${CC:-cc} -std=gnu17 -O2 -I"$src" -DFLAGSCOPE_SOURCE_DIR="\"$src\"" \
	"$tmp/bench.c" "$src/analysis/stats.c" "$src/base/util.c" -lcrypto -lm -o "$tmp/bench" \
	2> "$tmp/cc.log" || { cat "$tmp/cc.log" >&2; exit 1; }
"$tmp/bench"
