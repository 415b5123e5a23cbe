/* why.c - see why.h */
#include "analysis/why.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static int by_change(const void *x, const void *y)
{
	const struct why_row *a = x, *b = y;
	double da = fabs(a->b - a->a), db = fabs(b->b - b->a);
	if (da != db)
		return da > db ? -1 : 1;
	return strcmp(a->name, b->name);
}

struct why_row *why_diff(const struct fn_counts *a, const struct fn_counts *b, size_t *n)
{
	struct why_row *rows = xcalloc(a->n + b->n + 1, sizeof(*rows));
	*n = 0;
	for (size_t i = 0; i < a->n; i++) {
		size_t k = fn_counts_find(b, a->name[i]);
		rows[(*n)++] = (struct why_row){a->name[i], a->ir[i], k == SIZE_MAX ? 0 : b->ir[k]};
	}
	for (size_t i = 0; i < b->n; i++)
		if (fn_counts_find(a, b->name[i]) == SIZE_MAX)
			rows[(*n)++] = (struct why_row){b->name[i], 0, b->ir[i]};
	qsort(rows, *n, sizeof(*rows), by_change);
	return rows;
}
