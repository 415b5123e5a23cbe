/*
 * test_resolution.c - a meter's resolution in the one verdict rule
 * (analysis/verdict.h) and in the meters' tables (harness/meter.h).
 * Expect: synthetic user times in whole scheduler ticks (4 ms), medians of
 * 0 and one tick, that Mann-Whitney alone calls significant, are UNCHANGED
 * and below_resolution with the tick as the rule's resolution; so are
 * layout-nested ones the nested rule alone calls; a difference of 1.5
 * ticks between values far above the tick too; a real difference (100 ms
 * against 200 ms) stays significant; resolution 0 (exact, or not known)
 * changes nothing.  Every metric a meter gives has a grain: time and wall
 * 1 us or finer, user and sys the tick (1 to 10 ms), sizes of memory a
 * page, instruction counts exact, a recipe's metric not known.
 */
#include "analysis/verdict.h"
#include "harness/meter.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests/testlib.h"

#define TICK 0.004

static const struct verdict_rule plain = {
	.alpha = 0.05, .min_effect = 0.01, .iters = 2000, .seed = STATS_DEFAULT_SEED,
};

struct rcase {
	const char *what;
	double cand[12], base[12];
	size_t n;
	int significant_without; /* the rule without a resolution calls it */
	int below;               /* with the tick: below the resolution */
};

static void test_parts(void)
{
	static const struct rcase cases[] = {
		{"0 against one tick", {0, 0, 0, 0, 0, 0, 0, 0}, {TICK, TICK, TICK, TICK, TICK, TICK,
		 TICK, 0}, 8, 1, 1},
		{"one tick against two", {TICK, TICK, TICK, TICK, TICK, TICK}, {2 * TICK, 2 * TICK,
		 2 * TICK, 2 * TICK, 2 * TICK, TICK}, 6, 1, 1},
		{"9 ticks against 6, all under 10", {9 * TICK, 9 * TICK, 9 * TICK, 9 * TICK, 9 * TICK,
		 9 * TICK}, {6 * TICK, 6 * TICK, 6 * TICK, 6 * TICK, 6 * TICK, 6 * TICK}, 6, 1, 1},
		{"1.5 ticks apart at 50 ticks", {0.2, 0.2001, 0.2002, 0.2003, 0.2004, 0.2005},
		 {0.206, 0.2061, 0.2062, 0.2063, 0.2064, 0.2065}, 6, 1, 1},
		{"100 ms against 200 ms", {0.100, 0.101, 0.099, 0.102, 0.100, 0.098}, {0.200, 0.201,
		 0.199, 0.202, 0.198, 0.200}, 6, 1, 0},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct rcase *k = &cases[i];
		struct comparison c0, c1;
		verdict_part(&plain, k->cand, k->n, k->base, k->n, &c0);
		struct verdict_rule tick = plain;
		tick.resolution = TICK;
		verdict_part(&tick, k->cand, k->n, k->base, k->n, &c1);
		int sig0 = c0.verdict != VERDICT_UNCHANGED, sig1 = c1.verdict != VERDICT_UNCHANGED;
		T_CHECK(sig0 == k->significant_without && !c0.below_resolution,
			"%s without a resolution: %s p %g", k->what, verdict_name(c0.verdict), c0.p);
		T_CHECK(c1.below_resolution == k->below && sig1 == !k->below,
			"%s at a 4 ms tick: %s below %d", k->what, verdict_name(c1.verdict),
			c1.below_resolution);
		T_CHECK(verdict_below_resolution(&tick, k->cand, k->n, k->base, k->n) == k->below,
			"%s: verdict_below_resolution", k->what);
		printf("%-34s p %.3g: %s without a resolution, %s at 4 ms%s\n", k->what, c0.p,
		       verdict_name(c0.verdict), verdict_name(c1.verdict),
		       c1.below_resolution ? " (below the meter's resolution)" : "");
	}
}

/* Three layouts a side, two runs each: medians of 0 and one tick, the
 * nested rule alone calls it (the false calls at repeat = 2) */
static void test_nested(void)
{
	static const double cand[] = {TICK, TICK, TICK, TICK, TICK, 0};
	static const double base[] = {0, 0, 0, 0, 0, 0.0001};
	static const int lay[] = {0, 0, 1, 1, 2, 2};
	struct sample_pair p = {cand, 6, base, 6, lay, lay};
	struct comparison c0, c1;
	verdict_pair(&plain, &p, &c0);
	struct verdict_rule tick = plain;
	tick.resolution = TICK;
	verdict_pair(&tick, &p, &c1);
	T_CHECK(c1.layouts_cand == 3 && c1.verdict == VERDICT_UNCHANGED && c1.below_resolution,
		"nested at a 4 ms tick: %s, %zu layouts, below %d", verdict_name(c1.verdict),
		c1.layouts_cand, c1.below_resolution);
	printf("nested, 3 layouts of 2 runs: %s (p %.3g) without a resolution, %s at 4 ms\n",
	       verdict_name(c0.verdict), c0.p, verdict_name(c1.verdict));
	/* the layout-noise reason yields to the resolution's */
	struct verdict_rule floor = tick;
	floor.floor = floor.min_effect = 0.5;
	T_CHECK(isnan(verdict_layout_noise(&floor, &c1)), "below the resolution is the reason");
}

static void test_tables(void)
{
	struct strbuf err = {0}, how = {0};
	T_CHECK(!meters_check(&err), "meters_check: %s", sb_str(&err));
	const char *unit = NULL;
	double t = meter_resolution("time", &unit, &how);
	T_CHECK(t > 0 && t <= 1e-6 && !strcmp(unit, "s"), "time: %g %s (%s)", t, unit,
		sb_str(&how));
	sb_release(&how);
	double u = meter_resolution("user", &unit, &how);
	const char *tick_how;
	T_CHECK(u >= 0.001 && u <= 0.01 && u == meter_tick(&tick_how) && strstr(sb_str(&how),
		"tick"), "user: %g (%s)", u, sb_str(&how));
	printf("user and sys: %g s, %s\n", u, tick_how);
	sb_release(&how);
	T_CHECK(meter_resolution("mem.res", &unit, &how) >= 4 && !strcmp(unit, "KiB"), "mem.res");
	T_CHECK(meter_resolution("perf/task-clock", &unit, &how) == 0.01 && !strcmp(unit, "msec"),
		"perf/task-clock");
	T_CHECK(meter_resolution("perf/cycles", &unit, &how) == 1, "perf/cycles: one event");
	T_CHECK(meter_resolution("insns", &unit, &how) == 0, "insns: exact");
	T_CHECK(meter_resolution("insns.loads", &unit, &how) == 0, "insns.loads: exact");
	T_CHECK(meter_resolution("score", &unit, &how) < 0, "a recipe's metric: not known");
	sb_release(&how);
	sb_release(&err);
}

int main(void)
{
	test_parts();
	test_nested();
	test_tables();
	return test_failures ? 1 : 0;
}
