/* sysroot_src.c - the Debian source packages the sysroot builder compiles:
 * ask apt for their files, download them once into the cache, unpack. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/paths.h"
#include "harness/sysroot_internal.h"

void sysroot_shell_quote(struct strbuf *sb, const char *text)
{
	sb_addc(sb, '\'');
	for (const char *p = text; *p; p++) {
		if (*p == '\'')
			sb_add(sb, "'\\''");
		else
			sb_addc(sb, *p);
	}
	sb_addc(sb, '\'');
}

/* Run script, appending its output to log; 0 or -1 with what failed. */
static int step(const char *what, const char *script, FILE *log, struct strbuf *err)
{
	char *out = NULL;
	int rc = run_shell_capture(script, &out);

	if (rc) {
		if (log && out)
			fputs(out, log);
		const char *tail = out ? out + strlen(out) : "";
		/* the last line is the one that names the problem */
		while (tail > out && (tail[-1] == '\n'))
			tail--;
		while (tail > out && tail[-1] != '\n')
			tail--;
		sb_addf(err, "%s failed (status %d): %.*s", what, rc, (int)strcspn(tail, "\n"), tail);
	}
	free(out);
	return rc ? -1 : 0;
}

void deb_source_release(struct deb_source *s)
{
	free(s->pkg);
	free(s->dsc);
	free(s->orig);
	free(s->dir);
	memset(s, 0, sizeof(*s));
}

/* "'URI' name size SHA256:hex" lines of apt-get source --print-uris */
static int parse_uris(struct deb_source *s, const char *text, struct strbuf *err)
{
	struct strlist words = {0};
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		char *copy = xstrndup(line, end ? (size_t)(end - line) : strlen(line));
		sl_release(&words);
		if (copy[0] == '\'' && sl_split_ws(&words, copy) >= 4) {
			const char *name = words.v[1], *hash = words.v[3];
			size_t len = strlen(name);
			if (len > 4 && !strcmp(name + len - 4, ".dsc") && !s->dsc) {
				s->dsc = xstrdup(name);
				sha256_hex(hash, strlen(hash), s->id);
			} else if (strstr(name, ".orig.tar.") && !strstr(name, ".asc") && !s->orig) {
				s->orig = xstrdup(name);
			}
		}
		free(copy);
		line = end ? end + 1 : NULL;
	}
	sl_release(&words);
	if (!s->dsc || !s->orig) {
		sb_addf(err, "apt-get source --print-uris %s named no .dsc or .orig tarball "
			     "(run %s as root to add deb-src entries)", s->pkg, paths_deb_src_script());
		return -1;
	}
	return 0;
}

int deb_source_get(const char *pkg, struct deb_source *s, FILE *log, struct strbuf *err)
{
	struct strbuf script = {0};
	char *empty = NULL, *out = NULL;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	s->pkg = xstrdup(pkg);
	s->dir = xasprintf("%s/sysroots/src/%s", flagscope_cache_dir(), pkg);
	if (mkdir_p(s->dir, 0755)) {
		sb_addf(err, "%s: %s", s->dir, strerror_lc(errno));
		goto out;
	}
	/* --print-uris lists only the files missing from the current folder:
	 * ask from an empty one to hear about all of them */
	empty = xasprintf("%s/.uris-%ld", s->dir, (long)getpid());
	remove_tree(empty);
	mkdir_p(empty, 0755);
	sb_add(&script, "cd ");
	sysroot_shell_quote(&script, empty);
	sb_addf(&script, " && apt-get source --print-uris %s 2>&1", pkg);
	rc = run_shell_capture(script.buf, &out);
	remove_tree(empty);
	if (rc) {
		sb_addf(err, "apt-get source --print-uris %s failed (run %s as root)", pkg,
			paths_deb_src_script());
		rc = -1;
		goto out;
	}
	if ((rc = parse_uris(s, out, err)))
		goto out;
	if (log)
		fprintf(log, "sysroot: source %s (%s)\n", s->dsc, s->orig);
	char *dsc = xasprintf("%s/%s", s->dir, s->dsc), *orig = xasprintf("%s/%s", s->dir, s->orig);
	int have = file_exists(dsc) && file_exists(orig);
	free(dsc);
	free(orig);
	if (have) /* apt checked them when it downloaded them */
		goto out;
	script.len = 0;
	sb_add(&script, "cd ");
	sysroot_shell_quote(&script, s->dir);
	sb_addf(&script, " && apt-get source --download-only %s 2>&1", pkg);
	rc = step("apt-get source --download-only", script.buf, log, err);
out:
	free(empty);
	free(out);
	sb_release(&script);
	return rc;
}

int deb_source_unpack(const struct deb_source *s, char **tree, FILE *log, struct strbuf *err)
{
	struct strbuf script = {0};
	char *base = xstrndup(s->dsc, strlen(s->dsc) - 4);
	int rc = 0;

	*tree = xasprintf("%s/%s.tree", s->dir, base);
	if (!is_dir(*tree)) {
		char *tmp = xasprintf("%s.tmp%ld", *tree, (long)getpid());
		remove_tree(tmp);
		sb_add(&script, "cd ");
		sysroot_shell_quote(&script, s->dir);
		sb_addf(&script, " && dpkg-source -x %s ", s->dsc);
		sysroot_shell_quote(&script, tmp);
		sb_add(&script, " 2>&1");
		rc = step("dpkg-source -x", script.buf, log, err);
		if (!rc && rename(tmp, *tree) && !is_dir(*tree)) {
			sb_addf(err, "%s: %s", *tree, strerror_lc(errno));
			rc = -1;
		}
		remove_tree(tmp);
		free(tmp);
	}
	free(base);
	sb_release(&script);
	if (rc) {
		free(*tree);
		*tree = NULL;
	}
	return rc;
}

int deb_source_extract(const struct deb_source *s, const char *subdir, const char *wildcards,
		       char **top, FILE *log, struct strbuf *err)
{
	struct strbuf script = {0};
	char *dest = xasprintf("%s/%s", s->dir, subdir);
	char *name = NULL;
	int rc = 0;

	*top = NULL;
	if (!is_dir(dest)) {
		char *tmp = xasprintf("%s.tmp%ld", dest, (long)getpid());
		remove_tree(tmp);
		mkdir_p(tmp, 0755);
		sb_add(&script, "cd ");
		sysroot_shell_quote(&script, tmp);
		sb_addf(&script, " && tar -xf ../%s --wildcards %s 2>&1", s->orig, wildcards);
		rc = step("extracting from the upstream tarball", script.buf, log, err);
		if (!rc && rename(tmp, dest) && !is_dir(dest)) {
			sb_addf(err, "%s: %s", dest, strerror_lc(errno));
			rc = -1;
		}
		remove_tree(tmp);
		free(tmp);
	}
	if (!rc) {
		script.len = 0;
		sb_add(&script, "ls ");
		sysroot_shell_quote(&script, dest);
		if (run_shell_capture(script.buf, &name) || !name || !*str_trim(name)) {
			sb_addf(err, "%s is empty (remove it and retry)", dest);
			rc = -1;
		} else {
			*top = xasprintf("%s/%s", dest, name);
		}
	}
	free(name);
	free(dest);
	sb_release(&script);
	return rc;
}
