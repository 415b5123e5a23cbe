/* fetch.c - source fetchers; see fetch.h */
#include "harness/fetch.h"

#include "base/fingerprint.h"
#include "base/registry.h"
#include "harness/fetch_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers shared by the fetchers ---- */

static int is_hex(const char *s, size_t len)
{
	if (strlen(s) != len)
		return 0;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return 0;
	return 1;
}

char *fetch_lower_dup(const char *s)
{
	char *p = xstrdup(s);
	for (char *q = p; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	return p;
}

/* The last non-empty line of a command's output: the reason it gives. */
void fetch_add_last_line(struct strbuf *err, const char *out)
{
	const char *end = out ? out + strlen(out) : NULL;
	while (end && end > out && isspace((unsigned char)end[-1]))
		end--;
	if (!end || end == out)
		return;
	const char *start = end;
	while (start > out && start[-1] != '\n')
		start--;
	sb_add(err, ": ");
	sb_addn(err, start, (size_t)(end - start));
}

/* Run argv; on failure put "<what>: <command's last line>" in err. */
int fetch_run(char *const argv[], const char *what, struct strbuf *err, char **out)
{
	char *o = NULL;
	int rc = run_capture(argv, &o);
	if (rc) {
		sb_add(err, what);
		if (rc < 0)
			sb_addf(err, ": cannot run %s: %s", argv[0], strerror_lc(-rc));
		else
			fetch_add_last_line(err, o);
	}
	if (out && !rc)
		*out = o;
	else
		free(o);
	return rc ? -1 : 0;
}

/* ---- the cache: <cache>/sources/<id>, filled through a staging folder ---- */

static char *sources_dir(void)
{
	return xasprintf("%s/sources", flagscope_cache_dir());
}

/* <cache>/fingerprints/<id>: the tree's content fingerprint as unpacked
 * (outside sources/, whose entries are the trees) */
static char *fingerprint_file(const char *id)
{
	return xasprintf("%s/fingerprints/%s", flagscope_cache_dir(), id);
}

/* Write tree's fingerprint to <cache>/fingerprints/<id>, through a file
 * renamed into place.  0, or -1 with err. */
static int fingerprint_save(const char *tree, const char *id, struct strbuf *err)
{
	char fp[65];
	char *dir = xasprintf("%s/fingerprints", flagscope_cache_dir());
	char *path = fingerprint_file(id);
	char *tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
	int rc = fingerprint_tree(tree, fp, err);
	int e = rc ? 0 : -mkdir_p(dir, 0755);
	if (!rc && !e && (file_write(tmp, fp, strlen(fp)) || rename(tmp, path)))
		e = errno;
	if (e) {
		sb_addf(err, "cannot write %s: %s (check the cache folder's permissions)", path,
			strerror_lc(e));
		unlink(tmp);
		rc = -1;
	}
	free(tmp);
	free(path);
	free(dir);
	return rc;
}

/* The cached tree path still holds what was unpacked there: a build
 * reads it as the source its id names, so an edit in the cache would be
 * built and measured under the old id.  A tree an older flagscope unpacked
 * has no fingerprint: it is taken as it is now.  0, or -1 with err. */
static int cache_check(const char *path, const char *id, struct strbuf *err)
{
	char *file = fingerprint_file(id);
	char *want = file_read(file, NULL);
	free(file);
	if (!want)
		return fingerprint_save(path, id, err);
	char now[65];
	int rc = fingerprint_tree(path, now, err);
	if (!rc && strcmp(str_trim(want), now)) {
		sb_addf(err, "the cached source %s changed since it was unpacked (its content "
			     "fingerprint is %.12s, %.12s when unpacked): remove it to fetch it again "
			     "(rm -rf %s), or build an edited tree as local:PATH",
			path, now, want, path);
		rc = -1;
	}
	free(want);
	return rc;
}

/* If the cache already holds id, set *src_dir and return 1; -1 (err) when
 * it holds a tree changed since it was unpacked. */
static int cache_lookup(const char *id, char **src_dir, struct strbuf *err)
{
	char *dir = sources_dir();
	char *path = xasprintf("%s/%s", dir, id);
	free(dir);
	if (is_dir(path)) {
		if (cache_check(path, id, err)) {
			free(path);
			return -1;
		}
		*src_dir = path;
		return 1;
	}
	free(path);
	return 0;
}

/* Staging folders are "<sources>/.tmp-<pid>-<n>": one a process whose pid no
 * longer runs is the remains of an interrupted fetch. */
static void remove_stale_staging(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d))) {
		long pid;
		if (sscanf(e->d_name, ".tmp-%ld-", &pid) != 1 || pid <= 0 || pid > INT_MAX)
			continue;
		if (kill((pid_t)pid, 0) && errno == ESRCH) {
			char *p = xasprintf("%s/%s", dir, e->d_name);
			remove_tree(p);
			free(p);
		}
	}
	closedir(d);
}

