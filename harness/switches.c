/* switches.c - see switches.h */
#include "harness/switches.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t switches_split(const char *line, struct strlist *words)
{
	size_t added = 0;
	struct strbuf w = {0};
	int in_word = 0;

	for (const char *p = line; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			if (in_word) {
				sl_push_owned(words, sb_detach(&w));
				added++;
				in_word = 0;
			}
			continue;
		}
		in_word = 1;
		if (*p == '\\' && p[1])
			p++;
		sb_addc(&w, *p);
	}
	if (in_word) {
		sl_push_owned(words, sb_detach(&w));
		added++;
	}
	sb_release(&w);
	return added;
}

int switches_split_producer(const char *recorded, char **producer, char **switches)
{
	const char *p = recorded;
	const char *first = NULL;

	/* The first word that starts with '-' ends the producer. */
	while (*p) {
		while (*p == ' ')
			p++;
		if (*p == '-') {
			first = p;
			break;
		}
		while (*p && *p != ' ')
			p++;
	}
	if (producer) {
		size_t n = first ? (size_t)(first - recorded) : strlen(recorded);
		while (n && recorded[n - 1] == ' ')
			n--;
		*producer = n ? xstrndup(recorded, n) : NULL;
	}
	if (switches) {
		char *s = first ? xstrdup(first) : NULL;
		if (s && !*str_trim(s)) {
			free(s);
			s = NULL;
		}
		*switches = s;
	}
	return first != NULL;
}

/* Options whose argument is the next word; their argument is never read as
 * a flag or as the source file. */
static const char *const takes_next_word[] = {
	"-o", "-I", "-D", "-U", "-L", "-l", "-x", "-u", "-T", "-z",
	"-include", "-imacros", "-isystem", "-iquote", "-idirafter", "-iprefix",
	"-iwithprefix", "-isysroot", "-MF", "-MT", "-MQ", "-Xclang", "-Xlinker",
	"-Xassembler", "-Xpreprocessor", "-mllvm", "-target", "-arch", "-aux-info",
	"-dumpbase", "-dumpbase-ext", "-dumpdir", "-main-file-name", "-resource-dir",
	"--sysroot", "--target", "-gcc-toolchain", "--gcc-toolchain",
};

static int takes_argument(const char *word)
{
	for (size_t i = 0; i < ARRAY_SIZE(takes_next_word); i++)
		if (!strcmp(word, takes_next_word[i]))
			return 1;
	return 0;
}

static int has_source_suffix(const char *word)
{
	static const char *const suffixes[] = {
		".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".m", ".mm", ".s", ".S",
		".sx", ".i", ".ii", ".f", ".F", ".f90", ".F90", ".f95", ".for",
	};
	const char *dot = strrchr(word, '.');
	if (!dot || dot == word)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (!strcmp(dot, suffixes[i]))
			return 1;
	return 0;
}

char *switches_source_name(const char *switches)
{
	struct strlist words = {0};
	char *name = NULL;

	switches_split(switches, &words);
	for (size_t i = 0; i < words.n && !name; i++) {
		const char *w = words.v[i];
		if (w[0] == '-') {
			if (takes_argument(w))
				i++;
			continue;
		}
		if (has_source_suffix(w))
			name = xstrdup(w);
	}
	sl_release(&words);
	return name;
}

int switches_key(const char *flag, char *key, size_t keysize)
{
	size_t n;

	if (!keysize)
		return 0;
	key[0] = 0;
	if (flag[0] != '-' || !flag[1])
		return 0;
	if (flag[1] == 'O') {
		snprintf(key, keysize, "O");
		return 1;
	}
	if (flag[1] != 'f' && flag[1] != 'm')
		return 0;
	const char *name = flag + 2;
	if (!strncmp(name, "no-", 3))
		name += 3;
	n = strcspn(name, "=");
	if (!n)
		return 0;
	snprintf(key, keysize, "%c%.*s", flag[1], (int)n, name);
	return 1;
}

/* "-O" means "-O1"; every other flag is itself. */
static const char *normal_form(const char *flag)
{
	return strcmp(flag, "-O") ? flag : "-O1";
}

struct expected_flag {
	char key[128];
	const char *flag;
};

static int str_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

int switches_is_lto(const char *flag)
{
	return !strcmp(flag, "-flto") || str_starts_with(flag, "-flto=");
}

int switches_want_lto(const char *flags)
{
	struct strlist w = {0};
	int want = 0;
	switches_split(flags ? flags : "", &w);
	for (size_t i = 0; i < w.n; i++)
		if (switches_is_lto(w.v[i]))
			want = 1;
		else if (!strcmp(w.v[i], "-fno-lto"))
			want = 0;
	sl_release(&w);
	return want;
}

int switches_has(const char *switches, const char *word)
{
	struct strlist w = {0};
	switches_split(switches ? switches : "", &w);
	int yes = sl_find(&w, word) >= 0;
	sl_release(&w);
	return yes;
}

int switches_is_ltrans(const char *switches)
{
	return switches_has(switches, "-fltrans");
}

int switches_check(const char *label, const char *switches, const char *expect,
		   struct strlist *mismatches)
{
	struct strlist want = {0}, given = {0};
	struct expected_flag *ex;
	size_t nex = 0;
	int found = 0;

	switches_split(expect ? expect : "", &want);
	switches_split(switches ? switches : "", &given);
	ex = xcalloc(want.n ? want.n : 1, sizeof(*ex));
	for (size_t i = 0; i < want.n; i++) {
		struct expected_flag e = {.flag = want.v[i]};
		size_t j;
		if (!switches_key(want.v[i], e.key, sizeof(e.key)))
			continue;
		/* A later expected flag of the same key replaces an earlier one. */
		for (j = 0; j < nex && strcmp(ex[j].key, e.key); j++)
			;
		ex[j] = e;
		if (j == nex)
			nex++;
	}
	for (size_t j = 0; j < nex; j++) {
		const char *last = NULL;
		char key[128];
		for (size_t i = 0; i < given.n; i++) {
			const char *w = given.v[i];
			if (w[0] != '-')
				continue;
			if (takes_argument(w)) {
				i++;
				continue;
			}
			if (switches_key(w, key, sizeof(key)) && !strcmp(key, ex[j].key))
				last = w;
		}
		if (last && !strcmp(normal_form(last), normal_form(ex[j].flag)))
			continue;
		/* -fprofile-use asks for a profile-guided unit, whichever
		 * profile it used (-fprofile-use=DIR) */
		if (last && str_starts_with(ex[j].flag, "-f") && !strchr(ex[j].flag, '=') &&
		    str_starts_with(last, ex[j].flag) && last[strlen(ex[j].flag)] == '=')
			continue;
		/* LTO: the form is not recorded, and the link-time units are LTO's
		 * own output (see switches.h) */
		if (switches_is_lto(ex[j].flag) &&
		    ((last && switches_is_lto(last)) || switches_is_ltrans(switches)))
			continue;
		/* GCC records -march=native/-mtune=native as the CPU it found */
		if (last && str_ends_with(ex[j].flag, "=native") &&
		    (str_starts_with(ex[j].flag, "-march=") || str_starts_with(ex[j].flag, "-mtune=") ||
		     str_starts_with(ex[j].flag, "-mcpu=")))
			continue;
		if (last)
			sl_push_owned(mismatches, xasprintf("%s: %s expected, %s given last",
							    label, ex[j].flag, last));
		else
			sl_push_owned(mismatches,
				      xasprintf("%s: %s expected, absent", label, ex[j].flag));
		found++;
	}
	free(ex);
	sl_release(&want);
	sl_release(&given);
	return found;
}
