/* recommend_distro_files.c - the Gentoo and Debian files of a distro
 * recommendation (see recommend_distro.h) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "analysis/recommend_distro.h"

/* A configuration's flags split for a distribution's files. */
struct flag_split {
	struct strlist keep;      /* written */
	struct strlist native;    /* -march=native, -mtune=native: left out */
	struct strlist unusual;   /* kept, outside the devmanual's reasonable set */
	int lto;                  /* -flto or -flto=N */
};

static void flags_split(const char *cflags, struct flag_split *f)
{
	memset(f, 0, sizeof(*f));
	struct strlist w = {0};
	sl_split_ws(&w, cflags);
	for (size_t i = 0; i < w.n; i++) {
		const char *x = w.v[i];
		if (str_starts_with(x, "-m") && strstr(x, "=native")) {
			sl_push(&f->native, x);
			continue;
		}
		f->lto |= !strcmp(x, "-flto") || str_starts_with(x, "-flto=");
		sl_push(&f->keep, x);
		if (!recommend_gentoo_reasonable(x))
			sl_push(&f->unusual, x);
	}
	sl_release(&w);
}

static void flags_release(struct flag_split *f)
{
	sl_release(&f->keep);
	sl_release(&f->native);
	sl_release(&f->unusual);
}

/* The comments on flags: left out, outside the reasonable set. */
static void flags_comments(FILE *out, const struct flag_split *f)
{
	char *s;
	if (f->native.n) {
		s = sl_join(&f->native, " ");
		fprintf(out, "# left out: %s is not explicit (the note says why no explicit "
			     "form was found)\n", s);
		free(s);
	}
	if (f->unusual.n) {
		s = sl_join(&f->unusual, " ");
		fprintf(out, "# outside the flags Gentoo's devmanual calls reasonable (-O2 -Os "
			     "-march= -mtune= -pipe -fomit-frame-pointer): %s\n", s);
		free(s);
	}
}

static void add_file(struct distro_file **v, size_t *n, char *name, char *text)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n] = (struct distro_file){.name = name, .text = text};
	(*n)++;
}

static const struct rank_config *cfg(const struct distro_advice *a, int i)
{
	return &a->rec.r.configs[i];
}

static void put_ratio(FILE *out, const struct distro_ratio *d)
{
	if (isnan(d->lo) || d->lo == d->hi)
		fprintf(out, "%.3f", d->ratio);
	else
		fprintf(out, "%.3f [%.3f, %.3f]", d->ratio, d->lo, d->hi);
}

/* ---- Gentoo ---- */

static void gentoo_flags(FILE *out, const char *var, const struct flag_split *f,
			 const struct rank_config *c)
{
	const char *ldflags = c->ldflags;
	char *s = sl_join(&f->keep, " ");
	/* another compiler than the system's gcc is part of the choice */
	if (*c->cc && strcmp(c->cc, "gcc") && strcmp(c->cc, "cc")) {
		char *cxx = recommend_cxx(c->cc);
		fputs("CC=", out);
		recommend_put_dquoted(out, c->cc);
		fputs("\nCXX=", out);
		recommend_put_dquoted(out, cxx);
		fputc('\n', out);
		free(cxx);
	}
	fprintf(out, "%s=", var);
	recommend_put_dquoted(out, s);
	fputc('\n', out);
	if (!strcmp(var, "COMMON_FLAGS")) {
		for (const char *const *k = (const char *const[]){"CFLAGS", "CXXFLAGS", "FCFLAGS",
								  "FFLAGS", NULL}; *k; k++)
			fprintf(out, "%s=\"${COMMON_FLAGS}\"\n", *k);
	} else {
		fprintf(out, "CXXFLAGS=\"${CFLAGS}\"\n");
	}
	if (*ldflags) {
		fputs("LDFLAGS=\"${LDFLAGS} ", out);
		fputs(ldflags, out);
		fputs("\"\n", out);
	}
	free(s);
}

/* The LTO offer's evidence (both formats): 0, or -1 when the study has no
 * -flto configuration (said) */
