/* report_html.c - the self-contained HTML report (see report.h): the
 * ranking table, per-workload ratio bars with interval whiskers, the
 * Pareto scatters and each configuration's facts.  No script, no font, no
 * image is loaded from anywhere: styles and SVG charts are inline. */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_internal.h"
#include "analysis/svg.h"

static const char style[] =
	"body{font-family:sans-serif;margin:24px;color:#212121;max-width:1100px}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #cfd8dc}"
	"table{border-collapse:collapse;font-size:13px}ul{font-size:13px}"
	"td,th{padding:3px 8px;text-align:left;border-bottom:1px solid #eceff1}"
	"th{background:#eceff1}tr.config td{font-weight:bold;border-top:1px solid #b0bec5}"
	"tr.item td{color:#455a64}td.num{text-align:right;font-family:monospace;white-space:nowrap}"
	".improved{color:#2e7d32;font-weight:bold}.regressed{color:#c62828;font-weight:bold}"
	".mixed{color:#1565c0;font-weight:bold}.parts{font-weight:normal;font-size:12px}"
	".bad{color:#c62828}.noisy{color:#ef6c00}.rule{color:#455a64;font-size:13px}"
	".note{color:#6a1b9a}"
	".charts{display:flex;flex-wrap:wrap;gap:16px}svg.chart{font-family:sans-serif}"
	"table.facts td:first-child{font-weight:bold}code{font-size:12px}";

static void esc(FILE *out, const char *s)
{
	svg_escape(out, s);
}

static void html_lines(FILE *out, const char *title, char *text);

/* What may change how the ranking is read comes before it: a busy
 * machine, and the verdicts the data have not settled (they sat under the
 * configuration details, at the bottom). */
static void html_warnings(FILE *out, const struct ranking *r)
{
	char *partial = results_progress_text(&r->progress);
	if (partial) {
		fputs("<p class=\"rule warning\" id=\"incomplete\"><b>", out);
		esc(out, partial);
		fputs("</b></p>\n", out);
	}
	free(partial);
	char *warning = rep_machine_warning(r);
	if (warning) {
		fputs("<p class=\"rule warning\" id=\"warning\"><b>warning:</b> ", out);
		esc(out, warning);
		fputs("</p>\n", out);
	}
	free(warning);
	html_lines(out, "Verdicts not settled", rep_fragile_text(r));
}

