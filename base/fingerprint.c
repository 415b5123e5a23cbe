/* fingerprint.c - see fingerprint.h */
#include "base/fingerprint.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folders the walk is in (device and inode), so a link back up the
 * tree is listed once as "loop" rather than followed forever. */
struct walk {
	const char *skip;
	struct strlist *lines;
	struct strbuf *err;
	dev_t dev[64];
	ino_t ino[64];
	size_t depth;
};

static int walk_dir(struct walk *w, const char *dir, const char *rel);

static int in_walk(const struct walk *w, const struct stat *st)
{
	for (size_t i = 0; i < w->depth; i++)
		if (w->dev[i] == st->st_dev && w->ino[i] == st->st_ino)
			return 1;
	return 0;
}

static int cannot_read(struct walk *w, const char *path, int e)
{
	sb_addf(w->err, "cannot read %s: %s", path, strerror_lc(e));
	return -1;
}

/* What a link leads to: its line's WHAT after the target text */
static int walk_link(struct walk *w, const char *p, const char *r, const struct stat *ls)
{
	char target[PATH_MAX];
	ssize_t n = readlink(p, target, sizeof(target) - 1);
	if (n < 0)
		return cannot_read(w, p, errno);
	target[n] = '\0';
	struct stat st;
	char hex[65];
	const char *what = hex;
	int rc = 0, dir = 0, e;
	if (stat(p, &st))
		what = errno == ELOOP ? "loop" : "dangling";
	else if (S_ISREG(st.st_mode))
		rc = (e = sha256_file_hex(p, hex)) ? cannot_read(w, p, -e) : 0;
	else if (S_ISDIR(st.st_mode))
		what = in_walk(w, &st) ? "loop" : (dir = 1, "folder");
	else
		what = "other";
	if (rc)
		return rc;
	sl_push_owned(w->lines, xasprintf("%s\t%o\t%s\t%s", r, (unsigned)ls->st_mode, target, what));
	return dir ? walk_dir(w, p, r) : 0;
}

static int walk_entry(struct walk *w, const char *p, const char *r)
{
	struct stat st;
	char hex[65] = "";
	if (lstat(p, &st))
		return cannot_read(w, p, errno);
	if (S_ISLNK(st.st_mode))
		return walk_link(w, p, r, &st);
	if (S_ISREG(st.st_mode)) {
		int e = sha256_file_hex(p, hex);
		if (e)
			return cannot_read(w, p, e < 0 ? -e : EIO);
	}
	sl_push_owned(w->lines, xasprintf("%s\t%o\t%s", r, (unsigned)st.st_mode, hex));
	return S_ISDIR(st.st_mode) ? walk_dir(w, p, r) : 0;
}

static int walk_dir(struct walk *w, const char *dir, const char *rel)
{
	struct stat st;
	if (stat(dir, &st))
		return cannot_read(w, dir, errno);
	if (w->depth == ARRAY_SIZE(w->dev))
		return cannot_read(w, dir, ELOOP);
	DIR *d = opendir(dir);
	if (!d)
		return cannot_read(w, dir, errno);
	w->dev[w->depth] = st.st_dev;
	w->ino[w->depth++] = st.st_ino;
	struct dirent *e;
	int rc = 0;
	while (!rc && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (w->skip && !strcmp(e->d_name, w->skip)))
			continue;
		char *r = *rel ? xasprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
		char *p = xasprintf("%s/%s", dir, e->d_name);
		rc = walk_entry(w, p, r);
		free(p);
		free(r);
	}
	closedir(d);
	w->depth--;
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int fingerprint_lines(const char *root, const char *skip, struct strlist *lines,
		      struct strbuf *err)
{
	struct strlist mine = {0};
	struct walk w = {.skip = skip, .lines = &mine, .err = err};
	int rc = walk_dir(&w, root, "");
	qsort(mine.v, mine.n, sizeof(*mine.v), cmp_str);
	for (size_t i = 0; i < mine.n; i++)
		sl_push(lines, mine.v[i]);
	sl_release(&mine);
	return rc;
}

int fingerprint_tree(const char *root, char out[65], struct strbuf *err)
{
	struct strlist lines = {0};
	int rc = fingerprint_lines(root, NULL, &lines, err);
	char *all = sl_join(&lines, "\n");
	sha256_hex(all, strlen(all), out);
	free(all);
	sl_release(&lines);
	return rc;
}
