# cmake/aarch64-linux-gnu.cmake - cross-compiles tyjson for 64-bit Arm Linux
# with Debian's gcc-aarch64-linux-gnu / g++-aarch64-linux-gnu, and runs the
# resulting programs (ctest, the example checks) under qemu-user, so the
# NEON kernels are tested on an x86-64 machine (tests/cross/aarch64.sh).
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#
# TYJSON_AARCH64_SYSROOT is where the target's libc lives (qemu's -L).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

set(TYJSON_AARCH64_SYSROOT /usr/aarch64-linux-gnu CACHE PATH "The aarch64 libc (qemu -L)")
set(CMAKE_FIND_ROOT_PATH ${TYJSON_AARCH64_SYSROOT})
# Programs (python3, bash, host compilers) come from the build machine;
# libraries and headers only from the target's root.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest runs every test executable through this (add_test with a target
# name as COMMAND); a test that runs a command of its own does not get it.
find_program(TYJSON_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(TYJSON_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${TYJSON_QEMU_AARCH64} -L ${TYJSON_AARCH64_SYSROOT})
endif()
