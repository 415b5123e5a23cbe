/* pipeline.c - see pipeline.h */
#include "search/pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/results.h"
#include "analysis/stats.h"
#include "analysis/store.h"
#include "pipeline/parts.h"
#include "search/culprit.h"
#include "search/minimise.h"
#include "search/search.h"

#define AXIS_NAME "flagscope-search"

/* The objectives: their names (the --metric choices) and their rows, by
 * one index, so each name is written once. */
enum { OBJ_TIME, OBJ_INSNS, OBJ_SIZE, OBJ_COUNT };

const char *const search_objective_names[OBJ_COUNT + 1] = {
	[OBJ_TIME] = "time", [OBJ_INSNS] = "insns", [OBJ_SIZE] = "size", [OBJ_COUNT] = NULL};

static const struct search_objective objectives[OBJ_COUNT] = {
	[OBJ_TIME] = {"time", "wall time (median of interleaved runs)", 1, 0, "check the meters"},
	/* stored under the name the meter pipeline_meters_for chose gives it,
	 * or by the runner's own */
	[OBJ_INSNS] = {"insns", "instructions executed", 0, 1, "is valgrind installed?"},
	[OBJ_SIZE] = {"size.text", ".text size of the binaries", 0, 0, "check the meters"},
};

const struct search_objective *search_objective_find(const char *name)
{
	for (size_t i = 0; i < OBJ_COUNT; i++)
		if (!strcmp(search_objective_names[i], name))
			return &objectives[i];
	return NULL;
}

/* The -O word that wins in cflags (the last), or "-O0". */
static char *last_level(const char *cflags)
{
	struct strlist w = {0};
	sl_split_ws(&w, cflags);
	char *level = xstrdup("-O0");
	for (size_t i = 0; i < w.n; i++)
		if (str_starts_with(w.v[i], "-O")) {
			free(level);
			level = xstrdup(w.v[i][2] ? w.v[i] : "-O1");
		}
	sl_release(&w);
	return level;
}

/* The baseline alone with `layouts` variants, planned as a dry run
 * (pipeline_prepare): its compiler probed (and each variant's link), its
 * recipes loaded with the study's [sources] applied, and each workload's
 * source identified by its content (the fetcher's id: a tree's hash, a
 * commit, a tarball's sha256), so an edited source is a new context even
 * where its spec reads the same.  The caller releases plan either way. */
static int plan_reduced(const struct search_pipeline *pl, int layouts, struct study_plan *plan,
			struct strbuf *err)
{
	struct study s;
	struct pipeline_options o = {.jobs = 1, .shard_n = 1, .dry_run = 1, .no_ranking = 1};
	int rc = study_init_reduced(&s, &pl->study, pl->base->levels, err);
	s.layouts = layouts;
	rc = rc || study_check(&s, err) || study_plan_init(plan, &s, NULL, err) ||
	     pipeline_prepare(plan, &o, err);
	study_release(&s); /* what study_plan_init did not take */
	return rc ? -1 : 0;
}

static int plan_baseline(struct search_pipeline *pl, struct strbuf *err)
{
	if (plan_reduced(pl, 1, &pl->plan, err))
		return -1;
	const struct plan_config *pc = &pl->plan.configs[0];
	if (!pc->tc_ok) {
		sb_addf(err, "%s: the baseline's compiler %s: %s", pl->study_path, pl->base->cc,
			pc->detail ? pc->detail : "cannot be used");
		return -1;
	}
	pl->tc = pc->tc;
	return 0;
}

/* Can the baseline's toolchain build the study's layout variants?  The
 * pipeline's own probe says (a dry run of the baseline with them: a
 * variant whose link fails where the plain build's passes, no ld.lld, is
 * unsupported); where it cannot, the verdicts fall back to one layout and
 * layouts_note says so. */
