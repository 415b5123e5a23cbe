/* registry.c - see registry.h */
#include "base/registry.h"

#include <string.h>

int registry_require(int ok, const char *what, const char *name, const char *problem,
		     struct strbuf *err)
{
	if (ok)
		return 0;
	sb_addf(err, "%s%s: %s: %s", err->len ? "\n" : "", what, name ? name : "(no name)",
		problem);
	return 1;
}

int registry_check(const char *what, const char *const *names, size_t n, struct strbuf *err)
{
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		bad |= registry_require(names[i] && *names[i], what, names[i], "has no name", err);
		for (size_t j = 0; j < i && names[i]; j++)
			bad |= registry_require(!names[j] || strcmp(names[i], names[j]), what,
						names[i], "listed twice", err);
	}
	return bad ? -1 : 0;
}
