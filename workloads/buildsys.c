/* buildsys.c - the scripts of `[build] system =`; see buildsys.h */
#include "workloads/buildsys.h"

#include <stdlib.h>
#include <string.h>

#include "base/registry.h"
#include "workloads/recipe.h"

static void script_cxx(struct strbuf *sb);

/* The start every system shares: trace the commands into the build log,
 * find the build files, and say whether this is a static link. */
static void script_head(const struct recipe *r, struct strbuf *sb)
{
	const struct recipe_system *s = &r->system;
	sb_addf(sb, "# written by flagscope for [build] system = %s (doc/recipe-format.md)\n",
		s->name);
	sb_add(sb, "set -x\n");
	if (s->subdir) {
		sb_add(sb, "srcdir=$SRC/");
		sh_quote(sb, s->subdir);
		sb_addc(sb, '\n');
	} else {
		sb_add(sb, "srcdir=$SRC\n");
	}
	sb_add(sb, "static=\ncase \" $LDFLAGS \" in *\" -static \"*) static=yes ;; esac\n");
	/* make reads the flags from the environment, through $(value ...),
	 * so it never expands them: a $(shell ...) or $X in a flag stays
	 * text (on make's command line make expanded it) */
	sb_add(sb, "FLAGSCOPE_CFLAGS=$CFLAGS FLAGSCOPE_LDFLAGS=$LDFLAGS\n"
		   "export FLAGSCOPE_CFLAGS FLAGSCOPE_LDFLAGS\n");
	script_cxx(sb);
}

/* C++ units get the configuration's flags too, from the C compiler's C++
 * sibling (g++-12 for gcc-12, HOST-g++, clang++ for clang); a driver
 * without one (musl-gcc) leaves CXX unset, and verify then finds such units
 * without the flags */
static void script_cxx(struct strbuf *sb)
{
	sb_add(sb, "cc_prog=${CC%% *}\n"
		   "case $cc_prog in\n"
		   "*clang*) cxx_prog=$(printf '%s\\n' \"$cc_prog\" | sed 's/clang\\([^/]*\\)$/clang++\\1/') ;;\n"
		   "*gcc*) cxx_prog=$(printf '%s\\n' \"$cc_prog\" | sed 's/gcc\\([^/]*\\)$/g++\\1/') ;;\n"
		   "*) cxx_prog= ;;\n"
		   "esac\n"
		   "if [ -n \"$cxx_prog\" ] && command -v \"$cxx_prog\" >/dev/null; then\n"
		   "\tCXX=$cxx_prog${CC#\"$cc_prog\"}\n"
		   "\tCXXFLAGS=$CFLAGS\n"
		   "\texport CXX CXXFLAGS\n"
		   "else\n"
		   "\tcxx_prog=\n"
		   "\tunset CXX CXXFLAGS\n"
		   "fi\n");
}

/* " WORDS" when the recipe gave them (inserted as shell words), else "" */
static void add_words(struct strbuf *sb, const char *words)
{
	if (words && *words) {
		sb_addc(sb, ' ');
		sb_add(sb, words);
	}
}

/* ---- autotools ---- */

/* configure writes the flags into its Makefiles as make text (CFLAGS =
 * @CFLAGS@), where make expands a $(...) in them and cuts them at a #.
 * config.status says what it substituted; make gets that text back on its
 * command line with the configuration's part read through $(value ...)
 * from the environment, so what configure added around the flags stays
 * make text and the flags stay as written.  A configure that rewrote the
 * flags (or one Autoconf did not make, without config.status) keeps its
 * own text, unless the flags hold $, # or \: then the build fails,
 * saying so, rather than build with other flags than the configuration's. */
