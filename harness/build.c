/* build.c - see build.h */
#include "harness/build.h"
#include "harness/build_internal.h"
#include "harness/build_log.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/configcache.h"
#include "harness/elf.h"
#include "harness/guard.h"
#include "harness/libc.h"
#include "harness/pgo.h"
#include "harness/strays.h"

void build_binaries(const struct build *b, struct strlist *rel)
{
	for (size_t i = 0; i < b->recipe->binaries.n; i++)
		sl_push(rel, b->recipe->binaries.v[i]);
	if (recipe_is_package(b->recipe)) {
		char *out = xasprintf("%s/out", b->dir);
		debpkg_shipped_files(out, rel);
		free(out);
	}
}

/* "sha256 HEX NAME" of each of the build's binaries in b's out folder,
 * one a line; NULL when one cannot be read */
char *build_binary_hashes(const struct build *b)
{
	struct strbuf sb = {0};
	struct strlist bins = {0};
	build_binaries(b, &bins);
	for (size_t i = 0; i < bins.n; i++) {
		char *path = xasprintf("%s/out/%s", b->dir, bins.v[i]);
		char hex[65];
		int rc = sha256_file_hex(path, hex);
		free(path);
		if (rc) {
			sb_release(&sb);
			sl_release(&bins);
			return NULL;
		}
		sb_addf(&sb, "sha256 %s %s\n", hex, bins.v[i]);
	}
	sl_release(&bins);
	return sb_detach(&sb);
}

/* A finished build is trusted only while its binaries hash to what its
 * status recorded: a binary changed or planted after the build (a shared
 * or damaged cache) is built again, never run.  A status without hashes
 * (an older flagscope's) is not trusted either. */
int build_status_trusted(const struct build *b)
{
	char *status = xasprintf("%s/status", b->dir);
	char *text = file_read(status, NULL);
	free(status);
	char *nl = text && str_starts_with(text, "ok") ? strchr(text, '\n') : NULL;
	char *hashes = nl ? build_binary_hashes(b) : NULL;
	/* a package's hashes are of the files it shipped: gone files differ */
	int ok = hashes && (*hashes || !b->recipe->binaries.n) && !strcmp(nl + 1, hashes);
	free(hashes);
	free(text);
	return ok;
}

/* A build linked by a linker its flags choose (-fuse-ld=lld: layout
 * variants shuffle sections by seed, and another lld may order them
 * otherwise) keys that linker's version, as the compiler's is keyed
 * through the toolchain id */
static void linker_key_add(const struct build *b, struct strbuf *key)
{
	const char *at = b->cfg->ldflags ? strstr(b->cfg->ldflags, "-fuse-ld=") : NULL;
	if (!at)
		return;
	char *fuse = xstrndup(at, strcspn(at, " \t"));
	char *version = toolchain_linker_version(b->cfg->cc, fuse);
	sb_addf(key, "linker=%s %s\n", fuse, version);
	free(version);
	free(fuse);
}

void build_init(struct build *b)
{
	struct strbuf sb = {0};
	/* the name too: two workloads from byte-identical recipe folders (a
	 * user's copy under another name) are two builds, never one folder
	 * built twice at once */
	sb_addf(&sb, "workload=%s\nrecipe=%s\nsource=%s\ntoolchain=%s\ncc=%s\ncflags=%s\nldflags=%s\nlink=%d\n",
		b->recipe->name, b->recipe->hash, b->src_id, b->tc->id, b->cfg->cc, b->cfg->cflags,
		b->cfg->ldflags, b->cfg->link);
	if (b->cfg->target)
		sb_addf(&sb, "target=%s\nsysroot=%s\n", b->cfg->target,
			b->cfg->sysroot ? b->cfg->sysroot : "");
	/* the commands a build system runs, and a study's or the command
	 * line's source in place of the recipe's, are not in recipe.ini */
	if (b->recipe->system.name) {
		char *script = recipe_build_script(b->recipe);
		sb_addf(&sb, "system=%s\n", script);
		free(script);
	}
	if (b->cfg->noise_floor) /* built again, not the baseline's build */
		sb_add(&sb, "copy=noise-floor\n");
	if (b->cfg->layout) /* its flag is in cflags; the variant is named too */
		sb_addf(&sb, "layout=%d\n", b->cfg->layout);
	linker_key_add(b, &sb);
	if (b->recipe->source_origin)
		sb_addf(&sb, "source_override=%s\n", b->recipe->source);
	for (size_t i = 0; i < b->recipe->nextra; i++)
		if (b->recipe->extra[i].origin)
			sb_addf(&sb, "source_override.%s=%s\n", b->recipe->extra[i].name,
				b->recipe->extra[i].spec);
	if (b->cfg->pgo && b->pgo_phase == PGO_NONE)
		b->pgo_phase = PGO_USE;
	pgo_key_add(b, &sb);
	sha256_hex(sb.buf, sb.len, b->key);
	sb_release(&sb);
	b->dir = build_dir_of_key(b->key);
	b->out_dir = xasprintf("%s/out", b->dir);
	b->size_text = b->size_data = b->size_bss = b->size_rodata = b->size_file = -1;
	b->tests_seconds = -1;
	b->cached = build_status_trusted(b);
}

