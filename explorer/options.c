/* options.c - see options.h */
#include "explorer/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/registry.h"

void options_help(const struct command_spec *cmd, FILE *out)
{
	fprintf(out, "usage: flagscope %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->summary);
	fprintf(out, "\noptions:\n");
	for (const struct option_spec *o = cmd->opts; o && o->long_name; o++) {
		char left[64];
		int n = 0;
		if (o->short_name)
			n = snprintf(left, sizeof(left), "-%c, ", o->short_name);
		else
			n = snprintf(left, sizeof(left), "    ");
		snprintf(left + n, sizeof(left) - (size_t)n, "--%s%s%s", o->long_name,
			 o->type == OPT_FLAG ? "" : " ",
			 o->type == OPT_FLAG ? "" : (o->argname ? o->argname : "VALUE"));
		fprintf(out, "  %-28s %s", left, o->help);
		if (o->type == OPT_CHOICE) {
			fprintf(out, " (");
			for (const char *const *c = o->choices; *c; c++)
				fprintf(out, "%s%s", c == o->choices ? "" : "|", *c);
			fprintf(out, ")");
		} else if (o->type == OPT_FORMAT) {
			struct strbuf names = {0};
			format_set_names(o->formats(NULL), "|", &names);
			fprintf(out, " (%s)", sb_str(&names));
			sb_release(&names);
		}
		fputc('\n', out);
	}
	fprintf(out, "  %-28s %s\n", "-h, --help", "show this help");
	if (cmd->details)
		fprintf(out, "\n%s\n", cmd->details);
	if (cmd->more_help)
		cmd->more_help(out);
}

static const struct option_spec *find_long(const struct command_spec *cmd, const char *name,
					   size_t len)
{
	for (const struct option_spec *o = cmd->opts; o && o->long_name; o++)
		if (strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

/* A mistyped --option (--repeats): the nearest of cmd's, or NULL */
static const char *nearest_long(const struct command_spec *cmd, const char *a)
{
	const char *names[128];
	size_t n = 0;
	for (const struct option_spec *o = cmd->opts; o && o->long_name && n < 128; o++)
		names[n++] = o->long_name;
	char *word = xstrndup(a + 2, strcspn(a + 2, "="));
	const char *near = a[1] == '-' ? str_nearest(word, names, n) : NULL;
	free(word);
	return near;
}

static const struct option_spec *find_short(const struct command_spec *cmd, char c)
{
	for (const struct option_spec *o = cmd->opts; o && o->long_name; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

/* "search: --metric does not take 'tiem' (it takes: time, insns)" */
static int choice_refused(const struct command_spec *cmd, const struct option_spec *o,
			  const char *arg)
{
	struct strbuf takes = {0};
	for (const char *const *c = o->choices; *c; c++)
		sb_addf(&takes, "%s%s", takes.len ? ", " : "", *c);
	error_msg("%s: --%s does not take '%s' (it takes: %s)", cmd->name, o->long_name, arg,
		  sb_str(&takes));
	sb_release(&takes);
	return -1;
}

/* OPT_INT and OPT_COUNT: 0 with *v set, or -1 */
static int parse_number(const struct option_spec *o, const char *arg, int *v)
{
	char *end;
	errno = 0;
	long n = strtol(arg, &end, 10);
	long least = o->type == OPT_COUNT ? 1 : -1000000000L;
	if (errno || *end || end == arg || n < least || n > 1000000000L)
		return -1;
	*v = (int)n;
	return 0;
}

static int set_value(const struct command_spec *cmd, const struct option_spec *o,
		     const char *arg)
{
	switch (o->type) {
	case OPT_FLAG:
		*(int *)o->value = 1;
		return 0;
	case OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_LIST:
		sl_push(o->value, arg);
		return 0;
	case OPT_INT:
	case OPT_COUNT:
		if (parse_number(o, arg, o->value)) {
			error_msg("%s: --%s needs a number%s, not '%s' (see flagscope %s --help)",
				  cmd->name, o->long_name, o->type == OPT_COUNT ? " of at least 1" : "",
				  arg, cmd->name);
			return -1;
		}
		return 0;
	case OPT_CHOICE:
		for (const char *const *c = o->choices; *c; c++)
			if (!strcmp(*c, arg)) {
				*(const char **)o->value = *c;
				return 0;
			}
		return choice_refused(cmd, o, arg);
	case OPT_FORMAT:
		if (format_offered(cmd->name, arg, o->formats(NULL)))
			return -1;
		*(const char **)o->value = format_name(format_parse(arg)); /* the table's string */
		return 0;
	}
	return -1;
}

static int options_parse_all(const struct command_spec *cmd, int argc, char **argv,
			     struct strlist *positional);

int (*options_after_parse)(const struct command_spec *cmd, const struct strlist *positional);

/* the options the last parse was given, for options_given */
static const struct option_spec *given[64];
static size_t n_given;

int options_given(const struct option_spec *o)
{
	for (size_t i = 0; i < n_given; i++)
		if (given[i] == o)
			return 1;
	return 0;
}

int options_parse(const struct command_spec *cmd, int argc, char **argv,
		  struct strlist *positional)
{
	n_given = 0;
	int rc = 0;
	for (const struct option_spec *o = cmd->opts; o && o->long_name && !rc; o++)
		rc = o->def ? set_value(cmd, o, o->def) : 0; /* options_check took each */
	if (!rc)
		rc = options_parse_all(cmd, argc, argv, positional);
	if (!rc && options_after_parse)
		rc = options_after_parse(cmd, positional);
	if (rc)
		sl_release(positional);
	return rc;
}

static int options_parse_all(const struct command_spec *cmd, int argc, char **argv,
			     struct strlist *positional)
{
	int only_positional = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct option_spec *o = NULL;
		const char *arg = NULL;
		if (only_positional || a[0] != '-' || !a[1]) {
			sl_push(positional, a);
			continue;
		}
		if (!strcmp(a, "--")) {
			only_positional = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			options_help(cmd, stdout);
			return 1;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			o = find_long(cmd, a + 2, len);
			if (eq)
				arg = eq + 1;
		} else {
			o = find_short(cmd, a[1]);
			if (o && a[2])
				arg = a + 2; /* -j2 */
		}
		if (!o) {
			const char *near = nearest_long(cmd, a);
			error_msg("%s: unknown option '%s' (%s%s%ssee flagscope %s --help)", cmd->name,
				  a, near ? "did you mean '--" : "", near ? near : "",
				  near ? "'? " : "", cmd->name);
			return -1;
		}
		if (o->type == OPT_FLAG) {
			if (arg) {
				error_msg("%s: --%s takes no value (see flagscope %s --help)",
					  cmd->name, o->long_name, cmd->name);
				return -1;
			}
		} else if (!arg) {
			if (i + 1 >= argc) {
				error_msg("%s: --%s needs a value (see flagscope %s --help)", cmd->name,
					  o->long_name, cmd->name);
				return -1;
			}
			arg = argv[++i];
		}
		if (set_value(cmd, o, arg))
			return -1;
		if (n_given < ARRAY_SIZE(given))
			given[n_given++] = o;
	}
	return 0;
}

void print_error_lines(const char *text)
{
	char *copy = xstrdup(text);
	for (char *save, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		error_msg("%s", l);
	free(copy);
}

/* NULL when def is a value option o takes, else why not */
static const char *default_refused(const struct option_spec *o)
{
	int n;
	switch (o->type) {
	case OPT_FLAG:
	case OPT_LIST:
		return "has a default, which a flag or a list cannot have";
	case OPT_STRING:
		return NULL;
	case OPT_INT:
	case OPT_COUNT:
		return parse_number(o, o->def, &n) ? "has a default that is not a number it takes" : NULL;
	case OPT_CHOICE:
		for (const char *const *c = o->choices; *c; c++)
			if (!strcmp(*c, o->def))
				return NULL;
		return "has a default that is not one of its choices";
	case OPT_FORMAT: {
		enum format f = format_parse(o->def);
		return f < FORMAT_COUNT && o->formats && (o->formats(NULL) & FORMAT_BIT(f))
			       ? NULL
			       : "has a default format its writers do not write";
	}
	}
	return "has an unknown type";
}

int options_check(const struct command_spec *cmd, struct strbuf *err)
{
	size_t before = err->len;
	struct strbuf what = {0};
	struct strlist names = {0};
	sb_addf(&what, "%s options", cmd->name);
	for (const struct option_spec *o = cmd->opts; o && o->long_name; o++) {
		sl_push(&names, o->long_name);
		const char *refused = o->def ? default_refused(o) : NULL;
		registry_require(!refused, sb_str(&what), o->long_name, refused, err);
		/* a help line that names the default names this one */
		const char *said = o->def && o->help ? strstr(o->help, "(default") : NULL;
		registry_require(!said || strstr(said, o->def), sb_str(&what), o->long_name,
				 "its help names another default than its .def", err);
		if (o->type != OPT_FORMAT)
			continue;
		/* the writers say what they write; asking them checks their table */
		if (registry_require(o->formats != NULL, sb_str(&what), o->long_name,
				     "takes formats but names no writers", err))
			continue;
		registry_require(o->formats(err) != 0, sb_str(&what), o->long_name,
				 "offers no format", err);
	}
	registry_check(sb_str(&what), (const char *const *)names.v, names.n, err);
	sl_release(&names);
	sb_release(&what);
	return err->len > before ? -1 : 0;
}
