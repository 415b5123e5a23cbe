/*
 * settings.h - the study file's settings, one table (as fio's option
 * table serves job files and its command line): per setting its key and
 * section, the `run` option that overrides it, its type and parser, its
 * default, the field of struct study it fills and a help line.  The
 * loader (study.c), `run --help` (and so the man page), the "known:" lists
 * of its errors, `flagscope help settings` and tests/test_settings.c read
 * it; doc/study-format.md's reference table is made from it
 * (settings_markdown, scripts/settings-doc.sh).
 *
 * How to add a setting:
 *   1. add its field (and a _line field when a later check names its
 *      line) to struct study in study.h, and its default to study_init();
 *   2. add one row to study_settings[] in settings.c with the type whose
 *      parser fits (or a check function for what no type says);
 *   3. run scripts/settings-doc.sh build/flagscope: doc/study-format.md's
 *      reference table is `flagscope help settings --format markdown`
 *      (it_settings_doc fails until then); say more in its prose if the
 *      help line is not enough.  test_settings loads it, finds it in
 *      `run --help` and on that page, and, with .flag, checks that `run`
 *      takes the option.
 */
#ifndef FLAGSCOPE_SETTINGS_H
#define FLAGSCOPE_SETTINGS_H

#include <stddef.h>
#include <stdio.h>

#include "base/util.h"

enum setting_type {
	SETTING_TEXT,     /* char *: the value as written (replaced by a later line) */
	SETTING_WORDS,    /* struct strlist: blank-separated words; continuation lines add */
	SETTING_INT,      /* int: a whole number from .lo to .hi */
	SETTING_REPEAT,   /* repeat: a whole number from 1, `stable` or `auto` */
	SETTING_SECONDS,  /* double: a positive number of seconds */
	SETTING_FRACTION, /* double: above 0 and below 1, written 1% or 0.01 */
	SETTING_NUMBER,   /* double: a number from 0 */
	SETTING_ENUM,     /* int: the index of the value in .choices */
	SETTING_YESNO,    /* int: yes 1, no 0 */
	SETTING_CPULIST,  /* char *: a CPU list (base/cpulist.h), kept as written */
};

#define SETTING_NO_FIELD ((size_t)-1)

struct study_setting {
	const char *key;     /* "repeat" */
	const char *section; /* "study" or "run" */
	const char *flag;    /* the `run` option that overrides it ("repeat"), or NULL */
	enum setting_type type;
	int lo, hi;                 /* SETTING_INT */
	const char *const *choices; /* SETTING_ENUM, NULL-terminated */
	const char *def;     /* the default as a file would write it; NULL: none */
	size_t field;        /* offsetof(struct study, ...) */
	size_t line;         /* offsetof the field that keeps its line, or SETTING_NO_FIELD */
	size_t set;          /* offsetof an int set to 1 when given, or SETTING_NO_FIELD */
	/* a refused value: "KEY BAD, not 'VALUE' (HINT)" */
	const char *bad;
	const char *hint;
	const char *example; /* a value that loads: "host = user@board"'s right side */
	int nonempty;        /* an empty value is refused, naming .example */
	/* a check no type makes: 0, or -1 with the whole refusal in why */
	int (*check)(const char *value, struct strbuf *why);
	const char *help;    /* one line */
};

/* stable_rule's values, in enum stable_rule's order (study.h), NULL-ended. */
extern const char *const stable_rule_names[];

/* Every setting, in the order help lists them; ends with key NULL. */
extern const struct study_setting study_settings[];

/* The setting KEY of [SECTION], or NULL. */
const struct study_setting *setting_lookup(const char *section, const char *key);

/* The keys of section joined by ", " (heap): errors' "known:" lists. */
char *setting_keys(const char *section);

/* Parse value into the setting's field of study (a struct study *).  0,
 * or -1 with the one-line refusal ("repeat must be ..., not 'x' (...)")
 * in why.  continued: value continues the key's previous line. */
int setting_parse(const struct study_setting *st, void *study, const char *value, int line,
		  int continued, struct strbuf *why);

/* Set [study] KEY from its command-line option (the row's .flag): parsed
 * as the file's value would be, its line cleared, and KEY remembered in
 * s->overridden, so everything after reads the study alone.  0, or -1
 * with "--FLAG: why" in err. */
int study_override(void *study, const char *key, const char *value, struct strbuf *err);

/* Where the study's KEY came from, for an error that names it: "--FLAG"
 * when overridden, "PATH:LINE" from the file, PATH for a default (heap). */
char *setting_where(const void *study, const char *key);

/* 0, or -1 with what is wrong with study_settings[] (at start-up: a
 * bug): a key twice in a section, no help, a refusal's words missing for
 * a type that refuses, an enum without choices, an option on a [run] key. */
int settings_check(struct strbuf *err);

/* The settings as `run --help` lists them: "  [SECTION] KEY = DEFAULT
 * (--FLAG)" and the help line. */
void settings_help(FILE *out);

/* The settings as doc/study-format.md's reference lists them (`flagscope
 * help settings --format markdown`): a Markdown table, a row per setting
 * in the table's order: key, section, run option, type, default, help. */
void settings_markdown(FILE *out);

/* The Debian source packages that words (packages =, run --packages) name:
 * each word a package name, or a file of names (one a line, blanks split,
 * # comments) found from base_dir (NULL: the current folder) unless
 * absolute.  Appended to names, each once.  0, or -1 with why (a word
 * that is neither, a name in a file that is not one, a file not read). */
int packages_resolve(const struct strlist *words, const char *base_dir, struct strlist *names,
		     struct strbuf *why);

#endif
