/* output.c - see output.h */
#include "search/output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/native_cpu.h"
#include "base/outcome.h"
#include "analysis/recommend.h"
#include "pipeline/parts.h"

const char *search_report_flags(const struct search_report *r)
{
	if (r->minimal_flags)
		return r->minimal_flags;
	return r->res->best_flags ? r->res->best_flags : "";
}

static double report_obj(const struct search_report *r)
{
	return r->minimal_flags ? r->minimal_obj : r->res->best_obj;
}

/* The baseline's CFLAGS with the found flags; a found -O level replaces
 * the baseline's own.  Heap string. */
static char *common_flags(const struct search_report *r)
{
	const char *found = search_report_flags(r);
	int has_level = 0;
	struct strlist fw = {0}, bw = {0}, out = {0};
	sl_split_ws(&fw, found);
	for (size_t i = 0; i < fw.n; i++)
		has_level |= str_starts_with(fw.v[i], "-O");
	sl_split_ws(&bw, r->pl->base->cflags);
	for (size_t i = 0; i < bw.n; i++)
		if (!has_level || !str_starts_with(bw.v[i], "-O"))
			sl_push(&out, bw.v[i]);
	for (size_t i = 0; i < fw.n; i++)
		sl_push(&out, fw.v[i]);
	char *s = sl_join(&out, " ");
	sl_release(&fw);
	sl_release(&bw);
	sl_release(&out);
	return s;
}

