/* fetch_debian.c - the debian:NAME[=VERSION] [patched] fetcher; see fetch.h */
#include "base/paths.h"
#include "harness/fetch.h"
#include "harness/fetch_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int debian_parse(struct source_spec *s, const char *arg, const struct strlist *words,
			struct strbuf *err)
{
	const char *eq = arg ? strchr(arg, '=') : NULL;
	size_t nlen = arg ? (eq ? (size_t)(eq - arg) : strlen(arg)) : 0;
	/* Debian policy 5.6.1: lower case letters, digits, + - . ; two or more,
	 * starting alphanumeric */
	int ok = nlen >= 2 && (islower((unsigned char)arg[0]) || isdigit((unsigned char)arg[0]));
	for (size_t i = 0; ok && i < nlen; i++)
		ok = islower((unsigned char)arg[i]) || isdigit((unsigned char)arg[i]) ||
		     strchr("+-.", arg[i]);
	if (!ok) {
		sb_add(err, "debian: needs a source package NAME (lower case letters, digits, + - .)");
		return -1;
	}
	if (eq) {
		ok = eq[1] != '\0';
		for (const char *v = eq + 1; ok && *v; v++)
			ok = isalnum((unsigned char)*v) || strchr(".+~:-", *v);
		if (!ok) {
			sb_add(err, "debian: VERSION in NAME=VERSION has characters a Debian version "
				    "cannot have");
			return -1;
		}
	}
	for (size_t i = 0; i < words->n; i++) {
		if (strcmp(words->v[i], "patched")) {
			sb_addf(err, "debian: unknown word '%s' (only 'patched' may follow the name)",
				words->v[i]);
			return -1;
		}
		s->patched = 1;
	}
	s->location = xstrndup(arg, nlen);
	s->version = eq ? xstrdup(eq + 1) : NULL;
	return 0;
}

/* A file of the source package as `apt-get source --print-uris` lists it:
 *   'URI' NAME SIZE SHA256:HEX */
struct deb_file {
	char *name;
	char *sha256;
};

struct deb_files {
	struct deb_file *v;
	size_t n;
};

static void deb_files_release(struct deb_files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].sha256);
	}
	free(f->v);
}

static int deb_files_parse(const char *out, struct deb_files *f)
{
	char *copy = xstrdup(out), *save = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct strlist w = {0};
		if (line[0] == '\'' && sl_split_ws(&w, line) == 4 && str_starts_with(w.v[3], "SHA256:") &&
		    !strchr(w.v[1], '/')) {
			f->v = xrealloc(f->v, (f->n + 1) * sizeof(*f->v));
			f->v[f->n].name = xstrdup(w.v[1]);
			f->v[f->n].sha256 = fetch_lower_dup(w.v[3] + 7);
			f->n++;
		}
		sl_release(&w);
	}
	free(copy);
	return f->n ? 0 : -1;
}

/* "NAME_UPVER.orig.tar.xz" -> "", "NAME_UPVER.orig-COMP.tar.gz" -> "COMP",
 * anything else (signatures, the .dsc, the debian tarball) -> NULL. */
static char *orig_component(const char *name)
{
	const char *o = strstr(name, ".orig");
	if (!o || strstr(name, ".asc"))
		return NULL;
	o += 5;
	if (str_starts_with(o, ".tar."))
		return xstrdup("");
	if (*o != '-')
		return NULL;
	const char *t = strstr(o, ".tar.");
	return t && t > o + 1 ? xstrndup(o + 1, (size_t)(t - o - 1)) : NULL;
}

/* Unpack the upstream tarballs: the main one is the tree, each component
 * goes in the tree's folder of that name (as dpkg-source does). */
static int debian_unpack_orig(const char *st, const struct deb_files *f, char **tree,
			      struct strbuf *err)
{
	int rc = 0;
	for (int pass = 0; pass < 2 && !rc; pass++) {
		for (size_t i = 0; i < f->n && !rc; i++) {
			char *comp = orig_component(f->v[i].name);
			if (!comp || (pass == 0) != (*comp == '\0')) {
				free(comp);
				continue;
			}
			char *file = xasprintf("%s/%s", st, f->v[i].name);
			char *into = xasprintf("%s/unpack-%zu", st, i);
			char *root = NULL;
			rc = fetch_unpack_tarball(file, into, &root, err);
			if (!rc && pass == 0) {
				*tree = root;
				root = NULL;
			} else if (!rc) {
				char *dest = xasprintf("%s/%s", *tree, comp);
				remove_tree(dest);
				if (rename(root, dest)) {
					sb_addf(err, "debian: cannot place component %s: %s", comp,
						strerror_lc(errno));
					rc = -1;
				}
				free(dest);
			}
			free(root);
			free(into);
			free(file);
			free(comp);
		}
		if (pass == 0 && !rc && !*tree) {
			sb_add(err, "debian: the source package has no .orig tarball");
			rc = -1;
		}
	}
	return rc;
}

