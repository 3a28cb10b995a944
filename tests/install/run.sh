#!/usr/bin/env bash
# The installed library, as a C program outside the tree sees it (ctest
# label "install", registered by tests/install.cmake).
#
#   run.sh consume BUILD_DIR CC "CFLAGS"
#     `cmake --install BUILD_DIR --prefix TMP`, then: the layout, the
#     SONAME and file name against LS_VERSION_* of the installed header,
#     only ls_* symbols exported (nm -D), the CLI runs; hello.c built with
#     pkg-config (shared; and --static into a static executable) and with
#     find_package(lockstep) in consumer/ (lockstep::lockstep and
#     lockstep::lockstep_static; a version the package does not offer is
#     refused); each program run and its output checked, the shared ones
#     shown (LD_DEBUG) to load TMP's liblockstep, not the build tree's.
#     The README's C example must be hello.c.
#   run.sh deb BUILD_DIR
#     cpack into TMP, then the .deb's name, control fields and contents
#     (dpkg-deb -c, -f); it is never installed.
#
# CFLAGS are the build's own (the sanitizer build passes -fsanitize=...,
# which the consumers need to link against its library).
set -euo pipefail
mode=$1
build=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
want() { # want WHAT TEXT PATTERN...: every fixed-string PATTERN in TEXT
  local what=$1 text=$2; shift 2
  for p in "$@"; do grep -qF -- "$p" <<<"$text" || fail "$what: no '$p' in:"$'\n'"$text"; done
}

