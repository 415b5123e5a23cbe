/*
 * test_elf.c - harness/elf: facts of files the test builds itself with the
 * real compilers (native x86-64 static, dynamic, PIE, static-PIE, shared;
 * MIPS o32/n32/n64 at several -march levels; aarch64), what a target and
 * flags ask of the machine (elf_expect: a table of derivations, and files
 * built here compared with it), the flags-override fixture caught with the
 * unit named, units only the symbol table names (helper.c built plain next
 * to a recorded main.c, dynamic, static glibc, musl, clang), and hostile
 * input: truncated,
 * byte-flipped (fixed seed) and crafted files, and the crash regressions
 * in tests/fixtures/elf-crashes/.  Run under ASan/UBSan (FLAGSCOPE_SANITIZE)
 * an out-of-bounds read fails the test.
 *
 * A cross compiler that is missing skips its cases with the reason; the
 * test exits 77 only when no case could run.
 */
#include "harness/elf.h"

#include <dirent.h>
#include <elf.h>
#include <stdint.h>
#include <string.h>

#include "base/util.h"
#include "tests/testlib.h"

static const char fixture_src[] =
	"/* test_elf fixture: a function with integer and floating-point work */\n"
	"int puts(const char *);\n"
	"double scale(double x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x * i; return s; }\n"
	"int main(void) { puts(\"fixture\"); return scale(1.5, 3) > 100; }\n";

/* Strings: NULL = not asserted, "-" = must be absent.  Ints: -2 = not
 * asserted. */
struct build_case {
	const char *name;
	const char *cc;
	const char *flags;
	int bits;
	const char *machine, *type;
	int is_static;
	const char *abi, *isa, *ext, *fpabi, *nan;
	int pic;
	const char *unit;       /* the unit that must carry switches */
	const char *expect_ok;  /* flags that check clean */
	const char *expect_bad; /* flags that give a mismatch naming the unit */
	const char *needs;      /* a file linking needs (a cross libc), or NULL */
};

#define ANY -2
static const struct build_case build_cases[] = {
	{"x86-64 static", "gcc", "-O2 -g -frecord-gcc-switches -static", 64, "x86-64",
	 "executable", 1, "lp64", NULL, NULL, "-", "-", ANY, "fixture.c", "-O2 -march=x86-64",
	 "-O3"},
	{"x86-64 dynamic", "gcc", "-O2 -no-pie -frecord-gcc-switches", 64, "x86-64", "executable",
	 0, "lp64", NULL, NULL, NULL, NULL, ANY, "unit 1", "-O2", "-Os"},
	{"x86-64 pie", "gcc", "-O1 -g -fPIE -pie", 64, "x86-64", "pie", 0, "lp64", NULL, NULL,
	 NULL, NULL, ANY, "fixture.c", "-O1 -fPIE", "-fno-PIE"},
	{"x86-64 static-pie", "gcc", "-O2 -g -static-pie", 64, "x86-64", "pie", 1, "lp64", NULL,
	 NULL, NULL, NULL, ANY, "fixture.c", "-O2", "-O0"},
	{"x86-64 shared", "gcc", "-O2 -g -fPIC -shared", 64, "x86-64", "shared", 0, "lp64", NULL,
	 NULL, NULL, NULL, ANY, "fixture.c", "-O2 -fPIC", "-O3"},
	{"x86-64-v3 object", "gcc", "-c -O2 -march=x86-64-v3 -mneeded -frecord-gcc-switches", 64,
	 "x86-64", "relocatable", -1, "lp64", "x86-64-v3", NULL, NULL, NULL, ANY, "fixture.c",
	 "-O2 -march=x86-64-v3", "-march=x86-64-v4"},
	{"clang object", "clang", "-c -O2 -frecord-command-line", 64, "x86-64", "relocatable", -1,
	 "lp64", NULL, NULL, NULL, NULL, ANY, "fixture.c", "-O2", "-O3"},
	{"clang object, both records", "clang",
	 "-c -O2 -g -grecord-command-line -frecord-command-line", 64, "x86-64", "relocatable", -1,
	 "lp64", NULL, NULL, NULL, NULL, ANY, "fixture.c", "-O2", "-O1"},
	{"clang dynamic -g", "clang", "-O3 -g -grecord-command-line", 64, "x86-64", "pie", 0,
	 "lp64", NULL, NULL, NULL, NULL, ANY, "fixture.c", "-O3", "-O2 -march=x86-64-v2"},
	{"o32 mips1", "mipsel-linux-gnu-gcc", "-c -O2 -march=mips1 -mfp32 -frecord-gcc-switches", 32,
	 "mips", "relocatable", -1, "o32", "mips1", "-", "double", "legacy", 1, "fixture.c",
	 "-O2 -march=mips1", "-march=mips32r2"},
	{"o32 mips1 (mips64el -mabi=32)", "mips64el-linux-gnuabi64-gcc",
	 "-c -O2 -mabi=32 -march=mips1 -mfp32 -frecord-gcc-switches", 32, "mips", "relocatable",
	 -1, "o32", "mips1", "-", "double", "legacy", 1, "fixture.c", "-mabi=32 -march=mips1",
	 "-mabi=n32"},
	{"o32 mips32r2 fpxx", "mips64el-linux-gnuabi64-gcc",
	 "-c -O2 -mabi=32 -march=mips32r2 -mfpxx -g", 32, "mips", "relocatable", -1, "o32",
	 "mips32r2", "-", "xx", "legacy", 1, "fixture.c", "-march=mips32r2 -mfpxx", "-mfp64"},
	{"o32 mips32r2 soft-float", "mips64el-linux-gnuabi64-gcc",
	 "-c -O2 -mabi=32 -march=mips32r2 -msoft-float -frecord-gcc-switches", 32, "mips",
	 "relocatable", -1, "o32", "mips32r2", "-", "soft", NULL, 1, "fixture.c", "-msoft-float",
	 "-mhard-float"},
	{"n32 r4600", "mips64el-linux-gnuabi64-gcc",
	 "-c -O2 -mabi=n32 -march=r4600 -frecord-gcc-switches", 32, "mips", "relocatable", -1,
	 "n32", "mips3", "-", "double", "legacy", 1, "fixture.c", "-mabi=n32 -march=r4600 -O2",
	 "-march=loongson2f"},
	{"n32 loongson2f", "mips64el-linux-gnuabi64-gcc",
	 "-c -O3 -mabi=n32 -march=loongson2f -g -frecord-gcc-switches", 32, "mips", "relocatable",
	 -1, "n32", "mips3",
	 "loongson-2f", "double", "legacy", 1, "fixture.c", "-O3 -mabi=n32 -march=loongson2f",
	 "-march=mips3"},
	{"n64 mips3", "mips64el-linux-gnuabi64-gcc",
	 "-c -O2 -mabi=64 -march=mips3 -frecord-gcc-switches", 64, "mips", "relocatable", -1,
	 "n64", "mips3", "-", "double", "legacy", 1, "fixture.c", "-mabi=64 -march=mips3",
	 "-mabi=n32"},
	{"n64 loongson2f", "mips64el-linux-gnuabi64-gcc",
	 "-c -O2 -mabi=64 -march=loongson2f -frecord-gcc-switches", 64, "mips", "relocatable", -1,
	 "n64", "mips3", "loongson-2f", "double", "legacy", 1, "fixture.c",
	 "-march=loongson2f -mloongson-mmi", "-mno-loongson-mmi"},
	{"n64 mips64r2 nan2008", "mips64el-linux-gnuabi64-gcc",
	 "-c -O2 -mabi=64 -march=mips64r2 -mnan=2008 -frecord-gcc-switches", 64, "mips",
	 "relocatable", -1, "n64", "mips64r2", "-", "double", "2008", 1, "fixture.c",
	 "-mnan=2008", "-mnan=legacy"},
	{"n64 non-pic", "mips64el-linux-gnuabi64-gcc",
	 "-c -O2 -mabi=64 -march=mips4 -mno-abicalls -fno-pic -frecord-gcc-switches", 64, "mips",
	 "relocatable", -1, "n64", "mips4", "-", "double", "legacy", 0, "fixture.c",
	 "-mno-abicalls", "-mabicalls"},
	/* Linked with Debian's cross libcs: DWARF names the units.  A linked
	 * file's ISA is the highest of its objects': Debian's MIPS libcs are
	 * mips64r2 (and ld refuses to link -march=loongson2f objects with
	 * them), so the file says mips64r2 while the unit says what it got. */
	{"n64 mips3 linked", "mips64el-linux-gnuabi64-gcc", "-O2 -g -mabi=64 -march=mips3", 64,
	 "mips", "pie", 0, "n64", "mips64r2", "-", "double", "legacy", ANY, "fixture.c",
	 "-O2 -mabi=64 -march=mips3", "-march=mips64r2", "/usr/mips64el-linux-gnuabi64/lib/crt1.o"},
	{"n32 r4600 linked static", "mips64el-linux-gnuabi64-gcc",
	 "-O2 -g -mabi=n32 -march=r4600 -static", 32, "mips", "executable", 1, "n32", "mips64r2",
	 NULL, "double", "legacy", ANY, "fixture.c", "-O2 -mabi=n32 -march=r4600", "-march=mips3",
	 "/usr/mips64el-linux-gnuabi64/lib32/crt1.o"},
	{"o32 mips32r2 linked", "mips64el-linux-gnuabi64-gcc",
	 "-O2 -g -mabi=32 -march=mips32r2 -mfpxx", 32, "mips", "pie", 0, "o32", NULL, NULL, "xx",
	 "legacy", ANY, "fixture.c", "-mabi=32 -march=mips32r2", "-march=mips1",
	 "/usr/mips64el-linux-gnuabi64/libo32/crt1.o"},
	{"aarch64 linked static", "aarch64-linux-gnu-gcc", "-O3 -g -static", 64, "aarch64",
	 "executable", 1, "lp64", NULL, NULL, NULL, NULL, ANY, "fixture.c", "-O3", "-O2",
	 "/usr/aarch64-linux-gnu/lib/crt1.o"},
	{"aarch64", "aarch64-linux-gnu-gcc", "-c -O2 -frecord-gcc-switches", 64, "aarch64",
	 "relocatable", -1, "lp64", NULL, "-", "-", "-", ANY, "fixture.c", "-O2", "-O3"},
	{"aarch64 bti+pac", "aarch64-linux-gnu-gcc",
	 "-c -O2 -mbranch-protection=standard -march=armv8.5-a -g", 64, "aarch64", "relocatable",
	 -1, "lp64", NULL, "bti,pac", NULL, NULL, ANY, "fixture.c",
	 "-mbranch-protection=standard -march=armv8.5-a", "-march=armv8-a"},
	/* 32-bit Arm: .ARM.attributes (clang needs no Arm libc for -c) */
	{"arm cortex-a7 hard", "clang",
	 "--target=armv7a-linux-gnueabihf -mcpu=cortex-a7 -mfpu=neon-vfpv4 -c -O2 -frecord-command-line",
	 32, "arm", "relocatable", -1, "eabi5", "armv7-a", "cpu=cortex-a7,vfpv4,neon", "hard", NULL,
	 ANY, "fixture.c", "-O2 -mcpu=cortex-a7", "-O3"},
	{"arm v7 softfp", "clang",
	 "--target=armv7a-linux-gnueabi -mfloat-abi=softfp -mfpu=vfpv3 -c -O2 -frecord-command-line",
	 32, "arm", "relocatable", -1, "eabi5", "armv7-a", "vfpv3", "softfp", NULL, ANY, "fixture.c",
	 "-mfloat-abi=softfp", "-mfloat-abi=hard"},
	{"arm v5te soft", "clang",
	 "--target=armv5te-linux-gnueabi -mfloat-abi=soft -c -O2 -frecord-command-line", 32, "arm",
	 "relocatable", -1, "eabi5", "armv5te", NULL, "soft", NULL, ANY, "fixture.c", "-O2", "-Os"},
};

