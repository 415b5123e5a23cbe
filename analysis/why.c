/* why.c - see why.h */
#include "analysis/why.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


void why_counts_release(struct why_counts *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->name[i]);
	free(c->name);
	free(c->ir);
	memset(c, 0, sizeof(*c));
}

static size_t find_fn(const struct why_counts *c, const char *name)
{
	for (size_t i = c->n; i-- > 0;)
		if (!strcmp(c->name[i], name))
			return i;
	return SIZE_MAX;
}

int why_parse_cachegrind(const char *path, struct why_counts *out, struct strbuf *err)
{
	memset(out, 0, sizeof(*out));
	FILE *f = fopen(path, "r");
	if (!f) {
		sb_addf(err, "%s: cannot read the cachegrind output: %s", path, strerror(errno));
		return -1;
	}
	char *line = NULL;
	size_t cap = 0, cur = SIZE_MAX;
	int events_ok = 0;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (str_starts_with(line, "events:")) {
			events_ok = str_starts_with(str_trim(line + 7), "Ir");
		} else if (str_starts_with(line, "fn=")) {
			/* a function spread over several files comes back: one row */
			cur = find_fn(out, line + 3);
			if (cur == SIZE_MAX) {
				out->name = xrealloc(out->name, (out->n + 1) * sizeof(char *));
				out->ir = xrealloc(out->ir, (out->n + 1) * sizeof(double));
				out->name[out->n] = xstrdup(line + 3);
				out->ir[out->n] = 0;
				cur = out->n++;
			}
		} else if (str_starts_with(line, "summary:")) {
			out->total = strtod(line + 8, NULL);
		} else if (cur != SIZE_MAX && line[0] >= '0' && line[0] <= '9') {
			char *p;
			strtoul(line, &p, 10); /* the source line */
			out->ir[cur] += strtod(p, NULL);
		}
	}
	free(line);
	fclose(f);
	if (!events_ok || !out->n) {
		sb_addf(err, "%s: %s (is this a cachegrind output file?)", path,
			!events_ok ? "no Ir event" : "no function counts");
		why_counts_release(out);
		return -1;
	}
	return 0;
}

char *why_valgrind_path(void)
{
	const char *path = getenv("PATH");
	char *copy = xstrdup(path && *path ? path : "/usr/bin:/bin"), *save = NULL, *found = NULL;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/valgrind", d);
		if (!access(p, X_OK))
			found = p;
		else
			free(p);
	}
	free(copy);
	return found;
}

static int by_change(const void *x, const void *y)
{
	const struct why_row *a = x, *b = y;
	double da = fabs(a->b - a->a), db = fabs(b->b - b->a);
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

struct why_row *why_diff(const struct why_counts *a, const struct why_counts *b, size_t *n)
{
	struct why_row *rows = xcalloc(a->n + b->n + 1, sizeof(*rows));
	*n = 0;
	for (size_t i = 0; i < a->n; i++) {
		size_t k = find_fn(b, a->name[i]);
		rows[(*n)++] = (struct why_row){a->name[i], a->ir[i], k == SIZE_MAX ? 0 : b->ir[k]};
	}
	for (size_t i = 0; i < b->n; i++)
		if (find_fn(a, b->name[i]) == SIZE_MAX)
			rows[(*n)++] = (struct why_row){b->name[i], 0, b->ir[i]};
	qsort(rows, *n, sizeof(*rows), by_change);
	return rows;
}
