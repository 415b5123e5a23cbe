/* toolchain.c - see toolchain.h */
#include "harness/toolchain.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *first_line_with(const char *text, const char *needle)
{
	const char *p = strstr(text, needle);
	if (!p)
		return NULL;
	while (p > text && p[-1] != '\n')
		p--;
	const char *end = strchr(p, '\n');
	return end ? xstrndup(p, (size_t)(end - p)) : xstrdup(p);
}

int toolchain_probe(const char *command, struct toolchain *t, struct strbuf *err)
{
	struct strlist words = {0};
	memset(t, 0, sizeof(*t));
	sl_split_ws(&words, command);
	if (!words.n) {
		sb_add(err, "empty compiler command");
		return -1;
	}
	char *resolved = path_lookup(words.v[0]);
	if (!resolved) {
		sb_addf(err, "%s: not found on PATH (install it or fix the compiler level)", words.v[0]);
		sl_release(&words);
		return -1;
	}
	t->command = xstrdup(command);
	t->path = resolved;

	/* argv: the command's words, then -v / -dumpmachine */
	/* -v on a preprocess-only job: wrappers such as diet would otherwise
	 * try to link a bare -v */
	char **argv = xcalloc(words.n + 8, sizeof(char *));
	for (size_t i = 0; i < words.n; i++)
		argv[i] = words.v[i];
	char *out = NULL;
	const char *const vjob[] = {"-v", "-E", "-x", "c", "/dev/null", "-o", "/dev/null"};
	for (size_t i = 0; i < ARRAY_SIZE(vjob); i++)
		argv[words.n + i] = (char *)vjob[i];
	int rc = run_capture(argv, &out);
	if (rc != 0 || !out) {
		sb_addf(err, "%s -v failed (is it a C compiler?)", command);
		free(out);
		free(argv);
		sl_release(&words);
		toolchain_release(t);
		return -1;
	}
	t->version = first_line_with(out, " version ");
	if (!t->version)
		t->version = xstrdup("unknown version");
	t->kind = strstr(out, "clang version") ? TC_CLANG
		  : strstr(out, "gcc version") ? TC_GCC : TC_OTHER;
	struct strbuf ident = {0};
	sb_addf(&ident, "%s\n%s", t->path, out);
	char hex[65];
	sha256_hex(ident.buf, ident.len, hex);
	memcpy(t->id, hex, 16);
	t->id[16] = '\0';
	sb_release(&ident);
	free(out);
	out = NULL;

	argv[words.n] = "-dumpmachine";
	argv[words.n + 1] = NULL;
	if (run_capture(argv, &out) == 0 && out)
		t->target = xstrdup(str_trim(out));
	else
		t->target = xstrdup("unknown");
	free(out);
	free(argv);
	sl_release(&words);
	return 0;
}

void toolchain_release(struct toolchain *t)
{
	free(t->command);
	free(t->path);
	free(t->version);
	free(t->target);
	memset(t, 0, sizeof(*t));
}

const char *toolchain_record_flag(const struct toolchain *t)
{
	/* -g names every compile unit (DWARF), so a unit that missed the flags
	 * can be named; it does not change the generated code */
	return t->kind == TC_CLANG ? "-g -frecord-command-line" : "-g -frecord-gcc-switches";
}

static int cmp_tc(const void *a, const void *b)
{
	return strcmp(((const struct toolchain *)a)->command, ((const struct toolchain *)b)->command);
}

int toolchains_discover(struct toolchain **list, size_t *n)
{
	regex_t re;
	/* gcc, gcc-12, clang-14, cc, x86_64-linux-gnu-gcc-12, mips64el-linux-gnuabi64-gcc */
	regcomp(&re, "^(([a-z0-9_]+-)+linux-gnu[a-z0-9_]*-)?(gcc|clang|cc)(-[0-9]+(\\.[0-9]+)*)?$",
		REG_EXTENDED | REG_NOSUB);
	struct strlist names = {0};
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (char *save, *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		DIR *dir = opendir(d);
		struct dirent *e;
		if (!dir)
			continue;
		while ((e = readdir(dir)))
			if (!regexec(&re, e->d_name, 0, NULL, 0) && sl_find(&names, e->d_name) < 0)
				sl_push(&names, e->d_name);
		closedir(dir);
	}
	free(copy);
	regfree(&re);
	*list = NULL;
	*n = 0;
	for (size_t i = 0; i < names.n; i++) {
		struct toolchain t;
		struct strbuf err = {0};
		if (!toolchain_probe(names.v[i], &t, &err) && t.kind != TC_OTHER) {
			*list = xrealloc(*list, (*n + 1) * sizeof(**list));
			(*list)[(*n)++] = t;
		} else if (!err.len) {
			toolchain_release(&t);
		}
		sb_release(&err);
	}
	sl_release(&names);
	if (*n)
		qsort(*list, *n, sizeof(**list), cmp_tc);
	return 0;
}

void toolchains_free(struct toolchain *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		toolchain_release(&list[i]);
	free(list);
}

/* The line of a linker's --version output that names it: gcc's driver
 * prints its own "collect2 version" and the linker's command line first */
static char *linker_line(const char *out)
{
	static const char *const names[] = {"LLD ", "GNU ld", "GNU gold", "mold "};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char *line = first_line_with(out, names[i]);
		if (line)
			return line;
	}
	return NULL;
}

/* asked once per compiler and linker: build_init keys every build */
static struct linker_seen {
	char *cc, *fuse, *version;
} *linkers_seen;
static size_t nlinkers_seen;
static pthread_mutex_t linkers_lock = PTHREAD_MUTEX_INITIALIZER;

char *toolchain_linker_version(const char *cc, const char *fuse)
{
	pthread_mutex_lock(&linkers_lock);
	for (size_t i = 0; i < nlinkers_seen; i++)
		if (!strcmp(linkers_seen[i].cc, cc) && !strcmp(linkers_seen[i].fuse, fuse)) {
			char *v = xstrdup(linkers_seen[i].version);
			pthread_mutex_unlock(&linkers_lock);
			return v;
		}
	pthread_mutex_unlock(&linkers_lock);
	struct strlist argv = {0};
	sl_split_ws(&argv, cc);
	if (*fuse)
		sl_push(&argv, fuse);
	sl_push(&argv, "-Wl,--version");
	sl_push_owned(&argv, NULL); /* argv's end */
	char *out = NULL;
	int rc = argv.n > 2 ? run_capture(argv.v, &out) : -1;
	char *line = rc == 0 && out ? linker_line(out) : NULL;
	char *version = line ? line : xstrdup("unknown linker");
	free(out);
	sl_release(&argv);
	pthread_mutex_lock(&linkers_lock);
	linkers_seen = xrealloc(linkers_seen, (nlinkers_seen + 1) * sizeof(*linkers_seen));
	linkers_seen[nlinkers_seen++] = (struct linker_seen){xstrdup(cc), xstrdup(fuse),
							      xstrdup(version)};
	pthread_mutex_unlock(&linkers_lock);
	return version;
}
