/*
 * test_buildsys.c - workloads/buildsys (the scripts of `[build] system =`)
 * and the source overrides of workloads/recipe.c:
 *   - a table of recipes (system and keys) and what their scripts must and
 *     must not say; every script passes `sh -n`
 *   - lookup, names, and the guess from a tree's files (debhelper's order)
 *   - a recipe with a script of its own gets it back unchanged
 *   - recipe_override_source: a relative local: path from the base folder,
 *     the recipe's own source kept, a second override replacing the first,
 *     a malformed spec refused with the recipe unchanged
 * Expected: all checks pass.  The systems' builds themselves are run by
 * tests/it_buildsys.sh and tests/slow_buildsys.sh.
 */
#include "workloads/buildsys.h"
#include "harness/study_names.h"
#include "workloads/recipe.h"
#include "tests/testlib.h"

#include <stdlib.h>
#include <string.h>

struct script_case {
	const char *system, *options, *args, *targets, *subdir;
	const char *must[6];    /* substrings the script holds */
	const char *mustnt[3]; /* substrings it must not hold */
};

static const struct script_case cases[] = {
	{"autotools", "--disable-nls", NULL, "gzip", NULL,
	 {"\"$srcdir/configure\" \"$@\" --disable-nls", "--disable-shared", "-all-static",
	  "--host=\"$HOST\" --build=", "--cache-file=\"$FLAGSCOPE_CONFIG_CACHE\"",
	  "make -j\"$JOBS\" \"$@\" gzip"},
	 {"cmake", "meson"}},
	{"cmake", "-DENABLE_TESTS=OFF", "VERBOSE=1", "cJSON_test", "sub dir",
	 {"srcdir=$SRC/'sub dir'", "-DCMAKE_BUILD_TYPE=None", "-DBUILD_SHARED_LIBS=OFF",
	  "set(CMAKE_SYSTEM_NAME Linux)", "--target cJSON_test -- VERBOSE=1",
	  "-DCMAKE_FIND_LIBRARY_SUFFIXES=.a"},
	 {"configure", "%%%%"}},
	{"meson", "-Ddocs=false", NULL, "bin/fribidi", NULL,
	 {"--buildtype=plain --default-library=static", "-Dprefer_static=true",
	  "--cross-file flagscope-cross.ini -Ddocs=false", "env -u CC -u CFLAGS -u LDFLAGS",
	  "cpu_family = '$family'", "ninja -j \"$JOBS\" bin/fribidi"},
	 {"%%%%", "cmake"}},
	{"make", "PORT_DIR=linux", NULL, "link", "src",
	 {"cp -R \"$SRC/.\" .", "make -C 'src' -j\"$JOBS\" \"$@\" PORT_DIR=linux link",
	  "CFLAGS=\"$CFLAGS\"", "AR=\"$HOST-ar\""},
	 {"configure", "cmake"}},
};

static void check_scripts(const char *tmp)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct script_case *c = &cases[i];
		struct recipe r = {.name = "t"};
		r.system = (struct recipe_system){
			.name = (char *)c->system, .options = (char *)c->options,
			.args = (char *)c->args, .targets = (char *)c->targets,
			.subdir = (char *)c->subdir};
		char *script = recipe_build_script(&r);
		for (size_t m = 0; m < ARRAY_SIZE(c->must) && c->must[m]; m++)
			T_CHECK(strstr(script, c->must[m]), "%s: no '%s' in:\n%s", c->system,
				c->must[m], script);
		for (size_t m = 0; m < ARRAY_SIZE(c->mustnt) && c->mustnt[m]; m++)
			T_CHECK(!strstr(script, c->mustnt[m]), "%s: '%s' in:\n%s", c->system,
				c->mustnt[m], script);
		char *path = test_write(tmp, "script.sh", script);
		char *cmd = xasprintf("sh -n '%s' 2>&1", path);
		char *out = NULL;
		T_CHECK(run_shell_capture(cmd, &out) == 0, "%s: sh -n: %s", c->system, out ? out : "");
		free(out);
		free(cmd);
		free(path);
		free(script);
	}
	struct recipe own = {.name = "own", .build_script = "make -j1"};
	char *script = recipe_build_script(&own);
	T_CHECK(!strcmp(script, "make -j1"), "own script: %s", script);
	free(script);
}

