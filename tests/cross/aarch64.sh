#!/usr/bin/env bash
# tests/cross/aarch64.sh - cross-builds tyjson and its tests for AArch64
# (Release, warnings as errors) and runs them under qemu-user, so the NEON
# kernels are tested on an x86-64 machine. Used by .ci/run.
#
#   bash tests/cross/aarch64.sh [BUILD_DIR]     (default: build-aarch64)
#
# Needs Debian's gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu and qemu-user
# (the script says which are missing). JOBS sets the build's parallelism
# (default 2); TYJSON_REQUIRE_SHARED=1 makes missing ../shared data a failure,
# as in the native suite.
#
# Four runs:
#  1. the whole suite at the CPU's best level, NEON (ctest runs each test
#     program through qemu-aarch64, cmake/aarch64-linux-gnu.cmake), after
#     checking that test_index does see the NEON kernel;
#  2. the suite again with TYJSON_SIMD=scalar, so the portable kernels and
#     the parse they drive run on AArch64 too;
#  3. test_stack on 128 KiB stacks (see EXCLUDE below);
#  4. test_index built with -march=armv8-a+crypto, whose NEON kernel takes
#     the inside-string mask from PMULL instead of shift-XOR (qemu's default
#     CPU has PMULL); the rest of the code does not change with it.
# Speed is not measured here: qemu's timings say nothing about a real CPU.
set -euo pipefail
cd "$(dirname "$0")/../.."
src=$(pwd)
build=${1:-build-aarch64}
jobs=${JOBS:-2}
sysroot=/usr/aarch64-linux-gnu

missing=()
command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
command -v aarch64-linux-gnu-g++ >/dev/null || missing+=(g++-aarch64-linux-gnu)
command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
if [ ${#missing[@]} -ne 0 ]; then
  echo "aarch64.sh: missing packages (apt-get install ${missing[*]})" >&2
  exit 1
fi

# Tests that cannot run here, with the reason:
#  - test_cli, test_cli_stream, example_cli: run the tyjson CLI through /bin/sh; that shell
#    is the build machine's, which cannot start an AArch64 program (qemu-user
#    runs only the program it is given, and binfmt_misc is not assumed);
#  - compile_cpp_bind.*: compile with the build machine's gcc, g++, clang and
#    clang++ and link with the AArch64 library (the native suite runs them;
#    what they check does not depend on the target);
#  - install_check: builds consumers of the installed package with the build
#    machine's compilers and runs them (native suite only);
#  - test_stack: AArch64 glibc's smallest thread stack (PTHREAD_STACK_MIN,
#    128 KiB, sized for 64 KiB pages) is larger than the minimum stacks the
#    test checks (16 to 64 KiB, docs/api.md), so its threads cannot be made;
#    run 3 runs it on 128 KiB stacks instead.
EXCLUDE='^(test_cli|test_cli_stream|example_cli|compile_cpp_bind\..*|install_check|test_stack)$'
# Run 2 also leaves out what does not depend on the level: test_index and
# test_simd choose every level themselves (run 1 runs them), the *_scalar
# and *_neon copies and simd_level_* (run 1 runs them at their level), the
# layout and registry checks, the C++ syntax checks.
EXCLUDE_SCALAR='^(test_cli|test_cli_stream|example_cli|compile_cpp_bind\..*|install_check|test_stack|test_index|test_simd|.*_scalar|.*_neon|simd_level_.*|layout_.*|test_registry_full.*|test_cases_selftest.*|example_.*_as_cpp|example_doc_blocks)$'

say() { printf '\n--- aarch64.sh: %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
qemu() { qemu-aarch64 -L "$sysroot" "$@"; }

say "configure and build $build"
cmake -S "$src" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DTYJSON_WERROR=ON >/dev/null
cmake --build "$build" -j"$jobs"

say "the indexer runs its NEON kernel"
levels=$(qemu "$build/tests/test_index" levels_found)
echo "$levels"
grep -q 'kernels: 2 (best level 3)' <<<"$levels" || {
  echo "aarch64.sh: test_index does not see the NEON kernel (level 3)" >&2
  exit 1
}

say "1/4 ctest at the best level (NEON), excluded: $EXCLUDE"
(cd "$build" && ctest -j"$jobs" --output-on-failure -E "$EXCLUDE")

say "2/4 ctest with TYJSON_SIMD=scalar"
(cd "$build" && TYJSON_SIMD=scalar ctest -j"$jobs" --output-on-failure -E "$EXCLUDE_SCALAR")

say "3/4 test_stack on 128 KiB thread stacks"
TYJSON_STACK_KIB=128 qemu "$build/tests/test_stack"

say "4/4 test_index with PMULL (-march=armv8-a+crypto)"
cmake -S "$src" -B "$build-crypto" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DTYJSON_WERROR=ON -DCMAKE_C_FLAGS=-march=armv8-a+crypto \
  -DTYJSON_BUILD_TOOLS=OFF -DTYJSON_BUILD_EXAMPLES=OFF -DTYJSON_BUILD_SHARED=OFF >/dev/null
cmake --build "$build-crypto" -j"$jobs" --target test_index
# (the listing is kept whole: grep -q would close the pipe early, and
# pipefail would count objdump's broken pipe as a failure)
listing=$(aarch64-linux-gnu-objdump -d "$build-crypto/CMakeFiles/tyjson_objects.dir/src/read/index_neon.c.o")
grep -q pmull <<<"$listing" || { echo "aarch64.sh: the crypto build's NEON kernel has no pmull" >&2; exit 1; }
qemu "$build-crypto/tests/test_index"

say "all runs passed"
