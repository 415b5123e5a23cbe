/*
 * test_debpkg.c - harness/debpkg (Debian source packages as workloads):
 *   - the failing tests' names from test logs written after the real
 *     formats (tests/fixtures/debpkg/: automake's parallel harness, ctest,
 *     meson, pytest; each fixture's first line says what it expects)
 *   - "no test suite": dh_auto_test that ran no command of its own, an
 *     empty override; a log that ran tests is not "none"
 *   - the shipped ELF files of debian/PACKAGE trees: not debian/tmp, not
 *     debhelper's dot folders, not symbolic links, not text files
 *   - a build's test step read back: failed (outcome tests_failed, the
 *     names and the log in its detail, its time), passed, none
 *   - packages_resolve (flagsets/settings.h): names, a file of names with
 *     comments, a word that is neither refused
 *   - apt's error lines without the archive's address (URLs, host names,
 *     addresses), the package, version and "404  Not Found" kept
 * Expected: all checks pass.  The real build is tests/slow_debian_system.sh.
 */
#include "flagsets/settings.h"
#include "harness/build.h"
#include "harness/debpkg.h"
#include "tests/testlib.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *file, *failing;
	int none_by_dh; /* debpkg_log_ran_nothing(log, 1) */
} logs[] = {
	{"automake.log", "test-reader t/deep/loader.sh test-xpass", 0},
	{"ctest.log", "test_json_parse|json c++ (spaces)|test_timeout", 0},
	{"meson.log", "fribidi:test_shape test_bidi_long", 0},
	{"pytest.log", "tests/test_api.py::test_load tests/test_api.py::TestDump::test_unicode", 0},
	{"passed.log", "", 0},
	{"none-dh.log", "", 1},
	{"none-override.log", "", 1},
};

static char *fixture(const char *name)
{
	char *path = xasprintf("%s/tests/fixtures/debpkg/%s", FLAGSCOPE_SOURCE_DIR, name);
	char *text = file_read(path, NULL);
	T_CHECK(text != NULL, "cannot read %s", path);
	free(path);
	return text ? text : xstrdup("");
}

static void check_logs(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(logs); i++) {
		char *log = fixture(logs[i].file);
		struct strlist names = {0};
		debpkg_failed_tests(log, &names);
		/* ctest's names hold blanks: that case joins them with '|' */
		char *got = sl_join(&names, strchr(logs[i].failing, '|') ? "|" : " ");
		T_CHECK(!strcmp(got, logs[i].failing), "%s: failing '%s', want '%s'", logs[i].file,
			got, logs[i].failing);
		T_CHECK(debpkg_log_ran_nothing(log, 1) == logs[i].none_by_dh, "%s: ran nothing %d",
			logs[i].file, debpkg_log_ran_nothing(log, 1));
		free(got);
		sl_release(&names);
		free(log);
	}
	/* an override's own commands are make's echo, without dh's tab */
	T_CHECK(!debpkg_log_ran_nothing("cd tests && ./run.sh\nall 3 tests passed\n", 0),
		"an override that ran a script is not 'none'");
	T_CHECK(debpkg_log_ran_nothing("cd tests && ./run.sh\n", 1),
		"dh_auto_test without a tab line ran nothing of its own");
}

static void check_shipped(const char *tmp)
{
	char *out = xasprintf("%s/out", tmp);
	static const char elf[] = "\177ELF\2\1\1 not a whole file, the magic is what is looked at";
	test_plant(out, "debian/rules", "#!/usr/bin/make -f\n", 19);
	test_plant(out, "debian/libx1/usr/lib/libx.so.1.0", elf, sizeof(elf));
	test_plant(out, "debian/x-tools/usr/bin/xtool", elf, sizeof(elf));
	test_plant(out, "debian/x-tools/usr/share/doc/x-tools/README", "text\n", 5);
	test_plant(out, "debian/tmp/usr/bin/xtool", elf, sizeof(elf));
	test_plant(out, "debian/.debhelper/x-tools/dbgsym-root/x.debug", elf, sizeof(elf));
	test_plant(out, "src/xtool", elf, sizeof(elf)); /* built, not shipped */
	char *link = xasprintf("%s/debian/libx1/usr/lib/libx.so.1", out);
	T_CHECK(!symlink("libx.so.1.0", link), "symlink");
	free(link);
	struct strlist rel = {0};
	debpkg_shipped_files(out, &rel);
	char *got = sl_join(&rel, " ");
	T_CHECK(!strcmp(got, "debian/libx1/usr/lib/libx.so.1.0 debian/x-tools/usr/bin/xtool"),
		"shipped: %s", got);
	free(got);
	sl_release(&rel);
	free(out);
}

