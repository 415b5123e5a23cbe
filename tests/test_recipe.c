/*
 * test_recipe.c - recipe.ini's [build] and [run] checks (workloads/recipe.h):
 * a table of recipes and the message each must give (or none), so that a
 * recipe a newcomer leaves half written is refused when the study loads
 * rather than built and "verified" with nothing to verify; a system =
 * debian recipe needs neither binaries = nor [run].
 * Expected: every check passes.
 */
#include "workloads/recipe.h"
#include "tests/testlib.h"

struct recipe_case {
	const char *name;
	const char *text;
	const char *want; /* NULL: loads; else a substring of the one-line error */
};

static const struct recipe_case cases[] = {
	{"script and binaries", "[workload]\n[build]\nscript = true\nbinaries = w\n[run]\nargs = w\n", NULL},
	{"system and binaries",
	 "[workload]\nsource = local:/src\n[build]\nsystem = make\nbinaries = bin/w\n[run]\nargs = w\n", NULL},
	/* workload new's skeleton with only [run] filled in: it built "ok"
	 * and ran, with no unit of it verified */
	{"no binaries",
	 "[workload]\nsource = debian:hello\n[build]\nsystem = autotools\n[run]\nargs = hello\n",
	 "recipe.ini:4: [build] names no binaries (add 'binaries = PROGRAM ...': the programs to verify, relative to the build folder)"},
	{"no [run]", "[workload]\n[build]\nscript = true\nbinaries = w\n", "no [run] section"},
	{"no build", "[workload]\n[run]\nargs = w\n", "no [build] script or system"},
	/* a Debian package: its shipped files are found, its tests are its
	 * check, so neither binaries = nor [run] is needed; [run] may be added */
	{"debian package alone", "[workload]\nsource = debian:libyaml patched\n[build]\nsystem = debian\n",
	 NULL},
	{"debian package with a benchmark",
	 "[workload]\nsource = debian:jq patched\n[build]\nsystem = debian\n[run]\n"
	 "args = ${BUILD}/debian/jq/usr/bin/jq -n 1\n", NULL},
};

int main(void)
{
	char *dir = test_tmpdir("recipe");
	char *wdir = xasprintf("%s/workloads/w", dir);
	mkdir_p(wdir, 0755);
	char *study = test_write(dir, "t.study", "[study]\nworkloads = w\n");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct recipe_case *c = &cases[i];
		char *path = test_write(dir, "workloads/w/recipe.ini", c->text);
		struct recipe r;
		struct strbuf err = {0};
		int rc = recipe_load("w", study, &r, &err);
		if (!c->want)
			T_CHECK(rc == 0, "%s: should load, got: %s", c->name, sb_str(&err));
		else
			T_CHECK(rc == -1 && strstr(sb_str(&err), c->want) &&
					str_starts_with(sb_str(&err), path) && !strchr(sb_str(&err), '\n'),
				"%s: message '%s', want '%s: ...%s'", c->name, sb_str(&err), path,
				c->want);
		recipe_release(&r);
		sb_release(&err);
		free(path);
	}
	free(study);
	free(wdir);
	free(dir);
	return test_summary("test_recipe");
}
