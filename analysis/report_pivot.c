/* report_pivot.c - the table, CSV and JSON forms of a pivot (see pivot.h) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pivot.h"
#include "analysis/report_internal.h"

static const char *ref_level(const struct pivot *p)
{
	return p->nlevels ? p->levels[p->ref] : "?";
}

/* ---- table ---- */

#define VAL_W 11 /* a value, or an outcome name */
#define NUM_W 8  /* a ratio or percentage */
#define PUB_W 9  /* the published ratio */
#define SAME_W 4 /* same sign: yes, no, - */

/* The published column of source s a table compares with (k < 0 the
 * metric's table, else memory table k), or -1 when it shows none. */
static int table_pub(const struct pivot *p, size_t s, int k)
{
	int kind = k < 0 ? PUB_TIME : k == 2 ? PUB_DIRTY : -1;
	int col = (int)s * PIVOT_NPUBKIND + kind;
	return kind >= 0 && p->pub_any[col] ? col : -1;
}

/* source s has figures in some column (a pivot on link has none) */
static int pub_shown(const struct pivot *p, size_t s)
{
	return p->pub_any[PUB_COL(s, PUB_TIME)] || p->pub_any[PUB_COL(s, PUB_DIRTY)];
}

/* a source named by a label of its own, not the default "published" */
static int pub_labelled(const struct pivot *p, size_t s)
{
	return strcmp(p->pub_src[s].label, "published") != 0;
}

/* A ratio column's width: at least min, or the widest ratio the pivot
 * prints (+11822.5% for a thread stack's VSZ), so the columns line up */
static int pct_width(const struct pivot *p, int min)
{
	int w = min;
	char buf[48];
	for (size_t b = 0; b < p->nblocks; b++)
		for (size_t i = 0; i < p->blocks[b].nrows; i++) {
			const struct pivot_row *r = &p->blocks[b].rows[i];
			for (size_t l = 0; l <= p->nlevels; l++) {
				const struct pivot_cell *c = l < p->nlevels ? &r->cells[l] : &r->noise;
				double v[4 + PIVOT_NPUB] = {c->pct, c->mem_pct[0], c->mem_pct[1],
							    c->mem_pct[2]};
				memcpy(v + 4, c->pub_pct, sizeof(c->pub_pct));
				for (size_t k = 0; k < ARRAY_SIZE(v); k++) {
					/* the metric's ratio carries its verdict's mark */
					int n = isnan(v[k]) ? 0 : snprintf(buf, sizeof(buf), "%+.1f%%", v[k]) + !k;
					if (n > w)
						w = n;
				}
			}
		}
	return w;
}

static const char *same_word(int same)
{
	return same < 0 ? "-" : same ? "yes" : "no";
}

static const char *const memory_titles[PIVOT_NMEM] = {
	"VSZ: virt (KiB)",
	"RSS: res (KiB)",
	"dirty (KiB)",
};

/* the metric table's title, "time (s)"; heap */
static char *metric_title(const struct pivot *p)
{
	return xasprintf("%s%s%s%s", p->metric, *p->unit ? " (" : "", p->unit, *p->unit ? ")" : "");
}

/* the first column: as wide as the widest row name or table title */
static int name_width(const struct pivot *p)
{
	char *title = metric_title(p);
	size_t w = strlen(title);
	free(title);
	for (int k = 0; k < PIVOT_NMEM; k++)
		if (strlen(memory_titles[k]) > w)
			w = strlen(memory_titles[k]);
	for (size_t b = 0; b < p->nblocks; b++)
		for (size_t i = 0; i < p->blocks[b].nrows; i++)
			if (strlen(p->blocks[b].rows[i].name) > w)
				w = strlen(p->blocks[b].rows[i].name);
	return (int)w;
}

/* a level's column: its label, at least a value wide */
static int level_width(const struct pivot *p, size_t l)
{
	size_t w = strlen(p->level_labels[l]);
	return w > VAL_W ? (int)w : VAL_W;
}

/* After the metric's ratio, its verdict by the rule report, compare and
 * recommend read (pivot.h): '~' not significant, '?' not tested (one run
 * of a noisy metric), none when significant (the sign says which way). */
static const char *verdict_mark(const struct pivot_cell *c)
{
	if (!c->judged)
		return "";
	if (c->untested)
		return "?";
	return c->verdict == VERDICT_UNCHANGED ? "~" : "";
}

