/*
 * layout_check.h - whether a layout variant of a build (layouts = N,
 * flagsets/matrix.h) differs from its plain build only in addresses.
 *
 * What is compared, per binary of the recipe, with libelf: the functions
 * of the symbol table (.symtab, STT_FUNC symbols with a size, defined in
 * a section), matched by name and, for names defined more than once
 * (static functions of several files), by their order in the table.
 *
 * A variant passes when, in every binary:
 *  - both files have the same functions (none only in one of them);
 *  - every function has the same size (st_size: its code from its first
 *    instruction to its last, without the padding before it), so no
 *    instruction was added, removed or re-encoded to another length;
 *  - at least one function starts at another address (else the variant
 *    measures the plain build's layout again).
 * Not checked: that the bytes are equal but for address operands (a
 * call's or a RIP-relative load's displacement): struct layout_diff
 * counts the bytes that differ, for the record, and judges nothing by it.
 *
 * Nothing here exits or prints; 0 or -1 with the reason in why.
 */
#ifndef FLAGSCOPE_LAYOUT_CHECK_H
#define FLAGSCOPE_LAYOUT_CHECK_H

#include <stddef.h>

#include "base/util.h"
#include "harness/build.h"

struct layout_diff {
	size_t functions;   /* in both files */
	size_t moved;       /* of them, at another address */
	size_t resized;     /* of them, of another size */
	size_t only_one;    /* in one file only */
	size_t code_bytes;  /* the sizes of the functions in both, summed */
	size_t bytes_differ; /* of those bytes, how many differ (address operands) */
};

/* Compare two files (above), adding to d (zero it first).  0, or -1 with
 * "PATH: ..." in why when a file is not ELF or has no symbol table. */
int layout_compare_files(const char *plain, const char *variant, struct layout_diff *d,
			 struct strbuf *why);

/* The verdict on d (above): 1 passes, 0 fails with the reason in why
 * ("3 of 40 functions changed size"). */
int layout_diff_ok(const struct layout_diff *d, struct strbuf *why);

/* Every binary of variant against plain's (both built, outcome ok).  1
 * passes, 0 fails, -1 cannot tell; why gets the reason, or on a pass
 * "40 functions, same sizes, 38 moved, 6% of their bytes differ". */
int layout_check_builds(const struct build *plain, const struct build *variant,
			struct strbuf *why);

#endif
