/*
 * strays.h - the processes a measured run leaves behind.  A run's program
 * may start processes that outlive it: in its own process group (the
 * runner kills the group), in a session of their own (setsid, as daemons
 * do) or after a double fork (reparented away at once).  Each run gets a
 * tag in its environment, which its descendants inherit; when the run
 * ends, every process still carrying the tag is killed, so none runs
 * beside the next runs.  A descendant that replaced its whole environment
 * (env -i) is found by the run's output files it still holds open (its
 * stdout or stderr, inherited); one that did both (env -i, and its outputs
 * sent elsewhere, as a daemon does) is not found.
 */
#ifndef FLAGSCOPE_STRAYS_H
#define FLAGSCOPE_STRAYS_H

#include <sys/types.h>

/* "FLAGSCOPE_RUN=" and 16 hex digits: the same length for every run, so
 * the tag moves no run's stack */
#define STRAYS_TAG_SIZE 31

/* Fill tag (STRAYS_TAG_SIZE bytes, NUL included) with an environment entry
 * no other live run on this machine carries. */
void strays_tag(char *tag);

/* In a freshly forked child, before exec (async-signal-safe only):
 * every descriptor above 2 is closed at exec (close_range, or one by one
 * where the kernel lacks it), so the program inherits only its stdin,
 * stdout and stderr, never another thread's open file, the database or
 * a lock; with die_with set, the child is killed (SIGKILL) when the
 * thread that forked it ends, as when flagscope is killed, and -1 is
 * returned when parent is already gone (the caller _exits). */
int strays_child_setup(pid_t parent, int die_with);

/* Kill (SIGKILL) the leftovers of runs whose flagscope is gone (killed:
 * its runs' descendants carry its pid in their tag and outlived it), so
 * none runs beside the runs about to be measured.  A tag whose pid is
 * alive belongs to a live run unless that process started after the
 * leftover did (the pid was reused).  Returns how many it killed. */
int strays_kill_orphans(void);

/* Kill (SIGKILL) every process of this machine, this one aside, whose
 * environment holds the entry tag, or that has one of the regular files
 * held (a NULL-terminated list of paths; NULL: none) open; returns how
 * many. */
int strays_kill(const char *tag, const char *const *held);

#endif
