#!/bin/bash
# it_resume_progress: a resumed study counts the runs it finds stored in its
# progress: after 4 stored runs of 6 the next is "[run 5/6]", not "[run 1/6]"
# (the time left is of the runs made now; "nothing was measured now" still
# says a rerun measured nothing).
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_resume_progress
count_failures

tiny_study s.study 1 "2 configurations: 4 runs at repeat 1, 6 at repeat 2" O2 O0
fs run s.study --db s.db >one.out 2>one.err || fail "repeat 1: $(tail -2 one.err)"
grep -q "^flagscope: \[run 4/4\]" one.err || fail "repeat 1: no [run 4/4]: $(grep '\[run' one.err)"
fs run s.study --db s.db --repeat 2 >two.out 2>two.err || fail "repeat 2: $(tail -2 two.err)"
got=$(grep -o '^flagscope: \[run [0-9]*/[0-9]*\]' two.err | tr '\n' ' ')
[ "$got" = "flagscope: [run 5/6] flagscope: [run 6/6] " ] ||
	fail "the resume to repeat 2 counted from 1, not from the 4 stored runs: $got"
fs run s.study --db s.db --repeat 2 >three.out 2>three.err || fail "rerun: $(tail -2 three.err)"
grep -q "nothing was measured now" three.err || fail "a rerun does not say it measured nothing: $(tail -3 three.err)"
grep -q '\[run ' three.err && fail "a rerun printed run lines: $(grep '\[run' three.err)"
finish_counted
