#!/usr/bin/env bash
# install_check.sh SRC_DIR BIN_DIR CC CXX - consumers of the INSTALLED
# package, in both configurations, plus a project that adds tyjson as a
# subdirectory. Registered as a ctest (not under sanitizers: the consumers
# are not instrumented).
#
#  1. BIN_DIR installed as it is (shared + static), and a static-only build
#     of SRC_DIR (-DTYJSON_BUILD_SHARED=OFF) installed beside it. For each:
#     CMake find_package consumers (C with tyjson::tyjson and
#     tyjson::tyjson_static, C++ with tyjson::tyjson), pkg-config consumers
#     (C and C++ with `tyjson`, C with `--static tyjson` and with
#     `tyjson-static`), each run, and each checked for how it links
#     libtyjson (dynamic or not, from readelf).
#  2. tests/consumer/: a C-only parent project (no C++ compiler at all) that
#     adds tyjson with add_subdirectory and builds a warning-laden file: no
#     tests, CLI or install rules of tyjson, no -Werror or sanitizer flags in
#     the parent's compile commands, no forced build type.
set -euo pipefail
src_dir=$1
bin_dir=$2
cc=$3
cxx=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0

pass() {
  echo "ok: $*"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
quiet() { # runs a command, showing its output only when it fails
  local log=$work/last.log
  "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "$*"; }
}
# links_shared EXE: true when EXE needs libtyjson.so at run time
links_shared() { readelf -d "$1" | grep -q 'NEEDED.*libtyjson\.so'; }
expect_link() { # expect_link EXE shared|static WHAT
  if [ "$2" = shared ]; then
    links_shared "$1" || fail "$3: expected a dynamic link to libtyjson.so"
  else
    if links_shared "$1"; then fail "$3: expected tyjson linked statically"; fi
  fi
}
run_ok() { # run_ok EXE WHAT: prints "ok" and exits 0
  local out
  out=$("$1") || fail "$2: exit status $?"
  [ "$out" = ok ] || fail "$2: printed '$out'"
}

cp "$src_dir/tests/consumer/main.c" "$src_dir/tests/consumer/main.cpp" "$work/"

# --- 1. installed packages ---------------------------------------------------
check_package() { # check_package PREFIX shared|static
  local prefix=$1 kind=$2 app=$work/app-$2 libdir pcdir flags
  libdir=$(dirname "$(find "$prefix" -name 'libtyjson.a' | head -n 1)")
  pcdir=$libdir/pkgconfig
  [ -f "$pcdir/tyjson.pc" ] && [ -f "$pcdir/tyjson-static.pc" ] || fail "$kind: .pc files not installed"

  mkdir -p "$app"
  cp "$work/main.c" "$work/main.cpp" "$app/"
  cat > "$app/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(consumer C CXX)
find_package(tyjson 0.1 REQUIRED)
add_executable(app_default main.c)
target_link_libraries(app_default PRIVATE tyjson::tyjson)
add_executable(app_static main.c)
target_link_libraries(app_static PRIVATE tyjson::tyjson_static)
add_executable(app_cxx main.cpp)
target_link_libraries(app_cxx PRIVATE tyjson::tyjson)
# dllimport for the DLL's users only (TYJSON_SHARED, see common.h)
get_target_property(static_defs tyjson::tyjson_static INTERFACE_COMPILE_DEFINITIONS)
if("TYJSON_SHARED" IN_LIST static_defs)
  message(FATAL_ERROR "tyjson::tyjson_static defines TYJSON_SHARED")
endif()
if(KIND STREQUAL "shared")
  get_target_property(defs tyjson::tyjson INTERFACE_COMPILE_DEFINITIONS)
  if(NOT "TYJSON_SHARED" IN_LIST defs)
    message(FATAL_ERROR "tyjson::tyjson (shared) does not define TYJSON_SHARED")
  endif()
endif()
CM
  quiet cmake -S "$app" -B "$app/build" -DCMAKE_PREFIX_PATH="$prefix" -DKIND="$kind" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx"
  quiet cmake --build "$app/build"
  # CMake puts the library's directory in the build RPATH: no LD_LIBRARY_PATH
  run_ok "$app/build/app_default" "$kind: find_package tyjson::tyjson"
  expect_link "$app/build/app_default" "$kind" "$kind: tyjson::tyjson"
  run_ok "$app/build/app_static" "$kind: find_package tyjson::tyjson_static"
  expect_link "$app/build/app_static" static "$kind: tyjson::tyjson_static"
  run_ok "$app/build/app_cxx" "$kind: find_package from C++"
  pass "$kind install: find_package, C and C++, tyjson::tyjson and tyjson::tyjson_static"

  export PKG_CONFIG_PATH=$pcdir
  # plain: the rpath from the .pc's libdir, as the README shows
  flags=$(pkg-config --cflags --libs tyjson)
  case " $flags " in
    *" -DTYJSON_SHARED "*) [ "$kind" = shared ] || fail "static-only tyjson.pc asks for the DLL: $flags" ;;
    *) [ "$kind" = static ] || fail "shared tyjson.pc lacks -DTYJSON_SHARED: $flags" ;;
  esac
  # shellcheck disable=SC2086
  quiet "$cc" -std=c11 "$app/main.c" -o "$app/pc_c" $flags -Wl,-rpath,"$(pkg-config --variable=libdir tyjson)"
  run_ok "$app/pc_c" "$kind: pkg-config tyjson (C)"
  expect_link "$app/pc_c" "$kind" "$kind: pkg-config tyjson"
  # shellcheck disable=SC2086
  quiet "$cxx" "$app/main.cpp" -o "$app/pc_cxx" $flags
  LD_LIBRARY_PATH="$libdir" run_ok "$app/pc_cxx" "$kind: pkg-config tyjson (C++, LD_LIBRARY_PATH)"
  # --static adds Libs.private (-lm); with a shared library installed,
  # -ltyjson still finds it first: only tyjson-static is static there.
  flags=$(pkg-config --static --cflags --libs tyjson)
  case " $flags " in *" -lm "*) ;; *) fail "$kind: pkg-config --static gives no -lm: $flags" ;; esac
  # shellcheck disable=SC2086
  quiet "$cc" -std=c11 "$app/main.c" -o "$app/pc_static" $flags
  LD_LIBRARY_PATH="$libdir" run_ok "$app/pc_static" "$kind: pkg-config --static tyjson"
  expect_link "$app/pc_static" "$kind" "$kind: pkg-config --static tyjson"
  flags=$(pkg-config --static --cflags --libs tyjson-static)
  case " $flags " in *" -DTYJSON_SHARED "*) fail "$kind: tyjson-static asks for the DLL: $flags" ;; esac
  # shellcheck disable=SC2086
  quiet "$cc" -std=c11 "$app/main.c" -o "$app/pc_archive" $flags
  run_ok "$app/pc_archive" "$kind: pkg-config tyjson-static"
  expect_link "$app/pc_archive" static "$kind: pkg-config tyjson-static"
  unset PKG_CONFIG_PATH
  pass "$kind install: pkg-config tyjson (C, C++), --static tyjson, tyjson-static"
}

