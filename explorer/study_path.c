/* study_path.c - see study_path.h */
#include "explorer/study_path.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "workloads/searchpath.h"

char *study_path_resolve(const char *arg)
{
	/* a path, or a file name (x.study): the user's file, even when it
	 * is missing, so the error names what they wrote */
	size_t n = strlen(arg);
	if (file_exists(arg) || strchr(arg, '/') || (n > 6 && !strcmp(arg + n - 6, ".study")))
		return xstrdup(arg);
	struct searchpath sp;
	searchpath_init(&sp, SP_PRESETS, NULL);
	char *path = searchpath_find(&sp, arg, NULL);
	if (!path) /* the last level's name, so the error names a real place */
		path = xasprintf("%s/%s.study", sp.levels[sp.n - 1].dir, arg);
	searchpath_release(&sp);
	return path;
}
