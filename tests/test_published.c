/*
 * test_published.c - analysis/published: the shipped libc-bench figures
 * (workloads/libcbench/published.ini) and the file's rules.
 * Expected: PASS.  Cases: the shipped file loads, names its source, has the
 * published rows with their figures, and maps only runs the libcbench
 * recipe has, each to one time row at most; libc-bench's upstream recipe
 * shares it (same_as); lookups by run and link level ("*" the fallback);
 * bad files said at file:line.
 */
#include <math.h>
#include <unistd.h>

#include "analysis/published.h"
#include "base/ini.h"
#include "tests/testlib.h"

/* the source tree, from this file's path (CMake compiles it by its
 * absolute path) */
static char *source_dir(const char *sub)
{
	const char *slash = strrchr(__FILE__, '/');
	return xasprintf("%.*s/../%s", (int)(slash - __FILE__), __FILE__, sub);
}

static int collect_runs(void *user, const char *section, const char *name, const char *value,
			int line, int continued, struct strbuf *err)
{
	(void)name;
	(void)value;
	(void)line;
	(void)continued;
	(void)err;
	struct strlist *runs = user;
	if (str_starts_with(section, "run ") && sl_find(runs, section + 4) < 0)
		sl_push(runs, section + 4);
	return 0;
}

static const struct published_row *row_by_id(const struct published *pub, const char *id)
{
	for (size_t i = 0; i < pub->n; i++)
		if (!strcmp(pub->rows[i].id, id))
			return &pub->rows[i];
	return NULL;
}

static void check_shipped(const char *tmp)
{
	char *dir = source_dir("workloads/libcbench");
	struct published pub;
	struct strbuf err = {0};
	T_CHECK(published_load(dir, &pub, &err) == 0, "%s", sb_str(&err));
	T_CHECK(pub.url && strstr(pub.url, "etalabs.net/compare_libcs.html") && pub.title &&
			strstr(pub.title, "Eta Labs"),
		"the source is named");
	T_CHECK(pub.libcs.n == 4 && sl_find(&pub.libcs, "musl") >= 0 &&
			sl_find(&pub.libcs, "glibc") >= 0 && sl_find(&pub.libcs, "dietlibc") >= 0,
		"libcs");
	size_t ntime = 0, ndirty = 0;
	for (size_t i = 0; i < pub.n; i++) {
		ntime += !strcmp(pub.rows[i].kind, "time");
		ndirty += !strcmp(pub.rows[i].kind, "dirty");
		for (size_t l = 0; l < pub.libcs.n; l++)
			T_CHECK(pub.rows[i].values[l] > 0, "[%s %s] has a %s figure", pub.rows[i].kind,
				pub.rows[i].id, pub.libcs.v[l]);
	}
	/* the Performance comparison's 18 rows and the Bloat comparison's 3
	 * memory rows */
	T_CHECK(ntime == 18 && ndirty == 3, "rows: %zu time, %zu dirty", ntime, ndirty);
	const struct published_row *big = row_by_id(&pub, "big");
	T_CHECK(big && published_value(&pub, big, "musl") == 0.027 &&
			published_value(&pub, big, "glibc") == 0.016 &&
			isnan(published_value(&pub, big, "bionic")),
		"Big allocation & free: musl 0.027, glibc 0.016");
	T_CHECK(published_find(&pub, "time", "malloc_big2", "static") == big,
		"malloc_big2 is the big row");
	T_CHECK(!published_find(&pub, "time", "malloc_sparse", "dynamic"),
		"malloc_sparse has no published row");
	const struct published_row *d = published_find(&pub, "dirty", "malloc_big1", "dynamic");
	const struct published_row *s = published_find(&pub, "dirty", "stdio_putcgetc", "static");
	const struct published_row *s2 = published_find(&pub, "dirty", "malloc_big1", "static");
	T_CHECK(d && !strcmp(d->id, "dynamic_overhead") && s &&
			!strcmp(s->id, "static_stdio_overhead") && s2 && !strcmp(s2->id, "static_overhead"),
		"dirty rows by link level, the stdio one before the '*' one");
	T_CHECK(!published_find(&pub, "dirty", "malloc_big1", NULL),
		"a block without a link level has no min. dirty row");

	/* every mapped run is a run of the recipe, in one time row at most */
	char *recipe = xasprintf("%s/recipe.ini", dir);
	struct strlist runs = {0}, seen = {0};
	T_CHECK(!ini_load(recipe, collect_runs, &runs, &err), "%s", sb_str(&err));
	T_CHECK(runs.n >= 29, "the recipe's runs: %zu", runs.n);
	for (size_t i = 0; i < pub.n; i++)
		for (size_t k = 0; k < pub.rows[i].runs.n; k++) {
			const char *run = pub.rows[i].runs.v[k];
			T_CHECK(!strcmp(run, "*") || sl_find(&runs, run) >= 0,
				"[%s %s] names run '%s', which libcbench has not", pub.rows[i].kind,
				pub.rows[i].id, run);
			if (!strcmp(pub.rows[i].kind, "time")) {
				T_CHECK(sl_find(&seen, run) < 0, "run %s in two time rows", run);
				sl_push(&seen, run);
			}
		}
	T_CHECK(seen.n == 23, "23 runs have a published time row, got %zu", seen.n);
	sl_release(&runs);
	sl_release(&seen);
	free(recipe);
	published_release(&pub);

	/* the upstream recipe's rows are the same */
	char *up = source_dir("workloads/libc-bench");
	struct published same;
	T_CHECK(published_load(up, &same, &err) == 0 && same.n == ntime + ndirty &&
			strstr(same.path, "libcbench/published.ini"),
		"libc-bench shares libcbench's figures: %s", sb_str(&err));
	published_release(&same);
	/* a copy of the upstream recipe in a user's folder: libcbench's file
	 * through the search path; none there: no figures, no error */
	char *user = xasprintf("%s/mine/libc-bench", tmp);
	mkdir_p(user, 0755);
	char *copy = xasprintf("cp %s/published.ini %s/", up, user);
	T_CHECK(!system(copy), "%s", copy);
	char *root = source_dir("");
	setenv("FLAGSCOPE_PATH", root, 1);
	T_CHECK(published_load(user, &same, &err) == 0 && same.n == ntime + ndirty,
		"a user's copy finds libcbench's figures on the search path: %s", sb_str(&err));
	published_release(&same);
	char *empty = xasprintf("%s/workloads", tmp);
	mkdir_p(empty, 0755);
	free(empty);
	setenv("FLAGSCOPE_PATH", tmp, 1);
	setenv("FLAGSCOPE_HOME", tmp, 1);
	setenv("XDG_DATA_HOME", tmp, 1);
	int rc = published_load(user, &same, &err);
	T_CHECK(rc == 1 || (rc == 0 && same.n == ntime + ndirty),
		"a same_as that cannot be found is no error: %d %s", rc, sb_str(&err));
	published_release(&same);
	unsetenv("FLAGSCOPE_PATH");
	free(root);
	free(copy);
	free(user);
	free(up);
	free(dir);
	sb_release(&err);
}

