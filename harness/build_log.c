/* build_log.c - see build_log.h */
#include "harness/build_log.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "harness/build.h"

/* the first line holding needle (NULL: none); *len its length */
static const char *line_with(const char *text, const char *needle, size_t *len)
{
	const char *hit = strstr(text, needle);
	if (!hit)
		return NULL;
	const char *start = hit;
	while (start > text && start[-1] != '\n')
		start--;
	*len = strcspn(start, "\n");
	return start;
}

static char *trimmed(const char *line, size_t len)
{
	char *s = xstrndup(line, len);
	char *t = xstrdup(str_trim(s));
	free(s);
	return t;
}

char *build_log_first_error(const char *log_text)
{
	size_t len = 0, len2 = 0;
	/* a compiler's (and configure's, ld's) error comes before make's
	 * "*** [Makefile:3: x.o] Error 1" that merely reports it */
	const char *l = line_with(log_text, ": error: ", &len);
	const char *f = line_with(log_text, "fatal error: ", &len2);
	if (f && (!l || f < l))
		l = f, len = len2;
	if (l)
		return trimmed(l, len);
	if ((l = line_with(log_text, "CMake Error", &len))) {
		const char *next = l[len] == '\n' ? l + len + 1 : NULL;
		size_t nlen = next ? strcspn(next, "\n") : 0;
		char *first = trimmed(l, len), *second = next ? trimmed(next, nlen) : xstrdup("");
		char *s = *second ? xasprintf("%s %s", first, second) : xstrdup(first);
		free(first);
		free(second);
		return s;
	}
	if ((l = line_with(log_text, "*** ", &len)))
		return trimmed(l, len);
	return NULL;
}

char *build_log_with_suggestion(const char *complaint, const char *log_text)
{
	const char *dym = log_text ? strstr(log_text, "did you mean") : NULL;
	if (!dym || strstr(complaint, "did you mean"))
		return xstrdup(complaint);
	size_t len = strcspn(dym, "?\n");
	return xasprintf("%s; %.*s%s", complaint, (int)len, dym, dym[len] == '?' ? "?" : "");
}

char *build_log_failure_detail(const char *log_text, const char *log_path)
{
	char *summary = build_log_summary(log_text);
	char *s = xasprintf("%s | log: %s", summary, log_path);
	free(summary);
	return s;
}

/* few enough to read on one line; deep enough for build/src/prog */
#define PROGRAMS_SHOWN 5
#define PROGRAMS_DEPTH 4

static int is_elf_program(const char *path, const struct stat *st)
{
	unsigned char m[4];
	if (!S_ISREG(st->st_mode) || !(st->st_mode & S_IXUSR) || strstr(path, ".so"))
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, m, sizeof(m)) : -1;
	if (fd >= 0)
		close(fd);
	return got == (ssize_t)sizeof(m) && !memcmp(m, "\177ELF", 4);
}

/* The programs under dir/rel, as paths relative to dir, into *out */
static void programs_under(const char *dir, const char *rel, int depth, struct strlist *out)
{
	char *path = *rel ? xasprintf("%s/%s", dir, rel) : xstrdup(dir);
	DIR *d = depth < PROGRAMS_DEPTH ? opendir(path) : NULL;
	for (struct dirent *e; d && (e = readdir(d)) && out->n < PROGRAMS_SHOWN;) {
		/* ., .., .git, .libs, and cmake's compiler probes: no program of the user's */
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "CMakeFiles"))
			continue;
		char *sub = *rel ? xasprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
		char *full = xasprintf("%s/%s", dir, sub);
		struct stat st;
		if (!lstat(full, &st) && S_ISDIR(st.st_mode))
			programs_under(dir, sub, depth + 1, out);
		else if (!lstat(full, &st) && is_elf_program(full, &st))
			sl_push(out, sub);
		free(full);
		free(sub);
	}
	if (d)
		closedir(d);
	free(path);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *build_log_missing_binary(const char *missing, const char *out_dir, const char *log_path)
{
	struct strlist made = {0};
	programs_under(out_dir, "", 0, &made);
	if (made.n)
		qsort(made.v, made.n, sizeof(*made.v), str_cmp);
	char *list = made.n ? sl_join(&made, ", ") : NULL;
	char *s = list ? xasprintf("the build did not produce %s; it made %s (name %s in [build] "
				   "binaries = and [run] args =) | log: %s",
				   missing, list, made.n > 1 ? "one of them" : "it", log_path)
		       : xasprintf("the build did not produce %s, nor any other program (see what "
				   "it built in the log) | log: %s",
				   missing, log_path);
	free(list);
	sl_release(&made);
	return s;
}
