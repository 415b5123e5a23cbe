/* verdict_item.c - see verdict_item.h */
#include "analysis/verdict_item.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/results.h"
#include "base/util.h"

void verdict_rule_load(const struct rank_options *o, struct store *st, const char *study,
		       const char *metric, struct verdict_rule *rule, struct calib_floors *floors)
{
	struct rank_options def;
	if (!o) {
		rank_options_default(&def);
		o = &def;
	}
	*rule = (struct verdict_rule){
		.alpha = o->alpha, .min_effect = o->min_effect, .iters = o->iters, .seed = o->seed,
		.deterministic = results_metric_deterministic(metric),
		.higher_better = results_higher_better(st, study, metric),
		.resolution = results_metric_resolution(st, study, metric, NULL),
	};
	memset(floors, 0, sizeof(*floors));
	if (o->min_effect_auto && !rule->deterministic)
		calibration_floors_load(st, study, metric, floors);
	rule->floors = floors->n ? floors : NULL;
}

int verdict_item_judge(const struct verdict_rule *rule, const struct verdict_side *cand,
		       const struct verdict_side *ref, const char *workload, const char *run,
		       const char *metric, struct verdict_item *it)
{
	memset(it, 0, sizeof(*it));
	it->c = (struct comparison){.ratio = NAN, .lo = NAN, .hi = NAN, .p = NAN};
	it->floor = NAN;
	struct sample_pair *p = &it->pair;
	int *lc = NULL, *lr = NULL;
	p->cand = results_samples_layouts(cand->st, cand->study, cand->config_id, workload, run,
					  metric, &p->ncand, &it->from_build, &lc);
	p->base = results_samples_layouts(ref->st, ref->study, ref->config_id, workload, run,
					  metric, &p->nbase, NULL, &lr);
	p->cand_layout = lc;
	p->base_layout = lr;
	char *item = run && *run ? xasprintf("%s/%s", workload, run) : xstrdup(workload);
	verdict_rule_for(rule, item, &it->rule);
	free(item);
	if (!p->ncand || !p->nbase)
		return -1;
	verdict_pair(&it->rule, p, &it->c);
	it->floor = verdict_layout_noise(&it->rule, &it->c);
	it->judged = !it->c.error;
	return it->judged ? 0 : -1;
}

void verdict_item_release(struct verdict_item *it)
{
	free((void *)it->pair.cand);
	free((void *)it->pair.base);
	free((void *)it->pair.cand_layout);
	free((void *)it->pair.base_layout);
	memset(&it->pair, 0, sizeof(it->pair));
}
