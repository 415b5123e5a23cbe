/* recipe.c - see recipe.h; the format is described in doc/recipe-format.md */
#include "workloads/recipe.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fingerprint.h"
#include "base/ini.h"
#include "base/paths.h"

struct recipe_loader {
	struct recipe *r;
	const char *path;
	int build_line; /* [build]'s first key, for the messages about it; 0: none */
};

/* [run NAME] in runs, [train NAME] in trains */
static struct recipe_run *run_get(struct recipe_run **runs, size_t *nruns, const char *name,
				  int line)
{
	for (size_t i = 0; i < *nruns; i++)
		if (!strcmp((*runs)[i].name, name))
			return &(*runs)[i];
	*runs = xrealloc(*runs, (*nruns + 1) * sizeof(**runs));
	struct recipe_run *run = &(*runs)[(*nruns)++];
	memset(run, 0, sizeof(*run));
	run->name = xstrdup(name);
	run->timeout = 300;
	run->line = line;
	return run;
}

/* A continued value joins its previous line: scripts with a newline, word
 * lists with a blank. */
static void set_text(char **field, const char *value, int continued, const char *sep)
{
	if (continued && *field) {
		char *joined = xasprintf("%s%s%s", *field, sep, value);
		free(*field);
		*field = joined;
	} else {
		free(*field);
		*field = xstrdup(value);
	}
}

