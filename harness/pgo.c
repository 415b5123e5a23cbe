/* pgo.c - see pgo.h */
#include "harness/pgo.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "harness/execute.h"
#include "harness/libc.h"
#include "harness/runner.h"

static int is_clang(const struct build *b)
{
	return b->tc && b->tc->kind == TC_CLANG;
}

/* gcc names a .gcda by its object's path: the prefix path makes it
 * relative to the build folder, so the measured build (another folder)
 * finds the instrumented build's profile. */
char *pgo_flags(const struct build *b)
{
	switch (b->pgo_phase) {
	case PGO_GENERATE:
		return is_clang(b) ? xasprintf("-fprofile-instr-generate=%s/profile/%%p.profraw", b->dir)
				   : xasprintf("-fprofile-generate=%s/profile -fprofile-prefix-path=%s",
					       b->dir, b->out_dir);
	case PGO_USE:
		if (!b->pgo_profile)
			return xstrdup("");
		return is_clang(b) ? xasprintf("-fprofile-instr-use=%s", b->pgo_profile)
				   : xasprintf("-fprofile-use=%s -fprofile-prefix-path=%s -fprofile-correction",
					       b->pgo_profile, b->out_dir);
	case PGO_NONE:
		break;
	}
	return xstrdup("");
}

void pgo_key_add(const struct build *b, struct strbuf *key)
{
	if (b->pgo_phase == PGO_GENERATE)
		sb_add(key, "pgo=generate\n");
	else if (b->pgo_phase == PGO_USE)
		sb_addf(key, "pgo=use\nprofile=%s\n",
			b->pgo_profile_hash[0] ? b->pgo_profile_hash : "untrained");
}

int pgo_check_binary(const struct build *b, const char *path, struct strbuf *err)
{
	static const char *const runtime[] = {"__gcov_init", "__llvm_profile_runtime"};
	if (b->pgo_phase != PGO_USE)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(runtime); i++)
		if (elf_defines_symbol(path, runtime[i]) == 1) {
			sb_addf(err, "instrumented (it defines %s): a profile-guided build must not be the instrumented one",
				runtime[i]);
			return -1;
		}
	return 0;
}

static void settle(struct build *b, enum outcome o, char *detail)
{
	b->settled = 1;
	b->outcome = o;
	free(b->detail);
	b->detail = detail;
}

/* The instrumented build of b, or 0 with b settled when it cannot be had. */
static int pgo_instrumented(struct build *b, struct build *gen)
{
	if (b->cfg->target) {
		settle(b, OUTCOME_UNSUPPORTED,
		       xasprintf("pgo gen-use: not for cross-built configurations (the training run would run under QEMU; use pgo = none for %s)",
				 b->cfg->target));
		return 0;
	}
	if (!recipe_train_run(b->recipe)) {
		settle(b, OUTCOME_UNSUPPORTED,
		       xasprintf("pgo gen-use: %s has no training run (add a [train] section with a smaller input to its recipe, see doc/recipe-format.md)",
				 b->recipe->name));
		return 0;
	}
	*gen = (struct build){.cfg = b->cfg, .tc = b->tc, .recipe = b->recipe,
			      .src_dir = b->src_dir, .src_id = b->src_id,
			      .extra_dirs = b->extra_dirs,
			      .pgo_phase = PGO_GENERATE};
	build_init(gen);
	return 1;
}

/* clang's raw profiles merged with the llvm-profdata of the compiler's own
 * LLVM (clang 14: /usr/lib/llvm-14/bin), else the one on PATH */
static int merge_clang(const struct build *gen, const char *out, struct strbuf *err)
{
	char *real = realpath(gen->tc->path, NULL);
	char *slash = real ? strrchr(real, '/') : NULL;
	char *tool = NULL;
	if (slash) {
		*slash = '\0';
		tool = xasprintf("%s/llvm-profdata", real);
	}
	if (!tool || !file_exists(tool)) {
		free(tool);
		tool = xstrdup("llvm-profdata");
	}
	char *cmd = xasprintf("'%s' merge -o '%s' '%s'/profile/*.profraw 2>&1", tool, out, gen->dir);
	char *log = NULL;
	int rc = run_shell_capture(cmd, &log);
	if (rc) {
		char *sum = build_log_summary(log ? log : "");
		sb_addf(err, "%s merge failed: %s (install llvm-14, scripts/packages.txt)", tool, sum);
		free(sum);
	}
	free(log);
	free(cmd);
	free(tool);
	free(real);
	return rc ? -1 : 0;
}

