/*
 * test_outcome.c - the outcome table (base/outcome.h): every outcome's
 * stored name parses back to it, and each says what it means: only ok is
 * ranked, only board_fault is retried on resume and is an error, every
 * other outcome is a result.  Expected: all checks pass.
 */
#include "base/outcome.h"
#include "tests/testlib.h"

static const struct outcome_case {
	enum outcome o;
	const char *name;
	int ranked, retried, error;
} cases[] = {
	{OUTCOME_OK, "ok", 1, 0, 0},
	{OUTCOME_UNSUPPORTED_FLAG, "unsupported_flag", 0, 0, 0},
	{OUTCOME_BUILD_FAILED, "build_failed", 0, 0, 0},
	{OUTCOME_FLAGS_NOT_APPLIED, "flags_not_applied", 0, 0, 0},
	{OUTCOME_UNSUPPORTED, "unsupported", 0, 0, 0},
	{OUTCOME_CRASHED, "crashed", 0, 0, 0},
	{OUTCOME_TIMED_OUT, "timed_out", 0, 0, 0},
	{OUTCOME_RUN_FAILED, "run_failed", 0, 0, 0},
	{OUTCOME_WRONG_OUTPUT, "wrong_output", 0, 0, 0},
	{OUTCOME_NO_REFERENCE, "no_reference", 0, 0, 0},
	{OUTCOME_NOISY, "noisy", 0, 0, 0},
	{OUTCOME_UNRUNNABLE, "unrunnable", 0, 0, 0},
	{OUTCOME_BOARD_FAULT, "board_fault", 0, 1, 1},
	{OUTCOME_INPUT_FAILED, "input_failed", 0, 1, 1},
	{OUTCOME_TESTS_FAILED, "tests_failed", 0, 0, 0},
};

int main(void)
{
	T_CHECK(ARRAY_SIZE(cases) == OUTCOME_COUNT, "%zu cases for %d outcomes: add the new one here",
		ARRAY_SIZE(cases), (int)OUTCOME_COUNT);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct outcome_case *c = &cases[i];
		const struct outcome_info *in = outcome_info(c->o);
		T_CHECK(in && !strcmp(in->name, c->name) && !strcmp(outcome_name(c->o), c->name),
			"%s: stored name '%s'", c->name, outcome_name(c->o));
		T_CHECK(in && in->meaning && *in->meaning, "%s: says what it means", c->name);
		T_CHECK(outcome_parse(c->name) == c->o, "%s parses back", c->name);
		T_CHECK(outcome_ranked(c->o) == c->ranked, "%s: ranked %d", c->name, c->ranked);
		T_CHECK(outcome_retried(c->o) == c->retried, "%s: retried %d", c->name, c->retried);
		T_CHECK(outcome_is_error(c->o) == c->error, "%s: error %d", c->name, c->error);
		T_CHECK(outcome_name_is_ok(c->name) == (c->o == OUTCOME_OK), "%s: is ok", c->name);
	}
	/* names no outcome has: no meaning at all */
	const char *unknown[] = {"OK", "", "unknown", "board-fault", NULL};
	for (size_t i = 0; i < ARRAY_SIZE(unknown); i++) {
		enum outcome o = outcome_parse(unknown[i]);
		T_CHECK(o == OUTCOME_COUNT, "'%s' is not an outcome", unknown[i] ? unknown[i] : "NULL");
		T_CHECK(!outcome_ranked(o) && !outcome_retried(o) && !outcome_is_error(o) &&
				!outcome_info(o) && !outcome_name_is_ok(unknown[i]),
			"'%s' means nothing", unknown[i] ? unknown[i] : "NULL");
	}
	T_CHECK(!strcmp(outcome_name(OUTCOME_COUNT), "unknown"), "name of a non-outcome");
	return test_summary("test_outcome");
}
