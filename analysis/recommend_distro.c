/* recommend_distro.c - the per-workload and LTO decisions (see
 * recommend_distro.h); the files are written by recommend_distro_files.c */
#include "analysis/recommend_distro.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/noise_floor.h"
#include "analysis/pivot_sweep.h"
#include "analysis/results.h"
#include "workloads/recipe.h"

/* The study file recipes are found from: the one recorded (relative to
 * where it ran), else beside the database; NULL when neither is there. */
static char *study_file_of(struct store *st, const char *study)
{
	char *path = results_study_path(st, study);
	if (path && *path && access(path, R_OK) && path[0] != '/' && strrchr(st->path, '/')) {
		char *beside = xasprintf("%.*s/%s", (int)(strrchr(st->path, '/') - st->path),
					 st->path, path);
		free(path);
		path = beside;
	}
	if (path && access(path, R_OK)) {
		free(path);
		path = NULL;
	}
	return path;
}

/* "debian:clamav=1.4.3 patched" -> "clamav"; NULL for another source. */
static char *deb_source(const char *source)
{
	if (!source || !str_starts_with(source, "debian:"))
		return NULL;
	return xstrndup(source + 7, strcspn(source + 7, "= \t"));
}

static void pick_recipe(struct distro_pick *p, const char *study_file)
{
	struct recipe r;
	struct strbuf err = {0};
	if (recipe_load(p->workload, study_file, &r, &err)) {
		/* a package a sweep built with no recipe (packages =) is its
		 * Debian source package; the lookup's error would only say so
		 * at length */
		p->why_no_atom = xstrdup("a Debian package built without a recipe");
		p->deb_source = xstrdup(p->workload);
	} else {
		p->deb_source = deb_source(r.source_own ? r.source_own : r.source);
		if (r.gentoo && *r.gentoo)
			p->atom = xstrdup(r.gentoo);
		else
			p->why_no_atom = xstrdup("its recipe names no Gentoo package (gentoo =)");
	}
	recipe_release(&r);
	sb_release(&err);
}

/* v oriented so that lower is better */
static double lower_better(const struct ranking *r, double v)
{
	return r->higher_better ? 1 / v : v;
}

/* The workload's own best against the global choice, or config -1. */
static void pick_best(struct store *st, const struct distro_advice *a, struct distro_pick *p,
		      const struct rank_options *o)
{
	const struct ranking *r = &a->rec.r;
	const struct rank_config *g = &r->configs[a->rec.chosen];
	double best = INFINITY;
	p->config = -1;
	for (size_t i = 0; i < r->n; i++) {
		/* a profile-guided build is never a package's flags (recommend.h) */
		if ((int)i == a->rec.chosen || r->configs[i].pgo ||
		    noise_floor_label(r->configs[i].label))
			continue;
		struct distro_ratio d;
		distro_workload_ratio(st, r->study, r->configs[i].id, g->id, p->workload, r->metric,
				      r->higher_better, o, &d);
		double v = lower_better(r, d.ratio);
		if (d.status == OUTCOME_OK && d.verdict == VERDICT_IMPROVED && v < best) {
			best = v;
			p->config = (int)i;
			distro_ratio_release(&p->vs_global);
			p->vs_global = d;
		} else {
			distro_ratio_release(&d);
		}
	}
}

static int has_lto(const char *cflags)
{
	struct strlist w = {0};
	sl_split_ws(&w, cflags);
	int yes = 0;
	for (size_t i = 0; i < w.n; i++)
		if (!strcmp(w.v[i], "-flto") || str_starts_with(w.v[i], "-flto="))
			yes = 1;
	sl_release(&w);
	return yes;
}

/* The sweep's cell of workload w under the configuration labelled label,
 * or NULL. */
static const struct sweep_cell *sweep_cell_of(const struct sweep_table *t, const char *label,
					      const char *w)
{
	for (size_t k = 0; k < t->ncols; k++)
		for (size_t r = 0; r < t->nrows && !strcmp(t->labels[k], label); r++)
			if (!strcmp(t->rows[r].workload, w))
				return &t->rows[r].cells[k];
	return NULL;
}

/* The best -flto configuration and the workloads that failed under it
 * (t: the sweep, or NULL; with it, a package broken at the baseline too
 * is on the list only when it broke further, pivot_sweep.h). */
