/* searchpath.c - see searchpath.h */
#include "workloads/searchpath.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/paths.h"

static const char *const origin_names[] = {
	[SP_STUDY] = "study",
	[SP_PATH] = "FLAGSCOPE_PATH",
	[SP_USER] = "user",
	[SP_BUNDLED] = "bundled",
	[SP_INSTALLED] = "installed",
};

const char *sp_origin_name(enum sp_origin o)
{
	return o < ARRAY_SIZE(origin_names) ? origin_names[o] : "?";
}

static const char *kind_dir(enum sp_kind kind)
{
	return kind == SP_PRESETS ? "presets" : "workloads";
}

/* Canonical when it exists, so the same folder reached two ways is one
 * level and $RECIPE is absolute; else made absolute against the cwd. */
static char *absolute(const char *path)
{
	char *real = realpath(path, NULL);
	if (real)
		return real;
	if (path[0] == '/')
		return xstrdup(path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

static void add_level(struct searchpath *sp, char *dir, enum sp_origin origin)
{
	sp->levels = xrealloc(sp->levels, (sp->n + 1) * sizeof(*sp->levels));
	sp->levels[sp->n].dir = absolute(dir);
	sp->levels[sp->n].origin = origin;
	sp->n++;
	free(dir);
}

/* Said once per process: a $FLAGSCOPE_PATH folder with neither workloads/
 * nor presets/ most likely holds recipes itself, which is not the shape. */
static void check_path_entry(const char *dir)
{
	static struct strlist said;
	if (!is_dir(dir) || sl_find(&said, dir) >= 0)
		return;
	sl_push(&said, dir);
	char *w = xasprintf("%s/workloads", dir), *p = xasprintf("%s/presets", dir);
	if (!is_dir(w) && !is_dir(p))
		warn_msg("FLAGSCOPE_PATH folder %s has neither workloads/ nor presets/ (put a recipe in "
			 "%s/workloads/NAME/recipe.ini, a preset in %s/presets/NAME.study)", dir, dir, dir);
	free(w);
	free(p);
}

/* The folder of a study file (or study_file itself when it is a folder). */
static char *study_dir(const char *study_file)
{
	if (is_dir(study_file))
		return xstrdup(study_file);
	const char *slash = strrchr(study_file, '/');
	return slash ? xstrndup(study_file, slash == study_file ? 1 : (size_t)(slash - study_file))
		     : xstrdup(".");
}

void searchpath_init(struct searchpath *sp, enum sp_kind kind, const char *study_file)
{
	memset(sp, 0, sizeof(*sp));
	sp->kind = kind;
	const char *sub = kind_dir(kind);
	if (kind == SP_WORKLOADS && study_file && *study_file) {
		char *dir = study_dir(study_file);
		add_level(sp, xasprintf("%s/%s", dir, sub), SP_STUDY);
		free(dir);
	}
	const char *path = getenv("FLAGSCOPE_PATH");
	if (path && *path) {
		struct strbuf one = {0};
		for (const char *p = path;; p++) {
			if (*p == ':' || !*p) {
				if (one.len) {
					check_path_entry(sb_str(&one));
					add_level(sp, xasprintf("%s/%s", sb_str(&one), sub), SP_PATH);
				}
				sb_release(&one);
				if (!*p)
					break;
			} else {
				sb_addc(&one, *p);
			}
		}
	}
	/* the XDG spec: a relative $XDG_DATA_HOME is ignored */
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (xdg && xdg[0] == '/')
		add_level(sp, xasprintf("%s/flagscope/%s", xdg, sub), SP_USER);
	else if (home && *home)
		add_level(sp, xasprintf("%s/.local/share/flagscope/%s", home, sub), SP_USER);
	add_level(sp, kind == SP_PRESETS ? paths_presets_dir() : paths_workloads_dir(),
		  paths_layout() == PATHS_INSTALLED ? SP_INSTALLED : SP_BUNDLED);
	/* The same folder twice (a study beside the bundled workloads/): keep
	 * the later level, whose name says more. */
	size_t kept = 0;
	for (size_t i = 0; i < sp->n; i++) {
		int dup = 0;
		for (size_t j = i + 1; j < sp->n && !dup; j++)
			dup = !strcmp(sp->levels[i].dir, sp->levels[j].dir);
		if (dup)
			free(sp->levels[i].dir);
		else
			sp->levels[kept++] = sp->levels[i];
	}
	sp->n = kept;
}

void searchpath_release(struct searchpath *sp)
{
	for (size_t i = 0; i < sp->n; i++)
		free(sp->levels[i].dir);
	free(sp->levels);
	memset(sp, 0, sizeof(*sp));
}

/* The entry of name at level i, or NULL. */
static char *entry_at(const struct searchpath *sp, size_t i, const char *name)
{
	if (sp->kind == SP_PRESETS) {
		char *p = xasprintf("%s/%s.study", sp->levels[i].dir, name);
		if (file_exists(p) && !is_dir(p))
			return p;
		free(p);
		return NULL;
	}
	char *dir = xasprintf("%s/%s", sp->levels[i].dir, name);
	char *ini = xasprintf("%s/recipe.ini", dir);
	int ok = file_exists(ini);
	free(ini);
	if (ok)
		return dir;
	free(dir);
	return NULL;
}

static void say_shadow(const struct searchpath *sp, const char *name, const char *path,
		       size_t level, const char *hidden, size_t hidden_level)
{
	static struct strlist said;
	char *key = xasprintf("%d/%s", (int)sp->kind, name);
	if (sl_find(&said, key) >= 0) {
		free(key);
		return;
	}
	sl_push_owned(&said, key);
	warn_msg("%s '%s' from %s (%s) shadows the %s one (%s)",
		 sp->kind == SP_PRESETS ? "preset" : "workload", name, path,
		 sp_origin_name(sp->levels[level].origin), sp_origin_name(sp->levels[hidden_level].origin),
		 hidden);
}

char *searchpath_find(const struct searchpath *sp, const char *name, size_t *level)
{
	if (!*name || strchr(name, '/') || name[0] == '.')
		return NULL;
	for (size_t i = 0; i < sp->n; i++) {
		char *found = entry_at(sp, i, name);
		if (!found)
			continue;
		for (size_t j = i + 1; j < sp->n; j++) {
			char *hidden = entry_at(sp, j, name);
			if (hidden) {
				say_shadow(sp, name, found, i, hidden, j);
				free(hidden);
				break;
			}
		}
		if (level)
			*level = i;
		return found;
	}
	return NULL;
}

/* The names level i holds, sorted. */
static void level_names(const struct searchpath *sp, size_t i, struct strlist *names)
{
	struct dirent **ents;
	int n = scandir(sp->levels[i].dir, &ents, NULL, alphasort);
	for (int k = 0; k < n; k++) {
		const char *d = ents[k]->d_name;
		size_t len = strlen(d);
		if (d[0] != '.') {
			if (sp->kind == SP_PRESETS && len > 6 && !strcmp(d + len - 6, ".study")) {
				char *base = xstrndup(d, len - 6);
				char *p = entry_at(sp, i, base);
				if (p)
					sl_push_owned(names, base);
				else
					free(base);
				free(p);
			} else if (sp->kind == SP_WORKLOADS) {
				char *p = entry_at(sp, i, d);
				if (p)
					sl_push(names, d);
				free(p);
			}
		}
		free(ents[k]);
	}
	if (n >= 0)
		free(ents);
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sp_entry *)a)->name, ((const struct sp_entry *)b)->name);
}