/* sha256 over the profile: clang's one file, or gcc's .gcda files by name */
static void profile_hash(const char *profile, char hex[65])
{
	if (is_dir(profile))
		sha256_dir_hex(profile, hex);
	else if (sha256_file_hex(profile, hex))
		strcpy(hex, "unreadable");
}

static int profile_written(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, NULL), files = 0;
	for (int i = 0; i < n; i++) {
		files += names[i]->d_name[0] != '.';
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return files > 0;
}

/* Run the training run on gen and leave its profile; its path in
 * *profile.  A cached instrumented build keeps the profile it made. */
static int pgo_train(struct build *gen, const struct recipe_run *t, char **profile,
		     const volatile sig_atomic_t *stop, struct strbuf *err)
{
	char *done = xasprintf("%s/profile.done", gen->dir);
	*profile = is_clang(gen) ? xasprintf("%s/merged.profdata", gen->dir)
				 : xasprintf("%s/profile", gen->dir);
	int rc = 0;
	if (gen->cached && file_exists(done)) {
		free(done);
		return 0;
	}
	char *raw = xasprintf("%s/profile", gen->dir), *in_dir = NULL;
	remove_tree(raw);
	mkdir_p(raw, 0755);
	if (workload_inputs_stop(gen->recipe, &in_dir, stop, err)) {
		rc = -1;
	} else {
		struct exec_ctx ctx = {.runner = &runner_native, .stop = stop};
		struct exec_result res;
		execute_run(&ctx, gen, t, in_dir, 0, NULL, NULL, &res);
		if (res.outcome != OUTCOME_OK) {
			sb_addf(err, "%s: %s", outcome_name(res.outcome), res.detail ? res.detail : "");
			rc = -1;
		}
		exec_result_release(&res);
	}
	/* a run that never reached the instrumented code (a script that runs
	 * something else) trains nothing: the build would be a plain one */
	if (!rc && !profile_written(raw)) {
		sb_addf(err, "it wrote no profile into %s (the training run must run the workload's own binaries)",
			raw);
		rc = -1;
	}
	if (!rc && is_clang(gen))
		rc = merge_clang(gen, *profile, err);
	if (!rc)
		file_write(done, "", 0);
	free(in_dir);
	free(raw);
	free(done);
	return rc;
}

/* The measured build gets the profile, and with its hash its final key.
 * After a stop it is left as it is: build_all marks it interrupted (not
 * failed), so the resumed study trains it. */
static void pgo_use(struct build *b, struct build *gen, const volatile sig_atomic_t *stop)
{
	const struct recipe_run *t = recipe_train_run(b->recipe);
	char *train = recipe_run_fact("train", t), *profile = NULL;
	struct strbuf err = {0};
	if (stop && *stop) {
		/* nothing to train with, or the training run was killed */
	} else if (gen->outcome != OUTCOME_OK) {
		settle(b, gen->outcome, xasprintf("pgo instrumented build: %s", gen->detail ? gen->detail : ""));
	} else if (pgo_train(gen, t, &profile, stop, &err)) {
		if (!(stop && *stop))
			settle(b, OUTCOME_BUILD_FAILED,
			       xasprintf("pgo training run %s failed: %s", train, sb_str(&err)));
	} else {
		build_release(b);
		b->pgo_profile = profile;
		profile = NULL;
		profile_hash(b->pgo_profile, b->pgo_profile_hash);
		build_init(b);
	}
	free(b->pgo_train);
	b->pgo_train = train;
	free(profile);
	sb_release(&err);
}

size_t pgo_train_all(struct build *builds, size_t n, int jobs, const volatile sig_atomic_t *stop)
{
	struct build *gen = xcalloc(n ? n : 1, sizeof(*gen));
	size_t *of = xcalloc(n ? n : 1, sizeof(*of)), m = 0;
	for (size_t i = 0; i < n; i++)
		if (builds[i].pgo_phase == PGO_USE && !builds[i].settled &&
		    pgo_instrumented(&builds[i], &gen[m]))
			of[m++] = i;
	build_all(gen, m, jobs, NULL, NULL, stop);
	for (size_t k = 0; k < m; k++) {
		pgo_use(&builds[of[k]], &gen[k], stop);
		build_release(&gen[k]);
	}
	free(gen);
	free(of);
	return m;
}
