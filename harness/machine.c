/* machine.c - see machine.h */
#include "harness/machine.h"
#include "flagsets/study.h"

#include "base/cpulist.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

const char *const machine_key_names[MACHINE_NKEYS] = {
	[MACHINE_CPU] = "cpu",
	[MACHINE_CORES] = "cores",
	[MACHINE_GOVERNOR] = "governor",
	[MACHINE_BOOST] = "boost",
	[MACHINE_FREQ] = "freq",
	[MACHINE_KERNEL] = "kernel",
	[MACHINE_VM] = "vm",
	[MACHINE_PIN] = "pin",
	[MACHINE_LOAD_BEFORE] = "load.before",
	[MACHINE_LOAD_MAX] = "load.max",
	[MACHINE_LOAD_AFTER] = "load.after",
	[MACHINE_STARTED] = "started",
	[MACHINE_FINISHED] = "finished",
};

/* sys_vendor values of hypervisors (DMI), as they begin */
static const char *const vm_vendors[] = {
	"QEMU", "KVM", "VMware", "Xen", "innotek", "Bochs", "Parallels", "Amazon EC2", "Google",
	"OpenStack",
};

const char *machine_root(void)
{
	const char *r = getenv("FLAGSCOPE_MACHINE_ROOT");
	return r ? r : "";
}

/* The first line of root/rel, trimmed; heap, or NULL when unreadable or empty. */
static char *read_line(const char *root, const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel);
	char *text = file_read(path, NULL);
	free(path);
	if (!text)
		return NULL;
	text[strcspn(text, "\n")] = '\0';
	char *t = str_trim(text);
	char *line = *t ? xstrdup(t) : NULL;
	free(text);
	return line;
}

/* The value of the first "key<blanks>: value" line of cpuinfo text; heap or NULL. */
static char *cpuinfo_field(const char *text, const char *key)
{
	size_t n = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, n))
			continue;
		/* the whole name: "cpu" is not "cpu MHz" */
		const char *colon = l + n + strspn(l + n, " \t"), *end = strchr(l, '\n');
		if (*colon != ':')
			continue;
		char *v = xstrndup(colon + 1, end ? (size_t)(end - colon - 1) : strlen(colon + 1));
		char *t = xstrdup(str_trim(v));
		free(v);
		return t;
	}
	return NULL;
}

static char *cpuinfo(const char *root)
{
	char *path = xasprintf("%s/proc/cpuinfo", root);
	char *text = file_read(path, NULL);
	free(path);
	return text;
}

int machine_cores(const char *root)
{
	char *text = cpuinfo(root);
	int n = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, "processor", 9) && (l[9] == ' ' || l[9] == '\t' || l[9] == ':'))
			n++;
	free(text);
	return n;
}

double machine_load(const char *root)
{
	char *line = read_line(root, "proc/loadavg");
	char *end = NULL;
	double v = line ? strtod(line, &end) : NAN;
	if (line && end == line)
		v = NAN;
	free(line);
	return v;
}

static char *or_unknown(char *v)
{
	return v ? v : xstrdup("unknown");
}

static char *cpu_model(const char *text)
{
	static const char *const keys[] = {"model name", "cpu model", "Processor", "uarch", "cpu"};
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char *v = cpuinfo_field(text, keys[i]);
		if (v && *v)
			return v;
		free(v);
	}
	return NULL;
}

/* intel_pstate says no_turbo (1: off); acpi-cpufreq and others say boost (1: on) */
static char *boost_state(const char *root)
{
	char *v = read_line(root, "sys/devices/system/cpu/intel_pstate/no_turbo");
	if (v) {
		char *s = xstrdup(!strcmp(v, "0") ? "on" : "off");
		free(v);
		return s;
	}
	v = read_line(root, "sys/devices/system/cpu/cpufreq/boost");
	if (v) {
		char *s = xstrdup(!strcmp(v, "1") ? "on" : "off");
		free(v);
		return s;
	}
	return NULL;
}

