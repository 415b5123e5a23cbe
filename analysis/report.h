/*
 * report.h - print a ranking.  Table, CSV, JSON and HTML share one walk
 * over the ranking (report_print) and differ only in the functions they
 * plug in.
 *
 * How to add a format: write analysis/report_<name>.c with a const struct
 * report_ops, declare it in analysis/report_internal.h, add it to
 * formats[] (report.c); its name is a row of analysis/formats.h.
 *
 * Colour: the table colours a ratio and a verdict only when the difference
 * is significant, and only when its FILE is a terminal and NO_COLOR is not
 * set (https://no-color.org convention).
 */
#ifndef FLAGSCOPE_REPORT_H
#define FLAGSCOPE_REPORT_H

#include <stdio.h>

#include "analysis/formats.h"
#include "analysis/rank.h"

struct report_ops {
	enum format format;
	void (*begin)(FILE *out, const struct ranking *r);
	void (*config)(FILE *out, const struct ranking *r, const struct rank_config *c, size_t index);
	void (*item)(FILE *out, const struct ranking *r, const struct rank_config *c,
		     const struct rank_item *it, size_t index);
	void (*config_end)(FILE *out, const struct ranking *r, const struct rank_config *c);
	void (*end)(FILE *out, const struct ranking *r);
};

/* NULL when there is no such format, or report_print has no writer for it */
const struct report_ops *report_format(const char *name);
/* The formats report_print writes (formats.h: format_family; err NULL
 * but in the start-up check). */
format_set report_formats(struct strbuf *err);

/* Configurations in rank order (ranked first, then the rest in study
 * order), each followed by its items. */
void report_print(FILE *out, const struct ranking *r, const struct report_ops *ops);
/* That order as configuration indexes; heap array of r->n entries. */
size_t *report_order(const struct ranking *r);

/* 1 when text written to out may be coloured: out is a terminal, NO_COLOR
 * is unset or empty and TERM is not "dumb". */
int report_colour(FILE *out);
/* The escape sequence that starts the colour of a significant verdict
 * ("" for unchanged), and the one that ends it. */
const char *report_verdict_colour(enum verdict v);
#define REPORT_COLOUR_END "\033[0m"

#endif
