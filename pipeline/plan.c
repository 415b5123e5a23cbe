/*
 * plan.c - a study's plan: configurations with their compilers and final
 * ids, workloads with their sources, and one build per pair (pipeline.h).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/paths.h"
#include "harness/debpkg.h"
#include "harness/fetch.h"
#include "harness/libc.h"
#include "harness/study_names.h"
#include "harness/sysroot.h"
#include "pipeline/flag_check.h"
#include "pipeline/pipeline_internal.h"

static void say_to(void (*to)(const char *, void *), void *user, const char *fmt, va_list ap)
{
	char *line = NULL;
	if (!to || vasprintf(&line, fmt, ap) < 0)
		return;
	to(line, user);
	free(line);
}

void pipeline_say(const struct pipeline_options *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say_to(o->ev.say, o->ev.user, fmt, ap);
	va_end(ap);
}

void pipeline_say_result(const struct pipeline_options *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say_to(o->ev.result ? o->ev.result : o->ev.say, o->ev.user, fmt, ap);
	va_end(ap);
}

int study_plan_init(struct study_plan *p, struct study *study, const struct strlist *source_args,
		    struct strbuf *err)
{
	memset(p, 0, sizeof(*p));
	p->study = *study;
	memset(study, 0, sizeof(*study));
	p->shard_n = 1;
	if (study_check_names(&p->study, err) || matrix_expand(&p->study, &p->matrix, err))
		return -1;
	p->nconfigs = p->matrix.n;
	p->configs = xcalloc(p->nconfigs ? p->nconfigs : 1, sizeof(*p->configs));
	for (size_t c = 0; c < p->nconfigs; c++) {
		p->configs[c].cfg = &p->matrix.configs[c];
		/* empty until probed: the builds point at it either way */
		p->configs[c].tc = xcalloc(1, sizeof(*p->configs[c].tc));
	}
	p->nworkloads = p->study.workloads.n;
	p->workloads = xcalloc(p->nworkloads ? p->nworkloads : 1, sizeof(*p->workloads));
	struct recipe **recipes = xcalloc(p->nworkloads ? p->nworkloads : 1, sizeof(*recipes));
	int rc = 0;
	for (size_t w = 0; w < p->nworkloads && !rc; w++) {
		recipes[w] = &p->workloads[w].recipe;
		const char *name = p->study.workloads.v[w];
		char *own = workload_find(p->study.path, name);
		int package = sl_find(&p->study.packages, name) >= 0;
		if (own)
			rc = recipe_load(name, p->study.path, recipes[w], err);
		/* a package is built as Debian builds it unless its recipe does
		 * so too (system = debian, adding [run] benchmarks): a benchmark
		 * recipe of the same name (gzip, bzip2: the upstream program
		 * built alone) would build no package and run no test suite */
		if (package && (!own || (!rc && !recipe_is_package(recipes[w])))) {
			recipe_release(recipes[w]);
			recipe_package(recipes[w], name);
		}
		free(own);
	}
	/* [sources] and --source replace a recipe's source before it is checked */
	if (!rc)
		rc = study_override_sources(&p->study, recipes, p->nworkloads, source_args, err);
	for (size_t w = 0; w < p->nworkloads && !rc; w++)
		rc = recipe_check_names(recipes[w], err);
	free(recipes);
	return rc;
}

/* The sysroot of spec, built (or found built): its folder, compiler and
 * link flags.  A dry run builds nothing: a sysroot not built yet gets the
 * folder and compiler it will have, and *pending is set.  0 or -1. */
static int sysroot_get(const struct config *cfg, const struct sysroot_spec *spec,
		       const struct pipeline_options *o, char **dir, char **cc, char **ldflags,
		       int *pending, struct strbuf *why)
{
	char *tflags = NULL;
	int built = 1, rc;
	if (o->dry_run) {
		rc = sysroot_locate(spec, dir, &built, why);
	} else {
		pipeline_say(o, "sysroot for %s (%s%s%s): building or reusing", cfg->label,
			     cfg->target, *spec->cflags ? " " : "", spec->cflags);
		rc = sysroot_build(spec, dir, o->ev.log, why);
	}
	if (!rc && !built) {
		*pending = 1;
		*cc = xasprintf("%s/bin/cc", *dir); /* as sysroot_toolchain() will say */
		*ldflags = xstrdup("-static");
	} else if (!rc) {
		rc = sysroot_toolchain(*dir, cc, &tflags, ldflags, why);
	}
	free(tflags);
	return rc;
}