static void probe_layouts(struct search_pipeline *pl)
{
	struct study_plan plan = {0};
	struct strbuf err = {0};
	char *why = NULL;
	if (plan_reduced(pl, pl->layouts, &plan, &err))
		why = sb_detach(&err);
	for (size_t c = 0; !why && c < plan.nconfigs; c++) {
		const struct plan_config *pc = &plan.configs[c];
		if (pc->cfg->layout && pc->outcome != OUTCOME_OK)
			why = xasprintf("%s: %s", outcome_name(pc->outcome),
					pc->detail ? pc->detail : "(no message)");
	}
	if (why) {
		pl->layouts_note = xasprintf(
			"%s: layouts = %d: the baseline's toolchain cannot build layout variants "
			"(%s): search confirms and minimises with one layout, one build per flag "
			"set, so a difference it calls may be that build's layout (install lld, "
			"Debian's package, or set layouts = 1)",
			pl->study_path, pl->layouts, why);
		pl->layouts = 1;
	}
	free(why);
	study_plan_release(&plan);
	sb_release(&err);
}

/* What the objective depends on: the compiler, the baseline, the metric,
 * each workload's recipe and source content, the pin. */
static char *context_text(const struct search_pipeline *pl)
{
	struct strbuf ctx = {0};
	sb_addf(&ctx, "toolchain=%s cc=%s cflags=%s ldflags=%s link=%d libc=%s target=%s cpu=%s metric=%s workloads=",
		pipeline_toolchain_id(pl->tc), pl->base->cc, pl->base->cflags, pl->base->ldflags, pl->base->link,
		pl->base->libc ? pl->base->libc : "", pl->base->target ? pl->base->target : "",
		pl->base->cpu ? pl->base->cpu : "", pl->metric);
	for (size_t w = 0; w < pl->plan.nworkloads; w++) {
		const struct plan_workload *pw = &pl->plan.workloads[w];
		sb_addf(&ctx, "%s%s:%.16s:%.16s", w ? "," : "", pw->recipe.name, pw->recipe.hash,
			pw->src_dir ? pw->src_id : "unavailable");
	}
	/* runs pinned elsewhere measured another machine */
	if (pl->study.pin)
		sb_addf(&ctx, " pin=%s", pl->study.pin);
	return sb_detach(&ctx);
}

int search_pipeline_init(struct search_pipeline *pl, struct strbuf *err)
{
	pl->obj = search_objective_find(pl->metric);
	if (!pl->obj) {
		sb_addf(err, "search: no objective '%s' (use one of:", pl->metric);
		for (const char *const *n = search_objective_names; *n; n++)
			sb_addf(err, " %s", *n);
		sb_addc(err, ')');
		return -1;
	}
	if (pipeline_study_load(pl->study_path, &pl->study, err))
		return -1;
	/* the baseline, the context and the exploration are of the plain
	 * builds: layouts are the verdicts' (pipeline.h) */
	pl->layouts = pl->study.layouts > 1 ? pl->study.layouts : 1;
	pl->study.layouts = 1;
	if (matrix_expand(&pl->study, &pl->matrix, err))
		return -1;
	if (pl->matrix.baseline < 0) {
		sb_addf(err, "%s: the study has no baseline configuration (set baseline = in [study])",
			pl->study_path);
		return -1;
	}
	pl->base = &pl->matrix.configs[pl->matrix.baseline];
	if (plan_baseline(pl, err))
		return -1;
	if (pl->layouts > 1)
		probe_layouts(pl);
	pl->level = last_level(pl->base->cflags);
	pl->context_text = context_text(pl);
	sha256_hex(pl->context_text, strlen(pl->context_text), pl->context);
	pl->workdir = xasprintf("%s.search", pl->db);
	if (mkdir_p(pl->workdir, 0755)) {
		sb_addf(err, "%s: cannot make the folder for the batches' logs (check the folder of --db)",
			pl->workdir);
		return -1;
	}
	return 0;
}

void search_pipeline_release(struct search_pipeline *pl)
{
	study_plan_release(&pl->plan);
	matrix_release(&pl->matrix);
	study_release(&pl->study);
	free(pl->level);
	free(pl->workdir);
	free(pl->context_text);
	free(pl->layouts_note);
	sl_release(&pl->base_items);
	free(pl->base_values);
}

