/*
 * test_identical.c - harness/identical.h's config_execution_key: a change
 * in any axis kind that changes how a binary runs (cpu, target, libc,
 * sysroot, link) gives another key, so identical code alone never shares
 * runs across it (issue 26); flags, compiler and label leave it alone
 * (they change the code, which build_code_hash compares).
 */
#include <stdlib.h>
#include <string.h>

#include "harness/identical.h"
#include "tests/testlib.h"

struct axis_case {
	const char *what;
	void (*change)(struct config *c);
	int differs; /* 1: another key */
};

static void cpu(struct config *c) { c->cpu = "cortex-a53"; }
static void target(struct config *c) { c->target = "mips64el-linux-gnuabi64"; }
static void libc(struct config *c) { c->libc = "musl"; }
static void sysroot(struct config *c) { c->sysroot = "/cache/sysroots/2"; }
static void link_(struct config *c) { c->link = 1; }
static void cflags(struct config *c) { c->cflags = "-O2 -Wall"; }
static void cc(struct config *c) { c->cc = "clang"; }
static void label(struct config *c) { c->label = "renamed"; }

static const struct axis_case cases[] = {
	{"cpu axis", cpu, 1},         {"target axis", target, 1}, {"libc axis", libc, 1},
	{"sysroot", sysroot, 1},      {"link axis", link_, 1},    {"flags axis", cflags, 0},
	{"cc axis", cc, 0},           {"label", label, 0},
};

int main(void)
{
	struct config base = {.label = "a64 max O2", .cc = "gcc", .cflags = "-O2",
			      .target = "aarch64-linux-gnu", .cpu = "max", .libc = "glibc",
			      .sysroot = "/cache/sysroots/1", .link = 0};
	char *k0 = config_execution_key(&base);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct config c = base;
		cases[i].change(&c);
		char *k = config_execution_key(&c);
		T_CHECK((strcmp(k, k0) != 0) == cases[i].differs, "%s: %s", cases[i].what,
			cases[i].differs ? "must change the execution key" : "changes the code only");
		free(k);
	}
	struct config native = {.label = "O2", .cc = "gcc", .cflags = "-O2", .link = -1};
	char *kn = config_execution_key(&native);
	T_CHECK(strcmp(kn, k0) != 0, "native and emulated differ");
	free(kn);
	free(k0);
	return test_summary("test_identical");
}
