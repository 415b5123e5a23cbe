/* sysroot.c - build musl and the compiler's runtime helpers with a
 * configuration's target flags; see sysroot.h for what and why. */
#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/sysroot.h"
#include "harness/sysroot_internal.h"
#include "harness/toolchain.h"
#include "workloads/recipe.h"

/* Bump when the layout or the build steps change: old sysroots are then
 * rebuilt under a new key rather than reused. */
#define SYSROOT_RECIPE "flagscope-sysroot-2"

/* compiler-rt builtins that GCC may call for integer work on a CPU without
 * the instruction (clz, ctz, popcount, byte swap, 64-bit arithmetic on
 * 32-bit ABIs, 128-bit on 64-bit ones); int_util has their abort helper. */
static const char int_routines[] =
	"int_util absvdi2 absvsi2 addvdi3 addvsi3 ashldi3 ashrdi3 bswapdi2 bswapsi2 "
	"clzdi2 clzsi2 cmpdi2 ctzdi2 ctzsi2 divdi3 divmoddi4 divmodsi4 divsi3 ffsdi2 "
	"ffssi2 lshrdi3 moddi3 modsi3 muldi3 mulodi4 mulosi4 mulvdi3 mulvsi3 negdi2 "
	"negvdi2 negvsi2 paritydi2 paritysi2 popcountdi2 popcountsi2 subvdi3 subvsi3 "
	"ucmpdi2 udivdi3 udivmoddi4 udivmodsi4 udivsi3 umoddi3 umodsi3 "
	/* float <-> 64-bit integer: o32 programs (gzip, lame) call them, and
	 * Debian's mips32r2 libgcc.a would make the link release-2 code */
	"floatdidf floatdisf floatundidf floatundisf fixdfdi fixsfdi fixunsdfdi fixunssfdi "
	"fixunsdfsi fixunssfsi";
static const char int128_routines[] =
	"absvti2 addvti3 ashlti3 ashrti3 clzti2 cmpti2 ctzti2 divti3 ffsti2 lshrti3 "
	"modti3 muloti4 multi3 mulvti3 negti2 negvti2 parityti2 popcountti2 subvti3 "
	"ucmpti2 udivmodti4 udivti3 umodti3 floattidf floattisf floatuntidf floatuntisf "
	"fixdfti fixsfti fixunsdfti fixunssfti";
/* glibc's soft-fp/Makefile names the quad routines libgcc has
 * (gcc-quad-routines); the TImode conversions are added on 64-bit. */
static const char tf_ti_routines[] = "fixtfti fixunstfti floattitf floatuntitf";

/* What glibc's soft-fp needs from glibc's own headers, for a build
 * outside glibc: byte order, __THROW, __GNUC_PREREQ (sys/cdefs.h),
 * strong_alias, the TImode types. */
static const char soft_fp_shim[] =
	"#include <endian.h>\n"
	"#define __THROW\n"
	"#ifndef __GNUC_PREREQ\n"
	"#define __GNUC_PREREQ(maj, min) ((__GNUC__ << 16) + __GNUC_MINOR__ >= ((maj) << 16) + (min))\n"
	"#endif\n"
	"#define strong_alias(name, aliasname) \\\n"
	"  extern __typeof (name) aliasname __attribute__ ((alias (#name)));\n"
	"#ifdef __SIZEOF_INT128__\n"
	"typedef int TItype __attribute__ ((mode (TI)));\n"
	"typedef unsigned int UTItype __attribute__ ((mode (TI)));\n"
	"#define TI_BITS (__CHAR_BIT__ * (int) sizeof (TItype))\n"
	"#endif\n";

/* What the compiler says the target flags mean. */
struct target {
	int mips, aarch64, little;
	int isa_rev;     /* __mips_isa_rev, 0 before release 2 */
	const char *abi; /* "o32", "n32", "n64", "lp64" */
	int quad_ldbl;   /* long double is IEEE binary128 */
	int int128;
	int fused_fma;   /* __FP_FAST_FMA */
	char *machine;   /* -dumpmachine: binutils' prefix */
};

