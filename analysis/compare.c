/* compare.c - see compare.h */
#include "analysis/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/results.h"
#include "analysis/verdict.h"
#include "analysis/verdict_item.h"
#include "flagsets/matrix.h"

/* The union of both sides' items, sorted, without repeats. */
static void union_items(const struct verdict_side *a, const struct verdict_side *b,
			struct strlist *workloads, struct strlist *runs)
{
	struct strlist w[2] = {{0}}, r[2] = {{0}};
	results_items(a->st, a->study, &w[0], &r[0]);
	results_items(b->st, b->study, &w[1], &r[1]);
	size_t i = 0, j = 0;
	while (i < w[0].n || j < w[1].n) {
		int cmp = i >= w[0].n ? 1 : j >= w[1].n ? -1 : strcmp(w[0].v[i], w[1].v[j]);
		if (!cmp)
			cmp = strcmp(r[0].v[i], r[1].v[j]);
		int take_a = cmp <= 0;
		sl_push(workloads, take_a ? w[0].v[i] : w[1].v[j]);
		sl_push(runs, take_a ? r[0].v[i] : r[1].v[j]);
		i += cmp <= 0;
		j += cmp >= 0;
	}
	for (int k = 0; k < 2; k++) {
		sl_release(&w[k]);
		sl_release(&r[k]);
	}
}

/* The verdict of an item whose outcome is not ok on some side. */
static void judge_outcomes(struct compare_line *l, const char *old_detail,
			   const char *new_detail, size_t nold, size_t nnew)
{
	int old_ok = l->old_status == OUTCOME_OK, new_ok = l->new_status == OUTCOME_OK;
	if (old_ok && (l->new_status == OUTCOME_UNSUPPORTED ||
		       l->new_status == OUTCOME_UNSUPPORTED_FLAG)) {
		l->unsupported = 1;
		l->detail = xasprintf("new: %s: %s", outcome_name(l->new_status), new_detail);
	} else if (old_ok && !new_ok) {
		l->verdict = VERDICT_REGRESSED;
		l->detail = xasprintf("new: %s: %s", outcome_name(l->new_status), new_detail);
	} else if (!old_ok && new_ok) {
		l->verdict = VERDICT_IMPROVED;
		l->detail = xasprintf("works now; old: %s: %s", outcome_name(l->old_status),
				      old_detail);
	} else if (!old_ok) {
		l->incomplete = 1;
		l->detail = xasprintf("fails on both sides: %s / %s", outcome_name(l->old_status),
				      outcome_name(l->new_status));
	} else {
		l->incomplete = 1;
		l->detail = xasprintf("no samples of %s on the %s side", l->metric,
				      !nold && !nnew ? "either" : !nold ? "old" : "new");
	}
}

/* Record an item without samples of the metric on either side once. */
static void note_skipped(struct compare_result *res, const char *item, const char *metric)
{
	char *line = xasprintf("%s: no samples of %s on either side", item, metric);
	if (sl_find(&res->skipped, line) < 0)
		sl_push_owned(&res->skipped, line);
	else
		free(line);
}

/* The parts of one configuration's summary in one metric as its lines
 * are added: the samples the parts point into are kept here. */
struct summary_acc {
	const char *metric;
	struct verdict_rule rule;
	struct verdict_parts parts;
	void **keep; /* the parts' samples and layouts */
	char **names;
	size_t nkeep, items;
	int all;          /* every line so far is a measured comparison */
	char *last_build; /* a build property counts once per workload */
	struct calib_floors floors; /* --min-effect auto: the new side's machine's */
	double effects;   /* the parts' min_effects: the summary's is their mean */
	char *resolution; /* the meter's resolution for a reader, or NULL */
};

static void acc_init(struct summary_acc *acc, const struct verdict_side *old,
		     const struct verdict_side *new, const struct rank_options *o,
		     const char *metric, size_t cap)
{
	*acc = (struct summary_acc){
		.metric = metric, .all = 1,
		.keep = xcalloc(4 * cap + 1, sizeof(void *)),
		.names = xcalloc(cap + 1, sizeof(char *)),
	};
	/* the floors are the new side's machine's */
	verdict_rule_load(o, new->st, new->study, metric, &acc->rule, &acc->floors);
	/* two studies, maybe two machines: the coarser meter decides */
	char *old_text = NULL;
	double qo = results_metric_resolution(old->st, old->study, metric, &old_text);
	acc->rule.resolution = results_metric_resolution(new->st, new->study, metric,
							 &acc->resolution);
	if (qo > acc->rule.resolution) {
		acc->rule.resolution = qo;
		free(acc->resolution);
		acc->resolution = old_text;
	} else {
		free(old_text);
	}
	verdict_parts_init(&acc->parts, cap);
}

