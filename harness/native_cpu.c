/* native_cpu.c - see native_cpu.h */
#include "harness/native_cpu.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* command's words, then flags, then a job on an empty C unit; run, its
 * output in *out (stdout and stderr).  0 when it exited 0. */
static int compile_empty(const struct strlist *cc, const struct strlist *flags,
			 const char *const *job, size_t njob, char **out)
{
	char **argv = xcalloc(cc->n + flags->n + njob + 1, sizeof(char *));
	size_t n = 0;
	for (size_t i = 0; i < cc->n; i++)
		argv[n++] = cc->v[i];
	for (size_t i = 0; i < flags->n; i++)
		argv[n++] = flags->v[i];
	for (size_t i = 0; i < njob; i++)
		argv[n++] = (char *)job[i];
	*out = NULL;
	int rc = cc->n ? run_capture(argv, out) : -1;
	free(argv);
	return rc == 0 && *out ? 0 : -1;
}

/* The CPU the driver's -### output (tokens, quotes stripped) gives opt
 * ("-march="): clang passes -target-cpu NAME (-march, -mcpu) and -tune-cpu
 * NAME (-mtune) to its cc1; gcc passes -march=NAME on.  NULL if none. */
static const char *cpu_in(const struct strlist *tok, const char *opt)
{
	const char *clang_key = strcmp(opt, "-mtune=") ? "-target-cpu" : "-tune-cpu";
	for (size_t i = 0; i < tok->n; i++) {
		if (!strcmp(tok->v[i], clang_key) && i + 1 < tok->n)
			return tok->v[i + 1];
		if (str_starts_with(tok->v[i], opt) && tok->v[i][strlen(opt)] &&
		    strcmp(tok->v[i] + strlen(opt), "native"))
			return tok->v[i] + strlen(opt);
	}
	return NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The feature macros cc predefines with flags: "#define __AVX2__ 1", the
 * names upper case (the CPU's own, __znver3 or __tune_znver3__, are not
 * features).  Sorted; 0, or -1 when the compiler fails. */
static int feature_macros(const struct strlist *cc, const struct strlist *flags,
			  struct strlist *out)
{
	static const char *const job[] = {"-dM", "-E", "-x", "c", "/dev/null"};
	char *text;
	if (compile_empty(cc, flags, job, ARRAY_SIZE(job), &text)) {
		free(text);
		return -1;
	}
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[128], value[16];
		if (sscanf(l, "#define %127s %15s", name, value) != 2 || strcmp(value, "1") ||
		    strncmp(name, "__", 2))
			continue;
		size_t len = strlen(name), upper = len > 4 && !strcmp(name + len - 2, "__");
		for (size_t i = 2; upper && i < len - 2; i++)
			upper = isupper((unsigned char)name[i]) || isdigit((unsigned char)name[i]) ||
				name[i] == '_';
		if (upper)
			sl_push(out, name);
	}
	free(text);
	qsort(out->v, out->n, sizeof(*out->v), by_name);
	return 0;
}

/* -mX or -mno-X for macro __X__ (__SSE4_1__ -> sse4.1, __AVX512F__ ->
 * avx512f, __SHSTK__ -> shstk); the check in features() keeps it only
 * when it gives the macro back */
static char *macro_flag(const char *macro, int on)
{
	size_t len = strlen(macro) - 4;
	char *f = xasprintf("-m%s%.*s", on ? "" : "no-", (int)len, macro + 2);
	size_t start = on ? 2 : 5;
	for (size_t i = start; f[i]; i++) {
		if (f[i] == '_' && i > start && isdigit((unsigned char)f[i - 1]) &&
		    isdigit((unsigned char)f[i + 1]))
			f[i] = '.';
		else if (f[i] == '_')
			f[i] = '-';
		else
			f[i] = (char)tolower((unsigned char)f[i]);
	}
	return f;
}

/* clang's "-target-feature +NAME" / "-NAME" words in the driver's -###
 * output for flags, as "+NAME" / "-NAME"; none for gcc, whose -### has no
 * such words.  0, or -1 when the compiler fails. */
static int target_features(const struct strlist *cc, const struct strlist *flags,
			   struct strlist *out)
{
	static const char *const job[] = {"-###", "-c", "-x", "c", "/dev/null", "-o", "/dev/null"};
	struct strlist tok = {0};
	char *text;
	if (compile_empty(cc, flags, job, ARRAY_SIZE(job), &text)) {
		free(text);
		return -1;
	}
	for (char *c = text; *c; c++)
		if (*c == '"' || *c == '\'')
			*c = ' ';
	sl_split_ws(&tok, text);
	for (size_t i = 0; i + 1 < tok.n; i++)
		if (!strcmp(tok.v[i], "-target-feature") && strchr("+-", tok.v[i + 1][0]))
			sl_push(out, tok.v[++i]);
	free(text);
	sl_release(&tok);
	return 0;
}

/* A feature or macro name without case, '-', '.' and '_' (amx-tile and
 * __AMXTILE__ both "amxtile"); heap */
static char *squashed(const char *name)
{
	char *o = xstrdup(name), *d = o;
	for (const char *c = name; *c; c++)
		if (!strchr("-._", *c))
			*d++ = (char)tolower((unsigned char)*c);
	*d = 0;
	return o;
}

/* The switch for a feature macro that differs (__AMXTILE__, on with
 * native or not) spelt as the driver's own feature list names it
 * (clang's "+amx-tile" -> -mamx-tile), which the macro alone cannot give;
 * NULL when the list names no such feature (a macro such as __FLT16_DIG__
 * that follows from another feature). */
