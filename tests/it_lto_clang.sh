#!/bin/bash
# it_lto_clang.sh - clang's LTO judged from the build tree's objects
# (harness/elf_lto.c): clang -flto leaves no trace in the linked file, but
# its objects are LLVM bitcode.  Expected:
#   verify --objects on a program built from two clang -flto objects:
#     exit 0, "lto  verified: 2 of the 2 objects ... LLVM bitcode";
#   the same program built without -flto, --expect "-O2 -flto": exit 1,
#     "no LTO: none of the 2 objects ... is LLVM bitcode";
#   a one-step compile and link (no objects kept): "not judged";
#   JSON carries the verdict as "lto";
#   flagscope run with clang on the tiny fixture: "-O2 -flto" ok with the
#     verdict in its stored facts; "-O2 -flto -DPLANT_NOFLAGS" (helper.o
#     compiled without the flags) flags_not_applied "no LTO: none of the 1
#     objects".
# Takes about 10 s.
set -uo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_lto_clang
command -v clang >/dev/null || { echo "SKIP: clang is not installed"; exit 77; }
G="-g -grecord-command-line -O2"
printf 'int f(int x);\nint main(void) { return f(3) - 9; }\n' >a.c
printf 'int f(int x) { return x * x; }\n' >b.c
mkdir lto plain one
(cd lto && clang $G -flto -c ../a.c ../b.c && clang $G -flto -o p a.o b.o) 2>clang.err ||
	{ echo "SKIP: clang -flto cannot link here (LLVMgold): $(cat clang.err)"; exit 77; }
(cd plain && clang $G -c ../a.c ../b.c && clang $G -o p a.o b.o) || fail "clang without -flto"
(cd one && clang $G -flto -o p ../a.c ../b.c) || fail "clang -flto in one step"

fs verify lto/p --expect "-O2 -flto" --objects lto >v1.out 2>&1 || fail "lto: $(cat v1.out)"
grep -q "^  lto         verified: 2 of the 2 objects under lto are LLVM bitcode" v1.out ||
	fail "lto: $(cat v1.out)"
fs verify plain/p --expect "-O2 -flto" --objects plain >v2.out 2>&1
[ $? = 1 ] || fail "plain passes the LTO check: $(cat v2.out)"
grep -q "no LTO: none of the 2 objects under plain is LLVM bitcode" v2.out || fail "plain: $(cat v2.out)"
fs verify one/p --expect "-O2 -flto" --objects one >v3.out 2>&1 || fail "one: $(cat v3.out)"
grep -q "lto         not judged: .*holds no object file" v3.out || fail "one: $(cat v3.out)"
fs verify lto/p --expect "-O2 -flto" --objects lto -f json >v4.out 2>&1 || fail "json: $(cat v4.out)"
python3 -c 'import json, sys; v = json.load(open(sys.argv[1]))[0]["lto"]
assert v.startswith("verified: 2 of the 2"), v' v4.out || fail "json: $(cat v4.out)"
# without -flto expected there is nothing to judge
fs verify plain/p --expect "-O2" --objects plain >v5.out 2>&1 || fail "plain -O2: $(cat v5.out)"
grep -q "^  lto" v5.out && fail "an lto line without -flto expected: $(cat v5.out)"

# the same judgement on a study's builds
cat >clang.study <<'S'
; tiny with clang: LTO proven by helper.o's bitcode; see tests/it_lto_clang.sh
[study]
name = lto-clang
workloads = tiny
repeat = 1
baseline = clang O2

[axis cc]
clang = clang

[axis opt]
O2 = -O2
lto = -O2 -flto
drop = -O2 -flto -DPLANT_NOFLAGS
S
fs run clang.study --db c.db -q -j2 >run.out 2>&1 || true
sql() { python3 -c 'import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print("|".join(map(str, row)))' c.db "$1"; }
build() { sql "SELECT b.status || ' ' || b.detail FROM builds b JOIN configs c ON
	c.study=b.study AND c.id=b.config_id WHERE c.label='clang $1'"; }
s=$(build lto)
[ "${s%% *}" = ok ] || fail "tiny with clang -flto: $s ($(cat run.out))"
sql "SELECT b.facts FROM builds b JOIN configs c ON c.study=b.study AND c.id=b.config_id
	WHERE c.label='clang lto'" >facts.out
grep -q '"lto":"verified: 1 of the 1 objects' facts.out || fail "facts: $(cat facts.out)"
s=$(build drop)
case $s in "flags_not_applied "*"no LTO: none of the 1 objects"*) ;;
	*) fail "tiny with helper.o compiled without -flto: $s" ;; esac
echo "it_lto_clang: ok"
