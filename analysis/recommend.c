/* recommend.c - see recommend.h */
#include "analysis/recommend.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "analysis/noise_floor.h"
#include "analysis/recommend_distro.h"

static const struct {
	const char *kind, *metric;
} metric_kinds[] = {
	{"time", "time"},
	{"size", "size.text"},
	{"rss", "mem.res"},
	{"insns", "insns"},
};

const char *const recommend_metric_kinds[] = {"time", "size", "rss", "insns", NULL};

const char *recommend_metric(const char *kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(metric_kinds); i++)
		if (!strcmp(metric_kinds[i].kind, kind))
			return metric_kinds[i].metric;
	return NULL;
}

char *recommend_cxx(const char *cc)
{
	size_t len = strcspn(cc, " \t");
	char *cmd = xstrndup(cc, len);
	const char *opts = cc + len;
	const char *base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
	/* the driver name is the last "gcc", "clang" or a bare "cc" */
	static const struct {
		const char *c, *cxx;
	} drivers[] = {{"clang", "clang++"}, {"gcc", "g++"}};
	char *out = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(drivers) && !out; i++) {
		const char *hit = NULL;
		for (const char *p = base; (p = strstr(p, drivers[i].c)); p++)
			hit = p;
		if (hit)
			out = xasprintf("%.*s%s%s%s", (int)(hit - cmd), cmd, drivers[i].cxx,
					hit + strlen(drivers[i].c), opts);
	}
	if (!out)
		out = !strcmp(base, "cc") ? xasprintf("%.*sc++%s", (int)(base - cmd), cmd, opts)
					  : xstrdup(cc);
	free(cmd);
	return out;
}

/* NULL (freeing it) when triple is this machine's own architecture. */
static char *unless_native(char *triple)
{
	struct utsname u;
	if (triple && !uname(&u) && str_starts_with(triple, u.machine) &&
	    triple[strlen(u.machine)] == '-') {
		free(triple);
		triple = NULL;
	}
	return triple;
}

char *recommend_chost(const char *cc)
{
	char *triple = NULL;
	const char *t = strstr(cc, "--target=");
	if (t) {
		triple = xstrndup(t + 9, strcspn(t + 9, " \t"));
	} else {
		char *cmd = xstrndup(cc, strcspn(cc, " \t"));
		const char *base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
		const char *d = strstr(base, "-gcc");
		if (!d)
			d = strstr(base, "-clang");
		if (d && memmem(base, (size_t)(d - base), "-linux", 6))
			triple = xstrndup(base, (size_t)(d - base));
		free(cmd);
	}
	return unless_native(triple);
}

char *recommend_config_chost(const char *target, const char *cc)
{
	if (target && *target)
		return unless_native(xstrdup(target));
	return recommend_chost(cc);
}

/* The workloads c's items (one per run section) come from: lame/cbr128
 * and lame/vbr are one workload, two runs. */
static size_t count_workloads(const struct rank_config *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nitems; i++) {
		size_t j = 0;
		while (j < i && strcmp(c->items[j].workload, c->items[i].workload))
			j++;
		n += j == i;
	}
	return n;
}

/* No item has a sample and none is left out for failing: builds only (run
 * --build-only, or a run stopped before its first measurement). */
static int unmeasured(const struct ranking *r)
{
	if (!r->n || r->configs[0].nitems)
		return 0;
	for (size_t i = 0; i < r->nleft_out; i++)
		if (r->left_out[i].status != OUTCOME_OK)
			return 0;
	return 1;
}

/* the noise floor is the baseline again: what it gains is noise */
static int eligible(const struct rank_config *c)
{
	return c->status == OUTCOME_OK && c->rank > 0 && (c->is_baseline ||
							 !noise_floor_label(c->label));
}

/* The chosen configuration's compilers and flags as written. */
static void set_choice(struct store *st, struct recommendation *rec)
{
	const struct rank_config *c = &rec->r.configs[rec->chosen];
	rec->cxx = recommend_cxx(c->cc);
	rec->chost = recommend_config_chost(c->target, c->cc);
	rec->cflags = recommend_explicit_cflags(st, rec->r.study, c, &rec->native_note);
}