static int cases_run, cases_skipped;

static int have_compiler(const char *cc)
{
	char *argv[] = {(char *)cc, "--version", NULL};
	char *out = NULL;
	int rc = run_capture(argv, &out);
	free(out);
	return rc == 0;
}

/* Compile fixture.c in dir with cc and flags into out; 0 or prints why. */
static int compile(const char *dir, const char *cc, const char *flags, const char *out)
{
	struct strlist argv = {0};
	char *log = NULL;
	int rc;

	sl_push(&argv, cc);
	sl_split_ws(&argv, flags);
	sl_push(&argv, "fixture.c");
	sl_push(&argv, "-o");
	sl_push(&argv, out);
	char *line = sl_join(&argv, " ");
	char *script = xasprintf("cd '%s' && %s", dir, line);
	free(line);
	rc = run_shell_capture(script, &log);
	if (rc)
		fprintf(stderr, "%s failed (%d):\n%s\n", script, rc, log ? log : "");
	free(script);
	free(log);
	sl_release(&argv);
	return rc;
}

static void check_str(const char *what, const char *name, const char *got, const char *want)
{
	if (!want)
		return;
	if (!strcmp(want, "-"))
		T_CHECK(!got, "%s: %s is '%s', want none", what, name, got);
	else
		T_CHECK(got && !strcmp(got, want), "%s: %s is '%s', want '%s'", what, name,
			got ? got : "(none)", want);
}

static const struct elf_unit *find_unit(const struct elf_facts *f, const char *name)
{
	for (size_t i = 0; i < f->nunits; i++)
		if (!strcmp(f->units[i].name, name))
			return &f->units[i];
	return NULL;
}

