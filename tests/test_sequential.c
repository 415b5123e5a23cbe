/* test_sequential.c - analysis/sequential: the level of each look of a
 * default repeat = stable study (5% over 26 looks, after 5 to 30 rounds),
 * and a two-look design against published boundaries */
#include "analysis/sequential.h"

#include <math.h>

#include "analysis/stats.h"
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

/* Lan-DeMets boundaries for O'Brien-Fleming-type spending of a one-sided
 * 2.5% over looks at t = 1/2 and 1: z = 2.9626 and 1.9686 (Jennison and
 * Turnbull; R's ldbounds and gsDesign give the same), i.e. nominal levels
 * 1 - Phi(z) = 0.0015253 and 0.0245002. */
static void test_two_looks(void)
{
	double first = seq_level(STABLE_OBRIEN_FLEMING, 0.025, 2, 2, 1);
	double last = seq_level(STABLE_OBRIEN_FLEMING, 0.025, 2, 2, 2);
	T_CHECK(fabs(first - 0.0015253) < 2e-6 && fabs(last - 0.0245002) < 2e-5,
		"two looks: %.7f %.7f", first, last);
}

/* The z of a one-sided level p (1 - Phi(z) = p) */
static double z_of(double p)
{
	double lo = -10, hi = 10;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		*(erfc(mid / M_SQRT2) / 2 > p ? &lo : &hi) = mid;
	}
	return (lo + hi) / 2;
}

/* Designs past two looks, where a boundary depends on the sub-density
 * carried from look to look (the two-look case never carries one):
 * one-sided 2.5% at t = 1/4, 1/2, 3/4, 1, O'Brien-Fleming type: z =
 * 4.3326, 2.9631, 2.3590, 2.0141 (gsDesign's sfLDOF gives these; an
 * independent midpoint-rule integration, step 0.005, gave 4.3326, 2.9631,
 * 2.3590, 2.0132); Pocock type at t = 1/2, 1: 2.1570, 2.2010 (the same
 * integration: 2.1570, 2.2009). */
