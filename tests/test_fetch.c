/*
 * test_fetch.c - harness/fetch: spec parsing (a table of good and malformed
 * specs), and every fetcher but debian on fixtures this test makes:
 *   bundled  the recipe folder itself
 *   local    a tree made here: used in place, never written, id follows edits
 *   url      a tarball served by python3's http.server on 127.0.0.1 (a free
 *            port): good checksum, bad checksum and 404 leave nothing in the
 *            cache; a second fetch works with the server gone
 *   git      a repository made here (file:// URL): right commit, a commit on
 *            no branch, a wrong commit
 * plus the removal of a dead process's staging folder.  The debian fetcher
 * needs the archive: tests/it_fetch_debian.sh.
 *
 * `test_fetch fetch SPEC [RECIPE_DIR]` is a driver for the integration tests:
 * it prints the source folder and the id, one per line.
 */
#include "harness/fetch.h"
#include "tests/testlib.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *tmp;   /* this run's scratch folder */
static char *cache; /* FLAGSCOPE_CACHE */

/* Run a shell command that sets a fixture up; its trimmed output.  A
 * failure stops the test: nothing after it would mean anything. */
static char *sh_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *sh_out(const char *fmt, ...)
{
	va_list ap;
	char *cmd, *out = NULL;
	va_start(ap, fmt);
	if (vasprintf(&cmd, fmt, ap) < 0)
		abort();
	va_end(ap);
	if (run_shell_capture(cmd, &out)) {
		fprintf(stderr, "test setup failed: %s\n%s\n", cmd, out ? out : "");
		exit(1);
	}
	char *trimmed = xstrdup(str_trim(out));
	free(out);
	free(cmd);
	return trimmed;
}

#define sh(...) free(sh_out(__VA_ARGS__))

