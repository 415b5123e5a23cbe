/*
 * elf.h - what an ELF file proves about how it was built: class, machine,
 * linkage, ABI and ISA, the compilers, each compile unit's recorded
 * switches, and section sizes.  Read with elfutils (libelf for the file,
 * libdw/libdwfl for DWARF); nothing here parses ELF by hand beyond the
 * fixed-layout MIPS .MIPS.abiflags record and the GNU property note.
 *
 * Input may be hostile: a truncated or corrupt file, bad offsets,
 * overlapping sections, huge counts or unterminated strings give -1 and
 * "not a valid ELF: <reason>", never a crash, a hang or a read out of
 * bounds.
 *
 * Compile units (struct elf_unit) come from two places:
 *  - DWARF (-g): one unit per compile unit, named by DW_AT_name, located by
 *    DW_AT_comp_dir, its switches from DW_AT_producer (GCC records them by
 *    default with -g, clang with -grecord-command-line);
 *  - .GCC.command.line (-frecord-gcc-switches, clang -frecord-command-line):
 *    a string per unit that the linker merges when two units' strings are
 *    identical.  A string that already is a DWARF unit's producer adds
 *    nothing; a clang string is given to the DWARF unit it names; any other
 *    becomes a unit of its own, named by the file clang's line compiles, by
 *    the one STT_FILE symbol of a relocatable object, or "unit N".
 *  - the symbol table: each STT_FILE symbol (GCC and clang name the source
 *    without its folder) that no unit above accounts for by name becomes a
 *    unit of its own, origin ELF_UNIT_SYMTAB: a compile unit that recorded
 *    nothing, like helper.c built with a hard-coded -O2 and no -g, or any
 *    object of a static C library.
 * Units that recorded no switches (crt objects, assembler sources) are kept
 * with switches NULL.
 */
#ifndef FLAGSCOPE_ELF_H
#define FLAGSCOPE_ELF_H

#include <stddef.h>

#include "base/util.h"

enum elf_unit_origin {
	ELF_UNIT_DWARF,  /* a DWARF compile unit (a record may have added switches) */
	ELF_UNIT_RECORD, /* a .GCC.command.line string alone */
	ELF_UNIT_SYMTAB, /* an STT_FILE symbol alone: switches is NULL */
};

struct elf_unit {
	char *name;     /* DW_AT_name, the compiled file, the STT_FILE name, or "unit N" */
	char *path;     /* absolute source path when known, else NULL */
	char *producer; /* "GNU C17 12.2.0", "/usr/lib/llvm-14/bin/clang", or NULL */
	char *switches; /* recorded switches without the producer, or NULL */
	int anonymous;  /* 1: nothing names it; name is "unit N" */
	int assembler;  /* 1: an assembler source (DW_LANG_Mips_Assembler) */
	enum elf_unit_origin origin;
};

struct elf_section {
	char *name;
	unsigned long long size;
	int alloc; /* SHF_ALLOC: occupies memory when loaded */
};

struct elf_facts {
	char *file;
	int bits;            /* 32 or 64 */
	const char *data;    /* "lsb" or "msb" */
	unsigned machine;    /* e_machine */
	const char *machine_name; /* "x86-64", "mips", "aarch64", ... or NULL */
	unsigned osabi;
	const char *osabi_name;
	const char *type;    /* "executable", "pie", "shared", "relocatable", "core" */
	unsigned long long entry;
	unsigned long long e_flags;
	int is_static;       /* 1 static, 0 dynamic, -1 not linked (relocatable) */
	char *interp;        /* PT_INTERP, or NULL */
	struct strlist needed; /* DT_NEEDED */
	char *runpath;       /* DT_RUNPATH (or DT_RPATH), or NULL */
	/* Architecture facts; NULL or -1 when the file does not say. */
	const char *abi;     /* "o32", "n32", "n64", "lp64", "ilp32", "x32", "eabi5", ... */
	char *isa;           /* "mips3", "mips32r2", "x86-64-v3", ... */
	char *ext;           /* "loongson-2f", "bti,pac", ... */
	int pic;             /* MIPS EF_MIPS_PIC */
	int cpic;            /* MIPS EF_MIPS_CPIC */
	const char *nan;     /* MIPS "legacy" or "2008" */
	const char *fpabi;   /* "double", "single", "soft", "xx", "64", "64a", "hard", ... */
	struct strlist compilers; /* .comment strings, each once */
	struct elf_unit *units;
	size_t nunits;
	struct elf_section *sections; /* every named section, in header order */
	size_t nsections;
	unsigned long long total_size; /* sum of SHF_ALLOC section sizes */
	unsigned long long file_size;
};

