/*
 * debpkg.h - Debian source packages as workloads ([build] system = debian,
 * workloads/buildsys.h; `run --packages`, a study's packages =): their
 * build dependencies, the files they ship, and their own test step.
 *
 * A build of system = debian leaves in its build folder (build.h):
 *   out/                  the package's tree, built by dpkg-buildpackage -B
 *   out/debian/PACKAGE/   each binary package's staging tree: what it ships
 *   tests.log             the test step's output (dh_auto_test, or the
 *                         package's override_dh_auto_test), run after the
 *                         build with nocheck lifted
 *   tests.result          "STATUS SECONDS STEP": its exit status (or
 *                         "none": debian/rules has no separate test step),
 *                         wall seconds and the command
 */
#ifndef FLAGSCOPE_DEBPKG_H
#define FLAGSCOPE_DEBPKG_H

#include "base/util.h"

struct build;

/* What the test step said. */
enum debpkg_tests {
	DEBPKG_TESTS_UNKNOWN, /* no tests.result: not a package, or the build failed */
	DEBPKG_TESTS_NONE,    /* the package has no test suite (or no separate step) */
	DEBPKG_TESTS_PASSED,
	DEBPKG_TESTS_FAILED,
};

/* The ELF files the package's binary packages ship: regular files under
 * out_dir/debian/PACKAGE/ (not debian/tmp, the install's staging, nor a
 * dot folder: debhelper's own), appended to rel as paths relative to
 * out_dir, in name order. */
void debpkg_shipped_files(const char *out_dir, struct strlist *rel);

/* The names of the failing tests a test log gives, in their order, each
 * once: automake's "FAIL: NAME" and "ERROR: NAME" (and XPASS), ctest's
 * list after "The following tests FAILED:", meson's "N/M NAME FAIL"
 * lines, pytest's "FAILED NAME".  Appended to names. */
void debpkg_failed_tests(const char *log, struct strlist *names);

/* 1 when a test step's log (tests.log) shows it ran no test: make found
 * nothing to do for the override, ctest found no tests, meson has none
 * defined, or (by_dh: the step was dh_auto_test, under DH_VERBOSE) dh ran
 * no command of its own (the build has no check or test target). */
int debpkg_log_ran_nothing(const char *log, int by_dh);

/* Read the test step of build b (a package build that finished, cached or
 * not): b->tests and b->tests_seconds; a failed step makes b->outcome
 * OUTCOME_TESTS_FAILED with "tests failed: NAME ... | log: PATH" in
 * b->detail; no test suite puts "no test suite: ..." in b->detail and
 * leaves the outcome.  Nothing changes for a build without tests.result. */
void debpkg_tests_read(struct build *b);

/* The copy a build run by root made for the user nobody (buildsys.h:
 * DEBIAN_USER_TREE) when the build's script could not remove it (killed
 * by a stop, a timeout or flagscope's death): removed, symbolic links not
 * followed, and its note in build_dir with it.  Only a folder named
 * DEBIAN_USER_TREE_PREFIX plus one name is removed; nothing otherwise. */
void debpkg_user_tree_remove(const char *build_dir);

/* apt's line without where the archive is (a new string, the caller frees):
 * a URL becomes its last part (the file: "pkg_1.0_amd64.deb"), a host name
 * of three or more labels, or one a port follows or quotes enclose, and an
 * IPv4 address become "(host)", apt's " [IP: ADDRESS PORT]" goes; the rest
 * ("404  Not Found", package names, versions) stays as apt wrote it. */
char *debpkg_apt_scrub(const char *line);

/* say(line, user): a line for the user before something happens */
typedef void (*debpkg_say_fn)(const char *line, void *user);

/* Make the build dependencies of the package whose tree is src_dir (its
 * debian/control) present: nothing when dpkg-checkbuilddeps finds them;
 * else, when may_install, says what it installs and runs apt-get
 * build-dep --arch-only on the tree (waiting up to 900 s for dpkg's
 * lock).  0, or -1 with why in why: installs refused (the missing
 * dependencies and what to do), or apt-get's first error, scrubbed as
 * debpkg_apt_scrub() does. */
int debpkg_build_deps(const char *name, const char *src_dir, int may_install, debpkg_say_fn say,
		      void *user, struct strbuf *why);

#endif
