/* flag_check.c - see flag_check.h */
#include "pipeline/flag_check.h"

#include <string.h>

#include "pipeline/pipeline.h"

/* 1 when complaint names a word of value, or what a word sets
 * (-march=x86-64-v33: gcc says "bad value 'x86-64-v33'") */
static int names_a_word(const char *complaint, const char *value)
{
	struct strlist words = {0};
	sl_split_ws(&words, value);
	int found = 0;
	for (size_t i = 0; i < words.n && !found; i++) {
		const char *w = words.v[i], *eq = strchr(w, '=');
		found = strstr(complaint, w) || (eq && eq[1] && strstr(complaint, eq + 1));
	}
	sl_release(&words);
	return found;
}

/* The complaint every configuration of level l of axis a got, or NULL when
 * one of them (or none) was not refused a flag */
static const char *refused_everywhere(const struct study_plan *p, size_t a, size_t l)
{
	const char *complaint = NULL;
	for (size_t c = 0; c < p->nconfigs; c++) {
		const struct plan_config *pc = &p->configs[c];
		if (!pc->cfg->levels || pc->cfg->levels[a] != l)
			continue;
		if (pc->outcome != OUTCOME_UNSUPPORTED_FLAG || !pc->detail)
			return NULL;
		complaint = pc->detail;
	}
	return complaint;
}

int pipeline_check_flags(const struct study_plan *p, struct strbuf *err)
{
	int bad = 0;
	for (size_t a = 0; a < p->study.naxes; a++)
		for (size_t l = 0; l < p->study.axes[a].nlevels; l++) {
			const struct level *lv = &p->study.axes[a].levels[l];
			const char *complaint = refused_everywhere(p, a, l);
			if (!complaint || !lv->value || !names_a_word(complaint, lv->value))
				continue;
			sb_addf(err, "%s%s:%d: level '%s': %s (fix the flag: no compiler of the study takes it, so no configuration with it could be measured)",
				bad ? "\n" : "", p->study.path, lv->line, lv->name, complaint);
			bad = 1;
		}
	return bad ? -1 : 0;
}