static void autotools_make_flags(struct strbuf *sb)
{
	sb_add(sb,
	       "FLAGSCOPE_CXXFLAGS=${CXXFLAGS:-}\n"
	       "export FLAGSCOPE_LDFLAGS FLAGSCOPE_CXXFLAGS\n"
	       "if [ -f config.status ]; then\n"
	       "\tprintf '@CFLAGS@\\n@CXXFLAGS@\\n@LDFLAGS@\\n' >flagscope-flags.in\n"
	       "\t./config.status --file=flagscope-flags:flagscope-flags.in >/dev/null\n"
	       "\t{ IFS= read -r conf_CFLAGS; IFS= read -r conf_CXXFLAGS; IFS= read -r conf_LDFLAGS; } <flagscope-flags\n"
	       "else\n"
	       "\tconf_CFLAGS=\"(configure wrote no config.status)\" conf_CXXFLAGS=$conf_CFLAGS conf_LDFLAGS=$conf_CFLAGS\n"
	       "fi\n"
	       /* VAR: 0 and FLAGSCOPE_VAR_PRE/_POST set when make gets VAR on
		* its command line; 1 when configure's text stands */
	       "flagscope_mk() {\n"
	       "\teval \"mine=\\${$1:-} conf=\\$conf_$1 given=\\$FLAGSCOPE_$1\"\n"
	       "\t[ -n \"$mine\" ] || return 1\n"
	       "\tcase $conf in\n"
	       "\t\"@$1@\") pre= post= ;;\n"
	       "\t*\"$mine\"*) pre=${conf%%\"$mine\"*} post=${conf#*\"$mine\"} ;;\n"
	       "\t*)\n"
	       "\t\tcase $mine in *[\\$\\#\\\\]*)\n"
	       "\t\t\techo \"flagscope: configure's $1 is '$conf', not the configuration's '$mine':"
	       " flags holding \\$, # or \\\\ cannot reach its Makefiles as written (give them with system = make or a script)\" >&2\n"
	       "\t\t\texit 1 ;;\n"
	       "\t\tesac\n"
	       "\t\t[ \"$given\" != \"$mine\" ] || return 1\n"
	       "\t\tpre= post= ;;\n"
	       "\tesac\n"
	       "\texport \"FLAGSCOPE_$1_PRE=$pre\" \"FLAGSCOPE_$1_POST=$post\"\n"
	       "}\n"
	       "set --\n"
	       "for v in CFLAGS CXXFLAGS LDFLAGS; do\n"
	       "\tif flagscope_mk $v; then\n"
	       "\t\tset -- \"$@\" \"$v=\\$(FLAGSCOPE_${v}_PRE)\\$(value FLAGSCOPE_$v)\\$(FLAGSCOPE_${v}_POST)\"\n"
	       "\tfi\n"
	       "done\n");
}

static void autotools_script(const struct recipe *r, struct strbuf *sb)
{
	const struct recipe_system *s = &r->system;
	script_head(r, sb);
	/* a tree without configure (a git checkout) is made in a copy */
	sb_add(sb,
	       /* a configure Autoconf did not make (a stub saying "use cmake")
		* beside configure.ac is not the build's: autoreconf replaces it */
	       "stub=\n"
	       "if [ -x \"$srcdir/configure\" ] && ! grep -qiE 'Generated (by GNU Autoconf|automatically using autoconf)' \"$srcdir/configure\" &&\n"
	       "\t{ [ -f \"$srcdir/configure.ac\" ] || [ -f \"$srcdir/configure.in\" ]; }; then\n"
	       "\tstub=yes\n"
	       "fi\n"
	       "if [ ! -x \"$srcdir/configure\" ] || [ -n \"$stub\" ]; then\n"
	       "\tif ! command -v autoreconf >/dev/null; then\n"
	       "\t\techo \"flagscope: $srcdir has no configure Autoconf made and autoreconf is not installed"
	       " (apt-get install autoconf automake libtool)\" >&2\n"
	       "\t\texit 1\n"
	       "\tfi\n"
	       "\tmkdir flagscope-src\n"
	       "\tcp -R \"$srcdir/.\" flagscope-src\n"
	       "\trm -rf flagscope-src/.git\n"
	       "\t(cd flagscope-src && autoreconf -fi)\n"
	       "\tsrcdir=$PWD/flagscope-src\n"
	       "fi\n"
	       /* --disable-shared: libtool projects link their own libraries
		* into the programs (a project without libtool warns and goes on) */
	       "set -- CC=\"$CC\" CFLAGS=\"$CFLAGS\" LDFLAGS=\"$LDFLAGS\" --disable-shared\n"
	       "if [ -n \"$cxx_prog\" ]; then\n"
	       "\tset -- \"$@\" CXX=\"$CXX\" CXXFLAGS=\"$CXXFLAGS\"\n"
	       "fi\n"
	       /* --build too: with --host alone configure may run a target
		* program through binfmt and decide it is not cross-compiling */
	       "if [ -n \"$HOST\" ]; then\n"
	       "\tset -- \"$@\" --host=\"$HOST\" --build=\"$(cc -dumpmachine)\"\n"
	       "fi\n"
	       "if [ -n \"${FLAGSCOPE_CONFIG_CACHE:-}\" ]; then\n"
	       "\tset -- \"$@\" --cache-file=\"$FLAGSCOPE_CONFIG_CACHE\"\n"
	       "fi\n"
	       "\"$srcdir/configure\" \"$@\"");
	add_words(sb, s->options);
	/* libtool takes -static to mean "no shared libtool libraries" and drops
	 * it from the program's link; -all-static is what reaches the driver */
	sb_add(sb, "\n"
		   "if [ -n \"$static\" ] && [ -x libtool ]; then\n"
		   "\tlt=\n"
		   "\tfor f in $LDFLAGS; do\n"
		   "\t\t[ \"$f\" = -static ] && f=-all-static\n"
		   "\t\tlt=\"$lt $f\"\n"
		   "\tdone\n"
		   "\tFLAGSCOPE_LDFLAGS=$lt\n"
		   "fi\n");
	autotools_make_flags(sb);
	sb_add(sb, "make -j\"$JOBS\" \"$@\"");
	add_words(sb, s->args);
	add_words(sb, s->targets);
	sb_addc(sb, '\n');
}

