/* culprit.c - see culprit.h */
#include "search/culprit.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int check(culprit_fails_fn fails, void *user, const struct strlist *fixed,
		 const struct strlist *rest, size_t k, int *checks)
{
	struct strlist w = {0};
	for (size_t i = 0; i < fixed->n; i++)
		sl_push(&w, fixed->v[i]);
	for (size_t i = 0; i < k; i++)
		sl_push(&w, rest->v[i]);
	(*checks)++;
	int r = fails(user, &w);
	sl_release(&w);
	return r;
}

int culprit_find(const struct strlist *words, culprit_fails_fn fails, void *user, int max_checks,
		 struct strlist *culprit, int *checks)
{
	struct strlist found = {0}, rest = {0};
	*checks = 0;
	for (size_t i = 0; i < words->n; i++)
		sl_push(&rest, words->v[i]);
	int rc = check(fails, user, &found, &rest, rest.n, checks) == 1 ? 0 : -1;
	/* invariant: found + rest fails */
	while (!rc && rest.n) {
		if (found.n) {
			int r = check(fails, user, &found, &rest, 0, checks);
			if (r < 0) {
				rc = -1;
				break;
			}
			if (r == 1)
				break;
		}
		size_t lo = 1, hi = rest.n;
		while (lo < hi && !rc) {
			if (*checks >= max_checks) {
				rc = -1;
				break;
			}
			size_t mid = lo + (hi - lo) / 2;
			int r = check(fails, user, &found, &rest, mid, checks);
			if (r < 0)
				rc = -1;
			else if (r == 1)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (rc)
			break;
		sl_push(&found, rest.v[hi - 1]);
		while (rest.n >= hi)
			free(rest.v[--rest.n]);
	}
	if (!rc) {
		/* in the candidate's order */
		for (size_t i = 0; i < words->n; i++)
			if (sl_find(&found, words->v[i]) >= 0 && sl_find(culprit, words->v[i]) < 0)
				sl_push(culprit, words->v[i]);
	}
	sl_release(&found);
	sl_release(&rest);
	return rc;
}

int culprit_is_crash(const char *text)
{
	static const char *const marks[] = {
		"internal compiler error", "frontend command failed", "unable to execute command",
		"PLEASE submit a bug report",
	};
	for (size_t i = 0; text && i < ARRAY_SIZE(marks); i++)
		if (strstr(text, marks[i]))
			return 1;
	return 0;
}

static const char *find_tail;
static char *find_hit;

static int find_visit(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)st;
	(void)f;
	size_t pl = strlen(path), tl = strlen(find_tail);
	if (type == FTW_F && pl > tl && path[pl - tl - 1] == '/' && !strcmp(path + pl - tl, find_tail)) {
		find_hit = xstrdup(path);
		return 1;
	}
	return 0;
}

/* The path a crash line starts with: "x.c:12:1: internal compiler error". */
static char *crash_path(const char *text)
{
	const char *ice = strstr(text, ": internal compiler error");
	if (ice) {
		const char *b = ice;
		while (b > text && b[-1] != '\n' && b[-1] != ' ')
			b--;
		char *p = xstrndup(b, (size_t)(ice - b));
		/* drop ":LINE:COL" */
		for (int k = 0; k < 2; k++) {
			char *c = strrchr(p, ':');
			if (c && c[1] && strspn(c + 1, "0123456789") == strlen(c + 1))
				*c = '\0';
		}
		if (strstr(p, ".c") || strstr(p, ".i"))
			return p;
		free(p);
	}
	/* clang keeps a preprocessed copy of what crashed it */
	const char *msg = "diagnostic msg: /";
	for (const char *m = strstr(text, msg); m; m = strstr(m + 1, msg)) {
		const char *b = m + strlen(msg) - 1, *e = b + strcspn(b, " \n");
		if (e - b > 2 && e[-2] == '.' && e[-1] == 'c')
			return xstrndup(b, (size_t)(e - b));
	}
	return NULL;
}

char *culprit_crash_file(const char *log_text, const char *dir)
{
	char *p = log_text ? crash_path(log_text) : NULL;
	if (!p)
		return NULL;
	struct stat st;
	if (p[0] == '/') {
		if (!stat(p, &st))
			return p;
		free(p);
		return NULL;
	}
	const char *tail = p;
	while (str_starts_with(tail, "./"))
		tail += 2;
	find_tail = tail;
	find_hit = NULL;
	if (dir)
		nftw(dir, find_visit, 16, FTW_PHYS);
	free(p);
	return find_hit;
}

int culprit_compile_crashes(void *user, const struct strlist *words)
{
	struct culprit_compile *c = user;
	struct strbuf sb = {0};
	char *dir = xstrdup(c->file);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	sb_addf(&sb, "cd '%s' && %s %s", slash ? dir : ".", c->cc, c->cflags);
	char *config_h = c->root ? xasprintf("%s/config.h", c->root) : NULL;
	struct stat st;
	if (c->root)
		sb_addf(&sb, " -I'%s'%s", c->root, !stat(config_h, &st) ? " -DHAVE_CONFIG_H" : "");
	sb_addf(&sb, " -I. -w -c '%s' -o /dev/null", c->file);
	size_t base_len = sb.len;
	for (size_t i = 0; i < words->n; i++)
		sb_addf(&sb, " %s", words->v[i]);
	char *out = NULL;
	if (!c->baseline) {
		/* the baseline's flags alone must not crash it, or nothing can be told */
		char *base = xstrndup(sb.buf, base_len);
		run_shell_capture(base, &out);
		c->baseline = culprit_is_crash(out) ? -1 : 1;
		free(out);
		out = NULL;
		free(base);
	}
	int r = -1;
	if (c->baseline > 0) {
		run_shell_capture(sb_str(&sb), &out);
		r = culprit_is_crash(out);
	}
	free(out);
	free(config_h);
	free(dir);
	sb_release(&sb);
	return r;
}