/* A measured line's samples become a part (the acc keeps them). */
static void acc_add(struct summary_acc *acc, const struct compare_line *l, const char *workload,
		    int from_build, struct sample_pair *pair)
{
	acc->items++;
	if (from_build && acc->last_build && !strcmp(acc->last_build, workload))
		return;
	free(acc->last_build);
	acc->last_build = from_build ? xstrdup(workload) : NULL;
	acc->names[acc->parts.n] = xstrdup(l->item);
	acc->keep[acc->nkeep++] = (void *)pair->cand;
	acc->keep[acc->nkeep++] = (void *)pair->base;
	acc->keep[acc->nkeep++] = (void *)pair->cand_layout;
	acc->keep[acc->nkeep++] = (void *)pair->base_layout;
	verdict_parts_add(&acc->parts, *pair, acc->names[acc->parts.n], &l->c);
	memset(pair, 0, sizeof(*pair));
}

/* The summary of acc's lines (analysis/verdict.h), into res. */
static void acc_finish(struct compare_result *res, const char *label, struct summary_acc *acc)
{
	if (acc->items) {
		res->sum = xrealloc(res->sum, (res->nsum + 1) * sizeof(*res->sum));
		struct compare_summary *s = &res->sum[res->nsum++];
		*s = (struct compare_summary){.config = xstrdup(label), .metric = xstrdup(acc->metric),
					      .items = acc->items, .complete = acc->all};
		if (acc->parts.n)
			acc->rule.min_effect = acc->effects / (double)acc->parts.n;
		if (acc->all && acc->parts.n)
			verdict_summarise(&acc->rule, &acc->parts, &s->s);
		else
			s->s = (struct verdict_summary){.ratio = NAN, .lo = NAN, .hi = NAN};
	}
	for (size_t i = 0; i < acc->nkeep; i++)
		free(acc->keep[i]);
	for (size_t i = 0; i < acc->parts.n; i++)
		free(acc->names[i]);
	free(acc->keep);
	free(acc->names);
	free(acc->last_build);
	calib_floors_release(&acc->floors);
	free(acc->resolution);
	verdict_parts_release(&acc->parts);
}

static void add_line(struct compare_result *res, const struct verdict_side *old,
		     const struct verdict_side *new, const char *label, const char *workload,
		     const char *run, struct summary_acc *acc)
{
	const char *metric = acc->metric;
	char *od, *nd;
	enum outcome os = results_status(old->st, old->study, old->config_id, workload, run, &od);
	enum outcome ns = results_status(new->st, new->study, new->config_id, workload, run, &nd);
	/* the pair as every command judges it (analysis/verdict_item.h): the
	 * rank table's verdict, ratio and interval */
	struct verdict_item it;
	verdict_item_judge(&acc->rule, new, old, workload, run, metric, &it);
	struct sample_pair *pair = &it.pair;
	size_t no = pair->nbase, nn = pair->ncand;
	char *item = *run ? xasprintf("%s/%s", workload, run) : xstrdup(workload);
	if (os == OUTCOME_OK && ns == OUTCOME_OK && !no && !nn) {
		/* the metric is not measured on this item (lame has no
		 * iterations_per_sec): nothing to compare, nothing wrong */
		note_skipped(res, item, metric);
		free(item);
		verdict_item_release(&it);
		free(od);
		free(nd);
		return;
	}
	res->v = xrealloc(res->v, (res->n + 1) * sizeof(*res->v));
	struct compare_line *l = &res->v[res->n++];
	memset(l, 0, sizeof(*l));
	l->config = xstrdup(label);
	l->item = item;
	l->metric = xstrdup(metric);
	l->unit = results_metric_unit(new->st, new->study, metric);
	l->c = (struct comparison){.ratio = NAN, .lo = NAN, .hi = NAN, .p = NAN};
	l->old_status = os;
	l->new_status = ns;
	l->old_median = no ? stats_median(pair->base, no) : NAN;
	l->new_median = nn ? stats_median(pair->cand, nn) : NAN;
	if (l->old_status == OUTCOME_OK && l->new_status == OUTCOME_OK && no && nn) {
		l->c = it.c;
		l->verdict = l->c.verdict;
		l->incomplete = l->c.error != 0;
		l->detail = l->c.error	      ? xstrdup("the ratio is undefined (a zero median)")
			    : l->c.untested   ? xstrdup("one run on a side: not tested")
			    : l->c.below_resolution
				? xasprintf("below the meter's resolution (%s)", acc->resolution)
			    : !isnan(it.floor) ? xasprintf("within layout noise (\u00b1%.1f%%)", 100 * it.floor)
					      : xstrdup("");
		size_t had = acc->parts.n;
		if (!l->incomplete)
			acc_add(acc, l, workload, it.from_build, pair);
		acc->effects += acc->parts.n > had ? it.rule.min_effect : 0;
	} else {
		l->c.na = nn;
		l->c.nb = no;
		judge_outcomes(l, od, nd, no, nn);
	}
	if (l->incomplete || l->unsupported || l->old_status != OUTCOME_OK ||
	    l->new_status != OUTCOME_OK) {
		acc->items++;
		acc->all = 0;
	}
	res->improved += l->verdict == VERDICT_IMPROVED;
	res->regressed += l->verdict == VERDICT_REGRESSED;
	res->incomplete += l->incomplete;
	res->unsupported += l->unsupported;
	res->unchanged += l->verdict == VERDICT_UNCHANGED && !l->incomplete && !l->unsupported;
	verdict_item_release(&it);
	free(od);
	free(nd);
}