struct bad_case {
	const char *text;
	const char *why; /* a substring of the message */
};

static const struct bad_case bad_cases[] = {
	{"[source]\nlibcs = musl\n[time x]\nmusl = -1\n", "published.ini:4: musl = '-1' is not a positive"},
	{"[source]\nlibcs = musl\n[time x]\nuclibc = 1\n", "published.ini:4: unknown key 'uclibc'"},
	{"[time x]\nmusl = 1\n", "published.ini:2: a figure before [source]'s libcs"},
	{"[source]\nlibcs = musl\n[time x]\nlink = shared\n", "published.ini:4: link = 'shared'"},
	{"[source]\nlibcs = musl\n[memory x]\nmusl = 1\n", "published.ini:4: unknown section [memory x]"},
	{"[source]\nlibcs = musl\nsame_as = other\n[time x]\nmusl = 1\n", "same_as = 'other' with rows"},
};

static void check_bad(const char *tmp)
{
	char *dir = xasprintf("%s/wl", tmp);
	mkdir_p(dir, 0755);
	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		free(test_write(dir, "published.ini", bad_cases[i].text));
		struct published pub;
		struct strbuf err = {0};
		T_CHECK(published_load(dir, &pub, &err) == -1 && strstr(sb_str(&err), bad_cases[i].why),
			"case %zu: want '%s', got '%s'", i, bad_cases[i].why, sb_str(&err));
		published_release(&pub);
		sb_release(&err);
	}
	/* no file: 1, nothing loaded */
	char *path = xasprintf("%s/published.ini", dir);
	unlink(path);
	struct published pub;
	struct strbuf err = {0};
	T_CHECK(published_load(dir, &pub, &err) == 1 && !pub.n, "no published.ini: 1");
	published_release(&pub);
	sb_release(&err);
	free(path);
	free(dir);
}

int main(void)
{
	char *tmp = test_tmpdir("test_published");
	check_shipped(tmp);
	check_bad(tmp);
	free(tmp);
	return test_summary("test_published");
}