/* A batch's study: the user's study reduced to its baseline configuration
 * (flagsets/study.h: the same path, so the same workloads/ folder and
 * [sources]; timeout; meters), plus the axis AXIS_NAME whose levels are
 * "base" (the baseline itself, the study's baseline) and names[i] =
 * flags[i], added to the baseline's CFLAGS.  Checked as a study file is. */
static int batch_study(const struct search_pipeline *pl, char *const *names, char *const *flags,
		       size_t n, int repeat, int layouts, struct study *s, struct strbuf *err)
{
	if (study_init_reduced(s, &pl->study, pl->base->levels, err))
		return -1;
	s->repeat = repeat;
	s->layouts = layouts;
	/* checked once before the search (machine_study_check) */
	s->pin = pl->study.pin ? xstrdup(pl->study.pin) : NULL;
	s->pin_line = pl->study.pin_line;
	if (!pl->obj->noisy) {
		/* validation and the one metric are all the runs are for: the
		 * cheapest meter, and the registry's meter for insns */
		pipeline_meters_for(&pl->study, pl->base, pl->obj->stored, &s->meters);
		s->meters_line = 0;
	}
	sl_push(&s->baseline, "base");
	int rc = study_add_level(s, AXIS_NAME, &(struct level){.name = (char *)"base", .value = (char *)""},
				 err);
	for (size_t i = 0; i < n && !rc; i++)
		rc = study_add_level(s, AXIS_NAME, &(struct level){.name = names[i], .value = flags[i]},
				     err);
	return rc;
}

/* A batch's name: a hash of what its results depend on (the search's
 * context, the baseline's levels, the batch's levels, repeat, meters,
 * timeout and layouts), so a batch killed half-way resumes where the
 * pipeline stopped.  One layout adds nothing: the names of batches made
 * before layouts stay theirs. */
static char *batch_name(const struct search_pipeline *pl, const struct study *s)
{
	struct strbuf sb = {0};
	char *meters = sl_join(&s->meters, " "), hash[65];
	sb_addf(&sb, "%s\nbaseline=%s repeat=%d timeout=%g meters=%s", pl->context_text,
		pl->base->label, s->repeat, s->timeout, meters);
	if (s->layouts > 1)
		sb_addf(&sb, " layouts=%d", s->layouts);
	const struct axis *a = &s->axes[s->naxes - 1];
	for (size_t l = 0; l < a->nlevels; l++)
		sb_addf(&sb, "\n%s = %s", a->levels[l].name, a->levels[l].value);
	sha256_hex(sb_str(&sb), sb.len, hash);
	sb_release(&sb);
	free(meters);
	return xasprintf("search-%.16s", hash);
}

static void log_line(const char *line, void *user)
{
	if (user)
		fprintf(user, "flagscope: %s\n", line);
}

static void log_build(const struct build *b, size_t done, size_t total, void *user)
{
	struct strbuf line = {0};
	pipeline_build_line(b, done, total, &line);
	log_line(sb_str(&line), user);
	sb_release(&line);
}

static void log_run(const struct pipeline_run_event *e, void *user)
{
	struct strbuf line = {0};
	pipeline_run_line(e, &line);
	log_line(sb_str(&line), user);
	sb_release(&line);
}

/* A batch's study through the pipeline, in this process (a compiler that
 * crashes on a flag is a child of the build, so nothing here needs a
 * process of its own); what `run` would print goes to log.  The study is
 * moved into the plan.  0, or -1 with the reason in err (a stop by signal
 * is not one: the caller checks pl->stop). */
static int run_study(struct search_pipeline *pl, struct study *study, const char *log,
		     struct strbuf *err)
{
	FILE *lf = fopen(log, "w");
	struct study_plan plan = {0};
	struct store st = {0};
	struct pipeline_options o = {
		.jobs = pl->jobs > 0 ? pl->jobs : 1, .shard_n = 1,
		.ev = {.say = log_line, .build_done = log_build, .run_done = log_run, .user = lf,
		       .log = lf},
	};
	int rc = -1;
	if (!study_plan_init(&plan, study, NULL, err) && !pipeline_prepare(&plan, &o, err) &&
	    !store_open(&st, pl->db, 1, err) && !store_lock(&st, err))
		rc = pipeline_execute(&plan, &st, &o, 0, NULL, err) == PIPELINE_OK ? 0 : -1;
	if (lf) {
		if (rc)
			fprintf(lf, "flagscope: %s\n", sb_str(err));
		fclose(lf);
	}
	store_close(&st);
	study_plan_release(&plan);
	return rc;
}

