/*
 * sysroot_internal.h - the sysroot builder's helpers shared between
 * sysroot.c (flags, build steps, layout) and sysroot_src.c (Debian source
 * packages).  Not for other modules.
 */
#ifndef FLAGSCOPE_SYSROOT_INTERNAL_H
#define FLAGSCOPE_SYSROOT_INTERNAL_H

#include <stdio.h>

#include "base/util.h"

/* A Debian source package downloaded into <cache>/sysroots/src/<pkg>/. */
struct deb_source {
	char *pkg;
	char *dsc;     /* "musl_1.2.3-1.dsc" */
	char *orig;    /* the upstream tarball's file name */
	char *dir;     /* where the files are */
	char id[65];   /* sha256 of the .dsc's SHA256 as apt lists it */
};

/* Ask apt which files make the candidate source package, download the
 * missing ones (apt checks their hashes).  0, or -1 with the reason in err. */
int deb_source_get(const char *pkg, struct deb_source *s, FILE *log, struct strbuf *err);
void deb_source_release(struct deb_source *s);

/* The tree dpkg-source -x makes (Debian's patches applied), unpacked once
 * next to the files; *tree is heap.  0 or -1. */
int deb_source_unpack(const struct deb_source *s, char **tree, FILE *log, struct strbuf *err);

/* Extract the members matching the tar wildcard from the upstream tarball,
 * once, into <dir>/<subdir>; *top is the tarball's top folder in there
 * (heap).  0 or -1. */
int deb_source_extract(const struct deb_source *s, const char *subdir, const char *wildcards,
		       char **top, FILE *log, struct strbuf *err);

/* 'text' quoted for /bin/sh */
void sysroot_shell_quote(struct strbuf *sb, const char *text);

#endif