version_of() { # the version LS_VERSION_* in header $1 says
  local v=() part
  for part in MAJOR MINOR PATCH; do
    v+=("$(sed -n "s/^#define LS_VERSION_$part \([0-9][0-9]*\) *$/\1/p" "$1")")
  done
  [ -n "${v[0]}" ] && [ -n "${v[1]}" ] && [ -n "${v[2]}" ] || fail "$1: no LS_VERSION_* lines"
  echo "${v[0]}.${v[1]}.${v[2]}"
}

expect_hello() { # expect_hello NAME OUTPUT: hello.c's line for version $ver
  [ "$2" = "lockstep $ver: out[255] = 65025, as expected" ] ||
    fail "$1 printed: $2"
  echo "ok: $1 ran: $2"
}

loads_installed() { # loads_installed NAME LD_DEBUG_LOG: which liblockstep it ran with
  local got
  got=$(sed -n 's/.*calling init: \(.*liblockstep[^ ]*\).*/\1/p' <<<"$2" | head -1)
  [ "$got" = "$libdir/liblockstep.so.$major" ] ||
    fail "$1 loaded '${got:-no liblockstep}', not $libdir/liblockstep.so.$major"
  echo "ok: $1 loaded $got"
}

consume() {
  local cc=$1 cflags=$2 prefix=$tmp/prefix
  cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" ||
    { cat "$tmp/install.log"; fail "cmake --install"; }
  ver=$(version_of "$prefix/include/lockstep.h")
  major=${ver%%.*}
  # the SONAME's version: MAJOR.MINOR before 1.0 (CMakeLists.txt)
  [ "$major" = 0 ] && major=${ver%.*}
  [ "$ver" = "$(version_of "$src/include/lockstep.h")" ] || fail "installed header is not the tree's"
  local pc
  pc=$(find "$prefix" -name lockstep.pc -path '*/pkgconfig/*')
  [ -n "$pc" ] || fail "no pkgconfig/lockstep.pc under the prefix"
  libdir=$(dirname "$(dirname "$pc")")

  # The layout and the version in the file names and the SONAME.
  for f in "$prefix/bin/lockstep" "$prefix/include/lockstep.h" "$libdir/liblockstep.a" \
           "$libdir/liblockstep.so.$ver" "$libdir/cmake/lockstep/lockstepConfig.cmake" \
           "$libdir/cmake/lockstep/lockstepConfigVersion.cmake" \
           "$libdir/cmake/lockstep/lockstepTargets.cmake"; do
    [ -f "$f" ] || fail "not installed: $f"
  done
  [ "$(readlink "$libdir/liblockstep.so.$major")" = "liblockstep.so.$ver" ] || fail "liblockstep.so.$major"
  [ "$(readlink "$libdir/liblockstep.so")" = "liblockstep.so.$major" ] || fail "liblockstep.so"
  local soname
  soname=$(readelf -d "$libdir/liblockstep.so.$ver" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [ "$soname" = "liblockstep.so.$major" ] || fail "SONAME is '$soname', not liblockstep.so.$major"
  echo "ok: installed $ver, SONAME $soname, under $prefix"

  # Symbol visibility: the shared library exports the public API only.
  local syms others
  syms=$(nm -D --defined-only "$libdir/liblockstep.so.$ver" | awk '{print $3}')
  others=$(grep -v '^ls_' <<<"$syms" || true)
  [ -z "$others" ] || fail "exported symbols outside ls_*:"$'\n'"$others"
  grep -qx ls_adapter_create <<<"$syms" || fail "ls_adapter_create is not exported"
  echo "ok: $(wc -l <<<"$syms") exported symbols, all ls_*"

  "$prefix/bin/lockstep" check "$src/tests/kernels/000_guard.wgsl" >/dev/null 2>&1 ||
    fail "the installed CLI does not run"
  echo "ok: the installed lockstep command runs"

  # pkg-config: the flags point into the prefix only.
  export PKG_CONFIG_PATH="$libdir/pkgconfig"
  local flags static_libs
  [ "$(pkg-config --modversion lockstep)" = "$ver" ] || fail "pkg-config --modversion"
  flags=$(pkg-config --cflags --libs lockstep)
  static_libs=$(pkg-config --static --libs lockstep)
  want "pkg-config --cflags --libs" "$flags" "-I$prefix/include" "-L$libdir" "-llockstep"
  want "pkg-config --static --libs" "$static_libs" "-llockstep" "-lpthread" "-lm"
  case "$flags $static_libs" in *"$build"* | *"$src"*) fail "pkg-config names the tree: $flags";; esac
  echo "ok: pkg-config: $flags; --static: $static_libs"

  # shellcheck disable=SC2086  # flags are word lists
  "$cc" $cflags -std=c11 "$here/hello.c" $flags -o "$tmp/hello_pc" || fail "build with pkg-config"
  readelf -d "$tmp/hello_pc" | grep -q "NEEDED.*\[liblockstep.so.$major\]" || fail "hello_pc does not link liblockstep.so.$major"
  local log
  log=$(LD_DEBUG=libs LD_LIBRARY_PATH="$libdir" "$tmp/hello_pc" 2>&1 >"$tmp/out") || { cat "$tmp/out"; fail "hello_pc exited non-zero"; }
  expect_hello "pkg-config (shared)" "$(cat "$tmp/out")"
  loads_installed "pkg-config (shared)" "$log"

  # --static: a fully static executable proves Libs.private is enough (the
  # library calls libm; without -lm the link fails). The sanitizers'
  # runtimes cannot be linked statically, so their build skips it.
  if [[ "$cflags" == *-fsanitize* ]]; then
    echo "skipped: pkg-config --static (-fsanitize cannot link -static)"
  else
    # shellcheck disable=SC2086
    "$cc" $cflags -std=c11 -static "$here/hello.c" $(pkg-config --static --cflags --libs lockstep) \
      -o "$tmp/hello_pc_static" || fail "build with pkg-config --static"
    readelf -d "$tmp/hello_pc_static" | grep -q NEEDED && fail "hello_pc_static is not static"
    expect_hello "pkg-config --static" "$("$tmp/hello_pc_static")"
  fi

  # find_package(lockstep) in a project of its own; no package registry,
  # so the only lockstep it can find is the one under the prefix.
  local cm=(-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$cflags"
            -DCMAKE_BUILD_TYPE=Release -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
            -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
  cmake -S "$here/consumer" -B "$tmp/consumer" "${cm[@]}" -DLS_WANT_VERSION="${ver%.*}" \
    >"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; fail "find_package(lockstep ${ver%.*})"; }
  want "find_package" "$(grep '^lockstep_DIR' "$tmp/consumer/CMakeCache.txt")" \
    "lockstep_DIR:PATH=$libdir/cmake/lockstep"
  cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "consumer build"; }
  log=$(LD_DEBUG=libs "$tmp/consumer/hello_shared" 2>&1 >"$tmp/out") || { cat "$tmp/out"; fail "hello_shared exited non-zero"; }
  expect_hello "find_package lockstep::lockstep" "$(cat "$tmp/out")"
  loads_installed "find_package lockstep::lockstep" "$log"
  readelf -d "$tmp/consumer/hello_static" | grep -q 'NEEDED.*liblockstep' && fail "hello_static needs liblockstep.so"
  expect_hello "find_package lockstep::lockstep_static" "$("$tmp/consumer/hello_static")"

  # The version file: the next major version is not this package.
  local next=$((${ver%%.*} + 1))
  if cmake -S "$here/consumer" -B "$tmp/consumer_next" "${cm[@]}" \
       -DLS_WANT_VERSION="$next" >"$tmp/cmake_next.log" 2>&1; then
    fail "find_package(lockstep $next) accepted version $ver"
  fi
  want "find_package(lockstep $next)" "$(cat "$tmp/cmake_next.log")" "version: $ver"
  echo "ok: find_package(lockstep $next) refused $ver"

  # The README's example is this program (from its first #include on).
  diff <(sed -n '/^#include/,$p' "$here/hello.c") \
       <(sed -n '/^## Using lockstep from C/,/^## /p' "$src/README.md" |
         sed -n '/^```c$/,/^```$/p' | sed '1d;$d') >"$tmp/readme.diff" ||
    { cat "$tmp/readme.diff"; fail "README's C example differs from tests/install/hello.c"; }
  echo "ok: README's example is tests/install/hello.c"
}

deb() {
  ver=$(version_of "$src/include/lockstep.h")
  cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp" >"$tmp/cpack.log" 2>&1 ||
    { cat "$tmp/cpack.log"; fail "cpack"; }
  local arch pkg
  arch=$(dpkg --print-architecture)
  pkg="$tmp/lockstep_${ver}_${arch}.deb"
  [ -f "$pkg" ] || fail "no $pkg: $(ls "$tmp")"
  [ "$(dpkg-deb -f "$pkg" Package)" = lockstep ] || fail "Package"
  [ "$(dpkg-deb -f "$pkg" Version)" = "$ver" ] || fail "Version"
  # dpkg-shlibdeps' list: libc for both; jansson and nettle for the CLI.
  local deps
  deps=$(dpkg-deb -f "$pkg" Depends)
  want "Depends" "$deps" "libc6" "libjansson4" "libnettle8"
  echo "ok: $(basename "$pkg"), Depends: $deps"

  # The same layout as `cmake --install`, under /usr. The library folder is
  # GNUInstallDirs' LIBDIR as the build was configured.
  local libdir list
  libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")
  [[ "$libdir" == /* ]] || libdir=/usr/$libdir
  list=$(dpkg-deb -c "$pkg" | awk '{print $6}')
  want "dpkg-deb -c" "$list" ./usr/bin/lockstep ./usr/include/lockstep.h \
    ".$libdir/liblockstep.a" ".$libdir/liblockstep.so.$ver" ".$libdir/liblockstep.so.${ver%%.*}" \
    ".$libdir/liblockstep.so" ".$libdir/pkgconfig/lockstep.pc" \
    ".$libdir/cmake/lockstep/lockstepConfig.cmake" \
    ".$libdir/cmake/lockstep/lockstepConfigVersion.cmake" \
    ".$libdir/cmake/lockstep/lockstepTargets.cmake"
  # Its pkg-config file points at /usr, where the package puts the files.
  dpkg-deb --fsys-tarfile "$pkg" | tar -xO ".$libdir/pkgconfig/lockstep.pc" | grep -qx 'prefix=/usr' ||
    fail "the package's lockstep.pc has no prefix=/usr"
  echo "ok: dpkg-deb -c lists the library, header, pkg-config file, CMake package and CLI"
}

case "$mode" in
  consume) consume "$3" "${4:-}" ;;
  deb) deb ;;
  *) fail "usage: run.sh consume BUILD_DIR CC CFLAGS | deb BUILD_DIR" ;;
esac
