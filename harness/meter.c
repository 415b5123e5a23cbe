/* meter.c - the meter table, rusage and perf stat */
#include "harness/meter.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>


void measurements_add(struct measurements *m, const char *name, double value, const char *unit)
{
	m->v = xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
	struct measurement *x = &m->v[m->n++];
	snprintf(x->name, sizeof(x->name), "%s", name);
	snprintf(x->unit, sizeof(x->unit), "%s", unit);
	x->value = value;
}

void measurements_release(struct measurements *m)
{
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

static int rusage_probe(struct meter_state *st, struct strbuf *fact)
{
	(void)st;
	sb_add(fact, "rusage: wall time (CLOCK_MONOTONIC), user and sys time, peak RSS (wait4)");
	return 1;
}

static int rusage_collect(const struct meter_run *mr, struct measurements *out, struct strbuf *note)
{
	const struct run_result *r = mr->rr;
	(void)note;
	measurements_add(out, "time", r->wall, "s");
	measurements_add(out, "wall", r->wall, "s");
	measurements_add(out, "user", r->user, "s");
	measurements_add(out, "sys", r->sys, "s");
	measurements_add(out, "maxrss", (double)r->maxrss_kb, "KiB");
	return 0;
}

/* user and sys: the kernel splits a process's exact CPU time between
 * them by where its scheduler ticks landed, so a part shorter than a few
 * ticks reads 0 in one and all in the other (doc/statistics.md) */
static const struct meter_metric rusage_table[] = {
	{"time", GRAIN_CLOCK}, {"wall", GRAIN_CLOCK}, {"user", GRAIN_TICK},
	{"sys", GRAIN_TICK},   {"maxrss", GRAIN_PAGE}, {NULL, 0},
};

const struct meter_ops meter_rusage = {
	.name = "rusage",
	.help = "wall, user and sys time, peak RSS (wait4), every repetition",
	.by_default = 1,
	.timed = 1,
	.probe = rusage_probe,
	.collect = rusage_collect,
	.table = rusage_table,
};

static const char hw_events[] = "cycles,instructions,branches,branch-misses,cache-misses";
static const char sw_events[] = "task-clock,page-faults,context-switches,cpu-migrations";

/* perf stat -x, lines: value,unit,event,run-time,percent,... ; counters the
 * machine lacks read "<not supported>". */
static int perf_parse(const char *text, struct measurements *out, int *unsupported)
{
	int parsed = 0;
	char *copy = xstrdup(text);
	for (char *save, *line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !strchr(line, ','))
			continue;
		char *f[3] = {0};
		char *p = line;
		for (int i = 0; i < 3 && p; i++) {
			f[i] = p;
			p = strchr(p, ',');
			if (p)
				*p++ = '\0';
		}
		if (!f[2] || !*f[2])
			continue;
		if (f[0][0] == '<') {
			if (unsupported)
				(*unsupported)++;
			continue;
		}
		char *end;
		double v = strtod(f[0], &end);
		if (end == f[0])
			continue;
		char *name = xasprintf("perf/%s", f[2]);
		measurements_add(out, name, v, f[1] && *f[1] ? f[1] : "count");
		free(name);
		parsed++;
	}
	free(copy);
	return parsed;
}

static void perf_events(struct meter_state *st)
{
	if (st->hardware)
		snprintf(st->events, sizeof(st->events), "%s,%s", hw_events, sw_events);
	else
		snprintf(st->events, sizeof(st->events), "%s", sw_events);
}

/* On boards the perf that counts is the board's: the host's perf says
 * nothing about it (it may have none, or other counters). */
static int perf_probe_boards(struct meter_state *st, struct strbuf *fact)
{
	struct strbuf which = {0}, err = {0};
	const struct runner_ops *r = runner_for(st->target);
	int rc = r->perf ? r->perf(st->target, &st->hardware, &which, &err) : 0;
	if (!r->perf)
		sb_addf(&which, "the %s runner has no perf of its own", r->name);
	if (rc <= 0) {
		sb_addf(fact, "perf: not available on the boards (%s)",
			rc < 0 ? sb_str(&err) : sb_str(&which));
		st->hardware = 0;
	} else {
		perf_events(st);
		sb_addf(fact, "perf: the boards' own (%s); events %s, counted on the warm-up run; "
			      "a board without perf gives none",
			sb_str(&which), st->events);
	}
	sb_release(&which);
	sb_release(&err);
	return rc > 0;
}

