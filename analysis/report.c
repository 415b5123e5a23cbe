/* report.c - see report.h: the walk, the list of formats, shared helpers */
#include "analysis/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/report_internal.h"
#include "analysis/sequential.h"
#include "flagsets/study.h"

static const struct report_ops *const formats[] = {
	&report_table,
	&report_csv,
	&report_json,
	&report_html,
};

const struct report_ops *report_format(const char *name)
{
	enum format f = format_parse(name);
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (formats[i]->format == f)
			return formats[i];
	return NULL;
}

format_set report_formats(struct strbuf *err)
{
	enum format list[ARRAY_SIZE(formats)];
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		list[i] = formats[i]->format;
	return format_family("report formats", list, ARRAY_SIZE(list), sizeof(list[0]), err);
}

void rep_json_num(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else
		fprintf(out, "%.6g", v);
}

void rep_json_str(FILE *out, const char *s)
{
	struct strbuf sb = {0};
	sb_add_json(&sb, s ? s : "");
	fputs(sb_str(&sb), out);
	sb_release(&sb);
}

void rep_json_key_str(FILE *out, const char *key, const char *v)
{
	fprintf(out, ",\"%s\":", key);
	rep_json_str(out, v);
}

void rep_json_key_str_or_null(FILE *out, const char *key, const char *v)
{
	if (v)
		rep_json_key_str(out, key, v);
	else
		fprintf(out, ",\"%s\":null", key);
}

void rep_json_key_num(FILE *out, const char *key, double v)
{
	fprintf(out, ",\"%s\":", key);
	rep_json_num(out, v);
}

void rep_csv_field(FILE *out, const char *s)
{
	fputc('"', out);
	for (; s && *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void rep_csv_nums(FILE *out, size_t n, const double *v)
{
	for (size_t i = 0; i < n; i++) {
		fputc(',', out);
		if (!isnan(v[i]))
			fprintf(out, "%.9g", v[i]);
	}
}

const char *rep_baseline_label(const struct ranking *r)
{
	return r->baseline >= 0 ? r->configs[r->baseline].label : "?";
}

int rep_any_untested(const struct ranking *r)
{
	for (size_t c = 0; c < r->n; c++)
		if (r->configs[c].untested)
			return 1;
	return 0;
}

/* repeat = stable's level for "apart" (rank.h "Settled"), one sentence */
static void rep_looks_text(struct strbuf *sb, const struct rank_options *o)
{
	sb_addf(sb, "\nrepeat = stable looked up to %d times: a verdict that ranks two apart is "
		    "settled ", o->looks);
	if (!seq_spending(o->rule, o->looks, o->max_repeat)) {
		sb_addf(sb, "once at most %.2g%% of the resamples say otherwise (%g%% / %d).",
			100 * o->settle_level / o->looks, 100 * o->settle_level, o->looks);
		return;
	}
	int first = o->max_repeat - o->looks + 1;
	sb_addf(sb, "at its look's level of %s alpha spending of %g%% (stable_rule): once at most "
		    "%.2g%% of the resamples say otherwise after %d runs, %.2g%% after %d.",
		o->rule == STABLE_POCOCK ? "Pocock-type" : "O'Brien-Fleming-type", 100 * o->settle_level,
		100 * seq_level(o->rule, o->settle_level, o->looks, o->max_repeat, (size_t)first), first,
		100 * seq_level(o->rule, o->settle_level, o->looks, o->max_repeat, (size_t)o->max_repeat),
		o->max_repeat);
}

/* The most layout variants an item was judged over (1: none). */
static size_t rep_layouts(const struct ranking *r)
{
	size_t most = 1;
	for (size_t c = 0; c < r->n; c++)
		for (size_t w = 0; w < r->configs[c].nitems; w++)
			if (r->configs[c].items[w].layouts > most)
				most = r->configs[c].items[w].layouts;
	return most;
}

char *rep_rule_text(const struct ranking *r)
{
	struct strbuf sb = {0};
	sb_addf(&sb, "metric %s%s%s", r->metric, *r->unit ? " in " : "", r->unit);
	if (r->scope)
		sb_addf(&sb, " of %s only (--metric %s)", r->scope, r->selector);
	sb_addf(&sb, ", %s is better; baseline %s.\n", r->higher_better ? "higher" : "lower",
		rep_baseline_label(r));
	if (str_starts_with(r->metric, "insns"))
		sb_addf(&sb, "%s: instructions counted by %s, not timed; "
			     "deterministic (one run is a measurement; equal counts are exact, no "
			     "interval).\n", r->metric, ranking_insns_counter(r));
	else if (r->deterministic)
		sb_add(&sb, "A deterministic metric: one value is a measurement, equal values are "
			    "exact (no interval).\n");
	else if (results_metric_caveat(r->metric))
		sb_addf(&sb, "%s.\n", results_metric_caveat(r->metric));
	sb_addf(&sb, "Ratio = median / baseline median; per configuration the geometric mean "
		     "over the workloads; intervals %g%% bootstrap.\nSignificant: Mann-Whitney "
		     "p < %g and |ratio - 1| >= %g%%; a configuration not significantly "
		     "different from the best of its group shares its rank.\nA configuration is "
		     "improved when its interval is clear of 1 by that effect, some workload is "
		     "significantly better and none worse; mixed when some are better and "
		     "others worse.",
		100 * (1 - r->opt.alpha), r->opt.alpha, 100 * r->opt.min_effect);
	if (rep_layouts(r) > 1)
		sb_addf(&sb, "\nLayouts: each configuration built %zu times at other code addresses "
			     "(layouts, doc/layout.md): a workload's ratio is of the mean of its "
			     "layouts' medians, its interval from a nested bootstrap (layouts, then "
			     "runs); it is significant when Welch's t test on the logs of the "
			     "layouts' medians gives p < %g, not Mann-Whitney.", rep_layouts(r),
			r->opt.alpha);
	if (r->floors.n)
		sb_addf(&sb, "\nMinimum effect: this machine's calibrated floor per workload "
			     "(flagscope calibrate; %s), %g%% where it has none; a workload "
			     "within it is \"within layout noise\".", r->floors.label ? r->floors.label : "",
			100 * r->opt.min_effect);
	else if (r->opt.min_effect_auto && !r->deterministic)
		sb_addf(&sb, "\nNo calibration of this machine was found: the minimum effect is "
			     "the fixed %g%% (flagscope calibrate measures one).", 100 * r->opt.min_effect);
	if (rep_any_untested(r) && !results_metric_caveat(r->metric))
		sb_add(&sb, "\nOne run of a noisy metric is not tested: its ratio is shown, never "
			    "significant (use repeat >= 2).");
	if (rank_tie_band(r) > r->opt.min_effect)
		sb_addf(&sb, "\nTie margin %g%%: a tie is settled once %g%% of the resamples put the "
			     "two within %g%% of each other (tie_margin).",
			100 * rank_tie_band(r), 100 * (1 - r->opt.settle_level), 100 * rank_tie_band(r));
	if (r->opt.looks > 1)
		rep_looks_text(&sb, &r->opt);
	if (r->noisy_target > 0)
		sb_addf(&sb, "\nrepeat = auto: an interval wider than +-%g%% of its median is "
			     "noisy (shown, not ranked).", 100 * r->noisy_target);
	return sb_detach(&sb);
}

char *rep_left_out_text(const struct ranking *r)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < r->nleft_out; i++)
		sb_addf(&sb, "%s: %s\n", r->left_out[i].name, r->left_out[i].why);
	return sb_detach(&sb);
}