char *build_dir_of_key(const char *key)
{
	return xasprintf("%s/builds/%s", flagscope_cache_dir(), key);
}

void build_release(struct build *b)
{
	free(b->dir);
	free(b->out_dir);
	free(b->detail);
	free(b->facts_json);
	free(b->pgo_profile);
	free(b->pgo_train);
	b->dir = b->out_dir = b->detail = b->facts_json = b->pgo_profile = b->pgo_train = NULL;
}

/* The configuration's flags and the profile-guided phase's (pgo.h) */
static char *build_flags(const struct build *b, const char *flags)
{
	char *pgo = pgo_flags(b);
	char *all = xasprintf("%s%s%s", flags, *flags && *pgo ? " " : "", pgo);
	free(pgo);
	return all;
}

/* The record flag makes the compiler keep its switches in the object, so
 * verify can prove them; it does not change code generation. */
static char *build_cflags(const struct build *b)
{
	char *flags = build_flags(b, b->cfg->cflags);
	char *all = xasprintf("%s%s%s", flags, *flags ? " " : "", toolchain_record_flag(b->tc));
	free(flags);
	return all;
}

static const char *const flag_complaints[] = {
	"unrecognized command-line option", "unrecognized command line option",
	"unknown argument", "invalid argument", "unknown target CPU", "bad value",
	"is not supported", "ignored-optimization-argument", "unsupported option",
	"invalid value", "not supported for this target", "unknown type name",
	"unrecognized option",
};

static char *first_complaint(const char *text)
{
	for (size_t i = 0; i < ARRAY_SIZE(flag_complaints); i++) {
		const char *p = strstr(text, flag_complaints[i]);
		if (!p)
			continue;
		while (p > text && p[-1] != '\n')
			p--;
		const char *end = strchr(p, '\n');
		return end ? xstrndup(p, (size_t)(end - p)) : xstrdup(p);
	}
	return NULL;
}

/* Whether word occurs in line as a whole word (not "-O2" inside "-O2x"). */
static int has_word(const char *line, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(line, word); p; p = strstr(p + 1, word)) {
		char before = p > line ? p[-1] : ' ', after = p[n];
		if ((isalnum((unsigned char)before) || before == '-' || before == '_') ||
		    isalnum((unsigned char)after) || after == '-' || after == '_' || after == '=')
			continue;
		return 1;
	}
	return 0;
}

/* Whether a complaint line names one of these flags: the flag itself, or
 * the quoted value of a -X=V flag (GCC: "bad value ('foo') for '-march='
 * switch", clang: "unknown target CPU 'foo'"). */
static int names_flag(const char *line, const struct strlist *flags)
{
	for (size_t i = 0; i < flags->n; i++) {
		const char *w = flags->v[i], *eq = strchr(w, '=');
		if (w[0] != '-' || !w[1])
			continue;
		if (has_word(line, w))
			return 1;
		/* -Wl,--gc-sections,-z,now: the linker complains about its parts */
		if (str_starts_with(w, "-Wl,")) {
			struct strlist parts = {0};
			char *list = xstrdup(w + 4);
			for (char *save, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save))
				if (t[0] == '-')
					sl_push(&parts, t);
			free(list);
			int named = parts.n && names_flag(line, &parts);
			sl_release(&parts);
			if (named)
				return 1;
		}
		if (eq && eq[1]) {
			char *q1 = xasprintf("'%s'", eq + 1), *q2 = xasprintf("\u2018%s\u2019", eq + 1);
			int named = strstr(line, q1) || strstr(line, q2);
			free(q1);
			free(q2);
			if (named)
				return 1;
		}
	}
	return 0;
}

