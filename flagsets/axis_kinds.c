/*
 * axis_kinds.c - the reserved axes of a study file (cc, ldflags, link,
 * libc, target, cpu, pgo) and the generic flags axis: which level names
 * and values mean something in each, and how a value is read
 * (struct axis_kind_info, flagsets/study.h).  A value's word that names
 * the level's own meaning is taken as that meaning; a word the compiler
 * would take as an input file is refused with what to write.
 */
#include "flagsets/study.h"

#include <stdlib.h>
#include <string.h>

#include "flagsets/libc_kind.h"

/* An axis whose two levels are named by their meaning */
static int one_of_two(const char *axis, const char *a, const char *b, const char *level,
		      struct strbuf *err)
{
	if (!strcmp(level, a) || !strcmp(level, b))
		return 0;
	sb_addf(err, "%s level '%s' is neither %s nor %s (name the levels '%s' and '%s')", axis,
		level, a, b, a, b);
	return -1;
}

static int check_link(const char *level, const char *value, struct strbuf *err)
{
	(void)value;
	return one_of_two("link", "static", "dynamic", level, err);
}

static int check_cc(const char *level, const char *value, struct strbuf *err)
{
	if (!*value) {
		sb_addf(err, "compiler level '%s' has no command (write e.g. '%s = gcc-12')", level,
			level);
		return -1;
	}
	/* the value is run as the compiler: a flag there would be the command */
	if (*value == '-') {
		sb_addf(err, "compiler level '%s' has the value '%s', which is not a compiler command (write the command first, e.g. '%s = gcc-12 %s', or put flags in another axis)",
			level, value, level, value);
		return -1;
	}
	return 0;
}

static int check_libc(const char *level, const char *value, struct strbuf *err)
{
	(void)value;
	if (!libc_kind_known(level)) {
		sb_addf(err, "libc level '%s' is not a C library flagscope knows (known: %s)", level,
			libc_kind_names());
		return -1;
	}
	return 0;
}

/* gen-use: instrument, train, rebuild with the profile (harness/pgo.h) */
static int check_pgo(const char *level, const char *value, struct strbuf *err)
{
	(void)value;
	return one_of_two("pgo", "none", "gen-use", level, err);
}

const char *const level_key_names[LKEY_COUNT] = {
	[LKEY_TARGET] = "target",
	[LKEY_CPU] = "cpu",
	[LKEY_CC] = "cc",
	[LKEY_LDFLAGS] = "ldflags",
	[LKEY_LIBC] = "libc",
};

static int check_value(const char *level, const char *value, struct strbuf *err)
{
	if (!*value) {
		sb_addf(err, "level '%s' has no value (write e.g. '%s = mips64el-linux-gnuabi64')",
			level, level);
		return -1;
	}
	return 0;
}

/* Flags whose argument is the next word (`-include stdio.h`, `-Xlinker
 * --no-relax`): that word is no input file. */
static const char *const flags_with_argument[] = {
	"-include", "-imacros", "-I", "-L", "-isystem", "-idirafter", "-iquote", "-iprefix",
	"-iwithprefix", "-isysroot", "--sysroot", "-x", "-Xlinker", "-Xassembler",
	"-Xpreprocessor", "-Xclang", "-mllvm", "-D", "-U", "-l", "-T", "-u", "-z", "-e",
	"--param", "-target", "-B", "-specs", "-MF", "-MT", "-MQ", "-wrapper",
};

/* The first word of value the compiler would take as an input file: not
 * a flag, not a path (a word with '/', like a library's .a, is meant as
 * a file), not the argument of the flag before it.  NULL when none. */
static char *stray_word(const char *value)
{
	struct strlist words = {0};
	char *stray = NULL;
	sl_split_ws(&words, value);
	for (size_t i = 0; i < words.n && !stray; i++) {
		const char *w = words.v[i];
		int argument = 0;
		for (size_t f = 0; i && f < ARRAY_SIZE(flags_with_argument); f++)
			argument |= !strcmp(words.v[i - 1], flags_with_argument[f]);
		if (*w != '-' && !strchr(w, '/') && !argument)
			stray = xstrdup(w);
	}
	sl_release(&words);
	return stray;
}