static void put_ratio(FILE *out, const struct pivot_cell *c, int width)
{
	char buf[48];
	if (isnan(c->pct))
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), "%+.1f%%%s", c->pct, verdict_mark(c));
	fprintf(out, " %*s", width, buf);
}

static void put_num(FILE *out, double v, const char *fmt, int width)
{
	char buf[32];
	if (isnan(v))
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), fmt, v);
	fprintf(out, " %*s", width, buf);
}

/* "published (LABEL): TITLE (URL); hardware: ...; versions: ...": a
 * published ratio means little without the machine it came from */
static void table_source(FILE *out, const struct pivot *p, size_t s)
{
	const struct pivot_pub_source *src = &p->pub_src[s];
	fputs("published", out);
	if (pub_labelled(p, s))
		fprintf(out, " (%s)", src->label);
	fprintf(out, ": %s", src->heading);
	if (pub_labelled(p, s) || src->hardware || src->versions)
		fprintf(out, "; hardware: %s; versions: %s",
			src->hardware ? src->hardware : "not stated",
			src->versions ? src->versions : "not stated");
	fputc('\n', out);
}

static void table_begin(FILE *out, const struct pivot *p)
{
	const char *r = ref_level(p);
	fprintf(out, "study %s pivoted on %s (levels from the %s)\n", p->study, p->axis,
		p->levels_from);
	fprintf(out, "metric %s%s%s%s%s, %s is better; reference level %s (the baseline's).\n",
		p->metric, *p->unit ? " in " : "", p->unit, p->scope ? " over " : "",
		p->scope ? p->scope : "", p->higher_better ? "higher" : "lower", r);
	fputs("Per block, as the published tables: the metric per level and each level's "
	      "performance ratio ", out);
	if (p->higher_better)
		fprintf(out, "LEVEL/%s - 1", r);
	else
		fprintf(out, "%s_%s/LEVEL_%s - 1", r, p->metric, p->metric);
	if (p->per_build)
		fputs(" (positive: LEVEL is better); one row per workload: a size is the build's.\n",
		      out);
	else
		fprintf(out, " (positive: LEVEL is better); then the memory tables virt, res and "
			     "dirty (%s, %s, %s in KiB) with ratio %s/LEVEL - 1 (positive: LEVEL "
			     "uses less).\n",
			p->memory[0], p->memory[1], p->memory[2], r);
	fprintf(out, "One block per combination of the other axes' levels; medians of the good "
		     "repetitions.\n");
	fputs("A ratio of the metric is the verdict's: marked '~' not significant, '?' not tested "
	      "(one run a side), unmarked significant,\nthe verdict and ratio report, compare and "
	      "recommend give this pair (with layouts, of the layouts' medians).\n", out);
	for (size_t s = 0; s < p->npub_src; s++)
		if (pub_shown(p, s))
			table_source(out, p, s);
	if (p->published)
		fprintf(out, "%s: each source's ratio in the same form (%s/LEVEL - 1 of its "
			     "figures) and whether the measured one has its sign (same); \"-\": no "
			     "published row.\n",
			p->npub_src > 1 ? "published columns" : "published", r);
}

/* The closing lines: how many measured ratios have the published sign. */
static void table_end(FILE *out, const struct pivot *p)
{
	static const char *const what[PIVOT_NPUBKIND] = {
		"the metric's ratio against the published time",
		"the dirty memory ratio against the published dirty memory",
	};
	if (p->published)
		fputc('\n', out);
	for (size_t s = 0; s < p->npub_src; s++)
		for (int k = 0; k < PIVOT_NPUBKIND; k++)
			if (p->pub_any[PUB_COL(s, k)])
				fprintf(out, "sign agreement: %zu of %zu rows (%s%s%s)\n",
					p->pub_agree[PUB_COL(s, k)], p->pub_rows[PUB_COL(s, k)],
					pub_labelled(p, s) ? p->pub_src[s].label : "",
					pub_labelled(p, s) ? ": " : "", what[k]);
}

/* source s's published column: as wide as its label */
static int pub_width(const struct pivot *p, size_t s)
{
	int w = pct_width(p, PUB_W);
	int n = (int)strlen(p->pub_src[s].label);
	return n > w ? n : w;
}