/* The first line of a failed build's log that complains about one of the
 * configuration's own flags, or NULL.  A complaint naming none of them (a
 * source's "unknown type name", a configure test's "is not supported", a
 * flag the project's own Makefile passes) is the build's own failure. */
static char *config_flag_complaint(const char *text, const struct config *cfg)
{
	struct strlist flags = {0};
	char *found = NULL;
	const char *line = text;

	sl_split_ws(&flags, cfg->cflags);
	sl_split_ws(&flags, cfg->ldflags);
	while (*line && !found) {
		const char *end = strchr(line, '\n');
		char *l = end ? xstrndup(line, (size_t)(end - line)) : xstrdup(line);
		char *c = first_complaint(l);
		if (c && names_flag(l, &flags))
			found = xstrdup(str_trim(l));
		free(c);
		free(l);
		line = end ? end + 1 : line + strlen(line);
	}
	sl_release(&flags);
	return found;
}

enum outcome build_probe_flags(const struct config *cfg, const struct toolchain *tc,
			       char **detail)
{
	char dir[] = "/tmp/flagscope-probe-XXXXXX";
	*detail = NULL;
	if (!mkdtemp(dir)) {
		*detail = xasprintf("cannot make a temporary folder: %s", strerror_lc(errno));
		return OUTCOME_BUILD_FAILED;
	}
	char *src = xasprintf("%s/probe.c", dir);
	const char prog[] = "int main(void) { return 0; }\n";
	file_write(src, prog, sizeof(prog) - 1);
	/* the flags are words, never shell text: split here as a build
	 * script's $CFLAGS is, so a $(...) in a flag runs nothing.  Cross
	 * configurations compile only: linking is the sysroot's business and
	 * its failures are the build's to report */
	struct strlist argv = {0};
	sl_push(&argv, "/bin/sh");
	sl_push(&argv, "-c");
	sl_push(&argv, "cd \"$1\" && shift && exec \"$@\"");
	sl_push(&argv, "sh");
	sl_push(&argv, dir);
	sl_split_ws(&argv, cfg->cc);
	sl_split_ws(&argv, cfg->cflags);
	sl_split_ws(&argv, toolchain_record_flag(tc));
	sl_split_ws(&argv, cfg->target ? "-c -o probe.o probe.c" : "-o probe probe.c");
	if (!cfg->target)
		sl_split_ws(&argv, cfg->ldflags);
	sl_push_owned(&argv, NULL);
	argv.n--;
	char *out = NULL;
	int rc = run_capture(argv.v, &out);
	enum outcome o = OUTCOME_OK;
	char *complaint = out ? first_complaint(out) : NULL;
	if (rc != 0 || complaint) {
		o = OUTCOME_UNSUPPORTED_FLAG;
		*detail = complaint ? build_log_with_suggestion(str_trim(complaint), out)
				    : build_log_summary(out ? out : "compiler failed");
	}
	free(complaint);
	free(out);
	sl_release(&argv);
	free(src);
	remove_tree(dir);
	return o;
}

/* Under LTO the compiler runs again at link time (lto1, through
 * lto-wrapper): a failure there is the configuration's (a type mismatch
 * across units only LTO sees, objects of another compiler), said with its
 * first error line.  NULL when the log shows no LTO step failing. */
static char *lto_failure(const char *log_text)
{
	if (!strstr(log_text, "lto-wrapper") && !strstr(log_text, "lto1:"))
		return NULL;
	for (const char *l = log_text; *l;) {
		size_t len = strcspn(l, "\n");
		if (memmem(l, len, "error:", 6))
			return xasprintf("LTO link failed: %.*s", (int)len, l);
		l += len + (l[len] == '\n');
	}
	return NULL;
}

