/*
 * test_layout_check.c - harness/layout_check.h and the layout variants of
 * flagsets/matrix.h on real builds of the bundled workloads crc32 and
 * alias4k (and libcbench, several files), by gcc and (where installed)
 * clang: each built as variant 0 (-O2 -ffunction-sections, the default
 * linker: matrix_layout_base) and as variants 1, 2 and 3 of `layouts = 4`
 * (matrix_layout_flags: -ffunction-sections, lld's function order by
 * seed v, alignment 32, 64 or the default, --emit-relocs).
 *
 * Expected: all checks pass.
 *  - every variant has the plain build's functions, each of the same size
 *    and the same bytes but inside the address fields its relocations
 *    name, and some at other addresses: the check passes;
 *  - the variants' function orders (names sorted by address, as `nm -n`
 *    reads them from the ELF files) are not all the same where there are
 *    two functions to order (clang's crc32 has main only), and variant 1
 *    built again is the same file byte for byte (the seed decides);
 *  - static links (gcc with glibc's libc.a, musl-gcc where installed):
 *    variant 1 passes and prints what the plain build prints;
 *  - the same variant 0 again (nothing moved), an -O0 build (other
 *    functions or sizes), variant 1 linked without --emit-relocs (its moved calls
 *    cannot be told from other code) and variant 1 with one byte of main
 *    changed (same size, other code) fail, each with its reason.
 * SKIP (77) when gcc or ld.lld is not here.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "flagsets/matrix.h"
#include "harness/layout_check.h"
#include "tests/testlib.h"

static char *dir;

/* variant 0 of -O2 (matrix_layout_base): its functions in sections, linked
 * by the default linker in the compiler's order */
#define V0_FLAGS "-O2 -ffunction-sections"

static int sh(const char *cmd)
{
	int rc = system(cmd);
	return WIFEXITED(rc) && WEXITSTATUS(rc) == 0 ? 0 : -1;
}

/* CC CFLAGS -o DIR/OUT (every .c file of workloads/NAME) LDFLAGS; 0 when it built. */
static int build(const char *cc, const char *name, const char *cflags, const char *ldflags,
		 const char *out)
{
	char *cmd = xasprintf("%s %s -o '%s/%s' '%s/workloads/%s/'*.c -lpthread -lm %s 2>/dev/null",
			      cc, cflags, dir, out, FLAGSCOPE_SOURCE_DIR, name, ldflags);
	int rc = sh(cmd);
	free(cmd);
	return rc;
}

/* variant v of -O2 (and -static): its flags from the matrix, as a study
 * builds it */
static int build_variant_of(const char *cc, const char *name, const char *base, int v,
			    int relocs, const char *out)
{
	struct strbuf cflags = {0}, ldflags = {0};
	sb_add(&cflags, base);
	matrix_layout_flags(v, &cflags, &ldflags);
	char *keep = strstr(ldflags.buf, " -Wl,--emit-relocs"); /* the last of them */
	if (!relocs && keep)
		*keep = '\0';
	int rc = build(cc, name, cflags.buf, ldflags.buf, out);
	sb_release(&cflags);
	sb_release(&ldflags);
	return rc;
}

static int build_variant(const char *cc, const char *name, int v, int relocs, const char *out)
{
	return build_variant_of(cc, name, "-O2", v, relocs, out);
}

static int compare(const char *a, const char *b, struct layout_diff *d, struct strbuf *why)
{
	char *pa = xasprintf("%s/%s", dir, a), *pb = xasprintf("%s/%s", dir, b);
	memset(d, 0, sizeof(*d));
	int rc = layout_compare_files(pa, pb, d, why);
	free(pa);
	free(pb);
	return rc;
}

/* The names of the sized functions in address order, as nm reads them */
static char *function_order(const char *file)
{
	char *cmd = xasprintf("nm -n -S --defined-only '%s/%s' | awk 'NF == 4 && $3 ~ /^[tTW]$/ "
			      "{ printf \"%%s \", $4 }'", dir, file);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL}, *out = NULL;
	if (run_capture(argv, &out)) {
		free(out);
		out = xstrdup("(nm failed)");
	}
	free(cmd);
	return out ? out : xstrdup("");
}

/* Flip the first byte of FILE's main (an opcode: no relocation patches
 * it); 0 when done. */
static int flip_main(const char *file)
{
	char *path = xasprintf("%s/%s", dir, file);
	int fd = open(path, O_RDWR), rc = -1;
	free(path);
	Elf *elf = fd >= 0 && elf_version(EV_CURRENT) != EV_NONE ? elf_begin(fd, ELF_C_READ, NULL)
							       : NULL;
	off_t at = -1;
	for (Elf_Scn *scn = NULL; elf && (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !d)
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			GElf_Shdr text;
			const char *nm = gelf_getsym(d, (int)i, &s) ? elf_strptr(elf, sh.sh_link, s.st_name) : NULL;
			if (nm && !strcmp(nm, "main") && gelf_getshdr(elf_getscn(elf, s.st_shndx), &text))
				at = (off_t)(s.st_value - text.sh_addr + text.sh_offset);
		}
	}
	unsigned char byte;
	if (at >= 0 && pread(fd, &byte, 1, at) == 1) {
		byte ^= 0x01;
		rc = pwrite(fd, &byte, 1, at) == 1 ? 0 : -1;
	}
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return rc;
}

