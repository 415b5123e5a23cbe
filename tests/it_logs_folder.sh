#!/bin/bash
# it_logs_folder: run --logs DIR that cannot be made is refused before any
# build (exit 2, one line naming DIR and why), not said after the builds.
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_logs_folder
count_failures

tiny_study s.study 1 "refused: --logs names a folder under a file" O2
: >afile
fs run s.study --db s.db --logs afile/logs >out 2>err
rc=$?
[ "$rc" = 2 ] || fail "--logs under a file: exit $rc, want 2: $(tail -2 err)"
grep -q "^flagscope: afile/logs: cannot make the log folder: not a directory (give --logs a folder you can write)$" err ||
	fail "--logs under a file: not one line naming the folder: $(cat err)"
grep -q '\[build\|\[run' err && fail "--logs under a file: built or ran first: $(grep '\[build\|\[run' err)"
fs run s.study --db s.db --logs kept >out 2>err || fail "--logs kept: $(tail -2 err)"
[ -f kept/tiny/O2.log ] || fail "--logs kept: no kept/tiny/O2.log: $(find kept 2>&1)"
finish_counted