/* A cross configuration gets its compiler: Debian's cross gcc for glibc,
 * or a musl sysroot built with the configuration's own target flags
 * (Debian's MIPS libraries are release-2 code a Loongson 2F cannot run).
 * Flags the sysroot must add (e.g. -ffp-contract=off under QEMU 7.2) go
 * into the configuration's flags and label: visible, never silent. */
static int prepare_cross(struct config *cfg, const struct pipeline_options *o, int *pending,
			 struct strbuf *why)
{
	char *triple_cc = xasprintf("%s-gcc", cfg->target);
	int default_cc = !strcmp(cfg->cc, "gcc");
	enum libc_cross how = libc_cross_kind(cfg->libc);
	if (how == LIBC_CROSS_DISTRO) {
		if (default_cc) {
			free(cfg->cc);
			cfg->cc = triple_cc;
		} else {
			free(triple_cc);
		}
		char *ld = xasprintf("-static%s%s", *cfg->ldflags ? " " : "", cfg->ldflags);
		free(cfg->ldflags);
		cfg->ldflags = ld;
		return 0;
	}
	if (how == LIBC_CROSS_NONE) {
		char *names = libc_cross_names();
		sb_addf(why, "%s for %s: only %s cross-compile", cfg->libc, cfg->target, names);
		free(names);
		free(triple_cc);
		return -1;
	}
	/* the C library is built for the target (-m flags: ISA, ABI, FP), not
	 * per optimisation level: one sysroot serves -O2 and -O3 alike */
	struct strlist words = {0}, target_words = {0};
	sl_split_ws(&words, cfg->cflags);
	for (size_t i = 0; i < words.n; i++)
		if (str_starts_with(words.v[i], "-m"))
			sl_push(&target_words, words.v[i]);
	char *target_flags = sl_join(&target_words, " ");
	sl_release(&words);
	sl_release(&target_words);
	struct sysroot_spec spec = {.triple = cfg->target, .cc = default_cc ? NULL : cfg->cc,
				    .cflags = target_flags, .emulated = cfg->cpu != NULL};
	struct sysroot_plan plan;
	char *dir = NULL, *cc = NULL, *ldflags = NULL;
	free(triple_cc);
	if (sysroot_plan(&spec, &plan, why)) {
		free(target_flags);
		return -1;
	}
	int rc = sysroot_get(cfg, &spec, o, &dir, &cc, &ldflags, pending, why);
	if (!rc) {
		if (*plan.added) {
			char *label = xasprintf("%s [+%s]", cfg->label, plan.added);
			char *flags = xasprintf("%s %s", cfg->cflags, plan.added);
			free(cfg->label);
			free(cfg->cflags);
			cfg->label = label;
			cfg->cflags = flags;
			cfg->notes = xasprintf("added %s: %s", plan.added, plan.notes);
		}
		char *ld = xasprintf("%s%s%s", ldflags, *cfg->ldflags ? " " : "", cfg->ldflags);
		free(cfg->ldflags);
		cfg->ldflags = ld;
		free(cfg->cc);
		cfg->cc = cc;
		cc = NULL;
		cfg->sysroot = dir;
		dir = NULL;
		cfg->link = 1;
	}
	free(dir);
	free(cc);
	free(ldflags);
	free(target_flags);
	sysroot_plan_release(&plan);
	return rc ? -1 : 0;
}

/* The id of what the configuration really builds with.  A sysroot's
 * compiler is named by the sysroot's folder (a hash of its spec), not by
 * its path in the cache, so a moved cache keeps the ids. */
static void final_id(struct config *cfg)
{
	char *cc = cfg->cc, *stable = NULL;
	if (cfg->sysroot) {
		const char *slash = strrchr(cfg->sysroot, '/');
		stable = xasprintf("sysroot:%s", slash ? slash + 1 : cfg->sysroot);
		cfg->cc = stable;
	}
	config_compute_id(cfg);
	cfg->cc = cc;
	free(stable);
}

