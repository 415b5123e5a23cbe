/* runner_ssh.c - the ssh runner: quoting, targets, board facts, the pool
 * of boards, exec with its retries (see runner_ssh.h; the other parts are
 * listed in runner_ssh_internal.h) */
#include "harness/runner_ssh_internal.h"
#include "flagsets/study.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- targets ---- */

/* Values ssh reads itself (not through the remote shell): no option
 * look-alikes, nothing its config parser would split or expand. */
static int ssh_value_ok(const char *v)
{
	if (!*v || *v == '-')
		return 0;
	for (const char *p = v; *p; p++)
		if (isspace((unsigned char)*p) || strchr("\"'\\%`$;&|<>()*?!#", *p) ||
		    (unsigned char)*p < 0x20)
			return 0;
	return 1;
}

static int host_char_ok(int c)
{
	return isalnum(c) || strchr("._-@:[]", c);
}

static int parse_dest(const char *word, int default_port, struct ssh_dest *d, struct strbuf *err)
{
	char *w = xstrdup(word), *host = w;
	int port = default_port;
	/* [v6]:port, host:port (one colon only), or a bare host */
	char *colon = strrchr(w, ':');
	char *bracket = strchr(w, ']');
	if (colon && (bracket ? colon > bracket : strchr(w, ':') == colon)) {
		char *end;
		long v = strtol(colon + 1, &end, 10);
		if (*end || v <= 0 || v > 65535) {
			sb_addf(err, "host '%s': the port must be a number from 1 to 65535", word);
			free(w);
			return -1;
		}
		port = (int)v;
		*colon = '\0';
	}
	if (*host == '[' && bracket) {
		host++;
		*strchr(host, ']') = '\0';
	}
	char *at = strrchr(host, '@');
	const char *hostname = at ? at + 1 : host;
	int ok = *host != '-' && *hostname && *hostname != '-' && (!at || at > host);
	for (const char *p = host; *p && ok; p++)
		ok = host_char_ok((unsigned char)*p);
	if (!ok) {
		sb_addf(err, "host '%s' is not a [user@]host[:port] (letters, digits, . _ - @ : only, "
			     "not starting with '-')",
			word);
		free(w);
		return -1;
	}
	d->user_host = xstrdup(host);
	d->port = port;
	d->name = port > 0 ? xasprintf(strchr(hostname, ':') ? "[%s]:%d" : "%s:%d", host, port)
			   : xstrdup(host);
	free(w);
	return 0;
}

void ssh_dests_free(struct ssh_dest *dests, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(dests[i].user_host);
		free(dests[i].name);
	}
	free(dests);
}

int ssh_target_parse(const struct run_target *t, struct ssh_dest **dests, size_t *n,
		     struct strbuf *err)
{
	*dests = NULL;
	*n = 0;
	if (!t || !t->host || !*t->host) {
		sb_add(err, "the ssh runner needs a board (set host = user@board in the study's [run])");
		return -1;
	}
	if (t->port < 0 || t->port > 65535) {
		sb_addf(err, "port %d is not a TCP port", t->port);
		return -1;
	}
	const char *files[][2] = {{"identity", t->identity}, {"known_hosts", t->known_hosts}};
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		if (files[i][1] && !ssh_value_ok(files[i][1])) {
			sb_addf(err, "%s '%s' cannot be given to ssh (no blanks, quotes, %%, shell "
				     "characters or leading '-' in the path)",
				files[i][0], files[i][1]);
			return -1;
		}
	if (t->workdir && !*t->workdir) {
		sb_add(err, "workdir is empty (leave it out for the default)");
		return -1;
	}
	struct strlist words = {0};
	sl_split_ws(&words, t->host);
	*dests = xcalloc(words.n, sizeof(**dests));
	for (size_t i = 0; i < words.n; i++) {
		if (parse_dest(words.v[i], t->port, &(*dests)[i], err)) {
			ssh_dests_free(*dests, i);
			*dests = NULL;
			sl_release(&words);
			return -1;
		}
		*n = i + 1;
	}
	sl_release(&words);
	return 0;
}

/* ---- facts ---- */

