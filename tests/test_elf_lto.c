/*
 * test_elf_lto.c - harness/elf_lto.c's object scan on a tree of planted
 * files (no compiler needed): raw LLVM bitcode ('B' 'C' 0xC0 0xDE) and the
 * bitcode wrapper (0x0B17C0DE little-endian) count as bitcode, an ELF
 * object as machine code; files not named *.o, objects shorter than their
 * magic and objects in hidden folders (.git, .deps) are not counted, those
 * in libtool's .libs are.  And elf_lto_check_tree's verdicts: not asked
 * without -flto or for a GCC-built file, verified, missing (a mismatch),
 * not judged.
 */
#include "harness/elf.h"

#include <string.h>

#include "tests/testlib.h"

static void plant(const char *dir, const char *name, const void *bytes, size_t n)
{
	test_plant(dir, name, bytes, n);
}

static const unsigned char raw[] = {'B', 'C', 0xC0, 0xDE, 0x35, 0x14},
			   wrapper[] = {0xDE, 0xC0, 0x17, 0x0B, 0, 0, 0, 0},
			   elf[] = {0x7f, 'E', 'L', 'F', 2, 1, 1};

static void test_scan(const char *dir)
{
	char *tree = xasprintf("%s/tree", dir);
	plant(tree, "a.o", raw, sizeof(raw));
	plant(tree, "sub/b.o", wrapper, sizeof(wrapper));
	plant(tree, "c.o", elf, sizeof(elf));
	plant(tree, ".libs/d.o", raw, sizeof(raw));
	plant(tree, ".deps/e.o", raw, sizeof(raw));
	plant(tree, "f.bc", raw, sizeof(raw));
	plant(tree, "short.o", raw, 2);
	struct elf_lto_objects o;
	T_CHECK(!elf_lto_objects_scan(tree, &o), "scan %s", tree);
	T_CHECK(o.bitcode == 3 && o.machine == 1, "bitcode %zu (want 3), machine %zu (want 1)",
		o.bitcode, o.machine);
	T_CHECK(o.first_machine && strstr(o.first_machine, "/tree/c.o"), "first %s",
		o.first_machine ? o.first_machine : "(none)");
	elf_lto_objects_release(&o);
	char *missing = xasprintf("%s/nowhere", dir);
	T_CHECK(elf_lto_objects_scan(missing, &o) == -1, "a missing tree is -1");
	elf_lto_objects_release(&o);
	free(missing);
	free(tree);
}

/* A file clang compiled (one DWARF unit), or GCC. */
static void fake_facts(struct elf_facts *f, struct elf_unit *u, const char *producer)
{
	memset(f, 0, sizeof(*f));
	memset(u, 0, sizeof(*u));
	u->name = (char *)"a.c";
	u->producer = (char *)producer;
	u->switches = (char *)"-O2 -flto";
	f->units = u;
	f->nunits = 1;
}

static void test_verdicts(const char *dir)
{
	static const struct {
		const char *producer, *expect, *tree; /* tree under dir, or NULL */
		enum elf_lto_state want;
		const char *why; /* a part of it */
	} cases[] = {
		{"Debian clang version 14.0.6", "-O2", "bc", ELF_LTO_NOT_ASKED, NULL},
		{"GNU C17 12.2.0 -O2 -flto", "-O2 -flto", "machine", ELF_LTO_NOT_ASKED, NULL},
		{"Debian clang version 14.0.6", "-O2 -flto=thin", "bc", ELF_LTO_VERIFIED,
		 "verified: 1 of the 1 objects"},
		{"Debian clang version 14.0.6", "-O2 -flto", "machine", ELF_LTO_MISSING,
		 "no LTO: none of the 1 objects"},
		{"Debian clang version 14.0.6", "-O2 -flto", "empty", ELF_LTO_NOT_JUDGED,
		 "holds no object file"},
		{"Debian clang version 14.0.6", "-O2 -flto", NULL, ELF_LTO_NOT_JUDGED,
		 "no build tree was given"},
		{"Debian clang version 14.0.6", "-O2 -flto -fno-lto", "bc", ELF_LTO_NOT_ASKED, NULL},
	};
	char *bc = xasprintf("%s/v/bc", dir), *machine = xasprintf("%s/v/machine", dir);
	char *empty = xasprintf("%s/v/empty", dir);
	plant(bc, "x.o", raw, sizeof(raw));
	plant(machine, "x.o", elf, sizeof(elf));
	mkdir_p(empty, 0755);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct elf_facts f;
		struct elf_unit u;
		struct strlist mism = {0};
		char *why;
		fake_facts(&f, &u, cases[i].producer);
		char *tree = cases[i].tree ? xasprintf("%s/v/%s", dir, cases[i].tree) : NULL;
		enum elf_lto_state s = elf_lto_check_tree(&f, cases[i].expect, tree, &mism, &why);
		T_CHECK(s == cases[i].want, "case %zu: state %d, want %d (%s)", i, (int)s,
			(int)cases[i].want, why ? why : "");
		T_CHECK(cases[i].why ? why && strstr(why, cases[i].why) != NULL : why == NULL,
			"case %zu: why %s", i, why ? why : "(null)");
		T_CHECK(mism.n == (s == ELF_LTO_MISSING), "case %zu: %zu mismatches", i, mism.n);
		free(why);
		free(tree);
		sl_release(&mism);
	}
	free(bc);
	free(machine);
	free(empty);
}

int main(void)
{
	char *dir = test_tmpdir("test_elf_lto");
	test_scan(dir);
	test_verdicts(dir);
	free(dir);
	return test_summary("test_elf_lto");
}
