/* settings.c - see settings.h */
#include "flagsets/settings.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/registry.h"
#include "flagsets/study.h"

const char *const stable_rule_names[] = {"obrien-fleming", "pocock", "bonferroni", NULL};

static int helper_cc_check(const char *value, struct strbuf *why)
{
	if (*value != '-')
		return 0;
	sb_addf(why, "helper_cc '%s' does not start with a compiler (write the command first, then its flags)",
		value);
	return -1;
}

static const char *const build_deps_names[] = {"install", "refuse", NULL};

#define F(x) offsetof(struct study, x)
#define NONE SETTING_NO_FIELD

const struct study_setting study_settings[] = {
	{"name", "study", NULL, SETTING_TEXT, .field = F(name), .line = NONE, .set = NONE,
	 .help = "the study's name in the results database (default: the file's name)"},
	{"description", "study", NULL, SETTING_TEXT, .field = F(description), .line = NONE, .set = NONE,
	 .help = "one line for listings (flagscope list presets)"},
	{"workloads", "study", "workloads", SETTING_WORDS, .field = F(workloads),
	 .line = F(workloads_line), .set = NONE, .example = "crc32 nbody",
	 .help = "the workloads to build and run (flagscope list workloads)"},
	{"packages", "study", "packages", SETTING_WORDS, .field = F(packages),
	 .line = F(packages_line), .set = NONE, .example = "libyaml fribidi", .nonempty = 1,
	 .help = "Debian source packages to build as workloads with no recipe (system = debian: "
		 "apt-get source, debian/rules, the package's own tests), named or listed in a file "
		 "(one a line, # comments)"},
	{"build_deps", "study", NULL, SETTING_ENUM, .choices = build_deps_names, .def = "install",
	 .field = F(build_deps), .line = NONE, .set = NONE, .bad = "must be install or refuse",
	 .help = "a package's missing build dependencies: install them with apt-get build-dep "
		 "(said first), or refuse (its builds are unsupported, with what is missing)"},
	{"repeat", "study", "repeat", SETTING_REPEAT, .def = "stable", .field = F(repeat),
	 .line = F(repeat_line),
	 .set = NONE, .bad = "must be a whole number from 1, 'stable' or 'auto'",
	 .hint = "write e.g. 'repeat = 5'",
	 .help = "measured runs per configuration: N, stable (until every rank verdict is settled) or auto"},
	{"max_repeat", "study", NULL, SETTING_INT, 2, 100000, .def = "30", .field = F(max_repeat),
	 .line = F(max_repeat_line), .set = NONE, .bad = "must be a whole number from 2",
	 .help = "repeat = stable and auto stop after this many runs"},
	{"max_seconds", "study", NULL, SETTING_SECONDS, .def = "300", .field = F(max_seconds),
	 .line = NONE, .set = NONE, .bad = "must be a positive number of seconds",
	 .help = "repeat = stable stops measuring after this long"},
	{"target", "study", NULL, SETTING_FRACTION, .def = "1%", .field = F(target), .line = NONE,
	 .set = NONE, .bad = "must be a relative half-width such as 1% or 0.01",
	 .help = "repeat = auto: until every median's 95% interval is this narrow"},
	{"tie_margin", "study", NULL, SETTING_FRACTION, .def = "1%", .field = F(tie_margin),
	 .line = NONE, .set = NONE, .bad = "must be a relative difference such as 1% or 0.01",
	 .help = "a tie is settled once the two are known to be within this of each other"},
	{"stable_rule", "study", NULL, SETTING_ENUM, .choices = stable_rule_names,
	 .def = "obrien-fleming", .field = F(stable_rule), .line = NONE, .set = NONE,
	 .bad = "must be obrien-fleming, pocock or bonferroni",
	 .help = "how repeat = stable shares its 5% out over its looks"},
	{"warmup", "study", NULL, SETTING_INT, 1, 100, .def = "1", .field = F(warmup), .line = NONE,
	 .set = NONE, .bad = "must be a whole number from 1 to 100",
	 .hint = "the first warm-up run validates the output",
	 .help = "unrecorded runs before the repetitions (the first validates the output)"},
	{"layouts", "study", NULL, SETTING_INT, 1, 8, .def = "1", .field = F(layouts), .line = NONE,
	 .set = NONE, .bad = "must be a whole number from 1 to 8",
	 .hint = "each configuration is built that many times, variant 0 in the compiler's function order",
	 .help = "builds per configuration differing only in code addresses (doc/layout.md); runs per build as repeat says"},
	{"timeout", "study", NULL, SETTING_SECONDS, .field = F(timeout), .line = NONE, .set = NONE,
	 .bad = "must be a positive number of seconds", .example = "60",
	 .help = "seconds a run may take (default: the recipe's own)"},
	{"metric", "study", "metric", SETTING_TEXT, .def = "time", .field = F(metric),
	 .line = F(metric_line), .set = F(metric_set), .example = "time",
	 .help = "what ranks: time, insns (an emulated study's default), size.text, a meter's or recipe's metric"},
	{"meters", "study", "meters", SETTING_WORDS, .field = F(meters), .line = F(meters_line),
	 .set = NONE, .example = "rusage cachegrind",
	 .help = "meters around each run (default: the default set, flagscope list metrics)"},
	{"baseline", "study", NULL, SETTING_WORDS, .field = F(baseline), .line = F(baseline_line),
	 .set = NONE, .example = "O2",
	 .help = "the configuration the others are compared with: one level per axis"},
	{"pin", "study", "pin", SETTING_CPULIST, .field = F(pin), .line = F(pin_line), .set = NONE,
	 .example = "0",
	 .help = "run the measured programs on these CPUs only (0, 0-1,3)"},
	{"isolate", "study", NULL, SETTING_YESNO, .def = "no", .field = F(isolate),
	 .line = F(isolate_line), .set = NONE, .bad = "is yes or no",
	 .help = "yes: refuse to start while the machine is busy (run --force starts anyway)"},
	{"isolate_load", "study", NULL, SETTING_NUMBER, .def = "0.5", .field = F(isolate_load),
	 .line = NONE, .set = NONE, .bad = "is a load average per core such as 0.5",
	 .help = "the 1-minute load per core isolate = yes allows"},
	{"host", "run", NULL, SETTING_TEXT, .field = F(run_host), .line = F(run_line), .set = NONE,
	 .example = "user@board", .nonempty = 1,
	 .help = "measure on this board over ssh (user@board[:port])"},
	{"hosts", "run", NULL, SETTING_TEXT, .field = F(run_host), .line = F(run_line), .set = NONE,
	 .example = "pi@board1 pi@board2", .nonempty = 1,
	 .help = "a pool of boards, runs spread over them"},
	{"port", "run", NULL, SETTING_INT, 1, 65535, .field = F(run_port), .line = F(run_line),
	 .set = NONE, .bad = "must be a number from 1 to 65535", .example = "2222",
	 .help = "ssh's port (default ssh's own)"},
	{"identity", "run", NULL, SETTING_TEXT, .field = F(run_identity), .line = F(run_line),
	 .set = NONE, .nonempty = 1, .help = "ssh's identity file"},
	{"workdir", "run", NULL, SETTING_TEXT, .field = F(run_workdir), .line = F(run_line),
	 .set = NONE, .nonempty = 1,
	 .help = "the folder on the board the runs use"},
	{"known_hosts", "run", NULL, SETTING_TEXT, .field = F(run_known_hosts), .line = F(run_line),
	 .set = NONE, .nonempty = 1,
	 .help = "ssh's known_hosts file"},
	{"per_board", "run", NULL, SETTING_INT, 1, 64, .field = F(run_per_board),
	 .line = F(run_line), .set = NONE, .bad = "must be a whole number from 1 to 64",
	 .hint = "the runs one board takes at a time: write e.g. 'per_board = 2'",
	 .example = "2", .help = "runs one board takes at a time (default 1)"},
	{"helper_cc", "run", NULL, SETTING_TEXT, .field = F(run_helper_cc), .line = F(run_line),
	 .set = NONE, .example = "mips64el-linux-gnuabi64-gcc -march=loongson2f -mabi=64",
	 .nonempty = 1, .check = helper_cc_check,
	 .help = "the compiler command (and flags) that builds the board's measuring helper"},
	{"cpu", "run", NULL, SETTING_TEXT, .field = F(run_cpu), .line = F(run_line), .set = NONE,
	 .example = "Loongson 2F, 800 MHz (Lemote Yeeloong 8089)", .nonempty = 1,
	 .help = "the boards' CPU in words, for the report"},
	{NULL},
};

