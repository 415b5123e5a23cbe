# build.sh - clamscan from the ClamAV upstream tree in $SRC (Debian's
# +dfsg orig tarball: upstream without the unrar sources), built out of tree
# with CMake (the cached source is shared and never written).  Environment
# as in doc/recipe-format.md: CC CFLAGS LDFLAGS SRC RECIPE JOBS HOST.
#
# Only the clamscan target is built, against a static libclamav (its C
# units and its Rust part, libclamav_rust.a), so every unit of libclamav is
# inside the binary that verify reads.  The libraries ClamAV takes from the
# system (OpenSSL, zlib, bzip2, libxml2, PCRE2, json-c, libmspack: Debian's
# +dfsg tarball drops ClamAV's bundled copy of libmspack) are Debian's and
# linked dynamically.  Milter, clamonacc, unrar, tests, docs and man pages
# are off.  With unrar off, ClamAV 1.4.3's static libclamav target does not
# pass on the unrar interface's include folder that its headers need
# (unrar_iface.h; the shared target does): CMAKE_C_STANDARD_INCLUDE_DIRECTORIES
# adds it to every C compile without touching the flags.
#
# Flags: the C units get exactly $CFLAGS.  CMAKE_BUILD_TYPE=Release with
# CMAKE_C_FLAGS_RELEASE emptied, so CMake adds no -O of its own (ClamAV's
# default RelWithDebInfo would add "-O2 -g" after $CFLAGS), while cargo
# still builds the Rust part with its release profile: the Rust code is the
# same optimised code in every configuration (rustc does not take $CFLAGS;
# its units are not C units and verify does not count them).  With the
# type None, ClamAV's FindRust.cmake would build the Rust part unoptimised
# with debug assertions.
#
# Rust: Debian's rustc-web/cargo-web (/usr/bin/cargo, /usr/bin/rustc),
# named explicitly so a rustup toolchain earlier in PATH is not used.  The
# crates are vendored in the source (.cargo/vendor), so cargo runs with
# --offline; CARGO_HOME is a folder of this build (no user registry).
set -e

cargo=/usr/bin/cargo
rustc=/usr/bin/rustc
for t in "$cargo" "$rustc"; do
	if [ ! -x "$t" ]; then
		echo "clamav: $t is missing (apt-get install rustc-web cargo-web)" >&2
		exit 1
	fi
done
export RUSTC="$rustc"
export CARGO_HOME="$PWD/cargo-home"
mkdir -p "$CARGO_HOME"

cmake -S "$SRC" -B . -G "Unix Makefiles" \
	-DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_C_FLAGS="$CFLAGS" \
	-DCMAKE_C_FLAGS_RELEASE= \
	-DCMAKE_CXX_FLAGS_RELEASE= \
	-DCMAKE_EXE_LINKER_FLAGS="$LDFLAGS" \
	-DCMAKE_C_STANDARD_INCLUDE_DIRECTORIES="$SRC/libclamunrar_iface" \
	-DCARGO_HOME="$CARGO_HOME" \
	-Dcargo_EXECUTABLE="$cargo" \
	-Drustc_EXECUTABLE="$rustc" \
	-DENABLE_APP=ON \
	-DENABLE_MILTER=OFF \
	-DENABLE_CLAMONACC=OFF \
	-DENABLE_UNRAR=OFF \
	-DENABLE_TESTS=OFF \
	-DENABLE_DOXYGEN=OFF \
	-DENABLE_MAN_PAGES=OFF \
	-DENABLE_EXAMPLES=OFF \
	-DENABLE_SYSTEMD=OFF \
	-DENABLE_JSON_SHARED=ON \
	-DENABLE_EXTERNAL_MSPACK=ON \
	-DENABLE_STATIC_LIB=ON \
	-DENABLE_SHARED_LIB=OFF \
	-DDATABASE_DIRECTORY="$PWD/no-database" \
	-DAPP_CONFIG_DIRECTORY="$PWD/no-config"

make -j"$JOBS" clamscan
cp "$RECIPE/scan.sh" scan.sh
chmod +x scan.sh