struct build {
	const struct sysroot_spec *spec;
	struct toolchain tc;
	struct target t;
	struct strlist flags;  /* final target flags */
	struct strlist added;  /* the ones flagscope added */
	struct strlist notes;
	const char *musl_cflags;
	const char *musl_target;
	struct deb_source musl, glibc, llvm;
	char key[65];
	char *dir, *tmp;
	FILE *log;
	char *log_path;
};

static int macro_int(const char *macros, const char *name, int dflt)
{
	char *pat = xasprintf("#define %s ", name);
	const char *p = strstr(macros, pat);
	int v = p ? atoi(p + strlen(pat)) : dflt;

	free(pat);
	return v;
}

static int has_macro(const char *macros, const char *name)
{
	char *pat = xasprintf("#define %s ", name);
	int v = strstr(macros, pat) != NULL;

	free(pat);
	return v;
}

static int probe_macros(struct build *b, char **macros)
{
	struct strlist argv = {0};
	int rc;

	sl_split_ws(&argv, b->tc.command);
	for (size_t i = 0; i < b->flags.n; i++)
		sl_push(&argv, b->flags.v[i]);
	const char *tail[] = {"-dM", "-E", "-x", "c", "/dev/null"};
	for (size_t i = 0; i < ARRAY_SIZE(tail); i++)
		sl_push(&argv, tail[i]);
	sl_push_owned(&argv, NULL);
	rc = run_capture(argv.v, macros);
	sl_release(&argv);
	return rc;
}

static void add_flag(struct build *b, const char *flag, const char *why)
{
	sl_push(&b->flags, flag);
	sl_push(&b->added, flag);
	sl_push(&b->notes, why);
}

/* The final flags and what they mean; flags are only ever added, each
 * with its reason. */