static void test_more_looks(void)
{
	static const struct {
		int rule, looks;
		double z[4];
	} cases[] = {
		{STABLE_OBRIEN_FLEMING, 4, {4.3326, 2.9631, 2.3590, 2.0141}},
		{STABLE_POCOCK, 2, {2.1570, 2.2010}},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		for (int n = 1; n <= cases[i].looks; n++) {
			double z = z_of(seq_level(cases[i].rule, 0.025, cases[i].looks,
						  cases[i].looks, (size_t)n));
			T_CHECK(fabs(z - cases[i].z[n - 1]) < 1e-3, "%s, %d looks, look %d: z %.4f, not %.4f",
				stable_rule_name(cases[i].rule), cases[i].looks, n, z,
				cases[i].z[n - 1]);
		}
}

/* A standard normal draw (Box-Muller) */
static double normal(struct rng *r)
{
	double u = 1 - rng_uniform(r), v = rng_uniform(r);
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* The share of PATHS random walks of MAX_REPEAT standard normal steps
 * whose z = S_n / sqrt(n) crosses the level of some look n (rule -1: 5%
 * at every look) */
static double crossing_share(int rule, struct rng *r)
{
	enum { PATHS = 100000 };
	double z[MAX_REPEAT + 1];
	for (size_t n = MAX_REPEAT - LOOKS + 1; n <= MAX_REPEAT; n++)
		z[n] = z_of(rule < 0 ? ALPHA : level(rule, n));
	size_t crossed = 0;
	for (int p = 0; p < PATHS; p++) {
		double s = 0;
		for (size_t n = 1; n <= MAX_REPEAT; n++) {
			s += normal(r);
			if (n > MAX_REPEAT - LOOKS && s / sqrt((double)n) >= z[n]) {
				crossed++;
				break;
			}
		}
	}
	return (double)crossed / PATHS;
}

/* What the design promises, by simulation: a true tie (a statistic that
 * moves like a cumulative mean of equal draws) crosses some look's level
 * of the default study's 26 looks with probability alpha under the
 * spending rules (100,000 paths: standard error 0.07%, so 4.4% to 5.6%
 * holds 8 standard errors), at most alpha under Bonferroni's, and far
 * more often than alpha at 5% a look (the optional stopping the design
 * is for; about 4 times alpha). */
static void test_total_level(void)
{
	struct rng r;
	rng_seed(&r, 17);
	double of = crossing_share(STABLE_OBRIEN_FLEMING, &r), pocock = crossing_share(STABLE_POCOCK, &r);
	double bonferroni = crossing_share(STABLE_BONFERRONI, &r), naive = crossing_share(-1, &r);
	T_CHECK(fabs(of - ALPHA) < 0.006, "O'Brien-Fleming: %.4f of the ties crossed", of);
	T_CHECK(fabs(pocock - ALPHA) < 0.006, "Pocock: %.4f of the ties crossed", pocock);
	T_CHECK(bonferroni <= ALPHA, "Bonferroni: %.4f of the ties crossed", bonferroni);
	T_CHECK(naive > 2 * ALPHA, "5%% at every look: %.4f of the ties crossed", naive);
}

/* Per rule over the 26 looks of the default study: every level in
 * (0, alpha); a spending rule's first look gets what it spends by then,
 * each later look at least its spending increment (the boundaries count
 * on the looks' correlation, so a nominal level is larger than the share
 * it spends); O'Brien-Fleming's rise from far below Bonferroni's 5% / 26
 * to many times it, Pocock's stay above it; Bonferroni's add up to alpha;
 * a look past the last counts as the last; one look keeps alpha, and a
 * cap not stored falls back to Bonferroni. */
static void test_levels(void)
{
	static const int rules[] = {STABLE_OBRIEN_FLEMING, STABLE_POCOCK, STABLE_BONFERRONI};
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
		int rule = rules[i];
		const char *name = stable_rule_name(rule);
		double sum = 0, prev = 0;
		int rising = 1, above_increment = 1, above_bonferroni = 1;
		for (size_t n = MAX_REPEAT - LOOKS + 1; n <= MAX_REPEAT; n++) {
			double l = level(rule, n), t = (double)n / MAX_REPEAT;
			T_CHECK(l > 0 && l < ALPHA, "%s, the look after %zu rounds: %g", name, n, l);
			rising &= n == MAX_REPEAT - LOOKS + 1 || l > prev;
			above_increment &= l >= seq_spent(rule, ALPHA, t) -
						    seq_spent(rule, ALPHA, t - 1.0 / MAX_REPEAT) - 1e-12;
			above_bonferroni &= l > ALPHA / LOOKS;
			sum += l;
			prev = l;
		}
		T_CHECK(level(rule, 31) == level(rule, 30), "%s: a look past the last", name);
		T_CHECK(seq_level(rule, ALPHA, 1, MAX_REPEAT, 10) == ALPHA, "%s: one look", name);
		T_CHECK(seq_level(rule, ALPHA, LOOKS, 0, 10) == ALPHA / LOOKS, "%s: no cap stored", name);
		if (rule != STABLE_BONFERRONI)
			T_CHECK(above_increment && level(rule, 5) == seq_spent(rule, ALPHA, 5.0 / MAX_REPEAT),
				"%s: the first look %g, every look above its increment %d", name,
				level(rule, 5), above_increment);
		if (rule == STABLE_OBRIEN_FLEMING)
			T_CHECK(rising && level(rule, 5) < ALPHA / LOOKS / 100 &&
					level(rule, 30) > 5 * ALPHA / LOOKS,
				"O'Brien-Fleming: rising %d, first %g, last %g", rising, level(rule, 5),
				level(rule, 30));
		if (rule == STABLE_POCOCK)
			T_CHECK(above_bonferroni, "Pocock: every look above 5%% / 26");
		if (rule == STABLE_BONFERRONI)
			T_CHECK(level(rule, 17) == ALPHA / LOOKS && fabs(sum - ALPHA) < 1e-12,
				"Bonferroni: %g, adding up to %g", level(rule, 17), sum);
	}
}

int main(void)
{
	test_obrien_fleming();
	test_two_looks();
	test_levels();
	test_more_looks();
	test_total_level();
	return test_summary("test_sequential");
}