char *fetch_staging_begin(struct strbuf *err)
{
	static unsigned serial;
	char *dir = sources_dir();
	int rc = mkdir_p(dir, 0755);
	if (rc) {
		sb_addf(err, "cannot create %s: %s (check the cache folder's permissions)", dir,
			strerror_lc(-rc));
		free(dir);
		return NULL;
	}
	remove_stale_staging(dir);
	char *st = NULL;
	for (int tries = 0; tries < 100 && !st; tries++) {
		char *p = xasprintf("%s/.tmp-%ld-%u", dir, (long)getpid(), serial++);
		if (!mkdir(p, 0755))
			st = p;
		else
			free(p);
	}
	if (!st)
		sb_addf(err, "cannot create a staging folder in %s: %s", dir, strerror_lc(errno));
	free(dir);
	return st;
}

void fetch_staging_abort(char *staging)
{
	if (staging)
		remove_tree(staging);
	free(staging);
}

/* Move the unpacked tree (inside staging) to <sources>/<id>.  Another
 * process may have won the race: its tree has the same content, so use it. */
static int staging_commit(char *staging, const char *tree, const char *id, char **src_dir,
			  struct strbuf *err)
{
	char *dir = sources_dir();
	char *dest = xasprintf("%s/%s", dir, id);
	free(dir);
	int rc = 0;
	if (rename(tree, dest) && !((errno == EEXIST || errno == ENOTEMPTY) && is_dir(dest))) {
		sb_addf(err, "cannot move the unpacked source to %s: %s", dest, strerror_lc(errno));
		rc = -1;
	}
	fetch_staging_abort(staging);
	if (rc)
		free(dest);
	else
		*src_dir = dest;
	return rc;
}

/* The folder a tarball unpacked into holds its tree, usually under one
 * top-level folder whose name varies (gzip-1.12, lame-3.100): the root is
 * that folder when it is the only entry, else the folder itself. */
static char *tree_root(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *only = NULL;
	int n = 0;
	if (!d)
		return xstrdup(dir);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (n++ == 0)
			only = xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n == 1 && is_dir(only))
		return only;
	free(only);
	return xstrdup(dir);
}

/* Unpack tarball (any compression tar recognises) into a new folder `into`;
 * *root is the tree's root. */
int fetch_unpack_tarball(const char *tarball, const char *into, char **root, struct strbuf *err)
{
	if (mkdir(into, 0755)) {
		sb_addf(err, "cannot create %s: %s", into, strerror_lc(errno));
		return -1;
	}
	char *argv[] = {"tar", "-xf", (char *)tarball, "-C", (char *)into, "--no-same-owner", NULL};
	struct strbuf what = {0};
	const char *base = strrchr(tarball, '/');
	sb_addf(&what, "cannot unpack %s", base ? base + 1 : tarball);
	int rc = fetch_run(argv, sb_str(&what), err, NULL);
	sb_release(&what);
	if (!rc)
		*root = tree_root(into);
	return rc;
}

/* ---- bundled ---- */

static int bundled_parse(struct source_spec *s, const char *arg, const struct strlist *words,
			 struct strbuf *err)
{
	(void)s;
	if (arg || words->n) {
		sb_add(err, "bundled takes nothing after it");
		return -1;
	}
	return 0;
}

static int bundled_fetch(const struct source_spec *s, const char *recipe_dir, char **src_dir,
			 char src_id[65], struct strbuf *err)
{
	(void)s;
	if (!recipe_dir || !is_dir(recipe_dir)) {
		sb_addf(err, "bundled: recipe folder %s is missing", recipe_dir ? recipe_dir : "(none)");
		return -1;
	}
	*src_dir = xstrdup(recipe_dir);
	strcpy(src_id, "bundled");
	return 0;
}