/* ---- CMake ---- */

static void cmake_script(const struct recipe *r, struct strbuf *sb)
{
	const struct recipe_system *s = &r->system;
	script_head(r, sb);
	/* the compiler command may carry words of its own (CMake reads them
	 * from CC natively; a toolchain file takes the program alone) */
	sb_add(sb,
	       "cc_rest=\n"
	       "case $CC in *\" \"*) cc_rest=\"${CC#* } \" ;; esac\n"
	       "set -- -DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS=\"$cc_rest$CFLAGS\""
	       " -DCMAKE_EXE_LINKER_FLAGS=\"$LDFLAGS\" -DBUILD_SHARED_LIBS=OFF\n"
	       "if [ -n \"$cxx_prog\" ]; then\n"
	       "\tset -- \"$@\" -DCMAKE_CXX_FLAGS=\"$cc_rest$CXXFLAGS\"\n"
	       "fi\n"
	       "if [ -n \"$static\" ]; then\n"
	       "\tset -- \"$@\" -DCMAKE_FIND_LIBRARY_SUFFIXES=.a\n"
	       "fi\n"
	       "if [ -n \"$HOST\" ]; then\n"
	       /* find_library and find_path look in the target's libraries
		* only: flagscope's sysroot, or Debian's cross libc */
	       "\troot=${SYSROOT:-/usr/$HOST}\n"
	       "\tcat >flagscope-toolchain.cmake <<EOF\n"
	       "# written by flagscope: cross-compiling for $HOST\n"
	       "set(CMAKE_SYSTEM_NAME Linux)\n"
	       "set(CMAKE_SYSTEM_PROCESSOR ${HOST%%-*})\n"
	       "set(CMAKE_C_COMPILER \"$cc_prog\")\n"
	       "set(CMAKE_FIND_ROOT_PATH \"$root\")\n"
	       "set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)\n"
	       "set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)\n"
	       "set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)\n"
	       "set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)\n"
	       "EOF\n"
	       "\tif [ -n \"$cxx_prog\" ]; then\n"
	       "\t\techo \"set(CMAKE_CXX_COMPILER \\\"$cxx_prog\\\")\" >>flagscope-toolchain.cmake\n"
	       "\tfi\n"
	       /* the host's ar cannot index another machine's objects */
	       "\tif command -v \"$HOST-ar\" >/dev/null; then\n"
	       "\t\techo \"set(CMAKE_AR $(command -v \"$HOST-ar\"))\" >>flagscope-toolchain.cmake\n"
	       "\t\techo \"set(CMAKE_RANLIB $(command -v \"$HOST-ranlib\"))\" >>flagscope-toolchain.cmake\n"
	       "\tfi\n"
	       "\tset -- \"$@\" -DCMAKE_TOOLCHAIN_FILE=\"$PWD/flagscope-toolchain.cmake\"\n"
	       "fi\n"
	       "cmake -S \"$srcdir\" -B . -G \"Unix Makefiles\" \"$@\"");
	add_words(sb, s->options);
	sb_add(sb, "\ncmake --build . --parallel \"$JOBS\"");
	if (s->targets && *s->targets) {
		sb_add(sb, " --target");
		add_words(sb, s->targets);
	}
	if (s->args && *s->args) {
		sb_add(sb, " --");
		add_words(sb, s->args);
	}
	sb_addc(sb, '\n');
}

/* ---- meson ---- */