/* A value for a shell-like make.conf: \ " $ ` escaped (heap). */
static char *escaped(const char *s)
{
	struct strbuf sb = {0};
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\' || *p == '$' || *p == '`')
			sb_addc(&sb, '\\');
		sb_addc(&sb, *p);
	}
	return sb.len ? sb_detach(&sb) : xstrdup("");
}

static void put_var(FILE *out, const char *name, const char *prefix, const char *value)
{
	char *v = escaped(value);
	fprintf(out, "%s=\"%s%s\"\n", name, prefix, v);
	free(v);
}

static const char *verdict_word(enum verdict v)
{
	return v == VERDICT_IMPROVED ? "faster (significant)"
	       : v == VERDICT_REGRESSED ? "slower (significant)"
	       : v == VERDICT_MIXED	? "mixed (significantly faster on some items, slower on others)"
					: "no significant difference";
}

static void confirm_lines(FILE *out, const char *prefix, const struct confirmation *c)
{
	if (c->status != OUTCOME_OK) {
		fprintf(out, "%sconfirmation failed: %s: %s\n", prefix, outcome_name(c->status),
			c->detail);
		return;
	}
	if (c->layouts > 1)
		fprintf(out, "%sconfirmed with %d interleaved runs of each of %d layout variants, layout a random effect (study %s):\n",
			prefix, c->repeat, c->layouts, c->study);
	else
		fprintf(out, "%sconfirmed with %d interleaved runs (study %s):\n", prefix, c->repeat,
			c->study);
	for (int s = 0; s < 2; s++) {
		const struct confirm_side *d = &c->side[s];
		fprintf(out, "%s  time vs %s: %.4f [%.4f, %.4f] %s", prefix, d->against, d->gm, d->lo,
			d->hi, verdict_word(d->verdict));
		if (!isnan(d->insns))
			fprintf(out, "; instructions vs %s: %.4f", d->against, d->insns);
		fputc('\n', out);
		for (size_t i = 0; i < d->nitems; i++)
			if (d->cmp[i].verdict == VERDICT_REGRESSED)
				fprintf(out, "%s    significantly slower than %s on %s: %.4f (p %.3g)\n",
					prefix, d->against, d->item[i], d->cmp[i].ratio, d->cmp[i].p);
			else if (d->layout_noise && isfinite(d->layout_noise[i]))
				fprintf(out, "%s    %s: %.4f, unchanged: within layout noise (±%.1f%%)\n",
					prefix, d->item[i], d->cmp[i].ratio, 100 * d->layout_noise[i]);
	}
}

static void unsafe_lines(FILE *out, const char *prefix, const struct search_report *r)
{
	if (!r->nunsafe)
		return;
	fprintf(out, "%sunsafe for these workloads (in flag sets that broke a workload):\n", prefix);
	for (size_t i = 0; i < r->nunsafe; i++) {
		const struct unsafe_flag *u = &r->unsafe[i];
		fprintf(out, "%s  %s: %zu broken, %zu good flag sets%s; %s\n", prefix, u->flag,
			u->broken, u->ok, u->alone ? ", broke alone" : u->suspect ? ", broke in combination" : "", u->evidence);
	}
}

void search_report_text(FILE *out, const struct search_report *r)
{
	const struct search_result *res = r->res;
	fprintf(out, "search %s: strategy %s, seed %llu, metric %s (%s)\n", r->id, r->strategy,
		(unsigned long long)r->seed, r->pl->metric, r->pl->obj->desc);
	fprintf(out, "space: %zu dimensions (2^%.1f flag sets) at %s, compiler %s\n", r->sp->ndims,
		space_log2_size(r->sp), r->pl->level, pipeline_toolchain_version(r->pl->tc));
	if (r->sp->dropped.n) {
		fprintf(out, "left out:");
		for (size_t i = 0; i < r->sp->dropped.n; i++)
			fprintf(out, " %.*s", (int)strcspn(r->sp->dropped.v[i], ":"), r->sp->dropped.v[i]);
		fprintf(out, " (the JSON output says why)\n");
	}
	fprintf(out, "evaluations: %zu (%zu measured now, %zu from earlier sessions or searches), %.0f s measuring%s%s\n",
		res->evals, res->measured, res->evals - res->measured, res->elapsed,
		res->finished ? ", the strategy finished" : "", res->stopped ? ", interrupted" : "");
	fprintf(out, "best: %.4f of the baseline: %s\n", res->best_obj,
		res->best_flags && *res->best_flags ? res->best_flags : "(the baseline)");
	if (r->minimal_flags)
		fprintf(out, "minimal (%s): %.4f: %s\n", r->minimal_how ? r->minimal_how : "",
			r->minimal_obj, *r->minimal_flags ? r->minimal_flags : "(the baseline)");
	if (r->confirm)
		confirm_lines(out, "", r->confirm);
	unsafe_lines(out, "", r);
}

/* The confirmation as the value of "confirm" (json_key placed it) */
static void json_confirm(struct strbuf *sb, const struct confirmation *c)
{
	json_open(sb, NULL, '{');
	json_put_str(sb, "study", c->study);
	json_put_fmt(sb, "repeat", "%d", c->repeat);
	json_put_fmt(sb, "layouts", "%d", c->layouts > 1 ? c->layouts : 1);
	json_put_str(sb, "status", outcome_name(c->status));
	json_put_str(sb, "detail", c->detail);
	json_open(sb, "against", '[');
	for (int s = 0; s < 2; s++) {
		const struct confirm_side *d = &c->side[s];
		json_open(sb, NULL, '{');
		json_put_str(sb, "level", d->against);
		json_put_num(sb, "time_ratio", d->gm);
		json_open(sb, "ci", '[');
		json_put_num(sb, NULL, d->lo);
		json_put_num(sb, NULL, d->hi);
		json_close(sb, ']');
		json_put_str(sb, "verdict", verdict_name(d->verdict));
		json_put_num(sb, "insns_ratio", d->insns);
		json_open(sb, "items", '[');
		for (size_t i = 0; i < d->nitems; i++) {
			json_open(sb, NULL, '{');
			json_put_str(sb, "name", d->item[i]);
			json_put_num(sb, "ratio", d->cmp[i].ratio);
			json_put_num(sb, "p", d->cmp[i].p);
			json_put_fmt(sb, "n", "%zu", d->cmp[i].na);
			json_put_fmt(sb, "layouts", "%zu",
				     d->cmp[i].layouts_cand ? d->cmp[i].layouts_cand : 1);
			json_put_str(sb, "verdict", verdict_name(d->cmp[i].verdict));
			json_put_num(sb, "layout_noise", d->layout_noise ? d->layout_noise[i] : NAN);
			json_close(sb, '}');
		}
		json_close(sb, ']');
		json_close(sb, '}');
	}
	json_close(sb, ']');
	json_close(sb, '}');
}

static void json_search(struct strbuf *sb, const struct search_report *r)
{
	const struct search_result *res = r->res;
	json_put_str(sb, "search", r->id);
	json_put_str(sb, "strategy", r->strategy);
	json_put_fmt(sb, "seed", "%llu", (unsigned long long)r->seed);
	json_put_str(sb, "metric", r->pl->metric);
	json_put_str(sb, "metric_desc", r->pl->obj->desc);
	json_put_str(sb, "context", r->pl->context);
	json_open(sb, "space", '{');
	json_put_fmt(sb, "dims", "%zu", r->sp->ndims);
	json_put_fmt(sb, "log2_size", "%.3f", space_log2_size(r->sp));
	json_put_str(sb, "level", r->pl->level);
	json_open(sb, "dropped", '[');
	for (size_t i = 0; i < r->sp->dropped.n; i++)
		json_put_str(sb, NULL, r->sp->dropped.v[i]);
	json_close(sb, ']');
	json_close(sb, '}');
	json_put_fmt(sb, "evals", "%zu", res->evals);
	json_put_fmt(sb, "measured", "%zu", res->measured);
	json_put_fmt(sb, "resumed", "%zu", res->resumed);
	json_put_bool(sb, "finished", res->finished);
	json_put_bool(sb, "stopped", res->stopped);
	json_put_fmt(sb, "elapsed", "%.3f", res->elapsed);
}

/* What it found: the best set, the minimal one (or null) */
static void json_found(struct strbuf *sb, const struct search_report *r)
{
	json_open(sb, "best", '{');
	json_put_str(sb, "flags", r->res->best_flags ? r->res->best_flags : "");
	json_put_num(sb, "objective", r->res->best_obj);
	json_close(sb, '}');
	if (!r->minimal_flags) {
		json_put_fmt(sb, "minimal", "null");
		return;
	}
	json_open(sb, "minimal", '{');
	json_put_str(sb, "flags", r->minimal_flags);
	json_put_num(sb, "objective", r->minimal_obj);
	json_put_fmt(sb, "tolerance", "%g", r->tolerance);
	json_put_str(sb, "how", r->minimal_how ? r->minimal_how : "");
	json_put_num(sb, "vs_best", r->minimal_vs_best);
	json_open(sb, "ci", '[');
	json_put_num(sb, NULL, r->minimal_lo);
	json_put_num(sb, NULL, r->minimal_hi);
	json_close(sb, ']');
	json_close(sb, '}');
}

/* Every evaluation in order, and the flags that broke a workload */
static void json_rows(struct strbuf *sb, const struct search_report *r)
{
	json_open(sb, "trace", '[');
	for (size_t i = 0; i < r->ntrace; i++) {
		json_open(sb, NULL, '{');
		json_put_str(sb, "flags", r->trace_flags[i]);
		json_put_num(sb, "objective", r->trace_obj[i]);
		json_close(sb, '}');
	}
	json_close(sb, ']');
	json_open(sb, "unsafe", '[');
	for (size_t i = 0; i < r->nunsafe; i++) {
		const struct unsafe_flag *u = &r->unsafe[i];
		json_open(sb, NULL, '{');
		json_put_str(sb, "flag", u->flag);
		json_put_fmt(sb, "broken", "%zu", u->broken);
		json_put_fmt(sb, "ok", "%zu", u->ok);
		json_put_bool(sb, "alone", u->alone);
		json_put_bool(sb, "suspect", u->suspect);
		json_put_str(sb, "evidence", u->evidence);
		json_close(sb, '}');
	}
	json_close(sb, ']');
}

void search_report_json(FILE *out, const struct search_report *r)
{
	struct strbuf sb = {0};
	json_open(&sb, NULL, '{');
	json_search(&sb, r);
	json_found(&sb, r);
	json_rows(&sb, r);
	json_key(&sb, "confirm");
	if (r->confirm)
		json_confirm(&sb, r->confirm);
	else
		sb_add(&sb, "null");
	char *buf = NULL;
	size_t len = 0;
	FILE *mc = open_memstream(&buf, &len);
	if (mc) {
		search_make_conf(mc, r);
		fclose(mc);
	}
	json_put_str(&sb, "make_conf", buf ? buf : "");
	free(buf);
	json_close(&sb, '}');
	fprintf(out, "%s\n", sb_str(&sb));
	sb_release(&sb);
}

void search_make_conf(FILE *out, const struct search_report *r)
{
	const struct search_pipeline *pl = r->pl;
	fprintf(out, "# flagscope search %s: strategy %s, %zu evaluations, objective: %s\n", r->id,
		r->strategy, r->res->evals, pl->obj->desc);
	fprintf(out, "# study %s; workloads:", pl->study.path);
	for (size_t w = 0; w < pl->study.workloads.n; w++)
		fprintf(out, " %s", pl->study.workloads.v[w]);
	fprintf(out, "; compiler %s\n", pipeline_toolchain_version(pl->tc));
	fprintf(out, "# geometric mean of %s relative to the baseline (%s): %.4f\n", pl->metric,
		pl->base->cflags, report_obj(r));
	if (r->minimal_flags && r->res->best_flags && strcmp(r->minimal_flags, r->res->best_flags))
		fprintf(out, "# minimised from %.4f (%s): %s\n", r->res->best_obj,
			r->minimal_how ? r->minimal_how : "", r->res->best_flags);
	if (r->confirm)
		confirm_lines(out, "# ", r->confirm);
	unsafe_lines(out, "# ", r);
	if (strcmp(pl->base->cc, "gcc") && strcmp(pl->base->cc, "cc")) {
		char *cxx = recommend_cxx(pl->base->cc);
		put_var(out, "CC", "", pl->base->cc);
		put_var(out, "CXX", "", cxx);
		free(cxx);
	}
	char *common = common_flags(r), *note = NULL;
	/* as every output: -mX=native made explicit (base/native_cpu.h), here,
	 * where the search built and measured */
	char *flags = native_cpu_explicit(pl->base->cc, common, &note);
	if (strcmp(flags, common))
		fprintf(out, "# note: %s is %s, as this machine's compiler resolves it\n", common,
			flags);
	if (note)
		fprintf(out, "# note: %s\n", note);
	put_var(out, "COMMON_FLAGS", "", flags);
	free(common);
	free(flags);
	free(note);
	fputs("CFLAGS=\"${COMMON_FLAGS}\"\nCXXFLAGS=\"${COMMON_FLAGS}\"\n", out);
	/* ${LDFLAGS} keeps the profile's own */
	if (*pl->base->ldflags)
		put_var(out, "LDFLAGS", "${LDFLAGS} ", pl->base->ldflags);
	char *chost = recommend_chost(pl->base->cc);
	if (chost)
		put_var(out, "CHOST", "", chost);
	free(chost);
}
