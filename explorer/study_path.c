/* study_path.c - see study_path.h */
#include "explorer/study_path.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "workloads/searchpath.h"

int study_path_resolve(const char *arg, char **path, struct strbuf *err)
{
	size_t n = strlen(arg);
	if (file_exists(arg) || strchr(arg, '/') || (n > 6 && !strcmp(arg + n - 6, ".study"))) {
		*path = xstrdup(arg);
		return 0;
	}
	struct searchpath sp;
	searchpath_init(&sp, SP_PRESETS, NULL);
	*path = searchpath_find(&sp, arg, NULL);
	if (!*path) {
		char *where = searchpath_describe(&sp);
		sb_addf(err, "%s: no such study file, and no preset %s.study in %s "
			     "(flagscope list presets names them; a study file needs its path "
			     "or the .study ending)",
			arg, arg, where);
		free(where);
	}
	searchpath_release(&sp);
	return *path ? 0 : -1;
}
