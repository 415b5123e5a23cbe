/*
 * fingerprint.h - what a folder tree holds, as lines and as one sha256:
 * a change anywhere in its content changes it, new times alone do not.
 *
 * One line per entry, "PATH\tMODE\tWHAT" (PATH relative to the root, MODE
 * in octal as lstat gives it), sorted:
 *   a file     its content's sha256
 *   a folder   nothing, and its entries follow under PATH/
 *   a link     its target text, a tab, and what it leads to: a file's
 *              sha256, "folder" with that folder's entries listed under
 *              the link's PATH/ (a tree may keep its sources behind links),
 *              "dangling", or "loop" for a folder the walk is already in
 *   other      nothing (fifos, sockets: never read)
 * Used by the local: source kind (harness/fetch.c) and a recipe's hash
 * (workloads/recipe.c), so a bundled recipe's subfolders and a local:
 * tree's linked content rebuild when they change.
 */
#ifndef FLAGSCOPE_FINGERPRINT_H
#define FLAGSCOPE_FINGERPRINT_H

#include "base/util.h"

/* Append root's lines (sorted) to lines, leaving out entries named skip
 * (NULL: none; e.g. ".git", which git changes without changing sources)
 * at any depth.  0, or -1 with "cannot read PATH: CAUSE" in err (lines
 * then holds what was read). */
int fingerprint_lines(const char *root, const char *skip, struct strlist *lines,
		      struct strbuf *err);

/* sha256 (hex) of root's lines joined by newlines; 0, or -1 with err. */
int fingerprint_tree(const char *root, char out[65], struct strbuf *err);

#endif
