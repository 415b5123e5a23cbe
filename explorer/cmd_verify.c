/*
 * cmd_verify.c - flagscope verify: prove from ELF files which flags, ABI
 * and linkage they got.  Exit 0 all as expected, 1 a mismatch, 2 a file
 * that is not a readable ELF (or a usage error).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explorer/commands.h"
#include "explorer/options.h"
#include "harness/debpkg.h"
#include "harness/elf.h"

static const char *expect_flags;
static const char *unit_prefix;
static const char *target;
static const char *sources_dir;
static const char *objects_dir;
static char *lto_why; /* elf_lto_check_tree's verdict on the current file, or NULL */
static const char *format;
static int want_static, want_dynamic;
static format_set verify_formats_of(struct strbuf *err); /* verify_formats[], below */

static const struct option_spec verify_opts[] = {
	{.long_name = "expect", .short_name = 'e', .type = OPT_STRING, .value = &expect_flags,
	 .argname = "FLAGS",
	 .help = "flags every compile unit must have got, e.g. \"-O3 -march=loongson2f\""},
	{.long_name = "target", .short_name = 't', .type = OPT_STRING, .value = &target,
	 .argname = "TRIPLE",
	 .help = "the files must be for this target, e.g. mips64el-linux-gnuabi64 (class, machine, byte order, ABI)"},
	{.long_name = "static", .type = OPT_FLAG, .value = &want_static,
	 .help = "the files must be statically linked"},
	{.long_name = "dynamic", .type = OPT_FLAG, .value = &want_dynamic,
	 .help = "the files must be dynamically linked"},
	{.long_name = "unit-prefix", .type = OPT_STRING, .value = &unit_prefix, .argname = "DIR",
	 .help = "check only compile units whose source lies under DIR"},
	{.long_name = "sources", .type = OPT_STRING, .value = &sources_dir, .argname = "DIR",
	 .help = "the program's source tree: a unit named like a C file under DIR that recorded nothing is a mismatch"},
	{.long_name = "objects", .type = OPT_STRING, .value = &objects_dir, .argname = "DIR",
	 .help = "the build tree: with -flto in --expect, a clang-built file's LTO is verified when the object files (*.o) under DIR are LLVM bitcode"},
	{.long_name = "format", .short_name = 'f', .type = OPT_FORMAT, .value = &format,
	 .argname = "FORMAT", .help = "output format", .formats = verify_formats_of, .def = "table"},
	{0},
};

const struct command_spec verify_cmd = {
	.name = "verify",
	.usage = "FILE|PACKAGE-TREE... [--expect FLAGS] [--target TRIPLE] [--static] [--unit-prefix DIR] "
		 "[--sources DIR] [--objects DIR] [--format FMT]",
	.summary = "prove from ELF files which flags, ABI and linkage they got",
	.details = "Reads each file with libelf and libdw: class, machine, type, linkage,\n"
		   "ABI/ISA (MIPS e_flags and .MIPS.abiflags), the compilers, each compile\n"
		   "unit's recorded switches (-frecord-gcc-switches, clang\n"
		   "-frecord-command-line, or DWARF producers with -g) and section sizes.\n"
		   "With --expect, an -O, -f or -m flag that a unit lacks or overrides later\n"
		   "is a mismatch, and -march/-mabi/-mfp.../-m32 are compared with what the\n"
		   "file states (MIPS e_flags: a higher ISA than asked means an object built\n"
		   "for a later ISA was linked in); --target also checks class, machine, byte\n"
		   "order and default ABI.  Units only the symbol table names recorded\n"
		   "nothing; with --expect one is a mismatch when it is the program's own: a\n"
		   "C file of that name lies under --sources DIR or, without it, beside the\n"
		   "sources of the units that did record (never a C library's objects).\n"
		   "LTO: with -flto in --expect, a GCC-built file must hold a unit GCC\n"
		   "optimised at link time (recorded as 'GNU GIMPLE ... -fltrans').  clang's\n"
		   "LTO leaves no trace in the file: --objects DIR (the build tree) judges it\n"
		   "from the object files, which clang -flto writes as LLVM bitcode; any bitcode\n"
		   "object verifies it, only machine-code objects are a mismatch, no objects\n"
		   "(or no --objects) leave it not judged, said on the 'lto' line.\n"
		   "A folder holding debian/rules is a built Debian source package's tree\n"
		   "(the build cache's out/ of a system = debian build): its shipped ELF\n"
		   "files, found in the debian/PACKAGE trees, are checked.\n"
		   "Exit status: 0 as expected, 1 a mismatch, 2 unreadable.",
	.opts = verify_opts,
};

/* One output format: a walk over the files with these printers plugged in. */
struct verify_format {
	enum format format;
	void (*begin)(void);
	void (*file)(const struct elf_facts *f, const struct strlist *mismatches, int first);
	void (*end)(void);
};

static void table_begin(void)
{
}

static void table_row(const char *key, const char *value)
{
	if (value && *value)
		printf("  %-11s %s\n", key, value);
}

