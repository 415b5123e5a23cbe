/* debpkg.c - Debian source packages as workloads; see debpkg.h */
#include "harness/debpkg.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/build.h"
#include "workloads/buildsys.h"

static int is_elf(const char *path)
{
	unsigned char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, magic, sizeof(magic));
	close(fd);
	return n == 4 && !memcmp(magic, "\177ELF", 4);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* rel/NAME for each entry of out_dir/rel, in name order, dot names left out */
static void list_dir(const char *out_dir, const char *rel, struct strlist *out)
{
	char *path = xasprintf("%s/%s", out_dir, rel);
	DIR *d = opendir(path);
	free(path);
	if (!d)
		return;
	struct strlist names = {0};
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.')
			sl_push(&names, e->d_name);
	closedir(d);
	if (names.n)
		qsort(names.v, names.n, sizeof(*names.v), name_cmp);
	for (size_t i = 0; i < names.n; i++)
		sl_push_owned(out, xasprintf("%s/%s", rel, names.v[i]));
	sl_release(&names);
}

/* Symbolic links are left out: the file they name is listed once. */
static void walk_elves(const char *out_dir, const char *rel, struct strlist *found)
{
	struct strlist entries = {0};
	list_dir(out_dir, rel, &entries);
	for (size_t i = 0; i < entries.n; i++) {
		char *path = xasprintf("%s/%s", out_dir, entries.v[i]);
		struct stat st;
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			walk_elves(out_dir, entries.v[i], found);
		else if (!lstat(path, &st) && S_ISREG(st.st_mode) && is_elf(path))
			sl_push(found, entries.v[i]);
		free(path);
	}
	sl_release(&entries);
}

void debpkg_shipped_files(const char *out_dir, struct strlist *rel)
{
	struct strlist packages = {0};
	list_dir(out_dir, "debian", &packages);
	for (size_t i = 0; i < packages.n; i++) {
		char *path = xasprintf("%s/%s", out_dir, packages.v[i]);
		/* debian/tmp is dh_auto_install's staging, split into the
		 * packages' trees afterwards: its files are not shipped as such */
		if (strcmp(packages.v[i], "debian/tmp") && is_dir(path))
			walk_elves(out_dir, packages.v[i], rel);
		free(path);
	}
	sl_release(&packages);
}

/* ---- what a test log says ---- */

static void push_once(struct strlist *names, const char *name, size_t len)
{
	while (len && (name[len - 1] == ' ' || name[len - 1] == '\t' || name[len - 1] == '\r'))
		len--;
	if (!len)
		return;
	char *n = xstrndup(name, len);
	if (sl_find(names, n) < 0)
		sl_push_owned(names, n);
	else
		free(n);
}

/* automake's parallel test harness: "FAIL: NAME", "ERROR: NAME", "XPASS: NAME"
 * (the summary's "# FAIL:  1" starts with '#') */
static int automake_line(const char *l, size_t len, struct strlist *names)
{
	static const char *const marks[] = {"FAIL: ", "ERROR: ", "XPASS: "};
	for (size_t k = 0; k < ARRAY_SIZE(marks); k++) {
		size_t m = strlen(marks[k]);
		if (len > m && !strncmp(l, marks[k], m)) {
			const char *name = l + m;
			/* the older serial harness: "FAIL: NAME (exit status: 1)" */
			const char *paren = memmem(name, len - m, " (", 2);
			size_t n = paren ? (size_t)(paren - name) : len - m;
			while (n && (name[n - 1] == ' ' || name[n - 1] == '\r'))
				n--;
			/* automake's names are file names; a blank or a quote is a
			 * test's own words (json-c: ERROR: "NAME DIR" (NAME) failed) */
			if (memchr(name, ' ', n) || name[0] == '"')
				return 0;
			push_once(names, name, n);
			return 1;
		}
	}
	return 0;
}

/* ctest, after "The following tests FAILED:": "\t  3 - NAME (Failed)" */
static int ctest_line(const char *l, size_t len, struct strlist *names)
{
	const char *p = l, *end = l + len;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	const char *num = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (p == num || end - p < 4 || strncmp(p, " - ", 3))
		return 0;
	p += 3;
	/* the last parenthesis is ctest's verdict; a name may hold others */
	const char *paren = NULL;
	for (const char *q = p; (q = memmem(q, (size_t)(end - q), " (", 2)); q += 2)
		paren = q;
	push_once(names, p, paren ? (size_t)(paren - p) : (size_t)(end - p));
	return 1;
}

