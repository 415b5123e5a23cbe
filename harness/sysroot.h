/*
 * sysroot.h - a C library built with a configuration's own target flags, so
 * that a cross-built program links only code its CPU can run.
 *
 * Debian's MIPS libc and libgcc are MIPS32/MIPS64 release-2 code (dext,
 * dins, clz, ...), which a Loongson 2F (MIPS III) or an R4600 cannot run.
 * sysroot_build() therefore builds, with the target flags:
 *   lib/libc.a ...     musl, from Debian's musl source package
 *   lib/libgcc-tf.a    the 128-bit long-double routines (__addtf3,
 *                      __extenddftf2, ...) from glibc's soft-fp sources
 *                      (Debian's glibc source package), when long double
 *                      is IEEE quad on MIPS (n32, n64; AArch64 keeps
 *                      Debian's ARMv8.0 libgcc routines)
 *   lib/libgcc-int.a   the integer helpers GCC calls (__clzsi2, __ctzdi2,
 *                      __divdi3, __multi3, ...) from compiler-rt's builtins
 *                      (Debian's llvm-toolchain-14 source package)
 * and links them before -lgcc; gcc's crtbegin/crtend are left out (release-2
 * objects; musl runs C constructors itself), so C++ is not supported.
 *
 * Flags added to the ones asked for are recorded, never silent: they are in
 * the sysroot's info file, in its wrapper, and in sysroot_info.added and
 * .notes for the configuration's label and report:
 *   -mfp32                  when the compiler refuses the flags without it
 *                           (-march=mips1 with o32)
 *   -msoft-float/-mhard-float  for --float soft|hard
 *   -ffp-contract=off, and musl built with -U__FP_FAST_FMA -U__FP_FAST_FMAF,
 *                           when emulated and the flags make GCC fuse
 *                           multiply-adds on pre-R6 MIPS (Loongson 2E/2F
 *                           madd.s/madd.d, which QEMU 7.2 does not implement)
 *
 * Layout: flagscope_cache_dir()/sysroots/<key>/ with include/, lib/,
 * bin/cc (the wrapper), sysroot.info (key=value) and build.log; <key> is a
 * hash of the compiler's identity, the final flags, the float ABI, the
 * emulation switch and the three source packages' ids.  A sysroot is built
 * in a temporary folder and renamed into place, so an interrupted build
 * leaves nothing that looks finished.
 */
#ifndef FLAGSCOPE_SYSROOT_H
#define FLAGSCOPE_SYSROOT_H

#include "base/util.h"

enum sysroot_float {
	SYSROOT_FLOAT_DEFAULT, /* whatever the flags give */
	SYSROOT_FLOAT_HARD,
	SYSROOT_FLOAT_SOFT,
};

struct sysroot_spec {
	const char *triple;  /* the cross compiler's triple, "mips64el-linux-gnuabi64" */
	const char *cc;      /* compiler command; NULL: "<triple>-gcc" */
	const char *cflags;  /* target flags: "-march=loongson2f -mabi=64" */
	enum sysroot_float fl;
	int emulated;        /* 1: the programs will run under QEMU */
	/* seconds a build step (musl, an archive) may run before it and its
	 * children are killed and the build fails saying so; 0: the
	 * workloads' default, RECIPE_BUILD_TIMEOUT (7200 s) */
	double timeout;
};

/* What a build would use, without building: the final flags, the ones
 * added and why, the ABI.  For labels before anything is built; cheap (runs
 * the compiler's preprocessor, no network).  Strings owned by the plan
 * except the static abi, musl_target and musl_cflags. */
struct sysroot_plan {
	char *target_cflags; /* asked for plus added */
	char *added;         /* "" when none */
	char *notes;         /* why, "; "-separated */
	const char *musl_cflags;
	const char *abi;         /* "n64", "n32", "o32", "lp64" */
	const char *musl_target; /* --target for musl's configure */
};
int sysroot_plan(const struct sysroot_spec *spec, struct sysroot_plan *plan, struct strbuf *err);
void sysroot_plan_release(struct sysroot_plan *plan);

/* Build the sysroot, or find it in the cache.  On success returns 0 and
 * *sysroot_dir (heap, caller frees).  On failure returns -1 with a one-line
 * reason in err (naming build.log when a build step failed).  log, when not
 * NULL, gets one line per step as it starts. */
int sysroot_build(const struct sysroot_spec *spec, char **sysroot_dir, FILE *log,
		  struct strbuf *err);

/* Where sysroot_build() would put it, without building: the plan, the
 * sources fetched (they name it) and *sysroot_dir (heap); *built 1 when it
 * is there.  0, or -1 with a reason in err.  Its compiler will be
 * SYSROOT_DIR/bin/cc. */
int sysroot_locate(const struct sysroot_spec *spec, char **sysroot_dir, int *built,
		   struct strbuf *err);

/* A built sysroot, read back from its sysroot.info. */
struct sysroot_info {
	char *dir;
	char *key;
	char *triple;
	char *cc;            /* the real compiler */
	char *cflags;        /* the flags asked for */
	char *target_cflags; /* the flags used: asked for plus added */
	char *added;         /* the flags added, "" when none */
	char *notes;         /* why they were added, "; "-separated, "" when none */
	char *musl_cflags;   /* extra flags musl alone was built with */
	char *abi;           /* "n64", "n32", "o32", "lp64", ... */
	char *musl_target;   /* --target given to musl's configure */
	char *sources;       /* the source packages, "musl_1.2.3-1 glibc_... llvm-..." */
	char *wrapper;       /* <dir>/bin/cc */
	double seconds;      /* how long the build took */
};

/* 0, or -1 with the reason in err (not a sysroot, incomplete). */
int sysroot_info_read(const char *dir, struct sysroot_info *info, struct strbuf *err);
void sysroot_info_release(struct sysroot_info *info);

/* How to compile and link statically against the sysroot at dir:
 *   *cc      <dir>/bin/cc, a wrapper that runs the real compiler with the
 *            target flags, musl's headers, -static and the sysroot's specs
 *            (crt1.o, -lc, libgcc-tf.a libgcc-int.a -lgcc); usable as $CC
 *            by any build system
 *   *cflags  the target flags (already in the wrapper; for labels and for
 *            build systems that want them spelled out)
 *   *ldflags "-static"
 * All heap strings.  0, or -1 with the reason in err. */
int sysroot_toolchain(const char *dir, char **cc, char **cflags, char **ldflags,
		      struct strbuf *err);

/* Append the directories of every built sysroot in the cache, sorted. */
int sysroot_list(struct strlist *dirs);

#endif
