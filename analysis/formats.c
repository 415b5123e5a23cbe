/* formats.c - see formats.h */
#include "analysis/formats.h"

#include <string.h>

#include "analysis/compare.h"
#include "analysis/pivot.h"
#include "analysis/pivot_distro.h"
#include "analysis/pivot_sweep.h"
#include "analysis/recommend.h"
#include "analysis/report.h"
#include "analysis/sample_origins.h"
#include "base/registry.h"

static const char *const names[] = {
#define FORMAT_NAME(e, name, what) name,
	FORMATS(FORMAT_NAME)
#undef FORMAT_NAME
};

const char *format_name(enum format f)
{
	return (unsigned)f < FORMAT_COUNT ? names[f] : NULL;
}

enum format format_parse(const char *name)
{
	for (unsigned f = 0; name && f < FORMAT_COUNT; f++)
		if (!strcmp(names[f], name))
			return (enum format)f;
	return FORMAT_COUNT;
}

int format_is(const char *name, enum format f)
{
	return name && format_parse(name) == f;
}

void format_set_names(format_set set, const char *sep, struct strbuf *out)
{
	int first = 1;
	for (unsigned f = 0; f < FORMAT_COUNT; f++)
		if (set & FORMAT_BIT(f)) {
			sb_addf(out, "%s%s", first ? "" : sep, names[f]);
			first = 0;
		}
}

int format_offered(const char *who, const char *name, format_set set)
{
	enum format f = format_parse(name);
	if (f != FORMAT_COUNT && (set & FORMAT_BIT(f)))
		return 0;
	struct strbuf list = {0};
	format_set_names(set, ", ", &list);
	error_msg("%s: unknown format '%s' (formats: %s)", who, name ? name : "", sb_str(&list));
	sb_release(&list);
	return -1;
}

/* the .format of entry i of a table whose first .format is at first */
static enum format format_at(const enum format *first, size_t i, size_t stride)
{
	return *(const enum format *)(const void *)((const char *)first + i * stride);
}

format_set format_family(const char *what, const enum format *first, size_t n, size_t stride,
			 struct strbuf *err)
{
	format_set set = 0;
	for (size_t i = 0; i < n; i++) {
		enum format f = format_at(first, i, stride);
		const char *name = format_name(f);
		if (err) {
			registry_require(name != NULL, what, name, "is not a format (analysis/formats.h)",
					 err);
			registry_require(!name || !(set & FORMAT_BIT(f)), what, name,
					 "listed twice", err);
		}
		if (name)
			set |= FORMAT_BIT(f);
	}
	return set;
}

const void *format_writer(const char *name, const void *table, const enum format *formats,
			  size_t n, size_t stride)
{
	enum format want = format_parse(name);
	for (size_t i = 0; want != FORMAT_COUNT && i < n; i++)
		if (format_at(formats, i, stride) == want)
			return (const char *)table + i * stride;
	return NULL;
}

int formats_check(struct strbuf *err)
{
	size_t before = err->len;
	int bad = registry_check("formats", names, FORMAT_COUNT, err);
	/* every writer family of analysis/, asked to list its formats */
	report_formats(err);
	pivot_formats(err);
	distro_table_formats(err);
	sweep_table_formats(err);
	compare_formats(err);
	recommend_formats(err);
	sample_origins_formats(err);
	return bad || err->len > before ? -1 : 0;
}

_Static_assert(FORMAT_COUNT <= 8 * sizeof(format_set), "format_set has a bit per format");