static void meson_script(const struct recipe *r, struct strbuf *sb)
{
	const struct recipe_system *s = &r->system;
	script_head(r, sb);
	/* b_staticpic=false: the project's static libraries are linked into
	 * programs, and -fPIC is code generation the configuration did not ask for */
	sb_add(sb,
	       "set -- --buildtype=plain --default-library=static -Db_staticpic=false\n"
	       "if [ -n \"$static\" ]; then\n"
	       "\tset -- \"$@\" -Dprefer_static=true\n"
	       "fi\n"
	       "if [ -n \"$HOST\" ]; then\n"
	       /* the cross file holds the target's compiler and flags; CC and
		* CFLAGS leave the environment so the build machine's own
		* programs (generators) are built by the native cc */
	       "\tmeson_list() {\n"
	       "\t\tout=\n"
	       "\t\tfor w in \"$@\"; do out=\"$out${out:+, }'$w'\"; done\n"
	       "\t\tprintf '[%s]' \"$out\"\n"
	       "\t}\n"
	       "\tarch=${HOST%%-*}\n"
	       "\tcase $arch in\n"
	       "\ti?86) family=x86 ;;\n"
	       "\tarm*) family=arm ;;\n"
	       "\tmips64*) family=mips64 ;;\n"
	       "\tmips*) family=mips ;;\n"
	       "\tpowerpc64*) family=ppc64 ;;\n"
	       "\tpowerpc*) family=ppc ;;\n"
	       "\t*) family=$arch ;;\n"
	       "\tesac\n"
	       "\tcase $arch in\n"
	       "\t*el | *le | x86_64 | i?86 | aarch64 | arm | armv* | riscv*) endian=little ;;\n"
	       "\t*) endian=big ;;\n"
	       "\tesac\n"
	       "\t{\n"
	       "\t\techo \"# written by flagscope: cross-compiling for $HOST\"\n"
	       "\t\techo '[binaries]'\n"
	       "\t\techo \"c = $(meson_list $CC)\"\n"
	       "\t\t[ -z \"$cxx_prog\" ] || echo \"cpp = $(meson_list $CXX)\"\n"
	       "\t\techo \"ar = '$HOST-ar'\"\n"
	       "\t\techo \"strip = '$HOST-strip'\"\n"
	       "\t\techo '[built-in options]'\n"
	       "\t\techo \"c_args = $(meson_list $CFLAGS)\"\n"
	       "\t\techo \"c_link_args = $(meson_list $LDFLAGS)\"\n"
	       "\t\tif [ -n \"$cxx_prog\" ]; then\n"
	       "\t\t\techo \"cpp_args = $(meson_list $CXXFLAGS)\"\n"
	       "\t\t\techo \"cpp_link_args = $(meson_list $LDFLAGS)\"\n"
	       "\t\tfi\n"
	       "\t\tif [ -n \"$SYSROOT\" ]; then\n"
	       "\t\t\techo '[properties]'\n"
	       "\t\t\techo \"sys_root = '$SYSROOT'\"\n"
	       "\t\tfi\n"
	       "\t\techo '[host_machine]'\n"
	       "\t\techo \"system = 'linux'\"\n"
	       "\t\techo \"cpu_family = '$family'\"\n"
	       "\t\techo \"cpu = '$arch'\"\n"
	       "\t\techo \"endian = '$endian'\"\n"
	       "\t} >flagscope-cross.ini\n"
	       "\tenv -u CC -u CFLAGS -u LDFLAGS -u CXX -u CXXFLAGS meson setup \"$@\" --cross-file flagscope-cross.ini");
	add_words(sb, s->options);
	sb_add(sb, " . \"$srcdir\"\n"
		   "else\n"
		   "\tmeson setup \"$@\"");
	add_words(sb, s->options);
	sb_add(sb, " . \"$srcdir\"\n"
		   "fi\n"
		   "ninja -j \"$JOBS\"");
	add_words(sb, s->args);
	add_words(sb, s->targets);
	sb_addc(sb, '\n');
}

/* ---- make ---- */

