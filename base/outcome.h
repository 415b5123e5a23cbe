/*
 * outcome.h - what became of a build or a run.  These are results to
 * record and report, not reasons to stop a study.
 */
#ifndef FLAGSCOPE_OUTCOME_H
#define FLAGSCOPE_OUTCOME_H

enum outcome {
	OUTCOME_OK,
	OUTCOME_UNSUPPORTED_FLAG,  /* the compiler rejects (or ignores) a flag */
	OUTCOME_BUILD_FAILED,      /* the workload's build failed */
	OUTCOME_FLAGS_NOT_APPLIED, /* built, but some unit lacks the flags */
	OUTCOME_UNSUPPORTED,       /* the combination cannot exist here */
	OUTCOME_CRASHED,           /* killed by a signal */
	OUTCOME_TIMED_OUT,
	OUTCOME_RUN_FAILED,        /* exited non-zero */
	OUTCOME_WRONG_OUTPUT,      /* output differs from the reference */
	OUTCOME_NO_REFERENCE,      /* the baseline has no good output to compare */
	OUTCOME_NOISY,             /* repeat = auto never got the interval narrow enough */
	OUTCOME_UNRUNNABLE,        /* cannot run on this runner (e.g. no emulated CPU model) */
	OUTCOME_BOARD_FAULT,       /* the boards failed, not the program (ssh: every attempt
				      lost); not a result: a resumed study runs it again */
	OUTCOME_COUNT
};

/* lower-case names used in the store and in JSON: "ok", "wrong_output" */
const char *outcome_name(enum outcome o);
/* OUTCOME_COUNT when the name is unknown */
enum outcome outcome_parse(const char *name);

#endif
