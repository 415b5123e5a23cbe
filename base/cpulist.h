/*
 * cpulist.h - CPU lists as Linux writes them (Cpus_allowed_list,
 * /sys/devices/system/cpu/online): "0", "0-3", "0-1,3".
 */
#ifndef FLAGSCOPE_CPULIST_H
#define FLAGSCOPE_CPULIST_H

#include <sched.h>

#include "base/util.h"

/* Parse text into set (cleared first).  Numbers from 0 to CPU_SETSIZE - 1,
 * ranges low-high with low <= high, separated by commas; blanks around
 * items are allowed, an empty list is not.  0, or -1 with the reason (no
 * file:line) in why.  Allocates nothing, so a forked child may call it. */
int cpulist_parse(const char *text, cpu_set_t *set, struct strbuf *why);

/* The CPUs of set as a list ("0-1,3"); heap string, "" for none. */
char *cpulist_format(const cpu_set_t *set);

#endif
