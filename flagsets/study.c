/* study.c - see study.h */
#include "flagsets/study.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/ini.h"
#include "flagsets/libc_kind.h"
#include "flagsets/settings.h"
#include "workloads/recipe.h"

struct loader {
	struct study *s;
	struct strbuf *errors; /* every error, one per line */
	int nerrors;
	int study_line;  /* the first key of [study], for what is missing there */
	struct strlist keys; /* the [study] keys read so far ... */
	int *key_lines;      /* ... and their lines */
};

static void load_error(struct loader *ld, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void load_error(struct loader *ld, int line, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (ld->errors->len)
		sb_addc(ld->errors, '\n');
	if (line > 0)
		sb_addf(ld->errors, "%s:%d: %s", ld->s->path, line, msg ? msg : "error");
	else
		sb_addf(ld->errors, "%s: %s", ld->s->path, msg ? msg : "error");
	free(msg);
	ld->nerrors++;
}

/* A [study] key given a second time would silently replace the first
 * (a second `workloads =` line drops the first line's workloads). */
static int key_repeated(struct loader *ld, const char *name, int line)
{
	int i = sl_find(&ld->keys, name);
	if (i >= 0) {
		load_error(ld, line, "'%s' is already set at line %d (one line per key: continue a long value on indented lines)",
			   name, ld->key_lines[i]);
		return 1;
	}
	ld->key_lines = xrealloc(ld->key_lines, (ld->keys.n + 1) * sizeof(*ld->key_lines));
	ld->key_lines[ld->keys.n] = line;
	sl_push(&ld->keys, name);
	return 0;
}

/* A key of [study] or [run]: its row of the settings table parses it
 * (settings.h); a [study] key given twice is refused first. */
static void setting_key(struct loader *ld, const char *section, const char *name,
			const char *value, int line, int continued)
{
	struct study *s = ld->s;
	int study = !strcmp(section, "study");
	if (study && !ld->study_line)
		ld->study_line = line;
	if (!study)
		s->run_line = line;
	if (study && !continued && key_repeated(ld, name, line))
		return;
	const struct study_setting *st = setting_lookup(section, name);
	if (!st) {
		char *known = setting_keys(section);
		load_error(ld, line, "unknown key '%s' in [%s] (known: %s)", name, section, known);
		free(known);
		return;
	}
	struct strbuf why = {0};
	if (setting_parse(st, s, value, line, continued, &why))
		load_error(ld, line, "%s", sb_str(&why));
	sb_release(&why);
}

static struct axis *axis_get(struct loader *ld, const char *name, int line)
{
	struct study *s = ld->s;
	for (size_t i = 0; i < s->naxes; i++)
		if (!strcmp(s->axes[i].name, name))
			return &s->axes[i];
	s->axes = xrealloc(s->axes, (s->naxes + 1) * sizeof(*s->axes));
	struct axis *a = &s->axes[s->naxes++];
	memset(a, 0, sizeof(*a));
	a->name = xstrdup(name);
	a->kind = axis_kind_lookup(name);
	a->line = line;
	return a;
}

/* Set key k (LKEY_COUNT: not a known key, named `key`) of level `level`
 * of axis a; `what` is how the line names it ("LEVEL.KEY"). */
static void set_level_key(struct loader *ld, struct axis *a, const char *level, int k,
			  const char *key, const char *what, const char *value, int line)
{
	struct level *l = NULL;
	for (size_t i = 0; i < a->nlevels; i++)
		if (!strcmp(a->levels[i].name, level))
			l = &a->levels[i];
	if (!l)
		load_error(ld, line, "'%s' sets a key of level '%s', which [axis %s] does not define above it (define the level first)",
			   what, level, a->name);
	else if (k == LKEY_COUNT)
		load_error(ld, line, "unknown level key '%s' (known: target, cpu, cc, ldflags, libc)", key);
	else if (!*value)
		load_error(ld, line, "'%s' has no value", what);
	else if (k == LKEY_LIBC && !libc_kind_known(value))
		load_error(ld, line, "'%s' names a C library flagscope does not know (known: %s)", what,
			   libc_kind_names());
	else {
		free(l->keys[k]);
		l->keys[k] = xstrdup(value);
	}
}

static void level_key(struct loader *ld, struct axis *a, const char *name, const char *dot,
		      const char *value, int line)
{
	char *level = xstrndup(name, (size_t)(dot - name));
	int k = 0;
	while (k < LKEY_COUNT && strcmp(level_key_names[k], dot + 1))
		k++;
	set_level_key(ld, a, level, k, dot + 1, name, value, line);
	free(level);
}

/* A new level of axis a: unique across axes, as the axis' kind allows. */
static void add_level(struct loader *ld, struct axis *a, const char *name, const char *value,
		      int line)
{
	size_t ai, li;
	if (!study_find_level(ld->s, name, &ai, &li)) {
		const struct axis *other = &ld->s->axes[ai];
		load_error(ld, line, "level '%s' is already defined at line %d in [axis %s] (level names must be unique across axes: rename one)",
			   name, other->levels[li].line, other->name);
		return;
	}
	if (strpbrk(name, " \t")) {
		load_error(ld, line, "level name '%s' has a blank (baseline, [exclude] and compare name levels by words: write e.g. 'O_2')",
			   name);
		return;
	}
	struct strbuf why = {0};
	if (a->kind->check_level && a->kind->check_level(name, value, &why)) {
		load_error(ld, line, "%s", sb_str(&why));
		sb_release(&why);
		return;
	}
	a->levels = xrealloc(a->levels, (a->nlevels + 1) * sizeof(*a->levels));
	a->levels[a->nlevels++] = (struct level){.name = xstrdup(name), .value = xstrdup(value),
						 .line = line};
}

static void axis_key(struct loader *ld, const char *axis_name, const char *name,
		     const char *value, int line, int continued)
{
	struct axis *a = axis_get(ld, axis_name, line);
	if (continued && a->nlevels && !strcmp(a->levels[a->nlevels - 1].name, name)) {
		struct level *l = &a->levels[a->nlevels - 1];
		char *joined = xasprintf("%s %s", l->value, value);
		free(l->value);
		l->value = joined;
		return;
	}
	const char *dot = strchr(name, '.');
	if (dot)
		level_key(ld, a, name, dot, value, line);
	else
		add_level(ld, a, name, value, line);
}

static void exclude_key(struct loader *ld, const char *name, const char *value, int line,
			int continued)
{
	struct study *s = ld->s;
	if (continued && s->nexcludes) {
		sl_split_ws(&s->excludes[s->nexcludes - 1].levels, value);
		return;
	}
	s->excludes = xrealloc(s->excludes, (s->nexcludes + 1) * sizeof(*s->excludes));
	struct exclude_rule *r = &s->excludes[s->nexcludes++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->line = line;
	sl_split_ws(&r->levels, value);
}

/* The workload a [sources] or --source key names: the whole key when a
 * workload has that name, else what comes before its last '.'
 * (WORKLOAD.EXTRA: the recipe's source.EXTRA).  Heap string. */
static char *source_key_workload(const char *key, const struct strlist *workloads)
{
	const char *dot = strrchr(key, '.');
	if (sl_find(workloads, key) >= 0 || !dot || dot == key)
		return xstrdup(key);
	return xstrndup(key, (size_t)(dot - key));
}

static void sources_key(struct loader *ld, const char *name, const char *value, int line)
{
	struct study *s = ld->s;
	for (size_t i = 0; i < s->nsources; i++)
		if (!strcmp(s->sources[i].workload, name)) {
			load_error(ld, line, "workload '%s' already has a source at line %d (keep one)",
				   name, s->sources[i].line);
			return;
		}
	if (!*value) {
		load_error(ld, line, "'%s' in [sources] has no source (write e.g. '%s = local:../%s')",
			   name, name, name);
		return;
	}
	s->sources = xrealloc(s->sources, (s->nsources + 1) * sizeof(*s->sources));
	s->sources[s->nsources++] = (struct study_source){
		.workload = xstrdup(name), .spec = xstrdup(value), .line = line};
}

/* NAME of "[axis NAME]", blanks around it dropped ("[axis  link ]" is the
 * reserved link axis, not a flags axis named " link "): heap string */
static char *axis_name(const char *section)
{
	char *copy = xstrdup(section + 5);
	char *trimmed = xstrdup(str_trim(copy));
	free(copy);
	return trimmed;
}

static int on_item(void *user, const char *section, const char *name, const char *value,
		   int line, int continued, struct strbuf *err)
{
	struct loader *ld = user;
	(void)err;
	if (!strcmp(section, "study") || !strcmp(section, "run"))
		setting_key(ld, section, name, value, line, continued);
	else if (str_starts_with(section, "axis ") && section[5]) {
		char *axis = axis_name(section);
		axis_key(ld, axis, name, value, line, continued);
		free(axis);
	}
	else if (!strcmp(section, "exclude"))
		exclude_key(ld, name, value, line, continued);
	else if (!strcmp(section, "sources"))
		sources_key(ld, name, value, line);
	else if (!*section)
		load_error(ld, line, "'%s' is outside any section (put it under [study])", name);
	else
		load_error(ld, line, "unknown section [%s] (known: [study], [axis NAME], [exclude], [run], [sources])",
			   section);
	return 0;
}

/* an [axis NAME] with no levels must still be seen, to be refused */
static void on_section(void *user, const char *section, int line)
{
	struct loader *ld = user;
	if (str_starts_with(section, "axis ") && section[5]) {
		char *axis = axis_name(section);
		axis_get(ld, axis, line);
		free(axis);
	}
}

static void check_level_list(struct loader *ld, const struct strlist *levels, int line,
			     const char *what)
{
	for (size_t i = 0; i < levels->n; i++) {
		size_t ai, li;
		if (study_find_level(ld->s, levels->v[i], &ai, &li)) {
			struct strlist names = {0};
			for (size_t a = 0; a < ld->s->naxes; a++)
				for (size_t l = 0; l < ld->s->axes[a].nlevels; l++)
					sl_push(&names, ld->s->axes[a].levels[l].name);
			const char *near = str_nearest(levels->v[i], (const char *const *)names.v,
						       names.n);
			char *hint = near ? xasprintf("did you mean '%s'? ", near) : NULL;
			load_error(ld, line, "%s names level '%s', which no axis has (%sdefine it under an [axis ...] or fix the name)",
				   what, levels->v[i], hint ? hint : "");
			free(hint);
			sl_release(&names);
		}
	}
}

/* after continuation lines are joined: the whole value is read at once */
static void read_values(struct loader *ld)
{
	struct study *s = ld->s;
	for (size_t a = 0; a < s->naxes; a++) {
		const struct axis_kind_info *k = s->axes[a].kind;
		for (size_t l = 0; l < s->axes[a].nlevels && k->read_value; l++) {
			struct level *lv = &s->axes[a].levels[l];
			struct strbuf why = {0};
			if (k->read_value(lv->name, &lv->value, &why))
				load_error(ld, lv->line, "%s", sb_str(&why));
			sb_release(&why);
		}
	}
}

/* 1 when levels name two levels (*i, *j) of one axis (*axis) */
static int two_of_one_axis(const struct study *s, const struct strlist *levels, size_t *axis,
			   size_t *i, size_t *j)
{
	for (*i = 0; *i < levels->n; (*i)++)
		for (*j = *i + 1; *j < levels->n; (*j)++) {
			size_t ai, li, aj, lj;
			if (!study_find_level(s, levels->v[*i], &ai, &li) &&
			    !study_find_level(s, levels->v[*j], &aj, &lj) && ai == aj) {
				*axis = ai;
				return 1;
			}
		}
	return 0;
}

/* packages = becomes the package names (a file's read), each a workload
 * too (settings.h) */
static void study_add_packages(struct loader *ld)
{
	struct study *s = ld->s;
	struct strlist names = {0};
	struct strbuf why = {0};
	char *dir = xstrdup(s->path), *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (packages_resolve(&s->packages, slash ? dir : ".", &names, &why))
		load_error(ld, s->packages_line, "%s", sb_str(&why));
	for (size_t i = 0; i < names.n; i++)
		if (sl_find(&s->workloads, names.v[i]) < 0)
			sl_push(&s->workloads, names.v[i]);
	sl_release(&s->packages);
	s->packages = names;
	sb_release(&why);
	free(dir);
}

static void unknown_workload(struct loader *ld, const struct strlist *known, const char *name)
{
	const char *near = str_nearest(name, (const char *const *)known->v, known->n);
	if (near)
		load_error(ld, ld->s->workloads_line,
			   "unknown workload '%s' (did you mean '%s'? see flagscope list workloads)",
			   name, near);
	else
		load_error(ld, ld->s->workloads_line,
			   "unknown workload '%s' (see flagscope list workloads)", name);
}

static void check_study(struct loader *ld)
{
	struct study *s = ld->s;
	if (s->packages.n)
		study_add_packages(ld);
	if (!s->workloads.n) {
		/* nothing to point at but where [study] starts (or the top) */
		load_error(ld, ld->study_line ? ld->study_line : 1,
			   "no workloads (add 'workloads = NAME ...' or 'packages = NAME ...' under [study]; see flagscope list workloads)");
	} else {
		struct strlist known = {0};
		workloads_list(s->path, &known);
		for (size_t i = 0; i < s->workloads.n; i++)
			if (sl_find(&known, s->workloads.v[i]) < 0 &&
			    sl_find(&s->packages, s->workloads.v[i]) < 0)
				unknown_workload(ld, &known, s->workloads.v[i]);
		sl_release(&known);
		for (size_t i = 0; i < s->workloads.n; i++)
			if (sl_find(&s->workloads, s->workloads.v[i]) < (int)i)
				load_error(ld, s->workloads_line, "workload '%s' is named twice (name it once)",
					   s->workloads.v[i]);
	}
	for (size_t i = 0; i < s->naxes; i++)
		if (!s->axes[i].nlevels)
			load_error(ld, s->axes[i].line, "[axis %s] has no levels (add 'name = value' lines)",
				   s->axes[i].name);
	read_values(ld);
	check_level_list(ld, &s->baseline, s->baseline_line, "baseline");
	/* the baseline picks at most one level per axis */
	size_t ax, i1, i2;
	if (two_of_one_axis(s, &s->baseline, &ax, &i1, &i2))
		load_error(ld, s->baseline_line, "baseline names two levels of axis '%s': '%s' and '%s' (pick one)",
			   s->axes[ax].name, s->baseline.v[i1], s->baseline.v[i2]);
	for (size_t i = 0; i < s->nexcludes; i++) {
		const struct exclude_rule *r = &s->excludes[i];
		if (!r->levels.n)
			load_error(ld, r->line, "exclude rule '%s' lists no levels", r->name);
		char *what = xasprintf("exclude rule '%s'", r->name);
		check_level_list(ld, &r->levels, r->line, what);
		free(what);
		/* a rule matches a configuration with all its levels */
		if (two_of_one_axis(s, &r->levels, &ax, &i1, &i2))
			load_error(ld, r->line, "exclude rule '%s' names two levels of axis '%s' ('%s' and '%s'): no configuration has both, so it excludes nothing (write one rule per level)",
				   r->name, s->axes[ax].name, r->levels.v[i1], r->levels.v[i2]);
	}
	for (size_t i = 0; i < s->nsources; i++) {
		char *w = source_key_workload(s->sources[i].workload, &s->workloads);
		if (sl_find(&s->workloads, w) < 0)
			load_error(ld, s->sources[i].line, "[sources] names workload '%s', which the study does not run (add it to workloads or remove the line)",
				   w);
		free(w);
	}
	if (s->run_line && !s->run_host)
		load_error(ld, s->run_line, "[run] names no board (add 'host = user@board', or 'hosts = a b' for a pool)");
	/* the training run runs here, the measured ones would run there */
	for (size_t a = 0; a < s->naxes && s->run_line; a++)
		for (size_t l = 0; l < s->axes[a].nlevels; l++)
			if (s->axes[a].kind->kind == AXIS_PGO && !strcmp(s->axes[a].levels[l].name, "gen-use"))
				load_error(ld, s->axes[a].levels[l].line, "pgo level 'gen-use' is not supported with [run] boards (the training run would not run where the measured runs do: remove the level or the [run] section)");
	/* meter names are the harness's: study_check_names() (harness/study_names.h) */
}

const char *stable_rule_name(int rule)
{
	for (int i = 0; stable_rule_names[i]; i++)
		if (i == rule)
			return stable_rule_names[i];
	return "?";
}

int stable_rule_parse(const char *name)
{
	for (int i = 0; stable_rule_names[i]; i++)
		if (!strcmp(name, stable_rule_names[i]))
			return i;
	return -1;
}

void study_init(struct study *s, const char *path)
{
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	s->repeat = 5;
	s->max_repeat = 30;
	s->target = 0.01;
	s->tie_margin = 0.01;
	s->stable_rule = STABLE_OBRIEN_FLEMING;
	s->max_seconds = 300;
	s->warmup = 1;
	s->layouts = 1;
	s->isolate_load = 0.5;
}

/* What a study that does not say gets once it is read: its name from the
 * file's, and its metric from its axes. */
static void fill_defaults(struct study *s)
{
	if (!s->name) {
		const char *base = strrchr(s->path, '/');
		base = base ? base + 1 : s->path;
		const char *dot = strrchr(base, '.');
		s->name = dot ? xstrndup(base, (size_t)(dot - base)) : xstrdup(base);
	}
	if (!s->metric) {
		/* emulated runs are ranked by instruction count, not by time */
		int emulated = 0;
		for (size_t a = 0; a < s->naxes; a++)
			for (size_t l = 0; l < s->axes[a].nlevels; l++)
				emulated |= (s->axes[a].kind->kind == AXIS_TARGET &&
					     strcmp(s->axes[a].levels[l].value, "native")) ||
					    s->axes[a].levels[l].keys[LKEY_TARGET] != NULL;
		s->metric = xstrdup(emulated ? "insns" : "time");
	}
}

int study_load(const char *path, struct study *s, struct strbuf *err)
{
	study_init(s, path);
	s->repeat_stable = 1; /* unless the file says `repeat` */
	struct loader ld = {.s = s, .errors = err};
	struct strbuf syntax = {0};
	int rc = ini_load_sections(path, on_item, on_section, &ld, &syntax);
	sl_release(&ld.keys);
	free(ld.key_lines);
	if (rc) {
		if (err->len && syntax.len)
			sb_addc(err, '\n');
		sb_add(err, sb_str(&syntax));
		sb_release(&syntax);
		return -1;
	}
	sb_release(&syntax);
	if (!ld.nerrors)
		check_study(&ld);
	fill_defaults(s);
	return ld.nerrors ? -1 : 0;
}

int study_add_level(struct study *s, const char *axis, const struct level *l, struct strbuf *err)
{
	struct loader ld = {.s = s, .errors = err};
	struct axis *a = axis_get(&ld, axis, l->line);
	add_level(&ld, a, l->name, l->value, l->line);
	for (int k = 0; k < LKEY_COUNT && !ld.nerrors; k++)
		if (l->keys[k]) {
			char *what = xasprintf("%s.%s", l->name, level_key_names[k]);
			set_level_key(&ld, a, l->name, k, level_key_names[k], what, l->keys[k], l->line);
			free(what);
		}
	return ld.nerrors ? -1 : 0;
}

int study_check(struct study *s, struct strbuf *err)
{
	struct loader ld = {.s = s, .errors = err};
	check_study(&ld);
	fill_defaults(s);
	return ld.nerrors ? -1 : 0;
}

int study_init_reduced(struct study *s, const struct study *from, const size_t *levels,
		       struct strbuf *err)
{
	study_init(s, from->path);
	for (size_t i = 0; i < from->workloads.n; i++)
		sl_push(&s->workloads, from->workloads.v[i]);
	s->workloads_line = from->workloads_line;
	for (size_t i = 0; i < from->packages.n; i++)
		sl_push(&s->packages, from->packages.v[i]);
	s->build_deps = from->build_deps;
	s->timeout = from->timeout;
	for (size_t i = 0; i < from->meters.n; i++)
		sl_push(&s->meters, from->meters.v[i]);
	s->meters_line = from->meters_line;
	if (from->nsources)
		s->sources = xcalloc(from->nsources, sizeof(*s->sources));
	for (size_t i = 0; i < from->nsources; i++)
		s->sources[s->nsources++] = (struct study_source){
			.workload = xstrdup(from->sources[i].workload),
			.spec = xstrdup(from->sources[i].spec), .line = from->sources[i].line};
	for (size_t a = 0; a < from->naxes; a++)
		if (study_add_level(s, from->axes[a].name, &from->axes[a].levels[levels[a]], err))
			return -1;
	return 0;
}

int study_find_level(const struct study *s, const char *level, size_t *axis, size_t *index)
{
	for (size_t a = 0; a < s->naxes; a++)
		for (size_t l = 0; l < s->axes[a].nlevels; l++)
			if (!strcmp(s->axes[a].levels[l].name, level)) {
				*axis = a;
				*index = l;
				return 0;
			}
	return -1;
}

void study_release(struct study *s)
{
	free(s->path);
	free(s->name);
	free(s->description);
	free(s->metric);
	free(s->pin);
	sl_release(&s->workloads);
	sl_release(&s->packages);
	sl_release(&s->meters);
	sl_release(&s->overridden);
	sl_release(&s->baseline);
	for (size_t a = 0; a < s->naxes; a++) {
		for (size_t l = 0; l < s->axes[a].nlevels; l++) {
			free(s->axes[a].levels[l].name);
			free(s->axes[a].levels[l].value);
			for (int k = 0; k < LKEY_COUNT; k++)
				free(s->axes[a].levels[l].keys[k]);
		}
		free(s->axes[a].levels);
		free(s->axes[a].name);
	}
	free(s->axes);
	for (size_t i = 0; i < s->nexcludes; i++) {
		free(s->excludes[i].name);
		sl_release(&s->excludes[i].levels);
	}
	free(s->excludes);
	free(s->run_host);
	free(s->run_identity);
	free(s->run_workdir);
	free(s->run_known_hosts);
	free(s->run_helper_cc);
	free(s->run_cpu);
	for (size_t i = 0; i < s->nsources; i++) {
		free(s->sources[i].workload);
		free(s->sources[i].spec);
	}
	free(s->sources);
	memset(s, 0, sizeof(*s));
}

static struct recipe *recipe_named(struct recipe **recipes, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(recipes[i]->name, name))
			return recipes[i];
	return NULL;
}

/* Replace the source KEY names (WORKLOAD or WORKLOAD.EXTRA) with spec;
 * where: "--source 'KEY=SPEC'" or "file:line", the start of an error. */
static int override_one(struct recipe **recipes, size_t n, const struct strlist *names,
			const char *key, const char *spec, const char *base_dir, const char *origin,
			const char *where, struct strbuf *err)
{
	char *name = source_key_workload(key, names);
	const char *extra = strcmp(name, key) ? key + strlen(name) + 1 : NULL;
	struct recipe *r = recipe_named(recipes, n, name);
	struct strbuf why = {0};
	int rc = 0;
	/* a workload that --workloads left out keeps its line unused */
	if (r && extra)
		rc = recipe_override_extra_source(r, extra, spec, base_dir, origin, &why);
	else if (r)
		rc = recipe_override_source(r, spec, base_dir, origin, &why);
	if (rc)
		sb_addf(err, "%s%s: %s", err->len ? "\n" : "", where, sb_str(&why));
	sb_release(&why);
	free(name);
	return rc;
}

int study_override_sources(const struct study *s, struct recipe **recipes, size_t n,
			   const struct strlist *cli, struct strbuf *err)
{
	int rc = 0;
	char *study_dir = NULL;
	char *abs = realpath(s->path, NULL);
	if (abs) {
		*strrchr(abs, '/') = '\0';
		study_dir = abs;
	}
	struct strlist names = {0};
	for (size_t k = 0; k < n; k++)
		sl_push(&names, recipes[k]->name);
	for (size_t i = 0; i < s->nsources; i++) {
		char *origin = xasprintf("%s:%d", s->path, s->sources[i].line);
		rc |= override_one(recipes, n, &names, s->sources[i].workload, s->sources[i].spec,
				   study_dir, origin, origin, err);
		free(origin);
	}
	for (size_t i = 0; cli && i < cli->n; i++) {
		const char *arg = cli->v[i], *eq = strchr(arg, '=');
		char *key = eq ? xstrndup(arg, (size_t)(eq - arg)) : NULL;
		char *where = xasprintf("--source '%s'", arg);
		char *name = key ? source_key_workload(key, &names) : NULL;
		if (!eq || eq == arg) {
			sb_addf(err, "%s%s: write NAME=SPEC or NAME.EXTRA=SPEC (e.g. coremark=local:/path/to/coremark, webservice.sqlite=local:/src/sqlite)",
				err->len ? "\n" : "", where);
			rc = -1;
		} else if (!recipe_named(recipes, n, name)) {
			sb_addf(err, "%s%s: the study does not run a workload '%s'",
				err->len ? "\n" : "", where, name);
			rc = -1;
		} else {
			rc |= override_one(recipes, n, &names, key, eq + 1, NULL, "--source", where,
					   err);
		}
		free(name);
		free(key);
		free(where);
	}
	sl_release(&names);
	free(study_dir);
	return rc;
}