static void compare_configs_opts(struct compare_result *res, const struct rank_options *o)
{
	if (o)
		res->opt = *o;
	else if (!res->opt.iters)
		rank_options_default(&res->opt);
}

void compare_configs(const struct verdict_side *old, const struct verdict_side *new,
		     const char *label, const struct result_select *sel, size_t nsel,
		     const struct rank_options *o, struct compare_result *res)
{
	struct strlist workloads = {0}, runs = {0};
	compare_configs_opts(res, o);
	union_items(old, new, &workloads, &runs);
	struct summary_acc *acc = xcalloc(nsel + 1, sizeof(*acc));
	for (size_t m = 0; m < nsel; m++)
		acc_init(&acc[m], old, new, &res->opt, sel[m].metric, workloads.n);
	for (size_t i = 0; i < workloads.n; i++)
		for (size_t m = 0; m < nsel; m++)
			if (results_select_match(&sel[m], workloads.v[i], runs.v[i]))
				add_line(res, old, new, label, workloads.v[i], runs.v[i], &acc[m]);
	for (size_t m = 0; m < nsel; m++)
		acc_finish(res, label, &acc[m]);
	free(acc);
	sl_release(&workloads);
	sl_release(&runs);
}

/* Resolve the selectors against the new side, else the old (an item may
 * be stored on one side only).  NULL with err when one names nothing. */
static struct result_select *resolve(const struct verdict_side *old,
				     const struct verdict_side *new, const struct strlist *given,
				     size_t *nsel, struct strbuf *err)
{
	size_t n = given && given->n ? given->n : 1;
	struct result_select *sel = xcalloc(n, sizeof(*sel));
	for (size_t i = 0; i < n; i++) {
		const char *text = given && given->n ? given->v[i] : NULL;
		struct strbuf e1 = {0}, e2 = {0};
		int bad = results_select(new->st, new->study, text, NULL, &sel[i], &e1);
		if (bad) {
			results_select_release(&sel[i]);
			bad = results_select(old->st, old->study, text, NULL, &sel[i], &e2);
		}
		if (bad)
			sb_addf(err, "%s: %s (see flagscope compare --help: --metric)", new->st->path,
				sb_str(&e1));
		sb_release(&e1);
		sb_release(&e2);
		if (bad) {
			for (size_t k = 0; k <= i; k++)
				results_select_release(&sel[k]);
			free(sel);
			return NULL;
		}
	}
	*nsel = n;
	return sel;
}

static void release_selects(struct result_select *sel, size_t n)
{
	for (size_t i = 0; i < n; i++)
		results_select_release(&sel[i]);
	free(sel);
}