/* Append ": " and out's line at line (n bytes; the last non-empty line
 * when line is NULL) with every URL made its file name: apt's messages
 * name the archive's host, which is the machine's business, not the
 * study's (gzip_1.12.orig.tar.xz says what failed). */
static void add_line_without_hosts(struct strbuf *err, const char *out, const char *line, size_t n)
{
	if (!line) {
		struct strbuf last = {0};
		fetch_add_last_line(&last, out);
		if (last.len)
			add_line_without_hosts(err, last.buf + 2, last.buf + 2, last.len - 2);
		sb_release(&last);
		return;
	}
	char *text = xstrndup(line, n);
	struct strlist words = {0};
	sl_split_ws(&words, text);
	sb_add(err, ":");
	for (size_t i = 0; i < words.n; i++) {
		const char *w = words.v[i];
		if (!strstr(w, "://")) {
			sb_addf(err, " %s", w);
			continue;
		}
		const char *base = strrchr(w, '/') + 1;
		sb_addc(err, ' ');
		if (!*base)
			sb_add(err, "(a URL)");
		for (const char *c = base; *c; c++) { /* %2b: the file's own '+' */
			unsigned v;
			if (*c == '%' && isxdigit((unsigned char)c[1]) && isxdigit((unsigned char)c[2]) &&
			    sscanf(c + 1, "%2x", &v) == 1) {
				sb_addc(err, (char)v);
				c += 2;
			} else {
				sb_addc(err, *c);
			}
		}
	}
	sl_release(&words);
	free(text);
}

/* "VERSION" of the listing's NAME_VERSION.dsc (no epoch: apt leaves it out
 * of file names), or NULL (heap). */
static char *listed_version(const struct deb_files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		const char *u = strchr(f->v[i].name, '_'), *d = strstr(f->v[i].name, ".dsc");
		if (u && d && d > u + 1 && !d[4])
			return xstrndup(u + 1, (size_t)(d - u - 1));
	}
	return NULL;
}

/* The package's files as apt lists them, and from them the id.  Offline:
 * --print-uris reads apt's lists only.  It runs in an empty folder because
 * apt leaves out files already in the current folder. */
static int debian_list(const char *pkg, int patched, struct deb_files *files, char src_id[65],
		       struct strbuf *err)
{
	char *st = fetch_staging_begin(err);
	char *out = NULL;
	if (!st)
		return -1;
	/* --only-source: NAME is the source package; without it apt goes
	 * through a binary package NAME, and a pinned version no binary has
	 * (binNMUs: 1.0.9-2+b6) became that binary's newest source instead */
	char *uris[] = {"env", "-C", st, "apt-get", "source", "--only-source", "--print-uris",
			(char *)pkg, NULL};
	int rc = 0;
	if (run_capture(uris, &out) || deb_files_parse(out, files)) {
		sb_addf(err, "debian: apt-get source finds no source package %s", pkg);
		add_line_without_hosts(err, out, NULL, 0);
		sb_addf(err, " (run %s as root to add deb-src entries, or check the name)",
			paths_deb_src_script());
		rc = -1;
	}
	fetch_staging_abort(st);
	free(out);
	if (rc)
		return rc;
	struct strbuf key = {0};
	sb_addf(&key, "debian\n%s\n", patched ? "patched" : "orig");
	for (size_t i = 0; i < files->n; i++)
		sb_addf(&key, "%s %s\n", files->v[i].name, files->v[i].sha256);
	sha256_hex(key.buf, key.len, src_id);
	sb_release(&key);
	return 0;
}

/* Why apt-get source could not download: its first error (the file that
 * failed; its last line is "Failed to fetch some archives."), and the
 * versions apt lists, for a pin the archive serves. */