int recommend_compute(struct store *st, const char *study, const char *metric,
		      const struct rank_options *o, struct recommendation *rec,
		      struct strbuf *err)
{
	memset(rec, 0, sizeof(*rec));
	rec->db = xstrdup(st->path);
	rec->chosen = -1;
	/* VmHWM read at exit is the program's own peak; wait4's maxrss also
	 * counts the forking parent's resident size, so it is only the
	 * fallback for studies run without the memory meter */
	if (metric && !strcmp(metric, "mem.res") && !results_has_metric(st, study, "mem.res") &&
	    results_has_metric(st, study, "maxrss")) {
		metric = "maxrss";
		rec->metric_note = xstrdup("mem.res (VmHWM at exit) is not stored (the study ran "
					   "without the memory meter): maxrss from wait4, which "
					   "also counts the forking parent's resident size");
	}
	if (ranking_compute_opts(st, study, metric, o, &rec->r, err))
		return -1;
	const struct ranking *r = &rec->r;
	if (r->baseline >= 0 && r->configs[r->baseline].status == OUTCOME_OK &&
	    r->configs[r->baseline].rank <= 0) {
		/* the baseline is fine, only nothing has a ratio: saying it is
		 * "not valid (ok)" sent users to fix a study that was never run */
		char *why = ranking_why_unranked(r);
		const char *w = why ? why : "no configuration could be compared";
		if (!strncmp(w, "nothing ranked: ", 16))
			w += 16;
		if (unmeasured(r))
			sb_addf(err, "%s: nothing was measured in study %s, so there is nothing to "
				     "recommend: %s (run the study, without --build-only)",
				st->path, r->study, r->nleft_out ? r->left_out[0].why : w);
		else
			sb_addf(err, "%s: nothing to recommend in study %s: %s", st->path, r->study, w);
		free(why);
		return -1;
	}
	if (r->baseline < 0 || !eligible(&r->configs[r->baseline])) {
		const struct rank_config *b = r->baseline >= 0 ? &r->configs[r->baseline] : NULL;
		sb_addf(err, "%s: the baseline %s is not valid (%s%s%s): there is nothing to "
			     "measure against (fix the baseline or choose another in the study)",
			st->path, b ? b->label : "(none)", b ? outcome_name(b->status) : "missing",
			b && b->detail ? ": " : "", b && b->detail ? b->detail : "");
		return -1;
	}
	rec->chosen = r->baseline;
	rec->pgo_best = -1;
	double best = INFINITY, best_pgo = INFINITY;
	for (size_t i = 0; i < r->n; i++) {
		const struct rank_config *c = &r->configs[i];
		double v = r->higher_better ? 1 / c->ratio : c->ratio;
		if (!eligible(c) || c->verdict != VERDICT_IMPROVED)
			continue;
		if (c->pgo && v < best_pgo) {
			best_pgo = v;
			rec->pgo_best = (int)i;
		} else if (!c->pgo && v < best) {
			best = v;
			rec->chosen = (int)i;
			rec->beats = 1;
		}
	}
	if (best_pgo >= best)
		rec->pgo_best = -1;
	rec->rule_choice = rec->chosen;
	set_choice(st, rec);
	return 0;
}

/* Its build failed on every ranked item: no flags of it were ever run, so
 * the evidence would have nothing to show for the choice. */
static int built_nowhere(const struct rank_config *c)
{
	for (size_t k = 0; k < c->nitems; k++)
		if (c->items[k].status != OUTCOME_BUILD_FAILED)
			return 0;
	return c->nitems > 0;
}

int recommend_choose(struct store *st, struct recommendation *rec, const char *label,
		     struct strbuf *err)
{
	const struct ranking *r = &rec->r;
	int i = -1;
	for (size_t k = 0; k < r->n && i < 0; k++)
		if (!strcmp(r->configs[k].label, label))
			i = (int)k;
	if (i < 0) {
		sb_addf(err, "%s: --choose '%s': no configuration of that label in study %s (its "
			     "labels: ", st->path, label, r->study);
		for (size_t k = 0; k < r->n; k++)
			sb_addf(err, "%s'%s'", k ? ", " : "", r->configs[k].label);
		sb_add(err, ")");
		return -1;
	}
	if (r->configs[i].pgo) {
		sb_addf(err, "%s: --choose '%s': a profile-guided configuration (pgo gen-use): its "
			     "flags alone are not what was measured (choose one without a profile)",
			st->path, label);
		return -1;
	}
	if (built_nowhere(&r->configs[i])) {
		const char *d = r->configs[i].detail;
		sb_addf(err, "%s: --choose '%s': %s did not build (build_failed): nothing to "
			     "recommend from it (its first failure: %.*s; choose one that built)",
			st->path, label, label, d ? (int)strcspn(d, "\n") : 4, d ? d : "none");
		return -1;
	}
	rec->chosen = i;
	/* beats_baseline says what the choice measured, whoever chose it */
	rec->beats = r->configs[i].status == OUTCOME_OK && r->configs[i].verdict == VERDICT_IMPROVED &&
		     i != r->baseline;
	free(rec->cxx);
	free(rec->chost);
	free(rec->cflags);
	free(rec->native_note);
	rec->native_note = NULL;
	set_choice(st, rec);
	return 0;
}

