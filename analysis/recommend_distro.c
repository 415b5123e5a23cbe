/* recommend_distro.c - the per-workload and LTO decisions (see
 * recommend_distro.h); the files are written by recommend_distro_files.c */
#include "analysis/recommend_distro.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/noise_floor.h"
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
		p->why_no_atom = xasprintf("its recipe cannot be read (%s)", sb_str(&err));
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

/* The best -flto configuration and the workloads that failed under it. */
static void pick_lto(struct store *st, struct distro_advice *a, const struct rank_options *o)
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
			if (d.status != OUTCOME_OK && !str_starts_with(d.detail, "baseline: ")) {
				sl_push(&fail, a->w[w].workload);
				sl_push_owned(&why, xasprintf("%s: %s", outcome_name(d.status), d.detail));
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

int recommend_distro_compute(struct store *st, const char *study, const char *metric,
			     const struct rank_options *o, const char *study_file,
			     struct distro_advice *a, struct strbuf *err)
{
	memset(a, 0, sizeof(*a));
	a->lto = -1;
	if (recommend_compute(st, study, metric, o, &a->rec, err))
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
	pick_lto(st, a, ro);
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
