/*
 * recommend.h - the configuration to use, with its evidence, as a
 * Gentoo-style make.conf fragment, shell exports or JSON.
 *
 * The rule.  Eligible are the configurations valid on every workload of
 * the study: every build ok with its flags verified, every run ok with the
 * right output, none NOISY (struct rank_config status OUTCOME_OK).  Among
 * the eligible ones whose geometric-mean ratio to the baseline is a
 * significant improvement (rank.h: the whole interval on the better side
 * of 1 and at least min_effect away), the best by that ratio is chosen.
 * When none is, the baseline is recommended and the output says that
 * nothing beat it significantly.  The evidence printed: the geometric mean
 * with its interval, every workload it was measured on with its ratio and
 * verdict, the workloads on which it was significantly worse, and the
 * configurations refused with their reasons.
 *
 * Profile-guided builds.  A configuration of the study's pgo = gen-use
 * level is never the choice: its flags alone are not what was measured (it
 * was built with -fprofile-generate, trained on its recipe's training run
 * and rebuilt with -fprofile-use -fprofile-correction, or clang's
 * -fprofile-instr-* and llvm-profdata), and a distribution's global flags
 * cannot carry a per-package profile.  The choice is the best configuration
 * without one; when a profile-guided one was better still, pgo_best names
 * it and every format says what it needs (the evidence lines, JSON's
 * "pgo_best").
 */
#ifndef FLAGSCOPE_RECOMMEND_H
#define FLAGSCOPE_RECOMMEND_H

#include <stdio.h>

#include "analysis/formats.h"
#include "analysis/rank.h"
#include "analysis/store.h"

struct recommendation {
	struct ranking r; /* owned: the ranking the choice was made from */
	char *db;
	int chosen;       /* index into r.configs */
	int beats;        /* 1: chosen is a significant improvement; 0: the baseline */
	int pgo_best;     /* the best significant improvement when it is profile-guided
			     and better than chosen (left out of the flags), or -1 */
	char *cxx;        /* the C++ compiler matching the chosen C compiler */
	char *chost;      /* the target triple of a cross configuration; NULL when native */
	char *metric_note; /* why another metric was used than asked, or NULL */
	char *cflags;      /* the chosen flags as written: -march=native made explicit
			      (recommend_explicit_cflags) */
	char *native_note; /* what that replaced and how, or NULL */
	int rule_choice;   /* what the rule chose; chosen differs after recommend_choose */
};

/* "time" -> "time", "size" -> "size.text", "rss" -> "mem.res", "insns" ->
 * "insns"; NULL when the kind is not one of them (callers then take the
 * text as a metric selector, results.h). */
const char *recommend_metric(const char *kind);
extern const char *const recommend_metric_kinds[]; /* "time", "size", "rss", "insns", NULL */

/* Decide.  metric: a selector (results.h); NULL for the study's own
 * metric (insns for emulated studies).  mem.res (VmHWM read at exit) falls
 * back to maxrss (wait4, which counts the forking parent too) when the
 * study stored no mem.res, and metric_note says so.  0, or -1 with a
 * reason in err (no such study, a selector naming nothing, or the
 * baseline itself is not valid: nothing to measure against; nothing
 * measured or nothing ranked, said in one line). */
int recommend_compute(struct store *st, const char *study, const char *metric,
		      const struct rank_options *o, struct recommendation *rec,
		      struct strbuf *err);
void recommend_release(struct recommendation *rec);

/* Make the configuration labelled `label` the choice whatever the rule
 * said (recommend --choose: the configuration a distribution ships, valid
 * on every workload or not; rule_choice keeps the rule's, and the
 * evidence names both).  Its flags are made explicit again.  0, or -1
 * with one line in err: no configuration of that label (the study's
 * labels listed), a profile-guided one (its flags alone are not what
 * was measured), or one whose build failed on every item (nothing of it
 * was measured). */
int recommend_choose(struct store *st, struct recommendation *rec, const char *label,
		     struct strbuf *err);

/* Print as "make.conf", "shell" or "json"; -1 for another format (the
 * distro formats of recommend_formats() are recommend_distro.h's). */
int recommend_print(FILE *out, const struct recommendation *rec, const char *format);
/* The formats recommend writes: recommend_print's and
 * recommend_distro_files' (formats.h: format_family; err NULL but in the
 * start-up check). */
format_set recommend_formats(struct strbuf *err);

/* The evidence as '#' comment lines (study, rule, the choice with its
 * interval, every workload's ratio, what was refused), shared by every
 * format that prints comments. */
void recommend_print_evidence(FILE *out, const struct recommendation *rec);
/* s as a double-quoted make.conf / bash value ("\"$`\\ escaped). */
void recommend_put_dquoted(FILE *out, const char *s);

/* The C++ driver of a C compiler command: gcc-12 -> g++-12, clang ->
 * clang++, aarch64-linux-gnu-gcc -> aarch64-linux-gnu-g++, cc -> c++;
 * options after the command are kept.  Heap string. */
char *recommend_cxx(const char *cc);
/* The target triple a compiler command names (--target=T, or a TRIPLE-gcc
 * / TRIPLE-clang command) when it differs from this machine's
 * architecture; NULL for a native compiler.  Heap string. */
char *recommend_chost(const char *cc);
/* CHOST of a configuration: its stored target triple (store.h) when it
 * has one and it is not this machine's, else recommend_chost(cc). */
char *recommend_config_chost(const char *target, const char *cc);

/* c's cflags with -march=native and -mtune=native (any -mX=native) made
 * explicit, as a make.conf or a build farm needs them: what the compiler
 * resolved them to on the machine that built c (the fact native.ID the
 * pipeline stores at build time, harness/native_cpu.h: the CPU and, after
 * -march=CPU, the features native differs in, "-march=znver3 -mshstk
 * -mno-mwaitx"), else the CPU GCC recorded in the DWARF producer of c's
 * measured builds with the feature switches it recorded after it that
 * -march=CPU alone would not give (base/cc_features.h; all of them when
 * c's compiler cannot say; clang records the literal -march=native), else what
 * `CC -march=native -mtune=native -Q --help=target` says on this machine
 * (a single-word GCC), else the flag is kept.  *note: one line
 * per flag saying which and how, NULL when the flags have none.  Heap. */
char *recommend_explicit_cflags(struct store *st, const char *study, const struct rank_config *c,
				char **note);

#endif
