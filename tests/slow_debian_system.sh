#!/bin/bash
# slow_debian_system.sh - a Debian source package as a workload with no
# recipe (`[build] system = debian` through a study's packages =): libyaml
# (0.2.5, autotools under dh, two automake tests), three configurations:
#   O2      -O2                       (the baseline)
#   O3      -O3
#   broken  -O2 -Werror=unused-value  (emitter.c computes a value it does not use: the build fails)
# Expected: PASS, with
#   - a run stopped (SIGTERM) after the first package build finished, then
#     run again, resumes there: the finished build is cached, the one that
#     was stopped is built again ("1 built, 1 cached, 1 failed"); the source
#     is fetched and the build dependencies looked at once per package
#   - O2 and O3 ok with their tests passed (tests.log holds automake's
#     PASS lines), tests.time stored for both (a build's metric)
#   - broken: build_failed, its detail the compiler's first error line
#     (a -Werror=X that configure's own tests trip instead changes what
#     configure finds, e.g. AC_C_CONST, and the build goes through: an
#     error the package's code alone makes is the one to test with)
#   - `flagscope verify --expect -O3` over the O3 build's tree (the shipped
#     libyaml-0.so.2 found in debian/libyaml-0-2/) as expected, and the O2
#     tree refused for the same -O3 (exit 1)
#   - packages = gzip is the Debian package, not workloads/gzip's benchmark
#   - a package whose build dependencies are missing, under build_deps =
#     refuse: its build unsupported, "build dependencies not installed" and
#     the missing ones in its detail, the study's exit 0 (SKIP line when
#     every candidate's build dependencies are installed here)
# SKIP when dpkg-buildpackage is missing, apt has no deb-src entries
# (scripts/deb-src.sh), or libyaml's build dependencies are missing and
# this is not root.
# Measured (2 cores at a load of 15-20, other builds beside): 100-120 s a
# build of libyaml (15 s of CPU), 2-3.5 s its tests; the whole test 5-7 min.
set -u
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch slow_debian_system
count_failures

command -v dpkg-buildpackage >/dev/null || { echo "SKIP: dpkg-buildpackage is not installed (dpkg-dev)"; exit 77; }
if ! apt-cache showsrc --only-source libyaml 2>/dev/null | grep -q '^Package: libyaml$'; then
	echo "SKIP: apt knows no source package libyaml (add deb-src entries: scripts/deb-src.sh)"
	exit 77
fi
missing() { # PKG: apt-get would install something for its build dependencies
	apt-get -s build-dep --arch-only "$1" 2>/dev/null | grep -Eq '^[0-9]+ upgraded, [1-9][0-9]* newly installed'
}
if [ "$(id -u)" != 0 ] && missing libyaml; then
	echo "SKIP: libyaml's build dependencies are missing and only root installs them"
	exit 77
fi

cat >s.study <<'EOS'
; slow_debian_system: libyaml without a recipe, two good and one broken configuration
[study]
packages = libyaml
repeat = 1
baseline = O2
[axis opt]
O2 = -O2
O3 = -O3
broken = -O2 -Werror=unused-value
EOS

