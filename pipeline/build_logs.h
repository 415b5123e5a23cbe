/*
 * build_logs.h - build logs kept outside the build cache: a folder of
 * WORKLOAD/LABEL.log (sweep_log_path; a Debian package's test step's log
 * beside it as LABEL.tests.log), the folder a study's fact
 * build_logs names, where report --pivot sweep points at the log of each
 * cell that broke.  `run --logs DIR` keeps its builds' logs there (a
 * Slurm shard's node-local cache is out of the merge job's reach), and
 * `merge --logs DIR` gathers every merged build's log: from the folders
 * the shards kept theirs in first, from this machine's build cache after.
 */
#ifndef FLAGSCOPE_BUILD_LOGS_H
#define FLAGSCOPE_BUILD_LOGS_H

#include "base/util.h"

/* The fact that names a study's log folder */
#define BUILD_LOGS_FACT "build_logs"

/* Where the logs came from */
struct build_logs_count {
	long kept;     /* from a folder of from (already in dir: counted too) */
	long cached;   /* from this machine's build cache */
	long missing;  /* nowhere */
};

/* The log of build key (of workload, under the configuration labelled
 * label) into dir/WORKLOAD/LABEL.log, from the first folder of from (may
 * be NULL; the same layout, e.g. a shard's run --logs folder) that has
 * it, else from the build cache's <key>/build.log; counted in *n.  A
 * Debian package's test step log (<key>/tests.log, debpkg.h) goes beside
 * it as LABEL.tests.log, found the same way.  0, or -1 when one could not
 * be written (said in one line). */
int build_log_keep(const char *dir, const char *workload, const char *label, const char *key,
		   const struct strlist *from, struct build_logs_count *n);

/* "DIR: N build logs kept (K from the shards' log folders, C from the
 * build cache), M found neither ..." (heap string) */
char *build_logs_summary(const char *dir, const struct build_logs_count *n);

#endif