char *rep_fragile_text(const struct ranking *r)
{
	struct strbuf sb = {0};
	for (size_t c = 0; c < r->n; c++) {
		char *line = rank_config_fragility(r, &r->configs[c]);
		if (line)
			sb_addf(&sb, "%s\n", line);
		free(line);
	}
	return sb_detach(&sb);
}

char *rep_identical_text(const struct ranking *r)
{
	struct strbuf sb = {0};
	for (size_t c = 0; c < r->n; c++) {
		const struct rank_config *rc = &r->configs[c];
		if (!rc->identical_to)
			continue;
		sb_addf(&sb, "%s: identical to %s (", rc->label, rc->identical_to);
		for (size_t i = 0; i < rc->identical_on.n; i++)
			sb_addf(&sb, "%s%s", i ? ", " : "", rc->identical_on.v[i]);
		sb_add(&sb, ")\n");
	}
	return sb_detach(&sb);
}

void rep_item_ci(char *buf, size_t n, const struct rank_item *it)
{
	if (it->untested)
		snprintf(buf, n, "one run: not tested");
	else if (isnan(it->lo))
		snprintf(buf, n, "-");
	else if (it->exact)
		snprintf(buf, n, "exact");
	else
		snprintf(buf, n, "[%.3f, %.3f]", it->lo, it->hi);
}

void rep_config_ci(char *buf, size_t n, const struct rank_config *c)
{
	if (c->untested && !isnan(c->ratio))
		snprintf(buf, n, "not tested");
	else if (isnan(c->lo))
		snprintf(buf, n, "-");
	else if (c->lo == c->hi)
		snprintf(buf, n, "exact");
	else
		snprintf(buf, n, "[%.3f, %.3f]", c->lo, c->hi);
}

int report_colour(FILE *out)
{
	const char *no = getenv("NO_COLOR");
	const char *term = getenv("TERM");
	return isatty(fileno(out)) && !(no && *no) && !(term && !strcmp(term, "dumb"));
}

const char *report_verdict_colour(enum verdict v)
{
	return v == VERDICT_IMPROVED ? "\033[32m" : v == VERDICT_REGRESSED ? "\033[31m"
		: v == VERDICT_MIXED ? "\033[33m" : "";
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

size_t *report_order(const struct ranking *r)
{
	size_t *order = xcalloc(r->n ? r->n : 1, sizeof(size_t));
	for (size_t i = 0; i < r->n; i++)
		order[i] = i;
	sort_ranking = r;
	qsort(order, r->n, sizeof(size_t), by_rank);
	return order;
}

void report_print(FILE *out, const struct ranking *r, const struct report_ops *ops)
{
	size_t *order = report_order(r);
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