static void run_build_case(const char *dir, const struct build_case *c, size_t index)
{
	struct elf_facts f;
	struct strbuf err = {0};
	struct strlist m = {0};
	char *out;

	if (!have_compiler(c->cc)) {
		printf("SKIP: %s: %s is not installed (scripts/packages.txt lists it)\n", c->name,
		       c->cc);
		cases_skipped++;
		return;
	}
	if (c->needs && !file_exists(c->needs)) {
		printf("SKIP: %s: no %s (the cross libc that %s's package recommends)\n", c->name,
		       c->needs, c->cc);
		cases_skipped++;
		return;
	}
	out = xasprintf("%s/case%zu.elf", dir, index);
	if (compile(dir, c->cc, c->flags, out)) {
		T_CHECK(0, "%s: could not build the fixture", c->name);
		free(out);
		return;
	}
	cases_run++;
	if (elf_facts_read(out, &f, &err)) {
		T_CHECK(0, "%s: %s", c->name, sb_str(&err));
		sb_release(&err);
		free(out);
		return;
	}
	T_CHECK(f.bits == c->bits, "%s: class ELF%d", c->name, f.bits);
	check_str(c->name, "machine", f.machine_name, c->machine);
	check_str(c->name, "type", f.type, c->type);
	T_CHECK(f.is_static == c->is_static, "%s: static %d", c->name, f.is_static);
	if (c->is_static == 0 && strcmp(c->type, "shared"))
		T_CHECK(f.interp && f.needed.n, "%s: dynamic without interpreter or DT_NEEDED",
			c->name);
	check_str(c->name, "abi", f.abi, c->abi);
	check_str(c->name, "isa", f.isa, c->isa);
	check_str(c->name, "ext", f.ext, c->ext);
	check_str(c->name, "fpabi", f.fpabi, c->fpabi);
	check_str(c->name, "nan", f.nan, c->nan);
	if (c->pic != ANY)
		T_CHECK(f.pic == c->pic && f.cpic == c->pic, "%s: pic %d cpic %d", c->name, f.pic,
			f.cpic);
	T_CHECK(f.compilers.n >= 1, "%s: no .comment compiler", c->name);
	T_CHECK(elf_facts_section_size(&f, ".text") > 0 && f.total_size >= elf_facts_section_size(&f, ".text"),
		"%s: .text %llu total %llu", c->name, elf_facts_section_size(&f, ".text"),
		f.total_size);

	const struct elf_unit *u = find_unit(&f, c->unit);
	T_CHECK(u && u->switches, "%s: no unit '%s' with switches", c->name, c->unit);
	size_t named = 0;
	for (size_t i = 0; i < f.nunits; i++)
		named += !strcmp(f.units[i].name, c->unit);
	T_CHECK(named == 1, "%s: %zu units named '%s'", c->name, named, c->unit);
	/* Only the fixture's unit records switches: crt and libc objects in
	 * the linked cases are not reported. */
	T_CHECK(elf_facts_check(&f, c->expect_ok, -1, NULL, &m) == 0, "%s: '%s' gives '%s'",
		c->name, c->expect_ok, m.n ? m.v[0] : "");
	sl_release(&m);
	char *label = u && u->anonymous ? xstrdup(c->unit) : xasprintf("unit %s:", c->unit);
	T_CHECK(elf_facts_check(&f, c->expect_bad, -1, NULL, &m) >= 1 && m.n &&
			str_starts_with(m.v[0], label),
		"%s: '%s' gives '%s'", c->name, c->expect_bad, m.n ? m.v[0] : "no mismatch");
	free(label);
	sl_release(&m);
	if (f.is_static >= 0) {
		T_CHECK(elf_facts_check(&f, NULL, !f.is_static, NULL, &m) == 1 && m.n == 1 &&
				strstr(m.v[0], f.is_static ? "dynamic linking expected"
							   : "static linking expected"),
			"%s: linkage check gives '%s'", c->name, m.n ? m.v[0] : "nothing");
		sl_release(&m);
	}
	/* The JSON object carries the keys the pipeline reads. */
	struct strbuf js = {0};
	elf_facts_json(&f, NULL, &js);
	for (const char *const *k = (const char *const[]){"\"file\":", "\"class\":", "\"machine\":",
		     "\"type\":", "\"abi\":", "\"isa\":", "\"ext\":", "\"static\":", "\"interp\":",
		     "\"needed\":", "\"compilers\":", "\"units\":[{\"name\":", "\"sections\":{",
		     "\"total\":", "\"mismatches\":[]", NULL};
	     *k; k++)
		T_CHECK(strstr(sb_str(&js), *k), "%s: JSON lacks %s: %s", c->name, *k, sb_str(&js));
	sb_release(&js);
	elf_facts_release(&f);
	free(out);
}

/* ---- the machine a configuration asks for (elf_expect) ---- */

#define MIPS64 "mips64el-linux-gnuabi64-gcc"
#define N64 "mips64el-linux-gnuabi64"
#define CRT64 "/usr/mips64el-linux-gnuabi64/lib/crt1.o"
#define CRTN32 "/usr/mips64el-linux-gnuabi64/lib32/crt1.o"

/* What derive says, without a compiler.  Strings: NULL not asserted, "-"
 * must not be compared. */