static int perf_probe(struct meter_state *st, struct strbuf *fact)
{
	if (st->target)
		return perf_probe_boards(st, fact);
	char *out = NULL;
	char *argv[] = {"perf", "stat", "-x,", "-e", (char *)hw_events, "--", "true", NULL};
	int rc = run_capture(argv, &out);
	if (rc != 0 || !out) {
		sb_add(fact, "perf: not available (install linux-perf, or check kernel.perf_event_paranoid)");
		free(out);
		return 0;
	}
	struct measurements m = {0};
	int unsupported = 0;
	perf_parse(out, &m, &unsupported);
	st->hardware = m.n > 0 && !unsupported;
	measurements_release(&m);
	free(out);
	perf_events(st);
	sb_addf(fact, "perf: %s; events %s, counted on the warm-up run",
		st->hardware ? "hardware counters available" :
			       "hardware counters not supported on this machine, software events only",
		st->events);
	return 1;
}

int meter_perf_counts(const char *event)
{
	char *out = NULL;
	char *argv[] = {"perf", "stat", "-x,", "-e", (char *)event, "--", "true", NULL};
	if (run_capture(argv, &out) || !out) {
		free(out);
		return -1;
	}
	struct measurements m = {0};
	int unsupported = 0;
	perf_parse(out, &m, &unsupported);
	int counts = m.n > 0 ? 1 : unsupported ? 0 : -1;
	measurements_release(&m);
	free(out);
	return counts;
}

static void perf_wrap(const struct meter_run *mr, struct strlist *prefix)
{
	sl_push(prefix, "/usr/bin/perf");
	sl_push(prefix, "stat");
	sl_push(prefix, "-x,");
	sl_push(prefix, "-o");
	sl_push(prefix, mr->scratch);
	sl_push(prefix, "-e");
	sl_push(prefix, mr->st->events);
	sl_push(prefix, "--");
}

/* a board's helper runs its own perf with these events (harness/remote-helper) */
static void perf_remote(const struct meter_run *mr, struct meter_remote *want)
{
	want->events = mr->st->events;
	want->out = mr->scratch;
}

static int perf_collect(const struct meter_run *mr, struct measurements *out, struct strbuf *note)
{
	char *text = file_read(mr->scratch, NULL);
	if (!text) {
		sb_add(note, "perf wrote no counts");
		return -1;
	}
	int n = perf_parse(text, out, NULL);
	free(text);
	return n > 0 ? 0 : -1;
}

/* perf/EVENT for each event it may count (perf_events) */
static void perf_metrics(struct strlist *out)
{
	struct strlist ev = {0};
	char *all = xasprintf("%s,%s", hw_events, sw_events);
	for (char *p = all; *p; p++)
		*p = *p == ',' ? ' ' : *p;
	sl_split_ws(&ev, all);
	for (size_t i = 0; i < ev.n; i++)
		sl_push_owned(out, xasprintf("perf/%s", ev.v[i]));
	sl_release(&ev);
	free(all);
}

static const struct meter_metric perf_table[] = {
	{"perf/task-clock", GRAIN_PERF_MSEC},
	{"perf/*", GRAIN_EVENT},
	{NULL, 0},
};

const struct meter_ops meter_perf = {
	.name = "perf",
	.help = "perf stat counters (hardware where the machine has them), one wrapped run",
	.by_default = 1,
	.timed = 0,
	.probe = perf_probe,
	.wrap = perf_wrap,
	.remote = perf_remote,
	.collect = perf_collect,
	.table = perf_table,
	.metrics = perf_metrics,
};

static int memory_probe(struct meter_state *st, struct strbuf *fact)
{
	(void)st;
	if (!file_exists("/proc/self/smaps_rollup")) {
		sb_add(fact, "memory: /proc/PID/smaps_rollup is missing (Linux 4.14 or later needed)");
		return 0;
	}
	sb_add(fact, "memory: peak virtual size (VmPeak), peak resident size (VmHWM) and private dirty memory, read with the program stopped at its exit (ptrace)");
	return 1;
}

static int memory_collect(const struct meter_run *mr, struct measurements *out, struct strbuf *note)
{
	const struct run_result *r = mr->rr;
	(void)note;
	if (r->vm_hwm_kb < 0)
		return -1;
	measurements_add(out, "mem.virt", (double)r->vm_peak_kb, "KiB");
	measurements_add(out, "mem.res", (double)r->vm_hwm_kb, "KiB");
	measurements_add(out, "mem.dirty", (double)r->dirty_kb, "KiB");
	return 0;
}

static const struct meter_metric memory_table[] = {
	{"mem.virt", GRAIN_PAGE}, {"mem.res", GRAIN_PAGE}, {"mem.dirty", GRAIN_PAGE}, {NULL, 0},
};

const struct meter_ops meter_memory = {
	.name = "memory",
	.help = "peak virtual and resident size, dirty pages, read at exit (ptrace), every repetition",
	.by_default = 1,
	.timed = 1,
	.exit_stop = 1,
	.probe = memory_probe,
	.collect = memory_collect,
	.table = memory_table,
};

