/* parse_only.c - see parse_only.h */
#include "explorer/parse_only.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The positional words of one alternative, [from, to) of the usage line;
 * the options written bare in it (--source) go to need. */
static size_t usage_words(const char *from, const char *to, struct usage_word *w, size_t max,
			  struct strlist *need)
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
		if (skip_arg && word[1] == '-') {
			char *name = xstrndup(word + 2, len - 2);
			name[strcspn(name, "=")] = 0;
			sl_push_owned(need, name);
		}
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

/* The first of need the command line did not give, or NULL. */
static const char *missing_option(const struct command_spec *cmd, const struct strlist *need)
{
	for (size_t i = 0; i < need->n; i++) {
		const struct option_spec *o = cmd->opts;
		while (o && o->long_name && strcmp(o->long_name, need->v[i]))
			o++;
		if (!o || !o->long_name || !options_given(o))
			return need->v[i];
	}
	return NULL;
}

int parse_only_check(const struct command_spec *cmd, const struct strlist *pos)
{
	const char *alt = cmd->usage;
	char *needs = NULL; /* an option a form that fits the words needs */
	int depth = 0, fits = 0;
	for (const char *p = alt; !fits; p++) {
		depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
		if (*p && (*p != '|' || depth))
			continue;
		struct usage_word w[16];
		struct strlist need = {0};
		size_t nw = usage_words(alt, p, w, ARRAY_SIZE(w), &need);
		if (usage_match(w, nw, pos->v, pos->n)) {
			/* a form of words (new NAME --source SPEC) needs its bare
			 * options; forms of options alone (compare's) are told
			 * apart by the command itself */
			const char *miss = nw ? missing_option(cmd, &need) : NULL;
			fits = !miss;
			if (miss && !needs)
				needs = xstrdup(miss);
		}
		sl_release(&need);
		if (!*p)
			break;
		alt = p + 1;
	}
	if (fits) {
		free(needs);
		return 1;
	}
	struct strbuf args = {0}, line = {0};
	for (size_t i = 0; i < pos->n; i++)
		sb_addf(&args, "%s'%s'", i ? " " : "", pos->v[i]);
	for (const char *p = cmd->usage; *p; p++) /* one line, however it is wrapped */
		if (!isspace((unsigned char)*p) || !isspace((unsigned char)p[1]))
			sb_addc(&line, isspace((unsigned char)*p) ? ' ' : *p);
	if (needs)
		error_msg("%s: %s also need%s --%s: flagscope %s %s (see flagscope %s --help)",
			  cmd->name, sb_str(&args), pos->n == 1 ? "s" : "", needs, cmd->name,
			  sb_str(&line), cmd->name);
	else
		error_msg("%s: %s do%s not fit its usage: flagscope %s %s (see flagscope %s --help)",
			  cmd->name, pos->n ? sb_str(&args) : "no arguments", pos->n == 1 ? "es" : "",
			  cmd->name, sb_str(&line), cmd->name);
	free(needs);
	sb_release(&args);
	sb_release(&line);
	return -1;
}
