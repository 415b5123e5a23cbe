/*
 * test_searchpath.c - the workload and preset search path
 * (workloads/searchpath.h): each level alone, their order, shadowing, the
 * list with origins, the first writable folder, and recipe_load through it.
 * Expected: every check passes.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testlib.h"
#include "workloads/recipe.h"
#include "workloads/searchpath.h"

static const char recipe_text[] =
	"; a recipe the test writes: expected to load\n"
	"[workload]\ndescription = %s\n[build]\nscript = true\nbinaries = x\n[run]\nargs = x\n";

/* ROOT/workloads/NAME/recipe.ini with description desc */
static void put_recipe(const char *root, const char *name, const char *desc)
{
	char *dir = xasprintf("%s/workloads/%s", root, name);
	mkdir_p(dir, 0755);
	char *text = xasprintf(recipe_text, desc);
	free(test_write(dir, "recipe.ini", text));
	free(text);
	free(dir);
}

static void put_preset(const char *root, const char *name)
{
	char *dir = xasprintf("%s/presets", root);
	mkdir_p(dir, 0755);
	char *file = xasprintf("%s.study", name);
	free(test_write(dir, file, "; a preset the test writes\n[study]\nworkloads = crc32\n"));
	free(file);
	free(dir);
}

/* The origin of name as seen from study (NULL: none found). */
static const char *origin_of(const char *study, const char *name, char **path)
{
	struct searchpath sp;
	size_t level;
	searchpath_init(&sp, SP_WORKLOADS, study);
	char *p = searchpath_find(&sp, name, &level);
	const char *o = p ? sp_origin_name(sp.levels[level].origin) : NULL;
	if (path)
		*path = p;
	else
		free(p);
	searchpath_release(&sp);
	return o;
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	return a >= b && !strcmp(s + a - b, tail);
}