void recommend_release(struct recommendation *rec)
{
	ranking_release(&rec->r);
	free(rec->db);
	free(rec->cxx);
	free(rec->chost);
	free(rec->metric_note);
	free(rec->cflags);
	free(rec->native_note);
	memset(rec, 0, sizeof(*rec));
}

/* ---- printing ---- */

static const struct rank_config *chosen(const struct recommendation *rec)
{
	return &rec->r.configs[rec->chosen];
}

static void fmt_interval(char *buf, size_t n, double ratio, double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		snprintf(buf, n, "%.3f (not tested: one run)", ratio);
	else if (lo == hi)
		snprintf(buf, n, "%.3f (exact)", ratio);
	else
		snprintf(buf, n, "%.3f [%.3f, %.3f]", ratio, lo, hi);
}

/* A profile-guided winner, or a profile-guided choice (the baseline). */
static void print_pgo_note(FILE *out, const struct recommendation *rec)
{
	const struct ranking *r = &rec->r;
	const struct rank_config *c = chosen(rec);
	char iv[96];
	if (c->pgo)
		fprintf(out, "# note: %s is profile-guided (pgo gen-use): its flags alone are not "
			     "what was measured\n", c->label);
	if (rec->pgo_best < 0)
		return;
	const struct rank_config *p = &r->configs[rec->pgo_best];
	fmt_interval(iv, sizeof(iv), p->ratio, p->lo, p->hi);
	fprintf(out, "# profile-guided: better still is %s (pgo gen-use), ratio %s to the\n"
		     "#   baseline; not written below: it needs a profile-guided build of each package\n"
		     "#   (-fprofile-generate, its recipe's training run, then -fprofile-use\n"
		     "#   -fprofile-correction; clang: -fprofile-instr-generate, llvm-profdata merge,\n"
		     "#   -fprofile-instr-use), and its flags alone (%s) are not it\n",
		p->label, iv, *p->cflags ? p->cflags : "none");
	for (size_t i = 0; i < r->facts.n; i++)
		if (str_starts_with(r->facts.v[i], "pgo.train."))
			fprintf(out, "#   trained on %s\n", r->facts.v[i] + 10);
}

/* recommend_choose's choice: what the rule chose instead, and what the
 * choice measured (it may be valid on some workloads only: a sweep's
 * breaking packages are then its files' active lines) */
static void print_chosen_by_hand(FILE *out, const struct recommendation *rec)
{
	const struct ranking *r = &rec->r;
	const struct rank_config *c = chosen(rec);
	char iv[96];
	fprintf(out, "# chosen with --choose: %s (the rule's choice: %s)\n", c->label,
		r->configs[rec->rule_choice].label);
	if (isfinite(c->ratio)) {
		fmt_interval(iv, sizeof(iv), c->ratio, c->lo, c->hi);
		fprintf(out, "#   geometric-mean %s ratio to the baseline %s: %s, %s\n", r->metric,
			r->configs[r->baseline].label, iv, verdict_name(c->verdict));
	}
	if (c->status != OUTCOME_OK)
		fprintf(out, "#   not valid on every workload: %s%s%.*s\n", outcome_name(c->status),
			c->detail ? ": " : "", c->detail ? (int)strcspn(c->detail, "\n") : 0,
			c->detail ? c->detail : "");
}

