/*
 * layout_check.h - whether a layout variant of a build (layouts = N,
 * flagsets/matrix.h) differs from its plain build only in addresses.
 *
 * What is compared, per binary of the recipe, with libelf: the functions
 * of the symbol table (.symtab, STT_FUNC symbols with a size, defined in
 * a section), matched by name and, for names defined more than once
 * (static functions of several files, listed by two linkers in other
 * orders), each with the first left of the other file's that is the same
 * code, else of the same size; and each matched pair's bytes, except
 * those inside an address field.  The
 * address fields are the variant's: the places its link's relocations
 * patched (a variant is linked with --emit-relocs, which keeps them in the
 * file: REL/RELA sections that apply to executable sections, their
 * r_offset an address).  A relocation covers 8 bytes for x86-64's 64-bit
 * types, else 4 (an rel32/abs32 field, or a RISC instruction word whose
 * immediate it patches).
 *
 * A variant passes when, in every binary:
 *  - both files have the same functions (none only in one of them);
 *  - every function has the same size (st_size: its code from its first
 *    instruction to its last, without the padding before it);
 *  - every byte of every function is equal but inside an address field:
 *    the same instructions, only the addresses they name differ;
 *  - at least one function starts at another address (else the variant
 *    measures the plain build's layout again).
 * A variant without relocations in the file compares all its bytes: any
 * call or address operand that moved fails it, with the hint that its
 * link did not keep them (a recipe whose link ignores LDFLAGS).
 *
 * Nothing here exits or prints; 0 or -1 with the reason in why.
 */
#ifndef FLAGSCOPE_LAYOUT_CHECK_H
#define FLAGSCOPE_LAYOUT_CHECK_H

#include <stddef.h>

#include "base/util.h"
#include "harness/build.h"

struct layout_diff {
	size_t functions;     /* in both files */
	size_t moved;         /* of them, at another address */
	int reordered;        /* their order by address differs between the files */
	size_t resized;       /* of them, of another size */
	size_t only_one;      /* in one file only */
	size_t code_bytes;    /* the sizes of the functions in both, summed */
	size_t address_bytes; /* of those bytes, how many differ inside an address field */
	size_t other_bytes;   /* ... and outside one: other code */
	size_t relocations;   /* the variant's code relocations read (0: none kept) */
	char first_other[96]; /* "main+0x1c": where the first other byte is, or "" */
};

/* Compare two files (above), adding to d (zero it first).  The address
 * fields are variant's.  0, or -1 with "PATH: ..." in why when a file is
 * not ELF or has no symbol table. */
int layout_compare_files(const char *plain, const char *variant, struct layout_diff *d,
			 struct strbuf *why);

/* The verdict on d (above): 1 passes, 0 fails with the reason in why
 * ("3 of 40 functions changed size ..."). */
int layout_diff_ok(const struct layout_diff *d, struct strbuf *why);

/* Every binary of variant against plain's (both built, outcome ok).  1
 * passes, 0 fails, -1 cannot tell; why gets the reason, or on a pass
 * "40 functions, the same instructions (312 address bytes differ), 38
 * moved, in another order". */
int layout_check_builds(const struct build *plain, const struct build *variant,
			struct strbuf *why);

#endif
