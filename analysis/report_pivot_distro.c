/* report_pivot_distro.c - the table, CSV and JSON forms of the distro
 * table (see pivot_distro.h) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pivot_distro.h"
#include "analysis/report_internal.h"

/* '~': not significant; '?': untested (one run of a noisy metric); '!':
 * mixed, runs significantly better and worse (never '~': two effects) */
static const char *mark(const struct distro_cell *c)
{
	if (c->time.untested)
		return "?";
	if (c->time.verdict == VERDICT_MIXED)
		return "!";
	return c->time.verdict == VERDICT_UNCHANGED ? "~" : "";
}

/* ---- table ---- */

/* the width of a cell's metric part: 9, or the metric's name and a blank */
static int pct_width(const struct distro_table *t)
{
	size_t w = strlen(t->metric) + 1;
	return w > 9 ? (int)w : 9;
}

static int col_width(const struct distro_table *t)
{
	size_t w = (size_t)pct_width(t) + 8;
	for (size_t k = 0; k < t->ncols; k++)
		if (strlen(t->labels[k]) > w)
			w = strlen(t->labels[k]);
	return (int)w;
}

static int name_width(const struct distro_table *t)
{
	size_t w = 8;
	for (size_t r = 0; r < t->nrows; r++)
		if (strlen(t->rows[r].workload) > w)
			w = strlen(t->rows[r].workload);
	return (int)w;
}

static void flags_line(FILE *out, const char *label, const char *what, const char *cflags,
		       int pgo)
{
	fprintf(out, "  %s%s: %s%s\n", label, what, *cflags ? cflags : "(none)",
		pgo ? ", profile-guided (pgo gen-use: -fprofile-generate, a training run, "
		      "-fprofile-use)" : "");
}

static void table_head(FILE *out, const struct distro_table *t)
{
	fprintf(out, "study %s: %s%s%s per workload against the baseline %s (%s is better)\n",
		t->study, t->metric, *t->unit ? " in " : "", t->unit, t->baseline,
		t->higher_better ? "higher" : "lower");
	fprintf(out, "%s: change in percent, 100 * (geometric mean over the workload's runs of "
		     "the median ratio - 1),\n  '~' not significant (its %g%% interval includes "
		     "0, or under %g%%%s,\n  or no run significant), '?' not tested (one run), "
		     "'!' mixed: runs significantly better and worse (listed below);\n",
		t->metric, 100 * (1 - t->opt.alpha), 100 * t->opt.min_effect,
		t->opt.min_effect_auto && !results_metric_deterministic(t->metric)
			? " (or the floor flagscope calibrate stored for this machine, if any)" : "");
	fputs("text: size.text of the binaries and libraries, change in percent (exact).\n", out);
	/* a label names levels; what was built is their flags */
	fputs("flags:\n", out);
	flags_line(out, t->baseline, " (baseline)", t->base_cflags, t->base_pgo);
	for (size_t k = 0; k < t->ncols; k++)
		flags_line(out, t->labels[k], "", t->cflags[k], t->pgo[k]);
	fputc('\n', out);
	int nw = name_width(t), cw = col_width(t), pw = pct_width(t);
	fprintf(out, "%-*s", nw, "workload");
	for (size_t k = 0; k < t->ncols; k++)
		fprintf(out, "  %-*s", cw, t->labels[k]);
	fprintf(out, "\n%-*s", nw, "");
	for (size_t k = 0; k < t->ncols; k++)
		fprintf(out, "  %-*s%-*s", pw, t->metric, cw - pw, "text");
	fputc('\n', out);
}

static void table_cell(FILE *out, const struct distro_cell *c, int cw, int pw)
{
	char a[32], b[32], s[80];
	if (c->time.status != OUTCOME_OK) {
		snprintf(s, sizeof(s), "%s", outcome_name(c->time.status));
	} else {
		if (isnan(c->pct))
			snprintf(a, sizeof(a), "-");
		else
			snprintf(a, sizeof(a), "%+.1f%%%s", c->pct, mark(c));
		if (isnan(c->size_pct))
			snprintf(b, sizeof(b), "-");
		else
			snprintf(b, sizeof(b), "%+.1f%%", c->size_pct);
		snprintf(s, sizeof(s), "%-*s%s", pw, a, b);
	}
	fprintf(out, "  %-*s", cw, s);
}