static void prepare_config(struct plan_config *pc, const struct pipeline_options *o)
{
	struct config *cfg = pc->cfg;
	struct strbuf err = {0};
	char *driver = NULL;
	/* the libc level decides the compiler driver (musl-gcc, diet) */
	if (cfg->libc && !cfg->target &&
	    libc_lookup(cfg->libc)->driver(cfg->cc, cfg->link, &driver, &err))
		goto unsupported;
	if (driver) {
		free(cfg->cc);
		cfg->cc = driver;
	}
	if (cfg->target && prepare_cross(cfg, o, &pc->sysroot_pending, &err))
		goto unsupported;
	final_id(cfg);
	if (pc->sysroot_pending) /* a dry run: no compiler to ask yet */
		goto out;
	if (toolchain_probe(cfg->cc, pc->tc, &err))
		goto unsupported;
	pc->tc_ok = 1;
	/* a dry run probes too: a mistyped flag is said before the real run */
	pc->outcome = build_probe_flags(cfg, pc->tc, &pc->detail);
out:
	sb_release(&err);
	return;
unsupported:
	pc->outcome = OUTCOME_UNSUPPORTED;
	pc->detail = sb_detach(&err);
}

/* A cross configuration's probe compiles only (its libc is the sysroot's
 * business), but a variant's link needs lld where the cross compiler
 * looks for a linker (Debian 12's cross gcc does not find ld.lld): linked
 * here without any libc (-nostdlib, main the entry), so that a toolchain
 * that cannot is told before the build, like a native one. */
static void probe_cross_layout_link(struct plan_config *pc)
{
	struct config bare = *pc->cfg;
	bare.target = NULL; /* build_probe_flags links what is not cross */
	bare.cflags = xasprintf("%s -nostdlib -Wl,--entry=main", pc->cfg->cflags);
	pc->outcome = build_probe_flags(&bare, pc->tc, &pc->detail);
	free(bare.cflags);
}

/* A layout variant whose probe fails where variant 0's passed
 * failed on the variant's own flags: its toolchain cannot link functions
 * in a seeded order (no ld.lld, one before --shuffle-sections=GLOB=SEED
 * (lld 13), or a flag of the study lld refuses with them: -s with
 * --emit-relocs).  Said as such, and unsupported for that reason: the
 * variant's flags are not the study's.  Plain configurations come first
 * (matrix.h). */
static void explain_layout_probe(struct study_plan *p, size_t c)
{
	struct plan_config *pc = &p->configs[c];
	if (pc->cfg->layout && pc->cfg->target && pc->tc_ok && pc->outcome == OUTCOME_OK)
		probe_cross_layout_link(pc);
	if (!pc->cfg->layout || pc->outcome != OUTCOME_UNSUPPORTED_FLAG ||
	    p->configs[pc->cfg->layout_of].outcome != OUTCOME_OK)
		return;
	char *why = xasprintf("layout variant %d not built: the link of its flags failed where "
			      "variant 0's passed (a seeded function order needs "
			      "-fuse-ld=lld with --shuffle-sections and --emit-relocs: ld.lld 13 "
			      "or later, Debian's lld package): %s",
			      pc->cfg->layout, pc->detail ? pc->detail : "(no message)");
	free(pc->detail);
	pc->detail = why;
	pc->outcome = OUTCOME_UNSUPPORTED;
}

/* The recipe's source.NAME = SPEC trees; pw->src_id becomes a hash over
 * the main tree's id and each of theirs, so any of them changing rebuilds. */
static void prepare_extra_sources(struct plan_workload *pw)
{
	struct recipe *r = &pw->recipe;
	struct strbuf ids = {0};
	pw->extra_dirs = xcalloc(r->nextra ? r->nextra : 1, sizeof(*pw->extra_dirs));
	sb_addf(&ids, "%s\n", pw->src_id);
	for (size_t i = 0; i < r->nextra && !pw->src_error; i++) {
		struct strbuf err = {0};
		char id[65];
		if (source_fetch(r->extra[i].spec, r->dir, &pw->extra_dirs[i], id, &err))
			pw->src_error = xasprintf("source.%s: %s", r->extra[i].name, sb_str(&err));
		else
			sb_addf(&ids, "%s=%s\n", r->extra[i].name, id);
		sb_release(&err);
	}
	sha256_hex(ids.buf, ids.len, pw->src_id);
	sb_release(&ids);
}