/* Keys of the machine state that differ between runs of an unchanged
 * machine: not listed as differences. */
static const char *const machine_changing[] = {"load.before", "load.max", "load.after",
					       "started", "finished"};

void compare_machine(struct store *old, const char *old_study, struct store *new,
		     const char *new_study, struct strlist *out)
{
	struct strlist ok = {0}, ov = {0}, nk = {0}, nv = {0};
	store_get_machine(old, old_study, &ok, &ov);
	store_get_machine(new, new_study, &nk, &nv);
	for (size_t i = 0; i < nk.n; i++) {
		int skip = 0;
		for (size_t c = 0; c < ARRAY_SIZE(machine_changing); c++)
			skip |= !strcmp(nk.v[i], machine_changing[c]);
		int k = sl_find(&ok, nk.v[i]);
		const char *was = k < 0 ? "not recorded" : ov.v[k];
		if (!skip && strcmp(was, nv.v[i]))
			sl_push_owned(out, xasprintf("%s: %s -> %s", nk.v[i], was, nv.v[i]));
	}
	if (!ok.n && nk.n)
		sl_push(out, "machine state: not recorded on the old side");
	sl_release(&ok);
	sl_release(&ov);
	sl_release(&nk);
	sl_release(&nv);
}

int compare_studies(struct store *old, const char *old_study, struct store *new,
		    const char *new_study, const struct strlist *metrics,
		    const struct rank_options *o, struct compare_result *res, struct strbuf *err)
{
	memset(res, 0, sizeof(*res));
	compare_configs_opts(res, o);
	int same = old == new;
	res->old_name = same ? xstrdup(old_study) : xstrdup(old->path);
	res->new_name = same ? xstrdup(new_study) : xstrdup(new->path);
	res->study = xstrdup(new_study);
	struct result_progress po;
	results_progress(new, new_study, &res->progress);
	results_progress(old, old_study, &po);
	res->progress.complete &= !po.known || po.complete; /* either side partial: partial */
	size_t no, nn;
	struct result_config *co = results_configs(old, old_study, &no);
	struct result_config *cn = results_configs(new, new_study, &nn);
	struct verdict_side so = {old, old_study, NULL}, sn = {new, new_study, NULL};
	size_t nsel = 0;
	struct result_select *sel = no && nn ? resolve(&so, &sn, metrics, &nsel, err) : NULL;
	int paired = 0;
	compare_machine(old, old_study, new, new_study, &res->machine);
	for (size_t i = 0; sel && i < nn; i++) {
		int k = results_find_label(co, no, cn[i].label);
		if (k < 0)
			continue;
		struct verdict_side a = {old, old_study, co[k].id}, b = {new, new_study, cn[i].id};
		compare_configs(&a, &b, cn[i].label, sel, nsel, o, res);
		paired++;
	}
	if (!no || !nn)
		sb_addf(err, "%s: no study '%s' in this database (name the study both hold with "
			     "--study)", !no ? old->path : new->path, !no ? old_study : new_study);
	else if (sel && !paired)
		sb_addf(err, "%s and %s: no configuration label is in both (compare the same "
			     "study file run twice)", res->old_name, res->new_name);
	result_configs_free(co, no);
	result_configs_free(cn, nn);
	release_selects(sel, nsel);
	return paired ? 0 : -1;
}

int compare_databases(struct store *old, struct store *new, const char *study,
		      const struct strlist *metrics, const struct rank_options *o,
		      struct compare_result *res, struct strbuf *err)
{
	return compare_studies(old, study, new, study, metrics, o, res, err);
}

int compare_find_config(const struct result_config *c, size_t n, const char *levels,
			struct strbuf *err)
{
	const char **labels = xcalloc(n ? n : 1, sizeof(*labels));
	for (size_t i = 0; i < n; i++)
		labels[i] = c[i].label;
	int i = config_label_find(labels, n, levels, err);
	free(labels);
	return i;
}

