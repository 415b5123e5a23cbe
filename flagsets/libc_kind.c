/* libc_kind.c - see libc_kind.h */
#include "flagsets/libc_kind.h"

#include <string.h>

const char *const libc_kinds[] = {"glibc", "musl", "dietlibc", NULL};

int libc_kind_known(const char *name)
{
	for (size_t i = 0; name && libc_kinds[i]; i++)
		if (!strcmp(libc_kinds[i], name))
			return 1;
	return 0;
}

const char *libc_kind_names(void)
{
	/* joined once from the list, so a new name shows in every message */
	static char names[128];
	if (!names[0])
		for (size_t i = 0; libc_kinds[i]; i++) {
			if (i)
				strncat(names, " ", sizeof(names) - strlen(names) - 1);
			strncat(names, libc_kinds[i], sizeof(names) - strlen(names) - 1);
		}
	return names;
}