int main(void)
{
	char *t = test_tmpdir("test_searchpath");
	char *home = xasprintf("%s/home", t), *p1 = xasprintf("%s/p1", t), *p2 = xasprintf("%s/p2", t),
	     *xdg = xasprintf("%s/xdg", t), *proj = xasprintf("%s/proj", t);
	char *xdg_root = xasprintf("%s/flagscope", xdg);
	/* each level has its own name, and "both" at every level */
	put_recipe(home, "bundled-only", "from home");
	put_recipe(xdg_root, "user-only", "from user");
	put_recipe(p2, "path2-only", "from p2");
	put_recipe(p1, "path1-only", "from p1");
	put_recipe(proj, "study-only", "from study");
	const char *roots[] = {home, xdg_root, p2, p1, proj};
	for (size_t i = 0; i < ARRAY_SIZE(roots); i++)
		put_recipe(roots[i], "both", roots[i]);
	put_recipe(p2, "p2-p1", "p2");
	put_recipe(p1, "p2-p1", "p1");
	mkdir_p(home, 0755);
	setenv("FLAGSCOPE_HOME", home, 1);
	setenv("XDG_DATA_HOME", xdg, 1);
	char *pathvar = xasprintf("%s::%s", p1, p2); /* an empty entry is skipped */
	setenv("FLAGSCOPE_PATH", pathvar, 1);
	char *study = xasprintf("%s/my.study", proj);
	free(test_write(proj, "my.study", "; unused\n"));

	/* 1. each level alone */
	T_CHECK(origin_of(study, "study-only", NULL) && !strcmp(origin_of(study, "study-only", NULL), "study"),
		"study level");
	T_CHECK(!origin_of(NULL, "study-only", NULL), "no study: no study level");
	T_CHECK(!strcmp(origin_of(study, "path1-only", NULL), "FLAGSCOPE_PATH"), "first FLAGSCOPE_PATH folder");
	T_CHECK(!strcmp(origin_of(study, "path2-only", NULL), "FLAGSCOPE_PATH"), "second FLAGSCOPE_PATH folder");
	T_CHECK(!strcmp(origin_of(study, "user-only", NULL), "user"), "XDG_DATA_HOME level");
	T_CHECK(!strcmp(origin_of(study, "bundled-only", NULL), "bundled"), "FLAGSCOPE_HOME is the bundled level");
	T_CHECK(!origin_of(study, "nowhere", NULL), "a missing name");
	T_CHECK(!origin_of(study, "../proj/workloads/study-only", NULL), "a name with a slash");

	/* 2. order: study, then FLAGSCOPE_PATH in order, then user, then bundled */
	char *path;
	origin_of(study, "both", &path);
	T_CHECK(path && !strcmp(path, strstr(path, "/proj/workloads/both") ? path : ""), "study wins: %s", path);
	free(path);
	origin_of(NULL, "both", &path);
	T_CHECK(path && ends_with(path, "/p1/workloads/both"), "then FLAGSCOPE_PATH's first: %s", path);
	free(path);
	origin_of(NULL, "p2-p1", &path);
	T_CHECK(path && ends_with(path, "/p1/workloads/p2-p1"), "FLAGSCOPE_PATH in order: %s", path);
	free(path);
	unsetenv("FLAGSCOPE_PATH");
	origin_of(NULL, "both", &path);
	T_CHECK(path && ends_with(path, "/xdg/flagscope/workloads/both"), "then the user's: %s", path);
	free(path);
	unsetenv("XDG_DATA_HOME");
	char *fakehome = xasprintf("%s/fakehome", t);
	setenv("HOME", fakehome, 1);
	char *dot_local = xasprintf("%s/.local/share/flagscope", fakehome);
	put_recipe(dot_local, "dot-local", "from ~/.local");
	T_CHECK(origin_of(NULL, "dot-local", NULL) && !strcmp(origin_of(NULL, "dot-local", NULL), "user"),
		"~/.local/share/flagscope without XDG_DATA_HOME");
	setenv("XDG_DATA_HOME", "relative/ignored", 1);
	T_CHECK(origin_of(NULL, "dot-local", NULL) != NULL, "a relative XDG_DATA_HOME is ignored (XDG spec)");
	origin_of(NULL, "both", &path);
	T_CHECK(path && ends_with(path, "/home/workloads/both"), "then the bundled: %s", path);
	free(path);
	setenv("XDG_DATA_HOME", xdg, 1);
	setenv("FLAGSCOPE_PATH", pathvar, 1);

	/* 3. the list: first match wins, shadowed paths named, sorted */
	struct searchpath sp;
	struct sp_entry *e;
	size_t n;
	searchpath_init(&sp, SP_WORKLOADS, study);
	T_CHECK(sp.n == 5, "five levels: %zu", sp.n);
	searchpath_list(&sp, &e, &n);
	int seen = 0;
	for (size_t i = 0; i < n; i++) {
		T_CHECK(!i || strcmp(e[i - 1].name, e[i].name) < 0, "sorted: %s", e[i].name);
		if (!strcmp(e[i].name, "both")) {
			seen++;
			T_CHECK(sp.levels[e[i].level].origin == SP_STUDY, "both from the study");
			T_CHECK(e[i].shadows.n == 4, "both shadows 4: %zu", e[i].shadows.n);
		}
		if (!strcmp(e[i].name, "bundled-only")) {
			seen++;
			T_CHECK(sp.levels[e[i].level].origin == SP_BUNDLED && !e[i].shadows.n, "bundled-only");
		}
	}
	T_CHECK(seen == 2 && n == 7, "7 names: %zu", n);
	sp_entries_free(e, n);

	/* 4. the first writable folder: the study's, then the next */
	char *w = searchpath_first_writable(&sp);
	T_CHECK(w && ends_with(w, "/proj/workloads"), "first writable: %s", w ? w : "(none)");
	free(w);
	searchpath_release(&sp);
	char *ro = xasprintf("%s/ro", t);
	mkdir_p(ro, 0755);
	char *ro_study = xasprintf("%s/x.study", ro);
	searchpath_init(&sp, SP_WORKLOADS, ro_study);
	chmod(ro, 0555);
	w = searchpath_first_writable(&sp);
	if (geteuid() == 0) /* root writes anywhere: the study's folder still is first */
		T_CHECK(w && ends_with(w, "/ro/workloads"), "root: %s", w ? w : "(none)");
	else
		T_CHECK(w && ends_with(w, "/p1/workloads"), "read-only study folder skipped: %s", w ? w : "(none)");
	free(w);
	chmod(ro, 0755);
	searchpath_release(&sp);

	/* 5. recipe_load goes through the path; a miss names the folders */
	struct recipe r;
	struct strbuf err = {0};
	T_CHECK(!recipe_load("both", study, &r, &err), "load: %s", sb_str(&err));
	T_CHECK(r.dir && r.dir[0] == '/' && ends_with(r.dir, "/proj/workloads/both"), "its dir: %s", r.dir);
	T_CHECK(r.description && ends_with(r.description, "/proj"), "the study's recipe: %s", r.description);
	recipe_release(&r);
	/* a study named without a folder: its folder is the current one, made absolute */
	T_CHECK(!chdir(proj), "cd");
	T_CHECK(!recipe_load("study-only", "my.study", &r, &err), "relative study: %s", sb_str(&err));
	T_CHECK(r.dir && r.dir[0] == '/', "absolute $RECIPE: %s", r.dir);
	recipe_release(&r);
	T_CHECK(recipe_load("nowhere", study, &r, &err), "missing workload");
	T_CHECK(strstr(sb_str(&err), "no such workload") && strstr(sb_str(&err), "/p2/workloads"),
		"names the folders: %s", sb_str(&err));
	recipe_release(&r);
	sb_release(&err);
	struct strlist names = {0};
	workloads_list(study, &names);
	T_CHECK(names.n == 7 && sl_find(&names, "study-only") >= 0, "workloads_list: %zu", names.n);
	sl_release(&names);
	workloads_list(NULL, &names);
	T_CHECK(names.n == 6 && sl_find(&names, "study-only") < 0, "workloads_list without a study: %zu", names.n);
	sl_release(&names);

	/* 6. the same folder reached twice (a study beside the bundled
	 * workloads/) is one level, named bundled */
	char *beside = xasprintf("%s/beside.study", home);
	searchpath_init(&sp, SP_WORKLOADS, beside);
	T_CHECK(sp.n == 4 && sp.levels[sp.n - 1].origin == SP_BUNDLED, "deduplicated: %zu", sp.n);
	searchpath_release(&sp);

	/* 7. presets: FLAGSCOPE_PATH, user, bundled (home/presets or flagsets/presets) */
	put_preset(p2, "mine");
	put_preset(xdg_root, "mine");
	put_preset(xdg_root, "useronly");
	char *hp = xasprintf("%s/flagsets", home);
	put_preset(hp, "homeonly");
	searchpath_init(&sp, SP_PRESETS, study);
	T_CHECK(sp.n == 4, "preset levels (no study level): %zu", sp.n);
	size_t level;
	char *pp = searchpath_find(&sp, "mine", &level);
	T_CHECK(pp && ends_with(pp, "/p2/presets/mine.study") && sp.levels[level].origin == SP_PATH, "mine: %s", pp);
	free(pp);
	pp = searchpath_find(&sp, "useronly", &level);
	T_CHECK(pp && sp.levels[level].origin == SP_USER, "useronly: %s", pp);
	free(pp);
	pp = searchpath_find(&sp, "homeonly", &level);
	T_CHECK(pp && ends_with(pp, "/home/flagsets/presets/homeonly.study") && sp.levels[level].origin == SP_BUNDLED,
		"homeonly: %s", pp);
	free(pp);
	searchpath_release(&sp);

	char *owned[] = {t, home, p1, p2, xdg, proj, xdg_root, pathvar, study, fakehome, dot_local,
			 ro, ro_study, beside, hp};
	for (size_t i = 0; i < ARRAY_SIZE(owned); i++)
		free(owned[i]);
	return test_summary("test_searchpath");
}