static void print_table(FILE *out, const struct distro_table *t)
{
	table_head(out, t);
	int nw = name_width(t), cw = col_width(t), pw = pct_width(t);
	for (size_t r = 0; r < t->nrows; r++) {
		fprintf(out, "%-*s", nw, t->rows[r].workload);
		for (size_t k = 0; k < t->ncols; k++)
			table_cell(out, &t->rows[r].cells[k], cw, pw);
		fputc('\n', out);
	}
	fprintf(out, "%-*s", nw, "geomean");
	for (size_t k = 0; k < t->ncols; k++) {
		const struct distro_summary *g = &t->summary[k];
		char a[32], b[32], s[80];
		snprintf(a, sizeof(a), isnan(g->pct) ? "-" : "%+.1f%%%s", g->pct, g->mixed ? "!" : "");
		snprintf(b, sizeof(b), isnan(g->size_pct) ? "-" : "%+.1f%%", g->size_pct);
		snprintf(s, sizeof(s), "%-*s%s", pw, a, b);
		fprintf(out, "  %-*s", cw, s);
	}
	fputs("\n(geomean: of the ok rows of each column, no interval; '!': its rows are "
	      "significantly better and worse)\n", out);
	for (size_t k = 0; k < t->ncols; k++)
		if (t->summary[k].mixed)
			fprintf(out, "geomean, %s: %s\n", t->labels[k], t->summary[k].mixed);
	/* the reasons of the failed cells, and the parts of the mixed ones */
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t k = 0; k < t->ncols; k++) {
			const struct distro_cell *c = &t->rows[r].cells[k];
			if (c->time.status == OUTCOME_OK && c->time.mixed)
				fprintf(out, "%s, %s: %s\n", t->rows[r].workload, t->labels[k],
					c->time.mixed);
			else if (c->time.status != OUTCOME_OK)
				fprintf(out, "%s, %s: %s%s%s\n", t->rows[r].workload, t->labels[k],
					outcome_name(c->time.status), *c->time.detail ? ": " : "",
					c->time.detail);
		}
	if (t->train.n)
		fputs("profile-guided builds (pgo gen-use) trained on another input than the "
		      "measured runs:\n", out);
	for (size_t i = 0; i < t->train.n; i++)
		fprintf(out, "  %s\n", t->train.v[i]);
}

/* ---- csv ---- */

/* A row's first columns: study, workload, config, baseline, metric, unit */
static void csv_begin(FILE *out, const struct distro_table *t, const char *workload, size_t k)
{
	const char *f[] = {t->study, workload, t->labels[k], t->baseline, t->metric, t->unit};
	for (size_t i = 0; i < ARRAY_SIZE(f); i++) {
		if (i)
			fputc(',', out);
		rep_csv_field(out, f[i]);
	}
}

/* A row's last columns: status, detail, cflags, baseline_cflags, pgo */
static void csv_end(FILE *out, const struct distro_table *t, enum outcome status,
		    const char *detail, size_t k)
{
	fprintf(out, ",%s,", outcome_name(status));
	rep_csv_field(out, detail);
	fputc(',', out);
	rep_csv_field(out, t->cflags[k]);
	fputc(',', out);
	rep_csv_field(out, t->base_cflags);
	fprintf(out, ",%d\n", t->pgo[k]);
}

static void print_csv(FILE *out, const struct distro_table *t)
{
	fputs("study,workload,config,baseline,metric,unit,time_pct,time_lo_pct,time_hi_pct,"
	      "significant,verdict,untested,runs,size_text,size_text_baseline,size_text_pct,"
	      "status,detail,cflags,baseline_cflags,pgo\n", out);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t k = 0; k < t->ncols; k++) {
			const struct distro_row *row = &t->rows[r];
			const struct distro_cell *c = &row->cells[k];
			csv_begin(out, t, row->workload, k);
			rep_csv_nums(out, 3, (double[]){c->pct, c->lo_pct, c->hi_pct});
			fprintf(out, ",%d,%s,%d,%zu", c->time.verdict != VERDICT_UNCHANGED,
				verdict_name(c->time.verdict), c->time.untested, c->time.nruns);
			rep_csv_nums(out, 3, (double[]){c->size, row->base_size, c->size_pct});
			csv_end(out, t, c->time.status, c->time.detail, k);
		}
	/* the table's geomean row: per configuration, over its ok rows */
	for (size_t k = 0; k < t->ncols; k++) {
		csv_begin(out, t, "geomean", k);
		rep_csv_nums(out, 1, &t->summary[k].pct);
		fputs(",,,,,,,,", out);
		rep_csv_nums(out, 1, &t->summary[k].size_pct);
		char *d = xasprintf("geometric mean of %zu ok rows", t->summary[k].n);
		csv_end(out, t, OUTCOME_OK, d, k);
		free(d);
	}
}