/* What a stray word may have meant instead of a flag */
static const char *stray_hint(const char *word)
{
	if (!strcmp(word, "static") || !strcmp(word, "dynamic") || !strcmp(word, "shared"))
		return ", or use [axis link]";
	if (libc_kind_known(word))
		return ", or use [axis libc]";
	if (!strcmp(word, "cc") || str_starts_with(word, "gcc") || str_starts_with(word, "clang") ||
	    strstr(word, "-gcc"))
		return "; the axis of compilers is [axis cc], whose values are commands";
	return "";
}

/* s without its quote characters (heap) */
static char *without_quotes(const char *s)
{
	char *out = xstrdup(s), *d = out;
	for (const char *c = s; *c; c++)
		if (*c != '"' && *c != '\'')
			*d++ = *c;
	*d = 0;
	return out;
}

/* A word that is not a flag (`O2 = O2`, `fast = O3`, `static = static` in
 * [axis ldflags]) would reach the compiler as a file name; what: the
 * level's kind as the message names it ("level", "libc level"), adds:
 * CFLAGS or LDFLAGS; whole: a value of one word is all the level says, so
 * the message shows the level with the word as a flag. */
static int stray_check(const char *what, const char *adds, int whole, const char *level,
		       const char *value, struct strbuf *err)
{
	char *word = stray_word(value);
	if (!word)
		return 0;
	const char *tool = strcmp(adds, "LDFLAGS") ? "compiler" : "linker";
	const char *eq = strchr(word, '=');
	size_t name_len = strspn(word, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	/* a shell's habit: no shell reads the value, the quotes would stay */
	char *bare = without_quotes(eq && name_len && word + name_len == eq ? eq + 1 : value);
	if (*word == '"' || *word == '\'')
		sb_addf(err, "%s '%s' has the value '%s', whose quotes the %s would get as part of the flags (a value is not read by a shell: write '%s = %s')",
			what, level, value, tool, level, *bare ? bare : "-O2");
	else if (eq && name_len && word + name_len == eq)
		/* CFLAGS=-O2: make's habit; a '-' before it would be no better */
		sb_addf(err, "%s '%s' has the assignment '%s' in its value, which the %s would take as a file name (a level's value is the flags themselves, added to %s: write '%s = %s')",
			what, level, word, tool, adds, level, *bare ? bare : "-O2");
	else if (whole && !strcmp(word, value))
		sb_addf(err, "%s '%s' has the value '%s', which the %s would take as a file name (the value adds %s: write the flags it stands for, e.g. '%s = -%s'%s)",
			what, level, value, tool, adds, level, word, stray_hint(word));
	else
		sb_addf(err, "%s '%s' has '%s' in its value, which the %s would take as a file name (the value adds %s: write the flag, e.g. '-%s'%s)",
			what, level, word, tool, adds, word, stray_hint(word));
	free(bare);
	free(word);
	return -1;
}

/* Read a value word by word: a word equal to the level's name is the
 * level's own meaning and leaves the value; refuse() says, into err,
 * which words cannot be there (-1). */
static int take_meaning(const char *level, char **value,
			int (*refuse)(const char *level, const char *word, struct strbuf *err),
			struct strbuf *err)
{
	struct strlist words = {0}, keep = {0};
	sl_split_ws(&words, *value);
	int rc = 0;
	for (size_t i = 0; i < words.n && !rc; i++) {
		if (!strcmp(words.v[i], level))
			continue;
		rc = refuse(level, words.v[i], err);
		sl_push(&keep, words.v[i]);
	}
	if (!rc) {
		free(*value);
		*value = sl_join(&keep, " ");
	}
	sl_release(&words);
	sl_release(&keep);
	return rc;
}

/* `static = static` means static: the level's name is the linkage, and
 * the word would reach the linker as a file name.  The other linkage's
 * word (or -static in a dynamic level) contradicts the level. */
static int link_refuse(const char *level, const char *word, struct strbuf *err)
{
	if (strcmp(word, "static") && strcmp(word, "dynamic") && strcmp(word, "shared") &&
	    (strcmp(level, "dynamic") || strcmp(word, "-static")))
		return 0;
	sb_addf(err, "link level '%s' has '%s' in its value, which contradicts it (the level's name is the linkage and its value adds LDFLAGS: write '%s =')",
		level, word, level);
	return -1;
}

static int link_value(const char *level, char **value, struct strbuf *err)
{
	return take_meaning(level, value, link_refuse, err) ||
	       stray_check("link level", "LDFLAGS", 0, level, *value, err);
}

/* `musl = musl` means musl: the level's name picks the C library (and
 * its compiler driver), the value only adds CFLAGS. */
static int libc_refuse(const char *level, const char *word, struct strbuf *err)
{
	if (strcmp(word, "musl-gcc") && strcmp(word, "diet") && !libc_kind_known(word))
		return 0;
	sb_addf(err, "libc level '%s' has '%s' in its value, which is not a compiler flag (the level's name picks the C library and its compiler driver, the value adds CFLAGS: write '%s =', or '%s.cc = COMMAND' for another compiler)",
		level, word, level, level);
	return -1;
}

static int libc_value(const char *level, char **value, struct strbuf *err)
{
	return take_meaning(level, value, libc_refuse, err) ||
	       stray_check("libc level", "CFLAGS", 0, level, *value, err);
}

/* A triple, or `native` for this machine (no cross compiler, no
 * emulator; kept as written, so a study written back from its levels, as
 * search does, reads the same). */
/* the level's name is all it says: its flags are the pgo step's */
static int pgo_refuse(const char *level, const char *word, struct strbuf *err)
{
	sb_addf(err, "pgo level '%s' has '%s' in its value (the level's name says what to do and the pgo step adds the profile flags: write '%s =', and flags in another axis)",
		level, word, level);
	return -1;
}

static int pgo_value(const char *level, char **value, struct strbuf *err)
{
	return take_meaning(level, value, pgo_refuse, err);
}

static int target_value(const char *level, char **value, struct strbuf *err)
{
	if (!strcmp(*value, "native"))
		return 0;
	if (**value == '-' || !strchr(*value, '-') || strpbrk(*value, " \t")) {
		sb_addf(err, "target level '%s' has the value '%s', which is not a target triple (write a triple, e.g. '%s = mips64el-linux-gnuabi64', or '%s = native' for this machine; flags belong in another axis)",
			level, *value, level, level);
		return -1;
	}
	return 0;
}

static int cpu_value(const char *level, char **value, struct strbuf *err)
{
	if (**value == '-') {
		sb_addf(err, "cpu level '%s' has the value '%s', which is not a CPU model (write the emulator's model, e.g. '%s = Loongson-2F')",
			level, *value, level);
		return -1;
	}
	return 0;
}

static int flags_value(const char *what, const char *level, const char *value,
		       struct strbuf *err)
{
	return stray_check("level", what, 1, level, value, err);
}

static int cflags_value(const char *level, char **value, struct strbuf *err)
{
	return flags_value("CFLAGS", level, *value, err);
}

static int ldflags_value(const char *level, char **value, struct strbuf *err)
{
	return flags_value("LDFLAGS", level, *value, err);
}

static const struct axis_kind_info axis_kinds[] = {
	{.name = "cc", .kind = AXIS_CC, .check_level = check_cc},
	{.name = "ldflags", .kind = AXIS_LDFLAGS, .read_value = ldflags_value},
	{.name = "link", .kind = AXIS_LINK, .check_level = check_link, .read_value = link_value},
	{.name = "libc", .kind = AXIS_LIBC, .check_level = check_libc, .read_value = libc_value},
	{.name = "target", .kind = AXIS_TARGET, .check_level = check_value,
	 .read_value = target_value},
	{.name = "cpu", .kind = AXIS_CPU, .check_level = check_value, .read_value = cpu_value},
	{.name = "pgo", .kind = AXIS_PGO, .check_level = check_pgo, .read_value = pgo_value},
};

static const struct axis_kind_info axis_generic = {.name = NULL, .kind = AXIS_FLAGS,
						   .read_value = cflags_value};

const struct axis_kind_info *axis_kind_lookup(const char *axis_name)
{
	for (size_t i = 0; i < ARRAY_SIZE(axis_kinds); i++)
		if (!strcmp(axis_kinds[i].name, axis_name))
			return &axis_kinds[i];
	return &axis_generic;
}
