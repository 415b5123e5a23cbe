/*
 * noise_floor.h - which stored configuration is run --noise-floor's copy
 * of the baseline (flagsets/matrix.c labels it "LABEL (noise floor)").  It
 * is the baseline built and run again: its ratio measures noise, so it is
 * no choice (recommend), no Pareto point and no pivot level.
 */
#ifndef FLAGSCOPE_NOISE_FLOOR_H
#define FLAGSCOPE_NOISE_FLOOR_H

#include <string.h>

#include "flagsets/matrix.h" /* NOISE_FLOOR_SUFFIX, the label matrix_expand gives it */

/* 1 when label is a noise floor's */
static inline int noise_floor_label(const char *label)
{
	size_t n = strlen(label), k = strlen(NOISE_FLOOR_SUFFIX);
	return n > k && !strcmp(label + n - k, NOISE_FLOOR_SUFFIX);
}

#endif