static void make_script(const struct recipe *r, struct strbuf *sb)
{
	const struct recipe_system *s = &r->system;
	script_head(r, sb);
	/* variables on make's command line win over the Makefile's own */
	sb_add(sb, "cp -R \"$SRC/.\" .\n"
		   "rm -rf .git\n"
		   "set -- CC=\"$CC\" 'CFLAGS=$(value FLAGSCOPE_CFLAGS)' 'LDFLAGS=$(value FLAGSCOPE_LDFLAGS)'\n"
		   "if [ -n \"$cxx_prog\" ]; then\n"
		   "\tset -- \"$@\" CXX=\"$CXX\" 'CXXFLAGS=$(value FLAGSCOPE_CFLAGS)'\n"
		   "fi\n"
		   "if [ -n \"$HOST\" ] && command -v \"$HOST-ar\" >/dev/null; then\n"
		   "\tset -- \"$@\" AR=\"$HOST-ar\" RANLIB=\"$HOST-ranlib\"\n"
		   "fi\n"
		   "make");
	if (s->subdir) {
		sb_add(sb, " -C ");
		sh_quote(sb, s->subdir);
	}
	sb_add(sb, " -j\"$JOBS\" \"$@\"");
	add_words(sb, s->options);
	add_words(sb, s->args);
	add_words(sb, s->targets);
	sb_addc(sb, '\n');
}

/* ---- debian ---- */

/* A Debian source package built the Debian way (debian/rules through
 * dpkg-buildpackage), its flags given as dpkg-buildflags takes them.
 * _APPEND, not _SET: Debian's own flags (hardening, -g, -O2) stay and the
 * configuration's come after them, so its -O is the last and wins; a
 * configuration drops a hardening flag by naming its -fno- form.  -B: only
 * the architecture's packages, whose files are ELF (Architecture: all
 * ones are documentation and scripts).  nostrip: the shipped files keep
 * the units' recorded switches for verify.  The tests run apart
 * afterwards (nocheck for the build), their log in the build folder's
 * tests.log and "STATUS SECONDS STEP" in its tests.result
 * (harness/debpkg.h reads them).
 * As root both run as the user nobody (debian_as_user). */
static void debian_script(const struct recipe *r, struct strbuf *sb);

/* Debian's buildds build and test as a user, with fakeroot for the binary
 * step; as root a test that expects a read-only file to stay unwritten
 * fails (sed's panic-tests and follow-symlinks pass as nobody, fail as
 * root).  So as root the tree is built and tested as nobody, in a copy
 * under /var/tmp (the build cache sits under root's home, which nobody
 * cannot enter), copied back over out/ when the script ends, however it
 * ends.  apt-get build-dep ran before, as root.  Where nobody cannot use
 * the compiler and flags root can (a compiler or --sysroot under root's
 * home), or setpriv or fakeroot is missing, the build runs as root and
 * its log says why.  $B is the build folder: its logs stay root's. */
static void debian_as_user(struct strbuf *sb)
{
	sb_add(sb,
	       "B=$(cd .. && pwd)\n"
	       "W=\n"
	       "as_user() { \"$@\"; }\n"
	       /* $1: run as; $2: a folder it may write */
	       "probe() {\n"
	       "\t\"$1\" sh -c 'set -f; cd \"$1\" && printf \"int main(void) { return 0; }\\n\" >p.c &&"
	       " $CC $CFLAGS $LDFLAGS p.c -o p' sh \"$2\" >/dev/null 2>&1\n"
	       "}\n"
	       "if [ \"$(id -u)\" = 0 ]; then\n"
	       "\tif ! command -v setpriv >/dev/null || ! command -v fakeroot >/dev/null ||"
	       " ! id -u nobody >/dev/null 2>&1; then\n"
	       "\t\techo 'flagscope: building as root: setpriv (util-linux), fakeroot or the user"
	       " nobody is missing' >&2\n"
	       "\telse\n"
	       "\t\tW=$(mktemp -d " DEBIAN_USER_TREE_PREFIX "XXXXXX)\n"
	       "\t\techo \"$W\" >\"$B/" DEBIAN_USER_TREE "\"\n"
	       "\t\tback() {\n"
	       "\t\t\trc=$?\n"
	       "\t\t\tset +e\n"
	       "\t\t\tcd \"$B/out\" && cp -R --preserve=mode,timestamps \"$W/out/.\" .\n"
	       "\t\t\trm -rf \"$W\" \"$B/" DEBIAN_USER_TREE "\"\n"
	       "\t\t\texit $rc\n"
	       "\t\t}\n"
	       "\t\ttrap back EXIT\n"
	       "\t\ttrap 'exit 143' HUP INT TERM\n"
	       "\t\tmkdir \"$W/out\" \"$W/home\" \"$W/probe\" \"$W/root-probe\"\n"
	       "\t\tchown -R nobody: \"$W\"\n"
	       "\t\tchown root: \"$W/root-probe\"\n"
	       "\t\tchmod 755 \"$W\"\n"
	       "\t\tas_user() {\n"
	       "\t\t\tsetpriv --reuid=nobody --regid=\"$(id -g nobody)\" --clear-groups"
	       " env HOME=\"$W/home\" USER=nobody LOGNAME=nobody \"$@\"\n"
	       "\t\t}\n"
	       "\t\tif ! probe as_user \"$W/probe\" && probe env \"$W/root-probe\"; then\n"
	       "\t\t\techo 'flagscope: building as root: the user nobody cannot compile with"
	       " this compiler and flags, root can (one of them under a folder only root can"
	       " enter)' >&2\n"
	       "\t\t\tas_user() { \"$@\"; }\n"
	       "\t\telse\n"
	       "\t\t\techo \"flagscope: building and testing as the user nobody in $W\"\n"
	       "\t\t\tcd \"$W/out\"\n"
	       "\t\tfi\n"
	       "\tfi\n"
	       "fi\n");
}

