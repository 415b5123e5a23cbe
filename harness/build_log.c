/* build_log.c - see build_log.h */
#include "harness/build_log.h"

#include <stdlib.h>
#include <string.h>

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
