/* report_text.c - the terminal table and CSV formats (see report.h) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_internal.h"

/* ---- table ---- */

/* Print text padded to width, coloured by a significant verdict. */
static void put_verdict_col(FILE *out, const char *text, int width, enum verdict v)
{
	int colour = v != VERDICT_UNCHANGED && report_colour(out);
	if (colour)
		fputs(report_verdict_colour(v), out);
	fprintf(out, "%-*s", width, text);
	if (colour)
		fputs(REPORT_COLOUR_END, out);
}

/* The label column: 32 wide, or the longest label's width. */
static int label_width(const struct ranking *r)
{
	size_t w = 32;
	for (size_t i = 0; i < r->n; i++)
		if (strlen(r->configs[i].label) > w)
			w = strlen(r->configs[i].label);
	return (int)w;
}

/* The item column: 22 wide, or the longest item name's width. */
static int item_width(const struct ranking *r)
{
	size_t w = 22;
	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->configs[i].nitems; k++)
			if (strlen(r->configs[i].items[k].name) > w)
				w = strlen(r->configs[i].items[k].name);
	return (int)w;
}

static void table_begin(FILE *out, const struct ranking *r)
{
	char *rule = rep_rule_text(r);
	fprintf(out, "study %s: %s\n", r->study, rule);
	free(rule);
	char *partial = results_progress_text(&r->progress);
	if (partial)
		fprintf(out, "%s\n", partial);
	free(partial);
	if (r->nleft_out) {
		char *left = rep_left_out_text(r);
		fputs("\nleft out of the ranking:\n", out);
		for (char *l = left, *nl; *l; l = nl + 1) {
			nl = strchr(l, '\n');
			fprintf(out, "  %.*s\n", (int)(nl - l), l);
		}
		free(left);
	}
	fprintf(out, "\n%-5s %-*s %-8s %-18s %-10s %s\n", "rank", label_width(r), "configuration",
		"ratio", "interval", "verdict", "status");
}

static void table_config(FILE *out, const struct ranking *r, const struct rank_config *c,
			 size_t index)
{
	(void)index;
	char rank[16], ratio[32], ci[48];
	snprintf(rank, sizeof(rank), c->rank ? "%d" : "-", c->rank);
	snprintf(ratio, sizeof(ratio), isnan(c->ratio) ? "-" : "%.3f", c->ratio);
	rep_config_ci(ci, sizeof(ci), c);
	fprintf(out, "%-5s %-*s ", rank, label_width(r), c->label);
	put_verdict_col(out, ratio, 8, c->verdict);
	fprintf(out, " %-18s ", ci);
	put_verdict_col(out, isnan(c->ratio) ? "-" : verdict_name(c->verdict), 10, c->verdict);
	/* ok with no rank is not a result: nothing was ranked (every workload
	 * left out), and "ok" there read as if it had been */
	fprintf(out, " %s%s\n", c->status == OUTCOME_OK && !c->rank ? "-" : outcome_name(c->status),
		c->is_baseline ? " (baseline)" : "");
	if (c->status != OUTCOME_OK && c->detail)
		fprintf(out, "      %s\n", c->detail);
}

static void table_item(FILE *out, const struct ranking *r, const struct rank_config *c,
		       const struct rank_item *it, size_t index)
{
	(void)c;
	(void)index;
	char ratio[32], ci[48], med[32], mad[40], p[24];
	snprintf(med, sizeof(med), isnan(it->s.median) ? "-" : "%.4g", it->s.median);
	snprintf(mad, sizeof(mad), it->s.n > 1 ? "mad %.2g" : "", it->s.mad);
	snprintf(ratio, sizeof(ratio), isnan(it->ratio) ? "-" : "%.3f", it->ratio);
	if (isnan(it->p) || it->exact)
		p[0] = '\0';
	else
		snprintf(p, sizeof(p), it->p < 0.001 ? "p<0.001" : "p %.3f", it->p);
	rep_item_ci(ci, sizeof(ci), it);
	fprintf(out, "        %-*s n=%-3zu median %-9s %-4s %-12s ratio ", item_width(r), it->name,
		it->s.n, med, r->unit, mad);
	put_verdict_col(out, ratio, 6, it->verdict);
	fprintf(out, " %-19s %-8s ", ci, p);
	put_verdict_col(out, isnan(it->ratio) ? "-" : verdict_name(it->verdict), 10, it->verdict);
	fprintf(out, " %s", outcome_name(it->status));
	if (it->s.outliers)
		fprintf(out, " (%zu outlier%s)", it->s.outliers, it->s.outliers > 1 ? "s" : "");
	if (it->status == OUTCOME_NOISY && it->detail)
		fprintf(out, ": %s", it->detail);
	fputc('\n', out);
	if (it->note)
		fprintf(out, "          note: %s\n", it->note);
	if (it->below_resolution)
		fprintf(out, "          unchanged: below the meter's resolution (%s)\n",
			r->resolution_text ? r->resolution_text : "?");
	if (!isnan(it->layout_noise))
		fprintf(out, "          unchanged: within layout noise (\u00b1%.1f%%)\n",
			100 * it->layout_noise);
}

