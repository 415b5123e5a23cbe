/* report.c - see report.h */
#include "analysis/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void json_num(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else
		fprintf(out, "%.6g", v);
}

static void json_str(FILE *out, const char *s)
{
	struct strbuf sb = {0};
	sb_add_json(&sb, s);
	fputs(sb_str(&sb), out);
	sb_release(&sb);
}

/* ---- table ---- */

static void fmt_ci(char *buf, size_t n, double lo, double hi, int exact)
{
	if (isnan(lo))
		snprintf(buf, n, "-");
	else if (exact)
		snprintf(buf, n, "exact");
	else
		snprintf(buf, n, "[%.3f, %.3f]", lo, hi);
}

static void table_begin(FILE *out, const struct ranking *r)
{
	const char *base = "?";
	for (size_t i = 0; i < r->n; i++)
		if (r->configs[i].is_baseline)
			base = r->configs[i].label;
	fprintf(out, "study %s: metric %s%s%s, %s is better; ratio = median / baseline median; baseline: %s\n\n",
		r->study, r->metric, *r->unit ? " in " : "", r->unit,
		r->higher_better ? "higher" : "lower", base);
	fprintf(out, "%-5s %-32s %-8s %-18s %s\n", "rank", "configuration", "ratio", "95% CI",
		"status");
}

static void table_config(FILE *out, const struct ranking *r, const struct rank_config *c,
			 size_t index)
{
	(void)r;
	(void)index;
	char rank[16], ratio[32], ci[48];
	snprintf(rank, sizeof(rank), c->rank ? "%d" : "-", c->rank);
	snprintf(ratio, sizeof(ratio), isnan(c->ratio) ? "-" : "%.3f", c->ratio);
	fmt_ci(ci, sizeof(ci), c->lo, c->hi, c->lo == c->hi);
	fprintf(out, "%-5s %-32s %-8s %-18s %s%s%s\n", rank, c->label, ratio, ci,
		outcome_name(c->status), c->is_baseline ? " (baseline)" : "",
		c->detail ? "" : "");
	if (c->status != OUTCOME_OK && c->detail)
		fprintf(out, "      %s\n", c->detail);
}

static void table_item(FILE *out, const struct ranking *r, const struct rank_config *c,
		       const struct rank_item *it, size_t index)
{
	(void)c;
	(void)index;
	char ratio[32], ci[48], med[32];
	snprintf(med, sizeof(med), isnan(it->median) ? "-" : "%.4g", it->median);
	snprintf(ratio, sizeof(ratio), isnan(it->ratio) ? "-" : "%.3f", it->ratio);
	fmt_ci(ci, sizeof(ci), it->lo, it->hi, it->exact);
	fprintf(out, "        %-28s n=%-3zu median %-10s %-3s ratio %-6s %-18s %s\n", it->name,
		it->n, med, r->unit, ratio, ci, outcome_name(it->status));
}

static void table_end(FILE *out, const struct ranking *r)
{
	if (r->built >= 0)
		fprintf(out, "\nbuilds in the last run: %d built, %d cached, %d failed\n", r->built,
			r->cached, r->failed);
	for (size_t i = 0; i < r->facts.n; i++)
		fprintf(out, "%s\n", r->facts.v[i]);
}

static const struct report_ops report_table = {
	.name = "table",
	.begin = table_begin,
	.config = table_config,
	.item = table_item,
	.end = table_end,
};

/* ---- csv ---- */

