/* pivot_sweep.c - see pivot_sweep.h */
#include "analysis/pivot_sweep.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/noise_floor.h"
#include "analysis/pivot.h"
#include "analysis/results.h"

const char *sweep_cell_word(const struct sweep_cell *c)
{
	switch (c->state) {
	case SWEEP_NOT_TRIED:
		return "not tried";
	case SWEEP_BUILT:
		return "built";
	case SWEEP_TESTS_PASSED:
		return "tests passed";
	case SWEEP_OUTCOME:
		break;
	}
	if (c->at_baseline)
		return "as baseline";
	if (c->status == OUTCOME_TESTS_FAILED)
		return "tests failed";
	if (c->status == OUTCOME_BUILD_FAILED)
		return "build failed";
	return outcome_name(c->status);
}

const char *sweep_cell_key(const struct sweep_cell *c)
{
	static const char *const keys[] = {
		[SWEEP_NOT_TRIED] = "not_tried",
		[SWEEP_BUILT] = "built",
		[SWEEP_TESTS_PASSED] = "tests_passed",
	};
	if (c->state == SWEEP_OUTCOME && c->at_baseline)
		return "as_baseline";
	return c->state == SWEEP_OUTCOME ? outcome_name(c->status) : keys[c->state];
}

char *sweep_log_path(const char *dir, const char *workload, const char *label)
{
	char *name = xstrdup(label);
	for (char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(".-+=,", *p))
			*p = '_';
	char *path = xasprintf("%s/%s/%s.log", dir, workload, name);
	free(name);
	return path;
}

char *sweep_tests_log_path(const char *dir, const char *workload, const char *label)
{
	char *log = sweep_log_path(dir, workload, label);
	char *tests = xasprintf("%.*s.tests.log", (int)(strlen(log) - strlen(".log")), log);
	free(log);
	return tests;
}

/* A build log's detail can run on for lines: the table shows the first,
 * which the harness makes the first error line. */
static char *first_line(const char *s)
{
	return xstrndup(s ? s : "", strcspn(s ? s : "", "\n"));
}

/* The build's status and detail; -1 when none is stored (not tried). */
static int build_status(struct store *st, const char *study, const char *id,
			const char *workload, enum outcome *o, char **detail)
{
	sqlite3_stmt *s;
	int rc = -1;
	if (sqlite3_prepare_v2(st->db, "SELECT status, detail FROM builds WHERE study=? AND "
				       "config_id=? AND workload=?", -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, workload, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW) {
		*o = outcome_parse((const char *)sqlite3_column_text(s, 0));
		*detail = first_line((const char *)sqlite3_column_text(s, 1));
		rc = 0;
	}
	sqlite3_finalize(s);
	return rc;
}

/* 1 when the item has stored runs (a workload without any is listed with
 * run "" from its build alone) */
static int has_runs(struct store *st, const char *study, const char *id, const char *workload,
		    const char *run)
{
	sqlite3_stmt *s;
	int yes = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM runs WHERE study=? AND config_id=? AND "
				       "workload=? AND run=? LIMIT 1", -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, study, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, workload, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, run, -1, SQLITE_STATIC);
	yes = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return yes;
}

/* 1 when the run section itself stored tests.time (a test suite stored
 * as a run section); results_samples would also give the build's own
 * (system = debian stores it with the build), which every [run] benchmark
 * of the package would then seem to be */
static int suite_section(struct store *st, const char *study, const char *id,
			 const char *workload, const char *run)
{
	size_t n = 0;
	free(store_get_samples(st, study, id, workload, run, SWEEP_TESTS_METRIC, &n));
	return n > 0;
}

/* The cell of a finished build: its run sections decide (see the header) */
static void runs_decide(struct store *st, const char *study, const char *id,
			const char *workload, const struct strlist *runs, struct sweep_cell *c)
{
	int bad = 0;
	for (size_t i = 0; i < runs->n; i++) {
		int suite = suite_section(st, study, id, workload, runs->v[i]);
		char *d;
		enum outcome o = results_status(st, study, id, workload, runs->v[i], &d);
		if (isnan(c->tests) && suite)
			c->tests = pivot_median(st, study, id, workload, runs->v[i],
						SWEEP_TESTS_METRIC);
		if (!suite && o != OUTCOME_TESTS_FAILED && has_runs(st, study, id, workload,
								     runs->v[i]))
			c->ran = 1;
		if (o != OUTCOME_OK && !bad) {
			bad = 1;
			c->status = o;
			free(c->detail);
			c->detail = first_line(d);
		}
		free(d);
	}
	/* the build's test step, beside any [run] benchmarks */
	if (isnan(c->tests))
		c->tests = pivot_median(st, study, id, workload, "", SWEEP_TESTS_METRIC);
	if (bad || c->ran)
		c->state = SWEEP_OUTCOME;
	else
		c->state = isnan(c->tests) ? SWEEP_BUILT : SWEEP_TESTS_PASSED;
}

