#!/bin/bash
# check_strerror.sh SRC - errors are lowercase one-liners (STYLE.md 5), and
# strerror() begins with a capital ("No such file or directory"): every
# message of flagscope's own code takes strerror_lc() (base/util.h)
# instead.  Exceptions, each with its reason:
#   base/util.c                 strerror_lc itself
#   harness/remote-helper/      a program built on the board, without base/
#   workloads/, bench/, tests/  programs and tests of their own, not flagscope's messages
# Prints FILE:LINE per direct call; exit 1 when there is one.
set -uo pipefail
src=${1:?usage: check_strerror.sh SRC}
cd "$src" || exit 2
hits=$(grep -rn --include='*.c' '\bstrerror(' base model flagsets harness analysis pipeline search explorer 2>/dev/null |
	grep -v '^base/util\.c:\|^harness/remote-helper/')
if [ -n "$hits" ]; then
	echo "$hits" | sed 's/$/: strerror() in a message (use strerror_lc: errors are lowercase)/'
	exit 1
fi
echo "PASS: no direct strerror() in flagscope's messages"