/* an install changes the machine: said even under --quiet */
static void say_line(const char *line, void *user)
{
	pipeline_say_result(user, "%s", line);
}

/* A package's build dependencies, once per package per study (every
 * configuration builds it with the same ones): installed, said first,
 * unless the study refuses installs; missing ones settle its builds. */
static void prepare_build_deps(struct study_plan *p, struct plan_workload *pw,
			       const struct pipeline_options *o)
{
	struct strbuf why = {0};
	if (debpkg_build_deps(pw->recipe.name, pw->src_dir, p->study.build_deps == 0, say_line,
			      (void *)o, &why)) {
		pw->deps_error = sb_detach(&why);
		pipeline_say(o, "build-deps %s: %s", pw->recipe.name, pw->deps_error);
	}
	sb_release(&why);
}

static void prepare_sources(struct study_plan *p, const struct pipeline_options *o)
{
	for (size_t w = 0; w < p->nworkloads; w++) {
		struct plan_workload *pw = &p->workloads[w];
		struct strbuf err = {0};
		char *fact = recipe_source_fact(&pw->recipe); /* the report's words */
		pipeline_say(o, "source %s: %s", pw->recipe.name, fact);
		free(fact);
		if (source_fetch(pw->recipe.source, pw->recipe.dir, &pw->src_dir, pw->src_id, &err)) {
			pw->src_error = xasprintf("source: %s", sb_str(&err));
			pipeline_say(o, "source %s failed: %s", pw->recipe.name, sb_str(&err));
		} else if (pw->recipe.nextra) {
			prepare_extra_sources(pw);
			if (pw->src_error)
				pipeline_say(o, "source %s failed: %s", pw->recipe.name, pw->src_error);
		}
		sb_release(&err);
	}
}

/* Another shard's pairs are not built here, except the baseline of a
 * workload this shard measures: its warm-up makes the reference. */
static int shard_needs_reference(const struct study_plan *p, size_t c, size_t w)
{
	if ((int)c != p->matrix.baseline)
		return 0;
	for (size_t k = 0; k < p->nconfigs; k++)
		if (p->in_shard[k * p->nworkloads + w])
			return 1;
	return 0;
}

static void select_shard(struct study_plan *p)
{
	size_t n = p->nconfigs * p->nworkloads;
	p->in_shard = xcalloc(n ? n : 1, 1);
	for (size_t c = 0; c < p->nconfigs; c++)
		for (size_t w = 0; w < p->nworkloads; w++)
			p->in_shard[c * p->nworkloads + w] =
				p->shard_n <= 1 ||
				(p->shard_by_workload
					 ? w % (size_t)p->shard_n == (size_t)p->shard_i
					 : shard_selects(p->configs[c].cfg->id,
							 p->workloads[w].recipe.name, p->shard_i,
							 p->shard_n));
}

/* The packages this shard builds get their build dependencies (not on a
 * dry run: it installs nothing) */
static void prepare_packages(struct study_plan *p, const struct pipeline_options *o)
{
	for (size_t w = 0; w < p->nworkloads && !o->dry_run; w++) {
		struct plan_workload *pw = &p->workloads[w];
		int here = 0;
		for (size_t c = 0; c < p->nconfigs; c++)
			here |= p->in_shard[c * p->nworkloads + w] || shard_needs_reference(p, c, w);
		if (here && !pw->src_error && recipe_is_package(&pw->recipe))
			prepare_build_deps(p, pw, o);
	}
}