static char *listed_flag(const struct strlist *list, const char *macro, int on)
{
	char *want = squashed(macro), *flag = NULL;
	for (size_t i = 0; i < list->n && !flag; i++) {
		char *have = squashed(list->v[i] + 1);
		if (!strcmp(have, want))
			flag = xasprintf("-m%s%s", on ? "" : "no-", list->v[i] + 1);
		free(have);
	}
	free(want);
	return flag;
}

/* Drops from flags each word the compiler refuses on its own (a feature
 * with no driver switch, such as clang's +64bit); the macro check after
 * says whether what is left is enough. */
static void keep_accepted(const struct strlist *cc, struct strlist *flags)
{
	static const char *const job[] = {"-E", "-x", "c", "/dev/null", "-o", "/dev/null"};
	struct strlist kept = {0};
	for (size_t i = 0; i < flags->n; i++) {
		struct strlist one = {0};
		char *out;
		sl_push(&one, flags->v[i]);
		if (!compile_empty(cc, &one, job, ARRAY_SIZE(job), &out) &&
		    !strstr(out, "unknown") && !strstr(out, "unrecognized"))
			sl_push(&kept, flags->v[i]);
		free(out);
		sl_release(&one);
	}
	sl_release(flags);
	*flags = kept;
}

/* The -mX/-mno-X flags that make -march=CPU (march: "-march=znver3")
 * predefine native's feature macros; "" when none are needed, NULL when
 * no such flags were found.  The candidates are the macros that differ,
 * spelt as clang's feature list names them where the driver gives one. */
static char *features(const struct strlist *cc, const char *march)
{
	struct strlist nat = {0}, cpu = {0}, flags = {0}, again = {0};
	struct strlist want = {0}, with = {0}, natf = {0};
	char *res = NULL;
	char *native = xasprintf("%.*snative", (int)(strchr(march, '=') + 1 - march), march);
	sl_push(&want, native);
	sl_push(&with, march);
	if (!feature_macros(cc, &want, &nat) && !feature_macros(cc, &with, &cpu)) {
		int listed = !target_features(cc, &want, &natf) && natf.n;
		for (size_t i = 0; i < nat.n; i++)
			if (sl_find(&cpu, nat.v[i]) < 0) {
				char *f = listed ? listed_flag(&natf, nat.v[i], 1) : macro_flag(nat.v[i], 1);
				if (f)
					sl_push_owned(&flags, f);
			}
		for (size_t i = 0; i < cpu.n; i++)
			if (sl_find(&nat, cpu.v[i]) < 0) {
				char *f = listed ? listed_flag(&natf, cpu.v[i], 0) : macro_flag(cpu.v[i], 0);
				if (f)
					sl_push_owned(&flags, f);
			}
		if (listed)
			keep_accepted(cc, &flags);
		for (size_t i = 0; i < flags.n; i++)
			sl_push(&with, flags.v[i]);
		int same = !flags.n;
		if (!same && !feature_macros(cc, &with, &again)) {
			same = again.n == nat.n;
			for (size_t i = 0; same && i < nat.n; i++)
				same = !strcmp(again.v[i], nat.v[i]);
		}
		if (same)
			res = sl_join(&flags, " ");
	}
	free(native);
	sl_release(&nat);
	sl_release(&cpu);
	sl_release(&flags);
	sl_release(&again);
	sl_release(&want);
	sl_release(&with);
	sl_release(&natf);
	return res;
}

char *native_cpu_flags(const char *command, const char *cflags)
{
	static const char *const opts[] = {"-march=", "-mcpu=", "-mtune="};
	static const char *const job[] = {"-###", "-c", "-x", "c", "/dev/null", "-o", "/dev/null"};
	struct strlist cc = {0}, asked = {0}, tok = {0}, found = {0}, words = {0};
	sl_split_ws(&words, cflags ? cflags : "");
	for (size_t i = 0; i < words.n; i++)
		for (size_t k = 0; k < ARRAY_SIZE(opts); k++)
			if (str_starts_with(words.v[i], opts[k]) &&
			    !strcmp(words.v[i] + strlen(opts[k]), "native") &&
			    sl_find(&asked, words.v[i]) < 0)
				sl_push(&asked, words.v[i]);
	sl_release(&words);
	sl_split_ws(&cc, command ? command : "");
	char *out = NULL;
	if (asked.n && !compile_empty(&cc, &asked, job, ARRAY_SIZE(job), &out)) {
		for (char *c = out; *c; c++)
			if (*c == '"' || *c == '\'')
				*c = ' ';
		sl_split_ws(&tok, out);
		for (size_t i = 0; i < asked.n; i++) {
			char *opt = xstrndup(asked.v[i], (size_t)(strchr(asked.v[i], '=') - asked.v[i]) + 1);
			const char *cpu = cpu_in(&tok, opt);
			if (cpu) {
				char *flag = xasprintf("%s%s", opt, cpu);
				char *feat = strcmp(opt, "-mtune=") ? features(&cc, flag) : NULL;
				sl_push_owned(&found, feat && *feat ? xasprintf("%s %s", flag, feat) : flag);
				if (feat && *feat)
					free(flag);
				free(feat);
			}
			free(opt);
		}
	}
	char *res = found.n ? sl_join(&found, " ") : NULL;
	free(out);
	sl_release(&cc);
	sl_release(&asked);
	sl_release(&tok);
	sl_release(&found);
	return res;
}