static void check_variant(const char *tag, const char *plain, const char *var, int v)
{
	struct layout_diff d;
	struct strbuf why = {0}, what = {0};
	matrix_layout_describe(v, &what);
	int rc = compare(plain, var, &d, &why);
	int ok = !rc && layout_diff_ok(&d, &why);
	T_CHECK(ok && d.functions > 0 && !d.resized && !d.only_one && !d.other_bytes &&
			d.moved > 0 && d.relocations > 0,
		"%s variant %d (%s): %s; %zu functions, %zu resized, %zu other bytes, %zu moved",
		tag, v, what.buf, sb_str(&why), d.functions, d.resized, d.other_bytes, d.moved);
	printf("%s variant %d (%s): %zu functions, same sizes, %zu moved, %zu of %zu bytes "
	       "differ (all in address fields: %zu relocations), order %s\n",
	       tag, v, what.buf, d.functions, d.moved, d.address_bytes, d.code_bytes,
	       d.relocations, d.reordered ? "changed" : "kept");
	sb_release(&why);
	sb_release(&what);
}

/* a comparison that must fail, its reason containing want or (if not
 * NULL) or_want */
static void check_fails(const char *tag, const char *plain, const char *other, const char *want,
			const char *or_want)
{
	struct layout_diff d;
	struct strbuf why = {0};
	T_CHECK(!compare(plain, other, &d, &why) && !layout_diff_ok(&d, &why) &&
			(strstr(sb_str(&why), want) || (or_want && strstr(sb_str(&why), or_want))),
		"%s: %s fails with '%s': %s", tag, other, want, sb_str(&why));
	printf("%s %s: %s\n", tag, other, sb_str(&why));
	sb_release(&why);
}

static void check_workload(const char *cc, const char *name)
{
	char tag[64], plain[96], file[96];
	snprintf(tag, sizeof(tag), "%s %s", cc, name);
	snprintf(plain, sizeof(plain), "%s-%s-plain", cc, name);
	T_CHECK(!build(cc, name, V0_FLAGS, "", plain), "%s: variant 0", tag);
	char *orders[4] = {0};
	for (int v = 1; v <= 3; v++) {
		snprintf(file, sizeof(file), "%s-%s-layout%d", cc, name, v);
		T_CHECK(!build_variant(cc, name, v, 1, file), "%s: variant %d builds", tag, v);
		check_variant(tag, plain, file, v);
		orders[v] = function_order(file);
		printf("%s variant %d order: %s\n", tag, v, orders[v]);
	}
	/* _start (crt1's .text) stays first: with one function of its own
	 * (clang inlines all of crc32 into main) there is no order to change */
	struct strlist words = {0};
	sl_split_ws(&words, orders[1]);
	if (words.n >= 3)
		T_CHECK(strcmp(orders[1], orders[2]) || strcmp(orders[2], orders[3]),
			"%s: variants 1-3 all have one function order: %s", tag, orders[1]);
	else
		printf("%s: %zu functions, nothing to reorder: the variants differ by alignment\n",
		       tag, words.n);
	sl_release(&words);
	for (int v = 1; v <= 3; v++)
		free(orders[v]);

	char *cmp = xasprintf("cmp -s '%s/%s-%s-layout1' '%s/%s-%s-layout1b'", dir, cc, name, dir, cc,
			      name);
	snprintf(file, sizeof(file), "%s-%s-layout1b", cc, name);
	T_CHECK(!build_variant(cc, name, 1, 1, file) && !sh(cmp),
		"%s: variant 1 built twice differs (not reproducible from its seed)", tag);
	free(cmp);

	snprintf(file, sizeof(file), "%s-%s-again", cc, name);
	T_CHECK(!build(cc, name, V0_FLAGS, "", file), "%s: variant 0 again", tag);
	check_fails(tag, plain, file, "none of", NULL);
	snprintf(file, sizeof(file), "%s-%s-o0", cc, name);
	T_CHECK(!build(cc, name, "-O0", "", file), "%s: -O0", tag);
	check_fails(tag, plain, file, "in one build only", "changed size");
	snprintf(file, sizeof(file), "%s-%s-norelocs", cc, name);
	T_CHECK(!build_variant(cc, name, 1, 0, file), "%s: variant 1 without relocations", tag);
	check_fails(tag, plain, file, "kept no relocations", NULL);
	snprintf(file, sizeof(file), "%s-%s-layout1b", cc, name);
	T_CHECK(!flip_main(file), "%s: main's first byte flipped", tag);
	check_fails(tag, plain, file, "outside address fields, the first at main+0x0", NULL);
}