#undef F
#undef NONE

const struct study_setting *setting_lookup(const char *section, const char *key)
{
	for (const struct study_setting *st = study_settings; st->key; st++)
		if (!strcmp(st->section, section) && !strcmp(st->key, key))
			return st;
	return NULL;
}

char *setting_keys(const char *section)
{
	struct strlist keys = {0};
	for (const struct study_setting *st = study_settings; st->key; st++)
		if (!strcmp(st->section, section))
			sl_push(&keys, st->key);
	char *s = sl_join(&keys, ", ");
	sl_release(&keys);
	return s;
}

static int parse_int(const char *v, int lo, int hi, int *out)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || end == v || *str_trim(end) || n < lo || n > hi)
		return -1;
	*out = (int)n;
	return 0;
}

/* a number, then what may follow it: "%" for a fraction */
static int parse_double(const char *v, int percent, double *out)
{
	char *end;
	double t = strtod(v, &end);
	if (percent && *end == '%') {
		t /= 100;
		end++;
	}
	if (end == v || *str_trim(end))
		return -1;
	*out = t;
	return 0;
}

static int parse_repeat(struct study *s, const char *value)
{
	s->repeat_auto = !strcmp(value, "auto");
	s->repeat_stable = !strcmp(value, "stable");
	return s->repeat_auto || s->repeat_stable ? 0 : parse_int(value, 1, 100000, &s->repeat);
}

