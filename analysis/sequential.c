/* sequential.c - see sequential.h */
#include "analysis/sequential.h"

#include <math.h>

#include "flagsets/study.h"

/* x with erfc(x) = p, for 0 < p < 1 (erfc falls from 1 at 0 to 0) */
static double erfc_inverse(double p)
{
	double lo = 0, hi = 10;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		*(erfc(mid) > p ? &lo : &hi) = mid;
	}
	return (lo + hi) / 2;
}

double seq_spent(int rule, double alpha, double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	if (rule == STABLE_POCOCK)
		return alpha * log(1 + (M_E - 1) * t);
	/* 2 - 2 Phi(x) = erfc(x / sqrt 2), and erfc(z_{1-alpha/2} / sqrt 2) = alpha */
	return erfc(erfc_inverse(alpha) / sqrt(t));
}

int seq_spending(int rule, int looks, int max_repeat)
{
	return looks > 1 && rule != STABLE_BONFERRONI && max_repeat >= looks;
}

double seq_level(int rule, double alpha, int looks, int max_repeat, size_t n)
{
	if (looks <= 1)
		return alpha;
	if (!seq_spending(rule, looks, max_repeat))
		return alpha / looks;
	int first = max_repeat - looks + 1;
	int k = n < 1 ? 1 : n > (size_t)max_repeat ? max_repeat : (int)n;
	return seq_spent(rule, alpha, (double)k / max_repeat) -
	       (k > first ? seq_spent(rule, alpha, (double)(k - 1) / max_repeat) : 0);
}