static void prepare_builds(struct study_plan *p)
{
	size_t nw = p->nworkloads;
	size_t n = p->nconfigs * nw;
	p->builds = xcalloc(n ? n : 1, sizeof(*p->builds));
	for (size_t c = 0; c < p->nconfigs; c++)
		for (size_t w = 0; w < nw; w++) {
			struct plan_config *pc = &p->configs[c];
			struct plan_workload *pw = &p->workloads[w];
			struct build *b = plan_build(p, c, w);
			b->cfg = pc->cfg;
			b->tc = pc->tc;
			b->recipe = &pw->recipe;
			b->src_dir = pw->src_dir ? pw->src_dir : pw->recipe.dir;
			b->src_id = pw->src_dir ? pw->src_id : "unavailable";
			b->extra_dirs = pw->extra_dirs;
			if (pc->tc_ok)
				build_init(b);
			/* what cannot be built is settled before the pool starts */
			if (!p->in_shard[c * nw + w] && !shard_needs_reference(p, c, w)) {
				b->settled = 1;
				b->outcome = OUTCOME_UNSUPPORTED;
				b->detail = xstrdup("in another shard");
			} else if (pc->outcome != OUTCOME_OK) {
				b->settled = 1;
				b->outcome = pc->outcome;
				b->detail = xstrdup(pc->detail ? pc->detail : "");
			} else if (pw->src_error) {
				b->settled = 1;
				b->outcome = OUTCOME_BUILD_FAILED;
				b->detail = xstrdup(pw->src_error);
			} else if (pw->deps_error) { /* not the configuration's doing */
				b->settled = 1;
				b->outcome = OUTCOME_UNSUPPORTED;
				b->detail = xstrdup(pw->deps_error);
			}
		}
}

int pipeline_prepare(struct study_plan *p, const struct pipeline_options *o, struct strbuf *err)
{
	if (paths_cache_check(err)) /* its builds are run as found */
		return -1;
	if (pipeline_check_metric(p, o, err))
		return -1;
	p->shard_i = o->shard_n > 1 ? o->shard_i : 0;
	p->shard_n = o->shard_n > 1 ? o->shard_n : 1;
	p->shard_by_workload = o->shard_by_workload;
	for (size_t c = 0; c < p->nconfigs; c++) {
		prepare_config(&p->configs[c], o);
		explain_layout_probe(p, c);
	}
	if (pipeline_check_flags(p, err))
		return -1;
	/* matrix_expand checked the ids the study names; the compilers and
	 * sysroots found since can make two of them one build */
	for (size_t i = 0; i < p->nconfigs; i++)
		for (size_t j = i + 1; j < p->nconfigs; j++)
			if (!strcmp(p->configs[i].cfg->id, p->configs[j].cfg->id)) {
				sb_addf(err, "%s: configurations '%s' and '%s' build with the same compiler and flags (make their levels differ)",
					p->study.path, p->configs[i].cfg->label,
					p->configs[j].cfg->label);
				return -1;
			}
	/* dry runs fetch too: a build key needs the source's identity */
	prepare_sources(p, o);
	select_shard(p);
	prepare_packages(p, o);
	prepare_builds(p);
	return 0;
}

/* What the rounds will be, with the study's own caps: "5", "stable (5 to
 * 30 runs, at most 300 s)", "auto (5 to 30 runs, until +-1% intervals)" */
static void print_repeat(const struct study *s, FILE *out)
{
	if (s->repeat_stable)
		fprintf(out, "stable (%d to %d runs, at most %g s)", s->repeat, s->max_repeat,
			s->max_seconds);
	else if (s->repeat_auto)
		fprintf(out, "auto (%d to %d runs, until the medians are known to +-%g%%)",
			s->repeat, s->max_repeat, 100 * s->target);
	else
		fprintf(out, "%d", s->repeat);
}

/* What layouts = N costs: N builds and N times the runs per configuration
 * (each variant is measured as repeat says). */
static void print_layouts(const struct study_plan *p, size_t plain, FILE *out)
{
	int n = p->study.layouts;
	fprintf(out, "layouts %d: each configuration built %d times, differing only in code "
		     "addresses (variant 0 the compiler's function order", n, n);
	for (int v = 1; v < n; v++) {
		struct strbuf what = {0};
		matrix_layout_describe(v, &what);
		fprintf(out, ", %d %s", v, what.buf);
		sb_release(&what);
	}
	fprintf(out, "): %zu builds instead of %zu, and %d times the runs (each variant measured "
		     "as repeat says); verdicts count layout as a random effect\n",
		p->nconfigs * p->nworkloads, plain * p->nworkloads, n);
}

