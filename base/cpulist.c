/* cpulist.c - see cpulist.h */
#include "base/cpulist.h"

#include <ctype.h>
#include <stdlib.h>

/* A number at *p (after blanks); -1 when there is none or it is too big. */
static long cpu_number(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (!isdigit((unsigned char)**p))
		return -1;
	long n = 0;
	while (isdigit((unsigned char)**p)) {
		n = n * 10 + (**p - '0');
		if (n >= CPU_SETSIZE)
			return -1;
		(*p)++;
	}
	while (**p == ' ' || **p == '\t')
		(*p)++;
	return n;
}

static int not_a_list(const char *text, struct strbuf *why)
{
	if (why)
		sb_addf(why, "'%s' is not a CPU list (write CPU numbers and ranges from 0 to %d, e.g. 0 or 0-1,3)",
			text, CPU_SETSIZE - 1);
	return -1;
}

int cpulist_parse(const char *text, cpu_set_t *set, struct strbuf *why)
{
	const char *p = text;
	CPU_ZERO(set);
	for (;;) {
		long lo = cpu_number(&p), hi = lo;
		if (lo >= 0 && *p == '-') {
			p++;
			hi = cpu_number(&p);
		}
		if (lo < 0 || hi < lo)
			return not_a_list(text, why);
		for (long c = lo; c <= hi; c++)
			CPU_SET(c, set);
		if (!*p)
			return 0;
		if (*p++ != ',')
			return not_a_list(text, why);
	}
}

char *cpulist_format(const cpu_set_t *set)
{
	struct strbuf sb = {0};
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		int end = c;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
			end++;
		sb_addf(&sb, "%s%d", sb.len ? "," : "", c);
		if (end > c)
			sb_addf(&sb, "-%d", end);
		c = end;
	}
	return sb_detach(&sb);
}