static const struct derive_case {
	const char *target, *flags;
	unsigned machine;
	const char *klass, *data, *abi, *isa, *ext, *fpabi, *nan;
} derive_cases[] = {
	{N64, "-O2", EM_MIPS, "ELF64", "lsb", "n64", "-", "-", "-", "-"},
	{N64, "-O2 -mabi=n32 -march=r4600", EM_MIPS, "ELF32", "lsb", "n32", "mips3", "", "-", "-"},
	{N64, "-mabi=32 -march=mips1 -mfp32", EM_MIPS, "ELF32", "lsb", "o32", "mips1", "", "double",
	 "-"},
	{N64, "-mabi=32 -march=mips32r2 -mfp64 -mno-odd-spreg", EM_MIPS, "ELF32", NULL, "o32",
	 "mips32r2", "", "64a", "-"},
	{N64, "-mabi=32 -msoft-float -mfpxx", EM_MIPS, NULL, NULL, "o32", "-", "-", "soft", "-"},
	{N64, "-mabi=64 -mhard-float", EM_MIPS, NULL, NULL, "n64", "-", "-", "double", "-"},
	{N64, "-mabi=32 -mhard-float", EM_MIPS, NULL, NULL, "o32", "-", "-", "hard", "-"},
	{N64, "-march=loongson2f -mabi=64 -mnan=legacy", EM_MIPS, "ELF64", NULL, "n64", "mips3",
	 "loongson-2f", "-", "legacy"},
	{N64, "-march=mips3 -mips4", EM_MIPS, NULL, NULL, NULL, "mips4", "", NULL, NULL},
	{N64, "-march=loongson2f -mips16 -mips3d", EM_MIPS, NULL, NULL, NULL, "mips3",
	 "loongson-2f", NULL, NULL},
	/* a -march the table does not know compares no ISA: never guessed */
	{N64, "-march=native", EM_MIPS, NULL, NULL, NULL, "-", "-", NULL, NULL},
	{N64, "-march=mips3 -march=p9000", EM_MIPS, NULL, NULL, NULL, "-", "-", NULL, NULL},
	{"mips64-linux-gnuabi64", "-EL", EM_MIPS, NULL, "lsb", NULL, NULL, NULL, NULL, NULL},
	{"mips64-linux-gnuabi64", "", EM_MIPS, NULL, "msb", NULL, NULL, NULL, NULL, NULL},
	{"mipsel-linux-gnu", "-march=loongson2f", EM_MIPS, "ELF32", "lsb", "o32", "mips3",
	 "loongson-2f", NULL, NULL},
	{"mips64el-linux-gnu", "", EM_MIPS, "-", "lsb", "-", NULL, NULL, NULL, NULL},
	{"mipsisa64r6el-linux-gnuabi64", "", EM_MIPS, "ELF64", "lsb", "n64", "-", NULL, NULL,
	 NULL},
	{"aarch64-linux-gnu", "-mcpu=cortex-a72", EM_AARCH64, "ELF64", "lsb", "lp64", "-", "-",
	 "-", "-"},
	{"aarch64-linux-gnu", "-mabi=ilp32", EM_AARCH64, "ELF32", NULL, "ilp32", NULL, NULL, NULL,
	 NULL},
	{"arm-linux-gnueabihf", "", EM_ARM, "ELF32", "lsb", "-", NULL, NULL, "hard", NULL},
	{"arm-linux-gnueabi", "-mfloat-abi=hard", EM_ARM, NULL, NULL, NULL, NULL, NULL, "hard",
	 NULL},
	{"x86_64-linux-gnu", "-m32", EM_386, "ELF32", "lsb", "ilp32", NULL, NULL, NULL, NULL},
	{"x86_64-linux-gnux32", "", EM_X86_64, "ELF32", "lsb", "x32", NULL, NULL, NULL, NULL},
	{"riscv64-linux-gnu", "-mabi=lp64d", EM_RISCV, "ELF64", "lsb", "lp64d", NULL, NULL, NULL,
	 NULL},
	{"s390x-linux-gnu", "-m31", EM_S390, "ELF64", "msb", "-", NULL, NULL, NULL, NULL},
	{"vax-dec-ultrix", "-mabi=64", 0, "-", "-", "-", "-", "-", "-", "-"},
#if defined(__x86_64__) && !defined(__ILP32__)
	{NULL, "-O2", EM_X86_64, "ELF64", "lsb", "lp64", "-", "-", "-", "-"},
	{NULL, "-O2 -mx32", EM_X86_64, "ELF32", "lsb", "x32", "-", "-", "-", "-"},
	{NULL, "-m32 -m64 -march=x86-64-v3", EM_X86_64, "ELF64", NULL, "lp64", "x86-64-v3", "-",
	 NULL, NULL},
	{NULL, "clang --target=aarch64-linux-gnu -O2", EM_AARCH64, "ELF64", "lsb", "lp64", NULL,
	 NULL, NULL, NULL},
	{NULL, "clang -target mipsel-linux-gnu", EM_MIPS, "ELF32", "lsb", "o32", NULL, NULL, NULL,
	 NULL},
#endif
};

static void check_item(const char *what, const char *name, const struct elf_expect_item *it,
		       const char *want)
{
	if (!want)
		return;
	if (!strcmp(want, "-"))
		T_CHECK(!it->want, "%s: %s is '%s' (%s), want not compared", what, name, it->want,
			it->why);
	else
		T_CHECK(it->want && !strcmp(it->want, want) && *it->why,
			"%s: %s is '%s' (%s), want '%s'", what, name, it->want ? it->want : "(none)",
			it->why, want);
}

static void test_derive(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(derive_cases); i++) {
		const struct derive_case *c = &derive_cases[i];
		char *what = xasprintf("derive %s '%s'", c->target ? c->target : "native", c->flags);
		struct elf_expect e;
		elf_expect_derive(c->target, c->flags, &e);
		T_CHECK(e.machine == c->machine, "%s: machine %u, want %u", what, e.machine,
			c->machine);
		check_item(what, "class", &e.klass, c->klass);
		check_item(what, "data", &e.data, c->data);
		check_item(what, "abi", &e.abi, c->abi);
		check_item(what, "isa", &e.isa, c->isa);
		check_item(what, "ext", &e.ext, c->ext);
		check_item(what, "fpabi", &e.fpabi, c->fpabi);
		check_item(what, "nan", &e.nan, c->nan);
		free(what);
	}
}

/* Files built here, compared with what a configuration asks.  target NULL
 * is native; mismatch is the start of the first line expected, NULL none;
 * second the start of the second line, or NULL (no more than one). */