static struct recipe_metric *metric_get(struct recipe_run *run, const char *name)
{
	for (size_t i = 0; i < run->nmetrics; i++)
		if (!strcmp(run->metrics[i].name, name))
			return &run->metrics[i];
	run->metrics = xrealloc(run->metrics, (run->nmetrics + 1) * sizeof(*run->metrics));
	struct recipe_metric *m = &run->metrics[run->nmetrics++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->unit = xstrdup("");
	return m;
}

/* ratio.NAME = A / B: two metric names around a slash */
static int ratio_key(struct recipe_loader *ld, struct recipe_metric *m, const char *value,
		     int line, struct strbuf *err)
{
	char a[128], b[128], rest;
	if (sscanf(value, " %127[^/ ] / %127s %c", a, b, &rest) != 2) {
		sb_addf(err, "%s:%d: ratio '%s' must be two metric names, A / B (e.g. insns / requests)",
			ld->path, line, m->name);
		return -1;
	}
	free(m->ratio_of);
	free(m->ratio_by);
	m->ratio_of = xstrdup(a);
	m->ratio_by = xstrdup(b);
	return 0;
}

/* timeout = SECONDS, in any section that has one */
static int seconds_key(struct recipe_loader *ld, const char *value, int line, double *out,
		       struct strbuf *err)
{
	char *end;
	*out = strtod(value, &end);
	if (end == value || *end || !(*out > 0)) {
		sb_addf(err, "%s:%d: timeout must be a positive number of seconds", ld->path, line);
		return -1;
	}
	return 0;
}

static int run_key(struct recipe_loader *ld, struct recipe_run *run, const char *name,
		   const char *value, int line, int continued, struct strbuf *err)
{
	if (!strcmp(name, "args")) {
		set_text(&run->args, value, continued, " ");
	} else if (!strcmp(name, "stdin")) {
		set_text(&run->stdin_file, value, 0, "");
	} else if (!strcmp(name, "timeout")) {
		return seconds_key(ld, value, line, &run->timeout, err);
	} else if (!strcmp(name, "expect")) {
		free(run->expect);
		run->expect = xasprintf("%s/%s", ld->r->dir, value);
		if (!file_exists(run->expect)) {
			sb_addf(err, "%s:%d: expected-output file '%s' does not exist (add it to the recipe folder)",
				ld->path, line, value);
			return -1;
		}
	} else if (!strcmp(name, "tolerate")) {
		set_text(&run->tolerate, value, continued, "\n");
	} else if (!strcmp(name, "outputs")) {
		sl_split_ws(&run->outputs, value);
	} else if (str_starts_with(name, "metric.") && name[7]) {
		struct recipe_metric *m = metric_get(run, name + 7);
		regex_t re;
		set_text(&m->regex, value, 0, "");
		if (regcomp(&re, value, REG_EXTENDED | REG_NEWLINE)) {
			sb_addf(err, "%s:%d: metric '%s' is not a valid extended regular expression",
				ld->path, line, name + 7);
			return -1;
		}
		if (re.re_nsub != 1) {
			regfree(&re);
			sb_addf(err, "%s:%d: metric '%s' needs exactly one (capture group) around the number",
				ld->path, line, name + 7);
			return -1;
		}
		regfree(&re);
	} else if (str_starts_with(name, "unit.") && name[5]) {
		set_text(&metric_get(run, name + 5)->unit, value, 0, "");
	} else if (str_starts_with(name, "higher_better.") && name[14]) {
		metric_get(run, name + 14)->higher_better = !strcmp(value, "yes");
	} else if (str_starts_with(name, "optional.") && name[9]) {
		metric_get(run, name + 9)->optional = !strcmp(value, "yes");
	} else if (str_starts_with(name, "ratio.") && name[6]) {
		return ratio_key(ld, metric_get(run, name + 6), value, line, err);
	} else {
		sb_addf(err, "%s:%d: unknown key '%s' in a [run] section (known: args, stdin, timeout, expect, outputs, tolerate, metric.NAME, unit.NAME, higher_better.NAME, optional.NAME, ratio.NAME)",
			ld->path, line, name);
		return -1;
	}
	return 0;
}

/* [build] system and the keys that go with it (buildsys.h) */
static int system_key(struct recipe_loader *ld, const char *name, const char *value, int line,
		      int continued, struct strbuf *err)
{
	struct recipe_system *sys = &ld->r->system;
	if (!strcmp(name, "system")) {
		if (!buildsys_lookup(value)) {
			sb_addf(err, "%s:%d: unknown build system '%s' (known: %s; or write a script)",
				ld->path, line, value, buildsys_names());
			return -1;
		}
		set_text(&sys->name, value, 0, "");
	} else if (!strcmp(name, "options")) {
		set_text(&sys->options, value, continued, " ");
	} else if (!strcmp(name, "build_args")) {
		set_text(&sys->args, value, continued, " ");
	} else if (!strcmp(name, "targets")) {
		set_text(&sys->targets, value, continued, " ");
	} else if (!strcmp(name, "subdir")) {
		if (value[0] == '/' || strstr(value, "..")) {
			sb_addf(err, "%s:%d: subdir '%s' must be a folder inside the source (a relative path without '..')",
				ld->path, line, value);
			return -1;
		}
		set_text(&sys->subdir, value, 0, "");
	} else {
		sb_addf(err, "%s:%d: unknown key '%s' in [build] (known: script, binaries, timeout, system, options, build_args, targets, subdir)",
			ld->path, line, name);
		return -1;
	}
	return 0;
}

/* source.NAME = SPEC in [workload]; the spec is checked against the
 * fetchers by recipe_check_names() (harness) */
static int extra_source_key(struct recipe_loader *ld, const char *name, const char *value,
			    int line, struct strbuf *err)
{
	struct recipe *r = ld->r;
	int ok = name[0] != '\0';
	for (const char *c = name; *c; c++)
		ok &= isalnum((unsigned char)*c) || *c == '_';
	if (!ok) {
		sb_addf(err, "%s:%d: 'source.%s': an extra source's name is letters, digits and '_' (it becomes $SRC_NAME in the build script)",
			ld->path, line, name);
		return -1;
	}
	for (size_t i = 0; i < r->nextra; i++)
		if (!strcmp(r->extra[i].name, name)) {
			sb_addf(err, "%s:%d: source.%s is given twice (once is enough)", ld->path,
				line, name);
			return -1;
		}
	r->extra = xrealloc(r->extra, (r->nextra + 1) * sizeof(*r->extra));
	r->extra[r->nextra++] = (struct recipe_extra_source){
		.name = xstrdup(name), .spec = xstrdup(value), .line = line};
	return 0;
}

static int on_item(void *user, const char *section, const char *name, const char *value,
		   int line, int continued, struct strbuf *err)
{
	struct recipe_loader *ld = user;
	struct recipe *r = ld->r;
	if (!strcmp(section, "workload")) {
		if (!strcmp(name, "description")) {
			set_text(&r->description, value, continued, " ");
		} else if (!strcmp(name, "source")) {
			set_text(&r->source, value, continued, " ");
			/* checked against the fetchers by recipe_check_names() (harness) */
			r->source_line = line;
		} else if (str_starts_with(name, "source.")) {
			return extra_source_key(ld, name + 7, value, line, err);
		} else if (!strcmp(name, "train")) {
			set_text(&r->train, value, 0, "");
			r->train_line = line;
		} else if (!strcmp(name, "slow")) {
			r->slow = !strcmp(value, "yes") || !strcmp(value, "true");
		} else if (!strcmp(name, "gentoo")) {
			set_text(&r->gentoo, value, continued, " ");
		} else {
			goto unknown;
		}
	} else if (!strcmp(section, "build")) {
		if (!ld->build_line)
			ld->build_line = line;
		if (!strcmp(name, "script"))
			set_text(&r->build_script, value, continued, "\n");
		else if (!strcmp(name, "binaries"))
			sl_split_ws(&r->binaries, value);
		else if (!strcmp(name, "timeout"))
			return seconds_key(ld, value, line, &r->build_timeout, err);
		else
			return system_key(ld, name, value, line, continued, err);
	} else if (!strcmp(section, "input")) {
		if (!strcmp(name, "script"))
			set_text(&r->input_script, value, continued, "\n");
		else if (!strcmp(name, "timeout"))
			return seconds_key(ld, value, line, &r->input_timeout, err);
		else
			goto unknown;
	} else if (!strcmp(section, "run") || str_starts_with(section, "run ")) {
		const char *run_name = section[3] ? section + 4 : "";
		return run_key(ld, run_get(&r->runs, &r->nruns, run_name, line), name, value, line,
			       continued, err);
	} else if (!strcmp(section, "train") || str_starts_with(section, "train ")) {
		if (strcmp(name, "args") && strcmp(name, "stdin") && strcmp(name, "timeout")) {
			sb_addf(err, "%s:%d: unknown key '%s' in a [train] section (known: args, stdin, timeout; a training run is not measured or checked)",
				ld->path, line, name);
			return -1;
		}
		const char *train_name = section[5] ? section + 6 : "";
		return run_key(ld, run_get(&r->trains, &r->ntrains, train_name, line), name, value,
			       line, continued, err);
	} else {
		sb_addf(err, "%s:%d: unknown section [%s] (known: [workload], [build], [input], [run], [run NAME], [train], [train NAME])",
			ld->path, line, section);
		return -1;
	}
	return 0;
unknown:
	sb_addf(err, "%s:%d: unknown key '%s' in [%s] (see %s)", ld->path, line, name, section,
		paths_recipe_doc());
	return -1;
}

/* The recipe's hash covers its folder's whole tree (base/fingerprint.h):
 * editing a bundled source or a generator rebuilds, in a subfolder or
 * behind a link too (only the top folder's files counted before). */
static int recipe_hash(struct recipe *r, const char *path, struct strbuf *err)
{
	struct strbuf why = {0};
	int rc = fingerprint_tree(r->dir, r->hash, &why);
	if (rc)
		sb_addf(err, "%s: %s (every file of a recipe's folder is read for its hash)", path,
			sb_str(&why));
	sb_release(&why);
	return rc;
}

/* A recipe builds with its own script or with a system, never both. */
static int recipe_check_build(const struct recipe *r, const char *path, int build_line,
			      struct strbuf *err)
{
	const struct recipe_system *sys = &r->system;
	if (r->build_script && sys->name) {
		sb_addf(err, "%s: [build] has both a script and system = %s (keep one)", path,
			sys->name);
		return -1;
	}
	if (!r->build_script && !sys->name) {
		if (sys->options || sys->args || sys->targets || sys->subdir)
			sb_addf(err, "%s: [build] sets options of a build system but no system (add 'system = %s')",
				path, buildsys_names());
		else
			sb_addf(err, "%s: no [build] script or system (see %s)", path,
				paths_recipe_doc());
		return -1;
	}
	if (r->build_script && (sys->options || sys->args || sys->targets || sys->subdir)) {
		sb_addf(err, "%s: [build] options, build_args, targets and subdir go with system =, not with a script (put them in the script)",
			path);
		return -1;
	}
	/* without them the build is "ok" with no unit verified */
	if (!r->binaries.n && !recipe_is_package(r)) {
		sb_addf(err, "%s:%d: [build] names no binaries (add 'binaries = PROGRAM ...': the programs to verify, relative to the build folder)",
			path, build_line);
		return -1;
	}
	return 0;
}

static int same_words(const char *a, const char *b)
{
	struct strlist wa = {0}, wb = {0};
	sl_split_ws(&wa, a ? a : "");
	sl_split_ws(&wb, b ? b : "");
	int same = wa.n == wb.n;
	for (size_t i = 0; i < wa.n && same; i++)
		same = !strcmp(wa.v[i], wb.v[i]);
	sl_release(&wa);
	sl_release(&wb);
	return same;
}

/* train = names a [train] section; a training run has args and is not a
 * measured run (a profile of the measured input flatters the build). */
static int recipe_check_train(const struct recipe *r, const char *path, struct strbuf *err)
{
	if (r->train && !recipe_train_run(r)) {
		sb_addf(err, "%s:%d: train = %s names no [train %s] section (add it, or name one of the recipe's [train] sections)",
			path, r->train_line, r->train, r->train);
		return -1;
	}
	for (size_t i = 0; i < r->ntrains; i++) {
		const struct recipe_run *t = &r->trains[i];
		if (!t->args) {
			sb_addf(err, "%s:%d: [train%s%s] has no args (add 'args = PROGRAM ...' with a smaller input than the measured runs')",
				path, t->line, *t->name ? " " : "", t->name);
			return -1;
		}
		for (size_t k = 0; k < r->nruns; k++)
			if (same_words(t->args, r->runs[k].args) &&
			    same_words(t->stdin_file, r->runs[k].stdin_file)) {
				sb_addf(err, "%s:%d: [train%s%s] runs what [run%s%s] measures (give the training run another, smaller input)",
					path, t->line, *t->name ? " " : "", t->name,
					*r->runs[k].name ? " " : "", r->runs[k].name);
				return -1;
			}
	}
	return 0;
}

const struct recipe_run *recipe_train_run(const struct recipe *r)
{
	for (size_t i = 0; i < r->ntrains; i++)
		if (!r->train || !strcmp(r->trains[i].name, r->train))
			return &r->trains[i];
	return NULL;
}

char *recipe_run_fact(const char *section, const struct recipe_run *t)
{
	return xasprintf("[%s%s%s] %s%s%s", section, *t->name ? " " : "", t->name, t->args,
			 t->stdin_file ? " < " : "", t->stdin_file ? t->stdin_file : "");
}

int recipe_load(const char *name, const char *study_file, struct recipe *r, struct strbuf *err)
{
	memset(r, 0, sizeof(*r));
	r->build_timeout = RECIPE_BUILD_TIMEOUT;
	r->input_timeout = RECIPE_INPUT_TIMEOUT;
	r->name = xstrdup(name);
	r->dir = workload_find(study_file, name);
	char *path = r->dir ? xasprintf("%s/recipe.ini", r->dir) : NULL;
	struct recipe_loader ld = {.r = r, .path = path};
	int rc = 0;
	if (!r->dir) {
		struct searchpath sp;
		searchpath_init(&sp, SP_WORKLOADS, study_file);
		char *where = searchpath_describe(&sp);
		sb_addf(err, "%s: no such workload (looked in %s; see flagscope list workloads)", name, where);
		free(where);
		searchpath_release(&sp);
		rc = -1;
	} else if (ini_load(path, on_item, &ld, err)) {
		rc = -1;
	} else if (recipe_check_build(r, path, ld.build_line, err) || recipe_check_train(r, path, err)) {
		rc = -1;
	} else if (!r->nruns && !recipe_is_package(r)) { /* a package's tests are its check */
		sb_addf(err, "%s: no [run] section (add one with 'args = PROGRAM ...'; see %s)", path,
			paths_recipe_doc());
		rc = -1;
	} else {
		for (size_t i = 0; i < r->nruns && !rc; i++)
			if (!r->runs[i].args) {
				sb_addf(err, "%s: [run %s] has no args", path, r->runs[i].name);
				rc = -1;
			}
	}
	if (!rc && !r->source)
		r->source = xstrdup("bundled");
	if (!rc)
		rc = recipe_hash(r, path, err);
	free(path);
	return rc;
}

static void runs_release(struct recipe_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct recipe_run *run = &runs[i];
		free(run->name);
		free(run->args);
		free(run->stdin_file);
		free(run->expect);
		free(run->tolerate);
		sl_release(&run->outputs);
		for (size_t m = 0; m < run->nmetrics; m++) {
			free(run->metrics[m].name);
			free(run->metrics[m].regex);
			free(run->metrics[m].ratio_of);
			free(run->metrics[m].ratio_by);
			free(run->metrics[m].unit);
		}
		free(run->metrics);
	}
	free(runs);
}