static void html_begin(FILE *out, const struct ranking *r)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>"
	      "flagscope report: ", out);
	esc(out, r->study);
	fprintf(out, "</title>\n<style>%s</style>\n</head><body>\n<h1>flagscope study ", style);
	esc(out, r->study);
	fputs("</h1>\n<p class=\"rule\">", out);
	char *rule = rep_rule_text(r);
	esc(out, rule);
	free(rule);
	fputs("</p>\n", out);
	html_warnings(out, r);
	fputs("<p class=\"rule legend\" id=\"legend\">Verdicts: <span class=\"improved\">"
	      "improved</span>, <span class=\"regressed\">regressed</span>, <span "
	      "class=\"mixed\">mixed</span> (some workloads significantly better, others "
	      "significantly worse: listed with their changes under samples), unchanged.</p>\n", out);
	if (r->nleft_out) {
		fputs("<p class=\"rule\">Left out of the ranking:</p>\n<ul class=\"left-out\">\n", out);
		for (size_t i = 0; i < r->nleft_out; i++) {
			fputs("<li>", out);
			esc(out, r->left_out[i].name);
			fputs(": ", out);
			esc(out, r->left_out[i].why);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	fputs("<h2>Ranking</h2>\n<table class=\"ranking\"><thead><tr><th>rank</th>"
	      "<th>configuration / workload</th><th>ratio</th><th>interval</th><th>p</th>"
	      "<th>verdict</th><th>status</th><th>samples</th></tr></thead><tbody>\n", out);
}

static const char *verdict_class(enum verdict v)
{
	return v == VERDICT_IMPROVED	? "improved"
	       : v == VERDICT_REGRESSED ? "regressed"
	       : v == VERDICT_MIXED	? "mixed"
					: "";
}

static void td_num(FILE *out, const char *fmt, double v, const char *cls)
{
	fprintf(out, "<td class=\"num %s\">", cls ? cls : "");
	if (isnan(v))
		fputs("-", out);
	else
		fprintf(out, fmt, v);
	fputs("</td>", out);
}

static void td_status(FILE *out, enum outcome o, const char *detail, const char *note)
{
	fprintf(out, "<td class=\"%s\">%s", o == OUTCOME_OK ? "" : o == OUTCOME_NOISY ? "noisy" : "bad",
		outcome_name(o));
	if (o != OUTCOME_OK && detail && *detail) {
		fputs(": ", out);
		esc(out, detail);
	}
	if (note) {
		fputs("<br><span class=\"note\">note: ", out);
		esc(out, note);
		fputs("</span>", out);
	}
	fputs("</td>", out);
}

static void html_config(FILE *out, const struct ranking *r, const struct rank_config *c,
			size_t index)
{
	(void)r;
	(void)index;
	fputs("<tr class=\"config\"><td>", out);
	if (c->rank)
		fprintf(out, "%d", c->rank);
	else
		fputs("-", out);
	fputs("</td><td>", out);
	esc(out, c->label);
	if (c->is_baseline)
		fputs(" (baseline)", out);
	fputs("</td>", out);
	td_num(out, "%.3f", c->ratio, verdict_class(c->verdict));
	char ci[64];
	rep_config_ci(ci, sizeof(ci), c);
	fprintf(out, "<td class=\"num\">%s</td>", ci);
	fprintf(out, "<td></td><td class=\"%s\">%s</td>", verdict_class(c->verdict),
		isnan(c->ratio) ? "-" : verdict_name(c->verdict));
	td_status(out, c->status, NULL, NULL);
	fprintf(out, "<td>%d improved, %d regressed", c->improved, c->regressed);
	/* a mixed verdict is two effects: which, beside the counts
	 * (verdict_mixed_text: "mixed: +25.4% lz4/best, -24.7% ...") */
	if (c->mixed) {
		fputs("<br><span class=\"mixed parts\">", out);
		esc(out, c->mixed);
		fputs("</span>", out);
	}
	fputs("</td></tr>\n", out);
}

static void html_item(FILE *out, const struct ranking *r, const struct rank_config *c,
		      const struct rank_item *it, size_t index)
{
	(void)c;
	(void)index;
	char ci[64];
	rep_item_ci(ci, sizeof(ci), it);
	fputs("<tr class=\"item\"><td></td><td>&nbsp;&nbsp;", out);
	esc(out, it->name);
	fputs("</td>", out);
	td_num(out, "%.3f", it->ratio, verdict_class(it->verdict));
	fprintf(out, "<td class=\"num\">%s</td>", ci);
	td_num(out, "%.3g", it->exact || it->untested ? NAN : it->p, NULL);
	fprintf(out, "<td class=\"%s\">%s", verdict_class(it->verdict),
		isnan(it->ratio) ? "-" : verdict_name(it->verdict));
	/* why it is unchanged where the calibrated floor is the reason, as
	 * the table's line and JSON's layout_noise */
	if (it->below_resolution)
		fprintf(out, "<br><span class=\"note below-resolution\">below the meter's "
			     "resolution (%s)</span>", r->resolution_text ? r->resolution_text : "?");
	if (!isnan(it->layout_noise))
		fprintf(out, "<br><span class=\"note layout-noise\">within layout noise "
			     "(\u00b1%.1f%%)</span>", 100 * it->layout_noise);
	fputs("</td>", out);
	td_status(out, it->status, it->detail, it->note);
	fprintf(out, "<td>n=%zu", it->s.n);
	if (it->s.n) {
		fprintf(out, ", median %.4g ", it->s.median);
		esc(out, r->unit);
		if (it->s.n > 1)
			fprintf(out, ", MAD %.3g, mean %.4g, sd %.3g, min %.4g", it->s.mad,
				it->s.mean, it->s.sd, it->s.min);
		if (it->s.outliers)
			fprintf(out, ", %zu outlier(s)", it->s.outliers);
	}
	fputs("</td></tr>\n", out);
}

/* One bar chart per item: every configuration's ratio on it. */
static void html_bars(FILE *out, const struct ranking *r, const size_t *order)
{
	size_t nitems = r->n ? r->configs[0].nitems : 0;
	fputs("</tbody></table>\n<h2>Ratio to the baseline, per workload</h2>\n"
	      "<div class=\"charts\">\n", out);
	struct svg_bar *bars = xcalloc(r->n ? r->n : 1, sizeof(*bars));
	for (size_t w = 0; w < nitems; w++) {
		size_t nb = 0;
		for (size_t k = 0; k < r->n; k++) {
			const struct rank_config *c = &r->configs[order[k]];
			const struct rank_item *it = &c->items[w];
			if (isnan(it->ratio))
				continue;
			int point = it->exact || it->untested;
			bars[nb++] = (struct svg_bar){c->label, it->ratio, point ? NAN : it->lo,
						      point ? NAN : it->hi, it->verdict};
		}
		char *id = xasprintf("bars-%s", r->configs[0].items[w].name);
		char *title = xasprintf("%s: %s ratio, %g%% interval", r->configs[0].items[w].name,
					r->metric, 100 * (1 - r->opt.alpha));
		svg_ratio_bars(out, id, title, bars, nb);
		free(id);
		free(title);
	}
	free(bars);
	fputs("</div>\n", out);
}

static void html_pareto(FILE *out, const struct ranking *r)
{
	if (!r->npareto)
		return;
	fputs("<h2>Pareto fronts</h2>\n<p class=\"rule\">Each point is a configuration's "
	      "geometric-mean ratio to the baseline in two metrics (lower is better in both; "
	      "higher-is-better metrics are inverted).  Filled points are on the front: no "
	      "other configuration is at least as good in both.</p>\n<div class=\"charts\">\n",
	      out);
	struct svg_point *pts = xcalloc(r->n ? r->n : 1, sizeof(*pts));
	for (size_t i = 0; i < r->npareto; i++) {
		const struct rank_pareto *p = &r->pareto[i];
		for (size_t c = 0; c < r->n; c++)
			pts[c] = (struct svg_point){r->configs[c].label, p->xv[c], p->yv[c],
						    p->front[c]};
		char *id = xasprintf("pareto-%s-%s", p->x, p->y);
		char *title = xasprintf("%s vs %s", p->x, p->y);
		char *xl = xasprintf("%s ratio", p->x), *yl = xasprintf("%s ratio", p->y);
		svg_scatter(out, id, title, xl, yl, pts, r->n);
		free(id);
		free(title);
		free(xl);
		free(yl);
	}
	free(pts);
	fputs("</div>\n", out);
}

/* The C library a binary uses, from its ELF facts. */
static const char *libc_of(int is_static, const char *interp, const char *needed)
{
	if (is_static)
		return "static (linked in)";
	if (interp && strstr(interp, "musl"))
		return "musl";
	if (needed && strstr(needed, "libc.so.6"))
		return "glibc";
	if (needed && strstr(needed, "libc.so"))
		return "musl or another libc.so";
	return "unknown";
}

static void fact_row(FILE *out, const char *key, const char *value)
{
	fputs("<tr><td>", out);
	esc(out, key);
	fputs("</td><td><code>", out);
	esc(out, value && *value ? value : "-");
	fputs("</code></td></tr>\n", out);
}

static const char *col(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return t ? (const char *)t : "?";
}

/* The builds' ELF facts, read from their JSON with SQLite's JSON
 * functions (an in-memory database: no parser of our own). */
static void html_elf(FILE *out, sqlite3 *mem, const char *facts)
{
	sqlite3_stmt *s = NULL;
	if (!mem || !facts ||
	    sqlite3_prepare_v2(mem,
		"SELECT json_extract(e.value,'$.file'), json_extract(e.value,'$.machine'),"
		" json_extract(e.value,'$.class'), json_extract(e.value,'$.type'),"
		" coalesce(json_extract(e.value,'$.abi'),''), json_extract(e.value,'$.static'),"
		" json_extract(e.value,'$.interp'),"
		" (SELECT group_concat(n.value,' ') FROM json_each(e.value,'$.needed') n),"
		" (SELECT group_concat(c.value,'; ') FROM json_each(e.value,'$.compilers') c), json_extract(e.value,'$.units[0].switches'),"
		" json_extract(e.value,'$.sections.\".text\"'), json_extract(e.value,'$.file_size'),"
		" json_array_length(e.value,'$.mismatches') FROM json_each(?1) o,"
		" json_each(CASE json_type(o.value) WHEN 'array' THEN o.value"
		" ELSE json_array(o.value) END) e", -1, &s,
		NULL) != SQLITE_OK) {
		fact_row(out, "ELF facts", "none stored");
		return;
	}
	sqlite3_bind_text(s, 1, facts, -1, SQLITE_STATIC);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *file = (const char *)sqlite3_column_text(s, 0);
		const char *base = file && strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
		const char *interp = (const char *)sqlite3_column_text(s, 6);
		const char *needed = (const char *)sqlite3_column_text(s, 7);
		char *what = xasprintf("%s %s %s %s, .text %lld B, file %lld B, %d mismatch(es)",
				       col(s, 2), col(s, 1), col(s, 4), col(s, 3),
				       sqlite3_column_int64(s, 10), sqlite3_column_int64(s, 11),
				       sqlite3_column_int(s, 12));
		char *key = xasprintf("binary %s", base ? base : "?");
		fact_row(out, key, what);
		char *link = xasprintf("%s; interpreter %s; needs %s",
				       libc_of(sqlite3_column_int(s, 5), interp, needed),
				       interp ? interp : "none", needed && *needed ? needed : "nothing");
		fact_row(out, "  libc", link);
		fact_row(out, "  compilers", (const char *)sqlite3_column_text(s, 8));
		fact_row(out, "  recorded switches", (const char *)sqlite3_column_text(s, 9));
		free(what);
		free(key);
		free(link);
	}
	sqlite3_finalize(s);
}

