/*
 * test_registry.c - every registry the program checks at start-up passes
 * its check, and the shared check finds a nameless or twice-listed entry.
 * The libc table says how each libc reaches a cross target (plan.c asks
 * it instead of comparing names).
 */
#include "base/registry.h"
#include "flagsets/settings.h"
#include "harness/fetch.h"
#include "harness/libc.h"
#include "harness/meter.h"
#include "harness/runner.h"
#include "search/strategy.h"
#include "tests/testlib.h"
#include "workloads/buildsys.h"

static const struct {
	const char *name;
	int (*check)(struct strbuf *err);
} checks[] = {
	{"runners", runners_check}, {"meters", meters_check}, {"libcs", libcs_check},
	{"source kinds", source_kinds_check}, {"build systems", build_systems_check},
	{"strategies", strategies_check}, {"settings", settings_check},
};

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(checks); i++) {
		struct strbuf err = {0};
		T_CHECK(!checks[i].check(&err) && !err.len, "%s: %s", checks[i].name, sb_str(&err));
		sb_release(&err);
	}
	const char *twice[] = {"ce", "ga", "ce"}, *nameless[] = {"a", ""};
	struct strbuf err = {0};
	T_CHECK(registry_check("strategies", twice, 3, &err) && strstr(sb_str(&err), "strategies: ce: listed twice"),
		"%s", sb_str(&err));
	sb_release(&err);
	T_CHECK(registry_check("x", nameless, 2, &err) && strstr(sb_str(&err), "has no name"), "%s",
		sb_str(&err));
	sb_release(&err);
	T_CHECK(libc_cross_kind("glibc") == LIBC_CROSS_DISTRO && libc_cross_kind("musl") == LIBC_CROSS_SYSROOT &&
			libc_cross_kind("dietlibc") == LIBC_CROSS_NONE && libc_cross_kind(NULL) == LIBC_CROSS_SYSROOT,
		"libc_cross_kind");
	char *names = libc_cross_names();
	T_CHECK(!strcmp(names, "glibc (Debian's cross libc) or musl (a built sysroot)"), "%s", names);
	free(names);
	return test_summary("test_registry");
}