static int resolve_target(struct build *b, struct strbuf *err)
{
	const struct sysroot_spec *s = b->spec;
	char *macros = NULL;
	int rc;

	sl_split_ws(&b->flags, s->cflags ? s->cflags : "");
	/* musl's configure takes CC and CFLAGS as blank-separated words */
	if (s->cflags && strpbrk(s->cflags, "'\"\\$`")) {
		sb_addf(err, "target flags '%s' contain quotes or $ (give plain words)", s->cflags);
		return -1;
	}
	if (s->fl == SYSROOT_FLOAT_SOFT)
		add_flag(b, "-msoft-float", "--float soft");
	else if (s->fl == SYSROOT_FLOAT_HARD)
		add_flag(b, "-mhard-float", "--float hard");
	rc = probe_macros(b, &macros);
	if (rc && sl_find(&b->flags, "-mfp32") < 0) {
		free(macros);
		sl_push(&b->flags, "-mfp32");
		if ((rc = probe_macros(b, &macros)) == 0) {
			b->flags.n--;
			free(b->flags.v[b->flags.n]);
			add_flag(b, "-mfp32", "-mfp32 added: the compiler refuses these flags "
					      "without it (-march=mips1 needs -mfp32)");
		}
	}
	if (rc) {
		sb_addf(err, "%s refuses the flags '%s': %s", b->tc.command, s->cflags ? s->cflags : "",
			macros ? str_trim(macros) : "");
		free(macros);
		return -1;
	}
	b->t.mips = has_macro(macros, "__mips");
	b->t.aarch64 = has_macro(macros, "__aarch64__");
	b->t.little = strstr(macros, "#define __BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__") != NULL;
	b->t.isa_rev = macro_int(macros, "__mips_isa_rev", 0);
	b->t.quad_ldbl = macro_int(macros, "__LDBL_MANT_DIG__", 0) == 113;
	b->t.int128 = has_macro(macros, "__SIZEOF_INT128__");
	b->t.fused_fma = has_macro(macros, "__FP_FAST_FMA");
	/* AArch64: Debian's libgcc is ARMv8.0 code that every AArch64 CPU
	 * runs, and glibc's aarch64 sfp-machine.h needs glibc-internal fenv
	 * macros (FE_EXCEPT_SHIFT); its tf routines come from -lgcc */
	if (has_macro(macros, "__aarch64__"))
		b->t.quad_ldbl = 0;
	if (b->t.mips) {
		const char *sim = strstr(macros, "#define _MIPS_SIM ");
		sim = sim ? sim + strlen("#define _MIPS_SIM ") : "";
		b->t.abi = str_starts_with(sim, "_ABI64") ? "n64"
			 : str_starts_with(sim, "_ABIN32") ? "n32" : "o32";
		b->musl_target = !strcmp(b->t.abi, "o32") ? (b->t.little ? "mipsel-linux-gnu" : "mips-linux-gnu")
			       : !strcmp(b->t.abi, "n32") ? (b->t.little ? "mips64el-linux-gnuabin32" : "mips64-linux-gnuabin32")
			       : (b->t.little ? "mips64el-linux-gnuabi64" : "mips64-linux-gnuabi64");
	} else if (b->t.aarch64) {
		b->t.abi = "lp64";
		b->musl_target = b->t.little ? "aarch64-linux-gnu" : "aarch64_be-linux-gnu";
	} else {
		free(macros);
		sb_addf(err, "%s: only MIPS and AArch64 sysroots are built (this compiler targets %s)",
			b->tc.command, b->tc.target ? b->tc.target : "?");
		return -1;
	}
	if (s->emulated && b->t.mips && b->t.fused_fma && b->t.isa_rev < 6) {
		add_flag(b, "-ffp-contract=off",
			 "-ffp-contract=off and musl built with -U__FP_FAST_FMA -U__FP_FAST_FMAF: "
			 "these flags fuse multiply-adds into Loongson madd.s/madd.d, which QEMU 7.2 "
			 "does not implement");
		b->musl_cflags = "-U__FP_FAST_FMA -U__FP_FAST_FMAF";
	} else {
		b->musl_cflags = "";
	}
	free(macros);
	return 0;
}

static char *joined(const struct strlist *sl, const char *sep)
{
	return sl->n ? sl_join(sl, sep) : xstrdup("");
}

static void compute_key(struct build *b)
{
	struct strbuf k = {0};
	char *flags = joined(&b->flags, " ");

	sb_addf(&k, "%s\n%s\n%s\n%s\n%s\n%d\n%s\n%s\n%s\n%s\n", SYSROOT_RECIPE, b->spec->triple,
		b->tc.id, b->tc.path, flags, b->spec->emulated, b->musl_cflags, b->musl.id,
		b->glibc.id, b->llvm.id);
	sha256_hex(k.buf, k.len, b->key);
	free(flags);
	sb_release(&k);
}

/* Run a shell script in the build log's name; 0 or -1. */
static int run_step(struct build *b, const char *what, const struct strbuf *script,
		    struct strbuf *err)
{
	char *out = NULL;
	int rc, timed_out = 0;
	/* as a workload's build: killed with its children past the timeout */
	double timeout = b->spec->timeout > 0 ? b->spec->timeout : RECIPE_BUILD_TIMEOUT;
	char *argv[] = {"/bin/sh", "-c", script->buf, NULL};

	if (b->log)
		fprintf(b->log, "sysroot: %s\n", what), fflush(b->log);
	rc = run_capture_timeout(argv, &out, timeout, &timed_out);
	FILE *f = fopen(b->log_path, "a");
	if (f) {
		fprintf(f, "==> %s\n%s\n%s", what, script->buf, out ? out : "");
		if (timed_out)
			fprintf(f, "\n==> killed after %.0f s (the sysroot build's timeout)\n", timeout);
		fclose(f);
	}
	free(out);
	if (timed_out) {
		sb_addf(err, "%s was killed after %.0f s: it ran past the sysroot build's timeout "
			     "(raise it with flagscope sysroot build --timeout SECONDS, or see %s)",
			what, timeout, b->log_path);
		return -1;
	}
	if (rc) {
		sb_addf(err, "%s failed with status %d (see %s)", what, rc, b->log_path);
		return -1;
	}
	return 0;
}