/* After level l's ratio: each source's published ratio and same sign
 * (same: NULL for the head, "-" where nothing is compared). */
static void table_pubs(FILE *out, const struct pivot *p, const struct pivot_cell *c, int k,
		       const char *same)
{
	for (size_t s = 0; s < p->npub_src; s++) {
		int col = table_pub(p, s, k);
		if (col < 0)
			continue;
		if (!c) {
			fprintf(out, " %*s %*s", pub_width(p, s), p->pub_src[s].label, SAME_W, "same");
			continue;
		}
		put_num(out, c->pub_pct[col], "%+.1f%%", pub_width(p, s));
		fprintf(out, " %*s", SAME_W, same ? same : same_word(c->same_sign[col]));
	}
}

/* One table of a block: its title row, then the level names with a ratio
 * column after each level but the reference. */
static void table_head(FILE *out, const struct pivot *p, const char *title, int k)
{
	fprintf(out, "%-*s", name_width(p), title);
	for (size_t l = 0; l < p->nlevels; l++) {
		fprintf(out, " %*s", level_width(p, l), p->level_labels[l]);
		if (l != p->ref)
			fprintf(out, " %*s", pct_width(p, NUM_W), "ratio");
		if (l != p->ref)
			table_pubs(out, p, NULL, k, NULL);
	}
	fputc('\n', out);
}

/* One row: k < 0 the metric, else memory metric k. */
static void table_line(FILE *out, const struct pivot *p, const struct pivot_row *r, int k)
{
	fprintf(out, "%-*s", name_width(p), r->name);
	for (size_t l = 0; l < p->nlevels; l++) {
		const struct pivot_cell *c = &r->cells[l];
		if (!c->present || c->status != OUTCOME_OK) {
			fprintf(out, " %*s", level_width(p, l),
				c->present ? outcome_name(c->status) : "-");
			if (l != p->ref)
				fprintf(out, " %*s", pct_width(p, NUM_W), "");
			if (l != p->ref)
				table_pubs(out, p, c, k, "-");
			continue;
		}
		double v = k < 0 ? c->value : c->mem[k];
		/* sizes in bytes read better whole than as 6.431e+05 */
		put_num(out, v, k >= 0 || (fabs(v) >= 1e4 && fabs(v) < 1e10) ? "%.0f" : "%.4g",
			level_width(p, l));
		if (l != p->ref && k < 0)
			put_ratio(out, c, pct_width(p, NUM_W));
		else if (l != p->ref)
			put_num(out, c->mem_pct[k], "%+.1f%%", pct_width(p, NUM_W));
		if (l != p->ref)
			table_pubs(out, p, c, k, NULL);
	}
	fputc('\n', out);
}

static void table_block(FILE *out, const struct pivot *p, const struct pivot_block *b,
			size_t index)
{
	(void)index;
	fprintf(out, "\n[%s]", *b->others_labelled ? b->others_labelled : p->axis);
	if (b->ref_outside)
		fprintf(out, "  ratios against %s (the baseline: this block has no %s)",
			b->ref_label, ref_level(p));
	fputc('\n', out);
	char *title = metric_title(p);
	table_head(out, p, title, -1);
	free(title);
}

static void table_row(FILE *out, const struct pivot *p, const struct pivot_block *b,
		      const struct pivot_row *r, size_t index)
{
	(void)b;
	(void)index;
	table_line(out, p, r, -1);
}

/* The memory tables, after the metric's, in the same form. */
static void table_memory(FILE *out, const struct pivot *p, const struct pivot_block *b)
{
	if (p->per_build) /* a build's figure has no memory beside it */
		return;
	for (int k = 0; k < PIVOT_NMEM; k++) {
		fputc('\n', out);
		table_head(out, p, memory_titles[k], k);
		for (size_t i = 0; i < b->nrows; i++)
			table_line(out, p, &b->rows[i], k);
	}
}

/* Why cells are empty: one line per level when every row of the block
 * failed the same way (a build, an UNSUPPORTED combination), else one per
 * row. */
/* The baseline's noise floor, under the metric's table: its ratio is no
 * configuration's but what noise alone does (pivot.h: The noise floor). */
