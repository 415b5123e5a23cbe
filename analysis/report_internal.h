/*
 * report_internal.h - what the report formats share: the format ops each
 * file defines, and small printing helpers.  Only analysis/report*.c
 * include it.
 */
#ifndef FLAGSCOPE_REPORT_INTERNAL_H
#define FLAGSCOPE_REPORT_INTERNAL_H

#include <stdio.h>

#include "analysis/report.h"

extern const struct report_ops report_table; /* report_text.c */
extern const struct report_ops report_csv;   /* report_text.c */
extern const struct report_ops report_json;  /* report_json.c */
extern const struct report_ops report_html;  /* report_html.c */

/* A JSON number, or null for NaN and infinities. */
void rep_json_num(FILE *out, double v);
/* A JSON string literal, quotes included; NULL prints "". */
void rep_json_str(FILE *out, const char *s);
/* ,"key":value after a first member: a string (NULL prints ""), a number. */
void rep_json_key_str(FILE *out, const char *key, const char *v);
void rep_json_key_str_or_null(FILE *out, const char *key, const char *v); /* null for NULL */
void rep_json_key_num(FILE *out, const char *key, double v);
/* A CSV field: quoted, quotes doubled; NULL prints "". */
void rep_csv_field(FILE *out, const char *s);
/* n numbers, each preceded by a comma; NaN prints as an empty field. */
void rep_csv_nums(FILE *out, size_t n, const double *v);
/* The label of the baseline configuration, or "?". */
const char *rep_baseline_label(const struct ranking *r);
/* How an item's interval reads: "exact" (a deterministic metric with zero
 * spread in both samples), "one run: not tested" (a noisy metric with one
 * run on a side), "[lo, hi]", or "-" without one. */
void rep_item_ci(char *buf, size_t n, const struct rank_item *it);
/* The same for a configuration's geometric mean: "exact", "not tested",
 * "[lo, hi]" or "-". */
void rep_config_ci(char *buf, size_t n, const struct rank_config *c);
/* One line per item left out of the ranking ("coremark: build_failed in
 * every configuration: ..."), each ending in a newline; "" when none.
 * Heap string. */
char *rep_left_out_text(const struct ranking *r);
/* One line per configuration-level verdict not settled (rank.h,
 * "Settled"), each ending in a newline; "" when none.  Heap string. */
char *rep_fragile_text(const struct ranking *r);
/* One line per configuration reusing an identical build's runs ("gcc O2
 * -Wall: identical to gcc O2 (crc32, nbody)"); "" when none.  Heap. */
char *rep_identical_text(const struct ranking *r);
/* 1 when some configuration has an untested item. */
int rep_any_untested(const struct ranking *r);
/* What the numbers mean, in sentences: metric and the items it covers,
 * what kind of measurement it is (instructions counted under QEMU, a
 * deterministic metric, one run of a noisy one), direction, baseline, the
 * significance rule, the rank rule, the noise target; heap string. */
char *rep_rule_text(const struct ranking *r);

/* The machine state (report_machine.c).  A study is "busy" when its
 * largest sampled 1-minute load average exceeds REPORT_BUSY_PER_CORE x the
 * cores: the measured program itself counts 1, so on 2 cores or more a
 * busy study had other work competing with it. */
#define REPORT_BUSY_PER_CORE 0.75
/* The stored value of a machine key ("governor"), or NULL. */
const char *rep_machine_value(const struct ranking *r, const char *key);
/* The busy warning (one sentence, heap), or NULL. */
char *rep_machine_warning(const struct ranking *r);
/* "machine:" and one line per key, then the warning; nothing when none is
 * stored. */
void rep_machine_text(FILE *out, const struct ranking *r);
/* ,"machine":{key: value...},"machine_warning":"..." or null */
void rep_machine_json(FILE *out, const struct ranking *r);

#endif