static void add_cc(struct build *b, struct strbuf *sb)
{
	sb_add(sb, b->tc.command);
	for (size_t i = 0; i < b->flags.n; i++) {
		sb_addc(sb, ' ');
		sysroot_shell_quote(sb, b->flags.v[i]);
	}
}

static int build_musl(struct build *b, const char *tree, struct strbuf *err)
{
	struct strbuf sh = {0};
	int rc;

	/* configure splits $CC and $CFLAGS on blanks: the flags go unquoted */
	char *flags = joined(&b->flags, " ");
	sb_addf(&sh, "set -e; mkdir -p '%s/build-musl' && cd '%s/build-musl' && CC='%s' "
		     "CFLAGS='%s %s' CROSS_COMPILE='%s-' '%s/configure' --target=%s --prefix=/ "
		     "--disable-shared --disable-wrapper && make -j%d && make install DESTDIR='%s'",
		b->tmp, b->tmp, b->tc.command, flags, b->musl_cflags, b->t.machine, tree,
		b->musl_target, cpu_count(), b->tmp);
	rc = run_step(b, "building musl", &sh, err);
	free(flags);
	sb_release(&sh);
	return rc;
}

/* Compile routines (words) from src_dir into lib/<archive> with the target
 * flags and the sysroot's own headers. */
static int build_archive(struct build *b, const char *what, const char *archive,
			 const char *src_dir, const char *routines, const char *extra,
			 struct strbuf *err)
{
	struct strbuf sh = {0};
	int rc;

	sb_addf(&sh, "set -e; obj='%s/build-%s'; mkdir -p \"$obj\"; inc=$(", b->tmp, archive);
	add_cc(b, &sh);
	sb_addf(&sh, " -print-file-name=include); for r in %s; do ", routines);
	add_cc(b, &sh);
	sb_addf(&sh, " -O2 -fno-builtin -nostdinc -isystem '%s/include' -isystem \"$inc\" %s "
		     "-c '%s'/$r.c -o \"$obj/$r.o\"; done; rm -f '%s/lib/%s'; %s-ar rcs '%s/lib/%s' \"$obj\"/*.o",
		b->tmp, extra, src_dir, b->tmp, archive, b->t.machine, b->tmp, archive);
	rc = run_step(b, what, &sh, err);
	sb_release(&sh);
	return rc;
}