void recipe_release(struct recipe *r)
{
	free(r->name);
	free(r->dir);
	free(r->description);
	free(r->gentoo);
	free(r->source);
	free(r->source_origin);
	free(r->source_own);
	for (size_t i = 0; i < r->nextra; i++) {
		free(r->extra[i].name);
		free(r->extra[i].spec);
		free(r->extra[i].origin);
		free(r->extra[i].own);
	}
	free(r->extra);
	free(r->build_script);
	recipe_system_release(&r->system);
	free(r->input_script);
	sl_release(&r->binaries);
	runs_release(r->runs, r->nruns);
	runs_release(r->trains, r->ntrains);
	free(r->train);
	memset(r, 0, sizeof(*r));
}

char *source_spec_anchored(const char *spec, const char *base_dir)
{
	while (*spec == ' ' || *spec == '\t')
		spec++;
	if (str_starts_with(spec, "local:")) {
		char *quoted = str_unquote_dup(spec + 6);
		char *path = path_home_dup(quoted);
		free(quoted);
		char *cwd = base_dir || path[0] == '/' ? NULL : getcwd(NULL, 0);
		char *abs = path[0] == '/' ? xstrdup(path)
			: xasprintf("%s/%s", base_dir ? base_dir : cwd ? cwd : ".", path);
		/* the report says where the tree is, not how it was reached
		 * (studies/../x/./y) */
		char *real = *path ? realpath(abs, NULL) : NULL;
		char *anchored = xasprintf("local:%s", real ? real : abs);
		free(real);
		free(abs);
		free(cwd);
		free(path);
		return anchored;
	}
	struct strlist words = {0};
	sl_split_ws(&words, spec);
	char *joined = sl_join(&words, " ");
	sl_release(&words);
	return joined;
}