static const struct arch_case {
	const char *name, *cc, *flags;
	const char *target, *expect;
	const char *mismatch, *second;
	const char *needs;
} arch_cases[] = {
	{"n64 loongson2f as asked", MIPS64, "-c -O2 -mabi=64 -march=loongson2f", N64,
	 "-O2 -mabi=64 -march=loongson2f", NULL},
	{"n64 loongson2f, n32 asked", MIPS64, "-c -O2 -mabi=64 -march=loongson2f", N64,
	 "-mabi=n32 -march=loongson2f", "class ELF64, ELF32 expected (-mabi=n32)",
	 "ABI n64, n32 expected (-mabi=n32)"},
	{"n32, no -march: no ISA compared", MIPS64, "-c -O2 -mabi=n32", N64, "-mabi=n32", NULL},
	{"n32 under the default n64", MIPS64, "-c -O2 -mabi=n32", N64, "-O2",
	 "class ELF32, ELF64 expected (target " N64 ")", "ABI n32, n64 expected (target " N64 ")"},
	{"o32 mips1 fp32", MIPS64, "-c -mabi=32 -march=mips1 -mfp32", N64,
	 "-mabi=32 -march=mips1 -mfp32", NULL},
	{"o32 mips1 for mipsel", "mipsel-linux-gnu-gcc", "-c -march=mips1 -mfp32",
	 "mipsel-linux-gnu", "-march=mips1 -mfp32", NULL},
	{"o32 fp32, fpxx asked", MIPS64, "-c -mabi=32 -march=mips1 -mfp32", N64,
	 "-mabi=32 -mfpxx", "FP ABI double, xx expected (-mfpxx)"},
	{"o32 loongson2f for mipsel", "mipsel-linux-gnu-gcc", "-c -march=loongson2f",
	 "mipsel-linux-gnu", "-march=loongson2f", NULL},
	{"extension asked, absent", MIPS64, "-c -mabi=64 -march=mips3", N64,
	 "-mabi=64 -march=loongson2f",
	 "machine extension loongson-2f absent (-march=loongson2f asks it)"},
	{"extension not asked", MIPS64, "-c -mabi=64 -march=loongson2f", N64, "-march=r4600",
	 "machine extension loongson-2f, none expected (-march=r4600)"},
	{"mips4 object, mips3 asked", MIPS64, "-c -mabi=64 -march=mips4", N64, "-march=mips3",
	 "ISA mips4 is above the mips3 that -march=mips3 asks"},
	{"mips3 object, mips4 asked", MIPS64, "-c -mabi=64 -march=mips3", N64, "-mips4",
	 "ISA mips3, mips4 expected (-mips4)"},
	{"soft float, hard asked", MIPS64, "-c -mabi=32 -msoft-float", N64, "-mabi=32 -mhard-float",
	 "FP ABI soft, hardware float expected (-mhard-float)"},
	{"nan2008, legacy asked", MIPS64, "-c -mabi=64 -march=mips64r2 -mnan=2008", N64,
	 "-march=mips64r2 -mnan=legacy", "NaN encoding 2008, legacy expected (-mnan=legacy)"},
	{"big-endian for mips64el", MIPS64, "-c -mabi=64 -EB", N64, "-mabi=64",
	 "byte order big-endian, little-endian expected (target " N64 ")"},
	/* Linked with Debian's release-2 libc: the file says mips64r2. */
	{"mips3 linked with Debian's libc", MIPS64, "-O2 -mabi=64 -march=mips3", N64,
	 "-mabi=64 -march=mips3",
	 "ISA mips64r2 is above the mips3 that -march=mips3 asks (an object built for a later "
	 "ISA was linked in)", NULL, CRT64},
	{"r4600 n32 static with Debian's libc", MIPS64, "-O2 -mabi=n32 -march=r4600 -static", N64,
	 "-mabi=n32 -march=r4600", "ISA mips64r2 is above the mips3 that -march=r4600 asks", NULL,
	 CRTN32},
	{"mips64r2 linked with Debian's libc", MIPS64, "-O2 -mabi=64 -march=mips64r2", N64,
	 "-mabi=64 -march=mips64r2", NULL, NULL, CRT64},
	{"x86 code for a MIPS target", "gcc", "-c -O2", N64, "-O2",
	 "machine x86-64, mips expected (target " N64 ")"},
	{"clang without --target", "clang", "-c -O2", N64, "clang -O2",
	 "machine x86-64, mips expected (target " N64 ")"},
	{"clang --target mips64el", "clang", "-c -O2 --target=" N64, NULL,
	 "clang --target=" N64 " -O2", NULL},
	{"native", "gcc", "-c -O2", NULL, "-O2", NULL},
	{"native -m32", "gcc", "-c -O2 -m32", NULL, "-O2 -m32", NULL},
	{"-m32 code, native asked", "gcc", "-c -O2 -m32", NULL, "-O2",
	 "machine i386, x86-64 expected (native "},
	{"native -mx32", "gcc", "-c -O2 -mx32", NULL, "-mx32", NULL},
	{"x86-64-v3 needed, v2 asked", "gcc", "-c -O2 -march=x86-64-v3 -mneeded", NULL,
	 "-march=x86-64-v2", "ISA x86-64-v3 is above the x86-64-v2 that -march=x86-64-v2 asks"},
	{"x86-64-v3 needed, v4 asked", "gcc", "-c -O2 -march=x86-64-v3 -mneeded", NULL,
	 "-march=x86-64-v4", NULL},
	{"aarch64", "aarch64-linux-gnu-gcc", "-c -O2", "aarch64-linux-gnu", "-mcpu=cortex-a72", NULL},
	{"aarch64 for a MIPS target", "aarch64-linux-gnu-gcc", "-c -O2", N64, "-O2",
	 "machine aarch64, mips expected"},
};

static void run_arch_case(const char *dir, const struct arch_case *c, size_t index)
{
	struct elf_facts f;
	struct strbuf err = {0};
	struct strlist m = {0};
	struct elf_expect e;
	char *out;

	if (!have_compiler(c->cc)) {
		printf("SKIP: %s: %s is not installed (scripts/packages.txt lists it)\n", c->name,
		       c->cc);
		cases_skipped++;
		return;
	}
	if (c->needs && !file_exists(c->needs)) {
		printf("SKIP: %s: no %s (the cross libc that %s's package recommends)\n", c->name,
		       c->needs, c->cc);
		cases_skipped++;
		return;
	}
#if !defined(__x86_64__) || defined(__ILP32__)
	if (!c->target) {
		printf("SKIP: %s: native cases assume an x86-64 host\n", c->name);
		cases_skipped++;
		return;
	}
#endif
	out = xasprintf("%s/arch%zu.elf", dir, index);
	if (compile(dir, c->cc, c->flags, out)) {
		T_CHECK(0, "%s: could not build the fixture", c->name);
		free(out);
		return;
	}
	cases_run++;
	if (elf_facts_read(out, &f, &err)) {
		T_CHECK(0, "%s: %s", c->name, sb_str(&err));
		sb_release(&err);
		free(out);
		return;
	}
	elf_expect_derive(c->target, c->expect, &e);
	int n = elf_expect_check(&f, &e, &m);
	T_CHECK(n == (int)m.n, "%s: returned %d for %zu lines", c->name, n, m.n);
	if (!c->mismatch)
		T_CHECK(m.n == 0, "%s: '%s' gives '%s'", c->name, c->expect, m.n ? m.v[0] : "");
	else
		T_CHECK(m.n >= 1 && str_starts_with(m.v[0], c->mismatch) &&
				(c->second ? m.n == 2 && str_starts_with(m.v[1], c->second) : m.n == 1),
			"%s: '%s' gives %zu lines: '%s' '%s'", c->name, c->expect, m.n,
			m.n ? m.v[0] : "", m.n > 1 ? m.v[1] : "");
	sl_release(&m);
	/* Without a target, verify reads the flags for the file's machine:
	 * a file as asked stays clean. */
	if (!c->mismatch && c->target) {
		elf_expect_for_file(&f, c->expect, &e);
		T_CHECK(elf_expect_check(&f, &e, &m) == 0, "%s: for the file: '%s'", c->name,
			m.n ? m.v[0] : "");
		sl_release(&m);
	}
	elf_facts_release(&f);
	free(out);
}

/* The flags-override fixture: its Makefile appends -O2 to kernel.c's
 * CFLAGS; with CFLAGS=-O3 that unit must be named. */