static void table_noise(FILE *out, const struct pivot *p, const struct pivot_block *b)
{
	if (!b->has_noise)
		return;
	fprintf(out, "\nnoise floor: %s is %s built and run again, so its ratio is what noise "
		     "alone does (no configuration)\n", p->noise_label, b->ref_label);
	char *title = metric_title(p);
	fprintf(out, "%-*s %*s %*s\n", name_width(p), title, VAL_W, "noise floor",
		pct_width(p, NUM_W), "ratio");
	free(title);
	for (size_t i = 0; i < b->nrows; i++) {
		const struct pivot_cell *c = &b->rows[i].noise;
		fprintf(out, "%-*s", name_width(p), b->rows[i].name);
		if (c->status != OUTCOME_OK) {
			fprintf(out, " %*s\n", VAL_W, outcome_name(c->status));
			continue;
		}
		put_num(out, c->value, fabs(c->value) >= 1e4 && fabs(c->value) < 1e10 ? "%.0f" : "%.4g",
			VAL_W);
		put_ratio(out, c, pct_width(p, NUM_W));
		fputc('\n', out);
	}
}

static void table_block_end(FILE *out, const struct pivot *p, const struct pivot_block *b,
			    size_t index)
{
	(void)index;
	table_noise(out, p, b);
	table_memory(out, p, b);
	for (size_t l = 0; l < p->nlevels; l++) {
		const struct pivot_cell *first = b->nrows ? &b->rows[0].cells[l] : NULL;
		size_t failed = 0, same = 0;
		for (size_t i = 0; i < b->nrows; i++) {
			const struct pivot_cell *c = &b->rows[i].cells[l];
			if (!c->present || c->status == OUTCOME_OK)
				continue;
			failed++;
			same += c->status == first->status && !strcmp(c->detail, first->detail);
		}
		if (failed && same == b->nrows) {
			fprintf(out, "  %s: %s: %s\n", p->levels[l], outcome_name(first->status),
				first->detail);
			continue;
		}
		for (size_t i = 0; i < b->nrows && failed; i++) {
			const struct pivot_cell *c = &b->rows[i].cells[l];
			if (c->present && c->status != OUTCOME_OK)
				fprintf(out, "  %s %s: %s: %s\n", p->levels[l], b->rows[i].name,
					outcome_name(c->status), c->detail);
		}
	}
}

static const struct pivot_ops pivot_table = {
	.format = FORMAT_TABLE,
	.begin = table_begin,
	.block = table_block,
	.row = table_row,
	.block_end = table_block_end,
	.end = table_end,
};

/* ---- csv ---- */

/* ",LEVEL.KEY": quoted when the level's name needs it (a comma) */
static void csv_head(FILE *out, const char *level, const char *key, const char *suffix)
{
	char *name = xasprintf("%s.%s%s", level, key, suffix);
	fputc(',', out);
	if (strpbrk(name, ",\"\r\n"))
		rep_csv_field(out, name);
	else
		fputs(name, out);
	free(name);
}

/* Source s's columns: the first source's unprefixed (published_row,
 * LEVEL.published_pct, ...), a later one's with its label (rpi4.published_row,
 * LEVEL.rpi4.published_pct, ...) */
static void csv_pub_head(FILE *out, const struct pivot *p, size_t s)
{
	const char *pre = s ? p->pub_src[s].label : "";
	const char *dot = s ? "." : "";
	fprintf(out, ",%s%spublished_row,%s%spublished_dirty_row", pre, dot, pre, dot);
	const char *const keys[] = {"published_pct", "same_sign", "dirty_published_pct",
				    "dirty_same_sign"};
	for (size_t l = 0; l < p->nlevels; l++)
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			char *key = xasprintf("%s%s%s", pre, dot, keys[k]);
			csv_head(out, p->levels[l], key, "");
			free(key);
		}
}

static void csv_begin(FILE *out, const struct pivot *p)
{
	fputs("study,axis,metric,block,block_labelled,workload,run,reference", out);
	for (size_t l = 0; l < p->nlevels; l++) {
		const char *n = p->levels[l];
		const char *const keys[] = {"status", "flags", p->metric, "pct"};
		const char *const mem_suffixes[] = {"", "_ratio", "_pct"};
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++)
			csv_head(out, n, keys[k], "");
		for (size_t f = 0; f < ARRAY_SIZE(mem_suffixes); f++)
			for (int k = 0; k < PIVOT_NMEM; k++)
				csv_head(out, n, pivot_memory_keys[k], mem_suffixes[f]);
		csv_head(out, n, "verdict", "");
	}
	if (p->noise_label) {
		const char *const keys[] = {"status", p->metric, "pct"};
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++)
			csv_head(out, "noise_floor", keys[k], "");
	}
	/* last, so a pivot without published figures keeps its columns */
	for (size_t s = 0; s < p->npub_src && p->published; s++)
		if (!s || pub_shown(p, s))
			csv_pub_head(out, p, s);
	fputc('\n', out);
}