static void download_failed(const struct source_spec *s, const struct deb_files *files,
			    const char *out, struct strbuf *err)
{
	const char *e = out && str_starts_with(out, "E: ") ? out : out ? strstr(out, "\nE: ") : NULL;
	if (e && *e == '\n')
		e++;
	size_t n = e ? strcspn(e, "\n") : 0;
	const char *ip = e ? strstr(e, " [IP: ") : NULL;
	if (ip && ip < e + n)
		n = (size_t)(ip - e);
	char *listed = s->version ? NULL : listed_version(files);
	sb_addf(err, "debian: apt-get source cannot download %s %s", s->location,
		s->version ? s->version : listed ? listed : "(its newest version)");
	free(listed);
	if (e)
		add_line_without_hosts(err, out, e + 3, n - 3);
	else
		add_line_without_hosts(err, out, NULL, 0);
	char *list = NULL;
	char *showsrc[] = {"apt-cache", "showsrc", "--only-source", s->location, NULL};
	struct strlist versions = {0};
	if (!run_capture(showsrc, &list)) {
		char *save = NULL;
		for (char *l = strtok_r(list, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			if (str_starts_with(l, "Version: ") && sl_find(&versions, l + 9) < 0)
				sl_push(&versions, l + 9);
	}
	char *joined = sl_join(&versions, ", ");
	sb_addf(err, " (the archive may not serve it: pin a version it has with debian:%s=VERSION%s%s%s%s)",
		s->location, versions.n ? "; apt lists " : "", versions.n ? s->location : "",
		versions.n ? " " : "", joined);
	free(joined);
	sl_release(&versions);
	free(list);
}

static int debian_fill(const struct source_spec *s, void *ctx, const char *st, char **tree,
		       struct strbuf *err)
{
	const struct deb_files *files = ctx;
	char *pkg = s->version ? xasprintf("%s=%s", s->location, s->version) : xstrdup(s->location);
	char *dsc = NULL;
	int orig = 0;
	for (size_t i = 0; i < files->n; i++) {
		char *comp = orig_component(files->v[i].name);
		orig |= comp && !*comp;
		free(comp);
		if (strstr(files->v[i].name, ".dsc") && !dsc)
			dsc = xasprintf("%s/%s", st, files->v[i].name);
	}
	char *get[] = {"env", "-C", (char *)st, "apt-get", "source", "--only-source",
		       "--download-only", "-q", pkg, NULL};
	char *out = NULL;
	int rc = run_capture(get, &out) ? -1 : 0;
	if (rc)
		download_failed(s, files, out, err);
	free(out);
	/* apt checked every file against the signed index; this catches the
	 * index changing between the listing and the download */
	for (size_t i = 0; !rc && i < files->n; i++) {
		char *p = xasprintf("%s/%s", st, files->v[i].name);
		char got[65];
		if (sha256_file_hex(p, got) || strcmp(got, files->v[i].sha256)) {
			sb_addf(err, "debian: %s does not match apt's listing (retry: the archive "
				     "index may have changed)", files->v[i].name);
			rc = -1;
		}
		free(p);
	}
	if (!rc && (s->patched || !orig)) {
		/* a native package has no upstream tarball: its one tarball is the tree */
		*tree = xasprintf("%s/tree", st);
		char *x[] = {"dpkg-source", "-x", dsc ? dsc : "(no .dsc)", *tree, NULL};
		rc = fetch_run(x, "debian: dpkg-source -x failed", err, NULL);
	} else if (!rc) {
		rc = debian_unpack_orig(st, files, tree, err);
	}
	free(dsc);
	free(pkg);
	return rc;
}

static int debian_fetch(const struct source_spec *s, const char *recipe_dir, char **src_dir,
			char src_id[65], struct strbuf *err)
{
	(void)recipe_dir;
	char *pkg = s->version ? xasprintf("%s=%s", s->location, s->version) : xstrdup(s->location);
	struct deb_files files = {0};
	int rc = debian_list(pkg, s->patched, &files, src_id, err);
	if (!rc)
		rc = fetch_cache_fill(s, &files, src_id, debian_fill, src_dir, err);
	deb_files_release(&files);
	free(pkg);
	return rc;
}

/* 1 when apt's source lists have a source package pkg (0 also without
 * deb-src entries) */
static int apt_has_source(const char *pkg)
{
	char *out = NULL;
	char *showsrc[] = {"apt-cache", "showsrc", "--only-source", (char *)pkg, NULL};
	int found = 0;
	if (!run_capture(showsrc, &out) && out) {
		char *want = xasprintf("\nPackage: %s\n", pkg);
		found = str_starts_with(out, want + 1) || strstr(out, want) != NULL;
		free(want);
	}
	free(out);
	return found;
}

/* The source package of binary package pkg, from its "Source: NAME
 * [(VERSION)]" field; NULL when apt does not know pkg or it has no such
 * field (the binary is named as its source). */
static char *apt_binary_source(const char *pkg)
{
	char *out = NULL, *src = NULL;
	char *show[] = {"apt-cache", "show", (char *)pkg, NULL};
	if (!run_capture(show, &out) && out) {
		const char *f = str_starts_with(out, "Source: ") ? out : strstr(out, "\nSource: ");
		if (f) {
			f += *f == '\n' ? 9 : 8;
			src = xstrndup(f, strcspn(f, " (\n"));
		}
	}
	free(out);
	return src;
}

/* A binary package's name (libbz2-dev) fetched with --only-source found
 * nothing and was a failed build; say the source package instead. */
static int debian_check(const struct source_spec *s, struct strbuf *err)
{
	if (apt_has_source(s->location))
		return 0;
	char *src = apt_binary_source(s->location);
	int rc = 0;
	if (src && *src && strcmp(src, s->location)) {
		sb_addf(err, "debian:%s names a binary package, built from the source package %s "
			     "(write debian:%s%s", s->location, src, src, s->patched ? " patched" : "");
		if (s->version) /* a binary's version need not be its source's (binNMU +b1) */
			sb_addf(err, "; apt-cache showsrc %s lists its versions", src);
		sb_addc(err, ')');
		rc = -1;
	}
	free(src);
	return rc;
}

const struct source_ops source_debian = {
	.name = "debian",
	.form = "debian:NAME[=VERSION] [patched]",
	.parse = debian_parse,
	.fetch = debian_fetch,
	.check = debian_check,
};

