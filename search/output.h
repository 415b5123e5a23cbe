/*
 * output.h - what `flagscope search` prints: a text summary, the same as
 * JSON (for scripts and the benchmark), and the make.conf fragment with
 * its evidence in comments.
 */
#ifndef FLAGSCOPE_SEARCH_OUTPUT_H
#define FLAGSCOPE_SEARCH_OUTPUT_H

#include <stdio.h>

#include "search/confirm.h"
#include "search/search.h"

struct search_report {
	const char *id;
	const char *strategy;
	uint64_t seed;
	const struct search_pipeline *pl;
	const struct space *sp;
	const struct search_result *res;
	const char *minimal_flags; /* NULL when not minimised */
	double minimal_obj;
	const char *minimal_how; /* how minimal_flags was judged, one phrase */
	double minimal_vs_best, minimal_lo, minimal_hi; /* minimal / best, interval */
	double tolerance;
	const struct confirmation *confirm; /* NULL when not confirmed */
	const struct unsafe_flag *unsafe;
	size_t nunsafe;
	char **trace_flags;
	double *trace_obj;
	size_t ntrace;
};

/* The flags to recommend: the minimal set, else the best. */
const char *search_report_flags(const struct search_report *r);
void search_report_text(FILE *out, const struct search_report *r);
void search_report_json(FILE *out, const struct search_report *r);
/* COMMON_FLAGS (the baseline's CFLAGS with the found flags; an -O level
 * among them replaces the baseline's), CFLAGS, CXXFLAGS, LDFLAGS, and
 * CC/CXX/CHOST when the compiler is not the default or is a cross one;
 * every claim of the comments is a measured number. */
void search_make_conf(FILE *out, const struct search_report *r);

#endif