void study_plan_print(const struct study_plan *p, FILE *out)
{
	size_t plain = 0;
	for (size_t c = 0; c < p->nconfigs; c++)
		plain += !p->configs[c].cfg->layout;
	fprintf(out, "study %s: %zu configuration%s (%zu excluded) x %zu ", p->study.name, plain,
		plain == 1 ? "" : "s", p->matrix.excluded, p->nworkloads);
	if (plan_measures(p)) {
		fprintf(out, "workload%s, repeat ", p->nworkloads == 1 ? "" : "s");
		print_repeat(&p->study, out);
	} else { /* a sweep of packages: as the run's first line says it */
		fprintf(out, "package%s, built and tested (nothing to measure)",
			p->nworkloads == 1 ? "" : "s");
	}
	fputc('\n', out);
	if (p->study.layouts > 1)
		print_layouts(p, plain, out);
	size_t cached = 0, todo = 0;
	for (size_t c = 0; c < p->nconfigs; c++) {
		const struct plan_config *pc = &p->configs[c];
		const struct config *cfg = pc->cfg;
		fprintf(out, "\nconfig %s  %s%s\n  cc: %s%s%s\n  cflags: %s\n  ldflags: %s\n", cfg->id,
		        cfg->label, cfg->is_baseline ? "  (baseline)" : "", cfg->cc,
		        pc->tc_ok ? " = " : "", pc->tc_ok ? pc->tc->version : "", cfg->cflags,
		        cfg->ldflags);
		if (pc->sysroot_pending) {
			fprintf(out, "  sysroot: %s, not built yet (run builds it first)\n", cfg->sysroot);
			for (size_t w = 0; w < p->nworkloads; w++, todo++)
				fprintf(out, "  %-12s build %-16s  would build\n",
					p->workloads[w].recipe.name, "after the sysroot");
			continue;
		}
		if (!pc->tc_ok) {
			fprintf(out, "  unsupported: %s\n", pc->detail);
			continue;
		}
		for (size_t w = 0; w < p->nworkloads; w++) {
			const struct build *b = plan_build(p, c, w);
			/* a profile-guided build's key names its profile, made later */
			int pgo = b->pgo_phase == PGO_USE && !b->settled;
			fprintf(out, "  %-12s build %-16.16s  %s\n", b->recipe->name,
			        pgo ? "after training" : b->key,
			        b->settled ? outcome_name(b->outcome)
				: pgo ? "would build instrumented, train, build (pgo)"
				: b->cached ? "cached" : "would build");
			if (b->cached)
				cached++;
			else
				todo++;
		}
	}
	fprintf(out, "\n%zu builds cached, %zu would be built\n", cached, todo);
}

struct build *plan_build(const struct study_plan *p, size_t c, size_t w)
{
	return &p->builds[c * p->nworkloads + w];
}

void study_plan_release(struct study_plan *p)
{
	for (size_t i = 0; p->builds && i < p->nconfigs * p->nworkloads; i++)
		build_release(&p->builds[i]);
	free(p->builds);
	free(p->in_shard);
	free(p->twin);
	free(p->binary_hash);
	for (size_t c = 0; p->configs && c < p->nconfigs; c++) {
		if (p->configs[c].tc_ok)
			toolchain_release(p->configs[c].tc);
		free(p->configs[c].tc);
		free(p->configs[c].detail);
	}
	free(p->configs);
	for (size_t w = 0; p->workloads && w < p->nworkloads; w++) {
		struct plan_workload *pw = &p->workloads[w];
		for (size_t i = 0; pw->extra_dirs && i < pw->recipe.nextra; i++)
			free(pw->extra_dirs[i]);
		free(pw->extra_dirs);
		recipe_release(&pw->recipe);
		free(pw->src_dir);
		free(pw->src_error);
		free(pw->deps_error);
		free(pw->in_dir);
		free(pw->in_error);
		free(pw->open);
	}
	free(p->workloads);
	matrix_release(&p->matrix);
	study_release(&p->study);
	memset(p, 0, sizeof(*p));
}