static int build_tf(struct build *b, struct strbuf *err)
{
	char *top = NULL, *mk = NULL, *shim = NULL;
	struct strbuf routines = {0}, extra = {0};
	int rc = -1;

	/* only these headers: the rest of sysdeps would shadow musl's bits/ */
	if (deb_source_extract(&b->glibc, "soft-fp", "'*/soft-fp/*' '*/stdlib/longlong.h' "
				"'*/sysdeps/mips/fpu_control.h' '*/sysdeps/mips/mips*/sfp-machine.h' "
				"'*/sysdeps/aarch64/sfp-machine.h' '*/sysdeps/aarch64/fpu/fpu_control.h'",
			       &top, b->log, err))
		goto out;
	/* the routine list is glibc's, not ours */
	char *mkpath = xasprintf("%s/soft-fp/Makefile", top);
	mk = file_read(mkpath, NULL);
	free(mkpath);
	const char *p = mk ? strstr(mk, "gcc-quad-routines") : NULL;
	if (!p || !(p = strstr(p, ":="))) {
		sb_addf(err, "%s/soft-fp/Makefile has no gcc-quad-routines list", top);
		goto out;
	}
	for (p += 2; *p && !(*p == '\n' && p[-1] != '\\'); p++)
		sb_addc(&routines, *p == '\\' || *p == '\n' || *p == '\t' ? ' ' : *p);
	if (b->t.int128)
		sb_addf(&routines, " %s", tf_ti_routines);
	shim = xasprintf("%s/soft-fp-shim.h", b->tmp);
	file_write(shim, soft_fp_shim, strlen(soft_fp_shim));
	if (b->t.mips)
		sb_addf(&extra, "-I'%s/sysdeps/mips/%s' -I'%s/sysdeps/mips'", top,
			!strcmp(b->t.abi, "o32") ? "mips32" : "mips64", top);
	else
		sb_addf(&extra, "-I'%s/sysdeps/aarch64' -I'%s/sysdeps/aarch64/fpu'", top, top);
	sb_addf(&extra, " -I'%s/soft-fp' -I'%s/stdlib' -include '%s'", top, top, shim);
	char *src = xasprintf("%s/soft-fp", top);
	rc = build_archive(b, "building libgcc-tf.a (glibc soft-fp)", "libgcc-tf.a", src,
			   routines.buf, extra.buf, err);
	free(src);
out:
	free(top);
	free(mk);
	free(shim);
	sb_release(&routines);
	sb_release(&extra);
	return rc;
}

static int build_int(struct build *b, struct strbuf *err)
{
	char *top = NULL, *src, *list;
	int rc;

	if (deb_source_extract(&b->llvm, "builtins", "'*/compiler-rt/lib/builtins/*'", &top, b->log,
			       err))
		return -1;
	src = xasprintf("%s/compiler-rt/lib/builtins", top);
	list = xasprintf("%s %s", int_routines, b->t.int128 ? int128_routines : "");
	rc = build_archive(b, "building libgcc-int.a (compiler-rt builtins)", "libgcc-int.a", src,
			   list, "", err);
	free(list);
	free(src);
	free(top);
	return rc;
}

/* The specs make the real compiler use musl's headers and startup files
 * and the sysroot's helpers before libgcc, and keep its own link spec
 * (emulation, -mips*) with -nostdlib so no glibc path is searched. */
static int write_wrapper(struct build *b, struct strbuf *err)
{
	const char *d = b->dir;
	struct strbuf specs = {0}, sh = {0};
	char *tf = b->t.quad_ldbl ? xasprintf("%s/lib/libgcc-tf.a ", d) : xstrdup("");
	char *specs_path = xasprintf("%s/lib/flagscope.specs", b->tmp);
	char *bin = xasprintf("%s/bin", b->tmp), *cc_path = xasprintf("%s/bin/cc", b->tmp);
	int rc;

	sb_addf(&specs, "%%rename cpp_options old_cpp_options\n%%rename link old_link\n\n"
			"*cpp_options:\n-nostdinc -isystem %s/include -isystem include%%s %%(old_cpp_options)\n\n"
			"*cc1:\n%%(cc1_cpu) -nostdinc -isystem %s/include -isystem include%%s\n\n"
			"*link_libgcc:\n-L%s/lib -L .%%s\n\n"
			"*libgcc:\n%s%s/lib/libgcc-int.a libgcc.a%%s\n\n"
			"*startfile:\n%s/lib/crt1.o %s/lib/crti.o\n\n*endfile:\n%s/lib/crtn.o\n\n"
			"*link:\n%%(old_link) -nostdlib\n\n",
		d, d, d, tf, d, d, d, d);
	sb_addf(&sh, "#!/bin/sh\n# generated by flagscope sysroot: %s with musl and helpers built "
		     "for these flags\nexec %s ", b->tc.command, b->tc.path);
	for (size_t i = 0; i < b->flags.n; i++) {
		sysroot_shell_quote(&sh, b->flags.v[i]);
		sb_addc(&sh, ' ');
	}
	sb_addf(&sh, "\"$@\" -static -specs %s/lib/flagscope.specs\n", d);
	rc = file_write(specs_path, specs.buf, specs.len);
	if (!rc)
		rc = mkdir_p(bin, 0755);
	if (!rc)
		rc = file_write(cc_path, sh.buf, sh.len);
	if (!rc && chmod(cc_path, 0755))
		rc = -errno;
	if (rc)
		sb_addf(err, "%s: writing the wrapper: %s", b->tmp, strerror_lc(-rc));
	free(tf);
	free(specs_path);
	free(bin);
	free(cc_path);
	sb_release(&specs);
	sb_release(&sh);
	return rc ? -1 : 0;
}

