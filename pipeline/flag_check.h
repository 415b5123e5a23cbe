/*
 * flag_check.h - a flag no compiler of the study takes is a mistake in the
 * study, not a result: refused at its level's line before anything is
 * built (and in a dry run), with the compiler's words and suggestion.
 */
#ifndef FLAGSCOPE_FLAG_CHECK_H
#define FLAGSCOPE_FLAG_CHECK_H

#include "base/util.h"

struct study_plan;

/* After the configurations are prepared (their flags probed): every level
 * whose configurations all have UNSUPPORTED_FLAG, for a complaint that
 * names one of the level's words, gives a line "STUDY:LINE: level 'NAME':
 * COMPLAINT (fix the flag: ...)" in err.  0, or -1 when there was one.  A
 * flag some compiler of the study takes stays an outcome of the others
 * (gcc's flag under clang: unsupported_flag, recorded). */
int pipeline_check_flags(const struct study_plan *p, struct strbuf *err);

#endif
