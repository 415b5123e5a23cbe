#!/bin/bash
# it_configcache_opt.sh - configure's answers are shared between -O levels
# once two builds proved them equal (harness/configcache.h), but the group
# left out every -O word: -O0 (no __OPTIMIZE__), -Os (__OPTIMIZE_SIZE__)
# and -Ofast (__FAST_MATH__) were seeded with -O2's answers.  Expected: -O0
# and -Os (-Ofast's build is refused by verify for libgcc's crtfastmath.o:
# another matter) run configure
# themselves and get their own answers (every build ok), and -O1 still
# takes the answers -O2 and -O3 proved (the cache still saves configure).
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_configcache_opt
count_failures

mkdir -p workloads/cfg
cat > workloads/cfg/configure <<'C'
#!/bin/sh
# a configure in autoconf's manner: answers from the cache file when it
# has them, else asked of the compiler; writes config.h and config.status
cache=$1
[ -f "$cache" ] && . "$cache"
if [ -n "${ac_cv_size+set}" ]; then
	echo "$CFLAGS" >seeded
fi
ask() { printf '#ifdef %s\nyes\n#else\nno\n#endif\n' "$1" >t.c && $CC $CFLAGS -E -P t.c | grep -v '^$' | tail -1; }
[ -n "${ac_cv_size+set}" ] || ac_cv_size=$(ask __OPTIMIZE_SIZE__)
[ -n "${ac_cv_optimize+set}" ] || ac_cv_optimize=$(ask __OPTIMIZE__)
printf 'ac_cv_size=%s\nac_cv_optimize=%s\n' "$ac_cv_size" "$ac_cv_optimize" >"$cache"
printf '#define SIZE_%s 1\n#define OPTIMIZE_%s 1\n' "$ac_cv_size" "$ac_cv_optimize" >config.h
printf 'config_headers=" config.h"\n' >config.status
C
cat > workloads/cfg/recipe.ini <<'R'
; cfg: a configure that takes its answers from $FLAGSCOPE_CONFIG_CACHE; expect: every build ok
[workload]
description = configure answers that depend on the -O level
source = bundled
[build]
script = sh "$RECIPE/configure" "$FLAGSCOPE_CONFIG_CACHE"
  case " $CFLAGS " in
  *" -Os "*) grep -q SIZE_yes config.h || { echo "error: -Os got another level's answer" >&2; exit 1; } ;;
  *" -O0 "*) grep -q OPTIMIZE_no config.h || { echo "error: -O0 got another level's answer" >&2; exit 1; } ;;
  esac
  printf 'int main(void) { return 0; }\n' >m.c
  $CC $CFLAGS -o cfg m.c $LDFLAGS
binaries = cfg
[run]
args = cfg
timeout = 20
R
cat > c.study <<'S'
; expect: every build ok; O1 seeded from the answers O2 and O3 proved
[study]
name = c
workloads = cfg
repeat = 1
baseline = O2
[axis opt]
O2 = -O2
O3 = -O3
O0 = -O0
Os = -Os
O1 = -O1
S
fs run c.study --db c.db -j 1 -q >c.out 2>c.err || true
bad=$(sql c.db "select c.label || ': ' || b.status || ' ' || coalesce(b.detail, '') from builds b join configs c on c.id = b.config_id and c.study = b.study where b.status <> 'ok'")
[ -z "$bad" ] || fail "builds seeded with another level's answers: $bad"
seeded=$(cat "$FLAGSCOPE_CACHE"/builds/*/out/seeded 2>/dev/null || true)
grep -q -- "-O1" <<<"$seeded" || fail "-O1 was not seeded from the proven answers: '$seeded'"
! grep -q -- "-O0\|-Os" <<<"$seeded" || fail "-O0 or -Os was seeded: '$seeded'"
[ "$failures" = 0 ] && ok "-O0 and -Os ask configure themselves; -O1 shares -O2's proven answers"
finish_counted