static int write_info(struct build *b, double seconds, struct strbuf *err)
{
	struct strbuf sb = {0};
	char *flags = joined(&b->flags, " "), *added = joined(&b->added, " ");
	char *notes = joined(&b->notes, "; "), *path = xasprintf("%s/sysroot.info", b->tmp);
	int rc;

	sb_addf(&sb, "# flagscope sysroot: musl and compiler helpers built with target_cflags\n"
		     "key=%s\ntriple=%s\ncc=%s\ncflags=%s\ntarget_cflags=%s\nadded=%s\nnotes=%s\n"
		     "musl_cflags=%s\nabi=%s\nmusl_target=%s\nsources=%s %s %s\nseconds=%.1f\n",
		b->key, b->spec->triple, b->tc.path, b->spec->cflags ? b->spec->cflags : "", flags,
		added, notes, b->musl_cflags, b->t.abi, b->musl_target, b->musl.dsc,
		b->t.quad_ldbl ? b->glibc.dsc : "", b->llvm.dsc, seconds);
	rc = file_write(path, sb.buf, sb.len);
	if (rc)
		sb_addf(err, "%s: %s", path, strerror_lc(-rc));
	free(flags);
	free(added);
	free(notes);
	free(path);
	sb_release(&sb);
	return rc ? -1 : 0;
}

static int fetch_sources(struct build *b, struct strbuf *err)
{
	if (deb_source_get("musl", &b->musl, b->log, err) ||
	    deb_source_get("llvm-toolchain-14", &b->llvm, b->log, err))
		return -1;
	if (b->t.quad_ldbl && deb_source_get("glibc", &b->glibc, b->log, err))
		return -1;
	return 0;
}

static int build_all(struct build *b, struct strbuf *err)
{
	double start = now_seconds();
	char *musl_tree = NULL;
	int rc = -1;

	remove_tree(b->tmp);
	if (mkdir_p(b->tmp, 0755)) {
		sb_addf(err, "%s: %s", b->tmp, strerror_lc(errno));
		return -1;
	}
	b->log_path = xasprintf("%s/build.log", b->tmp);
	if (deb_source_unpack(&b->musl, &musl_tree, b->log, err) || build_musl(b, musl_tree, err))
		goto out;
	if (b->t.quad_ldbl && build_tf(b, err))
		goto out;
	if (build_int(b, err) || write_wrapper(b, err) || write_info(b, now_seconds() - start, err))
		goto out;
	if (rename(b->tmp, b->dir) && !file_exists(b->dir)) {
		sb_addf(err, "%s: %s", b->dir, strerror_lc(errno));
		goto out;
	}
	rc = 0;
	char *stale = xasprintf("%s.failed.log", b->dir);
	unlink(stale);
	free(stale);
out:
	if (rc) {
		/* keep the log where the message points, drop the rest */
		char *kept = xasprintf("%s.failed.log", b->dir);
		if (file_exists(b->log_path) && !rename(b->log_path, kept)) {
			err->len = 0;
			if (err->buf)
				err->buf[0] = '\0';
			sb_addf(err, "sysroot build failed (see %s)", kept);
		}
		free(kept);
	}
	remove_tree(b->tmp);
	free(musl_tree);
	return rc;
}