static void check_tests_read(const char *tmp)
{
	static const struct {
		const char *result, *log;
		enum debpkg_tests tests;
		enum outcome outcome;
		double seconds;
		const char *detail; /* its start */
	} cases[] = {
		{"2 1.5 dh_auto_test\n", "automake.log", DEBPKG_TESTS_FAILED, OUTCOME_TESTS_FAILED, 1.5,
		 "tests failed: test-reader t/deep/loader.sh test-xpass | log: "},
		{"2 0.5 debian/rules override_dh_auto_test\n", NULL, DEBPKG_TESTS_FAILED,
		 OUTCOME_TESTS_FAILED, 0.5, "tests failed (exit status 2; the log names no failing test)"},
		{"0 2.25 dh_auto_test\n", "passed.log", DEBPKG_TESTS_PASSED, OUTCOME_OK, 2.25, NULL},
		{"0 0.1 dh_auto_test\n", "none-dh.log", DEBPKG_TESTS_NONE, OUTCOME_OK, -1,
		 "no test suite: dh_auto_test ran no test"},
		{"none 0 debian/rules\n", NULL, DEBPKG_TESTS_NONE, OUTCOME_OK, -1, "no test suite"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct build b = {.outcome = OUTCOME_OK, .tests_seconds = -1};
		b.dir = xasprintf("%s/build%zu", tmp, i);
		mkdir_p(b.dir, 0755);
		free(test_write(b.dir, "tests.result", cases[i].result));
		char *log = cases[i].log ? fixture(cases[i].log) : xstrdup("make: *** [x] Error 2\n");
		free(test_write(b.dir, "tests.log", log));
		debpkg_tests_read(&b);
		T_CHECK(b.tests == cases[i].tests, "case %zu: tests %d", i, (int)b.tests);
		T_CHECK(b.outcome == cases[i].outcome, "case %zu: outcome %s", i, outcome_name(b.outcome));
		T_CHECK(b.tests_seconds == cases[i].seconds, "case %zu: seconds %g", i, b.tests_seconds);
		T_CHECK(cases[i].detail ? b.detail && str_starts_with(b.detail, cases[i].detail) : !b.detail,
			"case %zu: detail '%s'", i, b.detail ? b.detail : "(none)");
		free(log);
		free(b.detail);
		free(b.dir);
	}
	/* a build without a test step (not a package, or failed) is left alone */
	struct build b = {.outcome = OUTCOME_OK, .tests_seconds = -1};
	b.dir = xasprintf("%s/nothing", tmp);
	debpkg_tests_read(&b);
	T_CHECK(b.tests == DEBPKG_TESTS_UNKNOWN && !b.detail && b.tests_seconds == -1,
		"no tests.result changed the build");
	free(b.dir);
}

static void check_packages(const char *tmp)
{
	free(test_write(tmp, "list.txt", "# archive sweep\nlibyaml  fribidi # two\n\njq\nlibyaml\n"));
	free(test_write(tmp, "bad.txt", "libyaml\nLibYAML\n"));
	static const struct {
		const char *words, *names; /* names NULL: refused */
	} cases[] = {
		{"libyaml zlib", "libyaml zlib"},
		{"list.txt", "libyaml fribidi jq"},
		{"gzip list.txt gzip", "gzip libyaml fribidi jq"},
		{"bad.txt", NULL},
		{"Not_A_Name", NULL},
		{"x", NULL},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strlist words = {0}, names = {0};
		struct strbuf why = {0};
		sl_split_ws(&words, cases[i].words);
		int rc = packages_resolve(&words, tmp, &names, &why);
		char *got = sl_join(&names, " ");
		if (cases[i].names)
			T_CHECK(!rc && !strcmp(got, cases[i].names), "'%s': %d '%s' (%s)", cases[i].words,
				rc, got, sb_str(&why));
		else
			T_CHECK(rc && why.len, "'%s' was not refused (%s)", cases[i].words, got);
		free(got);
		sl_release(&words);
		sl_release(&names);
		sb_release(&why);
	}
}

/* apt's words as it writes them, hosts from the documentation ranges */
static void check_apt_scrub(void)
{
	static const struct {
		const char *apt, *want;
	} cases[] = {
		{"E: Failed to fetch http://deb.example.org/debian/pool/main/f/foo/libfoo-dev_1.2-3_amd64.deb"
		 "  404  Not Found [IP: 192.0.2.7 80]",
		 "E: Failed to fetch libfoo-dev_1.2-3_amd64.deb  404  Not Found"},
		{"E: Failed to fetch http://deb.example.org/debian/dists/bookworm/InRelease  "
		 "Temporary failure resolving 'deb.example.org'",
		 "E: Failed to fetch InRelease  Temporary failure resolving '(host)'"},
		{"E: Could not connect to mirror.example.net:80 (192.0.2.7). - connect (111: Connection refused)",
		 "E: Could not connect to (host) ((host)). - connect (111: Connection refused)"},
		{"E: Failed to fetch https://example.net/x.deb  Could not resolve 'example.net'",
		 "E: Failed to fetch x.deb  Could not resolve '(host)'"},
		{"E: The repository 'http://deb.example.org/debian bookworm Release' does not have a Release file.",
		 "E: The repository 'debian bookworm Release' does not have a Release file."},
		{"E: Failed to fetch http://[2001:db8::1]/", "E: Failed to fetch (the archive)"},
		/* what is not a host stays */
		{"E: Unable to locate package libfoo1.2-dev", NULL},
		{"E: Package 'python3-zope.interface' has no installation candidate", NULL},
		{" libbar-dev : Depends: libbaz (>= 1.2.3.4) but it is not going to be installed", NULL},
		{"E: Sub-process /usr/bin/dpkg returned an error code (1)", NULL},
		{"", NULL},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = debpkg_apt_scrub(cases[i].apt);
		const char *want = cases[i].want ? cases[i].want : cases[i].apt;
		T_CHECK(!strcmp(got, want), "scrub '%s': '%s', want '%s'", cases[i].apt, got, want);
		free(got);
	}
}

int main(void)
{
	char *tmp = test_tmpdir("test_debpkg");
	check_logs();
	check_shipped(tmp);
	check_tests_read(tmp);
	check_packages(tmp);
	check_apt_scrub();
	remove_tree(tmp);
	free(tmp);
	return test_summary("test_debpkg");
}
