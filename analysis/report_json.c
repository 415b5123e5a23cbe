/* report_json.c - the JSON format (see report.h).  The keys of issue 2
 * (configs[].{label,id,rank,ratio,ci,status,workloads[].{name,n,median,
 * ratio,ci,status}}, builds) never change; new keys are only added. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_internal.h"
#include "flagsets/study.h"

static void json_begin(FILE *out, const struct ranking *r)
{
	fputs("{\"study\":", out);
	rep_json_str(out, r->study);
	results_progress_json(out, &r->progress);
	fputs(",\"metric\":", out);
	rep_json_str(out, r->metric);
	fputs(",\"unit\":", out);
	rep_json_str(out, r->unit);
	fprintf(out, ",\"higher_better\":%s,\"alpha\":", r->higher_better ? "true" : "false");
	rep_json_num(out, r->opt.alpha);
	fputs(",\"min_effect\":", out);
	rep_json_num(out, r->opt.min_effect);
	/* --min-effect auto: each item's calibrated floor (min_effect where none) */
	fputs(",\"min_effect_floors\":{", out);
	for (size_t i = 0; i < r->floors.n; i++) {
		fputs(i ? "," : "", out);
		rep_json_str(out, r->floors.items.v[i]);
		fputc(':', out);
		rep_json_num(out, r->floors.floor[i]);
	}
	fputc('}', out);
	rep_json_key_num(out, "tie_margin", rank_tie_band(r));
	rep_json_key_str_or_null(out, "stable_rule", r->opt.looks > 1 ? stable_rule_name(r->opt.rule) : NULL);
	fputs(",\"noisy_target\":", out);
	rep_json_num(out, r->noisy_target > 0 ? r->noisy_target : NAN);
	fputs(",\"baseline\":", out);
	rep_json_str(out, rep_baseline_label(r));
	fputs(",\"selector\":", out);
	rep_json_str(out, r->selector);
	fputs(",\"scope\":", out);
	if (r->scope)
		rep_json_str(out, r->scope);
	else
		fputs("null", out);
	fprintf(out, ",\"deterministic\":%s", r->deterministic ? "true" : "false");
	/* the meter's smallest step (verdict.h); null: exact or not known */
	rep_json_key_num(out, "resolution", r->resolution > 0 ? r->resolution : NAN);
	fputs(",\"rule\":", out);
	char *rule = rep_rule_text(r);
	rep_json_str(out, rule);
	free(rule);
	fputs(",\"left_out\":[", out);
	for (size_t i = 0; i < r->nleft_out; i++) {
		fprintf(out, "%s{\"name\":", i ? "," : "");
		rep_json_str(out, r->left_out[i].name);
		fprintf(out, ",\"status\":\"%s\",\"why\":", outcome_name(r->left_out[i].status));
		rep_json_str(out, r->left_out[i].why);
		fputc('}', out);
	}
	fputs("],\"configs\":[", out);
}

static void json_pair(FILE *out, const char *key, double a, double b)
{
	fprintf(out, ",\"%s\":[", key);
	rep_json_num(out, a);
	fputc(',', out);
	rep_json_num(out, b);
	fputc(']', out);
}

static void json_config(FILE *out, const struct ranking *r, const struct rank_config *c,
			size_t index)
{
	fprintf(out, "%s{\"label\":", index ? "," : "");
	rep_json_str(out, c->label);
	fprintf(out, ",\"id\":\"%s\",\"rank\":", c->id);
	if (c->rank)
		fprintf(out, "%d", c->rank);
	else
		fputs("null", out);
	rep_json_key_num(out, "ratio", c->ratio);
	json_pair(out, "ci", c->lo, c->hi);
	fprintf(out, ",\"status\":\"%s\",\"baseline\":%s", outcome_name(c->status),
		c->is_baseline ? "true" : "false");
	rep_json_key_str(out, "verdict", isnan(c->ratio) ? NULL : verdict_name(c->verdict));
	fprintf(out, ",\"improved\":%d,\"regressed\":%d", c->improved, c->regressed);
	rep_json_key_str(out, "detail", c->detail);
	rep_json_key_str_or_null(out, "mixed", c->mixed);
	rep_json_key_str(out, "cc", c->cc);
	rep_json_key_str(out, "toolchain", c->toolchain);
	rep_json_key_str(out, "cflags", c->cflags);
	rep_json_key_str(out, "ldflags", c->ldflags);
	rep_json_key_str(out, "link", c->link);
	rep_json_key_str(out, "target", c->target);
	rep_json_key_str(out, "cpu", c->cpu);
	rep_json_key_str(out, "libc", c->libc);
	rep_json_key_str(out, "sysroot", c->sysroot);
	rep_json_key_str(out, "notes", c->notes);
	fprintf(out, ",\"untested\":%s", c->untested ? "true" : "false");
	rep_json_key_str_or_null(out, "versus", c->versus >= 0 ? r->configs[c->versus].label : NULL);
	rep_json_key_num(out, "p_change", c->p_change);
	rep_json_key_num(out, "settle_level", c->versus >= 0 ? rank_settle_level(r, c) : NAN);
	rep_json_key_num(out, "tie_within", c->tie_within);
	fprintf(out, ",\"settled\":%s", rank_config_fragile(r, c) ? "false" : "true");
	rep_json_key_str_or_null(out, "identical_to", c->identical_to);
	fputs(",\"identical_on\":[", out);
	for (size_t i = 0; i < c->identical_on.n; i++) {
		fputs(i ? "," : "", out);
		rep_json_str(out, c->identical_on.v[i]);
	}
	fputc(']', out);
	fputs(",\"workloads\":[", out);
}