static void fill_cell(struct store *st, const char *study, const char *id, const char *workload,
		      const struct strlist *runs, struct sweep_cell *c)
{
	c->size = c->size_pct = c->tests = c->tests_pct = NAN;
	c->status = OUTCOME_OK;
	enum outcome b;
	if (build_status(st, study, id, workload, &b, &c->detail)) {
		c->state = SWEEP_NOT_TRIED;
		c->detail = xstrdup("");
		return;
	}
	c->built = b == OUTCOME_OK || b == OUTCOME_TESTS_FAILED;
	if (c->built)
		c->size = pivot_median(st, study, id, workload, "", "size.text");
	if (b != OUTCOME_OK) {
		c->state = SWEEP_OUTCOME;
		c->status = b;
		return;
	}
	runs_decide(st, study, id, workload, runs, c);
	/* the build's ok detail ("no test suite") says why no tests ran */
	if (c->state != SWEEP_BUILT && c->status == OUTCOME_OK)
		c->detail[0] = 0;
}

static double change(double v, double base)
{
	return v > 0 && base > 0 ? 100 * (v / base - 1) : NAN;
}

/* The failing tests a detail names: "tests failed: A B | log: P" (as
 * harness/debpkg.c words it) -> A B; 0 when it names none. */
static int failed_names(const char *detail, struct strlist *names)
{
	static const char mark[] = "tests failed: ";
	const char *p = strstr(detail, mark);
	if (!p)
		return 0;
	p += strlen(mark);
	const char *end = strstr(p, " | log: ");
	char *list = xstrndup(p, end ? (size_t)(end - p) : strlen(p));
	sl_split_ws(names, list);
	free(list);
	return names->n > 0;
}

/* x failed its tests where the baseline b failed some too: the tests only
 * x fails, or 0 when there are none or either side names none (the
 * baseline's failure may be all of it).  Then x's detail names only them. */
static int new_failures(struct sweep_cell *x, const struct sweep_cell *b)
{
	struct strlist xs = {0}, bs = {0}, extra = {0};
	if (failed_names(x->detail, &xs) && failed_names(b->detail, &bs))
		for (size_t i = 0; i < xs.n; i++)
			if (sl_find(&bs, xs.v[i]) < 0)
				sl_push(&extra, xs.v[i]);
	int n = (int)extra.n;
	if (n) {
		char *list = sl_join(&extra, " "), *old = sl_join(&bs, " ");
		const char *log = strstr(x->detail, " | log: ");
		char *d = xasprintf("tests failed: %s (%s fail%s at the baseline too)%s", list, old,
				    bs.n == 1 ? "s" : "", log ? log : "");
		free(x->detail);
		x->detail = d;
		free(list);
		free(old);
	}
	sl_release(&xs);
	sl_release(&bs);
	sl_release(&extra);
	return n;
}

/* A broken cell whose baseline cell is broken too is the package's, not
 * the flags' (sed's tests fail as root at Debian's own flags): unless it
 * broke further, at_baseline and its detail says so. */
static void judge_at_baseline(struct sweep_cell *x, const struct sweep_cell *b)
{
	if (x->state != SWEEP_OUTCOME || x->status == OUTCOME_OK || b->state != SWEEP_OUTCOME ||
	    b->status == OUTCOME_OK)
		return;
	int b_built = b->built;
	if (b_built && x->status != b->status)
		return; /* tests failed at the baseline, its build fails here: new */
	if (x->status == OUTCOME_TESTS_FAILED && b->status == OUTCOME_TESTS_FAILED &&
	    new_failures(x, b))
		return;
	x->at_baseline = 1;
	char *d = xasprintf("fails at the baseline too (%s%s%s)", outcome_name(x->status),
			    *x->detail ? ": " : "", x->detail);
	free(x->detail);
	x->detail = d;
}

static void fill_row(struct store *st, struct sweep_table *t, const struct result_config *c,
		     const size_t *col, const struct strlist *runs, struct sweep_row *row)
{
	row->cells = xcalloc(t->ncols ? t->ncols : 1, sizeof(*row->cells));
	for (size_t k = 0; k < t->ncols; k++)
		fill_cell(st, t->study, c[col[k]].id, row->workload, runs, &row->cells[k]);
	const struct sweep_cell *b = &row->cells[0];
	for (size_t k = 1; k < t->ncols; k++) {
		struct sweep_cell *x = &row->cells[k];
		x->size_pct = change(x->size, b->size);
		if (x->status == OUTCOME_OK && b->status == OUTCOME_OK)
			x->tests_pct = change(x->tests, b->tests);
		judge_at_baseline(x, b);
	}
}