/* meson test: " 3/10 PROJECT:NAME    FAIL    0.01s   exit status 1" (and
 * its "Summary of Failures:" repeating them) */
static int meson_line(const char *l, size_t len, struct strlist *names)
{
	char *line = xstrndup(l, len);
	struct strlist w = {0};
	sl_split_ws(&w, line);
	int found = 0;
	if (w.n >= 3 && strchr(w.v[0], '/') && w.v[0][0] >= '0' && w.v[0][0] <= '9') {
		for (size_t i = 2; i < w.n && !found; i++)
			if (!strcmp(w.v[i], "FAIL") || !strcmp(w.v[i], "TIMEOUT") ||
			    !strcmp(w.v[i], "ERROR")) {
				/* the name is the words between the counter and the verdict */
				const char *start = strstr(line, w.v[1]);
				const char *stop = start;
				for (size_t k = 1; k < i; k++)
					stop = strstr(stop, w.v[k]) + strlen(w.v[k]);
				push_once(names, start, (size_t)(stop - start));
				found = 1;
			}
	}
	sl_release(&w);
	free(line);
	return found;
}

/* Is the line after l (len long) a row of exactly len '=': the heading of a
 * test's section in automake's test-suite.log, which a failing check prints
 * ("FAIL: tests/x" over its own "====" row, the name without the .sh its
 * result line had; the summary's banner is longer) */
static int underlined(const char *l, size_t len)
{
	if (l[len] != '\n')
		return 0;
	const char *u = l + len + 1;
	size_t n = strspn(u, "=");
	return n == len && (u[n] == '\n' || !u[n]);
}

void debpkg_failed_tests(const char *log, struct strlist *names)
{
	int in_ctest = 0;
	for (const char *l = log; *l;) {
		size_t len = strcspn(l, "\n");
		if (!in_ctest && underlined(l, len)) {
			l += len + 1;
			continue;
		}
		if (in_ctest && !ctest_line(l, len, names))
			in_ctest = 0;
		if (memmem(l, len, "The following tests FAILED:", 27))
			in_ctest = 1;
		else if (!in_ctest && !automake_line(l, len, names) && len > 7 &&
			 !strncmp(l, "FAILED ", 7))
			/* pytest's short summary: "FAILED tests/x.py::name - why" */
			push_once(names, l + 7, strcspn(l + 7, " \n"));
		else if (!in_ctest)
			meson_line(l, len, names);
		l += len + (l[len] == '\n');
	}
}

int debpkg_log_ran_nothing(const char *log, int by_dh)
{
	static const char *const nothing[] = {
		"Nothing to be done for 'override_dh_auto_test", /* an empty override */
		"No tests were found!!!",                        /* ctest */
		"No tests defined.",                             /* meson */
	};
	for (size_t i = 0; i < ARRAY_SIZE(nothing); i++)
		if (strstr(log, nothing[i]))
			return 1;
	if (!by_dh)
		return 0; /* an override's commands are make's echo: it ran something */
	/* dh_auto_test says each command it runs on a line of its own, after
	 * a tab (DH_VERBOSE); none but its own clean-up: no check target */
	for (const char *l = log; *l;) {
		size_t len = strcspn(l, "\n");
		if (l[0] == '\t' && !memmem(l, len, "dh-xdg-rundir", 13))
			return 0;
		l += len + (l[len] == '\n');
	}
	return 1;
}

/* ---- the test step of a finished build ---- */

static void tests_failed(struct build *b, const char *log_path, const char *log, int status)
{
	struct strlist names = {0};
	debpkg_failed_tests(log, &names);
	char *list = names.n ? sl_join(&names, " ") : NULL;
	free(b->detail);
	if (list)
		b->detail = xasprintf("tests failed: %s | log: %s", list, log_path);
	else
		b->detail = xasprintf("tests failed (exit status %d; the log names no failing test) | log: %s",
				      status, log_path);
	b->outcome = OUTCOME_TESTS_FAILED;
	free(list);
	sl_release(&names);
}