static int parse_enum(const char *const *choices, const char *value, int *out)
{
	for (int i = 0; choices[i]; i++)
		if (!strcmp(choices[i], value)) {
			*out = i;
			return 0;
		}
	return -1;
}

static void set_text(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

/* The value into the field; -1 when the type refuses it (why says so only
 * for a CPU list, whose parser explains). */
static int parse_typed(const struct study_setting *st, struct study *s, void *field,
		       const char *value, int continued, struct strbuf *why)
{
	double d;
	cpu_set_t set;
	switch (st->type) {
	case SETTING_TEXT:
		set_text(field, value);
		return 0;
	case SETTING_WORDS:
		if (!continued)
			sl_release(field);
		sl_split_ws(field, value);
		return 0;
	case SETTING_INT:
		return parse_int(value, st->lo, st->hi, field);
	case SETTING_REPEAT:
		return parse_repeat(s, value);
	case SETTING_SECONDS:
		if (parse_double(value, 0, &d) || !(d > 0))
			return -1;
		*(double *)field = d;
		return 0;
	case SETTING_FRACTION:
		if (parse_double(value, 1, &d) || !(d > 0 && d < 1))
			return -1;
		*(double *)field = d;
		return 0;
	case SETTING_NUMBER:
		if (parse_double(value, 0, &d) || !(d >= 0))
			return -1;
		*(double *)field = d;
		return 0;
	case SETTING_ENUM:
		return parse_enum(st->choices, value, field);
	case SETTING_YESNO:
		*(int *)field = !strcmp(value, "yes");
		return *(int *)field || !strcmp(value, "no") ? 0 : -1;
	case SETTING_CPULIST:
		set_text(field, value);
		if (!cpulist_parse(value, &set, why))
			return 0;
		char *cause = sb_detach(why);
		sb_addf(why, "%s: %s", st->key, cause);
		free(cause);
		return -1;
	}
	return -1;
}

int setting_parse(const struct study_setting *st, void *study, const char *value, int line,
		  int continued, struct strbuf *why)
{
	struct study *s = study;
	char *base = (char *)s;
	if (st->line != SETTING_NO_FIELD)
		*(int *)(base + st->line) = line;
	if (st->set != SETTING_NO_FIELD)
		*(int *)(base + st->set) = 1;
	if (st->nonempty && !*value) {
		if (st->example)
			sb_addf(why, "'%s' in [%s] has no value (write e.g. '%s = %s')", st->key,
				st->section, st->key, st->example);
		else
			sb_addf(why, "'%s' in [%s] has no value (leave it out for the default)", st->key,
				st->section);
		return -1;
	}
	if (st->check && st->check(value, why))
		return -1;
	if (!parse_typed(st, s, base + st->field, value, continued, why))
		return 0;
	if (!why->len)
		sb_addf(why, "%s %s, not '%s'%s%s%s", st->key, st->bad ? st->bad : "is not valid",
			value, st->hint ? " (" : "", st->hint ? st->hint : "", st->hint ? ")" : "");
	return -1;
}

int study_override(void *study, const char *key, const char *value, struct strbuf *err)
{
	struct study *s = study;
	const struct study_setting *st = setting_lookup("study", key);
	if (!st || !st->flag) {
		sb_addf(err, "'%s' is not a setting a command-line option overrides (a bug)", key);
		return -1;
	}
	struct strbuf why = {0};
	int rc = setting_parse(st, s, value, 0, 0, &why);
	if (rc)
		sb_addf(err, "--%s: %s", st->flag, sb_str(&why));
	sb_release(&why);
	if (sl_find(&s->overridden, key) < 0)
		sl_push(&s->overridden, key);
	return rc;
}

char *setting_where(const void *study, const char *key)
{
	const struct study *s = study;
	const struct study_setting *st = setting_lookup("study", key);
	if (st && st->flag && sl_find(&s->overridden, key) >= 0)
		return xasprintf("--%s", st->flag);
	int line = st && st->line != SETTING_NO_FIELD ? *(const int *)((const char *)s + st->line) : 0;
	return line ? xasprintf("%s:%d", s->path, line) : xstrdup(s->path);
}

int settings_check(struct strbuf *err)
{
	int bad = 0;
	for (const struct study_setting *st = study_settings; st->key; st++) {
		const char *sections[] = {"study", "run"};
		for (size_t i = 0; i < ARRAY_SIZE(sections); i++)
			if (!strcmp(st->section, sections[i]) && setting_lookup(sections[i], st->key) != st)
				bad |= registry_require(0, "settings", st->key, "listed twice", err);
		int refuses = st->type != SETTING_TEXT && st->type != SETTING_WORDS &&
			      st->type != SETTING_CPULIST;
		bad |= registry_require(st->help && *st->help, "settings", st->key, "has no help", err);
		bad |= registry_require(!refuses || st->bad, "settings", st->key,
					"refuses values but has no .bad words", err);
		bad |= registry_require(st->type != SETTING_ENUM || st->choices, "settings", st->key,
					"is an enum without choices", err);
		bad |= registry_require(!st->flag || !strcmp(st->section, "study"), "settings",
					st->key, "has a run option but is not in [study]", err);
	}
	return bad ? -1 : 0;
}

void settings_help(FILE *out)
{
	fprintf(out, "\nstudy settings ([SECTION] KEY = DEFAULT, and the run option that overrides\nit; doc/study-format.md):\n");
	for (const struct study_setting *st = study_settings; st->key; st++)
		fprintf(out, "  [%s] %s%s%s%s%s\n      %s\n", st->section, st->key, st->def ? " = " : "",
			st->def ? st->def : "", st->flag ? "    run --" : "", st->flag ? st->flag : "",
			st->help);
}

/* What a value of each type is, for the reference (settings_markdown) */
static const char *const type_words[] = {
	[SETTING_TEXT] = "text",
	[SETTING_WORDS] = "words (continuation lines add)",
	[SETTING_INT] = "whole number",
	[SETTING_REPEAT] = "whole number from 1, stable or auto",
	[SETTING_SECONDS] = "seconds (above 0)",
	[SETTING_FRACTION] = "fraction above 0 and below 1 (1% or 0.01)",
	[SETTING_NUMBER] = "number from 0",
	[SETTING_ENUM] = "", /* its choices follow */
	[SETTING_YESNO] = "yes or no",
	[SETTING_CPULIST] = "CPU list",
};

_Static_assert(ARRAY_SIZE(type_words) == SETTING_CPULIST + 1, "type_words names every type");

/* a table cell: | would end it */
static void md_cell(FILE *out, const char *text)
{
	fputs("| ", out);
	for (const char *c = text; *c; c++) {
		if (*c == '|')
			fputc('\\', out);
		fputc(*c, out);
	}
	fputc(' ', out);
}

/* a cell of code (`--pin`), or an empty one for NULL */
static void md_code(FILE *out, const char *prefix, const char *text)
{
	if (text)
		fprintf(out, "| `%s%s` ", prefix, text);
	else
		fputs("| ", out);
}

void settings_markdown(FILE *out)
{
	fputs("| key | section | `run` option | type | default | what |\n"
	      "|---|---|---|---|---|---|\n", out);
	for (const struct study_setting *st = study_settings; st->key; st++) {
		struct strbuf type = {0};
		sb_add(&type, type_words[st->type]);
		if (st->type == SETTING_INT)
			sb_addf(&type, " from %d to %d", st->lo, st->hi);
		for (size_t i = 0; st->type == SETTING_ENUM && st->choices[i]; i++)
			sb_addf(&type, "%s%s", i ? (st->choices[i + 1] ? ", " : " or ") : "",
				st->choices[i]);
		md_code(out, "", st->key);
		fprintf(out, "| [%s] ", st->section);
		md_code(out, "--", st->flag);
		md_cell(out, sb_str(&type));
		md_code(out, "", st->def);
		md_cell(out, st->help);
		fputs("|\n", out);
		sb_release(&type);
	}
}

/* Debian policy 5.6.1: two or more of a-z 0-9 + - ., starting alphanumeric */
static int debian_name(const char *w)
{
	int ok = strlen(w) >= 2 && (islower((unsigned char)w[0]) || isdigit((unsigned char)w[0]));
	for (const char *c = w; ok && *c; c++)
		ok = islower((unsigned char)*c) || isdigit((unsigned char)*c) || strchr("+-.", *c);
	return ok;
}

/* the names of a package list file: one a line (blanks split too), # comments */
static int read_package_file(const char *path, struct strlist *names, struct strbuf *why)
{
	char *text = file_read(path, NULL);
	if (!text) {
		sb_addf(why, "cannot read package list %s: %s", path, strerror_lc(errno));
		return -1;
	}
	int rc = 0, line = 0;
	for (char *save, *l = strtok_r(text, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save)) {
		line++;
		char *hash = strchr(l, '#');
		if (hash)
			*hash = '\0';
		struct strlist w = {0};
		sl_split_ws(&w, l);
		for (size_t i = 0; i < w.n && !rc; i++) {
			if (!debian_name(w.v[i])) {
				sb_addf(why, "%s: '%s' is not a Debian source package name (lower case "
					     "letters, digits, + - .)", path, w.v[i]);
				rc = -1;
			} else if (sl_find(names, w.v[i]) < 0) {
				sl_push(names, w.v[i]);
			}
		}
		sl_release(&w);
	}
	free(text);
	return rc;
}

int packages_resolve(const struct strlist *words, const char *base_dir, struct strlist *names,
		     struct strbuf *why)
{
	for (size_t i = 0; i < words->n; i++) {
		const char *w = words->v[i];
		char *path = w[0] == '/' || !base_dir ? xstrdup(w) : xasprintf("%s/%s", base_dir, w);
		int rc = 0;
		if (file_exists(path) && !is_dir(path))
			rc = read_package_file(path, names, why);
		else if (debian_name(w) && sl_find(names, w) < 0)
			sl_push(names, w);
		else if (!debian_name(w)) {
			sb_addf(why, "packages: '%s' is neither a Debian source package name nor a file "
				     "(name packages, or a file of names one a line)", w);
			rc = -1;
		}
		free(path);
		if (rc)
			return -1;
	}
	return 0;
}
