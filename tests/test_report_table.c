/*
 * test_report_table.c - analysis/report_text's table: its columns line up
 * whatever the names.  A configuration label longer than the default
 * column (32) and item names longer than theirs (22, libcbench's
 * "pthread_createjoin_minimal1") widen their columns; they do not push
 * the rest of their line to the right.
 * Expect: every configuration line has its ratio where the header's
 * "ratio" is, and every item line its "n=" at one column.
 */
#include "analysis/rank.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "tests/synthdb.h"
#include "tests/testlib.h"

static const char *const labels[] = {"base", "gcc x86-64-v3 O3 -funroll-loops -fno-plt static"};
static const char *const runs[] = {"malloc_big1", "pthread_createjoin_minimal1"};

/* the column where needle starts in line (of length len), or -1 */
static long column_of(const char *line, size_t len, const char *needle)
{
	const char *at = memmem(line, len, needle, strlen(needle));
	return at ? at - line : -1;
}

static void check_columns(const char *text)
{
	long ratio = -1, n = -1;
	size_t configs = 0, items = 0;
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		if (!strncmp(l, "rank ", 5)) {
			ratio = column_of(l, len, " ratio") + 1; /* not configuration's */
		} else if (!strncmp(l, "        libcbench/", 18)) {
			long at = column_of(l, len, " n=");
			T_CHECK(n < 0 || at == n, "item n= at %ld, the first at %ld: %.*s", at, n,
				(int)len, l);
			n = n < 0 ? at : n;
			items++;
		} else if (ratio >= 0 && (*l == '1' || *l == '2')) {
			/* the ratio (0.500, 1.000) starts under the header's */
			T_CHECK((long)len > ratio && l[ratio - 1] == ' ' && isdigit((unsigned char)l[ratio]) &&
					l[ratio + 1] == '.',
				"no ratio at the header's column %ld: %.*s", ratio, (int)len, l);
			configs++;
		}
		l += len + (e != NULL);
	}
	T_CHECK(configs == 2 && items == 4, "%zu configuration and %zu item lines:\n%s", configs,
		items, text);
}

int main(void)
{
	char *dir = test_tmpdir("test_report_table");
	struct store st;
	synth_open(&st, dir, "table.db", "t", "time", labels, NULL, 2);
	for (size_t c = 0; c < 2; c++)
		for (size_t i = 0; i < 2; i++)
			synth_run(&st, "t", labels[c], "libcbench", runs[i], "ok", NULL, "time", "s",
				  c ? 0.5 : 1.0, 0.01, 8, 100, 1 + 2 * c + i);
	struct ranking r;
	struct strbuf err = {0};
	T_CHECK(!ranking_compute(&st, "t", NULL, &r, &err), "%s", sb_str(&err));
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	report_print(out, &r, report_format("table"));
	fclose(out);
	check_columns(text);
	free(text);
	ranking_release(&r);
	sb_release(&err);
	store_close(&st);
	free(dir);
	return test_summary("test_report_table");
}
