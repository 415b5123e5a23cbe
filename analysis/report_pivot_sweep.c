/* report_pivot_sweep.c - the table, CSV and JSON forms of the sweep table
 * (see pivot_sweep.h): the same cells, details and summary in each */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pivot_sweep.h"
#include "analysis/report_internal.h"

static const char *summary_keys[] = {"built",     "tests_passed", "tests_failed", "build_failed",
				     "not_tried", "other",        "at_baseline"};

static void summary_counts(const struct sweep_summary *s, size_t v[7])
{
	size_t n[] = {s->built,     s->tests_passed, s->tests_failed, s->build_failed,
		      s->not_tried, s->other,        s->at_baseline};
	memcpy(v, n, sizeof(n));
}

/* "3 built, 2 passed tests, 1 failed tests, 1 failed to build", and the
 * not tried and other outcomes when there are any; heap */
static char *summary_text(const struct sweep_summary *s)
{
	char *text = xasprintf("%zu built, %zu passed tests, %zu failed tests, %zu failed to build",
			       s->built, s->tests_passed, s->tests_failed, s->build_failed);
	if (s->not_tried) {
		char *more = xasprintf("%s, %zu not tried", text, s->not_tried);
		free(text);
		text = more;
	}
	if (s->at_baseline) {
		char *more = xasprintf("%s, %zu fail at the baseline too", text, s->at_baseline);
		free(text);
		text = more;
	}
	if (s->other) {
		char *more = xasprintf("%s, %zu ended otherwise (below)", text, s->other);
		free(text);
		text = more;
	}
	return text;
}

static void pct_text(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%+.1f%%", v);
}

/* The build log of a cell that broke (merge --logs), or NULL; of a
 * failing test suite its test step's log, where it was kept.  Heap. */
static char *cell_log(const struct sweep_table *t, size_t r, size_t k)
{
	const struct sweep_cell *c = &t->rows[r].cells[k];
	if (!t->logs || c->state != SWEEP_OUTCOME || c->status == OUTCOME_OK)
		return NULL;
	if (c->status == OUTCOME_TESTS_FAILED) {
		char *tests = sweep_tests_log_path(t->logs, t->rows[r].workload, t->labels[k]);
		if (file_exists(tests))
			return tests;
		free(tests);
	}
	return sweep_log_path(t->logs, t->rows[r].workload, t->labels[k]);
}

/* ---- table ---- */

#define SUB_W 8 /* a change: "+12.3%" and a blank */

static int result_width(const struct sweep_table *t)
{
	size_t w = strlen("tests passed");
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t k = 0; k < t->ncols; k++)
			if (strlen(sweep_cell_word(&t->rows[r].cells[k])) > w)
				w = strlen(sweep_cell_word(&t->rows[r].cells[k]));
	return (int)w + 1;
}

static int col_width(const struct sweep_table *t, size_t k)
{
	int w = result_width(t) + 2 * SUB_W;
	int l = (int)strlen(t->labels[k]) + (k ? 0 : (int)strlen(" (baseline)"));
	return l > w ? l : w;
}

static int name_width(const struct sweep_table *t)
{
	size_t w = strlen("package");
	for (size_t r = 0; r < t->nrows; r++)
		if (strlen(t->rows[r].workload) > w)
			w = strlen(t->rows[r].workload);
	return (int)w;
}

static void table_head(FILE *out, const struct sweep_table *t)
{
	fprintf(out, "study %s: packages x configurations, against the baseline %s\n", t->study,
		t->labels[0]);
	fputs("each cell: built, tests passed, tests failed, build failed or not tried (a [run]\n"
	      "  benchmark's outcome where the package has one: ok, wrong_output, ...);\n"
	      "  as baseline: broken as at the baseline too (the package's, not the flags');\n"
	      "text: size.text change in percent (exact); tests: test-suite time (tests.time,\n"
	      "  not a benchmark) change in percent where both suites passed; '-': no value.\n",
	      out);
	fputs("flags:\n", out);
	for (size_t k = 0; k < t->ncols; k++)
		fprintf(out, "  %s%s: %s\n", t->labels[k], k ? "" : " (baseline)",
			*t->cflags[k] ? t->cflags[k] : "(none)");
	fputc('\n', out);
	int nw = name_width(t), rw = result_width(t);
	fprintf(out, "%-*s", nw, "package");
	for (size_t k = 0; k < t->ncols; k++) {
		char *h = xasprintf("%s%s", t->labels[k], k ? "" : " (baseline)");
		fprintf(out, "  %-*s", col_width(t, k), h);
		free(h);
	}
	fprintf(out, "\n%-*s", nw, "");
	for (size_t k = 0; k < t->ncols; k++)
		fprintf(out, "  %-*s%-*s%-*s", rw, "result", SUB_W, "text",
			col_width(t, k) - rw - SUB_W, "tests");
	fputc('\n', out);
}