void debpkg_tests_read(struct build *b)
{
	char *result_path = xasprintf("%s/tests.result", b->dir);
	char *log_path = xasprintf("%s/tests.log", b->dir);
	char *result = file_read(result_path, NULL);
	char *log = file_read(log_path, NULL);
	struct strlist w = {0};
	if (result)
		sl_split_ws(&w, result);
	if (w.n >= 3) {
		int by_dh = !strcmp(w.v[2], "dh_auto_test");
		int none = !strcmp(w.v[0], "none") || debpkg_log_ran_nothing(log ? log : "", by_dh);
		int status = atoi(w.v[0]);
		b->tests_seconds = none ? -1 : strtod(w.v[1], NULL);
		if (none) {
			b->tests = DEBPKG_TESTS_NONE;
			if (!b->detail) /* a verify finding says more */
				b->detail = xasprintf("no test suite: %s ran no test | log: %s",
						      w.v[2], log_path);
		} else if (status) {
			b->tests = DEBPKG_TESTS_FAILED;
			tests_failed(b, log_path, log ? log : "", status);
		} else {
			b->tests = DEBPKG_TESTS_PASSED;
		}
	}
	sl_release(&w);
	free(log);
	free(result);
	free(log_path);
	free(result_path);
}

/* ---- the copy built as nobody ---- */

void debpkg_user_tree_remove(const char *build_dir)
{
	char *note = xasprintf("%s/%s", build_dir, DEBIAN_USER_TREE);
	char *text = file_read(note, NULL);
	if (text) {
		const char *path = str_trim(text);
		const char *name = path + strlen(DEBIAN_USER_TREE_PREFIX);
		/* the note is root's (nobody cannot write the build folder), but
		 * a path outside the prefix is never removed */
		if (str_starts_with(path, DEBIAN_USER_TREE_PREFIX) && *name && !strchr(name, '/') &&
		    strcmp(name, "..") && strcmp(name, "."))
			remove_tree(path);
		unlink(note);
	}
	free(text);
	free(note);
}

/* ---- build dependencies ---- */

/* "dpkg-checkbuilddeps: error: Unmet build dependencies: A B" -> "A B" */
static char *unmet_of(const char *out)
{
	const char *u = out ? strstr(out, "Unmet build dependencies: ") : NULL;
	if (!u)
		return xstrdup(out && *out ? out : "(dpkg-checkbuilddeps said nothing)");
	u += strlen("Unmet build dependencies: ");
	char *s = xstrndup(u, strcspn(u, "\n"));
	return s;
}

/* ---- apt's words without the archive's address ---- */

static int is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* "scheme://": the length of the scheme and its "://", or 0 */
static size_t url_scheme(const char *s)
{
	size_t n = 0;
	while ((s[n] >= 'a' && s[n] <= 'z') || s[n] == '+')
		n++;
	return n && !strncmp(s + n, "://", 3) ? n + 3 : 0;
}

/* A host name's length at s, or 0: dot-joined labels of letters, digits
 * and '-', the last one letters (a name: deb.example.org) or all four
 * numbers (an IPv4 address).  A package file's name holds '_', '+' or
 * '~' and a version's last label is a number: neither is a host. */
static size_t host_at(const char *s, int *numeric)
{
	size_t n = 0, labels = 0, letters = 0, digits = 0;
	for (;;) {
		size_t start = n;
		letters = digits = 0;
		for (; is_alnum(s[n]) || s[n] == '-'; n++) {
			letters += !(s[n] >= '0' && s[n] <= '9');
			digits += s[n] >= '0' && s[n] <= '9';
		}
		if (n == start)
			return 0;
		labels++;
		if (s[n] != '.' || !(is_alnum(s[n + 1])))
			break;
		n++;
	}
	if (s[n] == '_' || s[n] == '+' || s[n] == '~' || labels < 2)
		return 0;
	*numeric = labels == 4 && !letters;
	return *numeric || (letters >= 2 && !digits) ? n : 0;
}

/* Is the host word at s (n long) to go: a name of three or more labels
 * or one a port follows or that apt says it resolves ("resolving 'H'");
 * an address in parentheses or before a port.  A package's name with one
 * dot ('python3-zope.interface') and a four-part version stay. */
