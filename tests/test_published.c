/*
 * test_published.c - analysis/published: the shipped libc-bench figures
 * (workloads/libcbench/published.ini) and the file's rules.
 * Expected: PASS.  Cases: the shipped file loads, names its source, has the
 * published rows with their figures, and maps only runs the libcbench
 * recipe has, each to one time row at most; libc-bench's upstream recipe
 * shares it (same_as); lookups by run and link level ("*" the fallback);
 * the second source, the Raspberry Pi 4 study's table (2022), with its
 * hardware and figures, mapping only libcbench's runs, one row each;
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

/* The shipped file's second source: the Raspberry Pi 4 study's tables,
 * each row one run of the recipe's (runs), at most one row per kind */
static void check_rpi4(const struct published *first, const struct strlist *runs)
{
	const struct published *rpi = first->next;
	T_CHECK(first->label && !strcmp(first->label, "etalabs") && rpi && rpi->label &&
			!strcmp(rpi->label, "rpi4") && !rpi->next,
		"two sources: etalabs, then rpi4");
	if (!rpi)
		return;
	T_CHECK(rpi->hardware && strstr(rpi->hardware, "Raspberry Pi 4B at 600 MHz") &&
			rpi->versions && rpi->libcs.n == 2,
		"rpi4: its hardware and versions named, glibc and musl");
	const struct published_row *big = published_find(rpi, "time", "malloc_big1", "static");
	T_CHECK(big && published_value(rpi, big, "glibc") == 0.030093408 &&
			published_value(rpi, big, "musl") == 0.085103333,
		"rpi4 malloc_big1: glibc 0.030093408 s, musl 0.085103333 s");
	const struct published_row *ss = published_find(rpi, "time", "string_strstr_abc", NULL);
	T_CHECK(ss && published_value(rpi, ss, "glibc") < published_value(rpi, ss, "musl"),
		"rpi4 strstr: glibc faster (the sign Eta Labs' row does not have)");
	T_CHECK(!published_find(rpi, "time", "utf8_bigbuf", NULL),
		"rpi4 has no utf8 time row");
	struct strlist seen[2] = {{0}, {0}};
	size_t nkind[2] = {0, 0};
	for (size_t i = 0; i < rpi->n; i++) {
		const struct published_row *r = &rpi->rows[i];
		int k = !strcmp(r->kind, "dirty");
		nkind[k]++;
		T_CHECK(r->runs.n == 1 && sl_find(runs, r->runs.v[0]) >= 0 &&
				sl_find(&seen[k], r->runs.v[0]) < 0,
			"rpi4 [%s %s]: one run of libcbench's, once", r->kind, r->id);
		if (r->runs.n)
			sl_push(&seen[k], r->runs.v[0]);
		for (size_t l = 0; l < rpi->libcs.n; l++)
			T_CHECK(r->values[l] > 0, "rpi4 [%s %s] has a %s figure", r->kind, r->id,
				rpi->libcs.v[l]);
	}
	/* the article's execution time table (23 rows) and its dirty table (27) */
	T_CHECK(nkind[0] == 23 && nkind[1] == 27, "rpi4 rows: %zu time, %zu dirty", nkind[0],
		nkind[1]);
	sl_release(&seen[0]);
	sl_release(&seen[1]);
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
	check_rpi4(&pub, &runs);
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
	{"[source a]\nlibcs = musl\n[time x]\nmusl = 1\n[source]\nlibcs = musl\n",
	 "published.ini:6: a second source without a label"},
	{"[source a]\nlibcs = musl\n[source b]\nlibcs = musl\n[source a]\ntitle = t\n",
	 "published.ini:6: [source a] twice"},
	{"[source a]\nlibcs = musl\n[source b]\ntitle = t\n[time x]\nmusl = 1\n",
	 "published.ini:6: a figure before [source]'s libcs"},
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
	/* two sources: each its rows, in file order */
	free(test_write(dir, "published.ini",
			"[source a]\nlibcs = musl glibc\nhardware = h1\n[time x]\nruns = r\nmusl = 1\n"
			"glibc = 2\n[source b]\nlibcs = glibc musl\nversions = v2\n[time x]\nruns = r\n"
			"musl = 3\nglibc = 4\n"));
	T_CHECK(published_load(dir, &pub, &err) == 0 && pub.n == 1 && pub.next &&
			pub.next->n == 1 && !strcmp(pub.hardware, "h1") &&
			!strcmp(pub.next->versions, "v2") && !pub.next->hardware &&
			published_value(pub.next, published_find(pub.next, "time", "r", NULL),
					"musl") == 3 &&
			published_value(&pub, published_find(&pub, "time", "r", NULL), "musl") == 1,
		"two sources: %s", sb_str(&err));
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