static void csv_field(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_begin(FILE *out, const struct ranking *r)
{
	(void)r;
	fputs("study,metric,config_id,label,rank,config_ratio,config_lo,config_hi,config_status,"
	      "workload,n,median,ratio,lo,hi,status,detail\n",
	      out);
}

static void csv_num(FILE *out, double v)
{
	if (!isnan(v))
		fprintf(out, "%.9g", v);
}

static void csv_item(FILE *out, const struct ranking *r, const struct rank_config *c,
		     const struct rank_item *it, size_t index)
{
	(void)index;
	csv_field(out, r->study);
	fputc(',', out);
	csv_field(out, r->metric);
	fprintf(out, ",%s,", c->id);
	csv_field(out, c->label);
	fprintf(out, ",%d,", c->rank);
	csv_num(out, c->ratio);
	fputc(',', out);
	csv_num(out, c->lo);
	fputc(',', out);
	csv_num(out, c->hi);
	fprintf(out, ",%s,", outcome_name(c->status));
	csv_field(out, it->name);
	fprintf(out, ",%zu,", it->n);
	csv_num(out, it->median);
	fputc(',', out);
	csv_num(out, it->ratio);
	fputc(',', out);
	csv_num(out, it->lo);
	fputc(',', out);
	csv_num(out, it->hi);
	fprintf(out, ",%s,", outcome_name(it->status));
	csv_field(out, it->detail ? it->detail : "");
	fputc('\n', out);
}

static const struct report_ops report_csv = {
	.name = "csv",
	.begin = csv_begin,
	.item = csv_item,
};

/* ---- json ---- */

static void json_begin(FILE *out, const struct ranking *r)
{
	fputs("{\"study\":", out);
	json_str(out, r->study);
	fputs(",\"metric\":", out);
	json_str(out, r->metric);
	fputs(",\"unit\":", out);
	json_str(out, r->unit);
	fprintf(out, ",\"higher_better\":%s,\"configs\":[", r->higher_better ? "true" : "false");
}

static void json_config(FILE *out, const struct ranking *r, const struct rank_config *c,
			size_t index)
{
	(void)r;
	fprintf(out, "%s{\"label\":", index ? "," : "");
	json_str(out, c->label);
	fprintf(out, ",\"id\":\"%s\",\"rank\":", c->id);
	if (c->rank)
		fprintf(out, "%d", c->rank);
	else
		fputs("null", out);
	fputs(",\"ratio\":", out);
	json_num(out, c->ratio);
	fputs(",\"ci\":[", out);
	json_num(out, c->lo);
	fputc(',', out);
	json_num(out, c->hi);
	fprintf(out, "],\"status\":\"%s\",\"baseline\":%s,\"detail\":", outcome_name(c->status),
		c->is_baseline ? "true" : "false");
	json_str(out, c->detail ? c->detail : "");
	fputs(",\"cc\":", out);
	json_str(out, c->cc);
	fputs(",\"toolchain\":", out);
	json_str(out, c->toolchain);
	fputs(",\"cflags\":", out);
	json_str(out, c->cflags);
	fputs(",\"ldflags\":", out);
	json_str(out, c->ldflags);
	fputs(",\"link\":", out);
	json_str(out, c->link);
	fputs(",\"workloads\":[", out);
}

static void json_item(FILE *out, const struct ranking *r, const struct rank_config *c,
		      const struct rank_item *it, size_t index)
{
	(void)r;
	(void)c;
	fprintf(out, "%s{\"name\":", index ? "," : "");
	json_str(out, it->name);
	fprintf(out, ",\"n\":%zu,\"median\":", it->n);
	json_num(out, it->median);
	fputs(",\"ratio\":", out);
	json_num(out, it->ratio);
	fputs(",\"ci\":[", out);
	json_num(out, it->lo);
	fputc(',', out);
	json_num(out, it->hi);
	fprintf(out, "],\"exact\":%s,\"status\":\"%s\",\"detail\":", it->exact ? "true" : "false",
		outcome_name(it->status));
	json_str(out, it->detail ? it->detail : "");
	fputc('}', out);
}

static void json_config_end(FILE *out, const struct ranking *r, const struct rank_config *c)
{
	(void)r;
	fputs("],\"elf\":", out);
	fputs(c->facts ? c->facts : "[]", out);
	fputc('}', out);
}

static void json_end(FILE *out, const struct ranking *r)
{
	fprintf(out, "],\"builds\":{\"built\":%d,\"cached\":%d,\"failed\":%d},\"facts\":[",
		r->built < 0 ? 0 : r->built, r->cached < 0 ? 0 : r->cached,
		r->failed < 0 ? 0 : r->failed);
	for (size_t i = 0; i < r->facts.n; i++) {
		if (i)
			fputc(',', out);
		json_str(out, r->facts.v[i]);
	}
	fputs("]}\n", out);
}

static const struct report_ops report_json = {
	.name = "json",
	.begin = json_begin,
	.config = json_config,
	.item = json_item,
	.config_end = json_config_end,
	.end = json_end,
};

static const struct report_ops *const formats[] = {
	&report_table,
	&report_csv,
	&report_json,
};

const struct report_ops *report_format(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

static const struct ranking *sort_ranking;

static int by_rank(const void *a, const void *b)
{
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	int ra = sort_ranking->configs[ia].rank, rb = sort_ranking->configs[ib].rank;
	if ((ra == 0) != (rb == 0))
		return ra == 0 ? 1 : -1;
	if (ra != rb)
		return ra - rb;
	double xa = sort_ranking->configs[ia].ratio, xb = sort_ranking->configs[ib].ratio;
	if (ra && xa != xb)
		return (xa < xb) == !sort_ranking->higher_better ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

void report_print(FILE *out, const struct ranking *r, const struct report_ops *ops)
{
	size_t *order = xcalloc(r->n ? r->n : 1, sizeof(size_t));
	for (size_t i = 0; i < r->n; i++)
		order[i] = i;
	sort_ranking = r;
	qsort(order, r->n, sizeof(size_t), by_rank);
	if (ops->begin)
		ops->begin(out, r);
	for (size_t k = 0; k < r->n; k++) {
		const struct rank_config *c = &r->configs[order[k]];
		if (ops->config)
			ops->config(out, r, c, k);
		for (size_t w = 0; w < c->nitems; w++)
			if (ops->item)
				ops->item(out, r, c, &c->items[w], w);
		if (ops->config_end)
			ops->config_end(out, r, c);
	}
	if (ops->end)
		ops->end(out, r);
	free(order);
}