static void summarise(struct sweep_table *t)
{
	t->summary = xcalloc(t->ncols ? t->ncols : 1, sizeof(*t->summary));
	for (size_t k = 0; k < t->ncols; k++) {
		struct sweep_summary *s = &t->summary[k];
		for (size_t r = 0; r < t->nrows; r++) {
			const struct sweep_cell *c = &t->rows[r].cells[k];
			s->built += c->built;
			if (c->state == SWEEP_NOT_TRIED)
				s->not_tried++;
			else if (c->at_baseline)
				s->at_baseline++;
			else if (c->state == SWEEP_TESTS_PASSED ||
				 (c->status == OUTCOME_OK && !isnan(c->tests)))
				s->tests_passed++; /* its [run] benchmarks ok, and its suite */
			else if (c->state == SWEEP_OUTCOME && c->status == OUTCOME_TESTS_FAILED)
				s->tests_failed++;
			else if (c->status == OUTCOME_BUILD_FAILED ||
				 c->status == OUTCOME_UNSUPPORTED_FLAG)
				s->build_failed++;
			else if (c->state == SWEEP_OUTCOME && c->status != OUTCOME_OK)
				s->other++; /* build-deps refused, flags not applied, a [run]'s */
		}
	}
}

/* The columns: the baseline, then the others in study order; noise
 * floors (a copy of the baseline) are no configuration of the sweep.
 * -1 when no baseline is stored. */
static int columns(struct sweep_table *t, const struct result_config *c, size_t nc, size_t *col)
{
	int base = -1;
	for (size_t i = 0; i < nc; i++)
		if (c[i].is_baseline)
			base = (int)i;
	if (base < 0)
		return -1;
	col[t->ncols++] = (size_t)base;
	for (size_t i = 0; i < nc; i++)
		if ((int)i != base && !noise_floor_label(c[i].label))
			col[t->ncols++] = i;
	t->labels = xcalloc(t->ncols, sizeof(*t->labels));
	t->cflags = xcalloc(t->ncols, sizeof(*t->cflags));
	for (size_t k = 0; k < t->ncols; k++) {
		t->labels[k] = xstrdup(c[col[k]].label);
		t->cflags[k] = xstrdup(c[col[k]].cflags ? c[col[k]].cflags : "");
	}
	return 0;
}

/* The rows: one per workload, with the workload's run sections. */
static void rows(struct store *st, struct sweep_table *t, const char *only,
		 const struct result_config *c, const size_t *col)
{
	struct strlist ws = {0}, runs = {0};
	results_items(st, t->study, &ws, &runs);
	t->rows = xcalloc(ws.n ? ws.n : 1, sizeof(*t->rows));
	for (size_t i = 0; i < ws.n;) {
		struct strlist mine = {0};
		size_t j = i;
		for (; j < ws.n && !strcmp(ws.v[j], ws.v[i]); j++)
			sl_push(&mine, runs.v[j]);
		if (!only || !strcmp(only, ws.v[i])) {
			struct sweep_row *row = &t->rows[t->nrows++];
			row->workload = xstrdup(ws.v[i]);
			fill_row(st, t, c, col, &mine, row);
		}
		sl_release(&mine);
		i = j;
	}
	sl_release(&ws);
	sl_release(&runs);
}

int sweep_table_compute(struct store *st, const char *study, const char *workload,
			struct sweep_table *t, struct strbuf *err)
{
	memset(t, 0, sizeof(*t));
	t->study = xstrdup(study);
	size_t nc;
	struct result_config *c = results_configs(st, study, &nc);
	size_t *col = xcalloc(nc ? nc : 1, sizeof(*col));
	int rc = -1;
	if (!nc)
		sb_addf(err, "study '%s' is not in %s (run it first, or pass --study)", study,
			st->path);
	else if (columns(t, c, nc, col))
		sb_addf(err, "study '%s' in %s has no baseline stored (name one with baseline = in "
			     "the study and run it)", study, st->path);
	else
		rc = 0;
	if (!rc) {
		t->tests_unit = results_metric_unit(st, study, SWEEP_TESTS_METRIC);
		t->logs = results_fact(st, study, "build_logs");
		rows(st, t, workload, c, col);
		summarise(t);
		if (workload && !t->nrows) {
			sb_addf(err, "study '%s' has no workload '%s' (see flagscope report --pivot "
				     "sweep without --metric for its packages)", study, workload);
			rc = -1;
		}
	}
	free(col);
	result_configs_free(c, nc);
	return rc;
}

void sweep_table_release(struct sweep_table *t)
{
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t k = 0; k < t->ncols; k++)
			free(t->rows[r].cells[k].detail);
		free(t->rows[r].cells);
		free(t->rows[r].workload);
	}
	free(t->rows);
	for (size_t k = 0; k < t->ncols; k++) {
		free(t->labels[k]);
		free(t->cflags[k]);
	}
	free(t->labels);
	free(t->cflags);
	free(t->summary);
	free(t->tests_unit);
	free(t->logs);
	free(t->study);
	memset(t, 0, sizeof(*t));
}
