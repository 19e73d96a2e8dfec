#!/bin/sh
# The layer check must fail on each kind of violation and pass a clean tree.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
t="$(mktemp -d)"
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/base" "$t/read" "$t/dom" "$t/bind"
printf '#include "base/internal.h"\n' > "$t/read/lex.c"
printf '#include <string.h>\n#include "tyjson.h"\n' > "$t/base/internal.h"
printf '#include "read/lex.h"\n#include "base/internal.h"\n' > "$t/dom/parse.c"
sh "$here/check_layers.sh" "$t" > /dev/null || { echo "FAIL: a clean tree was refused"; exit 1; }
expect_fail() {
    printf '%s\n' "$2" > "$t/$1"
    if sh "$here/check_layers.sh" "$t" > /dev/null; then echo "FAIL: not caught: $1: $2"; exit 1; fi
    rm -f "$t/$1"
}
expect_fail bind/decode.c '#include "dom/dom.h"'         # front door into another
expect_fail base/alloc.c '#include "read/lex.h"'         # a layer reaching up
expect_fail read/simd.c '#include "lex.h"'               # include without its layer
expect_fail stray.c '#include "base/internal.h"'         # file outside the layers
mkdir -p "$t/misc" && expect_fail misc/x.c ''            # unknown layer
rmdir "$t/misc"
echo "check_layers: every violation kind caught"