static void test_flags_override(const char *tmp, const char *cc, const char *cflags)
{
	char *dir = xasprintf("%s/flags-override-%s", tmp, cc);
	char *src = xasprintf("%s/tests/fixtures/flags-override", FLAGSCOPE_SOURCE_DIR);
	char *prog = xasprintf("%s/prog", dir);
	char *cmd = xasprintf("make -s -C '%s' CC=%s CFLAGS='%s'", dir, cc, cflags);
	char *log = NULL;
	struct elf_facts f;
	struct strbuf err = {0};
	struct strlist m = {0};

	remove_tree(dir);
	if (!have_compiler(cc)) {
		printf("SKIP: flags-override with %s: not installed\n", cc);
		goto out;
	}
	T_CHECK(copy_tree(src, dir) == 0, "copy %s", src);
	if (run_shell_capture(cmd, &log)) {
		T_CHECK(0, "%s: %s", cmd, log ? log : "");
		goto out;
	}
	cases_run++;
	if (elf_facts_read(prog, &f, &err)) {
		T_CHECK(0, "%s: %s", prog, sb_str(&err));
		goto out;
	}
	T_CHECK(elf_facts_check(&f, "-O3", -1, dir, &m) == 1 && m.n == 1 &&
			!strcmp(m.v[0], "unit kernel.c: -O3 expected, -O2 given last"),
		"%s: %zu mismatches, first '%s'", cmd, m.n, m.n ? m.v[0] : "");
	sl_release(&m);
	T_CHECK(elf_facts_check(&f, "-O2", -1, dir, &m) == 1 && m.n == 1 &&
			str_starts_with(m.v[0], "unit main.c: -O2 expected, -O3 given last"),
		"%s: -O2: '%s'", cmd, m.n ? m.v[0] : "");
	sl_release(&m);
	/* No unit lies under another directory: that itself is a finding. */
	if (find_unit(&f, "main.c") && find_unit(&f, "main.c")->path) {
		T_CHECK(elf_facts_check(&f, "-O3", -1, "/nonexistent/src", &m) == 1 && m.n == 1 &&
				strstr(m.v[0], "no compile unit under /nonexistent/src"),
			"%s: foreign prefix: '%s'", cmd, m.n ? m.v[0] : "");
		sl_release(&m);
	}
	elf_facts_release(&f);
out:
	free(log);
	free(cmd);
	free(prog);
	free(src);
	free(dir);
}

/* ---- units only the symbol table names ---- */

static const char unrecorded_main[] =
	"/* test_elf: main.c of the unrecorded-unit case, built with the flags */\n"
	"int puts(const char *);\n"
	"int helper(int);\n"
	"int main(void) { puts(\"unrecorded\"); return helper(3) != 10; }\n";
static const char unrecorded_helper[] =
	"/* test_elf: helper.c, built plain (no -g, no record flag) */\n"
	"static int sq(int x) { return x * x; }\n"
	"int helper(int x) { return sq(x) + 1; }\n";

static const struct elf_unit *symtab_unit(const struct elf_facts *f, const char *name)
{
	for (size_t i = 0; i < f->nunits; i++)
		if (f->units[i].origin == ELF_UNIT_SYMTAB && !strcmp(f->units[i].name, name))
			return &f->units[i];
	return NULL;
}

/* Build dir/prog from main.c (main_flags) and helper.o (helper_flags);
 * read it into *f.  0, or -1 (reported) when it cannot be built. */
static int build_two_units(const char *dir, const char *cc, const char *main_flags,
			   const char *helper_flags, const char *link_flags, struct elf_facts *f)
{
	char *cmd = xasprintf("cd '%s' && %s %s -c -o helper.o helper.c && %s %s %s -o prog "
			      "main.c helper.o", dir, cc, helper_flags, cc, main_flags, link_flags);
	char *log = NULL, *prog = xasprintf("%s/prog", dir);
	struct strbuf err = {0};
	int rc = run_shell_capture(cmd, &log);

	if (rc)
		T_CHECK(0, "%s: %s", cmd, log ? log : "");
	else if ((rc = elf_facts_read(prog, f, &err)))
		T_CHECK(0, "%s: %s", prog, sb_str(&err));
	sb_release(&err);
	free(log);
	free(prog);
	free(cmd);
	return rc;
}

static const struct unrecorded_case {
	const char *name, *cc, *main_flags, *helper_flags, *link_flags;
	int caught; /* 1: helper.c is named; 0: nothing proves it unrecorded */
} unrecorded_cases[] = {
	{"dynamic", "gcc", "-O3 -g -frecord-gcc-switches", "-O2", "", 1},
	{"static glibc", "gcc", "-O3 -g -frecord-gcc-switches", "-O2", "-static", 1},
	{"musl-gcc static", "musl-gcc", "-O3 -g", "-O2", "-static", 1},
	{"clang", "clang", "-O3 -g -grecord-command-line", "-O2", "", 1},
	/* helper.c recorded without -g: an anonymous record may be its own */
	{"record without -g", "gcc", "-O3 -g", "-O2 -frecord-gcc-switches", "", 0},
	/* helper.c with -g but other flags: DWARF names it, the switches
	 * check catches it, not this one */
	{"helper with -g", "gcc", "-O3 -g", "-O2 -g", "", 0},
};

static void test_unrecorded(const char *tmp)
{
	char *dir = xasprintf("%s/unrecorded", tmp);
	struct strlist sources = {0}, library = {0}, m = {0};

	remove_tree(dir);
	mkdir_p(dir, 0755);
	free(test_write(dir, "main.c", unrecorded_main));
	free(test_write(dir, "helper.c", unrecorded_helper));
	T_CHECK(elf_source_names(dir, &sources) == 0 && sources.n == 2 &&
			!strcmp(sources.v[0], "helper.c") && !strcmp(sources.v[1], "main.c"),
		"source names of %s: %zu", dir, sources.n);
	T_CHECK(elf_source_names("/nonexistent/dir", &sources) == -1, "a missing tree reads");
	for (size_t i = 0; i < ARRAY_SIZE(unrecorded_cases); i++) {
		const struct unrecorded_case *c = &unrecorded_cases[i];
		struct elf_facts f;
		if (!have_compiler(c->cc)) {
			printf("SKIP: unrecorded unit, %s: %s is not installed\n", c->name, c->cc);
			continue;
		}
		if (build_two_units(dir, c->cc, c->main_flags, c->helper_flags, c->link_flags, &f))
			continue;
		cases_run++;
		/* the switches of main.c alone are as asked: that check is blind
		 * (Debian's musl crt records its own -O2, so not there) */
		if (c->caught && strcmp(c->cc, "musl-gcc"))
			T_CHECK(elf_facts_check(&f, "-O3", -1, NULL, &m) == 0, "%s: switches: '%s'",
				c->name, m.n ? m.v[0] : "");
		sl_release(&m);
		int n = elf_facts_check_sources(&f, &sources, NULL, &m);
		if (c->caught) {
			T_CHECK(symtab_unit(&f, "helper.c"), "%s: no symbol-table unit helper.c",
				c->name);
			T_CHECK(n == 1 && m.n == 1 &&
					!strcmp(m.v[0], "unit helper.c: no switches recorded (nothing "
							"proves its flags)"),
				"%s: %d: '%s'", c->name, n, m.n ? m.v[0] : "");
		} else {
			T_CHECK(n == 0, "%s: '%s'", c->name, m.n ? m.v[0] : "");
		}
		sl_release(&m);
		T_CHECK(!symtab_unit(&f, "main.c"), "%s: main.c is also a symbol-table unit", c->name);
		/* a name the C library's objects carry is not the program's */
		sl_push(&library, "helper.c");
		T_CHECK(elf_facts_check_sources(&f, &sources, &library, &m) == 0, "%s: library: '%s'",
			c->name, m.n ? m.v[0] : "");
		sl_release(&m);
		sl_release(&library);
		struct strbuf js = {0};
		elf_facts_json(&f, NULL, &js);
		T_CHECK(!c->caught || strstr(sb_str(&js), "{\"name\":\"helper.c\",\"path\":null,"
						"\"producer\":null,\"switches\":null,"
						"\"origin\":\"symtab\"}"),
			"%s: JSON: %s", c->name, sb_str(&js));
		sb_release(&js);
		elf_facts_release(&f);
	}
	/* A library's names come from its objects and archives: an archive
	 * holding helper.o names helper.c. */
	char *cmd = xasprintf("cd '%s' && mkdir -p lib && gcc -c -O2 -o lib/helper.o helper.c && "
			      "rm -f lib/libh.a && ar rc lib/libh.a lib/helper.o && "
			      "cp helper.c lib/x.c && gcc -c -O2 -o lib/x.o lib/x.c && "
			      "ar rc lib/libh.a lib/x.o && rm lib/helper.o", dir);
	char *log = NULL, *lib = xasprintf("%s/lib", dir);
	if (have_compiler("gcc") && !run_shell_capture(cmd, &log)) {
		T_CHECK(elf_library_names(lib, &library) == 0 && sl_find(&library, "helper.c") >= 0 &&
				sl_find(&library, "x.c") >= 0,
			"library names: %zu", library.n);
		sl_release(&library);
		T_CHECK(elf_library_names("/nonexistent/lib", &library) == -1, "missing lib dir");
	}
	free(log);
	free(lib);
	free(cmd);
	sl_release(&sources);
	free(dir);
}