int compare_labels(struct store *st, const char *study, const char *old_label,
		   const char *new_label, const struct strlist *metrics,
		   const struct rank_options *o, struct compare_result *res, struct strbuf *err)
{
	memset(res, 0, sizeof(*res));
	compare_configs_opts(res, o);
	res->study = xstrdup(study);
	results_progress(st, study, &res->progress);
	size_t n;
	struct result_config *c = results_configs(st, study, &n);
	struct strbuf why = {0};
	int a = compare_find_config(c, n, old_label, &why), b = -1;
	if (a >= 0)
		b = compare_find_config(c, n, new_label, &why);
	int rc = -1;
	if (!n) {
		sb_addf(err, "%s: no study '%s' in this database (name it with --study)", st->path,
			study);
	} else if (a < 0 || b < 0) {
		sb_addf(err, "%s: study '%s': %s: %s", st->path, study,
			a < 0 ? "--baseline" : "--candidate", sb_str(&why));
	} else {
		res->old_name = xstrdup(c[a].label);
		res->new_name = xstrdup(c[b].label);
		struct verdict_side sa = {st, study, c[a].id}, sb = {st, study, c[b].id};
		size_t nsel = 0;
		struct result_select *sel = resolve(&sa, &sb, metrics, &nsel, err);
		if (sel) {
			char *label = xasprintf("%s -> %s", c[a].label, c[b].label);
			compare_configs(&sa, &sb, label, sel, nsel, o, res);
			free(label);
			release_selects(sel, nsel);
			rc = 0;
		}
	}
	sb_release(&why);
	result_configs_free(c, n);
	return rc;
}

void compare_result_release(struct compare_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		free(res->v[i].config);
		free(res->v[i].item);
		free(res->v[i].metric);
		free(res->v[i].unit);
		free(res->v[i].detail);
	}
	free(res->v);
	for (size_t i = 0; i < res->nsum; i++) {
		free(res->sum[i].config);
		free(res->sum[i].metric);
		free(res->sum[i].s.mixed);
	}
	free(res->sum);
	sl_release(&res->skipped);
	sl_release(&res->machine);
	free(res->old_name);
	free(res->new_name);
	free(res->study);
	memset(res, 0, sizeof(*res));
}

/* ---- printing: one walk, a format's functions plugged in ---- */

struct compare_format {
	enum format format;
	void (*begin)(FILE *out, const struct compare_result *res);
	void (*line)(FILE *out, const struct compare_result *res, const struct compare_line *l,
		     size_t index);
	void (*end)(FILE *out, const struct compare_result *res);
};

/* An incomplete line is counted as not comparable, so it is not shown
 * as UNCHANGED either (JSON: comparable false). */
static const char *line_verdict(const struct compare_line *l)
{
	return l->unsupported			 ? "UNSUPPORTED"
	       : l->verdict == VERDICT_IMPROVED	 ? "IMPROVED"
	       : l->verdict == VERDICT_REGRESSED ? "REGRESSED"
	       : l->incomplete			 ? "N/A"
						 : "UNCHANGED";
}

/* a median, "-" when there is none */
static const char *median_text(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.6g", v);
	return buf;
}

/* The widths of the configuration, workload and metric columns: the
 * defaults, or the longest name's */
struct col_widths {
	int config, item, metric;
};

static struct col_widths table_widths(const struct compare_result *res)
{
	struct col_widths w = {24, 16, 10};
	for (size_t i = 0; i < res->n; i++) {
		const struct compare_line *l = &res->v[i];
		w.config = (int)strlen(l->config) > w.config ? (int)strlen(l->config) : w.config;
		w.item = (int)strlen(l->item) > w.item ? (int)strlen(l->item) : w.item;
		w.metric = (int)strlen(l->metric) > w.metric ? (int)strlen(l->metric) : w.metric;
	}
	return w;
}

static void table_begin(FILE *out, const struct compare_result *res)
{
	fprintf(out, "compare study %s: old %s, new %s; ratio = new median / old median, "
		     "%g%% interval;\nsignificant: Mann-Whitney p < %g and |ratio - 1| >= %g%%\n\n",
		res->study, res->old_name, res->new_name, 100 * (1 - res->opt.alpha),
		res->opt.alpha, 100 * res->opt.min_effect);
	/* first: a governor change explains more regressions than a compiler */
	if (res->machine.n)
		fputs("machine differences (old -> new):\n", out);
	for (size_t i = 0; i < res->machine.n; i++)
		fprintf(out, "  %s\n", res->machine.v[i]);
	if (res->machine.n)
		fputc('\n', out);
	struct col_widths w = table_widths(res);
	fprintf(out, "%-11s %-*s %-*s %-*s %-7s %-17s %-8s %-9s %s\n", "verdict", w.config,
		"configuration", w.item, "workload", w.metric, "metric", "ratio", "interval", "p",
		"n old/new", "medians old -> new");
}