static const struct source_ops source_bundled = {
	.name = "bundled",
	.form = "bundled",
	.parse = bundled_parse,
	.fetch = bundled_fetch,
};

/* ---- local:PATH ---- */

static int local_parse(struct source_spec *s, const char *arg, const struct strlist *words,
		       struct strbuf *err)
{
	(void)words; /* one_path: the path is all of arg */
	if (!arg || !*arg) {
		sb_add(err, "local: needs a PATH");
		return -1;
	}
	s->location = path_home_dup(arg);
	return 0;
}

static int local_fetch(const struct source_spec *s, const char *recipe_dir, char **src_dir,
		       char src_id[65], struct strbuf *err)
{
	char *path = s->location[0] == '/' || !recipe_dir ? xstrdup(s->location)
							  : xasprintf("%s/%s", recipe_dir, s->location);
	char *real = realpath(path, NULL);
	if (!real || !is_dir(real)) {
		sb_addf(err, "local: %s is not a folder (unpack the source there or fix the path)", path);
		free(real);
		free(path);
		return -1;
	}
	free(path);
	/* content, not times (base/fingerprint.h): an edit that keeps a file's
	 * size and gets its old mtime back changes it, a tree copied or
	 * checked out again with new times keeps it (its builds are found
	 * again; bench/local-fingerprint.sh measures the reading), and what
	 * a link leads to counts.  .git is left out: git changes it without
	 * changing the sources. */
	struct strlist lines = {0};
	struct strbuf why = {0};
	if (fingerprint_lines(real, ".git", &lines, &why)) {
		sb_addf(err, "local: %s", sb_str(&why));
		sb_release(&why);
		sl_release(&lines);
		free(real);
		return -1;
	}
	sl_push(&lines, "local");
	char *all = sl_join(&lines, "\n");
	sha256_hex(all, strlen(all), src_id);
	free(all);
	sl_release(&lines);
	*src_dir = real;
	return 0;
}

static const struct source_ops source_local = {
	.name = "local",
	.form = "local:PATH",
	.one_path = 1,
	.parse = local_parse,
	.fetch = local_fetch,
};

/* ---- url:URL sha256=HEX and git:URL commit=HASH ---- */

/* The one "key=VALUE" word after a URL, VALUE hex of one of the lengths. */
static int parse_url_and_hash(struct source_spec *s, const char *arg, const struct strlist *words,
			      const char *key, size_t len1, size_t len2, struct strbuf *err)
{
	size_t klen = strlen(key);
	if (!arg || !strstr(arg, "://")) {
		sb_add(err, "needs a URL with a scheme (http://, https://, file://, ...)");
		return -1;
	}
	if (words->n != 1 || strncmp(words->v[0], key, klen) || words->v[0][klen] != '=') {
		sb_addf(err, "needs %s=HEX after the URL and nothing else", key);
		return -1;
	}
	const char *hex = words->v[0] + klen + 1;
	if (!is_hex(hex, len1) && !is_hex(hex, len2)) {
		sb_addf(err, "%s= must be %zu hex digits", key, len1);
		return -1;
	}
	s->location = xstrdup(arg);
	s->hash = fetch_lower_dup(hex);
	return 0;
}

static int url_parse(struct source_spec *s, const char *arg, const struct strlist *words,
		     struct strbuf *err)
{
	return parse_url_and_hash(s, arg, words, "sha256", 64, 64, err);
}

/* The source under id from the cache, or filled by fill() and moved there. */
int fetch_cache_fill(const struct source_spec *s, void *ctx, const char *id, fetch_fill_fn fill,
		      char **src_dir, struct strbuf *err)
{
	int found = cache_lookup(id, src_dir, err);
	if (found)
		return found < 0 ? -1 : 0;
	char *st = fetch_staging_begin(err);
	char *tree = NULL;
	if (!st)
		return -1;
	int rc = fill(s, ctx, st, &tree, err);
	/* before the tree is in place: a tree found there has its fingerprint */
	if (!rc && fingerprint_save(tree, id, err))
		rc = -1;
	if (!rc)
		rc = staging_commit(st, tree, id, src_dir, err);
	else
		fetch_staging_abort(st);
	free(tree);
	return rc;
}

