/*
 * recommend_distro.h - the recommendation (recommend.h) as a distribution
 * would apply it: Gentoo's make.conf, package.env and /etc/portage/env
 * files, or the lines of a Debian package's debian/rules.
 *
 * The rule.  The global choice is recommend_compute()'s (the best
 * configuration valid on every workload).  Then per workload its own best:
 * the configuration, ok on that workload, whose geometric-mean ratio over
 * the workload's runs to the global choice (pivot_distro.h:
 * distro_workload_ratio) is a significant improvement and the best such;
 * none when no configuration beats the global choice significantly there.
 * Such a workload gets an env file and, when its recipe names the package
 * (`gentoo = media-libs/flac`), a package.env line; without an atom, a
 * Debian source package's line has "*\/NAME" (any category: portage(5)'s
 * wildcard atoms) after a comment saying the name is a guess; else no
 * line, and a comment says so.
 *
 * LTO.  The configurations whose flags have -flto: the best of them by the
 * geometric mean of its per-workload ratios to the baseline over the
 * workloads it built and ran, with the list of workloads that failed under
 * it (Gentoo's no-lto.conf list; a package broken at the baseline too only
 * where the sweep says it broke further, What breaks) and how many of the others it is
 * significantly better or worse on.  Offered in comments unless it is the
 * global choice.
 *
 * Flags are written as measured except -march=native / -mtune=native,
 * made explicit as recommend_explicit_cflags() does (said in a comment);
 * one it cannot resolve is left out (not explicit); the
 * flags outside the set Gentoo's devmanual calls reasonable (-O2, -Os,
 * -march=, -mtune=, -pipe, -fomit-frame-pointer) are named in a comment;
 * CPU_FLAGS_X86 is never written into CFLAGS.
 *
 * What breaks.  From the sweep (pivot_sweep.h): per configuration other
 * than the baseline, the packages that broke under it (build failed,
 * tests failed, wrong output, crashed: any outcome but ok, not "not
 * tried") while their baseline cell was tried and is not broken as
 * theirs is (pivot_sweep.h: at_baseline; a package whose suite fails at
 * the baseline is listed for tests that pass there only, its detail
 * naming those).  Each such configuration is a need named after the
 * flags it adds to the baseline's ("no-O3", "no-lto", "no-fast-math",
 * "no-x86-64-v3-O3"; its label when it adds none), with the flags that undo them (the baseline's -O level and
 * -march=/-mtune=, -fno-X for -fX, -mno-X for -mX, -fno-lto), or, when
 * some flag has no such opposite, the baseline's whole CFLAGS.  The
 * files write them as env/NAME.conf and package.env lines (active when
 * the configuration is the global choice, else commented), and as
 * DEB_CFLAGS_MAINT_STRIP (and optimize=-lto) lines for the packages'
 * debian/rules (NAME.mk); when it is the global choice, debian-rules.mk
 * gives those packages (by DEB_SOURCE) the baseline's lines and NAME.mk
 * instead of the choice's.  For the best -flto configuration, package.env
 * has the LTO offer's env/no-lto.conf and lines instead.
 *
 * Profile-guided configurations (pgo = gen-use) are never a workload's
 * own best nor the LTO offer: their flags alone are not what was measured
 * (recommend.h); the global choice's evidence names a profile-guided
 * winner and what it needs.
 */
#ifndef FLAGSCOPE_RECOMMEND_DISTRO_H
#define FLAGSCOPE_RECOMMEND_DISTRO_H

#include "analysis/pivot_distro.h"
#include "analysis/recommend.h"

struct distro_pick {
	char *workload;
	char *atom;       /* Gentoo atom from the recipe, or NULL */
	char *deb_source; /* the Debian source package (source = debian:NAME), or NULL */
	char *why_no_atom; /* when atom is NULL: "its recipe has no gentoo =", ... */
	int config;       /* its own best (index into rec.r.configs), or -1: the global one */
	char *cflags;     /* its flags, -march=native made explicit (recommend.h); NULL
			     with config -1 */
	char *native_note; /* what that replaced, or NULL */
	struct distro_ratio vs_global; /* of config against the global choice */
};

/* A configuration some packages broke under (see What breaks). */
struct distro_break {
	int config;             /* index into rec.r.configs */
	char *name;             /* "no-O3": what the packages need */
	struct strlist added;   /* its flags the baseline lacks */
	struct strlist removed; /* the baseline's flags it lacks */
	struct strlist undo;    /* appended to undo `added`; empty when !undoable */
	int undoable;           /* 0: some added flag has no opposite: set the baseline's */
	struct strlist workloads; /* that broke under it */
	struct strlist why;       /* parallel: "tests_failed: FAIL: t_exp" (one line) */
};

struct distro_advice {
	struct recommendation rec; /* the global choice; owned */
	struct distro_pick *w;     /* one per workload, sorted */
	size_t n;
	int lto;                   /* the best -flto configuration, or -1 */
	char *lto_cflags;          /* its flags made explicit likewise; NULL without one */
	char *lto_note;            /* how its -march=native was made explicit, or NULL */
	double lto_ratio;          /* its geometric mean to the baseline over its ok workloads */
	size_t lto_ok;             /* how many workloads that is */
	size_t lto_better, lto_worse; /* of them, significantly better / worse */
	struct strlist no_lto;     /* workloads that failed under it */
	struct strlist no_lto_why; /* "build_failed: LTO link failed: ...", parallel */
	struct distro_break *breaks; /* What breaks, in study order */
	size_t nbreaks;
	char *base_cflags;         /* the baseline's CFLAGS as stored */
};

/* An output file: name relative to the output folder ("package.env",
 * "env/flac.conf") and its text. */
struct distro_file {
	char *name, *text;
};

/* Decide (see above).  study_file: the study file to find recipes from (NULL:
 * the one the database recorded, else beside the database, else the search
 * path without a study level).  choose: the label of the configuration
 * that is the global choice whatever the rule says (recommend_choose), or
 * NULL for the rule's.  0, or -1 with a reason in err (recommend_compute's,
 * recommend_choose's). */
int recommend_distro_compute(struct store *st, const char *study, const char *metric,
			     const struct rank_options *o, const char *study_file,
			     const char *choose, struct distro_advice *a, struct strbuf *err);
void recommend_distro_release(struct distro_advice *a);

/* The files of format "package.env" (make.conf.fragment, package.env,
 * env/NAME.conf per workload with its own best, env/no-lto.conf when LTO
 * is offered) or "dpkg-buildflags" (debian-rules.mk); *n set.  NULL for
 * another format.  Free with distro_files_free(). */
struct distro_file *recommend_distro_files(const struct distro_advice *a, const char *format,
					   size_t *n);
void distro_files_free(struct distro_file *f, size_t n);

/* 1 for a format recommend_distro_files writes ("package.env",
 * "dpkg-buildflags"), and those formats as a set (formats.h:
 * format_family; err NULL but in the start-up check). */
int recommend_distro_format(const char *format);
format_set recommend_distro_formats(struct strbuf *err);

/* 1 when a flag is one Gentoo's devmanual calls reasonable. */
int recommend_gentoo_reasonable(const char *flag);

#endif