void recommend_print_evidence(FILE *out, const struct recommendation *rec)
{
	const struct ranking *r = &rec->r;
	const struct rank_config *c = chosen(rec), *b = &r->configs[r->baseline];
	char iv[96];
	fprintf(out, "# flagscope recommend: study %s in %s, metric %s%s%s (%s is better)\n",
		r->study, rec->db, r->metric, r->scope ? " of " : "", r->scope ? r->scope : "",
		r->higher_better ? "higher" : "lower");
	if (rec->metric_note)
		fprintf(out, "# note: %s\n", rec->metric_note);
	if (rec->native_note)
		fprintf(out, "# note: %s\n", rec->native_note);
	if (str_starts_with(r->metric, "insns"))
		fprintf(out, "# %s: instructions counted by %s, not timed; deterministic\n",
			r->metric, ranking_insns_counter(r));
	else if (results_metric_caveat(r->metric))
		fprintf(out, "# %s\n", results_metric_caveat(r->metric));
	for (size_t i = 0; i < r->nleft_out; i++)
		fprintf(out, "# left out: %s: %s\n", r->left_out[i].name, r->left_out[i].why);
	char effect[96];
	snprintf(effect, sizeof(effect), r->floors.n ? "this machine's calibrated floor per "
						       "workload (%g%% where none)" : "%g%%",
		 100 * r->opt.min_effect);
	fprintf(out, "# rule: valid on every workload (builds ok, flags verified, right output, "
		     "no failure),\n#   then the best improvement by the verdict rule "
		     "(geometric-mean interval clear of 1,\n#   effect >= %s, some workload "
		     "significantly better at p < %g and none worse)\n",
		effect, r->opt.alpha);
	if (rec->chosen != rec->rule_choice) {
		print_chosen_by_hand(out, rec);
	} else if (rec->beats) {
		fmt_interval(iv, sizeof(iv), c->ratio, c->lo, c->hi);
		/* the metric's own change: less time is a reduction, a higher
		 * score an increase (both better) */
		fprintf(out, "# chosen: %s; geometric-mean %s ratio to the baseline %s: %s,\n"
			     "#   a %.1f%% %s",
			c->label, r->metric, b->label, iv, 100 * fabs(1 - c->ratio),
			c->ratio < 1 ? "reduction" : "increase");
		if (c->lo != c->hi)
			fprintf(out, " (%g%% interval)", 100 * (1 - r->opt.alpha));
		fputc('\n', out);
	} else {
		fprintf(out, "# no configuration beat the baseline %s significantly: keeping the "
			     "baseline\n", b->label);
	}
	print_pgo_note(out, rec);
	size_t nw = count_workloads(c);
	/* "runs" read as repetitions: these are [run] sections */
	fprintf(out, "# measured on %zu workload%s, %zu run section%s:\n", nw, nw == 1 ? "" : "s",
		c->nitems, c->nitems == 1 ? "" : "s");
	for (size_t w = 0; w < c->nitems; w++) {
		const struct rank_item *it = &c->items[w];
		if (it->status != OUTCOME_OK) { /* a choice made with --choose */
			fprintf(out, "#   %-20s %s\n", it->name, outcome_name(it->status));
			continue;
		}
		fmt_interval(iv, sizeof(iv), it->ratio, it->lo, it->hi);
		fprintf(out, "#   %-20s %s n=%zu %s\n", it->name, iv, it->s.n,
			verdict_name(it->verdict));
		if (it->note)
			fprintf(out, "#     note: %s\n", it->note);
	}
	int worse = 0;
	for (size_t w = 0; w < c->nitems; w++)
		if (c->items[w].verdict == VERDICT_REGRESSED) {
			fprintf(out, "%s %s (ratio %.3f, p %.2g)", worse++ ? "," : "# significantly "
				"worse on:", c->items[w].name, c->items[w].ratio, c->items[w].p);
		}
	fputs(worse ? "\n" : "# significantly worse on: none\n", out);
	for (size_t i = 0; i < r->n; i++) {
		const struct rank_config *x = &r->configs[i];
		if (x->status != OUTCOME_OK && (int)i == rec->chosen)
			continue; /* chosen by hand: print_chosen_by_hand said it is not valid */
		if (x->status != OUTCOME_OK)
			/* a build log's detail may run on: a comment line holds its first */
			fprintf(out, "# refused %s: %s%s%.*s\n", x->label, outcome_name(x->status),
				x->detail ? ": " : "", x->detail ? (int)strcspn(x->detail, "\n") : 0,
				x->detail ? x->detail : "");
		else if (x->mixed)
			/* better on some workloads, worse on others: no global choice */
			fprintf(out, "# not chosen %s: %s\n", x->label, x->mixed);
	}
	fprintf(out, "# compiler: %s (%s), linkage %s", c->cc, c->toolchain, c->link);
	if (*c->libc)
		fprintf(out, ", libc %s", c->libc);
	if (*c->target)
		fprintf(out, ", target %s", c->target);
	if (*c->cpu)
		fprintf(out, " (CPU %s)", c->cpu);
	if (*c->sysroot)
		fprintf(out, ", sysroot %s", c->sysroot);
	fputc('\n', out);
	if (*c->notes)
		fprintf(out, "# added by the harness: %s\n", c->notes);
}