static void html_facts(FILE *out, const struct ranking *r, const size_t *order)
{
	sqlite3 *mem = NULL;
	if (sqlite3_open(":memory:", &mem) != SQLITE_OK) {
		sqlite3_close(mem);
		mem = NULL;
	}
	fputs("<h2>Configurations</h2>\n", out);
	for (size_t k = 0; k < r->n; k++) {
		const struct rank_config *c = &r->configs[order[k]];
		fputs("<h3>", out);
		esc(out, c->label);
		fprintf(out, "</h3>\n<table class=\"facts\" id=\"facts-%s\">\n", c->id);
		fact_row(out, "id", c->id);
		fact_row(out, "compiler command", c->cc);
		fact_row(out, "toolchain", c->toolchain);
		fact_row(out, "CFLAGS", c->cflags);
		fact_row(out, "LDFLAGS", c->ldflags);
		fact_row(out, "linkage", c->link);
		const char *cross[][2] = {{"target", c->target}, {"emulated CPU", c->cpu},
					  {"libc", c->libc}, {"sysroot", c->sysroot},
					  {"added by the harness", c->notes}};
		for (size_t i = 0; i < ARRAY_SIZE(cross); i++)
			if (cross[i][1] && *cross[i][1])
				fact_row(out, cross[i][0], cross[i][1]);
		html_elf(out, mem, c->facts);
		fputs("</table>\n", out);
	}
	sqlite3_close(mem);
}