static void print_table(FILE *out, const struct sweep_table *t)
{
	table_head(out, t);
	int nw = name_width(t), rw = result_width(t);
	for (size_t r = 0; r < t->nrows; r++) {
		fprintf(out, "%-*s", nw, t->rows[r].workload);
		for (size_t k = 0; k < t->ncols; k++) {
			const struct sweep_cell *c = &t->rows[r].cells[k];
			char a[32], b[32];
			pct_text(a, sizeof(a), c->size_pct);
			pct_text(b, sizeof(b), c->tests_pct);
			fprintf(out, "  %-*s%-*s%-*s", rw, sweep_cell_word(c), SUB_W, a,
				col_width(t, k) - rw - SUB_W, b);
		}
		fputc('\n', out);
	}
	fputs("\nper configuration (packages):\n", out);
	for (size_t k = 0; k < t->ncols; k++) {
		char *s = summary_text(&t->summary[k]);
		fprintf(out, "  %s%s: %s\n", t->labels[k], k ? "" : " (baseline)", s);
		free(s);
	}
	/* what the cells cannot hold: which tests, the first error line */
	int any = 0;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t k = 0; k < t->ncols; k++) {
			const struct sweep_cell *c = &t->rows[r].cells[k];
			if (!*c->detail)
				continue;
			if (!any++)
				fputs("\ndetails:\n", out);
			/* the harness's detail may begin with the cell's word
			 * ("tests failed: misc_tests"): say it once; an
			 * at_baseline detail says its own */
			const char *word = sweep_cell_word(c);
			int said = str_starts_with(c->detail, word) || c->at_baseline;
			fprintf(out, "  %s, %s: %s%s%s\n", t->rows[r].workload, t->labels[k],
				said ? "" : word, said ? "" : ": ", c->detail);
			char *log = cell_log(t, r, k);
			if (log)
				fprintf(out, "    log: %s\n", log);
			free(log);
		}
}

/* ---- csv ---- */

static void csv_fields(FILE *out, const char *const *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		rep_csv_field(out, f[i]);
	}
}

static void print_csv(FILE *out, const struct sweep_table *t)
{
	fputs("study,workload,config,baseline,cflags,result,detail,size_text,size_text_pct,"
	      "tests_time,tests_time_pct,tests_unit\n", out);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t k = 0; k < t->ncols; k++) {
			const struct sweep_cell *c = &t->rows[r].cells[k];
			const char *f[] = {t->study, t->rows[r].workload, t->labels[k], t->labels[0],
					   t->cflags[k], sweep_cell_key(c), c->detail};
			csv_fields(out, f, ARRAY_SIZE(f));
			rep_csv_nums(out, 4, (double[]){c->size, c->size_pct, c->tests, c->tests_pct});
			fputc(',', out);
			rep_csv_field(out, t->tests_unit);
			fputc('\n', out);
		}
	/* the summary: one row per configuration, workload empty, result summary */
	for (size_t k = 0; k < t->ncols; k++) {
		char *s = summary_text(&t->summary[k]);
		const char *f[] = {t->study, "", t->labels[k], t->labels[0], t->cflags[k], "summary",
				   s};
		csv_fields(out, f, ARRAY_SIZE(f));
		fputs(",,,,,\n", out);
		free(s);
	}
}

/* ---- json ---- */

static void json_cell(FILE *out, const struct sweep_table *t, size_t r, size_t k)
{
	const struct sweep_cell *c = &t->rows[r].cells[k];
	fputs("{\"config\":", out);
	rep_json_str(out, t->labels[k]);
	rep_json_key_str(out, "result", sweep_cell_key(c));
	rep_json_key_str(out, "detail", c->detail);
	fprintf(out, ",\"built\":%s,\"ran\":%s", c->built ? "true" : "false",
		c->ran ? "true" : "false");
	rep_json_key_num(out, "size_text", c->size);
	rep_json_key_num(out, "size_text_pct", c->size_pct);
	rep_json_key_num(out, "tests_time", c->tests);
	rep_json_key_num(out, "tests_time_pct", c->tests_pct);
	char *log = cell_log(t, r, k);
	rep_json_key_str_or_null(out, "log", log);
	free(log);
	fputc('}', out);
}

static void print_json(FILE *out, const struct sweep_table *t)
{
	fputs("{\"study\":", out);
	rep_json_str(out, t->study);
	rep_json_key_str(out, "pivot", "sweep");
	rep_json_key_str(out, "baseline", t->labels[0]);
	rep_json_key_str(out, "tests_unit", t->tests_unit);
	fputs(",\"configs\":[", out);
	for (size_t k = 0; k < t->ncols; k++) {
		fprintf(out, "%s{\"config\":", k ? "," : "");
		rep_json_str(out, t->labels[k]);
		rep_json_key_str(out, "cflags", t->cflags[k]);
		size_t v[7];
		summary_counts(&t->summary[k], v);
		fputs(",\"summary\":{", out);
		for (size_t i = 0; i < ARRAY_SIZE(v); i++)
			fprintf(out, "%s\"%s\":%zu", i ? "," : "", summary_keys[i], v[i]);
		fputs("}}", out);
	}
	fputs("],\"rows\":[", out);
	for (size_t r = 0; r < t->nrows; r++) {
		fputs(r ? ",{\"workload\":" : "{\"workload\":", out);
		rep_json_str(out, t->rows[r].workload);
		fputs(",\"cells\":[", out);
		for (size_t k = 0; k < t->ncols; k++) {
			fputs(k ? "," : "", out);
			json_cell(out, t, r, k);
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
}

static const struct sweep_writer {
	enum format format;
	void (*print)(FILE *out, const struct sweep_table *t);
} formats[] = {
	{FORMAT_TABLE, print_table},
	{FORMAT_CSV, print_csv},
	{FORMAT_JSON, print_json},
};

format_set sweep_table_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("sweep table formats", formats, err);
}

int sweep_table_print(FILE *out, const struct sweep_table *t, const char *format)
{
	const struct sweep_writer *w = FORMAT_WRITER(formats, format);
	if (!w)
		return -1;
	w->print(out, t);
	return 0;
}
