/*
 * sequential.h - the level of each look of a study that looks at its
 * verdicts after every round and stops at the first settled look
 * (repeat = stable; analysis/rank.h "Settled").
 *
 * Looking again and again at growing data is optional stopping: with one
 * level alpha at every look, a true tie is called "apart" by some unlucky
 * look far more often than alpha.  Alpha spending (Lan and DeMets) gives
 * each look a share of alpha: a spending function a(t) rises from 0 at
 * t = 0 to alpha at t = 1, the information fraction t of a look at n
 * rounds is n / max_repeat, and the look at n rounds gets a(t_n) -
 * a(t_{n-1}) (the first look, at n = repeat, a(t_n)).  The shares of all
 * the looks add up to alpha, so at most alpha of the studies of a true
 * tie ever settle it "apart" (a union bound over the looks).
 *   O'Brien-Fleming type  a(t) = 2 - 2 Phi(z_{1-alpha/2} / sqrt(t)): almost
 *                         nothing early, most of alpha near the cap
 *   Pocock type           a(t) = alpha ln(1 + (e - 1) t): much at the
 *                         first look, then a little less at each
 *   Bonferroni            alpha / looks at every look
 * (enum stable_rule, flagsets/study.h).
 */
#ifndef FLAGSCOPE_SEQUENTIAL_H
#define FLAGSCOPE_SEQUENTIAL_H

#include <stddef.h>

/* The share of alpha the spending function of rule (STABLE_POCOCK, else
 * the O'Brien-Fleming type) has spent by the information fraction t:
 * 0 at t <= 0, alpha at t >= 1, rising in between. */
double seq_spent(int rule, double alpha, double t);
/* The level of the look after n rounds of a study that looks `looks`
 * times, after max_repeat - looks + 1 to max_repeat rounds: alpha when it
 * looks once; Bonferroni's for rule STABLE_BONFERRONI or a max_repeat
 * not stored (less than looks); a look past the last (merged shards)
 * counts as the last. */
double seq_level(int rule, double alpha, int looks, int max_repeat, size_t n);
/* Whether seq_level spends alpha by a spending function (not Bonferroni,
 * not a single look). */
int seq_spending(int rule, int looks, int max_repeat);

#endif
