/*
 * sequential.h - the level of each look of a study that looks at its
 * verdicts after every round and stops at the first settled look
 * (repeat = stable; analysis/rank.h "Settled").
 *
 * Looking again and again at growing data is optional stopping: with one
 * level alpha at every look, a true tie is called "apart" by some unlucky
 * look far more often than alpha.  Two ways to share alpha out:
 *   Bonferroni            alpha / looks at every look (the default)
 *   alpha spending        (Lan and DeMets) a spending function a(t) rises
 *                         from 0 at t = 0 to alpha at t = 1; the
 *                         information fraction of a look at n rounds is
 *                         t = n / max_repeat; the look's boundary is set
 *                         so that, when nothing differs, a statistic that
 *                         moves like a cumulative mean (a Brownian motion
 *                         in t) first crosses it there with probability
 *                         a(t_n) - a(t_{n-1}) (the first look: a(t_n)).
 *                         Its nominal level, 1 - Phi(boundary), is larger
 *                         than that increment because the looks see mostly
 *                         the same data; computed by integrating the
 *                         statistic's density from look to look on a grid
 *                         (Armitage, McPherson and Rowe's recursion).
 *     O'Brien-Fleming type  a(t) = 2 - 2 Phi(z_{1-alpha/2} / sqrt(t)):
 *                           almost nothing early (0.00016% at 5 of 30
 *                           rounds), 3.1% at the last look
 *     Pocock type           a(t) = alpha ln(1 + (e - 1) t): 0.7% to 1.3%
 *                           at every look
 * (enum stable_rule, flagsets/study.h).  All three keep the chance that a
 * true tie is ever settled "apart" at most alpha (for the spending rules
 * as far as the statistic moves like a Brownian motion: the bootstrap
 * share of a geometric mean of medians does, roughly).
 */
#ifndef FLAGSCOPE_SEQUENTIAL_H
#define FLAGSCOPE_SEQUENTIAL_H

#include <stddef.h>

/* The share of alpha the spending function of rule (STABLE_POCOCK, else
 * the O'Brien-Fleming type) has spent by the information fraction t:
 * 0 at t <= 0, alpha at t >= 1, rising in between. */
double seq_spent(int rule, double alpha, double t);
/* The nominal level of the look after n rounds of a study that looks
 * `looks` times, after max_repeat - looks + 1 to max_repeat rounds: alpha
 * when it looks once; Bonferroni's for rule STABLE_BONFERRONI or a
 * max_repeat not stored (less than looks); a look past the last (merged
 * shards) counts as the last, one before the first gets a(n / max_repeat).
 * The spending rules' levels of the last design asked for are kept (one
 * design takes about 0.1 s; not thread-safe). */
double seq_level(int rule, double alpha, int looks, int max_repeat, size_t n);
/* Whether seq_level spends alpha by a spending function (not Bonferroni,
 * not a single look). */
int seq_spending(int rule, int looks, int max_repeat);

#endif