int search_pipeline_run_levels(struct search_pipeline *pl, char *const *names, char *const *flags, size_t n,
			int repeat, int layouts, char **study, struct strbuf *err)
{
	struct study s;
	*study = NULL;
	if (batch_study(pl, names, flags, n, repeat, layouts, &s, err)) {
		study_release(&s);
		return -1;
	}
	*study = batch_name(pl, &s);
	s.name = xstrdup(*study);
	if (study_check(&s, err)) {
		study_release(&s);
		return -1;
	}
	char *log = xasprintf("%s/%s.log", pl->workdir, *study);
	struct strbuf why = {0};
	int rc = 0, failed = run_study(pl, &s, log, &why);
	pl->batches++;
	if (pl->stop && *pl->stop) {
		sb_addf(err, "interrupted while measuring %s (run the same search again to resume)",
			*study);
		rc = -1;
	} else if (failed) {
		sb_add(err, sb_str(&why));
		rc = -1;
	}
	sb_release(&why);
	study_release(&s);
	free(log);
	return rc;
}

static const char *config_id_of(struct result_config *c, size_t n, const char *name)
{
	size_t ln = strlen(name);
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(c[i].label);
		if (l >= ln && !strcmp(c[i].label + l - ln, name) &&
		    (l == ln || c[i].label[l - ln - 1] == ' '))
			return c[i].id;
	}
	return NULL;
}

static void free_values(double **v, size_t *c, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
	free(c);
}

static void free_layouts(int **layout, size_t n)
{
	for (size_t i = 0; layout && i < n; i++)
		free(layout[i]);
	free(layout);
}

/* One item's values of config id; NULL where they are of one layout. */
static double *item_values(struct store *st, const char *study, const char *id,
			   const char *workload, const char *run,
			   const struct search_objective *obj, size_t *n, int **layout)
{
	int *l = NULL;
	double *v = results_samples_layouts(st, study, id, workload, run, obj->stored, n,
					    NULL, &l);
	if (layout && stats_layout_count(l, *n) > 1)
		*layout = l;
	else
		free(l);
	return v;
}

int search_pipeline_values(struct search_pipeline *pl, const char *study, const char *name,
			   const char *metric, struct strlist *items, double ***values,
			   size_t **counts, int ***layout, enum outcome *status, struct strbuf *err)
{
	const struct search_objective *obj = search_objective_find(metric);
	struct store st;
	struct strlist workloads = {0}, runs = {0};
	*values = NULL;
	*counts = NULL;
	if (layout)
		*layout = NULL;
	*status = OUTCOME_RUN_FAILED;
	if (store_open(&st, pl->db, 0, err))
		return -1;
	size_t nc;
	struct result_config *cfgs = results_configs(&st, study, &nc);
	const char *id = config_id_of(cfgs, nc, name);
	int rc = 0;
	results_items(&st, study, &workloads, &runs);
	size_t ni = workloads.n;
	if (!id || !ni) {
		sb_addf(err, "%s: no results for '%s' in %s (see %s/%s.log)", pl->db, name, study,
			pl->workdir, study);
		rc = -1;
		goto out;
	}
	*values = xcalloc(ni, sizeof(double *));
	*counts = xcalloc(ni, sizeof(size_t));
	if (layout)
		*layout = xcalloc(ni, sizeof(int *));
	for (size_t i = 0; i < ni && !rc; i++) {
		char *item = *runs.v[i] ? xasprintf("%s/%s", workloads.v[i], runs.v[i])
					: xstrdup(workloads.v[i]);
		char *detail = NULL;
		enum outcome o = results_status(&st, study, id, workloads.v[i], runs.v[i], &detail);
		if (o != OUTCOME_OK) {
			sb_addf(err, "%s: %s%s%s", item, outcome_name(o), *detail ? ": " : "", detail);
			*status = o;
			rc = -1;
		} else {
			(*values)[i] = item_values(&st, study, id, workloads.v[i], runs.v[i], obj,
						   &(*counts)[i], layout ? &(*layout)[i] : NULL);
			if (!(*counts)[i]) {
				sb_addf(err, "%s: no %s measured for %s (%s)", item, metric, name,
					obj->missing);
				rc = -1;
			}
		}
		if (!rc)
			sl_push_owned(items, item);
		else
			free(item);
		free(detail);
	}
	if (rc) {
		free_values(*values, *counts, ni);
		*values = NULL;
		*counts = NULL;
		if (layout) {
			free_layouts(*layout, ni);
			*layout = NULL;
		}
	} else {
		*status = OUTCOME_OK;
	}
out:
	result_configs_free(cfgs, nc);
	sl_release(&workloads);
	sl_release(&runs);
	store_close(&st);
	return rc;
}

