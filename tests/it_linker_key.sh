#!/bin/bash
# it_linker_key: the linker's version is in the build key of a build its
# flags link with lld (issue 27: layouts = N variants link with
# -fuse-ld=lld --shuffle-sections, and another lld may order sections
# otherwise).  Expected: PASS.  tiny with layouts = 2 under gcc, keys read
# from --dry-run: with an ld.lld first on PATH that says it is
# "LLD 99.0.0" (a wrapper around the real one; gcc finds ld.lld on PATH)
# the variant's key differs from the one with the real lld, while the
# plain build (no -fuse-ld) keeps its key; the same lld twice gives the
# same keys.  SKIP without ld.lld.
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_linker_key
count_failures
lld=$(command -v ld.lld) || { echo "SKIP: no ld.lld here (apt-get install lld)"; exit 77; }

mkdir -p fake
cat >fake/ld.lld <<W
#!/bin/sh
for a; do [ "\$a" = --version ] && { echo "LLD 99.0.0 (compatible with GNU linkers)"; exit 0; }; done
exec $lld "\$@"
W
chmod +x fake/ld.lld
printf '; expect: dry runs only\n[study]\nname = s\nworkloads = tiny\nlayouts = 2\nrepeat = 2\nbaseline = O2\n[axis opt]\nO2 = -O2\n' >s.study

keys() { # the build keys of the dry run, "plain variant"
	"$@" run s.study --db s.db --dry-run 2>/dev/null | awk '/^config /{v = /layout/} /build [0-9a-f]+/{k[v] = $3} END {print k[0], k[1]}'
}
read -r plain1 var1 < <(keys fs)
read -r plain2 var2 < <(keys fs)
read -r plain3 var3 < <(PATH=$T/fake:$PATH keys fs)
[ -n "$plain1" ] && [ -n "$var1" ] || fail "no build keys in the dry run"
[ "$plain1 $var1" = "$plain2 $var2" ] || fail "the same lld twice: $plain1 $var1, then $plain2 $var2"
[ "$plain3" = "$plain1" ] || fail "the plain build's key moved with lld: $plain1 -> $plain3"
[ "$var3" != "$var1" ] || fail "another lld (99.0.0) kept the variant's key $var1"
ok "variant key $var1 with $($lld --version | head -1), $var3 with LLD 99.0.0; plain $plain1 both"
finish_counted