quiet cmake --install "$bin_dir" --prefix "$work/prefix-shared"
[ -x "$work/prefix-shared/bin/tyjson" ] || fail "CLI not installed"
check_package "$work/prefix-shared" shared

quiet cmake -S "$src_dir" -B "$work/build-static" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" \
  -DTYJSON_BUILD_SHARED=OFF -DTYJSON_BUILD_TESTS=OFF -DTYJSON_BUILD_TOOLS=OFF -DTYJSON_BUILD_EXAMPLES=OFF
quiet cmake --build "$work/build-static" -j2
quiet cmake --install "$work/build-static" --prefix "$work/prefix-static"
if find "$work/prefix-static" -name 'libtyjson.so*' | grep -q .; then fail "static-only install has a .so"; fi
check_package "$work/prefix-static" static

# --- 2. add_subdirectory -----------------------------------------------------
parent=$work/parent
mkdir -p "$parent"
cp "$src_dir/tests/consumer/CMakeLists.txt" "$src_dir/tests/consumer/main.c" \
  "$src_dir/tests/consumer/sloppy.c" "$parent/"
# A C++ compiler that does not exist: configuring fails if anything asks for C++.
quiet cmake -S "$parent" -B "$parent/build" -DTYJSON_SOURCE="$src_dir" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_CXX_COMPILER=/nonexistent/c++ -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
quiet cmake --build "$parent/build" -j2
run_ok "$parent/build/parent_app" "add_subdirectory: tyjson::tyjson"
[ -z "$(find "$parent/build" -type f -name tyjson)" ] || fail "add_subdirectory built the CLI"
[ ! -e "$parent/build/tyjson/tests" ] || fail "add_subdirectory configured the tests"
[ ! -e "$parent/build/tyjson/CTestTestfile.cmake" ] || fail "add_subdirectory registered tests"
if grep -E -- '-Werror|-fsanitize|-march' "$parent/build/compile_commands.json"; then
  fail "tyjson's -Werror, sanitizer or -march flags reached a compile command"
fi
quiet cmake --install "$parent/build" --prefix "$parent/installed"
[ -z "$(find "$parent/installed" -type f 2>/dev/null)" ] || fail "add_subdirectory installed tyjson's files"
# the options turn the parts back on (configure only: the CLI target exists)
quiet cmake -S "$parent" -B "$parent/build-tools" -DTYJSON_SOURCE="$src_dir" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_CXX_COMPILER=/nonexistent/c++ -DTYJSON_BUILD_TOOLS=ON -DEXPECT_TOOLS=ON
pass "add_subdirectory: C only, library only, no flags leaked, no install rules, no forced build type; TYJSON_BUILD_TOOLS=ON brings the CLI"

echo "$passed passed, 0 failed"