/* Does the compiler refuse these words, added to the baseline's flags,
 * as `flagscope run`'s own probe judges (an empty program)? */
static int flags_refused(void *user, const struct strlist *words)
{
	struct search_pipeline *pl = user;
	char *w = sl_join(words, " ");
	struct config c = *pl->base;
	c.cflags = xasprintf("%s%s%s", pl->base->cflags, *w ? " " : "", w);
	char *detail = NULL;
	int r = pipeline_probe_flags(&c, pl->tc, &detail) != OUTCOME_OK;
	free(detail);
	free(c.cflags);
	free(w);
	return r;
}

/* The build log of a workload of level `name` in `study` that says the
 * compiler crashed, and that build's folder (heap both), or 0. */
static int crash_log(struct search_pipeline *pl, const char *study, const char *name, char **log,
		     char **dir)
{
	struct store st;
	struct strbuf err = {0};
	*log = *dir = NULL;
	if (store_open(&st, pl->db, 0, &err)) {
		sb_release(&err);
		return 0;
	}
	size_t nc;
	struct result_config *cfgs = results_configs(&st, study, &nc);
	const char *id = config_id_of(cfgs, nc, name);
	for (size_t w = 0; id && w < pl->plan.nworkloads && !*log; w++) {
		char *key = results_build_key(&st, study, id, pl->plan.workloads[w].recipe.name);
		char *bdir = key && *key ? pipeline_build_dir(key) : NULL;
		char *path = bdir ? xasprintf("%s/build.log", bdir) : NULL;
		char *text = path ? file_read(path, NULL) : NULL;
		if (culprit_is_crash(text)) {
			*log = text;
			*dir = xasprintf("%s/out", bdir);
		} else {
			free(text);
		}
		free(path);
		free(bdir);
		free(key);
	}
	result_configs_free(cfgs, nc);
	store_close(&st);
	sb_release(&err);
	return *log != NULL;
}

/* A candidate the compiler refused or crashed on: the flags to blame,
 * found with the compiler alone when there are several, are remembered
 * in the store (later spaces drop them) and in pl->bad (the rest of this
 * search leaves them out).  What was found is added to *detail. */
