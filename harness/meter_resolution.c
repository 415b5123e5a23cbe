/* meter_resolution.c - how fine each meter's metrics are (meter.h,
 * enum metric_grain): the figures behind the grains of the meters' tables */
#include "harness/meter.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* Linux's CONFIG_HZ is one of these; a measured rate snaps to the nearest */
static const long kernel_hz[] = {100, 250, 300, 1000};

static long nearest_hz(double rate)
{
	long best = kernel_hz[0];
	for (size_t i = 1; i < ARRAY_SIZE(kernel_hz); i++)
		if (fabs(rate - (double)kernel_hz[i]) < fabs(rate - (double)best))
			best = kernel_hz[i];
	return best;
}

static long config_hz(void)
{
	struct utsname u;
	if (uname(&u))
		return 0;
	char *path = xasprintf("/boot/config-%s", u.release);
	char *text = file_read(path, NULL);
	free(path);
	const char *at = text ? strstr(text, "\nCONFIG_HZ=") : NULL;
	long hz = at ? strtol(at + 11, NULL, 10) : 0;
	free(text);
	return hz;
}

/* /proc/timer_list's "jiffies:" (readable by root only on most systems) */
static int read_jiffies(unsigned long long *j, double *at)
{
	char *text = file_read("/proc/timer_list", NULL);
	const char *line = text ? strstr(text, "\njiffies: ") : NULL;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*at = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	if (line)
		*j = strtoull(line + 10, NULL, 10);
	free(text);
	return line ? 0 : -1;
}

static long measured_hz(void)
{
	unsigned long long j0, j1;
	double t0, t1;
	if (read_jiffies(&j0, &t0))
		return 0;
	struct timespec nap = {0, 100 * 1000 * 1000};
	nanosleep(&nap, NULL);
	if (read_jiffies(&j1, &t1) || !(t1 > t0) || j1 < j0)
		return 0;
	return nearest_hz((double)(j1 - j0) / (t1 - t0));
}

static double tick_s;
static char tick_how[160];

static void find_tick(void)
{
	long hz = config_hz();
	if (hz > 0) {
		snprintf(tick_how, sizeof(tick_how), "the scheduler tick, CONFIG_HZ=%ld (/boot/config)",
			 hz);
	} else if ((hz = measured_hz()) > 0) {
		snprintf(tick_how, sizeof(tick_how),
			 "the scheduler tick, %ld Hz (measured: /proc/timer_list's jiffies over 100 ms)",
			 hz);
	} else {
		hz = sysconf(_SC_CLK_TCK);
		hz = hz > 0 ? hz : 100;
		snprintf(tick_how, sizeof(tick_how),
			 "the scheduler tick, at most 1/%ld s (sysconf(_SC_CLK_TCK), USER_HZ: no "
			 "kernel's tick is slower)", hz);
	}
	tick_s = 1.0 / (double)hz;
}

static pthread_once_t tick_once = PTHREAD_ONCE_INIT;

double meter_tick(const char **how)
{
	pthread_once(&tick_once, find_tick);
	if (how)
		*how = tick_how;
	return tick_s;
}

static double grain_value(enum metric_grain g, struct strbuf *how)
{
	struct timespec res;
	const char *tick_text;
	switch (g) {
	case GRAIN_EXACT:
		sb_add(how, "exact (counted or sized)");
		return 0;
	case GRAIN_CLOCK:
		if (clock_getres(CLOCK_MONOTONIC, &res))
			res = (struct timespec){0, 1000};
		sb_add(how, "clock_getres(CLOCK_MONOTONIC)");
		return (double)res.tv_sec + (double)res.tv_nsec / 1e9;
	case GRAIN_TICK: {
		double t = meter_tick(&tick_text);
		sb_add(how, tick_text);
		return t;
	}
	case GRAIN_PAGE: {
		long page = sysconf(_SC_PAGESIZE);
		sb_add(how, "one page (sysconf(_SC_PAGESIZE))");
		return (double)(page > 0 ? page : 4096) / 1024;
	}
	case GRAIN_EVENT:
		sb_add(how, "one event");
		return 1;
	case GRAIN_PERF_MSEC:
		sb_add(how, "perf stat -x, prints task-clock in msec with two decimals");
		return 0.01;
	}
	return -1;
}

/* the unit collect stores each grain's metrics in */
static const char *const grain_units[] = {
	[GRAIN_EXACT] = "", [GRAIN_CLOCK] = "s", [GRAIN_TICK] = "s",
	[GRAIN_PAGE] = "KiB", [GRAIN_EVENT] = "", [GRAIN_PERF_MSEC] = "msec",
};

double meter_resolution(const char *metric, const char **unit, struct strbuf *how)
{
	for (size_t i = 0; meter_at(i); i++) {
		const struct meter_metric *row = meter_table_find(meter_at(i), metric);
		if (row) {
			if (unit)
				*unit = grain_units[row->grain];
			return grain_value(row->grain, how);
		}
	}
	return -1;
}