char *build_log_summary(const char *log_text)
{
	char *lto = lto_failure(log_text);
	if (lto)
		return lto;
	struct strlist undef = {0};
	const char *p = log_text;
	while ((p = strstr(p, "undefined reference to `"))) {
		p += strlen("undefined reference to `");
		const char *end = strchr(p, '\'');
		if (!end)
			break;
		char *sym = xstrndup(p, (size_t)(end - p));
		if (sl_find(&undef, sym) < 0)
			sl_push(&undef, sym);
		free(sym);
	}
	if (undef.n) {
		char *list = sl_join(&undef, " ");
		char *s = xasprintf("undefined symbols: %s", list);
		free(list);
		sl_release(&undef);
		return s;
	}
	char *first = build_log_first_error(log_text);
	if (first)
		return first;
	/* the last few non-empty lines say what went wrong */
	struct strlist lines = {0};
	char *copy = xstrdup(log_text);
	for (char *save, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (*str_trim(l))
			sl_push(&lines, str_trim(l));
	free(copy);
	struct strlist last = {0};
	for (size_t i = lines.n > 4 ? lines.n - 4 : 0; i < lines.n; i++)
		sl_push(&last, lines.v[i]);
	char *s = last.n ? sl_join(&last, " | ") : xstrdup("(empty build log)");
	sl_release(&lines);
	sl_release(&last);
	return s;
}

/* $SRC_NAME for each source.NAME = SPEC of the recipe (in the build's child) */
static void set_extra_source_env(const struct build *b)
{
	for (size_t i = 0; b->extra_dirs && i < b->recipe->nextra; i++) {
		char *var = xasprintf("SRC_%s", b->recipe->extra[i].name);
		setenv(var, b->extra_dirs[i], 1);
		free(var);
	}
}

pid_t build_start(struct build *b, int jobs_each, int lock_fd)
{
	char *log = xasprintf("%s/build.log", b->dir);
	char *cflags = build_cflags(b), *ldflags = build_flags(b, b->cfg->ldflags);
	char *jobs = xasprintf("%d", jobs_each);
	char *script = recipe_build_script(b->recipe);
	int seeded = 0;
	b->config_seeded = configcache_ready(b);
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		/* its own group: a terminal's Ctrl-C reaches flagscope, which
		 * stops the builds itself (a build killed under it was stored
		 * as failed).  The group's guard holds the key's lock and kills
		 * the group when flagscope dies, so a SIGKILLed flagscope
		 * leaves neither a build running nor its lock held */
		setpgid(0, 0);
		if (guard_fork(parent, lock_fd))
			_exit(126);
		debpkg_user_tree_remove(b->dir);
		remove_tree(b->dir); /* a killed build's remains; the pool holds the lock */
		if (mkdir_p(b->out_dir, 0755))
			_exit(126);
		char *config_cache = configcache_prepare(b, &seeded);
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null = open("/dev/null", O_RDONLY);
		if (fd < 0 || null < 0 || chdir(b->out_dir))
			_exit(126);
		dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		setenv("FLAGSCOPE_CONFIG_CACHE", config_cache, 1);
		setenv("CC", b->cfg->cc, 1);
		setenv("CFLAGS", cflags, 1);
		setenv("LDFLAGS", ldflags, 1);
		setenv("SRC", b->src_dir, 1);
		set_extra_source_env(b);
		setenv("RECIPE", b->recipe->dir ? b->recipe->dir : "", 1); /* a package has none */
		setenv("HOST", b->cfg->target ? b->cfg->target : "", 1);
		setenv("SYSROOT", b->cfg->sysroot ? b->cfg->sysroot : "", 1);
		setenv("JOBS", jobs, 1);
		setenv("LC_ALL", "C", 1);
		unsetenv("MAKEFLAGS");
		unsetenv("CPPFLAGS");
		strays_child_setup(0, 0); /* the log, /dev/null, others' files: not the build's */
		execl("/bin/sh", "sh", "-e", "-c", script, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		setpgid(pid, pid); /* before a stop can kill its group */
	free(script);
	free(log);
	free(cflags);
	free(ldflags);
	free(jobs);
	return pid;
}

static void add_json_sep(struct strbuf *sb)
{
	if (sb->len > 1)
		sb_addc(sb, ',');
}

/* Verify every binary of the recipe: it exists, it is an ELF file, it is
 * static when the configuration asks, it is for the configuration's
 * machine, ABI and ISA, and the units that recorded their switches got the
 * configuration's flags. */
void build_verify(struct build *b)
{
	struct strbuf json = {0}, problems = {0};
	/* a unit of the workload's own tree that recorded nothing did not get
	 * CFLAGS (they carry the record flag); a built sysroot's objects carry
	 * names like printf.c and are not the workload's */
	struct strlist sources = {0}, library = {0};
	if (b->src_dir)
		elf_source_names(b->src_dir, &sources);
	if (b->recipe->dir && (!b->src_dir || strcmp(b->recipe->dir, b->src_dir)))
		elf_source_names(b->recipe->dir, &sources);
	for (size_t i = 0; b->extra_dirs && i < b->recipe->nextra; i++)
		elf_source_names(b->extra_dirs[i], &sources);
	if (b->cfg->sysroot) {
		char *lib = xasprintf("%s/lib", b->cfg->sysroot);
		elf_library_names(lib, &library);
		free(lib);
	}
	sb_addc(&json, '[');
	b->size_text = b->size_data = b->size_bss = b->size_rodata = b->size_file = 0;
	struct strlist bins = {0};
	build_binaries(b, &bins);
	for (size_t i = 0; i < bins.n; i++) {
		char *path = xasprintf("%s/%s", b->out_dir, bins.v[i]);
		struct elf_facts f;
		struct strbuf err = {0};
		struct strlist mism = {0};
		struct stat st;
		if (stat(path, &st)) {
			b->outcome = OUTCOME_BUILD_FAILED;
			free(b->detail);
			char *log = xasprintf("%s/build.log", b->dir);
			b->detail = build_log_missing_binary(bins.v[i], b->out_dir, log);
			free(log);
			free(path);
			break;
		}
		b->size_file += (double)st.st_size;
		/* a binary whose pages are still dirty in the page cache shows
		 * them as the process's own dirty memory: write it out first */
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			fsync(fd);
			close(fd);
		}
		if (elf_facts_read(path, &f, &err)) {
			b->outcome = OUTCOME_BUILD_FAILED;
			free(b->detail);
			b->detail = xasprintf("%s: %s", bins.v[i], sb_str(&err));
			sb_release(&err);
			free(path);
			break;
		}
		/* -g was added to name the units: the file size is counted
		 * without it, as `strip --strip-debug` would leave it */
		for (size_t k = 0; k < f.nsections; k++)
			if (str_starts_with(f.sections[k].name, ".debug") ||
			    str_starts_with(f.sections[k].name, ".zdebug"))
				b->size_file -= (double)f.sections[k].size;
		b->size_text += (double)elf_facts_section_size(&f, ".text");
		b->size_data += (double)elf_facts_section_size(&f, ".data");
		b->size_bss += (double)elf_facts_section_size(&f, ".bss");
		b->size_rodata += (double)elf_facts_section_size(&f, ".rodata");
		struct strbuf libc_why = {0};
		if (b->cfg->libc && libc_lookup(b->cfg->libc)->check(path, &f, &libc_why)) {
			if (problems.len)
				sb_add(&problems, "; ");
			sb_addf(&problems, "%s: %s", bins.v[i], sb_str(&libc_why));
		}
		sb_release(&libc_why);
		struct strbuf pgo_why = {0};
		if (pgo_check_binary(b, path, &pgo_why))
			sl_push_owned(&mism, sb_detach(&pgo_why));
		sb_release(&pgo_why);
		int want_static = b->cfg->link == 1 ? 1 : b->cfg->link == 0 ? 0 : -1;
		char *expect = build_flags(b, b->cfg->cflags);
		elf_facts_check(&f, expect, want_static, NULL, &mism);
		/* clang's LTO is proven by its objects (elf.h) */
		char *lto_why;
		elf_lto_check_tree(&f, expect, b->out_dir, &mism, &lto_why);
		free(expect);
		elf_facts_check_sources(&f, &sources, &library, &mism);
		/* the machine the file is for, from the triple and the flags the
		 * compiler got (a --target= in the compiler command counts) */
		struct elf_expect want;
		char *words = xasprintf("%s %s", b->cfg->cc, b->cfg->cflags);
		elf_expect_derive(b->cfg->target, words, &want);
		free(words);
		elf_expect_check(&f, &want, &mism);
		for (size_t m = 0; m < mism.n; m++) {
			if (problems.len)
				sb_add(&problems, "; ");
			sb_addf(&problems, "%s: %s", bins.v[i], mism.v[m]);
		}
		add_json_sep(&json);
		elf_facts_json(&f, &mism, &json);
		elf_facts_json_add_lto(&json, lto_why);
		free(lto_why);
		elf_facts_release(&f);
		sl_release(&mism);
		free(path);
	}
	sl_release(&bins);
	sl_release(&sources);
	sl_release(&library);
	sb_addc(&json, ']');
	free(b->facts_json);
	b->facts_json = sb_detach(&json);
	if (b->outcome == OUTCOME_OK && problems.len) {
		b->outcome = OUTCOME_FLAGS_NOT_APPLIED;
		free(b->detail);
		b->detail = sb_detach(&problems);
	}
	sb_release(&problems);
	if (recipe_is_package(b->recipe) && b->outcome != OUTCOME_BUILD_FAILED)
		debpkg_tests_read(b);
}

void build_finish(struct build *b, int status)
{
	char *log = xasprintf("%s/build.log", b->dir);
	debpkg_user_tree_remove(b->dir); /* a timeout's SIGKILL left it */
	if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		char *text = file_read(log, NULL);
		char *complaint = text ? config_flag_complaint(text, b->cfg) : NULL;
		b->outcome = complaint ? OUTCOME_UNSUPPORTED_FLAG : OUTCOME_BUILD_FAILED;
		b->detail = complaint ? complaint : build_log_failure_detail(text ? text : "", log);
		free(text);
	} else {
		b->outcome = OUTCOME_OK;
		build_verify(b);
		if (!b->config_seeded)
			configcache_learn(b);
	}
	free(log);
}

