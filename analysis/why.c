/* why.c - see why.h */
#include "analysis/why.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/meter_cachegrind.h"

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

/* The counts come from the cachegrind meter (harness/meter_cachegrind.h);
 * a why_counts takes them over. */
static void take_counts(struct why_counts *out, struct cachegrind_profile *p)
{
	*out = (struct why_counts){.name = p->name, .ir = p->ir, .n = p->n, .total = p->total};
	memset(p, 0, sizeof(*p));
}

int why_parse_cachegrind(const char *path, struct why_counts *out, struct strbuf *err)
{
	struct cachegrind_profile p;
	int rc = cachegrind_parse(path, &p, err);
	take_counts(out, &p);
	return rc;
}

char *why_valgrind_path(void)
{
	return cachegrind_valgrind_path();
}

int why_profile(const char *build_dir, const struct recipe_run *run, const char *in_dir,
		struct why_counts *out, struct strbuf *err)
{
	struct cachegrind_profile p;
	int rc = cachegrind_run(build_dir, run, in_dir, &p, err);
	take_counts(out, &p);
	return rc;
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
