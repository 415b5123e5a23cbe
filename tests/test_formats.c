/*
 * test_formats.c - the format registry (analysis/formats.h): every name
 * parses back to its format; the writer families of analysis/ write the
 * formats their commands have always offered; FORMAT_WRITER finds the
 * entry that writes a name (at any offset of .format); the start-up check passes
 * on the real tables and finds a family that lists a format twice or a
 * value that is no format.  Expected: all checks pass.
 */
#include "analysis/compare.h"
#include "analysis/formats.h"
#include "analysis/pivot.h"
#include "analysis/pivot_distro.h"
#include "analysis/pivot_sweep.h"
#include "analysis/recommend.h"
#include "analysis/recommend_distro.h"
#include "analysis/report.h"
#include "analysis/sample_origins.h"
#include "tests/testlib.h"

#define B(f) FORMAT_BIT(FORMAT_##f)

static const struct family_case {
	const char *what;
	format_set (*formats)(struct strbuf *err);
	format_set want;
} families[] = {
	{"report", report_formats, B(TABLE) | B(CSV) | B(JSON) | B(HTML)},
	{"pivot", pivot_formats, B(TABLE) | B(CSV) | B(JSON)},
	{"distro table", distro_table_formats, B(TABLE) | B(CSV) | B(JSON)},
	{"sweep table", sweep_table_formats, B(TABLE) | B(CSV) | B(JSON)},
	{"compare", compare_formats, B(TABLE) | B(JSON)},
	{"recommend", recommend_formats,
	 B(MAKE_CONF) | B(SHELL) | B(JSON) | B(PACKAGE_ENV) | B(DPKG_BUILDFLAGS)},
	{"recommend distro", recommend_distro_formats, B(PACKAGE_ENV) | B(DPKG_BUILDFLAGS)},
	{"sample list", sample_origins_formats, B(TABLE) | B(CSV)},
};

int main(void)
{
	for (unsigned f = 0; f < FORMAT_COUNT; f++) {
		const char *name = format_name((enum format)f);
		T_CHECK(name && format_parse(name) == (enum format)f, "format %u: '%s'", f,
			name ? name : "(null)");
	}
	T_CHECK(!format_name(FORMAT_COUNT) && format_parse("yaml") == FORMAT_COUNT &&
			format_parse(NULL) == FORMAT_COUNT,
		"no format past the table");

	for (size_t i = 0; i < ARRAY_SIZE(families); i++) {
		struct strbuf names = {0};
		format_set got = families[i].formats(NULL);
		format_set_names(got, ", ", &names);
		T_CHECK(got == families[i].want, "%s writes %s", families[i].what, sb_str(&names));
		sb_release(&names);
	}
	/* the writers a family lists are the ones its lookup finds */
	T_CHECK(report_format("html") && !report_format("lnt") && !report_format("nope"),
		"report_format finds html, not lnt (its own writer) or nope");
	T_CHECK(pivot_format("csv") && !pivot_format("html"), "pivot_format finds csv, not html");
	T_CHECK(recommend_distro_format("package.env") && !recommend_distro_format("json"),
		"recommend_distro_format: package.env, not json");

	/* FORMAT_WRITER: the entry that writes a name, typed as the table's */
	static const struct writer_case {
		int tag;
		enum format format;
	} writers[] = {{1, FORMAT_TABLE}, {2, FORMAT_JSON}};
	const struct writer_case *w = FORMAT_WRITER(writers, "json");
	T_CHECK(w == &writers[1] && w->tag == 2, "FORMAT_WRITER finds json's writer");
	T_CHECK(!FORMAT_WRITER(writers, "csv") && !FORMAT_WRITER(writers, "nope") &&
			!FORMAT_WRITER(writers, NULL),
		"no writer for a format the table does not write, or no format");

	struct strbuf err = {0};
	T_CHECK(!formats_check(&err) && !err.len, "the real tables pass: %s", sb_str(&err));

	static const struct {
		enum format format;
	} twice[] = {{FORMAT_CSV}, {FORMAT_JSON}, {FORMAT_CSV}, {FORMAT_COUNT}};
	format_set s = FORMAT_WRITERS("planted", twice, &err);
	T_CHECK(s == (B(CSV) | B(JSON)), "the set of the planted family");
	T_CHECK(strstr(sb_str(&err), "planted: csv: listed twice") &&
			strstr(sb_str(&err), "planted: (no name): is not a format"),
		"the check finds a format listed twice and one that is no format: %s",
		sb_str(&err));
	sb_release(&err);
	return test_failures ? 1 : 0;
}