static const char *csv_same(int same)
{
	return same < 0 ? "" : same ? "yes" : "no";
}

static void csv_row(FILE *out, const struct pivot *p, const struct pivot_block *b,
		    const struct pivot_row *r, size_t index)
{
	(void)index;
	const char *f[] = {p->study,      p->axis, p->metric, b->others_named, b->others_labelled,
			   r->workload, r->run,   b->ref_label};
	for (size_t i = 0; i < ARRAY_SIZE(f); i++) {
		if (i)
			fputc(',', out);
		rep_csv_field(out, f[i]);
	}
	for (size_t l = 0; l < p->nlevels; l++) {
		const struct pivot_cell *c = &r->cells[l];
		fprintf(out, ",%s,", c->present ? outcome_name(c->status) : "");
		rep_csv_field(out, p->level_flags[l]);
		rep_csv_nums(out, 2, (double[]){c->value, c->pct});
		rep_csv_nums(out, PIVOT_NMEM, c->mem);
		rep_csv_nums(out, PIVOT_NMEM, c->mem_ratio);
		rep_csv_nums(out, PIVOT_NMEM, c->mem_pct);
		fprintf(out, ",%s", c->judged ? verdict_name(c->verdict) : "");
	}
	/* the noise floor's columns: empty outside the baseline's block */
	if (p->noise_label) {
		const struct pivot_cell *c = &r->noise;
		fprintf(out, ",%s", b->has_noise ? outcome_name(c->status) : "");
		rep_csv_nums(out, 2, (double[]){c->value, c->pct});
	}
	for (size_t s = 0; s < p->npub_src && p->published; s++) {
		if (s && !pub_shown(p, s))
			continue;
		for (int k = 0; k < PIVOT_NPUBKIND; k++) {
			fputc(',', out);
			rep_csv_field(out, r->pub_row[PUB_COL(s, k)] ? r->pub_row[PUB_COL(s, k)] : "");
		}
		for (size_t l = 0; l < p->nlevels; l++)
			for (int k = 0; k < PIVOT_NPUBKIND; k++) {
				rep_csv_nums(out, 1, &r->cells[l].pub_pct[PUB_COL(s, k)]);
				fprintf(out, ",%s", csv_same(r->cells[l].same_sign[PUB_COL(s, k)]));
			}
	}
	fputc('\n', out);
}

static const struct pivot_ops pivot_csv = {
	.format = FORMAT_CSV,
	.begin = csv_begin,
	.row = csv_row,
};

/* ---- json ---- */

static void json_key(FILE *out, const char *key, const char *v)
{
	fprintf(out, ",\"%s\":", key);
	rep_json_str(out, v);
}

/* level l's key in an object keyed by level, its comma before */
static void json_level_key(FILE *out, const struct pivot *p, size_t l)
{
	if (l)
		fputc(',', out);
	rep_json_str(out, p->levels[l]);
	fputc(':', out);
}

static void json_opt_str(FILE *out, const char *key, const char *v)
{
	fprintf(out, ",\"%s\":", key);
	if (v)
		rep_json_str(out, v);
	else
		fputs("null", out);
}

/* "published_sources": every source with figures, where each was measured,
 * its sign agreement; cells and rows key their figures by its label */
static void json_sources(FILE *out, const struct pivot *p)
{
	fputs(",\"published_sources\":[", out);
	for (size_t s = 0, n = 0; s < p->npub_src; s++) {
		if (!pub_shown(p, s))
			continue;
		fputs(n++ ? ",{\"label\":" : "{\"label\":", out);
		rep_json_str(out, p->pub_src[s].label);
		json_key(out, "source", p->pub_src[s].heading);
		json_opt_str(out, "hardware", p->pub_src[s].hardware);
		json_opt_str(out, "versions", p->pub_src[s].versions);
		fputs(",\"sign_agreement\":{", out);
		for (int k = 0; k < PIVOT_NPUBKIND; k++)
			fprintf(out, "%s\"%s\":{\"agree\":%zu,\"rows\":%zu}", k ? "," : "",
				k == PUB_TIME ? "time" : "dirty", p->pub_agree[PUB_COL(s, k)],
				p->pub_rows[PUB_COL(s, k)]);
		fputs("}}", out);
	}
	fputc(']', out);
}