static void remember_rejection(struct search_pipeline *pl, const char *flags, enum outcome status,
			       const char *study, const char *name, char **detail)
{
	int refused = status == OUTCOME_UNSUPPORTED_FLAG, crash = 0;
	char *log = NULL, *dir = NULL;
	if (!pl->ec && !pl->bad)
		return;
	if (status == OUTCOME_BUILD_FAILED)
		crash = crash_log(pl, study, name, &log, &dir) || culprit_is_crash(*detail);
	if (!refused && !crash)
		return;
	struct strlist words = {0}, culprit = {0};
	sl_split_ws(&words, flags);
	int checks = 0;
	char *file = NULL, *more = NULL;
	if (words.n == 1) {
		sl_push(&culprit, words.v[0]);
	} else if (refused) {
		if (culprit_find(&words, flags_refused, pl, 32, &culprit, &checks))
			more = xstrdup(" (no flag to blame: an empty program builds with them all)");
	} else if ((file = culprit_crash_file(log, dir))) {
		char *cflags = xasprintf("%s %s", pl->base->cflags, pipeline_record_flag(pl->tc));
		struct culprit_compile cc = {.cc = pl->base->cc, .cflags = cflags, .file = file,
					     .root = dir};
		if (culprit_find(&words, culprit_compile_crashes, &cc, 32, &culprit, &checks))
			more = xasprintf(" (no flag to blame: the crash does not reproduce in a lone compile of %s)",
					 file);
		free(cflags);
	} else {
		more = xstrdup(" (no flag to blame: the build log names no crashing file)");
	}
	if (culprit.n) {
		char *entry = sl_join(&culprit, " ");
		char *msg = xasprintf("%s%s", crash ? "crashed the compiler: " : "", *detail);
		if (pl->ec)
			evalcache_probe_put(pl->ec, pipeline_toolchain_id(pl->tc), entry, msg);
		if (pl->bad)
			known_bad_add(pl->bad, entry, msg);
		more = words.n == 1 ? xstrdup("")
				    : xasprintf(" (to blame: %s, found in %d compiles of %s)", entry,
						checks, file ? file : "an empty program");
		free(msg);
		free(entry);
	}
	char *d = xasprintf("%s%s", *detail, more ? more : "");
	free(*detail);
	*detail = d;
	free(more);
	free(file);
	free(log);
	free(dir);
	sl_release(&words);
	sl_release(&culprit);
}

/* The baseline's values of this batch; for a deterministic metric the
 * first batch's are kept (the same build gives the same count). */
static int base_values(struct search_pipeline *pl, const char *study, struct strlist *items,
		       double ***bv, size_t **bc, struct strbuf *err)
{
	int exact = !pl->obj->noisy;
	if (exact && pl->base_items.n) {
		size_t n = pl->base_items.n;
		*bv = xcalloc(n, sizeof(double *));
		*bc = xcalloc(n, sizeof(size_t));
		for (size_t i = 0; i < n; i++) {
			sl_push(items, pl->base_items.v[i]);
			(*bv)[i] = xmalloc(sizeof(double));
			(*bv)[i][0] = pl->base_values[i];
			(*bc)[i] = 1;
		}
		return 0;
	}
	enum outcome status;
	int rc = search_pipeline_values(pl, study, "base", pl->metric, items, bv, bc, NULL, &status,
					err);
	if (!rc && exact) {
		pl->base_values = xcalloc(items->n ? items->n : 1, sizeof(double));
		for (size_t i = 0; i < items->n; i++) {
			sl_push(&pl->base_items, items->v[i]);
			pl->base_values[i] = stats_median((*bv)[i], (*bc)[i]);
		}
	}
	if (rc) {
		struct strbuf why = {0};
		sb_addf(&why, "the baseline itself fails (%s), so no candidate can be judged (fix the study's baseline first): ",
			outcome_name(status));
		sb_add(&why, sb_str(err));
		sb_release(err);
		sb_add(err, sb_str(&why));
		sb_release(&why);
	}
	return rc;
}

/* A batch of flag sets measured in one study: each set's level name there
 * (c and a hash of its flags; "base" for the empty set, the baseline
 * itself) and the study's name. */
struct batch {
	char **names;
	size_t n;
	char *study;
};

/* Run flags[0..n) in one study, `repeat` measured runs of each of
 * `layouts` layout variants.  0, or -1 with a reason. */
static int batch_run(struct search_pipeline *pl, char *const *flags, size_t n, int repeat,
		     int layouts, struct batch *b, struct strbuf *err)
{
	b->n = n;
	b->study = NULL;
	b->names = xcalloc(n ? n : 1, sizeof(char *));
	char **lnames = xcalloc(n ? n : 1, sizeof(char *));
	char **lflags = xcalloc(n ? n : 1, sizeof(char *));
	size_t nl = 0;
	for (size_t i = 0; i < n; i++) {
		char h[65];
		sha256_hex(flags[i], strlen(flags[i]), h);
		b->names[i] = *flags[i] ? xasprintf("c%.12s", h) : xstrdup("base");
		if (*flags[i]) {
			lnames[nl] = b->names[i];
			lflags[nl++] = flags[i];
		}
	}
	int rc = search_pipeline_run_levels(pl, lnames, lflags, nl, repeat, layouts, &b->study, err);
	free(lnames);
	free(lflags);
	return rc;
}