/* ---- json ---- */

static void json_cell(FILE *out, const struct distro_table *t, const struct distro_cell *c,
		      size_t k)
{
	fputs("{\"config\":", out);
	rep_json_str(out, t->labels[k]);
	rep_json_key_str(out, "status", outcome_name(c->time.status));
	rep_json_key_str(out, "detail", c->time.detail);
	rep_json_key_num(out, "time_pct", c->pct);
	rep_json_key_num(out, "time_lo_pct", c->lo_pct);
	rep_json_key_num(out, "time_hi_pct", c->hi_pct);
	fprintf(out, ",\"significant\":%s", c->time.verdict != VERDICT_UNCHANGED ? "true" : "false");
	rep_json_key_str(out, "verdict", verdict_name(c->time.verdict));
	fprintf(out, ",\"untested\":%s,\"runs\":%zu", c->time.untested ? "true" : "false",
		c->time.nruns);
	rep_json_key_num(out, "size_text", c->size);
	rep_json_key_num(out, "size_text_pct", c->size_pct);
	rep_json_key_str_or_null(out, "mixed", c->time.mixed);
	fputc('}', out);
}

static void print_json(FILE *out, const struct distro_table *t)
{
	fputs("{\"study\":", out);
	rep_json_str(out, t->study);
	rep_json_key_str(out, "pivot", "distro");
	rep_json_key_str(out, "metric", t->metric);
	rep_json_key_str(out, "unit", t->unit);
	fprintf(out, ",\"higher_better\":%s", t->higher_better ? "true" : "false");
	rep_json_key_str(out, "baseline", t->baseline);
	rep_json_key_str(out, "baseline_cflags", t->base_cflags);
	fprintf(out, ",\"baseline_pgo\":%s", t->base_pgo ? "true" : "false");
	rep_json_key_num(out, "alpha", t->opt.alpha);
	rep_json_key_num(out, "min_effect", t->opt.min_effect);
	fputs(",\"configs\":[", out);
	for (size_t k = 0; k < t->ncols; k++) {
		fputs(k ? "," : "", out);
		rep_json_str(out, t->labels[k]);
	}
	fputs("],\"config_flags\":[", out);
	for (size_t k = 0; k < t->ncols; k++) {
		fprintf(out, "%s{\"config\":", k ? "," : "");
		rep_json_str(out, t->labels[k]);
		rep_json_key_str(out, "cflags", t->cflags[k]);
		fprintf(out, ",\"pgo\":%s}", t->pgo[k] ? "true" : "false");
	}
	fputs("],\"geomean\":[", out);
	for (size_t k = 0; k < t->ncols; k++) {
		fprintf(out, "%s{\"config\":", k ? "," : "");
		rep_json_str(out, t->labels[k]);
		rep_json_key_num(out, "time_pct", t->summary[k].pct);
		rep_json_key_num(out, "size_text_pct", t->summary[k].size_pct);
		rep_json_key_str_or_null(out, "mixed", t->summary[k].mixed);
		fprintf(out, ",\"rows\":%zu}", t->summary[k].n);
	}
	fputs("],\"rows\":[", out);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct distro_row *row = &t->rows[r];
		fputs(r ? ",{\"workload\":" : "{\"workload\":", out);
		rep_json_str(out, row->workload);
		rep_json_key_num(out, "baseline_value", row->base_value);
		rep_json_key_num(out, "baseline_size_text", row->base_size);
		fputs(",\"cells\":[", out);
		for (size_t k = 0; k < t->ncols; k++) {
			fputs(k ? "," : "", out);
			json_cell(out, t, &row->cells[k], k);
		}
		fputs("]}", out);
	}
	fputs("],\"pgo_train\":[", out);
	for (size_t i = 0; i < t->train.n; i++) {
		fputs(i ? "," : "", out);
		rep_json_str(out, t->train.v[i]);
	}
	fputs("]}\n", out);
}

static const struct distro_writer {
	enum format format;
	void (*print)(FILE *out, const struct distro_table *t);
} formats[] = {
	{FORMAT_TABLE, print_table},
	{FORMAT_CSV, print_csv},
	{FORMAT_JSON, print_json},
};

format_set distro_table_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("distro table formats", formats, err);
}

int distro_table_print(FILE *out, const struct distro_table *t, const char *format)
{
	const struct distro_writer *w = FORMAT_WRITER(formats, format);
	if (!w)
		return -1;
	w->print(out, t);
	return 0;
}
