/*
 * parse_only.h - flagscope --parse-only CMD ARGS...: CMD's option table
 * parses ARGS (an unknown option, a missing value, a bad number or choice
 * is refused as CMD refuses it), then the positional arguments are matched
 * against CMD's usage line, and nothing is done.
 *
 * The usage line is the grammar, so that docs and tests can check a command
 * without a second table of it: its alternatives split at '|' outside
 * brackets; a lowercase word is literal ("save"), an UPPER word any
 * argument, [WORD] an optional one, WORD... one or more; [--opt ...] and
 * [options] are the option table's; --opt ARG written bare in a form with
 * words (new NAME --source SPEC) is an option that form needs (forms of
 * options alone, like compare's, the command tells apart itself).  What a
 * command checks after its parse (a --shard's I < N, values) is not seen
 * here.
 */
#ifndef FLAGSCOPE_PARSE_ONLY_H
#define FLAGSCOPE_PARSE_ONLY_H

#include "explorer/options.h"

/* For options_after_parse: 1 when pos fits one of cmd's usage forms (stop,
 * exit 0), else -1 after one line saying the arguments and the usage. */
int parse_only_check(const struct command_spec *cmd, const struct strlist *pos);

#endif
