/*
 * native_cpu.h - -march=native, -mcpu=native and -mtune=native made
 * explicit, for gcc and clang: the one answer every output that writes
 * flags uses (the build fact native.ID, recommend in all formats, search's
 * make.conf).
 *
 * The explicit form of -march=native is the CPU the compiler's driver
 * resolves it to (clang's -target-cpu, gcc's -march=) plus the -mX /
 * -mno-X feature switches in which this machine differs from that CPU, so
 * that it predefines exactly the macros -march=native does (`-dM -E`, every
 * line) with every switch accepted.  Where the compiler cannot name the
 * CPU (clang 14 on an AMD family 26: -target-cpu x86-64 and 88
 * -target-feature entries) the CPU stays the one the driver names, and
 * the switches come from its feature list: a level such as x86-64-v4
 * would also change clang's tuning (its scheduling model and 256-bit
 * preference), which is other code than was measured.  Where no explicit
 * form predefines native's macros, the answer is a refusal with the
 * reason.
 *
 * The resolver is a pure function over what the compiler prints (struct
 * native_oracle): the live layer (native_cpu_flags and friends) runs the
 * compiler; the unit tests feed recorded outputs from other CPUs
 * (tests/fixtures/native/).
 */
#ifndef FLAGSCOPE_NATIVE_CPU_H
#define FLAGSCOPE_NATIVE_CPU_H

/* What the resolver asks of a compiler, each on an empty C unit */
enum native_job {
	NATIVE_DRIVER,      /* -### -c -x c /dev/null -o /dev/null */
	NATIVE_MACROS,      /* -dM -E -x c /dev/null */
	NATIVE_TARGET_HELP, /* -Q --help=target (gcc only) */
};

/* The words after the compiler and its flags for job ("-dM -E -x c
 * /dev/null"); static. */
const char *native_job_words(enum native_job job);

/* One compiler, asked.  ask: runs it with flags (blank-separated,
 * "-march=native") and job; *out gets what it printed (stdout and stderr,
 * heap, or NULL when nothing is known).  Returns 0 when it exited 0, -1
 * when it failed (a refused flag; *out says why) or cannot be asked (not
 * this compiler, not recorded). */
struct native_oracle {
	int (*ask)(void *ctx, const char *flags, enum native_job job, char **out);
	void *ctx;
};

/* An explicit form, or a refusal. */
struct native_form {
	char *flags;        /* "-march=x86-64 -mavx2 ...", NULL when refused */
	char *cpu;          /* the CPU the driver names ("x86-64"), or NULL */
	unsigned nswitches; /* feature switches after the CPU */
	int fallback;       /* the compiler names no CPU for this machine */
	char *note;         /* the fallback or the refusal said in a sentence
			     * ("clang 14 does not name this CPU: ..."), or NULL */
};

/* word ("-march=native", "-mcpu=native", "-mtune=native") made explicit
 * by compiler o: *out filled (release with native_form_release).  A
 * -mtune= word gets the CPU alone.  Returns 0 with out->flags set, or -1
 * with out->note saying why there is no exact explicit form. */
int native_resolve(const struct native_oracle *o, const char *word, struct native_form *out);

/* Recorded switches made explicit: words as GCC records -march=native in
 * a DWARF producer, "-march=CPU -mmmx ... -mno-sse4a" (words[0] the CPU
 * word, then its feature switches), kept where their state differs from
 * what o's `-march=CPU -Q --help=target` lists (all of them when o cannot
 * list: not GCC, not here).  Heap "-march=CPU [switches]". */
char *native_resolve_recorded(const struct native_oracle *o, char *const *words, unsigned nwords);

/* How many words after words[0] == "-march=CPU" (or -mcpu=) are feature
 * switches: the run of "-mX" / "-mno-X" words without '=' that are not
 * another -march=, -mcpu= or -mtune=. */
unsigned native_switches_after(char *const *words, unsigned nwords);

void native_form_release(struct native_form *f);

/* Macro text equality as the resolver checks it: the "#define" lines of
 * a and b (`-dM -E` output) as sets; any other line (a warning) in either
 * makes them differ.  1 when equal; *first (when not NULL) gets the first
 * line one has and the other lacks ("+#define __AVX2__ 1": native has it). */
int native_macros_equal(const char *native, const char *other, char **first);

/* ---- the live layer: runs the compiler here ---- */

/* An oracle that runs command (a compiler command, maybe with options:
 * "gcc-12", "clang --target=x86_64-linux-gnu"). */
struct native_oracle native_oracle_live(const char *command);
void native_oracle_live_release(struct native_oracle *o);

/* The explicit flags for each -march=native, -mcpu=native and
 * -mtune=native word of cflags when command compiles here, in cflags'
 * order: "-march=znver3 -mno-mwaitx -mshstk -mtune=znver3".  A word with
 * no exact explicit form is left out.  *note (may be NULL): the notes of
 * words that fell back or were left out, one a line, or NULL.  Heap
 * string; NULL when cflags has no native word or none could be made
 * explicit. */
char *native_cpu_flags(const char *command, const char *cflags, char **note);

/* cflags with each -mX=native word replaced by its explicit form here (a
 * word with none is kept); *note as native_cpu_flags, "; "-joined.  Heap. */
char *native_cpu_explicit(const char *command, const char *cflags, char **note);

#endif