static void pick_lto(struct store *st, struct distro_advice *a, const struct rank_options *o,
		     const struct sweep_table *t)
{
	const struct ranking *r = &a->rec.r;
	const struct rank_config *b = &r->configs[r->baseline];
	double best = INFINITY;
	a->lto = -1;
	for (size_t i = 0; i < r->n; i++) {
		if (!has_lto(r->configs[i].cflags) || r->configs[i].pgo ||
		    noise_floor_label(r->configs[i].label))
			continue;
		struct strlist fail = {0}, why = {0};
		double logsum = 0;
		size_t ok = 0, better = 0, worse = 0;
		for (size_t w = 0; w < a->n; w++) {
			struct distro_ratio d;
			distro_workload_ratio(st, r->study, r->configs[i].id, b->id, a->w[w].workload,
					      r->metric, r->higher_better, o, &d);
			/* "not built": not tried yet (a shard not merged), no failure */
			const struct sweep_cell *c =
				t ? sweep_cell_of(t, r->configs[i].label, a->w[w].workload) : NULL;
			if (d.status == OUTCOME_UNSUPPORTED && !strcmp(d.detail, "not built")) {
			} else if (c && c->state == SWEEP_OUTCOME && c->status != OUTCOME_OK) {
				/* the sweep decides: broken as at the baseline is
				 * the package's, broken further names only that */
				if (!c->at_baseline) {
					sl_push(&fail, a->w[w].workload);
					sl_push_owned(&why, xasprintf("%s: %s", outcome_name(c->status),
								      c->detail));
				}
			} else if (d.status != OUTCOME_OK && !str_starts_with(d.detail, "baseline: ")) {
				sl_push(&fail, a->w[w].workload);
				sl_push_owned(&why, xasprintf("%s: %.*s", outcome_name(d.status),
							      (int)strcspn(d.detail, "\n"), d.detail));
			} else if (d.ratio > 0) {
				logsum += log(lower_better(r, d.ratio));
				ok++;
				better += d.verdict == VERDICT_IMPROVED;
				worse += d.verdict == VERDICT_REGRESSED;
			}
			distro_ratio_release(&d);
		}
		double gm = ok ? exp(logsum / (double)ok) : INFINITY;
		if (a->lto < 0 || gm < best) {
			best = gm;
			a->lto = (int)i;
			a->lto_ratio = r->higher_better ? 1 / gm : gm;
			a->lto_ok = ok;
			a->lto_better = better;
			a->lto_worse = worse;
			sl_release(&a->no_lto);
			sl_release(&a->no_lto_why);
			a->no_lto = fail;
			a->no_lto_why = why;
		} else {
			sl_release(&fail);
			sl_release(&why);
		}
	}
}

/* The global choice.  A sweep of packages without [run] benchmarks has
 * nothing of the study's metric measured: its test-suite times, else its
 * sizes, rank it then (said in the note), so what breaks is still told. */
static int recommend_sweep_compute(struct store *st, const char *study, const char *metric,
				   const struct rank_options *o, struct recommendation *rec,
				   struct strbuf *err)
{
	static const char *const fallback[] = {SWEEP_TESTS_METRIC, "size.text"};
	/* a package broken at the baseline's flags is no flag's fault: left
	 * out (rank.h), not a reason to refuse the baseline */
	struct rank_options sweep;
	if (o)
		sweep = *o;
	else
		rank_options_default(&sweep);
	sweep.base_failures_out = 1;
	o = &sweep;
	if (!recommend_compute(st, study, metric, o, rec, err) || metric)
		return metric ? -1 : 0;
	char *own = results_study_metric(st, study);
	int rc = -1;
	for (size_t i = 0; i < ARRAY_SIZE(fallback) && rc; i++) {
		if (!results_has_metric(st, study, fallback[i]))
			continue;
		struct strbuf e = {0};
		recommend_release(rec);
		rc = recommend_compute(st, study, fallback[i], o, rec, &e);
		if (!rc) {
			free(rec->metric_note);
			rec->metric_note = xasprintf("nothing of %s was measured (a sweep without [run] "
						     "benchmarks): ranked by %s", own, fallback[i]);
		}
		sb_release(&e);
	}
	free(own);
	return rc;
}

/* ---- what breaks ---- */

