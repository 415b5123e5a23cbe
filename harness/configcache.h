/*
 * configcache.h - configure dominates autotools builds (gzip: ~50 s of
 * configure against ~9 s of make here), and configurations that differ only
 * in optimisation flags ask configure the same questions.  Builds of one
 * group (same recipe, source, toolchain, flags but for -O/-O1/-O2/-O3,
 * linkage, libc, target) share an autoconf cache file, but only once two uncached builds of
 * the group produced an identical config header: then the answers are
 * proven not to depend on the -O level.  A recipe opts in by passing
 * $FLAGSCOPE_CONFIG_CACHE to configure as --cache-file.
 *
 * Layout: <cache>/configcache/<group>/{seed,header,valid|invalid}.
 */
#ifndef FLAGSCOPE_CONFIGCACHE_H
#define FLAGSCOPE_CONFIGCACHE_H

#include "harness/build.h"

/* The group key of a build (64 hex digits + NUL). */
void configcache_group(const struct build *b, char out[65]);

/* Before a build: the path to export as FLAGSCOPE_CONFIG_CACHE (heap),
 * seeded with the group's proven cache when there is one; *seeded says
 * which. */
char *configcache_prepare(const struct build *b, int *seeded);

/* 1 when the build's group has a proven cache (configcache_prepare will
 * seed it). */
int configcache_ready(const struct build *b);

/* After a successful unseeded build: learn from its config.cache and
 * config header (the first build of a group keeps them; the second proves
 * or disproves that they can be shared). */
void configcache_learn(const struct build *b);

#endif