static void build_release(struct build *b)
{
	free(b->t.machine);
	free(b->dir);
	free(b->tmp);
	free(b->log_path);
	toolchain_release(&b->tc);
	sl_release(&b->flags);
	sl_release(&b->added);
	sl_release(&b->notes);
	deb_source_release(&b->musl);
	deb_source_release(&b->glibc);
	deb_source_release(&b->llvm);
}

/* The compiler and what the flags mean: the part of a build that needs no
 * source and no network. */
static int build_plan(struct build *b, struct strbuf *err)
{
	char *cc = b->spec->cc ? xstrdup(b->spec->cc) : xasprintf("%s-gcc", b->spec->triple);
	char *machine = NULL;
	int rc = -1;

	if (toolchain_probe(cc, &b->tc, err) || resolve_target(b, err))
		goto out;
	char *argv[] = {b->tc.path, "-dumpmachine", NULL};
	if (run_capture(argv, &machine) || !machine) {
		sb_addf(err, "%s -dumpmachine failed", b->tc.path);
		goto out;
	}
	b->t.machine = xstrdup(str_trim(machine));
	rc = 0;
out:
	free(cc);
	free(machine);
	return rc;
}

int sysroot_plan(const struct sysroot_spec *spec, struct sysroot_plan *plan, struct strbuf *err)
{
	struct build b = {.spec = spec};
	int rc = build_plan(&b, err);

	memset(plan, 0, sizeof(*plan));
	if (!rc) {
		plan->target_cflags = joined(&b.flags, " ");
		plan->added = joined(&b.added, " ");
		plan->notes = joined(&b.notes, "; ");
		plan->musl_cflags = b.musl_cflags;
		plan->abi = b.t.abi;
		plan->musl_target = b.musl_target;
	}
	build_release(&b);
	return rc;
}

void sysroot_plan_release(struct sysroot_plan *plan)
{
	free(plan->target_cflags);
	free(plan->added);
	free(plan->notes);
	memset(plan, 0, sizeof(*plan));
}

/* Plan b, fetch its sources and name its folder (b->dir); 0 or -1. */
static int locate(struct build *b, struct strbuf *err)
{
	if (build_plan(b, err) || fetch_sources(b, err))
		return -1;
	compute_key(b);
	b->dir = xasprintf("%s/sysroots/%.16s", flagscope_cache_dir(), b->key);
	return 0;
}

int sysroot_locate(const struct sysroot_spec *spec, char **sysroot_dir, int *built,
		   struct strbuf *err)
{
	struct build b = {.spec = spec};
	*sysroot_dir = NULL;
	int rc = locate(&b, err);
	if (!rc) {
		char *info = xasprintf("%s/sysroot.info", b.dir);
		*built = file_exists(info);
		*sysroot_dir = xstrdup(b.dir);
		free(info);
	}
	build_release(&b);
	return rc;
}

int sysroot_build(const struct sysroot_spec *spec, char **sysroot_dir, FILE *log,
		  struct strbuf *err)
{
	struct build b = {.spec = spec, .log = log};
	char *info = NULL;
	int rc = -1;

	*sysroot_dir = NULL;
	if (locate(&b, err))
		goto out;
	b.tmp = xasprintf("%s/sysroots/.build-%.16s-%ld", flagscope_cache_dir(), b.key, (long)getpid());
	info = xasprintf("%s/sysroot.info", b.dir);
	if (!file_exists(info)) {
		if (log)
			fprintf(log, "sysroot: building %s for %s into %s\n", b.musl.dsc,
				spec->cflags ? spec->cflags : "", b.dir);
		if (build_all(&b, err))
			goto out;
	} else if (log) {
		fprintf(log, "sysroot: cached %s\n", b.dir);
	}
	*sysroot_dir = xstrdup(b.dir);
	rc = 0;
out:
	free(info);
	build_release(&b);
	return rc;
}

