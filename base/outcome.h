/*
 * outcome.h - what became of a build or a run.  These are results to
 * record and report, not reasons to stop a study.
 *
 * One table (OUTCOMES below) says what each outcome means; C code asks it
 * through outcome_info() and the helpers, SQL through the functions the
 * store registers (analysis/store.h).  How to add an outcome: add one
 * X(...) line, give it its meaning, and add a case to tests/test_outcome.c.
 */
#ifndef FLAGSCOPE_OUTCOME_H
#define FLAGSCOPE_OUTCOME_H

/*
 * X(ENUM, stored name, ranked, retried, error, meaning)
 *   stored name  lower case, used in the store and in JSON
 *   ranked       takes a rank: a run's samples count, a build or an item
 *                with it can be ranked (noisy ones are shown, not ranked)
 *   retried      a resumed study runs it again: it says nothing about the
 *                program, so it is not kept as the repetition's result
 *   error        a failure of the machinery (boards, ssh), not a result of
 *                the configuration; every other outcome is a result
 */
#define OUTCOMES(X)                                                                              \
	X(OK, "ok", 1, 0, 0, "built, ran and gave the reference output")                       \
	X(UNSUPPORTED_FLAG, "unsupported_flag", 0, 0, 0, "the compiler rejects (or ignores) a flag") \
	X(BUILD_FAILED, "build_failed", 0, 0, 0, "the workload's build failed")                  \
	X(TESTS_FAILED, "tests_failed", 0, 0, 0, "built, but the package's own test suite failed") \
	X(FLAGS_NOT_APPLIED, "flags_not_applied", 0, 0, 0, "built, but some unit lacks the flags") \
	X(UNSUPPORTED, "unsupported", 0, 0, 0, "the combination cannot exist here")              \
	X(CRASHED, "crashed", 0, 0, 0, "killed by a signal")                                     \
	X(TIMED_OUT, "timed_out", 0, 0, 0, "ran past its timeout")                               \
	X(RUN_FAILED, "run_failed", 0, 0, 0, "exited non-zero")                                  \
	X(WRONG_OUTPUT, "wrong_output", 0, 0, 0, "output differs from the reference")            \
	X(NO_REFERENCE, "no_reference", 0, 0, 0, "the baseline has no good output to compare")   \
	X(NOISY, "noisy", 0, 0, 0, "repeat = auto never got the interval narrow enough")        \
	X(UNRUNNABLE, "unrunnable", 0, 0, 0, "cannot run on this runner (e.g. no emulated CPU model)") \
	X(BOARD_FAULT, "board_fault", 0, 1, 1, "the boards failed, not the program (every attempt lost)") \
	X(INPUT_FAILED, "input_failed", 0, 1, 1, "the workload's [input] script failed: nothing ran")

enum outcome {
#define OUTCOME_ENUM(e, name, ranked, retried, error, meaning) OUTCOME_##e,
	OUTCOMES(OUTCOME_ENUM)
#undef OUTCOME_ENUM
	OUTCOME_COUNT
};

struct outcome_info {
	const char *name;
	unsigned ranked : 1, retried : 1, error : 1;
	const char *meaning;
};

/* The table row of o; NULL when o is not an outcome (OUTCOME_COUNT). */
const struct outcome_info *outcome_info(enum outcome o);
/* How a baseline's wrong_output detail begins when the baseline disagrees
 * with its own warm-up (harness/execute.c writes it, the store reads it:
 * store_unreproducible_runs). */
#define OUTCOME_NOT_REPRODUCIBLE "output not reproducible"

/* lower-case names used in the store and in JSON: "ok", "wrong_output";
 * "unknown" when o is not an outcome */
const char *outcome_name(enum outcome o);
/* OUTCOME_COUNT when the name is unknown (or NULL) */
enum outcome outcome_parse(const char *name);
/* 1 when the outcome (by value, or by stored name: 0 for an unknown one)
 * has that meaning */
int outcome_ranked(enum outcome o);
int outcome_retried(enum outcome o);
int outcome_is_error(enum outcome o);
/* 1 when the stored name is OUTCOME_OK's */
int outcome_name_is_ok(const char *name);

#endif