/* The input script in tmp, in its own process group, its output in log;
 * its wait status, or -1 when it could not start, *stop was set or it ran
 * past the recipe's input timeout (*timed_out; the script and its
 * children are killed then). */
static int input_script_run(const struct recipe *r, const char *tmp, const char *log,
			    const volatile sig_atomic_t *stop, int *timed_out)
{
	pid_t parent = getpid(), pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* its own group: a stop kills the script's children too, and
		 * its guard kills them when flagscope dies */
		setpgid(0, 0);
		if (guard_fork(parent, -1))
			_exit(126);
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null = open("/dev/null", O_RDONLY);
		if (fd < 0 || null < 0 || chdir(tmp))
			_exit(126);
		dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		strays_child_setup(0, 0);
		/* argv, not setenv: the parent's other threads share its environment */
		execl("/bin/sh", "sh", "-c",
		      "export IN=\"$1\" RECIPE=\"$2\"; exec /bin/sh -e -c \"$3\" input", "sh", tmp,
		      r->dir, r->input_script, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid); /* before a stop can kill its group */
	int status = 0;
	double deadline = r->input_timeout > 0 ? now_seconds() + r->input_timeout : INFINITY;
	if (build_wait_child(&pid, 1, &status, stop, deadline) == pid)
		return status;
	*timed_out = !(stop && *stop);
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return -1;
}