/* Read the facts of the file at path into *f (which the call initialises).
 * Returns 0, or -1 with "not a valid ELF: <reason>" (or the reason the file
 * could not be read) appended to err; *f then holds nothing to release,
 * though releasing it is harmless. */
int elf_facts_read(const char *path, struct elf_facts *f, struct strbuf *err);

/* The same from memory (fuzzing, tests); the buffer is not modified and
 * may be freed once the call returns.  name goes to f->file. */
int elf_facts_read_memory(const char *name, const void *data, size_t size,
			  struct elf_facts *f, struct strbuf *err);

void elf_facts_release(struct elf_facts *f);

/* Size of the named section (added up over sections of that name), 0 if
 * absent. */
unsigned long long elf_facts_section_size(const struct elf_facts *f, const char *name);

/*
 * Check the file against the expected flags (a command-line string such as
 * "-O3 -march=x86-64-v3"; NULL or "" checks no switches) and linkage
 * (want_static: 1 static, 0 dynamic, -1 don't care; "-static" in expect
 * also asks for static when want_static is -1).
 *
 * Units checked: those whose switches were recorded and, when unit_prefix
 * is not NULL, whose absolute path is under that directory; a unit whose
 * directory is unknown (no DWARF) is checked too, since nothing shows it is
 * outside.  With unit_prefix, a named unit under it that recorded no
 * switches is a mismatch (nothing proves its flags); so is a file where no
 * unit to check recorded any.
 *
 * Units only the symbol table names are not checked here (see
 * elf_facts_check_sources).
 *
 * Appends one human-readable line per mismatch ("unit foo.c: -O3 expected,
 * -O2 given last") and returns how many it appended.
 */
int elf_facts_check(const struct elf_facts *f, const char *expect, int want_static,
		    const char *unit_prefix, struct strlist *mismatches);

/*
 * The units only the symbol table names (they recorded nothing) that are
 * the program's own: their name is in sources (file names, compared by the
 * last path component) and not in library (names the C library's own
 * objects carry, e.g. a built musl's printf.c; NULL: none).  Appends
 * "unit helper.c: no switches recorded (nothing proves its flags)" for
 * each and returns how many.  Nothing is appended when the file holds a
 * record no unit name accounts for ("unit N", GCC's -frecord-gcc-switches
 * without -g): that record may be the unit's own.
 */
int elf_facts_check_sources(const struct elf_facts *f, const struct strlist *sources,
			    const struct strlist *library, struct strlist *mismatches);

/*
 * clang's LTO (elf_lto.c).  GCC's is proven in the linked file
 * (elf_facts_check: a unit GCC optimised at link time, "-fltrans"); clang
 * -flto leaves no such trace, but its objects are the evidence: it writes
 * LLVM bitcode (magic 'B' 'C' 0xC0 0xDE, or the wrapper 0x0B17C0DE) in
 * place of machine code, which only an LTO link (LLVMgold, lld) can link,
 * and clang 14 has no fat LTO objects.
 */
struct elf_lto_objects {
	size_t bitcode;      /* *.o files that are LLVM bitcode */
	size_t machine;      /* *.o files that are ELF (machine code, GCC's slim LTO too) */
	char *first_machine; /* the first of those, or NULL */
};
/* Count the *.o files under dir (recursively, symlinks not followed,
 * hidden folders but .libs skipped).  0, or -1 when dir cannot be read. */
int elf_lto_objects_scan(const char *dir, struct elf_lto_objects *o);
void elf_lto_objects_release(struct elf_lto_objects *o);

enum elf_lto_state {
	ELF_LTO_NOT_ASKED,  /* expect has no -flto, or the file is not clang's */
	ELF_LTO_VERIFIED,   /* objects under tree are bitcode */
	ELF_LTO_MISSING,    /* objects under tree, none bitcode: a mismatch */
	ELF_LTO_NOT_JUDGED, /* no tree, or no object in it */
};
/* For a file whose units clang compiled (no GCC unit) and flags that ask
 * for LTO: judge the objects under tree (NULL: none given).  ELF_LTO_MISSING
 * appends its line to mismatches.  *why (heap, NULL for NOT_ASKED) says
 * what was found: "verified: 2 of the 2 objects under DIR are LLVM bitcode
 * ...", "no LTO: none of the 3 objects ...", "not judged: ...". */
enum elf_lto_state elf_lto_check_tree(const struct elf_facts *f, const char *expect,
				      const char *tree, struct strlist *mismatches, char **why);
/* Add "lto": why to the JSON object elf_facts_json() just appended to out
 * (nothing when why is NULL). */
void elf_facts_json_add_lto(struct strbuf *out, const char *why);