/* Text inside a double-quoted make.conf / bash value. */
static void put_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\"\\$`", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

void recommend_put_dquoted(FILE *out, const char *s)
{
	fputc('"', out);
	put_escaped(out, s);
	fputc('"', out);
}

static int default_compiler(const char *cc)
{
	return !strcmp(cc, "gcc") || !strcmp(cc, "cc") || !*cc;
}

static void print_make_conf(FILE *out, const struct recommendation *rec)
{
	const struct rank_config *c = chosen(rec);
	recommend_print_evidence(out, rec);
	if (!default_compiler(c->cc)) {
		fputs("CC=", out);
		recommend_put_dquoted(out, c->cc);
		fputs("\nCXX=", out);
		recommend_put_dquoted(out, rec->cxx);
		fputc('\n', out);
	}
	fputs("COMMON_FLAGS=", out);
	recommend_put_dquoted(out, rec->cflags);
	fputs("\nCFLAGS=\"${COMMON_FLAGS}\"\nCXXFLAGS=\"${COMMON_FLAGS}\"\nLDFLAGS=", out);
	/* ${LDFLAGS} keeps the profile's own; only our part is escaped */
	fprintf(out, "\"${LDFLAGS}%s", *c->ldflags ? " " : "");
	put_escaped(out, c->ldflags);
	fputs("\"\n", out);
	if (rec->chost) {
		fputs("CHOST=", out);
		recommend_put_dquoted(out, rec->chost);
		fputc('\n', out);
	}
}

static void put_squoted(FILE *out, const char *s)
{
	fputc('\'', out);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", out);
		else
			fputc(*s, out);
	fputc('\'', out);
}

static void print_shell(FILE *out, const struct recommendation *rec)
{
	const struct rank_config *c = chosen(rec);
	recommend_print_evidence(out, rec);
	const char *keys[] = {"CC", "CXX", "CFLAGS", "CXXFLAGS", "LDFLAGS", "CHOST"};
	const char *vals[] = {c->cc, rec->cxx, rec->cflags, rec->cflags, c->ldflags, rec->chost};
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		if (!vals[i])
			continue;
		fprintf(out, "export %s=", keys[i]);
		put_squoted(out, vals[i]);
		fputc('\n', out);
	}
}

static void json_str(FILE *out, const char *v)
{
	struct strbuf sb = {0};
	if (v)
		sb_add_json(&sb, v);
	fputs(v ? sb_str(&sb) : "null", out);
	sb_release(&sb);
}

static void json_s(FILE *out, const char *key, const char *v, int comma)
{
	fprintf(out, "%s\"%s\":", comma ? "," : "", key);
	json_str(out, v);
}

static void json_n(FILE *out, const char *key, double v)
{
	fprintf(out, isfinite(v) ? ",\"%s\":%.6g" : ",\"%s\":null", key, v);
}

static void json_ci(FILE *out, double lo, double hi)
{
	fprintf(out, isfinite(lo) ? ",\"ci\":[%.6g," : ",\"ci\":[null,", lo);
	fprintf(out, isfinite(hi) ? "%.6g]" : "null]", hi);
}

/* "pgo_best": the profile-guided winner left out of the flags, or null */
static void json_pgo_best(FILE *out, const struct recommendation *rec)
{
	if (rec->pgo_best < 0) {
		fputs(",\"pgo_best\":null", out);
		return;
	}
	const struct ranking *r = &rec->r;
	const struct rank_config *p = &r->configs[rec->pgo_best];
	fputs(",\"pgo_best\":{", out);
	json_s(out, "label", p->label, 0);
	json_n(out, "ratio", p->ratio);
	json_ci(out, p->lo, p->hi);
	json_s(out, "cflags", p->cflags, 1);
	json_s(out, "needs", "a profile-guided build of each package: -fprofile-generate, "
			     "the recipe's training run, -fprofile-use -fprofile-correction", 1);
	fputs(",\"trained_on\":[", out);
	int n = 0;
	for (size_t i = 0; i < r->facts.n; i++)
		if (str_starts_with(r->facts.v[i], "pgo.train.")) {
			if (n++)
				fputc(',', out);
			json_str(out, r->facts.v[i] + 10);
		}
	fputs("]}", out);
}