static void debian_script(const struct recipe *r, struct strbuf *sb)
{
	sb_addf(sb, "# written by flagscope for [build] system = %s (doc/recipe-format.md)\n",
		r->system.name);
	sb_add(sb, "set -x\n"
		   "if [ ! -f \"$SRC/debian/rules\" ]; then\n"
		   "\techo \"flagscope: $SRC has no debian/rules (system = debian builds a Debian source package:"
		   " source = debian:NAME patched)\" >&2\n"
		   "\texit 1\n"
		   "fi\n");
	script_cxx(sb);
	debian_as_user(sb);
	sb_add(sb,
	       /* -p: the tarball's times kept, so make does not remake
		* what the package ships generated (m4's gperf output, nettle's
		* rotors.h) with tools the build does not depend on */
	       "cp -pR \"$SRC/.\" .\n"
	       "if [ -n \"$W\" ] && [ \"$PWD\" = \"$W/out\" ]; then chown -R nobody: .; fi\n"
	       "DEB_CFLAGS_APPEND=$CFLAGS DEB_CXXFLAGS_APPEND=$CFLAGS DEB_LDFLAGS_APPEND=$LDFLAGS\n"
	       "export DEB_CFLAGS_APPEND DEB_CXXFLAGS_APPEND DEB_LDFLAGS_APPEND\n"
	       /* LTO as Debian turns it on (optimize=+lto, unless debian/rules
		* sets its own options), and its words in the link's flags
		* either way: the link step is where LTO compiles */
	       "lto=\n"
	       "set -f\n"
	       "for f in $CFLAGS; do\n"
	       "\tcase $f in -flto* | -ffat-lto-objects | -fno-fat-lto-objects) lto=\"$lto $f\" ;; esac\n"
	       "done\n"
	       "set +f\n"
	       "if [ -n \"$lto\" ]; then\n"
	       "\tcase \" $LDFLAGS \" in *\" -flto\"*) ;; *) DEB_LDFLAGS_APPEND=\"$DEB_LDFLAGS_APPEND$lto\" ;; esac\n"
	       "\tDEB_BUILD_MAINT_OPTIONS=\"${DEB_BUILD_MAINT_OPTIONS:+$DEB_BUILD_MAINT_OPTIONS }optimize=+lto\"\n"
	       "\texport DEB_BUILD_MAINT_OPTIONS\n"
	       "fi\n"
	       "export CC\n"
	       "unset CFLAGS CXXFLAGS LDFLAGS CPPFLAGS\n"
	       "DH_VERBOSE=1 DEB_BUILD_OPTIONS=\"nocheck nostrip parallel=$JOBS\"\n"
	       "export DH_VERBOSE DEB_BUILD_OPTIONS\n"
	       "as_user dpkg-buildpackage -B -uc -us\n"
	       /* the test step: the package's override of dh_auto_test when
		* it has one, else dh_auto_test, with nocheck lifted and the
		* flags dpkg-buildpackage exported */
	       "set +x\n"
	       "DEB_BUILD_OPTIONS=\"nostrip parallel=$JOBS\"\n"
	       "eval \"$(dpkg-buildflags --export=sh)\"\n"
	       /* and with dh's own options (--buildsystem=cmake
		* --builddirectory=build ...), which dh passes to each command
		* and says in the build's log (DH_VERBOSE: "   dh_X -a -O...");
		* without them dh_auto_test looks for another build folder and
		* tests nothing.  An override gets them as dh gives them,
		* through DH_INTERNAL_OPTIONS. */
	       "dhopts=$(sed -n 's/^   dh_[a-z_]* \\(-.*\\)$/\\1/p' \"$B/build.log\" | tail -n 1)\n"
	       "set -f\n"
	       "set -- dh_auto_test $dhopts\n"
	       "for t in override_dh_auto_test-arch override_dh_auto_test; do\n"
	       "\tif grep -Eq \"^([^#:]*[[:space:]])?$t([[:space:]][^:]*)?:\" debian/rules; then\n"
	       "\t\tset -- debian/rules \"$t\"\n"
	       "\t\tif [ -n \"$dhopts\" ]; then\n"
	       "\t\t\tDH_INTERNAL_OPTIONS=$(printf '%s\\036' $dhopts)\n"
	       "\t\t\texport DH_INTERNAL_OPTIONS\n"
	       "\t\tfi\n"
	       "\t\tbreak\n"
	       "\tfi\n"
	       "done\n"
	       "set +f\n"
	       /* a debian/rules that calls debhelper's commands itself
		* (gzip's) runs its tests inside its build target, under
		* nocheck not at all: dh_auto_test would guess a build of its
		* own and fail */
	       "if [ \"$1\" = dh_auto_test ] && ! grep -Eq '(^|[[:space:]])dh[[:space:]]|dh_auto_test' debian/rules; then\n"
	       "\techo 'flagscope: debian/rules runs neither dh nor dh_auto_test: no test step apart from the build' >\"$B/tests.log\"\n"
	       "\techo \"none 0 debian/rules\" >\"$B/tests.result\"\n"
	       "\texit 0\n"
	       "fi\n"
	       "echo \"flagscope: the test step: $*\"\n"
	       "t0=$(date +%s.%N)\n"
	       "if as_user \"$@\" >\"$B/tests.log\" 2>&1 </dev/null; then rc=0; else rc=$?; fi\n"
	       "t1=$(date +%s.%N)\n"
	       "echo \"$rc $(awk \"BEGIN { print $t1 - $t0 }\") $*\" >\"$B/tests.result\"\n");
}