static const struct {
	const char *key;
	size_t offset;
} info_keys[] = {
	{"key", offsetof(struct sysroot_info, key)},
	{"triple", offsetof(struct sysroot_info, triple)},
	{"cc", offsetof(struct sysroot_info, cc)},
	{"cflags", offsetof(struct sysroot_info, cflags)},
	{"target_cflags", offsetof(struct sysroot_info, target_cflags)},
	{"added", offsetof(struct sysroot_info, added)},
	{"notes", offsetof(struct sysroot_info, notes)},
	{"musl_cflags", offsetof(struct sysroot_info, musl_cflags)},
	{"abi", offsetof(struct sysroot_info, abi)},
	{"musl_target", offsetof(struct sysroot_info, musl_target)},
	{"sources", offsetof(struct sysroot_info, sources)},
};

int sysroot_info_read(const char *dir, struct sysroot_info *info, struct strbuf *err)
{
	char *path = xasprintf("%s/sysroot.info", dir);
	char *text = file_read(path, NULL), *line, *save = NULL;

	memset(info, 0, sizeof(*info));
	if (!text) {
		sb_addf(err, "%s is not a built sysroot (no sysroot.info)", dir);
		free(path);
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		if (*line == '#' || !eq)
			continue;
		*eq = '\0';
		if (!strcmp(line, "seconds"))
			info->seconds = atof(eq + 1);
		for (size_t i = 0; i < ARRAY_SIZE(info_keys); i++) {
			char **slot = (char **)((char *)info + info_keys[i].offset);
			if (!strcmp(line, info_keys[i].key) && !*slot)
				*slot = xstrdup(eq + 1);
		}
	}
	free(text);
	free(path);
	info->dir = xstrdup(dir);
	info->wrapper = xasprintf("%s/bin/cc", dir);
	for (size_t i = 0; i < ARRAY_SIZE(info_keys); i++) {
		char **slot = (char **)((char *)info + info_keys[i].offset);
		if (!*slot) {
			sb_addf(err, "%s/sysroot.info has no %s (remove the folder and rebuild)", dir,
				info_keys[i].key);
			sysroot_info_release(info);
			return -1;
		}
	}
	return 0;
}

void sysroot_info_release(struct sysroot_info *info)
{
	for (size_t i = 0; i < ARRAY_SIZE(info_keys); i++)
		free(*(char **)((char *)info + info_keys[i].offset));
	free(info->dir);
	free(info->wrapper);
	memset(info, 0, sizeof(*info));
}

int sysroot_toolchain(const char *dir, char **cc, char **cflags, char **ldflags,
		      struct strbuf *err)
{
	struct sysroot_info info;

	if (sysroot_info_read(dir, &info, err))
		return -1;
	if (access(info.wrapper, X_OK)) {
		sb_addf(err, "%s is missing (remove %s and rebuild)", info.wrapper, dir);
		sysroot_info_release(&info);
		return -1;
	}
	*cc = xstrdup(info.wrapper);
	*cflags = xstrdup(info.target_cflags);
	*ldflags = xstrdup("-static");
	sysroot_info_release(&info);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sysroot_list(struct strlist *dirs)
{
	char *root = xasprintf("%s/sysroots", flagscope_cache_dir());
	DIR *d = opendir(root);
	struct dirent *e;
	size_t first = dirs->n;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char *dir = xasprintf("%s/%s", root, e->d_name);
		char *info = xasprintf("%s/sysroot.info", dir);
		if (file_exists(info))
			sl_push_owned(dirs, dir);
		else
			free(dir);
		free(info);
	}
	if (d)
		closedir(d);
	free(root);
	if (dirs->n > first) /* none: dirs->v may be NULL, which qsort must not get */
		qsort(dirs->v + first, dirs->n - first, sizeof(char *), cmp_str);
	return 0;
}