/* spec as an override takes it (a relative local: path from base_dir, or
 * the current directory), or NULL with why in err. */
static char *override_spec(const char *spec, const char *base_dir, struct strbuf *err)
{
	/* the kind is checked with the recipe's own (recipe_check_names,
	 * harness/study_names.h); here only its shape */
	const char *colon = strchr(spec, ':'), *blank = strpbrk(spec, " \t");
	if (!colon || colon == spec || (blank && blank < colon)) {
		sb_addf(err, "'%s' is not a source (write KIND:WHERE, e.g. local:/path or debian:gzip)",
			spec);
		return NULL;
	}
	const char *kind = spec + strspn(spec, " \t");
	char *path = str_starts_with(kind, "local:") ? str_unquote_dup(kind + 6) : NULL;
	int empty = path && !*path;
	free(path);
	if (empty) { /* it was anchored as the current or the study's folder */
		sb_add(err, "local: needs a PATH (write local:. for the folder it is taken from)");
		return NULL;
	}
	/* a relative local: path is the writer's, not the recipe folder's;
	 * a tree that is not there is refused where it was written (the
	 * recipe's own source is fetched later: a build outcome) */
	char *effective = source_spec_anchored(spec, base_dir);
	if (str_starts_with(effective, "local:") && !is_dir(effective + 6)) {
		sb_addf(err, "%s: no folder %s (unpack the source there or fix the path)", spec,
			effective + 6);
		free(effective);
		return NULL;
	}
	return effective;
}