static int url_fill(const struct source_spec *s, void *ctx, const char *st, char **tree,
		    struct strbuf *err)
{
	(void)ctx;
	char *file = xasprintf("%s/download", st);
	char *into = xasprintf("%s/tree", st);
	char got[65];
	char *curl[] = {"curl", "-fsSL", "--retry", "2", "-o", file, s->location, NULL};
	struct strbuf what = {0};
	sb_addf(&what, "url: cannot download %s", s->location);
	int rc = fetch_run(curl, sb_str(&what), err, NULL);
	if (!rc && sha256_file_hex(file, got)) {
		sb_addf(err, "url: cannot read the download of %s", s->location);
		rc = -1;
	}
	if (!rc && strcmp(got, s->hash)) {
		sb_addf(err, "url: %s has sha256 %s but the recipe says %s (check the URL, or set sha256= "
			     "if the new tarball is trusted)", s->location, got, s->hash);
		rc = -1;
	}
	if (!rc)
		rc = fetch_unpack_tarball(file, into, tree, err);
	sb_release(&what);
	free(into);
	free(file);
	return rc;
}

static int url_fetch(const struct source_spec *s, const char *recipe_dir, char **src_dir,
		     char src_id[65], struct strbuf *err)
{
	(void)recipe_dir;
	strcpy(src_id, s->hash);
	return fetch_cache_fill(s, NULL, src_id, url_fill, src_dir, err);
}

static const struct source_ops source_url = {
	.name = "url",
	.form = "url:URL sha256=HEX",
	.parse = url_parse,
	.fetch = url_fetch,
};

static int git_parse(struct source_spec *s, const char *arg, const struct strlist *words,
		     struct strbuf *err)
{
	/* a full hash, SHA-1 or SHA-256: an abbreviation or a branch would not
	 * pin the content */
	return parse_url_and_hash(s, arg, words, "commit", 40, 64, err);
}

static int git_fill(const struct source_spec *s, void *ctx, const char *st, char **tree,
		    struct strbuf *err)
{
	(void)ctx;
	char *repo = xasprintf("%s/repo", st);
	char *commit = xasprintf("%s^{commit}", s->hash);
	char *head = NULL;
	/* no prompt for credentials: a fetch must fail, not wait */
	char *clone[] = {"env", "GIT_TERMINAL_PROMPT=0", "git", "clone", "--quiet", "--no-checkout",
			 s->location, repo, NULL};
	char *checkout[] = {"git", "-C", repo, "-c", "advice.detachedHead=false", "checkout",
			    "--quiet", "--detach", commit, NULL};
	char *fetch[] = {"env", "GIT_TERMINAL_PROMPT=0", "git", "-C", repo, "fetch", "--quiet",
			 "origin", s->hash, NULL};
	char *revparse[] = {"git", "-C", repo, "rev-parse", "HEAD", NULL};
	struct strbuf what = {0};
	sb_addf(&what, "git: cannot clone %s", s->location);
	int rc = fetch_run(clone, sb_str(&what), err, NULL);
	/* a commit on no branch is not in a plain clone: ask for it by hash */
	if (!rc && run_capture(checkout, NULL) &&
	    (run_capture(fetch, NULL) || run_capture(checkout, NULL))) {
		sb_addf(err, "git: commit %s is not in %s (check commit= in the recipe)", s->hash,
			s->location);
		rc = -1;
	}
	if (!rc && fetch_run(revparse, "git: cannot read HEAD", err, &head))
		rc = -1;
	if (!rc && strcmp(str_trim(head), s->hash)) {
		sb_addf(err, "git: %s checked out %s, not %s", s->location, head, s->hash);
		rc = -1;
	}
	if (!rc) {
		char *dotgit = xasprintf("%s/.git", repo);
		remove_tree(dotgit); /* the tree is the content; history is not needed */
		free(dotgit);
		*tree = repo;
		repo = NULL;
	}
	sb_release(&what);
	free(head);
	free(commit);
	free(repo);
	return rc;
}