static const char *const autotools_marks[] = {"configure", "configure.ac", "configure.in", NULL};
static const char *const cmake_marks[] = {"CMakeLists.txt", NULL};
static const char *const meson_marks[] = {"meson.build", NULL};
static const char *const make_marks[] = {"GNUmakefile", "makefile", "Makefile", NULL};
static const char *const debian_marks[] = {"debian/rules", NULL};

/* 1 when the text has word, any case */
static int mentions(const char *text, const char *word)
{
	return strcasestr(text, word) != NULL;
}

/* A stub configure that names the system the project moved to: the guess
 * takes that system when the tree has its file (buildsys_guess) */
static const struct {
	const char *system, *why;
} named_systems[] = {
	{"cmake", "it names cmake and Autoconf did not make it"},
	{"meson", "it names meson and Autoconf did not make it"},
};

/* Projects that moved to CMake or meson keep a configure that prints "use
 * cmake", or wraps cmake: the autotools script ran it and every build
 * failed.  One Autoconf made is autotools'; a hand-written one is taken
 * when it speaks Autoconf's --prefix/--host and names no other system. */
static const char *autotools_doubt(const char *mark, const char *path)
{
	if (strcmp(mark, "configure"))
		return NULL; /* configure.ac, configure.in */
	size_t len = 0;
	char *text = file_read(path, &len);
	if (!text)
		return NULL; /* a build says what is wrong with it */
	const char *why = NULL;
	if (mentions(text, "Generated by GNU Autoconf") ||
	    mentions(text, "Generated automatically using autoconf"))
		why = NULL;
	else if (mentions(text, "cmake"))
		why = named_systems[0].why;
	else if (mentions(text, "meson"))
		why = named_systems[1].why;
	else if (!strstr(text, "--prefix") && !strstr(text, "--host"))
		why = "it takes no --prefix or --host and Autoconf did not make it";
	free(text);
	return why;
}

static const struct buildsys_ops buildsys_autotools = {
	.name = "autotools", .marks = autotools_marks, .script = autotools_script,
	.doubt = autotools_doubt,
};
static const struct buildsys_ops buildsys_cmake = {
	.name = "cmake", .marks = cmake_marks, .script = cmake_script,
};
static const struct buildsys_ops buildsys_meson = {
	.name = "meson", .marks = meson_marks, .script = meson_script,
};
static const struct buildsys_ops buildsys_make = {
	.name = "make", .marks = make_marks, .script = make_script,
};

/* a package's rules file marks it last: a tree the others build is theirs */
static const struct buildsys_ops buildsys_debian = {
	.name = "debian", .marks = debian_marks, .script = debian_script, .package = 1,
};

