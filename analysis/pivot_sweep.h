/*
 * pivot_sweep.h - a stored study as an archive rebuild sweep reads it
 * (issue 30): one row per package (workload), one column per
 * configuration (the baseline first), each cell what became of the
 * package there:
 *
 *   not tried     no build stored for it (the run has not got there, or a
 *                 shard not merged);
 *   build failed  (or another outcome of the build: unsupported_flag,
 *                 flags_not_applied, unsupported) with the first line of
 *                 its detail, the first error line of the build log;
 *   tests failed  the package's own test suite failed: the failing tests'
 *                 names as the store has them;
 *   tests passed  built, and the test suite ran (the metric tests.time is
 *                 stored for it) and passed;
 *   built         built, no test suite ran (the detail says why when the
 *                 store does: "no test suite");
 *   as baseline   broken here as it is at the baseline (see At the
 *                 baseline): the package's, not this configuration's;
 *   ok, wrong_output, crashed, ...  the package has ordinary [run]
 *                 results (a recipe's benchmarks): the first outcome that
 *                 is not ok over its run sections, else ok, as today.
 *
 * A run section counts as the test suite (not a [run] result) when it
 * stored tests.time itself or its outcome is tests_failed; the build's
 * own tests.time (system = debian stores it with the build) is the
 * suite's time beside a package's [run] benchmarks, whose outcome is then
 * the cell's (ok counts as tests passed too).  With every cell the
 * size.text of the build and the test-suite time (median of tests.time)
 * and their change in percent against the baseline's cell of the row,
 * 100 * (this / baseline - 1), NAN where either side has no value (a
 * failed build has no size; a time only where both suites passed).
 *
 * At the baseline.  A cell of another configuration that is broken
 * (build failed, tests failed, a [run]'s failure) where the baseline's
 * cell is broken too is `at_baseline`, its detail "fails at the baseline
 * too (OUTCOME: DETAIL)": a package whose suite fails at Debian's own
 * flags (sed's tests as root) is not the flags' fault.  Unless it broke
 * further: its build fails where the baseline's built, it ends otherwise
 * than a baseline that built, or its suite fails tests the baseline's
 * passed (both logs name them): then it is broken as any cell, its detail
 * naming only those tests ("tests failed: NEW (OLD fail at the baseline
 * too) | log: P").  A baseline that did not build makes every broken cell
 * of its row at_baseline (nothing of the package was judged there).
 *
 * Per configuration a summary: how many packages built (every build that
 * finished: tests passed, failed or none), passed tests, failed tests,
 * failed to build (build_failed, unsupported_flag), were not tried, fail
 * at the baseline too (at_baseline; counted in nothing else), and
 * ended otherwise (flags_not_applied, build dependencies refused:
 * unsupported, a [run]'s outcome).
 *
 * Logs.  A database merged with `merge --logs DIR` records DIR (the fact
 * build_logs): the details name each broken cell's build log there.
 */
#ifndef FLAGSCOPE_PIVOT_SWEEP_H
#define FLAGSCOPE_PIVOT_SWEEP_H

#include <stdio.h>

#include "analysis/formats.h"
#include "analysis/results.h"
#include "analysis/store.h"
#include "base/outcome.h"

#define SWEEP_TESTS_METRIC RESULTS_TESTS_TIME

enum sweep_state {
	SWEEP_NOT_TRIED,
	SWEEP_BUILT,        /* status OUTCOME_OK, no test suite, no [run] */
	SWEEP_TESTS_PASSED, /* status OUTCOME_OK */
	SWEEP_OUTCOME,      /* status says: build_failed, tests_failed, ok from [run], ... */
};

struct sweep_cell {
	enum sweep_state state;
	enum outcome status; /* OUTCOME_OK unless state is SWEEP_OUTCOME */
	int ran;             /* 1: ordinary [run] results decided the outcome */
	int built;           /* 1: the build finished (its status ok or tests_failed) */
	int at_baseline;     /* 1: broken as the baseline's cell is (At the baseline) */
	char *detail;        /* one line; "" when none; heap */
	double size, size_pct;   /* size.text in bytes; NAN when none */
	double tests, tests_pct; /* tests.time median; NAN when none */
};

struct sweep_row {
	char *workload;
	struct sweep_cell *cells; /* one per column */
};

struct sweep_summary {
	size_t built, tests_passed, tests_failed, build_failed, not_tried, other, at_baseline;
};

struct sweep_table {
	char *study;
	char **labels, **cflags; /* the columns: configurations in study order, baseline first */
	size_t ncols;
	char *tests_unit;        /* the unit of tests.time ("" when never stored) */
	char *logs;              /* the build logs' folder (merge --logs), or NULL */
	struct sweep_row *rows;
	size_t nrows;
	struct sweep_summary *summary; /* one per column */
};

/* Where `merge --logs DIR` puts a build's log: DIR/WORKLOAD/LABEL.log,
 * the label's characters other than letters, digits and . - + = , made
 * '_'.  Heap. */
char *sweep_log_path(const char *dir, const char *workload, const char *label);
/* Beside it, a Debian package's test step's log: DIR/WORKLOAD/LABEL.tests.log */
char *sweep_tests_log_path(const char *dir, const char *workload, const char *label);

/* The word a cell is shown by: "not tried", "built", "tests passed",
 * "tests failed", "build failed", "as baseline", or the outcome's stored
 * name. */
const char *sweep_cell_word(const struct sweep_cell *c);
/* The same as one token for CSV and JSON: "not_tried", "built",
 * "tests_passed", "as_baseline", or the outcome's stored name
 * ("tests_failed"). */
const char *sweep_cell_key(const struct sweep_cell *c);

/* workload: only that row (NULL: every package).  0, or -1 with "what is
 * wrong (what to do)" in err: no such study, no baseline stored, no such
 * workload. */
int sweep_table_compute(struct store *st, const char *study, const char *workload,
			struct sweep_table *t, struct strbuf *err);
void sweep_table_release(struct sweep_table *t);

/* format "table", "csv" or "json" (the same content); -1 for another. */
int sweep_table_print(FILE *out, const struct sweep_table *t, const char *format);
/* The formats sweep_table_print writes (formats.h: format_family; err
 * NULL but in the start-up check). */
format_set sweep_table_formats(struct strbuf *err);

#endif
