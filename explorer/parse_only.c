/* parse_only.c - see parse_only.h */
#include "explorer/parse_only.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

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
		if (skip_arg || (*word == '[' && (word[1] == '-' || (len == 9 && !strncmp(word, "[options]", 9)))))
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

int parse_only_check(const struct command_spec *cmd, const struct strlist *pos)
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