/* Put effective in *spec, keeping the first one in *own, and origin. */
static void override_replace(char **spec, char **own, char **origin_field, char *effective,
			     const char *origin)
{
	if (!*own)
		*own = *spec;
	else
		free(*spec);
	*spec = effective;
	free(*origin_field);
	*origin_field = xstrdup(origin);
}

int recipe_override_source(struct recipe *r, const char *spec, const char *base_dir,
			   const char *origin, struct strbuf *err)
{
	char *effective = override_spec(spec, base_dir, err);
	if (!effective)
		return -1;
	override_replace(&r->source, &r->source_own, &r->source_origin, effective, origin);
	return 0;
}

int recipe_override_extra_source(struct recipe *r, const char *name, const char *spec,
				 const char *base_dir, const char *origin, struct strbuf *err)
{
	struct recipe_extra_source *x = NULL;
	for (size_t i = 0; i < r->nextra; i++)
		if (!strcmp(r->extra[i].name, name))
			x = &r->extra[i];
	if (!x) {
		sb_addf(err, "workload '%s' has no extra source '%s' (", r->name, name);
		for (size_t i = 0; i < r->nextra; i++)
			sb_addf(err, "%s%s.%s", i ? ", " : "its extra sources: ", r->name,
				r->extra[i].name);
		sb_add(err, r->nextra ? ")" : "its recipe has no source.NAME = line)");
		return -1;
	}
	char *effective = override_spec(spec, base_dir, err);
	if (!effective)
		return -1;
	override_replace(&x->spec, &x->own, &x->origin, effective, origin);
	return 0;
}