static const char *cpuinfo_value(const char *line, const char *key)
{
	size_t k = strlen(key);
	if (strncasecmp(line, key, k))
		return NULL;
	const char *p = line + k;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

void board_facts_parse_cpuinfo(struct board_facts *f, const char *cpuinfo, const char *max_khz)
{
	/* x86, MIPS (Loongson), Arm boards (Model: Raspberry Pi 4 ...) */
	static const char *const model_keys[] = {"model name", "cpu model", "Model", "Hardware",
						 "Processor", "uarch", "cpu"};
	int best = (int)ARRAY_SIZE(model_keys);
	f->cpus = 0;
	f->mhz = 0;
	char *copy = xstrdup(cpuinfo ? cpuinfo : "");
	for (char *save, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *v;
		if (cpuinfo_value(l, "processor"))
			f->cpus++;
		if ((v = cpuinfo_value(l, "cpu MHz")) && f->mhz == 0)
			f->mhz = strtod(v, NULL);
		for (int i = 0; i < best; i++)
			if ((v = cpuinfo_value(l, model_keys[i])) && *v) {
				snprintf(f->cpu, sizeof(f->cpu), "%s", v);
				best = i;
				break;
			}
	}
	free(copy);
	if (f->mhz == 0 && max_khz && strtod(max_khz, NULL) > 0)
		f->mhz = strtod(max_khz, NULL) / 1000.0;
}

void board_facts_format(const struct board_facts *f, struct strbuf *sb)
{
	sb_addf(sb, "kernel=%s machine=%s cpu=%s mhz=%.0f cpus=%d", f->kernel, f->machine,
		*f->cpu ? f->cpu : "unknown", f->mhz, f->cpus);
	if (*f->perf)
		sb_addf(sb, " perf=%s", f->perf);
}

/* ---- the pool ---- */

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_free = PTHREAD_COND_INITIALIZER;
static struct board **boards;
static size_t nboards;
static unsigned long use_clock;
static char *control_dir;
struct runner_ssh_counts ssh_counts;
static __thread char last_board[256];
static struct runner_ssh_options options;

void runner_ssh_set_options(const struct runner_ssh_options *o)
{
	pthread_mutex_lock(&pool_lock);
	free((char *)options.helper_cc);
	free((char *)options.cpu);
	options.per_board = o->per_board > 1 ? o->per_board : 1;
	options.helper_cc = o->helper_cc && *o->helper_cc ? xstrdup(o->helper_cc) : NULL;
	options.cpu = o->cpu && *o->cpu ? xstrdup(o->cpu) : NULL;
	pthread_mutex_unlock(&pool_lock);
}

/* set before the runs start, read-only while they run */
const struct runner_ssh_options *ssh_options(void)
{
	return &options;
}

void ssh_counts_add(long *counter)
{
	pthread_mutex_lock(&pool_lock);
	(*counter)++;
	pthread_mutex_unlock(&pool_lock);
}

void runner_ssh_get_counts(struct runner_ssh_counts *c)
{
	pthread_mutex_lock(&pool_lock);
	*c = ssh_counts;
	pthread_mutex_unlock(&pool_lock);
}

/* under pool_lock */
const char *ssh_control_dir(void)
{
	if (!control_dir) {
		char tmpl[] = "/tmp/flagscope-ssh.XXXXXX";
		if (mkdtemp(tmpl))
			control_dir = xstrdup(tmpl);
	}
	return control_dir;
}

enum ssh_reuse ssh_reuse(void)
{
	const char *v = getenv("FLAGSCOPE_SSH_REUSE");
	if (v && !strcmp(v, "none"))
		return REUSE_NONE;
	if (v && !strcmp(v, "connection"))
		return REUSE_CONNECTION;
	return REUSE_ALL;
}

/* under pool_lock: the board for this destination and target, made once */
static struct board *board_get(const struct ssh_dest *d, const struct run_target *t)
{
	const char *wd = t->workdir ? t->workdir : ".cache/flagscope-remote";
	if (str_starts_with(wd, "~/"))
		wd += 2;
	char *key = xasprintf("%s\n%d\n%s\n%s\n%s", d->user_host, d->port,
			      t->identity ? t->identity : "", t->known_hosts ? t->known_hosts : "",
			      wd);
	for (size_t i = 0; i < nboards; i++)
		if (!strcmp(boards[i]->key, key)) {
			free(key);
			return boards[i];
		}
	struct board *b = xcalloc(1, sizeof(*b));
	b->key = key;
	b->dest.user_host = xstrdup(d->user_host);
	b->dest.name = xstrdup(d->name);
	b->dest.port = d->port;
	b->identity = t->identity ? xstrdup(t->identity) : NULL;
	b->known_hosts = t->known_hosts ? xstrdup(t->known_hosts) : NULL;
	b->workdir_arg = xstrdup(wd);
	pthread_mutex_init(&b->lock, NULL);
	b->nsessions = options.per_board > 1 ? (size_t)options.per_board : 1;
	b->sessions = xcalloc(b->nsessions, sizeof(*b->sessions));
	for (size_t i = 0; i < b->nsessions; i++)
		b->sessions[i].in = b->sessions[i].out = b->sessions[i].err = -1;
	if (ssh_reuse() != REUSE_NONE && ssh_control_dir())
		b->control = xasprintf("%s/%zu", control_dir, nboards);
	boards = xrealloc(boards, (nboards + 1) * sizeof(*boards));
	boards[nboards++] = b;
	return b;
}

/* Take a board of the pool with a free session (per_board of them),
 * waiting while there is none; a board that failed this run is taken
 * again only when no other is left, one that did not answer the survey
 * only when none did.  The least faulty, then the least recently used
 * board wins. */
static struct board *board_acquire(struct board **pool, size_t n, const struct board *avoid,
				   struct board_session **session)
{
	pthread_mutex_lock(&pool_lock);
	for (;;) {
		/* a board that did not answer the survey is left out while
		 * another one did */
		int answered = 0, others = 0;
		for (size_t i = 0; i < n; i++)
			answered |= !pool[i]->unreachable;
		for (size_t i = 0; i < n; i++)
			others |= pool[i] != avoid && (!pool[i]->unreachable || !answered);
		struct board *pick = NULL;
		for (size_t i = 0; i < n; i++) {
			struct board *b = pool[i];
			if ((size_t)b->busy >= b->nsessions || (b == avoid && others) ||
			    (b->unreachable && answered))
				continue;
			if (!pick || b->faults < pick->faults ||
			    (b->faults == pick->faults && b->last_used < pick->last_used))
				pick = b;
		}
		if (pick) {
			pick->busy++;
			pick->last_used = ++use_clock;
			*session = NULL;
			for (size_t i = 0; i < pick->nsessions && !*session; i++)
				if (!pick->sessions[i].busy)
					*session = &pick->sessions[i];
			(*session)->busy = 1;
			pthread_mutex_unlock(&pool_lock);
			return pick;
		}
		pthread_cond_wait(&pool_free, &pool_lock);
	}
}

static void board_give_back(struct board *b, struct board_session *session, int fault)
{
	pthread_mutex_lock(&pool_lock);
	b->busy--;
	session->busy = 0;
	b->faults += fault;
	pthread_cond_broadcast(&pool_free);
	pthread_mutex_unlock(&pool_lock);
}

/* A fault: whatever the board had must be checked again.  The line goes
 * down only when no other run of the board still uses it (per_board >
 * 1: those runs find out for themselves whether the board is gone). */
static void board_fault(struct board *b)
{
	pthread_mutex_lock(&b->lock);
	pthread_mutex_lock(&pool_lock);
	int alone = b->busy == 1;
	pthread_mutex_unlock(&pool_lock);
	if (alone)
		board_disconnect(b);
	else
		b->ready = 0;
	sl_release(&b->sets);
	pthread_mutex_unlock(&b->lock);
}

/* ---- the runner ---- */

static int ssh_exec(const struct run_spec *spec, struct run_result *res, struct strbuf *err)
{
	struct ssh_dest *dests;
	size_t n;
	memset(res, 0, sizeof(*res));
	res->vm_peak_kb = res->vm_hwm_kb = res->dirty_kb = -1;
	last_board[0] = '\0';
	if (ssh_target_parse(spec->target, &dests, &n, err))
		return -1;
	struct run_files files = {0};
	if (plan_files(spec, &files, err)) {
		ssh_dests_free(dests, n);
		run_files_release(&files);
		return -1;
	}
	struct board **pool = xcalloc(n, sizeof(*pool));
	pthread_mutex_lock(&pool_lock);
	for (size_t i = 0; i < n; i++)
		pool[i] = board_get(&dests[i], spec->target);
	pthread_mutex_unlock(&pool_lock);
	ssh_dests_free(dests, n);

	struct strbuf reasons = {0};
	struct board *failed = NULL;
	int rc = BOARD_FAULT;
	for (int attempt = 0; attempt < RUNNER_SSH_ATTEMPTS && rc == BOARD_FAULT; attempt++) {
		struct board_session *session;
		struct board *b = board_acquire(pool, n, failed, &session);
		struct strbuf why = {0};
		pthread_mutex_lock(&b->lock);
		rc = board_prepare(b, &why);
		if (!rc)
			rc = board_sets(b, &files, &why);
		pthread_mutex_unlock(&b->lock);
		if (!rc) {
			memset(res, 0, sizeof(*res));
			res->vm_peak_kb = res->vm_hwm_kb = res->dirty_kb = -1;
			rc = board_run(b, session, spec, &files, res, &why);
		}
		if (rc == BOARD_FAULT) {
			board_fault(b);
			failed = b;
			sb_addf(&reasons, "%s%s", reasons.len ? "; " : "", sb_str(&why));
		} else if (rc == BOARD_ERROR) {
			sb_add(err, sb_str(&why));
		} else {
			snprintf(last_board, sizeof(last_board), "%s", b->dest.name);
		}
		board_give_back(b, session, rc == BOARD_FAULT);
		sb_release(&why);
	}
	if (rc == BOARD_FAULT)
		sb_addf(err, "no board could run it after %d attempts: %s", RUNNER_SSH_ATTEMPTS,
			sb_str(&reasons));
	sb_release(&reasons);
	free(pool);
	run_files_release(&files);
	return rc == BOARD_FAULT ? RUNNER_SSH_FAULT : rc ? -1 : 0;
}

/* A study's boards take every run, whatever the build's target: the
 * board's CPU is the real one. */
static int ssh_select(const struct run_job *job)
{
	return job->board != NULL;
}

static int ssh_prepare(struct run_job *job, struct strbuf *why)
{
	(void)why;
	job->spec.target = job->board;
	return 1;
}

/* The pool chose the board: the sample keeps its name. */
static void ssh_diagnose(struct run_job *job, const struct run_result *rr)
{
	(void)rr;
	if (last_board[0])
		job->where = xstrdup(last_board);
}

/* The study's [run] options, for every board from now on */
static void ssh_open_study(const struct study *s)
{
	runner_ssh_set_options(&(struct runner_ssh_options){
		.per_board = s->run_per_board, .helper_cc = s->run_helper_cc, .cpu = s->run_cpu});
}

/* The boards of t's host list (0 when it does not parse) */
static size_t ssh_machines(const struct run_target *t)
{
	struct ssh_dest *dests;
	size_t n = 0;
	struct strbuf err = {0};
	if (!ssh_target_parse(t, &dests, &n, &err))
		ssh_dests_free(dests, n);
	sb_release(&err);
	return n;
}

const struct runner_ops runner_ssh = {
	.name = "ssh",
	.help = "on the study's boards ([run] host =), through a measuring helper on each board",
	.counts = 1,
	.select = ssh_select,
	.prepare = ssh_prepare,
	.exec = ssh_exec,
	.diagnose = ssh_diagnose,
	.open_study = ssh_open_study,
	.facts = runner_ssh_facts,
	.perf = runner_ssh_perf,
	.machines = ssh_machines,
	.release_study = runner_ssh_release,
};

const char *runner_ssh_last_board(void)
{
	return last_board[0] ? last_board : NULL;
}

/* Prepare every board of t (connect, facts, helper): *up gets those that
 * answered (heap, *nup of them); each reason of one that did not is added
 * to reasons ("; " between) and to down when not NULL.  A board that did
 * not answer keeps its reason and is not asked again by the surveys of
 * this process.  0, or -1 when t itself is wrong (err). */
static int survey(const struct run_target *t, struct board ***up, size_t *nup,
		  struct strbuf *reasons, struct strlist *down, struct strbuf *err)
{
	struct ssh_dest *dests;
	size_t n;
	if (ssh_target_parse(t, &dests, &n, err))
		return -1;
	*up = xcalloc(n ? n : 1, sizeof(**up));
	*nup = 0;
	for (size_t i = 0; i < n; i++) {
		pthread_mutex_lock(&pool_lock);
		struct board *b = board_get(&dests[i], t);
		pthread_mutex_unlock(&pool_lock);
		if (!b->unreachable) { /* asked once per process */
			struct board *one[] = {b};
			struct board_session *session;
			board_acquire(one, 1, NULL, &session);
			struct strbuf why = {0};
			pthread_mutex_lock(&b->lock);
			int rc = board_prepare(b, &why);
			pthread_mutex_unlock(&b->lock);
			pthread_mutex_lock(&pool_lock);
			if (rc)
				b->unreachable = sb_detach(&why);
			pthread_mutex_unlock(&pool_lock);
			board_give_back(b, session, 0);
			sb_release(&why);
		}
		if (!b->unreachable) {
			(*up)[(*nup)++] = b;
			continue;
		}
		sb_addf(reasons, "%s%s", reasons->len ? "; " : "", b->unreachable);
		if (down)
			sl_push(down, b->unreachable);
	}
	ssh_dests_free(dests, n);
	return 0;
}

int runner_ssh_facts(const struct run_target *t, struct strlist *lines, struct strlist *down,
		     struct strbuf *err)
{
	struct board **up;
	size_t n;
	struct strbuf reasons = {0};
	if (survey(t, &up, &n, &reasons, down, err))
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct strbuf line = {0};
		sb_addf(&line, "%s: ", up[i]->dest.name);
		board_facts_format(&up[i]->facts, &line);
		if (options.cpu)
			sb_addf(&line, " described=%s", options.cpu);
		sl_push_owned(lines, sb_detach(&line));
	}
	if (!n)
		sb_add(err, sb_str(&reasons));
	sb_release(&reasons);
	free(up);
	return n ? 0 : -1;
}