static void html_machine(FILE *out, const struct ranking *r)
{
	if (!r->machine_keys.n)
		return;
	fputs("<h2>Machine</h2>\n", out); /* its warning is at the top */
	fputs("<table class=\"facts\" id=\"machine\">\n", out);
	for (size_t i = 0; i < r->machine_keys.n; i++)
		fact_row(out, r->machine_keys.v[i], r->machine_values.v[i]);
	fputs("</table>\n", out);
}

/* A heading and a list of text's lines (rep_*_text); nothing when "". */
static void html_lines(FILE *out, const char *title, char *text)
{
	if (*text) {
		fprintf(out, "<h2>%s</h2>\n<ul>\n", title);
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			fputs("<li>", out);
			esc(out, line);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	free(text);
}

static void html_end(FILE *out, const struct ranking *r)
{
	size_t *order = report_order(r);
	html_bars(out, r, order);
	html_pareto(out, r);
	html_facts(out, r, order);
	html_machine(out, r);
	fputs("<h2>Run</h2>\n<ul>\n", out);
	if (r->built >= 0)
		fprintf(out, "<li>builds in the last run: %d built, %d cached, %d failed</li>\n",
			r->built, r->cached, r->failed);
	for (size_t i = 0; i < r->facts.n; i++) {
		fputs("<li>", out);
		esc(out, r->facts.v[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
	html_lines(out, "Identical builds (measured once)", rep_identical_text(r));
	fputs("</body></html>\n", out);
	free(order);
}

const struct report_ops report_html = {
	.format = FORMAT_HTML,
	.begin = html_begin,
	.config = html_config,
	.item = html_item,
	.end = html_end,
};
