/*
 * profile.c - one run of a build under cachegrind (profile.h), through
 * the cachegrind meter's reentrant cachegrind_run().
 */
#include "pipeline/profile.h"

#include <string.h>

#include "harness/meter_cachegrind.h"

int why_profile(const char *build_dir, const struct recipe_run *run, const char *in_dir,
		struct why_counts *out, struct strbuf *err)
{
	struct cachegrind_profile p;
	int rc = cachegrind_run(build_dir, run, in_dir, &p, err);
	/* a why_counts takes the meter's arrays over */
	*out = (struct why_counts){.name = p.name, .ir = p.ir, .n = p.n, .total = p.total};
	memset(&p, 0, sizeof(p));
	return rc;
}