static void table_line(FILE *out, const struct compare_result *res, const struct compare_line *l,
		       size_t index)
{
	(void)index;
	char ratio[32] = "-", ci[48] = "-", p[24] = "-", n[32], mo[32], mn[32];
	struct col_widths w = table_widths(res);
	if (!isnan(l->c.ratio) && !l->incomplete) {
		snprintf(ratio, sizeof(ratio), "%.3f", l->c.ratio);
		if (l->c.untested)
			snprintf(ci, sizeof(ci), "not tested");
		else if (l->c.exact)
			snprintf(ci, sizeof(ci), "exact");
		else
			snprintf(ci, sizeof(ci), "[%.3f, %.3f]", l->c.lo, l->c.hi);
		if (!l->c.untested)
			snprintf(p, sizeof(p), "%.3g", l->c.p);
	}
	snprintf(n, sizeof(n), "%zu/%zu", l->c.nb, l->c.na);
	int colour = l->verdict != VERDICT_UNCHANGED && report_colour(out);
	fprintf(out, "%s%-11s%s %-*s %-*s %-*s %-7s %-17s %-8s %-9s %s -> %s %s", colour
		? report_verdict_colour(l->verdict) : "", line_verdict(l), colour ? REPORT_COLOUR_END
		: "", w.config, l->config, w.item, l->item, w.metric, l->metric, ratio, ci, p, n,
		median_text(mo, sizeof(mo), l->old_median), median_text(mn, sizeof(mn), l->new_median),
		l->unit);
	if (l->detail && *l->detail)
		fprintf(out, "  (%s)", l->detail);
	fputc('\n', out);
}

/* A summary's verdict word, as a line's */
static const char *summary_verdict(const struct compare_summary *s)
{
	if (!s->complete)
		return "N/A";
	return s->s.verdict == VERDICT_IMPROVED	   ? "IMPROVED"
	       : s->s.verdict == VERDICT_REGRESSED ? "REGRESSED"
	       : s->s.verdict == VERDICT_MIXED	   ? "MIXED"
						   : "UNCHANGED";
}

static void table_summaries(FILE *out, const struct compare_result *res)
{
	if (res->nsum)
		fputs("\nsummary (geometric mean over the workloads; improved only with some "
		      "workload better and none worse, mixed with both):\n", out);
	for (size_t i = 0; i < res->nsum; i++) {
		const struct compare_summary *s = &res->sum[i];
		fprintf(out, "  %-9s %s %s", summary_verdict(s), s->config, s->metric);
		if (!s->complete)
			fprintf(out, "  (not every workload was compared on both sides)\n");
		else if (isnan(s->s.lo))
			fprintf(out, "  %.3f (not tested)\n", s->s.ratio);
		else
			fprintf(out, "  %.3f [%.3f, %.3f]%s%s\n", s->s.ratio, s->s.lo, s->s.hi,
				s->s.mixed ? "  " : "", s->s.mixed ? s->s.mixed : "");
	}
}

static void table_end(FILE *out, const struct compare_result *res)
{
	table_summaries(out, res);
	if (res->skipped.n)
		fputs("\nskipped (the metric is not measured there):\n", out);
	for (size_t i = 0; i < res->skipped.n; i++)
		fprintf(out, "  %s\n", res->skipped.v[i]);
	fprintf(out, "\n%zu regressed, %zu improved, %zu unchanged, %zu not comparable, "
		     "%zu unsupported now\n",
		res->regressed, res->improved, res->unchanged, res->incomplete, res->unsupported);
}

static void json_num(FILE *out, const char *key, double v)
{
	fprintf(out, ",\"%s\":", key);
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

static void json_str(FILE *out, const char *key, const char *s)
{
	struct strbuf sb = {0};
	sb_add_json(&sb, s ? s : "");
	fprintf(out, ",\"%s\":%s", key, sb_str(&sb));
	sb_release(&sb);
}

/* the strings of l as JSON, comma-separated */
static void json_strings(FILE *out, const struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct strbuf sb = {0};
		sb_add_json(&sb, l->v[i]);
		fprintf(out, "%s%s", i ? "," : "", sb_str(&sb));
		sb_release(&sb);
	}
}