const struct buildsys_ops *const build_systems[] = {
	&buildsys_autotools, &buildsys_cmake, &buildsys_meson, &buildsys_make, &buildsys_debian, NULL,
};

int build_systems_check(struct strbuf *err)
{
	const char *names[16];
	size_t n = 0;
	int bad = 0;
	for (; build_systems[n] && n < ARRAY_SIZE(names); n++) {
		names[n] = build_systems[n]->name;
		bad |= registry_require(build_systems[n]->marks && build_systems[n]->script,
					"build systems", names[n], "lacks marks or script", err);
	}
	return registry_check("build systems", names, n, err) || bad ? -1 : 0;
}

const struct buildsys_ops *buildsys_lookup(const char *name)
{
	for (size_t i = 0; build_systems[i]; i++)
		if (!strcmp(build_systems[i]->name, name))
			return build_systems[i];
	return NULL;
}

const char *buildsys_names(void)
{
	static char names[128];
	if (!names[0])
		for (size_t i = 0; build_systems[i]; i++) {
			if (i)
				strcat(names, ", ");
			strcat(names, build_systems[i]->name);
		}
	return names;
}

/* The system a doubted mark names, when the tree has that system's file:
 * a stub configure saying "use cmake" beside CMakeLists.txt means cmake,
 * even where configure.ac (an older autotools build) is still there. */
static const struct buildsys_ops *named_by_doubt(const char *tree, const char *doubt,
						 const char **mark)
{
	for (size_t k = 0; k < ARRAY_SIZE(named_systems); k++) {
		const struct buildsys_ops *ops = buildsys_lookup(named_systems[k].system);
		if (doubt != named_systems[k].why || !ops)
			continue;
		for (size_t m = 0; ops->marks[m]; m++) {
			char *p = xasprintf("%s/%s", tree, ops->marks[m]);
			int found = file_exists(p);
			free(p);
			if (found) {
				*mark = ops->marks[m];
				return ops;
			}
		}
	}
	return NULL;
}

const struct buildsys_ops *buildsys_guess(const char *tree, const char **mark,
					  struct strbuf *notes)
{
	const char *named_mark = NULL;
	for (size_t i = 0; build_systems[i]; i++)
		for (size_t m = 0; build_systems[i]->marks[m]; m++) {
			const struct buildsys_ops *ops = build_systems[i];
			char *p = xasprintf("%s/%s", tree, ops->marks[m]);
			int found = file_exists(p);
			const char *doubt = found && ops->doubt ? ops->doubt(ops->marks[m], p) : NULL;
			free(p);
			if (doubt && notes)
				sb_addf(notes, "%sthe tree's %s is not for %s (%s)", notes->len ? "; " : "",
					ops->marks[m], ops->name, doubt);
			const struct buildsys_ops *named = doubt ? named_by_doubt(tree, doubt, &named_mark) : NULL;
			if (named) {
				if (mark)
					*mark = named_mark;
				return named;
			}
			if (found && !doubt) {
				if (mark)
					*mark = ops->marks[m];
				return ops;
			}
		}
	return NULL;
}

char *recipe_build_script(const struct recipe *r)
{
	const struct buildsys_ops *ops = r->system.name ? buildsys_lookup(r->system.name) : NULL;
	if (!ops)
		return xstrdup(r->build_script ? r->build_script : "");
	struct strbuf sb = {0};
	ops->script(r, &sb);
	return sb_detach(&sb);
}

void recipe_system_release(struct recipe_system *s)
{
	free(s->name);
	free(s->options);
	free(s->args);
	free(s->targets);
	free(s->subdir);
	memset(s, 0, sizeof(*s));
}

int recipe_is_package(const struct recipe *r)
{
	const struct buildsys_ops *ops = r->system.name ? buildsys_lookup(r->system.name) : NULL;
	return ops && ops->package;
}

void recipe_package(struct recipe *r, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->description = xasprintf("Debian source package %s, built by its debian/rules", name);
	/* patched: the tree dpkg-source makes, debian/ and its patches applied */
	r->source = xasprintf("debian:%s patched", name);
	r->system.name = xstrdup("debian");
	r->build_timeout = RECIPE_BUILD_TIMEOUT;
	r->input_timeout = RECIPE_INPUT_TIMEOUT;
	char *id = xasprintf("debian-package\n%s\n", name);
	sha256_hex(id, strlen(id), r->hash);
	free(id);
}