# a run stopped once its first build is done
"$FLAGSCOPE_BIN" run s.study -j 1 >stopped.out 2>stopped.err & # not fs: $! is flagscope's
pid=$!
for _ in $(seq 1800); do
	ls cache/builds/*/status >/dev/null 2>&1 && break
	kill -0 $pid 2>/dev/null || break
	sleep 1
done
kill -TERM $pid 2>/dev/null
wait $pid
stopped=$?
[ "$stopped" != 0 ] || fail "the stopped run exited 0 (stopped.err: $(tail -2 stopped.err))"
grep -q "interrupted" stopped.err || fail "the stopped run did not say it was interrupted: $(tail -3 stopped.err)"

fs run s.study -j 2 >run.out 2>run.err
rc=$?
[ $rc = 0 ] || fail "run exited $rc: $(tail -3 run.err)"
grep -q "builds: 1 built, 1 cached, 1 failed" run.out ||
	fail "the resumed run did not resume at the stopped build: $(grep builds: run.out)"
[ "$(grep -c '^flagscope: source libyaml:' run.err)" = 1 ] || fail "the source was looked at more than once a study"
[ "$(grep -c 'build-deps libyaml' run.err)" -le 1 ] || fail "build dependencies installed more than once"

status() { sql flagscope.db "SELECT b.status FROM builds b JOIN configs c ON c.id = b.config_id AND c.study = b.study WHERE c.label = '$1' AND b.workload = 'libyaml'"; }
key() { sql flagscope.db "SELECT b.key FROM builds b JOIN configs c ON c.id = b.config_id AND c.study = b.study WHERE c.label = '$1'"; }
for c in O2 O3; do
	[ "$(status $c)" = ok ] || fail "$c: build $(status $c), not ok"
	grep -q "^libyaml $c: ok, tests passed (test-suite time" run.out || fail "$c: run did not say its tests passed"
	t=$(sql flagscope.db "SELECT b.value FROM build_sizes b JOIN configs c ON c.id = b.config_id AND c.study = b.study WHERE c.label = '$c' AND b.metric = 'tests.time'")
	[ -n "$t" ] && awk "BEGIN { exit !($t > 0) }" || fail "$c: no tests.time stored ('$t')"
	dir=$FLAGSCOPE_CACHE/builds/$(key $c)
	grep -q '^PASS: test-reader' "$dir/tests.log" || fail "$c: tests.log has no PASS: test-reader"
done
[ "$(status broken)" = build_failed ] || fail "broken: build $(status broken), not build_failed"
detail=$(sql flagscope.db "SELECT b.detail FROM builds b JOIN configs c ON c.id = b.config_id AND c.study = b.study WHERE c.label = 'broken'")
grep -q "error: value computed is not used" <<<"$detail" || fail "broken: the detail is not the first error line: $detail"

O3=$FLAGSCOPE_CACHE/builds/$(key O3)/out O2=$FLAGSCOPE_CACHE/builds/$(key O2)/out
out_has "libyaml-0-2/usr/lib/.*/libyaml-0.so" fs verify --expect -O3 "$O3" || fail "verify --expect -O3 over the O3 tree: $(fs verify --expect -O3 "$O3" 2>&1 | tail -3)"
out_has -E "api.c +.* -O3( |$)" fs verify "$O3" || fail "verify does not show -O3 in the O3 build's units"
fs verify --expect -O3 "$O2" >/dev/null 2>&1
[ $? = 1 ] || fail "verify --expect -O3 over the O2 tree was not a mismatch"

# a package whose name a benchmark recipe has too (workloads/gzip builds
# the upstream program alone, with [run] benchmarks and no test suite) is
# the package, built the Debian way (it was the benchmark)
fs run s.study --packages gzip --dry-run >g.out 2>g.err
grep -q '^flagscope: source gzip: debian:gzip patched$' g.err ||
	fail "packages = gzip is not the Debian package: $(grep 'source gzip' g.err)"
# a packages-only study measures nothing: the dry run says so, as the run does
grep -Eq '^study [^:]+: [0-9]+ configurations? \([0-9]+ excluded\) x 1 package, built and tested \(nothing to measure\)$' g.out ||
	fail "the dry run of a packages-only study names repetitions: $(head -1 g.out)"

# a candidate whose build dependencies are missing here and whose source
# the archive serves (a newest security version may 404: the next is tried)
judged=
for p in json-c zlib lz4 libsodium expat; do
	missing $p || continue
	cat >r.study <<EOS
; slow_debian_system: $p with installs refused
[study]
packages = $p
build_deps = refuse
repeat = 1
[axis opt]
O2 = -O2
EOS
	rm -f r.db
	fs run r.study --db r.db >r.out 2>r.err
	rc=$?
	row=$(sql r.db "SELECT status, detail FROM builds WHERE workload = '$p'")
	case $row in "build_failed|source: "*) echo "note: $p: $row"; continue ;; esac
	[ $rc = 0 ] || fail "the refused study exited $rc: $(tail -3 r.err)"
	grep -q "^unsupported|build dependencies not installed: " <<<"$row" || fail "$p: $row"
	grep -q "apt-get build-dep --arch-only $p: installing" r.err && fail "refused, yet installing said"
	grep -q "^$p O2: unsupported: build dependencies not installed" r.out || fail "$p: run's line: $(cat r.out)"
	ok "$p: $row"
	judged=$p
	break
done
[ -n "$judged" ] || echo "SKIP: refused build-dep install not tried: no candidate with missing build dependencies and a source the archive serves"
finish_counted