/* The last path components of the C and C++ sources (.c .cc .cpp .cxx)
 * under dir, recursively (hidden folders skipped, at most 200000 files),
 * appended to names, each once.  0, or -1 when dir cannot be read. */
int elf_source_names(const char *dir, struct strlist *names);

/* 1 when name ends like a C or C++ source file (".c", ".cc", ".cpp",
 * ".cxx"): the names elf_source_names collects. */
int elf_is_source_name(const char *name);

/* The STT_FILE names of the objects and archives (*.o, *.a, read with
 * libelf) directly in dir, appended to names, each once: what a C library
 * or sysroot contributes to a static link.  Unreadable files are skipped.
 * 0, or -1 when dir cannot be read. */
int elf_library_names(const char *dir, struct strlist *names);

/* The folders that hold the sources of the units that recorded switches
 * (from their DWARF paths), each once, appended to dirs. */
void elf_facts_source_dirs(const struct elf_facts *f, struct strlist *dirs);

/*
 * What a configuration asks the file to say about its machine (elf_expect.c).
 * Each item holds the wanted value (a static string, NULL: not compared)
 * and why it is wanted ("target mips64el-linux-gnuabi64", "-mabi=n32").
 *
 * Derived from the target triple, then the flags, the last flag of a kind
 * winning: -m32/-m64/-mx32 (x86), -mabi=, -march= and -mipsN, -EL/-EB and
 * -mel/-meb, -mlittle-/-mbig-endian, -msoft-/-mhard-/-msingle-float,
 * -mfp32/-mfpxx/-mfp64 (MIPS o32), -mfloat-abi= (Arm), -mnan=, and
 * --target= / -target (clang) when no triple is given.  A -march value the
 * table in elf_expect.c does not list (measured with Debian 12's GCC 12)
 * leaves the ISA and extension uncompared: nothing is guessed.
 *
 * How the ISA compares: a linked file states the highest ISA of its
 * objects, so for MIPS the file must state exactly the level asked (higher:
 * an object built for a later ISA was linked in, e.g. Debian's release-2
 * libc under -march=loongson2f; lower: nothing got the flag).  For x86 a
 * level is stated only with -mneeded, so only a level above the one asked
 * is a mismatch.  A MIPS machine extension asked (loongson-2f) must be
 * present; one not asked must be absent.
 */
struct elf_expect_item {
	const char *want; /* NULL: not compared */
	char why[96];
};

struct elf_expect {
	unsigned machine;                   /* e_machine, 0: not compared */
	struct elf_expect_item machine_name; /* "mips", ... (with machine) */
	struct elf_expect_item klass;       /* "ELF32" or "ELF64" */
	struct elf_expect_item data;        /* "lsb" or "msb" */
	struct elf_expect_item abi;         /* as elf_facts.abi */
	struct elf_expect_item isa;         /* as elf_facts.isa */
	struct elf_expect_item ext;         /* MIPS extension; "" asks for none */
	struct elf_expect_item fpabi;       /* as elf_facts.fpabi; "hard": any
					       hardware FP ABI, "64": 64 or 64a */
	struct elf_expect_item nan;         /* "legacy" or "2008" */
	int isa_at_most;                    /* 1: only a higher ISA is a mismatch */
};

/* What a build for target (a triple; NULL: the machine flagscope runs on)
 * with flags (a command line: compiler words and CFLAGS) must say.  An
 * unknown triple leaves everything but what the flags alone say
 * uncompared. */
void elf_expect_derive(const char *target, const char *flags, struct elf_expect *e);

/* The same when the target is not known (flagscope verify without
 * --target): the flags read for the file's own machine; the machine, class
 * and byte order are compared only as far as the flags ask (-m32, -mabi=64,
 * -EB). */
void elf_expect_for_file(const struct elf_facts *f, const char *flags, struct elf_expect *e);

/* Compare: appends one line per difference ("machine x86-64, mips expected
 * (target mips64el-linux-gnuabi64)", "ISA mips64r2 is above the mips3 that
 * -march=loongson2f asks (an object built for a later ISA was linked in)")
 * and returns how many.  A machine that differs stops the comparison there. */
int elf_expect_check(const struct elf_facts *f, const struct elf_expect *e,
		     struct strlist *mismatches);

/* One JSON object (no newline) with the keys file, class, data, machine,
 * osabi, type, entry, flags, static, interp, needed, runpath, abi, isa,
 * ext, pic, cpic, nan, fpabi, compilers, units [{name, path, producer,
 * switches, origin ("dwarf", "record" or "symtab")}], sections {name: bytes, ..., total}, file_size and mismatches
 * (mismatches may be NULL: an empty list). */
void elf_facts_json(const struct elf_facts *f, const struct strlist *mismatches,
		    struct strbuf *out);

#endif