static const struct meter_ops *const meters[] = {
	&meter_rusage,
	&meter_perf,
	&meter_memory,
	&meter_cachegrind,
	&meter_qemu_insn,
};

const struct meter_ops *meter_lookup(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(meters); i++)
		if (!strcmp(meters[i]->name, name))
			return meters[i];
	return NULL;
}

const struct meter_ops *meter_at(size_t i)
{
	return i < ARRAY_SIZE(meters) ? meters[i] : NULL;
}

static char default_names[128], known_names[128];

static void list_names(void)
{
	size_t nd = 0, nk = 0;
	for (size_t i = 0; i < ARRAY_SIZE(meters); i++) {
		const char *name = meters[i]->name;
		if (meters[i]->by_default && nd < sizeof(default_names))
			nd += (size_t)snprintf(default_names + nd, sizeof(default_names) - nd, "%s%s",
					       nd ? " " : "", name);
		if (nk < sizeof(known_names))
			nk += (size_t)snprintf(known_names + nk, sizeof(known_names) - nk, "%s%s",
					       nk ? " " : "", name);
	}
}

static pthread_once_t names_once = PTHREAD_ONCE_INIT;

const char *meter_names(void)
{
	pthread_once(&names_once, list_names);
	return default_names;
}

const char *meter_known_names(void)
{
	pthread_once(&names_once, list_names);
	return known_names;
}

void meter_push_metrics(const struct meter_ops *m, struct strlist *out)
{
	struct strlist names = {0};
	if (m->metrics)
		m->metrics(&names);
	else
		for (const struct meter_metric *t = m->table; t->name; t++)
			sl_push(&names, t->name);
	for (size_t i = 0; i < names.n; i++)
		if (sl_find(out, names.v[i]) < 0)
			sl_push(out, names.v[i]);
	sl_release(&names);
}

void meter_metric_names(const char *names, struct strlist *out)
{
	struct strlist chosen = {0};
	sl_split_ws(&chosen, names ? names : meter_names());
	for (size_t i = 0; i < chosen.n; i++)
		if (meter_lookup(chosen.v[i]))
			meter_push_metrics(meter_lookup(chosen.v[i]), out);
	sl_release(&chosen);
}

char *meter_help_text(void)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < ARRAY_SIZE(meters); i++)
		sb_addf(&sb, "  %-10s %s%s\n", meters[i]->name, meters[i]->help,
			meters[i]->by_default ? " (default)" : "");
	return sb_detach(&sb);
}

/* every name the meter gives has its grain in its own table */
static void table_check(const struct meter_ops *m, struct strbuf *err)
{
	struct strlist names = {0};
	meter_push_metrics(m, &names);
	if (!names.n)
		sb_addf(err, "%smeter '%s' gives no metric", err->len ? "; " : "", m->name);
	for (size_t i = 0; i < names.n; i++)
		if (!meter_table_find(m, names.v[i]))
			sb_addf(err, "%smeter '%s' gives '%s' without a grain in its table",
				err->len ? "; " : "", m->name, names.v[i]);
	sl_release(&names);
}

const struct meter_metric *meter_table_find(const struct meter_ops *m, const char *metric)
{
	for (const struct meter_metric *t = m->table; t && t->name; t++) {
		size_t n = strlen(t->name);
		if (n && t->name[n - 1] == '*' ? !strncmp(metric, t->name, n - 1)
					       : !strcmp(metric, t->name))
			return t;
	}
	return NULL;
}

int meters_check(struct strbuf *err)
{
	size_t before = err->len;
	for (size_t i = 0; i < ARRAY_SIZE(meters); i++) {
		const struct meter_ops *m = meters[i];
		if (!m->name || !*m->name || strchr(m->name, ' ') || !m->help || !m->probe ||
		    !m->collect || !m->table)
			sb_addf(err, "%sthe meter at meters[%zu] lacks a name (one word), help, probe, "
				     "collect or table", err->len ? "; " : "", i);
		else if (!m->timed && !m->wrap)
			sb_addf(err, "%smeter '%s' is neither timed nor wrapping", err->len ? "; " : "",
				m->name);
		else
			table_check(m, err);
		for (size_t k = 0; k < i && m->name; k++)
			if (meters[k]->name && !strcmp(meters[k]->name, m->name))
				sb_addf(err, "%stwo meters are named '%s'", err->len ? "; " : "",
					m->name);
	}
	if (strlen(meter_known_names()) + 1 >= sizeof(known_names))
		sb_addf(err, "%sthe meters' names do not fit in %zu bytes", err->len ? "; " : "",
			sizeof(known_names));
	return err->len > before ? -1 : 0;
}