int searchpath_list(const struct searchpath *sp, struct sp_entry **entries, size_t *n)
{
	*entries = NULL;
	*n = 0;
	for (size_t i = 0; i < sp->n; i++) {
		struct strlist names = {0};
		level_names(sp, i, &names);
		for (size_t k = 0; k < names.n; k++) {
			struct sp_entry *e = NULL;
			for (size_t j = 0; j < *n && !e; j++)
				if (!strcmp((*entries)[j].name, names.v[k]))
					e = &(*entries)[j];
			char *path = entry_at(sp, i, names.v[k]);
			if (e) {
				sl_push_owned(&e->shadows, path);
				continue;
			}
			*entries = xrealloc(*entries, (*n + 1) * sizeof(**entries));
			e = &(*entries)[(*n)++];
			memset(e, 0, sizeof(*e));
			e->name = xstrdup(names.v[k]);
			e->path = path;
			e->level = i;
		}
		sl_release(&names);
	}
	if (*n)
		qsort(*entries, *n, sizeof(**entries), entry_cmp);
	return 0;
}

void sp_entries_free(struct sp_entry *entries, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(entries[i].name);
		free(entries[i].path);
		sl_release(&entries[i].shadows);
	}
	free(entries);
}

char *searchpath_describe(const struct searchpath *sp)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < sp->n; i++)
		sb_addf(&sb, "%s%s", i ? ", " : "", sp->levels[i].dir);
	return sb_detach(&sb);
}

/* A folder that is writable, or that mkdir_p could make. */
static int could_write(const char *dir)
{
	char *p = xstrdup(dir);
	int ok = 0;
	for (;;) {
		if (is_dir(p)) {
			ok = !access(p, W_OK | X_OK);
			break;
		}
		if (file_exists(p))
			break; /* a file in the way */
		char *slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = 0;
	}
	free(p);
	return ok;
}

char *searchpath_first_writable(const struct searchpath *sp)
{
	for (size_t i = 0; i < sp->n; i++)
		if (sp->levels[i].origin != SP_BUNDLED && sp->levels[i].origin != SP_INSTALLED &&
		    could_write(sp->levels[i].dir))
			return xstrdup(sp->levels[i].dir);
	return NULL;
}

char *workload_find(const char *study_file, const char *name)
{
	struct searchpath sp;
	searchpath_init(&sp, SP_WORKLOADS, study_file);
	char *dir = searchpath_find(&sp, name, NULL);
	searchpath_release(&sp);
	return dir;
}

int workloads_list(const char *study_file, struct strlist *names)
{
	struct searchpath sp;
	struct sp_entry *e;
	size_t n;
	searchpath_init(&sp, SP_WORKLOADS, study_file);
	int rc = searchpath_list(&sp, &e, &n);
	for (size_t i = 0; i < n; i++)
		sl_push(names, e[i].name);
	sp_entries_free(e, n);
	searchpath_release(&sp);
	return rc;
}