static char *freq_range(const char *root, const char *cpuinfo_text)
{
	char *lo = read_line(root, "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq");
	char *hi = read_line(root, "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
	char *r = NULL;
	if (lo && hi)
		r = xasprintf("%ld-%ld MHz", strtol(lo, NULL, 10) / 1000, strtol(hi, NULL, 10) / 1000);
	free(lo);
	free(hi);
	if (r)
		return r;
	/* no cpufreq (a VM): the clock cpuinfo reports, which is not a range */
	char *mhz = cpuinfo_field(cpuinfo_text, "cpu MHz");
	if (mhz) {
		r = xasprintf("%.0f MHz (cpuinfo; no cpufreq)", strtod(mhz, NULL));
		free(mhz);
	}
	return r;
}

static char *kernel_release(const char *root)
{
	char *v = read_line(root, "proc/sys/kernel/osrelease");
	struct utsname u;
	if (!v && !*root && !uname(&u))
		v = xstrdup(u.release);
	return v;
}

/* systemd-detect-virt's answer on this machine ("kvm", "none"), or NULL */
static char *detect_virt(const char *root)
{
	if (*root)
		return NULL;
	char *exe = path_lookup("systemd-detect-virt");
	if (!exe)
		return NULL;
	char *out = NULL;
	char *argv[] = {exe, NULL};
	int rc = run_capture(argv, &out);
	free(exe);
	char *v = out && *str_trim(out) ? xstrdup(str_trim(out)) : NULL;
	free(out);
	(void)rc; /* it exits 1 with "none" on bare metal */
	return v;
}

/* The evidence of a hypervisor: the CPU flag, DMI's vendor, systemd's
 * answer.  "no" needs a flags line to look in (x86) or systemd's "none". */
static char *vm_state(const char *root, const char *cpuinfo_text)
{
	struct strbuf yes = {0};
	char *flags = cpuinfo_field(cpuinfo_text, "flags");
	if (flags) {
		struct strlist words = {0};
		sl_split_ws(&words, flags);
		if (sl_find(&words, "hypervisor") >= 0)
			sb_add(&yes, "hypervisor flag");
		sl_release(&words);
	}
	char *vendor = read_line(root, "sys/class/dmi/id/sys_vendor");
	for (size_t i = 0; vendor && i < ARRAY_SIZE(vm_vendors); i++)
		if (str_starts_with(vendor, vm_vendors[i])) {
			sb_addf(&yes, "%ssys_vendor %s", yes.len ? ", " : "", vendor);
			break;
		}
	char *virt = detect_virt(root);
	if (virt && strcmp(virt, "none"))
		sb_addf(&yes, "%ssystemd-detect-virt %s", yes.len ? ", " : "", virt);
	char *r = yes.len ? xasprintf("yes (%s)", sb_str(&yes))
			  : (flags || (virt && !strcmp(virt, "none"))) ? xstrdup("no") : NULL;
	free(flags);
	free(vendor);
	free(virt);
	sb_release(&yes);
	return r;
}

static char *load_text(double v)
{
	return isnan(v) ? xstrdup("unknown") : xasprintf("%.2f", v);
}

static char *utc_now(void)
{
	char buf[32];
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	return xstrdup(buf);
}

static void set(struct machine_state *m, enum machine_key k, char *v)
{
	free(m->v[k]);
	m->v[k] = or_unknown(v);
}

void machine_read(struct machine_state *m, const char *root, const char *pin)
{
	char *text = cpuinfo(root);
	int cores = machine_cores(root);
	set(m, MACHINE_CPU, text ? cpu_model(text) : NULL);
	set(m, MACHINE_CORES, cores ? xasprintf("%d", cores) : NULL);
	set(m, MACHINE_GOVERNOR, read_line(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
	set(m, MACHINE_BOOST, boost_state(root));
	set(m, MACHINE_FREQ, freq_range(root, text ? text : ""));
	set(m, MACHINE_KERNEL, kernel_release(root));
	set(m, MACHINE_VM, vm_state(root, text ? text : ""));
	set(m, MACHINE_PIN, xstrdup(pin && *pin ? pin : "none"));
	double load = machine_load(root);
	set(m, MACHINE_LOAD_BEFORE, load_text(load));
	set(m, MACHINE_LOAD_MAX, load_text(load));
	set(m, MACHINE_STARTED, utc_now());
	free(text);
}

void machine_finish(struct machine_state *m, const char *root, double max_sampled)
{
	double after = machine_load(root);
	const char *was = m->v[MACHINE_LOAD_MAX] ? m->v[MACHINE_LOAD_MAX] : "";
	char *end;
	double max = strtod(was, &end);
	if (end == was)
		max = NAN; /* "unknown" */
	/* fmax ignores a NAN side: an unknown load never hides a known one */
	max = fmax(fmax(max, max_sampled), after);
	set(m, MACHINE_LOAD_AFTER, load_text(after));
	set(m, MACHINE_LOAD_MAX, load_text(max));
	set(m, MACHINE_FINISHED, utc_now());
}

void machine_release(struct machine_state *m)
{
	for (size_t i = 0; i < MACHINE_NKEYS; i++)
		free(m->v[i]);
	memset(m, 0, sizeof(*m));
}

static void *watch_loop(void *arg)
{
	struct machine_watch *w = arg;
	pthread_mutex_lock(&w->lock);
	/* one sample at least, however short the study */
	do {
		w->max = fmax(w->max, machine_load(w->root));
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += MACHINE_WATCH_SECONDS;
		while (!w->stop && pthread_cond_timedwait(&w->wake, &w->lock, &until) != ETIMEDOUT) {
		}
	} while (!w->stop);
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int machine_watch_start(struct machine_watch *w, const char *root)
{
	memset(w, 0, sizeof(*w));
	w->root = root;
	w->max = NAN;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	/* the sampler takes no signals: signals go to the threads that wait
	 * for them (once a SIGCHLD it took cost the runner's old sigtimedwait
	 * a 0.1 s run's whole 20 s timeout; the runner now waits on its child) */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	w->started = !pthread_create(&w->thread, NULL, watch_loop, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return w->started ? 0 : -1;
}

double machine_watch_stop(struct machine_watch *w)
{
	if (w->started) {
		pthread_mutex_lock(&w->lock);
		w->stop = 1;
		pthread_cond_signal(&w->wake);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->thread, NULL);
	}
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	return w->max;
}

int machine_quiet_check(const char *root, double per_core, struct strbuf *why)
{
	double load = machine_load(root);
	int cores = machine_cores(root);
	if (!cores)
		cores = cpu_count();
	double limit = per_core * cores;
	if (isnan(load) || load <= limit)
		return 0;
	sb_addf(why, "the 1-minute load average is %.2f, above the isolate threshold %.2f (%g per core x %d cores)",
		load, limit, per_core, cores);
	return -1;
}

int machine_pin_check(const char *pin, int board, struct strbuf *why)
{
	cpu_set_t want, allowed;
	if (cpulist_parse(pin, &want, why))
		return -1;
	/* a board's helper checks the list against the board's own CPUs */
	if (board || sched_getaffinity(0, sizeof(allowed), &allowed))
		return 0; /* nothing to check against: the child's call says */
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &want) && !CPU_ISSET(c, &allowed)) {
			char *list = cpulist_format(&allowed);
			sb_addf(why, "CPU %d is not one this process may run on (allowed: %s)", c, list);
			free(list);
			return -1;
		}
	return 0;
}

int machine_study_check(const struct study *s, const char *cmd, const char *pin_option, int force,
			struct strbuf *err)
{
	struct strbuf why = {0};
	const char *pin = pin_option ? pin_option : s->pin;
	int rc = 0;
	if (pin && machine_pin_check(pin, s->run_host != NULL, &why)) {
		if (pin_option)
			sb_addf(err, "%s: --pin: %s", cmd, sb_str(&why));
		else
			sb_addf(err, "%s:%d: pin: %s", s->path, s->pin_line, sb_str(&why));
		rc = -1;
	} else if (s->isolate && !force && machine_quiet_check(machine_root(), s->isolate_load, &why)) {
		sb_addf(err, "%s:%d: isolate = yes: %s (wait for a quieter machine, raise isolate_load, or pass --force)",
			s->path, s->isolate_line, sb_str(&why));
		rc = -1;
	}
	sb_release(&why);
	return rc;
}