static void json_item(FILE *out, const struct ranking *r, const struct rank_config *c,
		      const struct rank_item *it, size_t index)
{
	(void)r;
	(void)c;
	fprintf(out, "%s{\"name\":", index ? "," : "");
	rep_json_str(out, it->name);
	fprintf(out, ",\"n\":%zu", it->s.n);
	rep_json_key_num(out, "median", it->s.median);
	rep_json_key_num(out, "ratio", it->ratio);
	json_pair(out, "ci", it->lo, it->hi);
	fprintf(out, ",\"exact\":%s,\"status\":\"%s\"", it->exact ? "true" : "false",
		outcome_name(it->status));
	rep_json_key_str(out, "detail", it->detail);
	rep_json_key_num(out, "p", it->p);
	rep_json_key_str(out, "verdict", isnan(it->ratio) ? NULL : verdict_name(it->verdict));
	fprintf(out, ",\"n_baseline\":%zu,\"layouts\":%zu", it->nbase,
		it->layouts ? it->layouts : 1);
	rep_json_key_num(out, "mad", it->s.mad);
	rep_json_key_num(out, "mean", it->s.mean);
	rep_json_key_num(out, "sd", it->s.sd);
	rep_json_key_num(out, "min", it->s.min);
	rep_json_key_num(out, "max", it->s.max);
	fprintf(out, ",\"outliers\":%zu", it->s.outliers);
	json_pair(out, "median_ci", it->s.ci_lo, it->s.ci_hi);
	rep_json_key_num(out, "halfwidth", it->halfwidth);
	fprintf(out, ",\"build_property\":%s", it->from_build ? "true" : "false");
	fprintf(out, ",\"untested\":%s,\"note\":", it->untested ? "true" : "false");
	if (it->note)
		rep_json_str(out, it->note);
	else
		fputs("null", out);
	/* the calibrated floor this item's "unchanged" is within; null: not so */
	rep_json_key_num(out, "layout_noise", it->layout_noise);
	/* the meter's resolution this item's "unchanged" is below; null: not so */
	rep_json_key_num(out, "below_resolution", it->below_resolution ? r->resolution : NAN);
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
		rep_json_str(out, r->facts.v[i]);
	}
	fputs("],\"fragile\":[", out);
	for (size_t c = 0, first = 1; c < r->n; c++) {
		char *line = rank_config_fragility(r, &r->configs[c]);
		if (line) {
			fputs(first ? "" : ",", out);
			rep_json_str(out, line);
			first = 0;
		}
		free(line);
	}
	fputc(']', out);
	rep_machine_json(out, r);
	fputs(",\"pareto\":[", out);
	for (size_t i = 0; i < r->npareto; i++) {
		const struct rank_pareto *p = &r->pareto[i];
		fprintf(out, "%s{\"x\":", i ? "," : "");
		rep_json_str(out, p->x);
		rep_json_key_str(out, "y", p->y);
		fputs(",\"points\":[", out);
		int first = 1;
		for (size_t c = 0; c < r->n; c++) {
			if (isnan(p->xv[c]) || isnan(p->yv[c]))
				continue;
			fprintf(out, "%s{\"label\":", first ? "" : ",");
			rep_json_str(out, r->configs[c].label);
			rep_json_key_num(out, "x", p->xv[c]);
			rep_json_key_num(out, "y", p->yv[c]);
			fprintf(out, ",\"front\":%s}", p->front[c] ? "true" : "false");
			first = 0;
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
}

const struct report_ops report_json = {
	.format = FORMAT_JSON,
	.begin = json_begin,
	.config = json_config,
	.item = json_item,
	.config_end = json_config_end,
	.end = json_end,
};