static void check_guess(const char *tmp)
{
	static const struct {
		const char *files[3];
		const char *want;
	} guesses[] = {
		{{"configure", "CMakeLists.txt", "meson.build"}, "autotools"},
		{{"configure.ac", "Makefile"}, "autotools"},
		{{"CMakeLists.txt", "meson.build", "Makefile"}, "cmake"},
		{{"meson.build", "Makefile"}, "meson"},
		{{"GNUmakefile"}, "make"},
		{{"README"}, NULL},
	};
	for (size_t i = 0; i < ARRAY_SIZE(guesses); i++) {
		char *name = xasprintf("tree%zu", i);
		char *tree = xasprintf("%s/%s", tmp, name);
		mkdir_p(tree, 0755);
		for (size_t f = 0; f < 3 && guesses[i].files[f]; f++)
			free(test_write(tree, guesses[i].files[f], ""));
		const struct buildsys_ops *ops = buildsys_guess(tree);
		const char *got = ops ? ops->name : NULL;
		T_CHECK(got == guesses[i].want || (got && guesses[i].want && !strcmp(got, guesses[i].want)),
			"tree %zu: guessed %s, want %s", i, got ? got : "none",
			guesses[i].want ? guesses[i].want : "none");
		free(tree);
		free(name);
	}
	T_CHECK(buildsys_lookup("meson") && !buildsys_lookup("scons"), "lookup");
	T_CHECK(!strcmp(buildsys_names(), "autotools, cmake, meson, make"), "names: %s",
		buildsys_names());
}

static void check_override(const char *tmp)
{
	struct recipe r = {.name = "coremark", .source = xstrdup("git:https://x/y commit=abc")};
	struct strbuf err = {0};
	char *studies = xasprintf("%s/studies", tmp), *cm = xasprintf("%s/cm", tmp);
	mkdir_p(studies, 0755);
	mkdir_p(cm, 0755);
	T_CHECK(!recipe_override_source(&r, "local:../cm", studies, "s.study:8", &err), "%s",
		sb_str(&err));
	char *want = xasprintf("local:%s/../cm", studies);
	T_CHECK(!strcmp(r.source, want), "source: %s", r.source);
	T_CHECK(r.source_own && !strcmp(r.source_own, "git:https://x/y commit=abc"), "own kept");
	char *fact = recipe_source_fact(&r);
	char *want_fact = xasprintf("%s (from s.study:8; the recipe's: git:https://x/y commit=abc)", want);
	T_CHECK(!strcmp(fact, want_fact), "fact: %s", fact);
	free(fact);
	free(want_fact);
	free(want);
	/* a local: tree that is not there is the writer's mistake: said where
	 * it was written, not left to fail as every configuration's build */
	T_CHECK(recipe_override_source(&r, "local:../nowhere", studies, "s.study:8", &err) &&
			strstr(sb_str(&err), "local:../nowhere: no folder ") &&
			strstr(sb_str(&err), "/studies/../nowhere (unpack the source there or fix the path)"),
		"missing local tree: %s", sb_str(&err));
	T_CHECK(!strcmp(r.source_origin, "s.study:8") && strstr(r.source, "/cm"),
		"unchanged after a missing tree: %s", r.source);
	sb_release(&err);
	free(studies);
	free(cm);
	T_CHECK(!recipe_override_source(&r, "debian:coremark=1.0", NULL, "--source", &err), "%s",
		sb_str(&err));
	T_CHECK(!strcmp(r.source, "debian:coremark=1.0") && !strcmp(r.source_origin, "--source") &&
			!strcmp(r.source_own, "git:https://x/y commit=abc"),
		"second override: %s from %s", r.source, r.source_origin);
	T_CHECK(recipe_override_source(&r, "coremark", NULL, "--source", &err) &&
			strstr(sb_str(&err), "is not a source"),
		"malformed: %s", sb_str(&err));
	T_CHECK(!strcmp(r.source, "debian:coremark=1.0"), "unchanged after a refusal: %s", r.source);
	/* the kind is the harness's to know: checked where the override was written */
	sb_release(&err);
	T_CHECK(!recipe_override_source(&r, "ftp:x", NULL, "--source", &err), "%s", sb_str(&err));
	T_CHECK(recipe_check_names(&r, &err) && strstr(sb_str(&err), "--source: ") &&
			strstr(sb_str(&err), "unknown source kind 'ftp'"),
		"unknown kind: %s", sb_str(&err));
	free(r.source);
	free(r.source_own);
	free(r.source_origin);
	sb_release(&err);
	/* a plain recipe has no origin: the fact is the spec */
	struct recipe plain = {.source = "debian:gzip"};
	fact = recipe_source_fact(&plain);
	T_CHECK(!strcmp(fact, "debian:gzip"), "plain fact: %s", fact);
	free(fact);
}

int main(void)
{
	char *tmp = test_tmpdir("test_buildsys");
	check_scripts(tmp);
	check_guess(tmp);
	check_override(tmp);
	remove_tree(tmp);
	free(tmp);
	return test_summary("test_buildsys");
}