static void json_begin(FILE *out, const struct compare_result *res)
{
	fputs("{\"format\":\"flagscope-compare\"", out);
	json_str(out, "study", res->study);
	results_progress_json(out, &res->progress);
	json_str(out, "old", res->old_name);
	json_str(out, "new", res->new_name);
	json_num(out, "alpha", res->opt.alpha);
	json_num(out, "min_effect", res->opt.min_effect);
	fputs(",\"machine_differences\":[", out);
	json_strings(out, &res->machine);
	fputs("],\"lines\":[", out);
}

static void json_line(FILE *out, const struct compare_result *res, const struct compare_line *l,
		      size_t index)
{
	(void)res;
	fprintf(out, "%s{\"verdict\":\"%s\"", index ? "," : "",
		l->unsupported ? "unsupported" : l->incomplete ? "n/a" : verdict_name(l->verdict));
	json_str(out, "config", l->config);
	json_str(out, "workload", l->item);
	json_str(out, "metric", l->metric);
	json_str(out, "unit", l->unit);
	json_num(out, "ratio", l->incomplete ? NAN : l->c.ratio);
	fputs(",\"ci\":[", out);
	fprintf(out, isfinite(l->c.lo) && !l->incomplete ? "%.6g" : "null", l->c.lo);
	fputc(',', out);
	fprintf(out, isfinite(l->c.hi) && !l->incomplete ? "%.6g" : "null", l->c.hi);
	fputc(']', out);
	json_num(out, "p", l->incomplete ? NAN : l->c.p);
	fprintf(out, ",\"n_old\":%zu,\"n_new\":%zu,\"exact\":%s,\"comparable\":%s", l->c.nb,
		l->c.na, l->c.exact ? "true" : "false",
		l->incomplete || l->unsupported ? "false" : "true");
	fprintf(out, ",\"untested\":%s", l->c.untested ? "true" : "false");
	json_num(out, "median_old", l->old_median);
	json_num(out, "median_new", l->new_median);
	fprintf(out, ",\"status_old\":\"%s\",\"status_new\":\"%s\"", outcome_name(l->old_status),
		outcome_name(l->new_status));
	json_str(out, "detail", l->detail);
	fputc('}', out);
}

static void json_end(FILE *out, const struct compare_result *res)
{
	fputs("],\"skipped\":[", out);
	json_strings(out, &res->skipped);
	fprintf(out, "],\"regressed\":%zu,\"unsupported\":%zu,\"improved\":%zu,"
		     "\"unchanged\":%zu,\"not_comparable\":%zu",
		res->regressed, res->unsupported, res->improved, res->unchanged, res->incomplete);
	fputs(",\"summaries\":[", out);
	for (size_t i = 0; i < res->nsum; i++) {
		const struct compare_summary *s = &res->sum[i];
		fprintf(out, "%s{\"verdict\":\"%s\"", i ? "," : "",
			s->complete ? verdict_name(s->s.verdict) : "n/a");
		json_str(out, "config", s->config);
		json_str(out, "metric", s->metric);
		json_num(out, "ratio", s->s.ratio);
		json_num(out, "lo", s->s.lo);
		json_num(out, "hi", s->s.hi);
		fprintf(out, ",\"items\":%zu,\"complete\":%s", s->items,
			s->complete ? "true" : "false");
		fputs(",\"mixed\":", out);
		if (s->s.mixed) {
			struct strbuf sb = {0};
			sb_add_json(&sb, s->s.mixed);
			fputs(sb_str(&sb), out);
			sb_release(&sb);
		} else {
			fputs("null", out);
		}
		fputc('}', out);
	}
	fputs("]}\n", out);
}

static const struct compare_format formats[] = {
	{.format = FORMAT_TABLE, .begin = table_begin, .line = table_line, .end = table_end},
	{.format = FORMAT_JSON, .begin = json_begin, .line = json_line, .end = json_end},
};

format_set compare_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("compare formats", formats, err);
}

int compare_print(FILE *out, const struct compare_result *res, const char *format)
{
	const struct compare_format *w = FORMAT_WRITER(formats, format);
	if (!w)
		return -1;
	w->begin(out, res);
	for (size_t i = 0; i < res->n; i++)
		w->line(out, res, &res->v[i], i);
	w->end(out, res);
	return 0;
}
