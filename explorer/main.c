/* main.c - flagscope's command dispatcher: one table, one file per command. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "explorer/commands.h"
#include "explorer/options.h"
#include "base/util.h"
#include "harness/meter.h"
#include "harness/runner.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"run", cmd_run, "build, verify, run, validate, store and rank a study"},
	{"report", cmd_report, "print the ranking stored in a results database"},
	{"list", cmd_list, "list toolchains, workloads or presets"},
	{"verify", cmd_verify, "prove from ELF files which flags, ABI and linkage they got"},
	{"sysroot", cmd_sysroot, "build or list C library sysroots made with target flags"},
	{"compare", cmd_compare, "IMPROVED / REGRESSED / UNCHANGED between two databases or configurations"},
	{"recommend", cmd_recommend, "the best valid configuration as a make.conf fragment with its evidence"},
	{"why", cmd_why, "instructions per function of two builds, side by side (cachegrind)"},
	{"merge", cmd_merge, "join the databases of one study's shards (run --shard, slurm)"},
	{"slurm", cmd_slurm, "a Slurm job array that runs a study in shards, then merges them"},
	{"search", cmd_search, "the best flag set under a budget: validated, minimal, confirmed (make.conf)"},
	{"baseline", cmd_baseline, "keep a study's results as a named baseline for compare --against"},
	{"workload", cmd_workload, "write a recipe skeleton for a program or Debian package (workload new)"},
};

/*
 * flagscope --parse-only CMD ARGS...: CMD's option table parses ARGS (an
 * unknown option, a missing value, a bad number or choice is refused as CMD
 * refuses it), then the positional arguments are matched against CMD's usage
 * line, and nothing is done.  The usage line is the grammar so that docs and
 * tests can check a command without a table of its own here: its
 * alternatives split at '|' outside brackets; a lowercase word is literal
 * ("save"), an UPPER word any argument, [WORD] an optional one, WORD... one
 * or more; --opt ARG, [--opt ...] and [options] are the option table's.
 */
enum usage_kind { U_LITERAL, U_ANY, U_OPTIONAL, U_MORE };

struct usage_word {
	enum usage_kind kind;
	char text[48];
};

static int usage_is_literal(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!islower((unsigned char)w[i]) && !isdigit((unsigned char)w[i]) && w[i] != '-')
			return 0;
	return n > 0;
}

/* The positional words of one alternative, [from, to) of the usage line. */
static size_t usage_words(const char *from, const char *to, struct usage_word *w, size_t max)
{
	size_t n = 0;
	int skip_arg = 0;
	while (from < to && n < max) {
		while (from < to && isspace((unsigned char)*from))
			from++;
		if (from >= to)
			break;
		const char *end = from;
		for (int depth = 0; end < to && (depth || !isspace((unsigned char)*end)); end++)
			depth += *end == '[' ? 1 : *end == ']' ? -1 : 0;
		size_t len = (size_t)(end - from);
		const char *word = from;
		from = end;
		if (skip_arg && *word != '-' && *word != '[') {
			skip_arg = 0; /* --target TRIPLE: the option's value */
			continue;
		}
		skip_arg = *word == '-';
		if (skip_arg || (*word == '[' && (word[1] == '-' || !strncmp(word, "[options]", len))))
			continue;
		struct usage_word *u = &w[n++];
		u->kind = U_ANY;
		if (*word == '[') {
			u->kind = U_OPTIONAL;
			word++;
			len -= 2;
		} else if (len > 3 && !strncmp(word + len - 3, "...", 3)) {
			u->kind = U_MORE;
			len -= 3;
		} else if (usage_is_literal(word, len)) {
			u->kind = U_LITERAL;
		}
		snprintf(u->text, sizeof(u->text), "%.*s", (int)len, word);
	}
	return n;
}

static int usage_match(const struct usage_word *w, size_t nw, char *const *arg, size_t na)
{
	if (!nw)
		return na == 0;
	switch (w->kind) {
	case U_LITERAL:
		return na && !strcmp(*arg, w->text) && usage_match(w + 1, nw - 1, arg + 1, na - 1);
	case U_ANY:
		return na && usage_match(w + 1, nw - 1, arg + 1, na - 1);
	case U_OPTIONAL:
		return (na && usage_match(w + 1, nw - 1, arg + 1, na - 1)) ||
		       usage_match(w + 1, nw - 1, arg, na);
	case U_MORE:
		for (size_t k = 1; k <= na; k++)
			if (usage_match(w + 1, nw - 1, arg + k, na - k))
				return 1;
		return 0;
	}
	return 0;
}

static int parse_only(const struct command_spec *cmd, const struct strlist *pos)
{
	const char *alt = cmd->usage;
	int depth = 0;
	for (const char *p = alt;; p++) {
		depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
		if (*p && (*p != '|' || depth))
			continue;
		struct usage_word w[16];
		size_t nw = usage_words(alt, p, w, ARRAY_SIZE(w));
		if (usage_match(w, nw, pos->v, pos->n))
			return 1;
		if (!*p)
			break;
		alt = p + 1;
	}
	struct strbuf args = {0}, line = {0};
	for (size_t i = 0; i < pos->n; i++)
		sb_addf(&args, "%s'%s'", i ? " " : "", pos->v[i]);
	for (const char *p = cmd->usage; *p; p++) /* one line, however it is wrapped */
		if (!isspace((unsigned char)*p) || !isspace((unsigned char)p[1]))
			sb_addc(&line, isspace((unsigned char)*p) ? ' ' : *p);
	error_msg("%s: %s do%s not fit its usage: flagscope %s %s (see flagscope %s --help)",
		  cmd->name, pos->n ? sb_str(&args) : "no arguments", pos->n == 1 ? "es" : "",
		  cmd->name, sb_str(&line), cmd->name);
	sb_release(&args);
	sb_release(&line);
	return -1;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: flagscope COMMAND [options]\n\n"
		     "Rebuild real programs across compiler, flag, ABI, libc and linkage\n"
		     "matrices, check they still work, and rank them.\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n'flagscope COMMAND --help' describes one command; --version prints the version;\n"
		     "'flagscope --parse-only COMMAND ARGS...' checks a command line (its options\n"
		     "and arguments, as COMMAND would) and does nothing.\n");
}

int main(int argc, char **argv)
{
	/* the plugin tables, once: a mistake there is the build's, not the user's */
	struct strbuf bad = {0};
	if (runners_check(&bad) | meters_check(&bad)) {
		error_msg("%s (a bug in this build of flagscope: please report it)", sb_str(&bad));
		return 2;
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("flagscope %s\n", FLAGSCOPE_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--parse-only")) {
		options_after_parse = parse_only;
		argc--;
		argv++;
		if (argc < 2) {
			error_msg("--parse-only needs a command line: flagscope --parse-only COMMAND ARGS...");
			return 2;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	error_msg("'%s' is not a command (see flagscope --help)", argv[1]);
	return 2;
}
