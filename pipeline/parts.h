/*
 * parts.h - what a layer above the pipeline (search/) asks of the parts
 * below it (harness/) without reaching past the pipeline: a study loaded
 * and checked, a configuration's flags probed as `run` probes them, the
 * folder of a cached build, the meters that give a metric.  Each is the
 * owner's own function behind a pipeline name, so the paths, probes and
 * registries stay where harness/ defines them, and the layer above
 * compiles without harness/'s headers (its types are only named here).
 */
#ifndef FLAGSCOPE_PIPELINE_PARTS_H
#define FLAGSCOPE_PIPELINE_PARTS_H

#include "base/outcome.h"
#include "flagsets/matrix.h"
#include "flagsets/study.h"
#include "pipeline/pipeline.h"

/* study_load(path), then the names only the harness knows (meters, libc
 * kinds, runners: study_check_names).  0, or -1 with "file:line: ..."
 * lines in err; the caller releases s either way. */
int pipeline_study_load(const char *path, struct study *s, struct strbuf *err);

/* Does cfg's compiler take its flags (an empty program compiled and
 * linked, the probe `run` makes)?  OUTCOME_OK, or OUTCOME_UNSUPPORTED_FLAG
 * with the compiler's message in *detail (heap). */
enum outcome pipeline_probe_flags(const struct config *cfg, const struct toolchain *tc,
				  char **detail);

/* The switch that makes tc record its command line in each unit. */
const char *pipeline_record_flag(const struct toolchain *tc);

/* A compiler's identity (a hash of its path and `-v`: harness/toolchain.h)
 * and its version line ("gcc version 12.2.0 ..."); tc's own strings. */
const char *pipeline_toolchain_id(const struct toolchain *tc);
const char *pipeline_toolchain_version(const struct toolchain *tc);

/* What the pipeline's events say, as `run` would log them: a build done
 * ("[build 3/8] gcc O2 crc32: ok"), a run done ("[run 5/40] gcc O2 crc32
 * rep 1: ok", with the detail of a failure), into out. */
void pipeline_build_line(const struct build *b, size_t done, size_t total, struct strbuf *out);
void pipeline_run_line(const struct pipeline_run_event *e, struct strbuf *out);

/* The folder of the cached build with this key (heap): its out/ holds the
 * binaries, its build.log the build's output (harness/build.h). */
char *pipeline_build_dir(const char *key);

/* The meters a study measuring only `metric` on cfg's runs needs, chosen
 * from the meter registry (harness/meter.h): "rusage" (every run has it,
 * and it is the cheapest), then the first other registered meter that
 * gives metric, unless the runner cfg's runs select brings its own meter
 * that does (qemu-insn under an emulator).  Replaces *meters. */
void pipeline_meters_for(const struct study *s, const struct config *cfg, const char *metric,
			 struct strlist *meters);

#endif
