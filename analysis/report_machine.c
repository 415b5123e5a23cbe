/*
 * report_machine.c - the machine state of a study in the reports (text and
 * JSON; the HTML report prints the same rows with its own escaping), and
 * the warning when the machine was busy during the study.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_internal.h"

/* The stored value of a machine key, or NULL. */
const char *rep_machine_value(const struct ranking *r, const char *key)
{
	int i = sl_find(&r->machine_keys, key);
	return i < 0 ? NULL : r->machine_values.v[i];
}

char *rep_machine_warning(const struct ranking *r)
{
	const char *load = rep_machine_value(r, "load.max");
	const char *cores = rep_machine_value(r, "cores");
	char *end;
	double l = load ? strtod(load, &end) : NAN;
	if (!load || end == load)
		return NULL;
	int n = cores ? atoi(cores) : 0;
	if (n < 1 || l <= REPORT_BUSY_PER_CORE * n)
		return NULL;
	return xasprintf("the 1-minute load average reached %.2f during the study, above %.2f "
			 "(%g per core x %d cores): other work shared the CPUs with the measured "
			 "runs (run again on a quiet machine; isolate = yes refuses a busy one)",
			 l, REPORT_BUSY_PER_CORE * n, REPORT_BUSY_PER_CORE, n);
}

void rep_machine_text(FILE *out, const struct ranking *r)
{
	if (!r->machine_keys.n)
		return;
	fputs("\nmachine:\n", out);
	for (size_t i = 0; i < r->machine_keys.n; i++)
		fprintf(out, "  %-12s %s\n", r->machine_keys.v[i], r->machine_values.v[i]);
	char *warning = rep_machine_warning(r);
	if (warning)
		fprintf(out, "warning: %s\n", warning);
	free(warning);
}

void rep_machine_json(FILE *out, const struct ranking *r)
{
	fputs(",\"machine\":{", out);
	for (size_t i = 0; i < r->machine_keys.n; i++) {
		fputs(i ? "," : "", out);
		rep_json_str(out, r->machine_keys.v[i]);
		fputc(':', out);
		rep_json_str(out, r->machine_values.v[i]);
	}
	fputs("},\"machine_warning\":", out);
	char *warning = rep_machine_warning(r);
	if (warning)
		rep_json_str(out, warning);
	else
		fputs("null", out);
	free(warning);
}