/* ---- hostile input ---- */

/* Read from memory: either facts, or "not a valid ELF: <reason>".  On
 * success the check and JSON walks run over the facts too. */
static int read_guarded(const char *what, const void *buf, size_t len, struct strbuf *reason)
{
	struct elf_facts f;
	struct strbuf err = {0};
	int rc = elf_facts_read_memory(what, buf, len, &f, &err);

	if (rc) {
		T_CHECK(str_starts_with(sb_str(&err), "not a valid ELF: ") && err.len > 17,
			"%s: error '%s'", what, sb_str(&err));
	} else {
		struct strlist m = {0};
		struct strbuf js = {0};
		elf_facts_check(&f, "-O2 -march=x86-64 -fno-inline", 1, "/src", &m);
		elf_facts_json(&f, &m, &js);
		sl_release(&m);
		sb_release(&js);
		elf_facts_release(&f);
	}
	if (reason)
		sb_add(reason, sb_str(&err));
	sb_release(&err);
	return rc;
}

static uint64_t rng_state = 0x5eed5eed12345678ull;

static uint64_t next_random(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void truncations(const char *what, const char *img, size_t len)
{
	size_t n = 0;
	for (size_t cut = 0; cut < len; cut += cut < 512 ? 1 : 7, n++) {
		char *copy = xmalloc(cut + 1);
		memcpy(copy, img, cut);
		T_CHECK(read_guarded(what, copy, cut, NULL) == -1, "%s cut at %zu: accepted", what,
			cut);
		free(copy);
	}
	printf("%s: %zu truncations rejected\n", what, n);
}

static void flips(const char *what, const char *img, size_t len, int count, size_t shoff)
{
	int rejected = 0;
	char *copy = xmalloc(len);
	for (int i = 0; i < count; i++) {
		int k = 1 + (int)(next_random() % 8);
		memcpy(copy, img, len);
		for (int j = 0; j < k; j++) {
			uint64_t r = next_random();
			size_t at;
			switch (r % 3) {
			case 0: /* the ELF header */
				at = (size_t)(r >> 8) % 64;
				break;
			case 1: /* the section header table */
				at = shoff + (size_t)(r >> 8) % (len - shoff);
				break;
			default:
				at = (size_t)(r >> 8) % len;
			}
			copy[at] = (char)(next_random() & 0xff);
		}
		rejected += read_guarded(what, copy, len, NULL) != 0;
	}
	printf("%s: %d byte-flipped copies, %d rejected, %d read\n", what, count, rejected,
	       count - rejected);
	free(copy);
}

typedef void (*craft_fn)(char *img, size_t len);

static Elf64_Ehdr *ehdr(char *img)
{
	return (Elf64_Ehdr *)img;
}

static Elf64_Shdr *shdr(char *img, size_t i)
{
	return (Elf64_Shdr *)(img + ehdr(img)->e_shoff) + i;
}

/* The i-th section (from 1) with bytes in the file, or 0. */
static size_t section_with_bytes(char *img, size_t nth)
{
	for (size_t i = 1; i < ehdr(img)->e_shnum; i++)
		if (shdr(img, i)->sh_type != SHT_NOBITS && shdr(img, i)->sh_size && !--nth)
			return i;
	return 0;
}

static size_t section_named(char *img, const char *name)
{
	Elf64_Shdr *strs = shdr(img, ehdr(img)->e_shstrndx);
	for (size_t i = 1; i < ehdr(img)->e_shnum; i++)
		if (!strcmp(img + strs->sh_offset + shdr(img, i)->sh_name, name))
			return i;
	return 0;
}

static void huge_shoff(char *img, size_t len)
{
	(void)len;
	ehdr(img)->e_shoff = 0xffffffffffff0000ull;
}

static void huge_shnum(char *img, size_t len)
{
	(void)len;
	ehdr(img)->e_shnum = 0xffff;
}

static void huge_phnum(char *img, size_t len)
{
	(void)len;
	ehdr(img)->e_phnum = 0xfff0;
}

static void bad_shstrndx(char *img, size_t len)
{
	(void)len;
	ehdr(img)->e_shstrndx = (Elf64_Half)(ehdr(img)->e_shnum + 5);
}

static void offset_past_end(char *img, size_t len)
{
	shdr(img, section_with_bytes(img, 1))->sh_offset = len - 1;
}

static void huge_size(char *img, size_t len)
{
	(void)len;
	shdr(img, section_with_bytes(img, 1))->sh_size = 1ull << 62;
}

static void overlapping(char *img, size_t len)
{
	(void)len;
	shdr(img, section_with_bytes(img, 2))->sh_offset =
		shdr(img, section_with_bytes(img, 1))->sh_offset;
}

static void unterminated_name(char *img, size_t len)
{
	Elf64_Shdr *strs = shdr(img, ehdr(img)->e_shstrndx);
	(void)len;
	img[strs->sh_offset + strs->sh_size - 1] = 'x';
	shdr(img, 1)->sh_name = (Elf64_Word)(strs->sh_size - 1);
}

static void unterminated_record(char *img, size_t len)
{
	Elf64_Shdr *s = shdr(img, section_named(img, ".GCC.command.line"));
	(void)len;
	img[s->sh_offset + s->sh_size - 1] = 'X';
}

static void unterminated_interp(char *img, size_t len)
{
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + ehdr(img)->e_phoff);
	(void)len;
	for (size_t i = 0; i < ehdr(img)->e_phnum; i++)
		if (ph[i].p_type == PT_INTERP)
			img[ph[i].p_offset + ph[i].p_filesz - 1] = 'x';
}

static void needed_outside(char *img, size_t len)
{
	Elf64_Shdr *s = shdr(img, section_named(img, ".dynamic"));
	Elf64_Dyn *d = (Elf64_Dyn *)(img + s->sh_offset);
	(void)len;
	for (size_t i = 0; i < s->sh_size / sizeof(*d); i++)
		if (d[i].d_tag == DT_NEEDED) {
			d[i].d_un.d_val = 0x7fffffff;
			break;
		}
}