int runner_ssh_perf(const struct run_target *t, int *hardware, struct strbuf *which,
		    struct strbuf *err)
{
	struct board **up;
	size_t n;
	*hardware = 0;
	if (survey(t, &up, &n, err, NULL, err))
		return -1;
	int perf = 0, hw = 1;
	for (size_t i = 0; i < n; i++) {
		const char *kind = up[i]->facts.perf;
		sb_addf(which, "%s%s %s", which->len ? ", " : "", up[i]->dest.name, kind);
		if (!strcmp(kind, "hardware") || !strcmp(kind, "software")) {
			perf = 1;
			hw &= !strcmp(kind, "hardware");
		}
	}
	free(up);
	*hardware = perf && hw;
	return n ? perf : -1;
}

void runner_ssh_release(void)
{
	pthread_mutex_lock(&pool_lock);
	for (size_t i = 0; i < nboards; i++) {
		struct board *b = boards[i];
		board_disconnect(b);
		free(b->dest.user_host);
		free(b->dest.name);
		free(b->identity);
		free(b->known_hosts);
		free(b->workdir_arg);
		free(b->key);
		free(b->control);
		free(b->workdir);
		free(b->helper);
		free(b->unreachable);
		free(b->sessions);
		pthread_mutex_destroy(&b->lock);
		sl_release(&b->sets);
		free(b);
	}
	free(boards);
	boards = NULL;
	nboards = 0;
	ssh_files_forget();
	if (control_dir)
		remove_tree(control_dir);
	free(control_dir);
	control_dir = NULL;
	pthread_mutex_unlock(&pool_lock);
}