/* The words of a not in b, in a's order. */
static void words_minus(struct strlist *out, const char *a, const char *b)
{
	struct strlist wa = {0}, wb = {0};
	sl_split_ws(&wa, a);
	sl_split_ws(&wb, b);
	for (size_t i = 0; i < wa.n; i++)
		if (sl_find(&wb, wa.v[i]) < 0 && sl_find(out, wa.v[i]) < 0)
			sl_push(out, wa.v[i]);
	sl_release(&wa);
	sl_release(&wb);
}

/* The last word of cflags that starts with prefix ("-O", "-march="), or NULL. */
static const char *last_with(const struct strlist *w, const char *prefix)
{
	const char *found = NULL;
	for (size_t i = 0; i < w->n; i++)
		if (str_starts_with(w->v[i], prefix))
			found = w->v[i];
	return found;
}

/* The flag that undoes f on top of it (the last one wins in gcc and
 * clang), given the baseline's words; NULL when there is none.  Heap. */
static char *undo_flag(const char *f, const struct strlist *base)
{
	static const char *const levels[] = {"-O", "-march=", "-mtune="};
	for (size_t i = 0; i < ARRAY_SIZE(levels); i++)
		if (str_starts_with(f, levels[i])) {
			const char *b = last_with(base, levels[i]);
			return b ? xstrdup(b) : i == 0 ? xstrdup("-O2") : NULL;
		}
	if (!strcmp(f, "-flto") || str_starts_with(f, "-flto="))
		return xstrdup("-fno-lto");
	if (strchr(f, '=') || strchr(f, ',') || strlen(f) < 3 || f[0] != '-' ||
	    (f[1] != 'f' && f[1] != 'm'))
		return NULL;
	if (str_starts_with(f + 2, "no-"))
		return xasprintf("-%c%s", f[1], f + 5);
	return xasprintf("-%cno-%s", f[1], f + 2);
}

/* "-O3" -> "O3", "-flto=auto" -> "lto", "-ffast-math" -> "fast-math",
 * "-march=x86-64-v3" -> "x86-64-v3", "-mtune=znver3" -> "tune-znver3",
 * "-mavx2" -> "avx2": what a Gentoo user names an env file after */
static void name_word(struct strbuf *sb, const char *f)
{
	if (!strcmp(f, "-flto") || str_starts_with(f, "-flto="))
		f = "lto";
	else if (str_starts_with(f, "-march="))
		f += 7;
	else if (str_starts_with(f, "-mtune="))
		f += 5;
	else if (str_starts_with(f, "-f") || str_starts_with(f, "-m"))
		f += 2;
	else
		f += strspn(f, "-");
	for (; *f; f++)
		sb_addf(sb, "%c", strchr("=,:/ ", *f) ? '-' : *f);
}

static char *break_name(const struct strlist *added, const char *label)
{
	struct strbuf sb = {0};
	sb_add(&sb, "no");
	for (size_t i = 0; i < added->n; i++) {
		sb_add(&sb, "-");
		name_word(&sb, added->v[i]);
	}
	if (!added->n) {
		sb_add(&sb, "-");
		name_word(&sb, label);
	}
	return sb_detach(&sb);
}

static void break_flags(struct distro_break *b, const char *base_cflags, const char *cflags,
			const char *label)
{
	words_minus(&b->added, cflags, base_cflags);
	words_minus(&b->removed, base_cflags, cflags);
	b->name = break_name(&b->added, label);
	struct strlist base = {0};
	sl_split_ws(&base, base_cflags);
	b->undoable = 1;
	for (size_t i = 0; i < b->added.n; i++) {
		char *u = undo_flag(b->added.v[i], &base);
		if (!u)
			b->undoable = 0;
		else if (sl_find(&b->undo, u) < 0)
			sl_push(&b->undo, u);
		free(u);
	}
	if (!b->undoable)
		sl_release(&b->undo);
	sl_release(&base);
}

static int config_of(const struct ranking *r, const char *label)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->configs[i].label, label))
			return (int)i;
	return -1;
}

static int cell_broken(const struct sweep_cell *c)
{
	return c->state == SWEEP_OUTCOME && c->status != OUTCOME_OK;
}