static void table_file(const struct elf_facts *f, const struct strlist *mismatches, int first)
{
	struct strbuf sb = {0};
	char *s;

	printf("%s%s\n", first ? "" : "\n", f->file);
	sb_addf(&sb, "ELF%d %s", f->bits, f->data);
	if (f->machine_name)
		sb_addf(&sb, " %s", f->machine_name);
	else
		sb_addf(&sb, " machine %u", f->machine);
	sb_addf(&sb, ", %s, entry 0x%llx", f->type, f->entry);
	table_row("file", sb_str(&sb));
	sb_release(&sb);
	if (f->is_static >= 0)
		sb_add(&sb, f->is_static ? "static" : "dynamic");
	if (f->interp)
		sb_addf(&sb, " (interpreter %s)", f->interp);
	table_row("linkage", sb_str(&sb));
	sb_release(&sb);
	s = sl_join(&f->needed, " ");
	table_row("needed", s);
	free(s);
	table_row("runpath", f->runpath);
	if (f->abi)
		sb_addf(&sb, "abi %s", f->abi);
	if (f->isa)
		sb_addf(&sb, "%sisa %s", sb.len ? ", " : "", f->isa);
	if (f->ext)
		sb_addf(&sb, "%sext %s", sb.len ? ", " : "", f->ext);
	if (f->fpabi)
		sb_addf(&sb, "%sfp %s", sb.len ? ", " : "", f->fpabi);
	if (f->nan)
		sb_addf(&sb, "%snan %s", sb.len ? ", " : "", f->nan);
	if (f->pic >= 0)
		sb_addf(&sb, "%s%s", sb.len ? ", " : "",
			f->pic ? (f->cpic ? "pic cpic" : "pic") : (f->cpic ? "cpic" : "non-pic"));
	table_row("arch", sb_str(&sb));
	sb_release(&sb);
	for (size_t i = 0; i < f->compilers.n; i++)
		table_row(i ? "" : "compilers", f->compilers.v[i]);
	size_t nsym = 0;
	for (size_t i = 0; i < f->nunits; i++)
		nsym += f->units[i].origin == ELF_UNIT_SYMTAB;
	if (nsym)
		printf("  %-11s %zu (%zu named only by the symbol table)\n", "units", f->nunits, nsym);
	else
		printf("  %-11s %zu\n", "units", f->nunits);
	for (size_t i = 0; i < f->nunits; i++)
		if (f->units[i].origin != ELF_UNIT_SYMTAB)
			printf("    %-20s %s\n", f->units[i].name,
			       f->units[i].switches ? f->units[i].switches : "(no switches recorded)");
	/* a static C library brings hundreds, named like objects (printf.o,
	 * stdout.lo): the source names wrapped on a few lines, the rest counted */
	size_t others = 0, col = 0;
	const char *first_other = NULL;
	for (size_t i = 0; i < f->nunits; i++) {
		const char *name = f->units[i].name, *dot = strrchr(name, '.');
		if (f->units[i].origin != ELF_UNIT_SYMTAB)
			continue;
		if (!dot || !strcmp(dot, ".o") || !strcmp(dot, ".lo")) {
			if (!others++)
				first_other = name;
			continue;
		}
		if (!col || col + strlen(name) > 76) {
			printf("%s    %-20s", col ? "\n" : "", col ? "" : "(no record)");
			col = 25;
		}
		col += (size_t)printf(" %s", name);
	}
	if (others)
		printf("%s    %-20s %s%s%zu object%s named by the symbol table (%s%s)\n",
		       col ? "\n" : "", col ? "" : "(no record)", col ? "" : "", col ? "and " : "",
		       others, others == 1 ? "" : "s", first_other, others > 1 ? ", ..." : "");
	else if (col)
		printf("\n");
	for (const char *const *n = (const char *const[]){".text", ".rodata", ".data", ".bss", NULL};
	     *n; n++)
		sb_addf(&sb, "%s %llu  ", *n, elf_facts_section_size(f, *n));
	sb_addf(&sb, "total %llu", f->total_size);
	table_row("sizes", sb_str(&sb));
	sb_release(&sb);
	if (!mismatches)
		return;
	if (!mismatches->n)
		table_row("verdict", "as expected");
	for (size_t i = 0; i < mismatches->n; i++)
		table_row(i ? "" : "MISMATCH", mismatches->v[i]);
	/* a missing LTO is already a MISMATCH line */
	if (!lto_why || sl_find(mismatches, lto_why) < 0)
		table_row("lto", lto_why);
}

static void table_end(void)
{
}

static void json_begin(void)
{
	printf("[");
}

static void json_file(const struct elf_facts *f, const struct strlist *mismatches, int first)
{
	struct strbuf sb = {0};
	elf_facts_json(f, mismatches, &sb);
	elf_facts_json_add_lto(&sb, lto_why);
	printf("%s%s", first ? "\n" : ",\n", sb_str(&sb));
	sb_release(&sb);
}

static void json_end(void)
{
	printf("\n]\n");
}