/* A program of several files (libcbench): variants 1 and 2 pass against
 * variant 0.  Against a build without -ffunction-sections they may not
 * (said, not asserted: gas encodes some jumps and pads otherwise for a
 * function in a section of its own; clang 14's libcbench showed it). */
static void check_multi(const char *cc, const char *name)
{
	char tag[64], plain[96], bare[96], var[96];
	snprintf(tag, sizeof(tag), "%s %s", cc, name);
	snprintf(plain, sizeof(plain), "%s-%s-plain", cc, name);
	snprintf(bare, sizeof(bare), "%s-%s-nosections", cc, name);
	if (sh(strcmp(cc, "gcc") ? "clang --version >/dev/null 2>&1" : "true"))
		return;
	T_CHECK(!build(cc, name, V0_FLAGS, "", plain) && !build(cc, name, "-O2", "", bare),
		"%s: variant 0 and -O2 build", tag);
	for (int v = 1; v <= 2; v++) {
		snprintf(var, sizeof(var), "%s-%s-layout%d", cc, name, v);
		T_CHECK(!build_variant(cc, name, v, 1, var), "%s: variant %d builds", tag, v);
		check_variant(tag, plain, var, v);
	}
	struct layout_diff d;
	struct strbuf why = {0};
	int ok = !compare(bare, var, &d, &why) && layout_diff_ok(&d, &why);
	printf("%s: variant 2 against -O2 without -ffunction-sections: %s%s\n", tag,
	       ok ? "passes" : "fails: ", ok ? "" : sb_str(&why));
	sb_release(&why);
}

/* DIR/FILE ARGS's stdout (heap), or NULL when it did not exit 0 */
static char *output_of(const char *file, const char *args)
{
	char *cmd = xasprintf("'%s/%s' %s", dir, file, args);
	char *argv[] = {"/bin/sh", "-c", cmd, NULL}, *out = NULL;
	if (run_capture(argv, &out)) {
		free(out);
		out = NULL;
	}
	free(cmd);
	return out;
}

/* Static links (glibc's libc.a, musl's): variant 1 passes the check and
 * prints what the plain build prints.  (A static libc's own .text.*
 * sections are shuffled too; musl-gcc's specs name an interpreter that
 * lld would keep without -Wl,--no-dynamic-linker.) */
static void check_static(const char *cc, const char *name, const char *args)
{
	char plain[96], var[96];
	snprintf(plain, sizeof(plain), "%s-%s-static", cc, name);
	snprintf(var, sizeof(var), "%s-%s-static-layout1", cc, name);
	T_CHECK(!build(cc, name, V0_FLAGS " -static", "", plain) &&
			!build_variant_of(cc, name, "-O2 -static", 1, 1, var),
		"%s %s -static: builds", cc, name);
	char tag[64];
	snprintf(tag, sizeof(tag), "%s %s -static", cc, name);
	check_variant(tag, plain, var, 1);
	char *a = output_of(plain, args), *b = output_of(var, args);
	T_CHECK(a && b && !strcmp(a, b), "%s: variant 1's output is not the plain build's: %s / %s",
		tag, a ? a : "(failed)", b ? b : "(failed)");
	free(a);
	free(b);
}

int main(void)
{
	if (sh("gcc --version >/dev/null 2>&1") || sh("ld.lld --version >/dev/null 2>&1")) {
		printf("SKIP: no gcc or no ld.lld here (layout variants link with lld: apt-get install lld)\n");
		return 77;
	}
	dir = test_tmpdir("layout_check");
	static const char *const ccs[] = {"gcc", "clang"};
	for (size_t i = 0; i < ARRAY_SIZE(ccs); i++) {
		char *probe = xasprintf("%s --version >/dev/null 2>&1", ccs[i]);
		int here = !sh(probe);
		free(probe);
		if (!here) {
			printf("%s: not here, not tried\n", ccs[i]);
			continue;
		}
		check_workload(ccs[i], "crc32");
		check_workload(ccs[i], "alias4k");
	}
	for (size_t i = 0; i < ARRAY_SIZE(ccs); i++)
		check_multi(ccs[i], "libcbench");
	check_static("gcc", "crc32", "1");
	if (!sh("musl-gcc --version >/dev/null 2>&1"))
		check_static("musl-gcc", "crc32", "1");
	else
		printf("musl-gcc: not here, not tried\n");
	struct layout_diff d = {0};
	struct strbuf why = {0};
	T_CHECK(layout_compare_files("/nonexistent", "/nonexistent", &d, &why) == -1 &&
			strstr(sb_str(&why), "/nonexistent"),
		"a missing file: %s", sb_str(&why));
	sb_release(&why);
	return test_summary("test_layout_check");
}
