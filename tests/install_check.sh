#!/usr/bin/env bash
# Installs the library into a temporary prefix, then builds a small consumer
# twice: with find_package(tyjson) and with pkg-config. Registered as a ctest.
set -euo pipefail
src_dir=$1
bin_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$bin_dir" --prefix "$prefix" >/dev/null

mkdir -p "$work/app"
cat > "$work/app/main.c" <<'C'
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    tyjson_doc *d = tyjson_read("[1,2,3]", 7, 0);
    size_t len;
    char *s = tyjson_write(d, 0, &len);
    int ok = d && s && len == 7;
    free(s);
    tyjson_doc_free(d);
    puts(ok ? "ok" : "bad");
    return ok ? 0 : 1;
}
C
cat > "$work/app/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(tyjson REQUIRED)
add_executable(app_shared main.c)
target_link_libraries(app_shared tyjson::tyjson)
add_executable(app_static main.c)
target_link_libraries(app_static tyjson::tyjson_static)
CM
cmake -S "$work/app" -B "$work/app/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/app/build" >/dev/null
LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/app/build/app_shared"
"$work/app/build/app_static"

pcdir=$(dirname "$(find "$prefix" -name tyjson.pc | head -n 1)")
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs tyjson)
# shellcheck disable=SC2086
cc -std=c11 "$work/app/main.c" -o "$work/app/pc_app" $flags
LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/app/pc_app"
test -x "$prefix/bin/tyjson" || { echo "CLI not installed"; exit 1; }
echo "1 passed, 0 failed"