static void json_begin(FILE *out, const struct pivot *p)
{
	fputs("{\"study\":", out);
	rep_json_str(out, p->study);
	json_key(out, "axis", p->axis);
	json_key(out, "metric", p->metric);
	json_key(out, "unit", p->unit);
	if (p->scope)
		json_key(out, "scope", p->scope);
	fprintf(out, ",\"higher_better\":%s", p->higher_better ? "true" : "false");
	json_key(out, "reference", ref_level(p));
	json_key(out, "levels_from", p->levels_from);
	fputs(",\"noise_floor\":", out);
	if (p->noise_label)
		rep_json_str(out, p->noise_label);
	else
		fputs("null", out);
	fputs(",\"levels\":[", out);
	for (size_t l = 0; l < p->nlevels; l++) {
		if (l)
			fputc(',', out);
		rep_json_str(out, p->levels[l]);
	}
	fputs("],\"level_flags\":{", out);
	for (size_t l = 0; l < p->nlevels; l++) {
		json_level_key(out, p, l);
		rep_json_str(out, p->level_flags[l]);
	}
	fputs("},\"memory\":{", out);
	for (int k = 0; k < PIVOT_NMEM; k++) {
		fprintf(out, "%s\"%s\":", k ? "," : "", pivot_memory_keys[k]);
		rep_json_str(out, p->memory[k]);
	}
	fputs("},\"published\":", out);
	if (p->published) {
		rep_json_str(out, p->published);
		fputs(",\"sign_agreement\":{", out);
		for (int k = 0; k < PIVOT_NPUB; k++)
			fprintf(out, "%s\"%s\":{\"agree\":%zu,\"rows\":%zu}", k ? "," : "",
				k == PUB_TIME ? "time" : "dirty", p->pub_agree[k], p->pub_rows[k]);
		fputc('}', out);
	} else {
		fputs("null,\"sign_agreement\":null", out);
	}
	json_sources(out, p);
	fputs(",\"blocks\":[", out);
}

static void json_block(FILE *out, const struct pivot *p, const struct pivot_block *b,
		       size_t index)
{
	(void)p;
	fputs(index ? ",{\"others\":" : "{\"others\":", out);
	rep_json_str(out, b->others);
	json_key(out, "others_named", b->others_named);
	json_key(out, "others_labelled", b->others_labelled);
	json_key(out, "reference", b->ref_label);
	fprintf(out, ",\"reference_outside\":%s,\"rows\":[", b->ref_outside ? "true" : "false");
}

static void json_same(FILE *out, const char *key, int same)
{
	fprintf(out, ",\"%s\":%s", key, same < 0 ? "null" : same ? "true" : "false");
}

/* "published_by": {"LABEL": {...}} per source with figures: fields(s) */
static void json_by_source(FILE *out, const struct pivot *p, const void *x,
			   void (*fields)(FILE *, const void *, size_t))
{
	fputs(",\"published_by\":{", out);
	for (size_t s = 0, n = 0; s < p->npub_src; s++) {
		if (!pub_shown(p, s))
			continue;
		if (n++)
			fputc(',', out);
		rep_json_str(out, p->pub_src[s].label);
		fputs(":{", out);
		fields(out, x, s);
		fputc('}', out);
	}
	fputc('}', out);
}

/* a cell's figures of source s, without the leading comma */
static void json_cell_pub(FILE *out, const void *x, size_t s)
{
	const struct pivot_cell *c = x;
	fputs("\"published_pct\":", out);
	rep_json_num(out, c->pub_pct[PUB_COL(s, PUB_TIME)]);
	json_same(out, "same_sign", c->same_sign[PUB_COL(s, PUB_TIME)]);
	fputs(",\"dirty_published_pct\":", out);
	rep_json_num(out, c->pub_pct[PUB_COL(s, PUB_DIRTY)]);
	json_same(out, "dirty_same_sign", c->same_sign[PUB_COL(s, PUB_DIRTY)]);
}

