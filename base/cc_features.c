/* cc_features.c - feature switches beyond a -march=CPU (cc_features.h) */
#include "base/cc_features.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static int cpu_word(const char *w)
{
	return str_starts_with(w, "-march=") || str_starts_with(w, "-mcpu=") ||
	       str_starts_with(w, "-mtune=");
}

unsigned cc_features_after(char *const *words, unsigned nwords)
{
	unsigned n = 0;
	while (1 + n < nwords && str_starts_with(words[1 + n], "-m") &&
	       !strchr(words[1 + n], '=') && !cpu_word(words[1 + n]))
		n++;
	return n;
}

/* The state `-Q --help=target` gives "-mX": 1 enabled, 0 disabled, -1 not
 * listed.  Its lines read "  -mavx2   \t\t[enabled]". */
static int listed_state(const char *listing, const char *opt)
{
	size_t n = strlen(opt);
	for (const char *l = listing; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		l += strspn(l, " \t");
		if (strncmp(l, opt, n) || (l[n] != ' ' && l[n] != '\t'))
			continue;
		const char *v = l + n + strspn(l + n, " \t");
		if (str_starts_with(v, "[enabled]"))
			return 1;
		if (str_starts_with(v, "[disabled]"))
			return 0;
		return -1;
	}
	return -1;
}

char *cc_features_beyond(const char *cc, const char *cpu_opt, const char *features)
{
	struct strlist argv = {0}, words = {0}, keep = {0};
	char *listing = NULL, *result = NULL;
	sl_split_ws(&argv, cc);
	if (!argv.n)
		goto out;
	sl_push(&argv, cpu_opt);
	sl_push(&argv, "-Q");
	sl_push(&argv, "--help=target");
	sl_push_owned(&argv, NULL); /* argv's terminator */
	/* clang has no -Q --help=target: it fails, or lists no switch state */
	if (run_capture(argv.v, &listing) != 0 || !strstr(listing, "[enabled]"))
		goto out;
	sl_split_ws(&words, features);
	for (size_t i = 0; i < words.n; i++) {
		const char *w = words.v[i];
		int no = str_starts_with(w, "-mno-");
		char *opt = no ? xasprintf("-m%s", w + 5) : xstrdup(w);
		int st = listed_state(listing, opt);
		if (st < 0 || st == no)
			sl_push(&keep, w);
		free(opt);
	}
	result = sl_join(&keep, " ");
out:
	free(listing);
	sl_release(&argv);
	sl_release(&words);
	sl_release(&keep);
	return result;
}