/* rc, or -1 when a signal came while the batch's values were read: a
 * measurement cut short must not be cached as a failure. */
static int batch_interrupted(const struct search_pipeline *pl, const struct batch *b, int rc,
			     struct strbuf *err)
{
	if (rc || !pl->stop || !*pl->stop)
		return rc;
	sb_addf(err, "interrupted while measuring %s (run the same search again to resume)",
		b->study);
	return -1;
}

static void batch_release(struct batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->names[i]);
	free(b->names);
	free(b->study);
}

int search_pipeline_evaluate(void *ctx, char *const *flags, size_t n, struct eval_result *res,
		      struct strbuf *err)
{
	struct search_pipeline *pl = ctx;
	struct batch b;
	int repeat = pl->obj->noisy ? pl->repeat : 1;
	/* the exploration: one layout (pipeline.h) */
	int rc = batch_run(pl, flags, n, repeat, 1, &b, err);
	struct strlist bitems = {0};
	double **bv = NULL;
	size_t *bc = NULL;
	if (!rc)
		rc = base_values(pl, b.study, &bitems, &bv, &bc, err);
	for (size_t i = 0; i < n && !rc; i++) {
		struct strlist items = {0};
		double **v;
		size_t *c;
		enum outcome status;
		struct strbuf why = {0};
		res[i].batch = xstrdup(b.study);
		if (search_pipeline_values(pl, b.study, b.names[i], pl->metric, &items, &v, &c, NULL,
					   &status, &why)) {
			res[i].obj = INFINITY;
			res[i].status = status;
			res[i].detail = sb_detach(&why);
			remember_rejection(pl, flags[i], res[i].status, b.study, b.names[i],
					   &res[i].detail);
		} else {
			struct strbuf d = {0};
			double logsum = 0;
			for (size_t k = 0; k < items.n; k++) {
				double ratio = stats_median(v[k], c[k]) / stats_median(bv[k], bc[k]);
				logsum += log(ratio);
				sb_addf(&d, "%s%s=%.4f", k ? " " : "", items.v[k], ratio);
			}
			res[i].obj = items.n ? exp(logsum / (double)items.n) : INFINITY;
			if (!isfinite(res[i].obj) || items.n != bitems.n) {
				res[i].obj = INFINITY;
				res[i].status = OUTCOME_RUN_FAILED;
				sb_add(&d, " (no usable measurement)");
			} else {
				res[i].status = OUTCOME_OK;
			}
			res[i].detail = sb_detach(&d);
			free_values(v, c, items.n);
		}
		sb_release(&why);
		sl_release(&items);
	}
	rc = batch_interrupted(pl, &b, rc, err);
	if (rc)
		for (size_t i = 0; i < n; i++)
			eval_result_release(&res[i]);
	free_values(bv, bc, bitems.n);
	sl_release(&bitems);
	batch_release(&b);
	return rc;
}

int search_pipeline_sample(void *ctx, char *const *flags, size_t n, int repeat, struct eval_samples *out,
		    struct strbuf *err)
{
	struct search_pipeline *pl = ctx;
	struct batch b;
	/* a minimisation's verdicts: every layout the study asks for */
	int rc = batch_run(pl, flags, n, repeat, pl->layouts, &b, err);
	for (size_t i = 0; i < n && !rc; i++) {
		struct strlist items = {0};
		struct strbuf why = {0};
		memset(&out[i], 0, sizeof(out[i]));
		if (search_pipeline_values(pl, b.study, b.names[i], pl->metric, &items, &out[i].v,
					   &out[i].n, &out[i].layout, &out[i].status, &why)) {
			out[i].detail = sb_detach(&why);
		} else {
			out[i].nitems = items.n;
			out[i].status = OUTCOME_OK;
		}
		sb_release(&why);
		sl_release(&items);
	}
	rc = batch_interrupted(pl, &b, rc, err);
	if (rc)
		for (size_t i = 0; i < n; i++)
			eval_samples_release(&out[i]);
	batch_release(&b);
	return rc;
}