/* a row's published rows of source s */
static void json_row_pub(FILE *out, const void *x, size_t s)
{
	const struct pivot_row *r = x;
	fputs("\"published_row\":", out);
	const char *t = r->pub_row[PUB_COL(s, PUB_TIME)], *d = r->pub_row[PUB_COL(s, PUB_DIRTY)];
	if (t)
		rep_json_str(out, t);
	else
		fputs("null", out);
	json_opt_str(out, "published_dirty_row", d);
}

static void json_cell(FILE *out, const struct pivot *p, const struct pivot_cell *c)
{
	fprintf(out, "{\"present\":%s,\"status\":", c->present ? "true" : "false");
	rep_json_str(out, c->present ? outcome_name(c->status) : "");
	json_key(out, "detail", c->detail);
	fputs(",\"value\":", out);
	rep_json_num(out, c->value);
	fputs(",\"pct\":", out);
	rep_json_num(out, c->pct);
	rep_json_key_str_or_null(out, "verdict", c->judged ? verdict_name(c->verdict) : NULL);
	for (int k = 0; k < PIVOT_NMEM; k++) {
		fprintf(out, ",\"%s\":", pivot_memory_keys[k]);
		rep_json_num(out, c->mem[k]);
		fprintf(out, ",\"%s_ratio\":", pivot_memory_keys[k]);
		rep_json_num(out, c->mem_ratio[k]);
		fprintf(out, ",\"%s_pct\":", pivot_memory_keys[k]);
		rep_json_num(out, c->mem_pct[k]);
	}
	fputs(",\"published_pct\":", out);
	rep_json_num(out, c->pub_pct[PUB_TIME]);
	json_same(out, "same_sign", c->same_sign[PUB_TIME]);
	fputs(",\"dirty_published_pct\":", out);
	rep_json_num(out, c->pub_pct[PUB_DIRTY]);
	json_same(out, "dirty_same_sign", c->same_sign[PUB_DIRTY]);
	json_by_source(out, p, c, json_cell_pub);
	fputc('}', out);
}

static void json_row(FILE *out, const struct pivot *p, const struct pivot_block *b,
		     const struct pivot_row *r, size_t index)
{
	fputs(index ? ",{\"name\":" : "{\"name\":", out);
	rep_json_str(out, r->name);
	json_key(out, "workload", r->workload);
	json_key(out, "run", r->run);
	json_opt_str(out, "published_row", r->pub_row[PUB_TIME]);
	json_opt_str(out, "published_dirty_row", r->pub_row[PUB_DIRTY]);
	json_by_source(out, p, r, json_row_pub);
	fputs(",\"reference\":", out);
	json_cell(out, p, &r->ref);
	if (b->has_noise) {
		fputs(",\"noise_floor\":", out);
		json_cell(out, p, &r->noise);
	}
	fputs(",\"cells\":{", out);
	for (size_t l = 0; l < p->nlevels; l++) {
		json_level_key(out, p, l);
		json_cell(out, p, &r->cells[l]);
	}
	fputs("}}", out);
}

static void json_block_end(FILE *out, const struct pivot *p, const struct pivot_block *b,
			   size_t index)
{
	(void)p;
	(void)b;
	(void)index;
	fputs("]}", out);
}

static void json_end(FILE *out, const struct pivot *p)
{
	(void)p;
	fputs("]}\n", out);
}

static const struct pivot_ops pivot_json = {
	.format = FORMAT_JSON,
	.begin = json_begin,
	.block = json_block,
	.row = json_row,
	.block_end = json_block_end,
	.end = json_end,
};

static const struct pivot_ops *const pivot_formats_[] = {
	&pivot_table,
	&pivot_csv,
	&pivot_json,
};

const struct pivot_ops *pivot_format(const char *name)
{
	enum format f = format_parse(name);
	for (size_t i = 0; i < ARRAY_SIZE(pivot_formats_); i++)
		if (pivot_formats_[i]->format == f)
			return pivot_formats_[i];
	return NULL;
}

format_set pivot_formats(struct strbuf *err)
{
	enum format list[ARRAY_SIZE(pivot_formats_)];
	for (size_t i = 0; i < ARRAY_SIZE(pivot_formats_); i++)
		list[i] = pivot_formats_[i]->format;
	return format_family("pivot formats", list, ARRAY_SIZE(list), sizeof(list[0]), err);
}