static int lto_evidence(FILE *out, const struct distro_advice *a)
{
	if (a->lto < 0) {
		fputs("# LTO: the study has no -flto configuration\n", out);
		return -1;
	}
	const struct rank_config *l = cfg(a, a->lto);
	fprintf(out, "# LTO: the best -flto configuration is %s (%s): geometric-mean %s ratio "
		     "%.3f to the baseline over the %zu workload(s) it built and ran (significantly "
		     "better on %zu, worse on %zu)",
		l->label, l->cflags, a->rec.r.metric, a->lto_ratio, a->lto_ok, a->lto_better,
		a->lto_worse);
	fprintf(out, a->no_lto.n ? "; it failed on %zu (no-lto list):\n" : "; it failed on none\n",
		a->no_lto.n);
	for (size_t i = 0; i < a->no_lto.n; i++)
		fprintf(out, "#   %s: %s\n", a->no_lto.v[i], a->no_lto_why.v[i]);
	return 0;
}

static void gentoo_lto_comments(FILE *out, const struct distro_advice *a)
{
	if (lto_evidence(out, a))
		return;
	if (a->lto == a->rec.chosen)
		fputs("# LTO is in COMMON_FLAGS above\n", out);
	else
		fprintf(out, "# to use it: COMMON_FLAGS=\"%s\"%s\n", a->lto_cflags,
			a->no_lto.n ? " and the no-lto.conf lines of package.env" : "");
	if (a->lto != a->rec.chosen && a->lto_note)
		fprintf(out, "#   note: %s\n", a->lto_note);
}

static char *gentoo_make_conf(const struct distro_advice *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	const struct rank_config *c = cfg(a, a->rec.chosen);
	struct flag_split f;
	flags_split(a->rec.cflags, &f); /* -march=native made explicit (recommend.h) */
	recommend_print_evidence(out, &a->rec);
	flags_comments(out, &f);
	fputs("# CPU_FLAGS_X86 is set on its own (app-portage/cpuid2cpuflags), never in "
	      "COMMON_FLAGS\n", out);
	gentoo_flags(out, "COMMON_FLAGS", &f, c);
	gentoo_lto_comments(out, a);
	size_t own = 0;
	for (size_t i = 0; i < a->n; i++)
		own += a->w[i].config >= 0;
	fprintf(out, "# %zu workload(s) with their own significantly better flags: package.env "
		     "and env/\n", own);
	flags_release(&f);
	fclose(out);
	return buf;
}

static char *gentoo_env(const struct distro_advice *a, const struct distro_pick *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	const struct rank_config *c = cfg(a, p->config);
	fprintf(out, "# flagscope: %s's own best is %s: %s ratio ", p->workload, c->label,
		a->rec.r.metric);
	put_ratio(out, &p->vs_global);
	fprintf(out, "\n#   against the global choice %s over its %zu run section(s), significant "
		     "(study %s)\n", cfg(a, a->rec.chosen)->label, p->vs_global.nruns,
		a->rec.r.study);
	struct flag_split f;
	flags_split(p->cflags, &f);
	if (p->native_note)
		fprintf(out, "# note: %s\n", p->native_note);
	flags_comments(out, &f);
	gentoo_flags(out, "CFLAGS", &f, c);
	flags_release(&f);
	fclose(out);
	return buf;
}

static const struct distro_pick *pick_of(const struct distro_advice *a, const char *workload)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->w[i].workload, workload))
			return &a->w[i];
	return NULL;
}

/* A package.env line's end: its env file's flags outside the devmanual's
 * set, as a comment on the line (portage's grabdict ends a line at a word
 * that starts with '#'), so they are not applied unseen. */
static void unusual_note(FILE *out, const char *cflags)
{
	struct flag_split f;
	flags_split(cflags, &f);
	if (f.unusual.n) {
		char *s = sl_join(&f.unusual, " ");
		fprintf(out, "  # %s: outside the flags Gentoo's devmanual calls reasonable", s);
		free(s);
	}
	fputc('\n', out);
	flags_release(&f);
}

/* 1 when a Debian source package's name is also a valid Gentoo package
 * name (PMS 3.1.2: letters, digits, + _ -; no '.', and not ending in a
 * hyphen and what would parse as a version: libtasn1-6). */
