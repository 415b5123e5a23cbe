#!/bin/bash
# it_orphan_killed.sh - processes and descriptors of a measured run.
#  1. a SIGKILLed flagscope left the program it measured running (and a
#     resume measured beside it).  Expected: the program dies with
#     flagscope (it is killed when its parent goes).
#  2. a process the program started in a session of its own (a daemon)
#     outlives a killed flagscope.  Expected: the resume stops it before
#     it measures anything.
#  3. the program inherited flagscope's descriptors beyond stdin, stdout
#     and stderr (the files its runner opened, others' files).  Expected:
#     it has none (it counts them: extra 0).
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_orphan_killed
count_failures

mkdir -p home/workloads/orph
cat > home/workloads/orph/orph.c <<C
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* counts its descriptors beyond 0-2; while $T/nap.on exists it starts a
 * daemon (its own session) and both sleep */
int main(void)
{
	int extra = 0;
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] != '.' && fd > 2 && fd != dirfd(d)) {
			char l[256] = "";
			char p[64];
			snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
			if (readlink(p, l, sizeof(l) - 1) < 0)
				l[0] = 0;
			fprintf(stderr, "inherited fd %d: %s\n", fd, l);
			extra++;
		}
	}
	if (access("$T/nap.on", F_OK) == 0) {
		FILE *f = fopen("$T/prog.pid", "w");
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		if (fork() == 0) {
			setsid();
			f = fopen("$T/daemon.pid", "w");
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
			sleep(120);
			_exit(0);
		}
		sleep(120);
	}
	printf("extra %d\n", extra);
	return 0;
}
C
cat > home/workloads/orph/recipe.ini <<'R'
; orph: counts inherited descriptors; naps with a daemon while nap.on exists; expect: ok, extra 0
[workload]
description = counts inherited descriptors, naps with a daemon on demand
source = bundled
[build]
script = $CC $CFLAGS -o orph "$RECIPE/orph.c" $LDFLAGS
binaries = orph
[run]
args = orph
timeout = 200
metric.extra = ^extra ([0-9]+)
R
printf '[study]\nname = o\nworkloads = orph\nrepeat = 1\n[axis opt]\nO2 = -O2\n' >o.study

# alive PID: the process exists and is no zombie
alive() { [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
# gone_within SECONDS PID
gone_within() {
	local i
	for ((i = 0; i < $1 * 10; i++)); do
		alive "$2" || return 0
		sleep 0.1
	done
	return 1
}

touch nap.on
"$FLAGSCOPE_BIN" run o.study --db o.db -q >o1.out 2>o1.err &
fspid=$!
for ((i = 0; i < 600; i++)); do
	[ -s daemon.pid ] && [ -s prog.pid ] && break
	sleep 0.1
done
prog=$(cat prog.pid 2>/dev/null || true)
daemon=$(cat daemon.pid 2>/dev/null || true)
[ -n "$prog" ] && [ -n "$daemon" ] || fail "the run did not start: $(cat o1.err)"
kill -9 $fspid
wait $fspid 2>/dev/null || true
if [ -n "$prog" ]; then
	gone_within 10 "$prog" || { fail "the measured program outlived a SIGKILLed flagscope"; kill -9 "$prog"; }
fi
alive "$daemon" || fail "the daemon died with flagscope: nothing left for the resume to find"
[ "$failures" = 0 ] && ok "1 - the measured program dies with a SIGKILLed flagscope"

rm -f nap.on
fs run o.study --db o.db -q >o2.out 2>o2.err || fail "the resume failed: $(tail -3 o2.err)"
if alive "$daemon"; then
	fail "the resume measured beside a leftover of the killed run (pid $daemon)"
	kill -9 "$daemon"
fi
[ "$failures" = 0 ] && ok "2 - the resume stops what the killed run left running"

got=$(sql o.db "select value from samples where metric = 'extra' and rep = 1")
[ "$got" = 0.0 ] || [ "$got" = 0 ] ||
	fail "the program inherited $got descriptors: $(grep -h inherited "$T"/cache/builds/*/run-*/stderr 2>/dev/null | head -3)"
[ "$failures" = 0 ] && ok "3 - the program inherits only stdin, stdout and stderr"
finish_counted