/* Entries in <cache>/sources, "." and ".." not counted. */
static int cache_entries(void)
{
	char *dir = xasprintf("%s/sources", cache);
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	free(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* ---- parsing ------------------------------------------------------------ */

static const char hex64[] = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
static const char hex40[] = "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3";

static void test_parse(void)
{
	static const struct {
		const char *spec;
		const char *kind;    /* NULL: must be rejected */
		const char *message; /* a part of the error, or of the parsed location */
	} cases[] = {
		{ "bundled", "bundled", NULL },
		{ "  bundled  ", "bundled", NULL },
		{ "bundled extra", NULL, "takes nothing" },
		{ "local:/srv/coremark", "local", "/srv/coremark" },
		{ "local:", NULL, "needs a PATH" },
		{ "local:  ", NULL, "needs a PATH" },
		{ "local:\"\"", NULL, "needs a PATH" },
		/* a path is the rest of the line, blanks and all, quoted or not */
		{ "local:a b", "local", "a b" },
		{ "local:/my dir/x  ", "local", "/my dir/x" },
		{ "local: \"../my  dir/x\" ", "local", "../my  dir/x" },
		{ "local:'/my dir/x'", "local", "/my dir/x" },
		{ "local:\"/a'b\"", "local", "/a'b" },
		{ "url:http://127.0.0.1/x.tar.gz sha256=9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08",
		  "url", "http://127.0.0.1/x.tar.gz" },
		{ "url:http://127.0.0.1/x.tar.gz", NULL, "needs sha256=HEX" },
		{ "url:http://127.0.0.1/x.tar.gz sha256=abc", NULL, "64 hex digits" },
		{ "url:x.tar.gz sha256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		  NULL, "scheme" },
		{ "git:file:///r commit=a94a8fe5ccb19ba61c4c0873d391e987982fbbd3", "git", "file:///r" },
		{ "git:file:///r commit=a94a8fe", NULL, "40 hex digits" },
		{ "git:file:///r branch=main", NULL, "commit=HEX" },
		{ "debian:lame", "debian", "lame" },
		{ "debian:gzip=1.12-1", "debian", "gzip" },
		{ "debian:clamav=1.4.3+dfsg-1~deb12u2 patched", "debian", "clamav" },
		{ "debian:Lame", NULL, "source package NAME" },
		{ "debian:", NULL, "source package NAME" },
		{ "debian:gzip=", NULL, "VERSION" },
		{ "debian:gzip extra", NULL, "unknown word 'extra'" },
		{ "svn:http://x", NULL, "unknown source kind 'svn'" },
		/* a newcomer's folder, given without local: */
		{ "/tmp", NULL, "a folder is local:PATH (write local:/tmp)" },
		{ "", NULL, "empty source" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct source_spec s = {0};
		struct strbuf err = {0};
		int rc = source_parse(cases[i].spec, &s, &err);
		if (cases[i].kind) {
			T_CHECK(rc == 0, "'%s' rejected: %s", cases[i].spec, sb_str(&err));
			T_CHECK(rc || !strcmp(s.ops->name, cases[i].kind), "'%s' parsed as %s",
			      cases[i].spec, s.ops->name);
			T_CHECK(!cases[i].message || (s.location && !strcmp(s.location, cases[i].message)),
			      "'%s': location %s", cases[i].spec, s.location ? s.location : "(null)");
		} else {
			T_CHECK(rc == -1, "'%s' accepted", cases[i].spec);
			T_CHECK(strstr(sb_str(&err), cases[i].message), "'%s': error '%s' lacks '%s'",
			      cases[i].spec, sb_str(&err), cases[i].message);
			T_CHECK(!strchr(sb_str(&err), '\n'), "'%s': error is not one line", cases[i].spec);
		}
		source_spec_release(&s);
		sb_release(&err);
	}

	struct source_spec s = {0};
	struct strbuf err = {0};
	T_CHECK(!source_parse("url:http://h/x sha256=9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08",
			    &s, &err) && !strcmp(s.hash, hex64), "sha256 not lower-cased: %s", s.hash);
	source_spec_release(&s);
	T_CHECK(!source_parse("debian:clamav=1.4.3+dfsg-1~deb12u2 patched", &s, &err) && s.patched &&
		      !strcmp(s.version, "1.4.3+dfsg-1~deb12u2"),
	      "debian version/patched: %s %d", s.version ? s.version : "(null)", s.patched);
	source_spec_release(&s);
	T_CHECK(!source_parse("debian:lame", &s, &err) && !s.patched && !s.version, "debian defaults");
	source_spec_release(&s);
	T_CHECK(source_parse("git:file:///r commit=xyz", NULL, &err) == -1, "validation without a spec");
	sb_release(&err);

	/* the table is complete: every kind can parse and fetch */
	size_t n = 0;
	for (; source_kinds[n]; n++)
		T_CHECK(source_kinds[n]->name && source_kinds[n]->form && source_kinds[n]->parse &&
			      source_kinds[n]->fetch, "kind %zu incomplete", n);
	T_CHECK(n == 5, "%zu source kinds", n);
}

/* ---- bundled and local -------------------------------------------------- */

static void test_bundled(void)
{
	char *dir = NULL, id[65];
	struct strbuf err = {0};
	char *recipe = xasprintf("%s/recipe", tmp);
	sh("mkdir -p '%s'", recipe);
	T_CHECK(!source_fetch("bundled", recipe, &dir, id, &err), "%s", sb_str(&err));
	T_CHECK(dir && !strcmp(dir, recipe), "bundled dir %s", dir ? dir : "(null)");
	T_CHECK(!strcmp(id, "bundled"), "bundled id %s", id);
	free(dir);
	free(recipe);
	sb_release(&err);
}

static void test_local(void)
{
	char *tree = xasprintf("%s/local-tree", tmp);
	char *recipe = xasprintf("%s/recipe", tmp);
	sh("mkdir -p '%s/src/sub' '%s/.git' && echo 'int main(void){return 0;}' > '%s/src/main.c' && "
	   "echo data > '%s/src/sub/d.txt' && touch -d '2020-01-01 00:00:00' '%s/src/main.c'",
	   tree, tree, tree, tree, tree);
	char *before = sh_out("cd '%s' && find . -type f -printf '%%p %%s %%T@\\n' | sort", tree);
	char *abs = xasprintf("local:%s/src", tree);
	char *dir = NULL, id1[65], id2[65], id3[65];
	struct strbuf err = {0};

	T_CHECK(!source_fetch(abs, recipe, &dir, id1, &err), "%s", sb_str(&err));
	char *want = xasprintf("%s/src", tree);
	T_CHECK(dir && !strcmp(dir, want), "local dir %s, want %s", dir, want);
	free(dir);
	T_CHECK(strlen(id1) == 64, "local id %s", id1);

	/* relative to the recipe folder, same tree, same id */
	T_CHECK(!source_fetch("local:../local-tree/src", recipe, &dir, id2, &err), "%s", sb_str(&err));
	T_CHECK(dir && !strcmp(dir, want), "relative local dir %s", dir);
	T_CHECK(!strcmp(id1, id2), "same tree, ids %s %s", id1, id2);
	free(dir);

	/* .git is not part of the content */
	sh("mkdir -p '%s/src/.git' && echo ref > '%s/src/.git/HEAD'", tree, tree);
	T_CHECK(!source_fetch(abs, recipe, &dir, id2, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(id1, id2), ".git changed the id");
	free(dir);

	/* the id is the content's: a new mtime alone keeps it ... */
	sh("touch -d '2021-01-01 00:00:00' '%s/src/main.c'", tree);
	T_CHECK(!source_fetch(abs, recipe, &dir, id3, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(id1, id3), "an mtime change alone changed the id");
	free(dir);
	/* ... an edit of the same size with the old mtime back changes it
	 * (sizes and mtimes did not), and so do a new file and a new mode */
	sh("sed -i 's/return 0/return 1/' '%s/src/main.c' && touch -d '2020-01-01 00:00:00' '%s/src/main.c'",
	   tree, tree);
	T_CHECK(!source_fetch(abs, recipe, &dir, id3, &err), "%s", sb_str(&err));
	T_CHECK(strcmp(id1, id3), "an edit keeping size and mtime kept the id");
	free(dir);
	sh("sed -i 's/return 1/return 0/' '%s/src/main.c' && chmod +x '%s/src/main.c'", tree, tree);
	T_CHECK(!source_fetch(abs, recipe, &dir, id3, &err), "%s", sb_str(&err));
	T_CHECK(strcmp(id1, id3), "a new mode kept the id");
	free(dir);
	sh("chmod -x '%s/src/main.c' && ln -s main.c '%s/src/link.c'", tree, tree);
	T_CHECK(!source_fetch(abs, recipe, &dir, id3, &err), "%s", sb_str(&err));
	T_CHECK(strcmp(id1, id3), "a new link kept the id");
	free(dir);
	sh("rm '%s/src/link.c'", tree);
	T_CHECK(!source_fetch(abs, recipe, &dir, id3, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(id1, id3), "the first content again has another id");
	free(dir);

	/* never written: only this test's own edits happened */
	sh("rm -rf '%s/src/.git' && touch -d '2020-01-01 00:00:00' '%s/src/main.c'", tree, tree);
	char *after = sh_out("cd '%s' && find . -type f -printf '%%p %%s %%T@\\n' | sort", tree);
	T_CHECK(!strcmp(before, after), "the local tree changed:\n%s\n---\n%s", before, after);
	T_CHECK(cache_entries() == 0, "local: copied into the cache");

	sb_release(&err);
	T_CHECK(source_fetch("local:/nonexistent/flagscope-src", recipe, &dir, id1, &err) == -1,
	      "missing local tree accepted");
	T_CHECK(strstr(sb_str(&err), "is not a folder"), "error: %s", sb_str(&err));
	T_CHECK(dir == NULL, "dir set on failure");
	sb_release(&err);
	free(before);
	free(after);
	free(want);
	free(abs);
	free(recipe);
	free(tree);
}

/* ---- url ------------------------------------------------------------------ */

static int free_port(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &len)) {
		perror("free port");
		exit(1);
	}
	close(fd);
	return ntohs(a.sin_port);
}

static int port_open(int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				.sin_port = htons((uint16_t)port)};
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int ok = fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* python3 -m http.server on 127.0.0.1:port serving dir; the pid, or -1. */
static pid_t http_start(const char *dir, int port)
{
	char p[16];
	snprintf(p, sizeof(p), "%d", port);
	pid_t pid = fork();
	if (pid == 0) {
		freopen("/dev/null", "w", stdout);
		freopen("/dev/null", "w", stderr);
		execlp("python3", "python3", "-m", "http.server", p, "--bind", "127.0.0.1",
		       "--directory", dir, (char *)NULL);
		_exit(127);
	}
	/* at most a minute: python starts slowly on a loaded machine */
	for (int i = 0; pid > 0 && i < 600; i++) {
		if (port_open(port))
			return pid;
		int status;
		if (waitpid(pid, &status, WNOHANG) == pid)
			return -1;
		nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
	}
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	return -1;
}

static void http_stop(pid_t pid)
{
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
}

static void test_url(void)
{
	char *www = xasprintf("%s/www", tmp);
	sh("mkdir -p '%s/proj-1.0/src' && echo hello > '%s/proj-1.0/src/hello.txt' && "
	   "echo 'all:' > '%s/proj-1.0/Makefile' && tar -C '%s' -czf '%s/proj-1.0.tar.gz' proj-1.0 && "
	   "mkdir -p '%s/flat' && echo a > '%s/flat/a' && echo b > '%s/flat/b' && "
	   "tar -C '%s/flat' -cJf '%s/flat.tar.xz' a b",
	   www, www, www, www, www, www, www, www, www, www);
	char sha[65], flat_sha[65];
	char *tarball = xasprintf("%s/proj-1.0.tar.gz", www);
	char *flat = xasprintf("%s/flat.tar.xz", www);
	T_CHECK(!sha256_file_hex(tarball, sha) && !sha256_file_hex(flat, flat_sha), "hashing");

	int port = free_port();
	pid_t server = http_start(www, port);
	if (server < 0) {
		fprintf(stderr, "cannot start python3 -m http.server on 127.0.0.1:%d\n", port);
		test_failures++;
		return;
	}
	char *dir = NULL, id[65];
	struct strbuf err = {0};

	/* wrong checksum: an error naming both sums, nothing cached */
	char *bad = xasprintf("url:http://127.0.0.1:%d/proj-1.0.tar.gz sha256=%s", port, hex64);
	T_CHECK(source_fetch(bad, NULL, &dir, id, &err) == -1, "bad checksum accepted");
	T_CHECK(strstr(sb_str(&err), sha) && strstr(sb_str(&err), hex64), "error: %s", sb_str(&err));
	T_CHECK(cache_entries() == 0, "bad checksum left %d cache entries", cache_entries());
	T_CHECK(dir == NULL, "dir set on failure");
	sb_release(&err);

	/* 404 */
	char *missing = xasprintf("url:http://127.0.0.1:%d/nope.tar.gz sha256=%s", port, sha);
	T_CHECK(source_fetch(missing, NULL, &dir, id, &err) == -1, "404 accepted");
	T_CHECK(strstr(sb_str(&err), "404"), "error: %s", sb_str(&err));
	T_CHECK(cache_entries() == 0, "404 left %d cache entries", cache_entries());
	sb_release(&err);

	/* good: unpacked under its id, the top folder stripped */
	char *good = xasprintf("url:http://127.0.0.1:%d/proj-1.0.tar.gz sha256=%s", port, sha);
	T_CHECK(!source_fetch(good, NULL, &dir, id, &err), "%s", sb_str(&err));
	char *want = xasprintf("%s/sources/%s", cache, sha);
	T_CHECK(dir && !strcmp(dir, want), "dir %s, want %s", dir, want);
	T_CHECK(!strcmp(id, sha), "id %s, want the tarball's sha256 %s", id, sha);
	char *hello = xasprintf("%s/src/hello.txt", want);
	char *text = file_read(hello, NULL);
	T_CHECK(text && !strcmp(text, "hello\n"), "hello.txt: %s", text ? text : "(missing)");
	T_CHECK(cache_entries() == 1, "%d cache entries (staging left behind?)", cache_entries());
	free(text);
	free(dir);

	/* a tarball without one top folder is its own root */
	char *flatspec = xasprintf("url:http://127.0.0.1:%d/flat.tar.xz sha256=%s", port, flat_sha);
	T_CHECK(!source_fetch(flatspec, NULL, &dir, id, &err), "%s", sb_str(&err));
	char *fa = dir ? xasprintf("%s/a", dir) : xstrdup("");
	T_CHECK(file_exists(fa), "flat tarball: %s missing", fa);
	free(fa);
	free(dir);

	/* cached: no server needed */
	http_stop(server);
	T_CHECK(!source_fetch(good, NULL, &dir, id, &err), "cached fetch: %s", sb_str(&err));
	T_CHECK(dir && !strcmp(dir, want), "cached dir %s", dir);
	free(dir);
	T_CHECK(cache_entries() == 2, "%d cache entries", cache_entries());

	sb_release(&err);
	free(flatspec);
	free(hello);
	free(want);
	free(good);
	free(missing);
	free(bad);
	free(flat);
	free(tarball);
	free(www);
}

/* ---- git ------------------------------------------------------------------ */

static void test_git(void)
{
	char *repo = xasprintf("%s/repo", tmp);
	const char *who = "-c user.name=t -c user.email=t@localhost -c commit.gpgsign=false";
	sh("git init -q '%s' && cd '%s' && echo one > f.txt && git add f.txt && "
	   "git %s commit -q -m one && echo two > f.txt && git %s commit -q -am two",
	   repo, repo, who, who);
	char *first = sh_out("git -C '%s' rev-parse HEAD~1", repo);
	/* a commit no branch reaches: only a fetch by hash gets it */
	sh("cd '%s' && git checkout -q --detach && echo three > f.txt && git %s commit -q -am three "
	   "&& git rev-parse HEAD > ../orphan && git checkout -q - && "
	   "git config uploadpack.allowAnySHA1InWant true",
	   repo, who);
	char *orphan_file = xasprintf("%s/orphan", tmp);
	char *orphan = file_read(orphan_file, NULL);
	str_trim(orphan);

	char *dir = NULL, id[65];
	struct strbuf err = {0};
	char *spec = xasprintf("git:file://%s commit=%s", repo, first);
	T_CHECK(!source_fetch(spec, NULL, &dir, id, &err), "%s", sb_str(&err));
	T_CHECK(!strcmp(id, first), "id %s, want %s", id, first);
	char *f = dir ? xasprintf("%s/f.txt", dir) : xstrdup("");
	char *text = file_read(f, NULL);
	T_CHECK(text && !strcmp(text, "one\n"), "f.txt at the first commit: %s", text ? text : "(missing)");
	char *dotgit = dir ? xasprintf("%s/.git", dir) : xstrdup("");
	T_CHECK(!file_exists(dotgit), "%s kept", dotgit);
	free(dotgit);
	free(text);
	free(f);
	free(dir);

	char *spec2 = xasprintf("git:file://%s commit=%s", repo, orphan);
	T_CHECK(!source_fetch(spec2, NULL, &dir, id, &err), "commit on no branch: %s", sb_str(&err));
	f = dir ? xasprintf("%s/f.txt", dir) : xstrdup("");
	text = file_read(f, NULL);
	T_CHECK(text && !strcmp(text, "three\n"), "f.txt at the orphan: %s", text ? text : "(missing)");
	free(text);
	free(f);
	free(dir);

	int before = cache_entries();
	char *wrong = xasprintf("git:file://%s commit=%s", repo, hex40);
	T_CHECK(source_fetch(wrong, NULL, &dir, id, &err) == -1, "wrong commit accepted");
	T_CHECK(strstr(sb_str(&err), "is not in"), "error: %s", sb_str(&err));
	T_CHECK(cache_entries() == before, "wrong commit changed the cache");
	sb_release(&err);

	char *norepo = xasprintf("git:file://%s/none commit=%s", tmp, hex40);
	T_CHECK(source_fetch(norepo, NULL, &dir, id, &err) == -1, "missing repository accepted");
	T_CHECK(strstr(sb_str(&err), "cannot clone"), "error: %s", sb_str(&err));
	sb_release(&err);

	free(norepo);
	free(wrong);
	free(spec2);
	free(spec);
	free(orphan);
	free(orphan_file);
	free(first);
	free(repo);
}

/* ---- a cached tree edited after it was unpacked ---------------------------- */

/* The cache held a git:/url:/debian: tree as unpacked, and reused it
 * without looking: an edit there was built under the source's old id.
 * Now a changed tree is refused, naming it; put back, it is taken again;
 * a tree without a fingerprint (an older flagscope's) is taken and gets one. */
static void test_cache_edited(void)
{
	char *repo = xasprintf("%s/repo-edit", tmp);
	sh("git init -q '%s' && cd '%s' && echo one > f.txt && git add f.txt && "
	   "git -c user.name=t -c user.email=t@localhost -c commit.gpgsign=false commit -q -m one",
	   repo, repo);
	char *commit = sh_out("git -C '%s' rev-parse HEAD", repo);
	char *spec = xasprintf("git:file://%s commit=%s", repo, commit);
	char *dir = NULL, id[65];
	struct strbuf err = {0};
	T_CHECK(!source_fetch(spec, NULL, &dir, id, &err), "%s", sb_str(&err));
	char *fp = xasprintf("%s/fingerprints/%s", cache, commit);
	T_CHECK(file_exists(fp), "no fingerprint %s stored when unpacked", fp);
	char *cached = dir;
	dir = NULL;

	sh("echo edited > '%s/f.txt'", cached);
	T_CHECK(source_fetch(spec, NULL, &dir, id, &err) == -1, "an edited cached tree was reused");
	T_CHECK(strstr(sb_str(&err), "changed since it was unpacked") &&
			strstr(sb_str(&err), cached),
		"error: %s", sb_str(&err));
	T_CHECK(dir == NULL, "dir set on failure");
	sb_release(&err);
	sh("echo new > '%s/new.c'", cached);
	sh("echo one > '%s/f.txt'", cached);
	T_CHECK(source_fetch(spec, NULL, &dir, id, &err) == -1, "a file added in the cache was taken");
	sb_release(&err);
	sh("rm '%s/new.c'", cached);
	T_CHECK(!source_fetch(spec, NULL, &dir, id, &err), "put back: %s", sb_str(&err));
	free(dir);

	sh("rm '%s'", fp);
	T_CHECK(!source_fetch(spec, NULL, &dir, id, &err), "no fingerprint: %s", sb_str(&err));
	T_CHECK(file_exists(fp), "a tree without a fingerprint did not get one");
	free(dir);
	sb_release(&err);
	free(fp);
	free(cached);
	free(spec);
	free(commit);
	free(repo);
}

/* ---- an interrupted fetch ------------------------------------------------- */

static void test_stale_staging(void)
{
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0); /* its pid now names no process */
	char *stale = xasprintf("%s/sources/.tmp-%ld-0", cache, (long)child);
	char *mine = xasprintf("%s/sources/.tmp-%ld-999", cache, (long)getppid());
	sh("mkdir -p '%s/half' '%s'", stale, mine);
	char *dir = NULL, id[65];
	struct strbuf err = {0};
	char *spec = xasprintf("url:http://127.0.0.1:1/x.tar.gz sha256=%s", hex64);
	source_fetch(spec, NULL, &dir, id, &err); /* fails: nothing listens on port 1 */
	T_CHECK(!file_exists(stale), "stale staging folder %s kept", stale);
	T_CHECK(file_exists(mine), "a live process's staging folder was removed");
	sh("rm -rf '%s'", mine);
	sb_release(&err);
	free(spec);
	free(mine);
	free(stale);
}

static int driver(int argc, char **argv)
{
	char *dir = NULL, id[65];
	struct strbuf err = {0};
	if (argc < 3) {
		fprintf(stderr, "usage: test_fetch fetch SPEC [RECIPE_DIR]\n");
		return 2;
	}
	if (source_fetch(argv[2], argc > 3 ? argv[3] : NULL, &dir, id, &err)) {
		fprintf(stderr, "flagscope: %s\n", sb_str(&err));
		sb_release(&err);
		return 1;
	}
	printf("%s\n%s\n", dir, id);
	free(dir);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "fetch"))
		return driver(argc, argv);

	const char *base = getenv("FLAGSCOPE_TEST_TMP");
	base = base && *base ? base : "/tmp";
	mkdir_p(base, 0755);
	tmp = xasprintf("%s/test_fetch.XXXXXX", base);
	if (!mkdtemp(tmp)) {
		perror(tmp);
		return 1;
	}
	cache = xasprintf("%s/cache", tmp);
	setenv("FLAGSCOPE_CACHE", cache, 1);

	test_parse();
	test_bundled();
	test_local();
	test_url();
	test_git();
	test_cache_edited();
	test_stale_staging();

	if (!test_failures)
		remove_tree(tmp);
	else
		fprintf(stderr, "scratch kept in %s\n", tmp);
	free(cache);
	free(tmp);
	return test_summary("test_fetch");
}
