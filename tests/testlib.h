/*
 * testlib.h - what the unit tests share: CHECK that counts failures and
 * says where, a scratch folder, and writing small files.
 */
#ifndef FLAGSCOPE_TESTLIB_H
#define FLAGSCOPE_TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static int test_failures;

#define T_CHECK(cond, ...)                                                        \
	do {                                                                      \
		if (!(cond)) {                                                    \
			test_failures++;                                          \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                             \
			fputc('\n', stderr);                                      \
		}                                                                 \
	} while (0)

/* A fresh folder under $FLAGSCOPE_TEST_TMP (or /tmp); heap string. */
static inline char *test_tmpdir(const char *name)
{
	const char *base = getenv("FLAGSCOPE_TEST_TMP");
	char *dir = xasprintf("%s/%s", base && *base ? base : "/tmp/flagscope-test", name);
	remove_tree(dir);
	mkdir_p(dir, 0755);
	return dir;
}

static inline char *test_write(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	file_write(path, text, strlen(text));
	return path;
}

/* dir/rel with its folders made (rel may hold '/'), n bytes of data */
static inline void test_plant(const char *dir, const char *rel, const void *data, size_t n)
{
	char *path = xasprintf("%s/%s", dir, rel);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	mkdir_p(path, 0755);
	*slash = '/';
	file_write(path, data, n);
	free(path);
}

static inline int test_summary(const char *name)
{
	if (test_failures)
		fprintf(stderr, "%s: %d check(s) failed\n", name, test_failures);
	else
		printf("%s: all checks passed\n", name);
	return test_failures ? 1 : 0;
}

#endif