static void table_end(FILE *out, const struct ranking *r)
{
	for (size_t i = 0; i < r->npareto; i++) {
		const struct rank_pareto *p = &r->pareto[i];
		fprintf(out, "\npareto front, %s vs %s (geometric-mean ratios, lower is better):",
			p->x, p->y);
		for (size_t c = 0; c < r->n; c++)
			if (p->front[c])
				fprintf(out, "\n  %-*s %s %.3f  %s %.3f", label_width(r),
					r->configs[c].label, p->x, p->xv[c], p->y, p->yv[c]);
		fputc('\n', out);
	}
	if (r->built >= 0)
		fprintf(out, "\nbuilds in the last run: %d built, %d cached, %d failed\n", r->built,
			r->cached, r->failed);
	for (size_t i = 0; i < r->facts.n; i++)
		fprintf(out, "%s\n", r->facts.v[i]);
	char *same = rep_identical_text(r);
	if (*same)
		fprintf(out, "\nidentical builds (the same code: measured once, the runs shown "
			     "under both):\n%s", same);
	free(same);
	int mixed = 0;
	for (size_t c = 0; c < r->n; c++)
		if (r->configs[c].mixed)
			fprintf(out, "%s  %s: %s\n",
				mixed++ ? "" : "\nmixed verdicts (workloads significantly better and "
					       "worse: no summary says unchanged for them):\n",
				r->configs[c].label, r->configs[c].mixed);
	char *fragile = rep_fragile_text(r);
	if (*fragile)
		fprintf(out, "\nverdicts not settled (the bootstrap would change them with "
			     "probability > %g):\n%s", r->opt.settle_level, fragile);
	free(fragile);
	rep_machine_text(out, r);
}

const struct report_ops report_table = {
	.format = FORMAT_TABLE,
	.begin = table_begin,
	.config = table_config,
	.item = table_item,
	.end = table_end,
};

/* ---- csv ---- */

static void csv_begin(FILE *out, const struct ranking *r)
{
	(void)r;
	/* columns are only ever added at the end, so scripts keep working */
	fputs("study,metric,config_id,label,rank,config_ratio,config_lo,config_hi,config_status,"
	      "workload,n,median,ratio,lo,hi,status,detail,p,verdict,config_verdict,mad,mean,sd,"
	      "min,max,outliers,median_lo,median_hi,exact,note,untested,versus,p_change,settled,"
	      "identical_to,tie_within,complete,runs_done,runs_expected,layout_noise,"
	      "below_resolution\n",
	      out);
}

static void csv_item(FILE *out, const struct ranking *r, const struct rank_config *c,
		     const struct rank_item *it, size_t index)
{
	(void)index;
	rep_csv_field(out, r->study);
	fputc(',', out);
	rep_csv_field(out, r->metric);
	fprintf(out, ",%s,", c->id);
	rep_csv_field(out, c->label);
	fprintf(out, ",%d", c->rank);
	rep_csv_nums(out, 3, (double[]){c->ratio, c->lo, c->hi});
	fprintf(out, ",%s,", outcome_name(c->status));
	rep_csv_field(out, it->name);
	fprintf(out, ",%zu", it->s.n);
	rep_csv_nums(out, 4, (double[]){it->s.median, it->ratio, it->lo, it->hi});
	fprintf(out, ",%s,", outcome_name(it->status));
	rep_csv_field(out, it->detail ? it->detail : "");
	rep_csv_nums(out, 1, &it->p);
	fprintf(out, ",%s,%s", isnan(it->ratio) ? "" : verdict_name(it->verdict),
		isnan(c->ratio) ? "" : verdict_name(c->verdict));
	rep_csv_nums(out, 5, (double[]){it->s.mad, it->s.mean, it->s.sd, it->s.min, it->s.max});
	fprintf(out, ",%zu", it->s.outliers);
	rep_csv_nums(out, 2, (double[]){it->s.ci_lo, it->s.ci_hi});
	fprintf(out, ",%d,", it->exact);
	rep_csv_field(out, it->note);
	fprintf(out, ",%d,", it->untested);
	/* the configuration's rank verdict, as JSON's versus, p_change, settled */
	rep_csv_field(out, c->versus >= 0 ? r->configs[c->versus].label : "");
	rep_csv_nums(out, 1, &c->p_change);
	fprintf(out, ",%d,", !rank_config_fragile(r, c));
	/* whose runs this item reuses (the same code), as JSON's identical_to */
	int reused = c->identical_to && sl_find(&c->identical_on, it->name) >= 0;
	rep_csv_field(out, reused ? c->identical_to : "");
	/* a tie's band, as JSON's tie_within: empty when not a tie */
	rep_csv_nums(out, 1, &c->tie_within);
	/* the study's, on every row as JSON's complete: empty when unknown */
	if (r->progress.known)
		fprintf(out, ",%d,%ld,%ld", r->progress.complete, r->progress.done,
			r->progress.expected);
	else
		fputs(",,,", out);
	/* the calibrated floor the item is within, why it is unchanged (JSON's
	 * layout_noise): empty when that is not the reason */
	rep_csv_nums(out, 1, &it->layout_noise);
	/* the meter's resolution, when that is why it is unchanged (JSON's
	 * below_resolution): empty otherwise */
	rep_csv_nums(out, 1, (double[]){it->below_resolution ? r->resolution : NAN});
	fputc('\n', out);
}

const struct report_ops report_csv = {
	.format = FORMAT_CSV,
	.begin = csv_begin,
	.item = csv_item,
};
