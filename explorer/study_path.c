/* study_path.c - see study_path.h */
#include "explorer/study_path.h"

#include <string.h>

#include "base/util.h"

char *study_path_resolve(const char *arg)
{
	if (file_exists(arg) || strchr(arg, '/'))
		return xstrdup(arg);
	return xasprintf("%s/flagsets/presets/%s.study", flagscope_home(), arg);
}
