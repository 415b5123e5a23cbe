/*
 * test_calibration.c - analysis/calibration: the floor on synthetic data
 * with a known noise and a known layout effect, and the verdict rule
 * reading it (verdict_rule_for, verdict_layout_noise).  Expect: with
 * builds whose medians are 0.98, 1.00 and 1.03 and little noise, layout
 * is log(1.03 / 0.98) and the floor exp(layout) - 1; with no layout
 * effect the floor is the noise, whose 95th percentile at 20 runs a side
 * of 1% noise lies near 1.96 x 1.25 x 1% x sqrt(2 / 20); constant runs
 * give a floor of 0; one run of the baseline is refused; ASLR off 10%
 * slower reads as aslr log(1.1); the same seed gives the same figures.
 * A 3% difference that Mann-Whitney finds is "improved" with a fixed 1%
 * and "unchanged, within layout noise (5%)" with a 5% floor; a
 * deterministic metric and an item without a floor keep the fixed 1%.
 */
#include "analysis/calibration.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/verdict.h"
#include "tests/testlib.h"

/* n values around mu with relative sd, from seed (Box-Muller) */
static double *normal(size_t n, double mu, double sd, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed);
	double *v = xcalloc(n, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		double u1 = rng_uniform(&r), u2 = rng_uniform(&r);
		double z = sqrt(-2 * log(u1 > 0 ? u1 : 1e-300)) * cos(2 * M_PI * u2);
		v[i] = mu * (1 + sd * z);
	}
	return v;
}

static void test_known_layout(void)
{
	double *b = normal(20, 1.0, 0.001, 1), *c = normal(20, 1.0, 0.001, 2);
	double *v1 = normal(20, 1.03, 0.001, 3), *v2 = normal(20, 0.98, 0.001, 4);
	struct calib_samples vs[2] = {{v1, 20}, {v2, 20}};
	struct calib_input in = {.base = {b, 20}, .copy = {c, 20}, .variants = vs, .nvariants = 2};
	struct calib_row row = {0};
	T_CHECK(!calibration_compute(&in, 7, &row), "computes");
	double want = log(1.03 / 0.98);
	T_CHECK(fabs(row.layout - want) < 0.002, "layout %g, want about %g", row.layout, want);
	T_CHECK(row.noise < 0.002, "noise %g at 0.1%% sd", row.noise);
	T_CHECK(fabs(row.floor - (exp(row.layout) - 1)) < 1e-12, "floor %g is the layout", row.floor);
	T_CHECK(row.runs == 20 && row.builds == 4, "runs %d builds %d", row.runs, row.builds);
	T_CHECK(isnan(row.aslr) && isnan(row.env), "no ASLR-off pass: aslr and env unknown");
	free(b), free(c), free(v1), free(v2);
}

static void test_noise_only(void)
{
	double *b = normal(20, 1.0, 0.01, 11), *c = normal(20, 1.0, 0.01, 12);
	double *off = normal(20, 1.1, 0.01, 13);
	struct calib_input in = {.base = {b, 20}, .copy = {c, 20}, .aslr_off = {off, 20}};
	struct calib_row row = {0}, again = {0};
	T_CHECK(!calibration_compute(&in, 7, &row), "computes");
	/* |difference of two medians| of 20 runs each: sd 1.25 x 1% x sqrt(2/20) */
	double sd = 1.2533 * 0.01 * sqrt(2.0 / 20), want = 1.96 * sd;
	T_CHECK(row.noise > 0.6 * want && row.noise < 1.4 * want, "noise %g, want about %g",
		row.noise, want);
	double worst = row.noise > row.layout ? row.noise : row.layout;
	T_CHECK(fabs(row.floor - (exp(worst) - 1)) < 1e-12, "floor %g from max(noise %g, layout %g)",
		row.floor, row.noise, row.layout);
	T_CHECK(fabs(row.aslr - log(1.1)) < 0.01, "aslr %g, want about %g", row.aslr, log(1.1));
	T_CHECK(row.env > 0 && row.spread > 0, "env %g spread %g", row.env, row.spread);
	T_CHECK(!calibration_compute(&in, 7, &again) && again.noise == row.noise,
		"the same seed gives the same noise (%g, %g)", row.noise, again.noise);
	free(b), free(c), free(off);
}

static void test_edges(void)
{
	double k[4] = {2, 2, 2, 2};
	struct calib_input in = {.base = {k, 4}, .copy = {k, 4}};
	struct calib_row row = {0};
	T_CHECK(!calibration_compute(&in, 7, &row) && row.floor == 0 && row.noise == 0,
		"constant runs: floor %g noise %g", row.floor, row.noise);
	in.base.n = 1;
	T_CHECK(calibration_compute(&in, 7, &row) == -1, "one run of the baseline is refused");
}

static void test_verdict_reads_floor(void)
{
	struct calib_floors f = {.n = 1};
	sl_push(&f.items, "crc32");
	f.floor = xcalloc(1, sizeof(*f.floor));
	f.floor[0] = 0.05;
	struct verdict_rule rule = {
		.alpha = 0.05, .min_effect = 0.01, .iters = 2000, .seed = STATS_DEFAULT_SEED,
		.floors = &f,
	};
	double *ref = normal(10, 1.0, 0.001, 21), *cand = normal(10, 0.97, 0.001, 22);
	struct verdict_rule ir;
	struct comparison c;
	verdict_rule_for(&rule, "crc32", &ir);
	T_CHECK(ir.min_effect == 0.05 && ir.floor == 0.05, "crc32 takes its floor (%g)",
		ir.min_effect);
	verdict_part(&ir, cand, 10, ref, 10, &c);
	T_CHECK(c.p < 0.05 && c.verdict == VERDICT_UNCHANGED, "3%% under a 5%% floor: p %g, %s",
		c.p, verdict_name(c.verdict));
	T_CHECK(verdict_layout_noise(&ir, &c) == 0.05, "within layout noise (5%%)");

	verdict_rule_for(&rule, "nbody", &ir);
	T_CHECK(ir.min_effect == 0.01 && ir.floor == 0, "no floor for nbody: fixed 1%%");
	verdict_part(&ir, cand, 10, ref, 10, &c);
	T_CHECK(c.verdict == VERDICT_IMPROVED, "3%% with 1%%: %s", verdict_name(c.verdict));
	T_CHECK(isnan(verdict_layout_noise(&ir, &c)), "no layout-noise reason without a floor");

	rule.deterministic = 1;
	verdict_rule_for(&rule, "crc32", &ir);
	T_CHECK(ir.min_effect == 0.01, "a deterministic metric keeps the fixed 1%%");
	free(ref), free(cand);
	calib_floors_release(&f);
}

int main(void)
{
	test_known_layout();
	test_noise_only();
	test_edges();
	test_verdict_reads_floor();
	return test_summary("test_calibration");
}