static void print_json(FILE *out, const struct recommendation *rec)
{
	const struct ranking *r = &rec->r;
	const struct rank_config *c = chosen(rec);
	fputc('{', out);
	json_s(out, "study", r->study, 0);
	results_progress_json(out, &r->progress);
	json_s(out, "metric", r->metric, 1);
	json_s(out, "baseline", r->configs[r->baseline].label, 1);
	json_s(out, "recommended", c->label, 1);
	fprintf(out, ",\"beats_baseline\":%s", rec->beats ? "true" : "false");
	json_s(out, "rule_choice", r->configs[rec->rule_choice].label, 1);
	fprintf(out, ",\"pgo\":%s", c->pgo ? "true" : "false");
	json_n(out, "ratio", c->ratio);
	json_ci(out, c->lo, c->hi);
	json_s(out, "cc", c->cc, 1);
	json_s(out, "cxx", rec->cxx, 1);
	json_s(out, "cflags", rec->cflags, 1);
	json_s(out, "cflags_measured", c->cflags, 1);
	json_s(out, "native_note", rec->native_note, 1);
	json_s(out, "ldflags", c->ldflags, 1);
	json_s(out, "chost", rec->chost, 1);
	json_s(out, "target", *c->target ? c->target : NULL, 1);
	json_s(out, "scope", r->scope, 1);
	json_s(out, "metric_note", rec->metric_note, 1);
	json_pgo_best(out, rec);
	fputs(",\"left_out\":[", out);
	for (size_t i = 0; i < r->nleft_out; i++) {
		fputs(i ? ",{" : "{", out);
		json_s(out, "name", r->left_out[i].name, 0);
		json_s(out, "why", r->left_out[i].why, 1);
		fputc('}', out);
	}
	fputs("],\"workloads\":[", out);
	for (size_t w = 0; w < c->nitems; w++) {
		const struct rank_item *it = &c->items[w];
		fputs(w ? ",{" : "{", out);
		json_s(out, "name", it->name, 0);
		json_n(out, "ratio", it->ratio);
		json_n(out, "p", it->p);
		json_s(out, "verdict", verdict_name(it->verdict), 1);
		json_s(out, "note", it->note, 1);
		fputc('}', out);
	}
	fputs("],\"refused\":[", out);
	int first = 1;
	for (size_t i = 0; i < r->n; i++) {
		const struct rank_config *x = &r->configs[i];
		if (x->status == OUTCOME_OK)
			continue;
		fputs(first ? "{" : ",{", out);
		json_s(out, "label", x->label, 0);
		json_s(out, "status", outcome_name(x->status), 1);
		json_s(out, "detail", x->detail ? x->detail : "", 1);
		fputc('}', out);
		first = 0;
	}
	/* every configuration's verdict against the baseline, the rank
	 * table's (analysis/verdict.h): what the choice was made from */
	fputs("],\"verdicts\":[", out);
	for (size_t i = 0; i < r->n; i++) {
		const struct rank_config *x = &r->configs[i];
		fputs(i ? ",{" : "{", out);
		json_s(out, "label", x->label, 0);
		json_s(out, "verdict", isnan(x->ratio) ? NULL : verdict_name(x->verdict), 1);
		json_s(out, "mixed", x->mixed, 1);
		fputc('}', out);
	}
	fputs("]}\n", out);
}

static const struct recommend_writer {
	enum format format;
	void (*print)(FILE *out, const struct recommendation *rec);
} formats[] = {
	{FORMAT_MAKE_CONF, print_make_conf},
	{FORMAT_SHELL, print_shell},
	{FORMAT_JSON, print_json},
};

format_set recommend_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("recommend formats", formats, err) |
	       recommend_distro_formats(err);
}

int recommend_print(FILE *out, const struct recommendation *rec, const char *format)
{
	const struct recommend_writer *w = FORMAT_WRITER(formats, format);
	if (!w)
		return -1;
	w->print(out, rec);
	return 0;
}
