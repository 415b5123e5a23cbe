/* outcome.c - see outcome.h */
#include "base/outcome.h"

#include <string.h>

static const struct outcome_info table[OUTCOME_COUNT] = {
#define OUTCOME_ROW(e, n, rk, rt, er, m) [OUTCOME_##e] = {.name = n, .ranked = rk, .retried = rt, .error = er, .meaning = m},
	OUTCOMES(OUTCOME_ROW)
#undef OUTCOME_ROW
};

const struct outcome_info *outcome_info(enum outcome o)
{
	return (unsigned)o < OUTCOME_COUNT ? &table[o] : NULL;
}

const char *outcome_name(enum outcome o)
{
	return (unsigned)o < OUTCOME_COUNT ? table[o].name : "unknown";
}

enum outcome outcome_parse(const char *name)
{
	for (int i = 0; name && i < OUTCOME_COUNT; i++)
		if (!strcmp(table[i].name, name))
			return (enum outcome)i;
	return OUTCOME_COUNT;
}

int outcome_ranked(enum outcome o)
{
	return (unsigned)o < OUTCOME_COUNT && table[o].ranked;
}

int outcome_retried(enum outcome o)
{
	return (unsigned)o < OUTCOME_COUNT && table[o].retried;
}

int outcome_is_error(enum outcome o)
{
	return (unsigned)o < OUTCOME_COUNT && table[o].error;
}

int outcome_name_is_ok(const char *name)
{
	return outcome_parse(name) == OUTCOME_OK;
}
