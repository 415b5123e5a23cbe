/* outcome.c - see outcome.h */
#include "base/outcome.h"

#include <string.h>

static const char *const names[OUTCOME_COUNT] = {
	[OUTCOME_OK] = "ok",
	[OUTCOME_UNSUPPORTED_FLAG] = "unsupported_flag",
	[OUTCOME_BUILD_FAILED] = "build_failed",
	[OUTCOME_FLAGS_NOT_APPLIED] = "flags_not_applied",
	[OUTCOME_UNSUPPORTED] = "unsupported",
	[OUTCOME_CRASHED] = "crashed",
	[OUTCOME_TIMED_OUT] = "timed_out",
	[OUTCOME_RUN_FAILED] = "run_failed",
	[OUTCOME_WRONG_OUTPUT] = "wrong_output",
	[OUTCOME_NO_REFERENCE] = "no_reference",
	[OUTCOME_NOISY] = "noisy",
	[OUTCOME_UNRUNNABLE] = "unrunnable",
	[OUTCOME_BOARD_FAULT] = "board_fault",
};

const char *outcome_name(enum outcome o)
{
	return o < OUTCOME_COUNT ? names[o] : "unknown";
}

enum outcome outcome_parse(const char *name)
{
	for (int i = 0; i < OUTCOME_COUNT; i++)
		if (!strcmp(names[i], name))
			return (enum outcome)i;
	return OUTCOME_COUNT;
}
