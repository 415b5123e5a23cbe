/* test_sequential.c - analysis/sequential: the level of each look of a
 * default repeat = stable study (5% over 26 looks, after 5 to 30 rounds) */
#include "analysis/sequential.h"

#include <math.h>

#include "flagsets/study.h"
#include "tests/testlib.h"

#define ALPHA 0.05
#define LOOKS 26
#define MAX_REPEAT 30

static double level(int rule, size_t n)
{
	return seq_level(rule, ALPHA, LOOKS, MAX_REPEAT, n);
}

/* 2 - 2 Phi(1.959964 / sqrt(t)) at t = 1/2 and t = 5/30 (the first
 * look), from Python's statistics.NormalDist; the function rises from 0
 * at t = 0 to alpha at t = 1. */
static void test_obrien_fleming(void)
{
	double half = seq_spent(STABLE_OBRIEN_FLEMING, ALPHA, 0.5);
	T_CHECK(fabs(half - 0.0055745967) < 1e-9, "O'Brien-Fleming at t = 1/2: %.10g", half);
	T_CHECK(fabs(level(STABLE_OBRIEN_FLEMING, 5) - 1.5794492e-6) < 1e-12, "first look: %g",
		level(STABLE_OBRIEN_FLEMING, 5));
	double prev = -1;
	for (int i = 0; i <= 100; i++) {
		double a = seq_spent(STABLE_OBRIEN_FLEMING, ALPHA, i / 100.0);
		T_CHECK(a >= prev && a >= 0 && a <= ALPHA, "spent(%d%%) = %g after %g", i, a, prev);
		prev = a;
	}
	T_CHECK(seq_spent(STABLE_OBRIEN_FLEMING, ALPHA, 0) == 0 &&
		seq_spent(STABLE_OBRIEN_FLEMING, ALPHA, 1) == ALPHA, "0 at t = 0, alpha at t = 1");
}

/* Per rule over the 26 looks: every level in (0, alpha), the levels add up
 * to alpha; O'Brien-Fleming's rise from a first look far below
 * Bonferroni's 5% / 26 to a last one above it, Pocock's fall from a first
 * look above it; a look past the last counts as the last; one look keeps
 * alpha, and a cap not stored falls back to Bonferroni. */
static void test_levels(void)
{
	static const int rules[] = {STABLE_OBRIEN_FLEMING, STABLE_POCOCK, STABLE_BONFERRONI};
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		int rule = rules[i];
		const char *name = stable_rule_name(rule);
		double sum = 0, prev = 0;
		int rising = 1, falling = 1;
		for (size_t n = MAX_REPEAT - LOOKS + 1; n <= MAX_REPEAT; n++) {
			double l = level(rule, n);
			T_CHECK(l > 0 && l < ALPHA, "%s, the look after %zu rounds: %g", name, n, l);
			rising &= n == MAX_REPEAT - LOOKS + 1 || l > prev;
			falling &= n == MAX_REPEAT - LOOKS + 1 || l < prev;
			sum += l;
			prev = l;
		}
		T_CHECK(fabs(sum - ALPHA) < 1e-12, "%s: the levels add up to %.15g", name, sum);
		T_CHECK(level(rule, 31) == level(rule, 30), "%s: a look past the last", name);
		T_CHECK(seq_level(rule, ALPHA, 1, MAX_REPEAT, 10) == ALPHA, "%s: one look", name);
		T_CHECK(seq_level(rule, ALPHA, LOOKS, 0, 10) == ALPHA / LOOKS, "%s: no cap stored", name);
		if (rule == STABLE_OBRIEN_FLEMING)
			T_CHECK(rising && level(rule, 5) < ALPHA / LOOKS / 100 && level(rule, 30) > ALPHA / LOOKS,
				"O'Brien-Fleming: rising %d, first %g, last %g", rising, level(rule, 5),
				level(rule, 30));
		if (rule == STABLE_POCOCK)
			T_CHECK(falling && level(rule, 5) > ALPHA / LOOKS, "Pocock: falling %d, first %g",
				falling, level(rule, 5));
		if (rule == STABLE_BONFERRONI)
			T_CHECK(level(rule, 17) == ALPHA / LOOKS, "Bonferroni: %g", level(rule, 17));
	}
}

int main(void)
{
	test_obrien_fleming();
	test_levels();
	return test_summary("test_sequential");
}