static const struct verify_format verify_formats[] = {
	{.format = FORMAT_TABLE, .begin = table_begin, .file = table_file, .end = table_end},
	{.format = FORMAT_JSON, .begin = json_begin, .file = json_file, .end = json_end},
};

static format_set verify_formats_of(struct strbuf *err)
{
	return FORMAT_WRITERS("verify formats", verify_formats, err);
}

/* Units the symbol table alone names that are the program's own: named
 * like a C file under --sources DIR or, without it, found beside the
 * sources of the units that recorded switches (a C library's objects are
 * neither). */
static void check_sources(const struct elf_facts *f, struct strlist *mismatches)
{
	struct strlist names = {0}, dirs = {0};

	if (sources_dir) {
		elf_source_names(sources_dir, &names);
	} else {
		elf_facts_source_dirs(f, &dirs);
		for (size_t i = 0; i < f->nunits; i++) {
			const struct elf_unit *u = &f->units[i];
			/* a C library's "alloc.o" beside the program's own
			 * alloc.o is not a source */
			if (u->origin != ELF_UNIT_SYMTAB || strchr(u->name, '/') ||
			    !elf_is_source_name(u->name))
				continue;
			for (size_t d = 0; d < dirs.n; d++) {
				char *path = xasprintf("%s/%s", dirs.v[d], u->name);
				int here = file_exists(path);
				free(path);
				if (here) {
					sl_push(&names, u->name);
					break;
				}
			}
		}
	}
	elf_facts_check_sources(f, &names, NULL, mismatches);
	sl_release(&names);
	sl_release(&dirs);
}

/* A folder argument is a built Debian package's tree (system = debian:
 * the build cache's out/): it stands for the ELF files its binary packages
 * ship, found in its debian/PACKAGE trees (harness/debpkg.h).  -1 when a
 * folder is not a package's tree or ships no ELF file (said). */
static int expand_packages(struct strlist *files)
{
	struct strlist all = {0};
	int rc = 0;
	for (size_t i = 0; i < files->n && !rc; i++) {
		if (!is_dir(files->v[i])) {
			sl_push(&all, files->v[i]);
			continue;
		}
		char *rules = xasprintf("%s/debian/rules", files->v[i]);
		struct strlist rel = {0};
		if (file_exists(rules))
			debpkg_shipped_files(files->v[i], &rel);
		if (!rel.n) {
			error_msg(file_exists(rules)
					  ? "%s: the package's debian/PACKAGE trees ship no ELF file (build it first: "
					    "dpkg-buildpackage, or flagscope run --packages)"
					  : "%s: a folder that is not a Debian package's tree (give ELF files, or a "
					    "built package's tree with debian/rules)",
				  files->v[i]);
			rc = -1;
		}
		for (size_t k = 0; k < rel.n; k++)
			sl_push_owned(&all, xasprintf("%s/%s", files->v[i], rel.v[k]));
		sl_release(&rel);
		free(rules);
	}
	sl_release(files);
	*files = all;
	return rc;
}

int cmd_verify(int argc, char **argv)
{
	const struct verify_format *out;
	struct strlist files = {0};
	int rc = options_parse(&verify_cmd, argc, argv, &files), status = 0, first = 1;
	int checking;

	if (rc) {
		sl_release(&files);
		return rc > 0 ? 0 : 2;
	}
	if (!files.n || (want_static && want_dynamic)) {
		error_msg(files.n ? "verify: --static and --dynamic exclude each other (pick one)"
				  : "verify: no FILE given (see flagscope verify --help)");
		sl_release(&files);
		return 2;
	}
	out = FORMAT_WRITER(verify_formats, format); /* the option parser took only these */
	if (expand_packages(&files)) {
		sl_release(&files);
		return 2;
	}
	checking = expect_flags || want_static || want_dynamic || target;
	out->begin();
	for (size_t i = 0; i < files.n; i++) {
		struct elf_facts f;
		struct strbuf err = {0};
		struct strlist mismatches = {0};
		if (elf_facts_read(files.v[i], &f, &err)) {
			fflush(stdout);
			error_msg("%s: %s", files.v[i], sb_str(&err));
			sb_release(&err);
			status = 2;
			continue;
		}
		if (checking) {
			struct elf_expect want;
			if (target)
				elf_expect_derive(target, expect_flags, &want);
			else
				elf_expect_for_file(&f, expect_flags, &want);
			elf_facts_check(&f, expect_flags, want_static ? 1 : want_dynamic ? 0 : -1,
					unit_prefix, &mismatches);
			elf_expect_check(&f, &want, &mismatches);
			if (expect_flags)
				check_sources(&f, &mismatches);
			elf_lto_check_tree(&f, expect_flags, objects_dir, &mismatches, &lto_why);
			if (mismatches.n && status == 0)
				status = 1;
		}
		out->file(&f, checking ? &mismatches : NULL, first);
		free(lto_why);
		lto_why = NULL;
		first = 0;
		sl_release(&mismatches);
		elf_facts_release(&f);
	}
	out->end();
	sl_release(&files);
	return status;
}