static int host_drops(const char *line, const char *s, size_t n, int numeric)
{
	size_t dots = 0;
	for (size_t i = 0; i < n; i++)
		dots += s[i] == '.';
	if (numeric)
		return (s > line && s[-1] == '(') || s[n] == ':';
	size_t back = (size_t)(s - line) < 12 ? (size_t)(s - line) : 12;
	return dots >= 2 || s[n] == ':' || (back && s[-1] == '\'' && memmem(s - back, back, "resolv", 6));
}

char *debpkg_apt_scrub(const char *line)
{
	struct strbuf sb = {0};
	for (const char *p = line; *p;) {
		int word_start = p == line || !(is_alnum(p[-1]) || strchr("._-+~/", p[-1]));
		size_t n = word_start ? url_scheme(p) : 0;
		int numeric = 0;
		if (n) {
			/* a URL: its last part names the file (a package's .deb) */
			const char *end = p + n + strcspn(p + n, " \t'\"");
			const char *base = end;
			while (base > p + n && base[-1] != '/')
				base--;
			if (base > p + n && base < end)
				sb_addn(&sb, base, (size_t)(end - base));
			else
				sb_add(&sb, "(the archive)");
			p = end;
		} else if (str_starts_with(p, " [IP: ") && strchr(p, ']')) {
			p = strchr(p, ']') + 1; /* apt's "[IP: ADDRESS PORT]" */
		} else if (word_start && (n = host_at(p, &numeric)) && host_drops(line, p, n, numeric)) {
			sb_add(&sb, "(host)");
			p += n;
			if (*p == ':' && p[1] >= '0' && p[1] <= '9')
				for (p++; *p >= '0' && *p <= '9';)
					p++; /* its port */
		} else {
			sb_addc(&sb, *p++);
		}
	}
	return sb_detach(&sb);
}

/* apt-get's first "E: " line, else its last line */
static char *apt_error_line(const char *out)
{
	const char *e = !out ? NULL : str_starts_with(out, "E: ") ? out : strstr(out, "\nE: ");
	if (e && *e == '\n')
		e++;
	if (e)
		return xstrndup(e, strcspn(e, "\n"));
	struct strbuf last = {0};
	char *copy = xstrdup(out ? out : "");
	for (char *save, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (*str_trim(l)) {
			sb_release(&last);
			sb_add(&last, str_trim(l));
		}
	free(copy);
	return last.len ? sb_detach(&last) : xstrdup("(apt-get said nothing)");
}

/* apt-get's first "E: " line, else its last line, without host names */
static char *apt_error(const char *out)
{
	char *raw = apt_error_line(out);
	char *clean = debpkg_apt_scrub(raw);
	free(raw);
	return clean;
}

int debpkg_build_deps(const char *name, const char *src_dir, int may_install, debpkg_say_fn say,
		      void *user, struct strbuf *why)
{
	char *out = NULL;
	/* -B: the architecture's packages only, as the build (dpkg-buildpackage -B) */
	char *check[] = {"env", "-C", (char *)src_dir, "dpkg-checkbuilddeps", "-B", NULL};
	int rc = run_capture(check, &out);
	if (!rc) {
		free(out);
		return 0;
	}
	char *unmet = unmet_of(out);
	free(out);
	out = NULL;
	if (!may_install) {
		sb_addf(why, "build dependencies not installed: %s (the study refuses installs, "
			     "build_deps = refuse: run apt-get build-dep %s as root, or allow installs)",
			unmet, name);
		free(unmet);
		return -1;
	}
	if (say) {
		char *line = xasprintf("build-deps %s: apt-get build-dep --arch-only %s: installing %s",
				       name, name, unmet);
		say(line, user);
		free(line);
	}
	char *apt[] = {"env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-o",
		       "DPkg::Lock::Timeout=900", "build-dep", "--arch-only", "-y", "-q",
		       (char *)src_dir, NULL};
	rc = run_capture(apt, &out);
	if (rc) {
		char *e = apt_error(out);
		sb_addf(why, "build dependencies cannot be installed: %s (apt-get build-dep %s: %s)",
			unmet, name, e);
		free(e);
	}
	free(out);
	free(unmet);
	return rc ? -1 : 0;
}
