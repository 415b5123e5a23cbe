/*
 * identical.c - configurations whose builds are the same program
 * (harness/identical.h) and that run it the same way (execution_hash) are
 * measured once: the other's rows are the same samples, stored under its
 * own id (pipeline.h: study_plan.twin).
 */
#include <stdlib.h>
#include <string.h>

#include "harness/identical.h"
#include "pipeline/pipeline_internal.h"

/* The baseline first, so it is never the copy (its warm-up makes the
 * reference), then the study's order. */
static size_t nth_config(const struct study_plan *p, size_t k)
{
	size_t base = (size_t)p->matrix.baseline;
	if (k == 0)
		return base;
	return k <= base ? k - 1 : k;
}

static int may_share(const struct study_plan *p, size_t c, size_t w)
{
	/* a layout variant is measured for itself: its code is the plain
	 * build's at other addresses, the very thing it samples */
	return !p->configs[c].cfg->noise_floor && !p->configs[c].cfg->layout &&
	       p->in_shard[c * p->nworkloads + w] &&
	       plan_build(p, c, w)->outcome == OUTCOME_OK;
}

/* Two builds of one program that run differently (`-cpu max` and `-cpu
 * cortex-a53`: an instruction the one has and the other traps on) never
 * share runs: the code hash and what else the run depends on
 * (config_execution_key).  The runner's host, boards, environment and
 * timeout are the study's, the same for every configuration of it. */
static int execution_hash(const struct study_plan *p, size_t c, size_t w, char out[65])
{
	char code[65];
	if (build_code_hash(plan_build(p, c, w), code))
		return -1;
	char *run = config_execution_key(p->configs[c].cfg);
	char *what = xasprintf("code=%s\n%s", code, run);
	sha256_hex(what, strlen(what), out);
	free(what);
	free(run);
	return 0;
}

static void record_twin(struct pipeline *pl, size_t c, size_t src, size_t w)
{
	struct study_plan *p = pl->plan;
	const char *name = p->workloads[w].recipe.name;
	char *key = xasprintf("identical.%s.%s", p->configs[c].cfg->id, name);
	pipeline_stored(pl, store_put_fact(pl->store, p->study.name, key, p->configs[src].cfg->id));
	free(key);
	pipeline_say(pl->opt, "%s %s: identical code to %s, its runs are reused",
		     p->configs[c].cfg->label, name, p->configs[src].cfg->label);
}

void pipeline_find_identical(struct pipeline *pl)
{
	struct study_plan *p = pl->plan;
	size_t nc = p->nconfigs, nw = p->nworkloads;
	free(p->twin); /* a plan run again finds them again */
	p->twin = xcalloc(nc * nw + 1, sizeof(*p->twin));
	char (*hash)[65] = xcalloc(nc ? nc : 1, sizeof(*hash));
	for (size_t w = 0; w < nw; w++) {
		for (size_t k = 0; k < nc; k++) {
			size_t c = nth_config(p, k);
			p->twin[c * nw + w] = -1;
			hash[c][0] = '\0';
			if (!may_share(p, c, w) || execution_hash(p, c, w, hash[c]))
				continue;
			for (size_t j = 0; j < k; j++) {
				size_t src = nth_config(p, j);
				if (!hash[src][0] || strcmp(hash[src], hash[c]) ||
				    p->twin[src * nw + w] >= 0)
					continue;
				p->twin[c * nw + w] = (int)src;
				record_twin(pl, c, src, w);
				break;
			}
		}
	}
	free(hash);
}
