/* fn_counts.c - see fn_counts.h */
#include "base/fn_counts.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void fn_counts_release(struct fn_counts *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->name[i]);
	free(c->name);
	free(c->ir);
	memset(c, 0, sizeof(*c));
}

size_t fn_counts_find(const struct fn_counts *c, const char *name)
{
	for (size_t i = c->n; i-- > 0;)
		if (!strcmp(c->name[i], name))
			return i;
	return SIZE_MAX;
}
