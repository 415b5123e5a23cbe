/*
 * report.h - print a ranking.  Table, CSV and JSON share one walk over the
 * ranking (report_print) and differ only in the functions they plug in.
 *
 * How to add a format: a const struct report_ops with its callbacks, one
 * entry in formats[] (report.c).
 */
#ifndef FLAGSCOPE_REPORT_H
#define FLAGSCOPE_REPORT_H

#include <stdio.h>

#include "analysis/rank.h"

struct report_ops {
	const char *name;
	void (*begin)(FILE *out, const struct ranking *r);
	void (*config)(FILE *out, const struct ranking *r, const struct rank_config *c, size_t index);
	void (*item)(FILE *out, const struct ranking *r, const struct rank_config *c,
		     const struct rank_item *it, size_t index);
	void (*config_end)(FILE *out, const struct ranking *r, const struct rank_config *c);
	void (*end)(FILE *out, const struct ranking *r);
};

/* NULL when there is no such format */
const struct report_ops *report_format(const char *name);
/* Configurations in rank order (ranked first, then the rest in study
 * order), each followed by its items. */
void report_print(FILE *out, const struct ranking *r, const struct report_ops *ops);

#endif