/* The sweep's broken cells per configuration (see What breaks). */
static void pick_breaks(struct distro_advice *a, const struct sweep_table *tp)
{
	const struct ranking *r = &a->rec.r;
	if (!tp)
		return;
	const struct sweep_table t = *tp;
	a->breaks = xcalloc(t.ncols, sizeof(*a->breaks));
	for (size_t k = 1; k < t.ncols; k++) {
		int i = config_of(r, t.labels[k]);
		if (i < 0 || r->configs[i].pgo)
			continue; /* a profile is no flag */
		struct distro_break *b = &a->breaks[a->nbreaks];
		for (size_t w = 0; w < t.nrows; w++) {
			const struct sweep_cell *c = &t.rows[w].cells[k];
			/* a cell broken as the baseline's is the package's (sed's
			 * tests as root); one that broke further names only that */
			if (!cell_broken(c) || c->at_baseline ||
			    t.rows[w].cells[0].state == SWEEP_NOT_TRIED)
				continue;
			sl_push(&b->workloads, t.rows[w].workload);
			sl_push_owned(&b->why, xasprintf("%s%s%s", outcome_name(c->status),
							 *c->detail ? ": " : "", c->detail));
		}
		if (!b->workloads.n)
			continue;
		b->config = i;
		break_flags(b, t.cflags[0], t.cflags[k], t.labels[k]);
		a->nbreaks++;
	}
	a->base_cflags = xstrdup(t.cflags[0]);
}

int recommend_distro_compute(struct store *st, const char *study, const char *metric,
			     const struct rank_options *o, const char *study_file,
			     const char *choose, struct distro_advice *a, struct strbuf *err)
{
	memset(a, 0, sizeof(*a));
	a->lto = -1;
	if (recommend_sweep_compute(st, study, metric, o, &a->rec, err) ||
	    (choose && recommend_choose(st, &a->rec, choose, err)))
		return -1;
	const struct rank_options *ro = &a->rec.r.opt;
	char *sf = study_file ? xstrdup(study_file) : study_file_of(st, study);
	struct strlist ws = {0}, runs = {0};
	results_items(st, study, &ws, &runs);
	a->w = xcalloc(ws.n ? ws.n : 1, sizeof(*a->w));
	for (size_t i = 0; i < ws.n; i++) {
		if (a->n && !strcmp(a->w[a->n - 1].workload, ws.v[i]))
			continue;
		struct distro_pick *p = &a->w[a->n++];
		p->workload = xstrdup(ws.v[i]);
		p->vs_global.detail = xstrdup("");
		pick_recipe(p, sf);
		pick_best(st, a, p, ro);
		if (p->config >= 0)
			p->cflags = recommend_explicit_cflags(st, study, &a->rec.r.configs[p->config],
							      &p->native_note);
	}
	struct sweep_table t;
	struct strbuf e = {0};
	int swept = !sweep_table_compute(st, study, NULL, &t, &e);
	pick_lto(st, a, ro, swept ? &t : NULL);
	pick_breaks(a, swept ? &t : NULL);
	if (swept)
		sweep_table_release(&t);
	sb_release(&e);
	if (a->lto >= 0)
		a->lto_cflags = recommend_explicit_cflags(st, study, &a->rec.r.configs[a->lto],
							  &a->lto_note);
	sl_release(&ws);
	sl_release(&runs);
	free(sf);
	return 0;
}

void recommend_distro_release(struct distro_advice *a)
{
	for (size_t i = 0; i < a->n; i++) {
		struct distro_pick *p = &a->w[i];
		free(p->workload);
		free(p->atom);
		free(p->deb_source);
		free(p->why_no_atom);
		free(p->cflags);
		free(p->native_note);
		distro_ratio_release(&p->vs_global);
	}
	free(a->w);
	free(a->lto_cflags);
	free(a->lto_note);
	sl_release(&a->no_lto);
	sl_release(&a->no_lto_why);
	for (size_t i = 0; i < a->nbreaks; i++) {
		struct distro_break *b = &a->breaks[i];
		free(b->name);
		sl_release(&b->added);
		sl_release(&b->removed);
		sl_release(&b->undo);
		sl_release(&b->workloads);
		sl_release(&b->why);
	}
	free(a->breaks);
	free(a->base_cflags);
	recommend_release(&a->rec);
	memset(a, 0, sizeof(*a));
}

int recommend_gentoo_reasonable(const char *flag)
{
	static const char *const exact[] = {"-O2", "-Os", "-pipe", "-fomit-frame-pointer"};
	for (size_t i = 0; i < ARRAY_SIZE(exact); i++)
		if (!strcmp(flag, exact[i]))
			return 1;
	return str_starts_with(flag, "-march=") || str_starts_with(flag, "-mtune=");
}

void distro_files_free(struct distro_file *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].name);
		free(f[i].text);
	}
	free(f);
}
