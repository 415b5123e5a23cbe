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

/* "FLAGSCOPE_RUN=" and 16 hex digits: the same length for every run, so
 * the tag moves no run's stack */
#define STRAYS_TAG_SIZE 31

/* Fill tag (STRAYS_TAG_SIZE bytes, NUL included) with an environment entry
 * no other live run on this machine carries. */
void strays_tag(char *tag);

/* Kill (SIGKILL) every process of this machine, this one aside, whose
 * environment holds the entry tag, or that has one of the regular files
 * held (a NULL-terminated list of paths; NULL: none) open; returns how
 * many. */
int strays_kill(const char *tag, const char *const *held);

#endif