static const struct craft_case {
	const char *name;
	int on_exe; /* 0: the -g object, 1: the linked program */
	craft_fn craft;
	const char *reason; /* substring of the reason; NULL = must be read */
} craft_cases[] = {
	{"section table past the end", 0, huge_shoff, ""},
	{"huge section count", 0, huge_shnum, ""},
	{"huge program header count", 1, huge_phnum, ""},
	{"name table index out of range", 0, bad_shstrndx, ""},
	{"section offset past the end", 0, offset_past_end, "extends past the end"},
	{"section size 2^62", 0, huge_size, "extends past the end"},
	{"overlapping sections", 0, overlapping, "overlap"},
	{"unterminated section name", 0, unterminated_name, "name"},
	{"unterminated interpreter", 1, unterminated_interp, "interpreter path is not terminated"},
	{"DT_NEEDED outside .dynstr", 1, needed_outside, "dynamic entry"},
	{"unterminated last .GCC.command.line string", 0, unterminated_record, NULL},
};

static void crafted(const char *obj, size_t objlen, const char *exe, size_t exelen)
{
	for (size_t i = 0; i < ARRAY_SIZE(craft_cases); i++) {
		const struct craft_case *c = &craft_cases[i];
		size_t len = c->on_exe ? exelen : objlen;
		char *img = xmalloc(len);
		struct strbuf reason = {0};
		memcpy(img, c->on_exe ? exe : obj, len);
		c->craft(img, len);
		int rc = read_guarded(c->name, img, len, &reason);
		if (c->reason)
			T_CHECK(rc == -1 && strstr(sb_str(&reason), c->reason), "%s: '%s'", c->name,
				rc ? sb_str(&reason) : "accepted");
		else
			T_CHECK(rc == 0, "%s: %s", c->name, sb_str(&reason));
		sb_release(&reason);
		free(img);
	}
}

/* Inputs that once crashed a reader (tests/fixtures/elf-crashes/). */
static void crash_regressions(void)
{
	char *dir = xasprintf("%s/tests/fixtures/elf-crashes", FLAGSCOPE_SOURCE_DIR);
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char *path;
		char *buf;
		size_t len;
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README.md"))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		buf = file_read(path, &len);
		T_CHECK(buf, "cannot read %s", path);
		if (buf)
			read_guarded(path, buf, len, NULL);
		n++;
		free(buf);
		free(path);
	}
	if (d)
		closedir(d);
	printf("elf-crashes: %d regression inputs read without a crash\n", n);
	free(dir);
}

static void test_hostile(const char *dir)
{
	char *obj_path = xasprintf("%s/hostile.o", dir), *exe_path = xasprintf("%s/hostile", dir);
	char *obj = NULL, *exe = NULL;
	size_t objlen = 0, exelen = 0;
	struct strbuf reason = {0};

	T_CHECK(read_guarded("empty", "", 0, &reason) == -1 &&
			!strcmp(sb_str(&reason), "not a valid ELF: the file is empty"),
		"empty: '%s'", sb_str(&reason));
	sb_release(&reason);
	T_CHECK(read_guarded("text", "#!/bin/sh\necho hi\n", 18, &reason) == -1 &&
			!strcmp(sb_str(&reason), "not a valid ELF: no ELF magic number"),
		"text: '%s'", sb_str(&reason));
	sb_release(&reason);
	crash_regressions();
	if (!have_compiler("gcc") ||
	    compile(dir, "gcc", "-c -O2 -g -frecord-gcc-switches", obj_path) ||
	    compile(dir, "gcc", "-O2 -g -frecord-gcc-switches", exe_path)) {
		printf("SKIP: hostile input from real files: gcc cannot build them\n");
		goto out;
	}
	obj = file_read(obj_path, &objlen);
	exe = file_read(exe_path, &exelen);
	T_CHECK(obj && exe && objlen > sizeof(Elf64_Ehdr) && exelen > sizeof(Elf64_Ehdr),
		"fixtures unreadable");
	if (!obj || !exe)
		goto out;
	T_CHECK(read_guarded("object", obj, objlen, NULL) == 0, "the real object is rejected");
	T_CHECK(read_guarded("program", exe, exelen, NULL) == 0, "the real program is rejected");
	truncations("object", obj, objlen);
	truncations("program", exe, exelen);
	flips("object", obj, objlen, 3000, ehdr(obj)->e_shoff);
	flips("program", exe, exelen, 3000, ehdr(exe)->e_shoff);
	crafted(obj, objlen, exe, exelen);
out:
	free(obj);
	free(exe);
	free(obj_path);
	free(exe_path);
}

/* -ffast-math links libgcc's crtfastmath.o in; its unit (Debian's libgcc
 * has DWARF) records libgcc's flags, not the program's: not a mismatch
 * (verify over cjson's -ffast-math tree reported it, issue 30) */
static void test_libgcc_unit(void)
{
	struct elf_unit u[2] = {
		{.name = "cJSON.c", .switches = "-march=x86-64 -g -O2 -ffast-math -fPIC"},
		{.name = "../../../src/libgcc/config/i386/crtfastmath.c",
		 .switches = "-march=x86-64 -g -O2 -fbuilding-libgcc -fno-stack-protector -fpic"},
	};
	struct elf_facts f = {.is_static = 0, .units = u, .nunits = 2};
	struct strlist m = {0};
	T_CHECK(elf_facts_check(&f, "-O2 -ffast-math", -1, NULL, &m) == 0,
		"libgcc's unit judged: %zu mismatches, first '%s'", m.n, m.n ? m.v[0] : "");
	sl_release(&m);
	u[0].switches = "-march=x86-64 -g -O2 -fPIC";
	T_CHECK(elf_facts_check(&f, "-O2 -ffast-math", -1, NULL, &m) == 1 && m.n == 1 &&
			strstr(m.v[0], "cJSON.c"),
		"the program's unit without -ffast-math: %zu mismatches", m.n);
	sl_release(&m);
}

int main(void)
{
	char *dir = test_tmpdir("elf");
	char *src = test_write(dir, "fixture.c", fixture_src);

	for (size_t i = 0; i < ARRAY_SIZE(build_cases); i++)
		run_build_case(dir, &build_cases[i], i);
	test_derive();
	test_libgcc_unit();
	for (size_t i = 0; i < ARRAY_SIZE(arch_cases); i++)
		run_arch_case(dir, &arch_cases[i], i);
	test_flags_override(dir, "gcc", "-O3 -g -frecord-gcc-switches");
	test_flags_override(dir, "clang", "-O3 -frecord-command-line");
	test_unrecorded(dir);
	test_hostile(dir);
	free(src);
	free(dir);
	if (!cases_run) {
		printf("SKIP: no compiler could build a fixture (%d cases skipped)\n", cases_skipped);
		return 77;
	}
	return test_summary("test_elf");
}
