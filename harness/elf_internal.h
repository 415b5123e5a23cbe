/*
 * elf_internal.h - what elf.c shares with elf_arch.c and elf_units.c while
 * one file is being read.  Not for other modules: they use elf.h.
 */
#ifndef FLAGSCOPE_ELF_INTERNAL_H
#define FLAGSCOPE_ELF_INTERNAL_H

#include <gelf.h>

#include "harness/elf.h"

struct elf_reader {
	Elf *elf;
	char *copy;        /* private copy of the image that libelf works on */
	const char *image; /* == copy */
	size_t size;
	size_t shnum, shstrndx; /* checked: every section lies inside the image */
	int has_interp;         /* a PT_INTERP program header */
	struct elf_facts *f;
	struct strbuf *err;
};

/* Append "not a valid ELF: <reason>" to r->err; returns -1. */
int elf_reader_fail(struct elf_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The section's name ("" when it has none), filling *sh; NULL if unreadable. */
const char *elf_section_name(struct elf_reader *r, Elf_Scn *scn, GElf_Shdr *sh);
/* The first section with that name (want != NULL) or that type (type != 0). */
Elf_Scn *elf_find_section(struct elf_reader *r, const char *want, unsigned type);
/* The section's file bytes, or NULL when it has none. */
const Elf_Data *elf_section_bytes(Elf_Scn *scn);
/* Append the section's NUL-separated strings, trimmed, skipping empty ones
 * (and repeats when dedupe). */
void elf_section_strings(Elf_Scn *scn, struct strlist *out, int dedupe);

/* Fill machine_name, abi, isa, ext, pic, cpic, nan and fpabi (elf_arch.c). */
void elf_arch_read(struct elf_reader *r);
/* Append the names of the STT_FILE symbols of one SHT_SYMTAB section, in
 * order (nothing when symtab is NULL or not a symbol table). */
void elf_symtab_file_names(Elf *elf, Elf_Scn *symtab, struct strlist *names);
/* Fill units from DWARF and .GCC.command.line (elf_units.c). */
void elf_units_read(struct elf_reader *r);

#endif