static int git_fetch(const struct source_spec *s, const char *recipe_dir, char **src_dir,
		     char src_id[65], struct strbuf *err)
{
	(void)recipe_dir;
	strcpy(src_id, s->hash);
	return fetch_cache_fill(s, NULL, src_id, git_fill, src_dir, err);
}

static const struct source_ops source_git = {
	.name = "git",
	.form = "git:URL commit=HASH",
	.parse = git_parse,
	.fetch = git_fetch,
};

/* ---- the table and the entry points ---- */

const struct source_ops *const source_kinds[] = {
	&source_bundled, &source_local, &source_url, &source_git, &source_debian, NULL,
};

int source_kinds_check(struct strbuf *err)
{
	const char *names[16];
	size_t n = 0;
	int bad = 0;
	for (; source_kinds[n] && n < ARRAY_SIZE(names); n++) {
		names[n] = source_kinds[n]->name;
		bad |= registry_require(source_kinds[n]->form && source_kinds[n]->parse &&
						source_kinds[n]->fetch,
					"source kinds", names[n], "lacks form, parse or fetch", err);
	}
	return registry_check("source kinds", names, n, err) || bad ? -1 : 0;
}

void source_spec_release(struct source_spec *s)
{
	free(s->location);
	free(s->version);
	free(s->hash);
	memset(s, 0, sizeof(*s));
}

int source_parse(const char *spec, struct source_spec *out, struct strbuf *err)
{
	struct strlist words = {0};
	struct source_spec s = {0};
	const struct source_ops *ops = NULL;
	char *path = NULL;
	sl_split_ws(&words, spec ? spec : "");
	if (!words.n) {
		sb_add(err, "empty source (write bundled, local:PATH, url:URL sha256=HEX, "
			    "git:URL commit=HASH or debian:NAME[=VERSION] [patched])");
		sl_release(&words);
		return -1;
	}
	char *first = words.v[0];
	char *colon = strchr(first, ':');
	size_t klen = colon ? (size_t)(colon - first) : strlen(first);
	for (size_t i = 0; source_kinds[i]; i++)
		if (strlen(source_kinds[i]->name) == klen && !strncmp(first, source_kinds[i]->name, klen))
			ops = source_kinds[i];
	struct strlist rest = {.v = words.v + 1, .n = words.n - 1};
	const char *arg = colon ? colon + 1 : NULL;
	int rc = 0;
	if (ops && ops->one_path && colon) {
		/* the words split the path at its blanks: take the spec's text */
		path = str_unquote_dup(strchr(spec, ':') + 1);
		arg = path;
		rest.n = 0;
	}
	if (!ops && !colon && is_dir(first)) {
		/* a folder given as it is: what a newcomer types first */
		sb_addf(err, "unknown source kind '%s': a folder is local:PATH (write local:%s)",
			first, first);
		rc = -1;
	} else if (!ops) {
		sb_addf(err, "unknown source kind '%.*s' (use bundled, local:PATH, url:URL sha256=HEX, "
			     "git:URL commit=HASH or debian:NAME[=VERSION] [patched])", (int)klen, first);
		rc = -1;
	} else {
		struct strbuf why = {0};
		s.ops = ops;
		rc = ops->parse(&s, arg, &rest, &why);
		if (rc)
			sb_addf(err, "malformed source '%s': %s (the form is %s)", spec, sb_str(&why),
				ops->form);
		sb_release(&why);
	}
	sl_release(&words);
	free(path);
	if (!rc && out)
		*out = s;
	else
		source_spec_release(&s);
	return rc;
}

int source_check(const char *spec, struct strbuf *err)
{
	struct source_spec s;
	if (source_parse(spec, &s, err))
		return -1;
	int rc = s.ops->check ? s.ops->check(&s, err) : 0;
	source_spec_release(&s);
	return rc ? -1 : 0;
}

int source_fetch(const char *spec, const char *recipe_dir, char **src_dir, char src_id[65],
		 struct strbuf *err)
{
	struct source_spec s;
	*src_dir = NULL;
	src_id[0] = '\0';
	if (source_parse(spec, &s, err))
		return -1;
	int rc = s.ops->fetch(&s, recipe_dir, src_dir, src_id, err);
	source_spec_release(&s);
	return rc ? -1 : 0;
}