/* 1 when the recipe is flagscope's own (the bundled or installed
 * workloads folder), not one of the user's found earlier on the path */
static int recipe_is_bundled(const struct recipe *r)
{
	char *own = paths_workloads_dir();
	char *own_real = realpath(own, NULL);
	char *parent = xstrdup(r->dir);
	char *slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	char *parent_real = realpath(parent, NULL);
	int bundled = own_real && parent_real && !strcmp(own_real, parent_real);
	free(own);
	free(own_real);
	free(parent);
	free(parent_real);
	return bundled;
}

char *recipe_source_fact(const struct recipe *r)
{
	struct strbuf sb = {0};
	if (!r->source_origin)
		sb_addf(&sb, "%s", r->source);
	else
		sb_addf(&sb, "%s (from %s; the recipe's: %s)", r->source, r->source_origin,
			r->source_own);
	for (size_t i = 0; i < r->nextra; i++) {
		const struct recipe_extra_source *x = &r->extra[i];
		sb_addf(&sb, " + %s=%s", x->name, x->spec);
		if (x->origin)
			sb_addf(&sb, " (from %s; the recipe's: %s)", x->origin, x->own);
	}
	if (r->dir && !recipe_is_bundled(r))
		sb_addf(&sb, "; recipe %s", r->dir);
	return sb_detach(&sb);
}