int workload_inputs(const struct recipe *r, char **in_dir, struct strbuf *err)
{
	return workload_inputs_stop(r, in_dir, NULL, err);
}

int workload_inputs_stop(const struct recipe *r, char **in_dir, const volatile sig_atomic_t *stop,
			 struct strbuf *err)
{
	*in_dir = xasprintf("%s/inputs/%s-%.16s", flagscope_cache_dir(), r->name, r->hash);
	char *done = xasprintf("%s/.done", *in_dir);
	int rc = 0;
	if (file_exists(done) || !r->input_script) {
		if (!r->input_script)
			mkdir_p(*in_dir, 0755);
		free(done);
		return 0;
	}
	char *tmp = xasprintf("%s.tmp%d", *in_dir, (int)getpid());
	char *log = xasprintf("%s.log", tmp);
	remove_tree(tmp);
	mkdir_p(tmp, 0755);
	int timed_out = 0;
	int status = input_script_run(r, tmp, log, stop, &timed_out);
	if (status < 0 && stop && *stop) {
		sb_addf(err, "%s: interrupted while its input script ran", r->name);
		remove_tree(tmp);
		rc = -1;
	} else if (timed_out) {
		sb_addf(err, "%s: the input script was killed after %.0f s (raise [input] timeout = in "
			     "the recipe, or look for a step that waits on input)",
			r->name, r->input_timeout);
		remove_tree(tmp);
		rc = -1;
	} else if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		char *out = file_read(log, NULL);
		char *sum = build_log_summary(out ? out : "");
		sb_addf(err, "%s: the input script failed: %s (fix the recipe's [input] script)",
			r->name, sum);
		free(sum);
		free(out);
		remove_tree(tmp);
		rc = -1;
	} else {
		remove_tree(*in_dir);
		if (rename(tmp, *in_dir)) {
			sb_addf(err, "%s: cannot move inputs into place: %s", r->name, strerror_lc(errno));
			rc = -1;
		} else {
			file_write(done, "", 0);
		}
	}
	unlink(log);
	free(log);
	free(tmp);
	free(done);
	return rc;
}