static int gentoo_name_ok(const char *name)
{
	if (!*name || name[strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789+_-")] ||
	    *name == '-' || *name == '+')
		return 0;
	const char *dash = strrchr(name, '-');
	return !dash || !dash[1] || !strchr("0123456789", dash[1]);
}

/* The atom of workload's package.env line, heap, or NULL (*why says why
 * not): its recipe's gentoo =, else for a Debian source package
 * "*\/NAME", a wildcard category portage(5) accepts in /etc/portage files
 * (Extended Atom Syntax: "*\/zlib" matches zlib in any category).  That
 * Gentoo names the package as Debian does is a guess (mpfr4 is Gentoo's
 * dev-libs/mpfr, lcms2 media-libs/lcms): a comment line before says so. */
static char *line_atom(FILE *out, const struct distro_advice *a, const char *workload,
		       const char **why)
{
	const struct distro_pick *p = pick_of(a, workload);
	*why = p ? p->why_no_atom : "not a workload of the study";
	if (!p || p->atom)
		return p ? xstrdup(p->atom) : NULL;
	if (!p->deb_source || !gentoo_name_ok(p->deb_source))
		return NULL;
	fprintf(out, "# %s: %s: */%s is a guess, Debian's source package name in any Gentoo "
		     "category (Gentoo may name it otherwise, as dev-libs/mpfr for mpfr4: check "
		     "with equery list '*/%s', or give its recipe gentoo =)\n",
		workload, *why, p->deb_source, p->deb_source);
	return xasprintf("*/%s", p->deb_source);
}

/* ---- what breaks (recommend_distro.h) ---- */

/* The evidence of a need, as comment lines each starting with prefix. */
static void break_evidence(FILE *out, const char *prefix, const struct distro_advice *a,
			   const struct distro_break *b)
{
	const struct rank_config *c = cfg(a, b->config);
	fprintf(out, "%sflagscope: %zu package(s) broke under %s (%s) that did not under the "
		     "baseline %s (%s), study %s:\n", prefix, b->workloads.n, c->label, c->cflags,
		cfg(a, a->rec.r.baseline)->label, a->base_cflags, a->rec.r.study);
	for (size_t i = 0; i < b->workloads.n; i++)
		fprintf(out, "%s  %s: %s\n", prefix, b->workloads.v[i], b->why.v[i]);
}

static void package_env_breaks(FILE *out, const struct distro_advice *a,
			       const struct distro_break *b)
{
	int active = b->config == a->rec.chosen;
	fprintf(out, "# broke under %s (%s)%s:\n", cfg(a, b->config)->label,
		cfg(a, b->config)->cflags,
		active ? "" : "; uncomment with its flags in COMMON_FLAGS");
	for (size_t i = 0; i < b->workloads.n; i++) {
		const char *why;
		char *atom = line_atom(out, a, b->workloads.v[i], &why);
		if (atom)
			fprintf(out, "%s%s %s.conf\n", active ? "" : "#", atom, b->name);
		else
			fprintf(out, "# %s: no line: %s (env/%s.conf is its file: CATEGORY/%s %s.conf)\n",
				b->workloads.v[i], why, b->name, b->workloads.v[i], b->name);
		free(atom);
	}
}

static char *gentoo_break_env(const struct distro_advice *a, const struct distro_break *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	break_evidence(out, "# ", a, b);
	if (b->undoable) {
		char *added = sl_join(&b->added, " "), *undo = sl_join(&b->undo, " ");
		fprintf(out, "# %s: %s undone (the last flag wins)\n", b->name, added);
		fprintf(out, "CFLAGS=\"${CFLAGS} %s\"\nCXXFLAGS=\"${CXXFLAGS} %s\"\n", undo, undo);
		if (sl_find(&b->undo, "-fno-lto") >= 0)
			fputs("LDFLAGS=\"${LDFLAGS} -fno-lto\"\n", out);
		free(added);
		free(undo);
	} else {
		fprintf(out, "# %s: some flag of %s has no opposite: the baseline's flags\n", b->name,
			cfg(a, b->config)->label);
		fputs("CFLAGS=", out);
		recommend_put_dquoted(out, a->base_cflags);
		fputs("\nCXXFLAGS=\"${CFLAGS}\"\n", out);
	}
	fclose(out);
	return buf;
}

static char *gentoo_package_env(const struct distro_advice *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	fprintf(out, "# flagscope: packages whose own best beat the global choice %s "
		     "significantly (env files: /etc/portage/env/NAME.conf)\n",
		cfg(a, a->rec.chosen)->label);
	for (size_t i = 0; i < a->n; i++) {
		const struct distro_pick *p = &a->w[i];
		if (p->config < 0)
			continue;
		const char *why;
		char *atom = line_atom(out, a, p->workload, &why);
		if (atom) {
			fprintf(out, "%s %s.conf", atom, p->workload);
			unusual_note(out, p->cflags);
		} else
			fprintf(out, "# %s: no line: %s (env/%s.conf holds its flags)\n", p->workload,
				why, p->workload);
		free(atom);
	}
	if (a->lto >= 0 && a->no_lto.n) {
		int active = a->lto == a->rec.chosen;
		fprintf(out, "# failed under LTO (%s)%s:\n", cfg(a, a->lto)->label,
			active ? "" : "; uncomment with LTO in COMMON_FLAGS");
		for (size_t i = 0; i < a->no_lto.n; i++) {
			const char *why;
			char *atom = line_atom(out, a, a->no_lto.v[i], &why);
			if (atom)
				fprintf(out, "%s%s no-lto.conf\n", active ? "" : "#", atom);
			else
				fprintf(out, "# %s: no line: %s\n", a->no_lto.v[i], why);
			free(atom);
		}
	}
	for (size_t i = 0; i < a->nbreaks; i++)
		if (a->breaks[i].config != a->lto) /* its no-lto lines are above */
			package_env_breaks(out, a, &a->breaks[i]);
	fclose(out);
	return buf;
}

static char *gentoo_no_lto(const struct distro_advice *a)
{
	return xasprintf("# flagscope: packages that failed under LTO (%s) build without it\n"
			 "CFLAGS=\"${CFLAGS} -fno-lto\"\nCXXFLAGS=\"${CXXFLAGS} -fno-lto\"\n"
			 "LDFLAGS=\"${LDFLAGS} -fno-lto\"\n", cfg(a, a->lto)->label);
}

static struct distro_file *gentoo_files(const struct distro_advice *a, size_t *n)
{
	struct distro_file *v = NULL;
	*n = 0;
	add_file(&v, n, xstrdup("make.conf.fragment"), gentoo_make_conf(a));
	add_file(&v, n, xstrdup("package.env"), gentoo_package_env(a));
	for (size_t i = 0; i < a->n; i++)
		if (a->w[i].config >= 0)
			add_file(&v, n, xasprintf("env/%s.conf", a->w[i].workload),
				 gentoo_env(a, &a->w[i]));
	if (a->lto >= 0 && a->no_lto.n)
		add_file(&v, n, xstrdup("env/no-lto.conf"), gentoo_no_lto(a));
	for (size_t i = 0; i < a->nbreaks; i++)
		if (a->breaks[i].config != a->lto) /* env/no-lto.conf */
			add_file(&v, n, xasprintf("env/%s.conf", a->breaks[i].name),
				 gentoo_break_env(a, &a->breaks[i]));
	return v;
}

/* ---- Debian ---- */

/* 1 when flag is what Debian's amd64 compilers do unasked (-march=x86-64
 * -mtune=generic: the architecture's baseline), for a native
 * configuration on amd64: appending it says nothing */
static int debian_default(const struct rank_config *c, const char *flag)
{
	struct utsname u;
	if (*c->target || uname(&u) || strcmp(u.machine, "x86_64"))
		return 0;
	return !strcmp(flag, "-march=x86-64") || !strcmp(flag, "-mtune=generic");
}

/* The DEB_*_MAINT_APPEND lines of a configuration, each prefixed. */
static void debian_lines(FILE *out, const char *prefix, const struct rank_config *c,
			 const char *cflags)
{
	struct flag_split f;
	flags_split(cflags, &f);
	struct strlist app = {0}, dflt = {0};
	/* -O2 is dpkg-buildflags' own; LTO is its optimize=+lto feature */
	for (size_t i = 0; i < f.keep.n; i++)
		if (debian_default(c, f.keep.v[i]))
			sl_push(&dflt, f.keep.v[i]);
		else if (strcmp(f.keep.v[i], "-O2") && !str_starts_with(f.keep.v[i], "-flto"))
			sl_push(&app, f.keep.v[i]);
	char *s = sl_join(&app, " ");
	if (f.native.n)
		fprintf(out, "%s# left out: -march=native / -mtune=native are not explicit\n", prefix);
	if (dflt.n) {
		char *d = sl_join(&dflt, " ");
		fprintf(out, "%s# left out: %s, Debian amd64's default already\n", prefix, d);
		free(d);
	}
	sl_release(&dflt);
	if (*s) {
		fprintf(out, "%sexport DEB_CFLAGS_MAINT_APPEND += %s\n", prefix, s);
		fprintf(out, "%sexport DEB_CXXFLAGS_MAINT_APPEND += %s\n", prefix, s);
	}
	if (*c->ldflags)
		fprintf(out, "%sexport DEB_LDFLAGS_MAINT_APPEND += %s\n", prefix, c->ldflags);
	if (f.lto)
		fprintf(out, "%sexport DEB_BUILD_MAINT_OPTIONS += optimize=+lto\n", prefix);
	if (!*s && !*c->ldflags && !f.lto)
		fprintf(out, "%s# nothing to append: dpkg-buildflags' defaults (-O2) are these "
			     "flags\n", prefix);
	free(s);
	sl_release(&app);
	flags_release(&f);
}

/* NAME.mk: a broken package's debian/rules lines (dpkg-buildflags reads
 * the maintainer's settings last, so its STRIP takes out flags a global
 * DEB_CFLAGS_APPEND or buildflags.conf added) */
static char *debian_break_mk(const struct distro_advice *a, const struct distro_break *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	const struct rank_config *c = cfg(a, b->config);
	break_evidence(out, "# ", a, b);
	fprintf(out, "# include in their debian/rules after the package's own DEB_*_MAINT_* "
		     "settings\n");
	struct strlist strip = {0}, back = {0};
	int lto = 0;
	for (size_t i = 0; i < b->added.n; i++) {
		lto |= !strcmp(b->added.v[i], "-flto") || str_starts_with(b->added.v[i], "-flto=");
		if (!str_starts_with(b->added.v[i], "-m") || !strstr(b->added.v[i], "=native"))
			sl_push(&strip, b->added.v[i]);
	}
	/* the baseline's flags the configuration lacks, but dpkg's own */
	for (size_t i = 0; i < b->removed.n; i++)
		if (strcmp(b->removed.v[i], "-O2") && !debian_default(c, b->removed.v[i]))
			sl_push(&back, b->removed.v[i]);
	char *s = sl_join(&strip, " "), *k = sl_join(&back, " ");
	if (*s)
		fprintf(out, "export DEB_CFLAGS_MAINT_STRIP += %s\nexport DEB_CXXFLAGS_MAINT_STRIP "
			     "+= %s\n", s, s);
	if (*k)
		fprintf(out, "export DEB_CFLAGS_MAINT_APPEND += %s\nexport DEB_CXXFLAGS_MAINT_APPEND "
			     "+= %s\n", k, k);
	if (lto)
		fputs("export DEB_BUILD_MAINT_OPTIONS += optimize=-lto\n", out);
	if (!*s && !*k && !lto)
		fprintf(out, "# nothing to strip: %s differs from the baseline in no flag (its "
			     "compiler or linkage: build the package with the baseline's)\n",
			c->label);
	free(s);
	free(k);
	sl_release(&strip);
	sl_release(&back);
	fclose(out);
	return buf;
}

/* " gz mp3": the Debian source packages that broke under b */
static void put_sources(FILE *out, const struct distro_advice *a, const struct distro_break *b)
{
	for (size_t w = 0; w < b->workloads.n; w++) {
		const struct distro_pick *p = pick_of(a, b->workloads.v[w]);
		fprintf(out, " %s", p && p->deb_source ? p->deb_source : b->workloads.v[w]);
	}
}

static void debian_breaks(FILE *out, const struct distro_advice *a)
{
	for (size_t i = 0; i < a->nbreaks; i++) {
		const struct distro_break *b = &a->breaks[i];
		fprintf(out, "# broke under %s (%s): include %s.mk in the debian/rules of:",
			cfg(a, b->config)->label, cfg(a, b->config)->cflags, b->name);
		put_sources(out, a, b);
		/* the choice's: debian_choice includes it for them */
		fputs(b->config == a->rec.chosen ? " (done above, by DEB_SOURCE)\n" : "\n", out);
	}
}

/* The choice's break (what broke under it), or NULL. */
static const struct distro_break *chosen_break(const struct distro_advice *a)
{
	for (size_t i = 0; i < a->nbreaks; i++)
		if (a->breaks[i].config == a->rec.chosen)
			return &a->breaks[i];
	return NULL;
}

/* The choice's lines; when packages broke under it, only for the others:
 * those get the baseline's lines and their NAME.mk instead, picked by the
 * source package's name (pkg-info.mk's DEB_SOURCE), so the file is
 * included by every debian/rules alike. */
static void debian_choice(FILE *out, const struct distro_advice *a)
{
	const struct distro_break *b = chosen_break(a);
	if (!b) {
		debian_lines(out, "", cfg(a, a->rec.chosen), a->rec.cflags);
		return;
	}
	fprintf(out, "# %s broke %zu package(s): they build as the baseline %s with %s.mk "
		     "(beside this file)\nflagscope_dir := $(dir $(lastword $(MAKEFILE_LIST)))\n"
		     "DEB_SOURCE ?= $(shell dpkg-parsechangelog -SSource)\nifeq (,$(filter",
		cfg(a, b->config)->label, b->workloads.n, cfg(a, a->rec.r.baseline)->label, b->name);
	put_sources(out, a, b);
	fputs(",$(DEB_SOURCE)))\n", out);
	debian_lines(out, "", cfg(a, a->rec.chosen), a->rec.cflags);
	fputs("else\n", out);
	debian_lines(out, "", cfg(a, a->rec.r.baseline), a->base_cflags);
	fprintf(out, "include $(flagscope_dir)%s.mk\nendif\n", b->name);
}

static char *debian_rules(const struct distro_advice *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	fputs("# for debian/rules: dpkg-buildflags appends these to its defaults (-g -O2 "
	      "...; the last -O wins);\n# include this file after the package's own "
	      "DEB_*_MAINT_* settings: its += lines add to them\n", out);
	recommend_print_evidence(out, &a->rec);
	debian_choice(out, a);
	for (size_t i = 0; i < a->n; i++) {
		const struct distro_pick *p = &a->w[i];
		if (p->config < 0)
			continue;
		if (p->deb_source)
			fprintf(out, "# debian/rules of %s (workload %s)", p->deb_source, p->workload);
		else
			fprintf(out, "# %s (its recipe names no Debian source package)", p->workload);
		fprintf(out, ": its own best %s, %s ratio ", cfg(a, p->config)->label,
			a->rec.r.metric);
		put_ratio(out, &p->vs_global);
		fprintf(out, " against the above over its %zu run section(s), significant\n",
			p->vs_global.nruns);
		if (p->native_note)
			fprintf(out, "#   note: %s\n", p->native_note);
		debian_lines(out, "#   ", cfg(a, p->config), p->cflags);
	}
	if (a->lto != a->rec.chosen && !lto_evidence(out, a)) {
		fputs("# to use it, its lines instead of the above:\n", out);
		if (a->lto_note)
			fprintf(out, "#   note: %s\n", a->lto_note);
		debian_lines(out, "#   ", cfg(a, a->lto), a->lto_cflags);
	}
	if (a->lto >= 0 && a->no_lto.n) {
		fprintf(out, "# failed under LTO (%s): keep optimize=-lto in their debian/rules:",
			cfg(a, a->lto)->label);
		for (size_t i = 0; i < a->no_lto.n; i++) {
			const struct distro_pick *p = pick_of(a, a->no_lto.v[i]);
			fprintf(out, " %s", p && p->deb_source ? p->deb_source : a->no_lto.v[i]);
		}
		fputc('\n', out);
	}
	debian_breaks(out, a);
	fclose(out);
	return buf;
}

static struct distro_file *debian_files(const struct distro_advice *a, size_t *n)
{
	struct distro_file *v = NULL;
	add_file(&v, n, xstrdup("debian-rules.mk"), debian_rules(a));
	for (size_t i = 0; i < a->nbreaks; i++)
		add_file(&v, n, xasprintf("%s.mk", a->breaks[i].name), debian_break_mk(a, &a->breaks[i]));
	return v;
}

static const struct distro_writer {
	enum format format;
	struct distro_file *(*files)(const struct distro_advice *a, size_t *n);
} writers[] = {
	{FORMAT_PACKAGE_ENV, gentoo_files},
	{FORMAT_DPKG_BUILDFLAGS, debian_files},
};

struct distro_file *recommend_distro_files(const struct distro_advice *a, const char *format,
					   size_t *n)
{
	*n = 0;
	const struct distro_writer *w = FORMAT_WRITER(writers, format);
	return w ? w->files(a, n) : NULL;
}

format_set recommend_distro_formats(struct strbuf *err)
{
	return FORMAT_WRITERS("recommend distro formats", writers, err);
}

int recommend_distro_format(const char *format)
{
	return FORMAT_WRITER(writers, format) != NULL;
}
