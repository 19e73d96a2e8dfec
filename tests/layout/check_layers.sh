#!/bin/sh
# check_layers.sh SRC_DIR - the layer rule of src/ (docs/design.md, "Layers").
#
# Every source lives in a layer folder, and includes headers of its own
# layer and of the layers it may use, by path from src/ ("read/lex.h"):
#
#   base/                      (nothing below it)
#   num/                       base
#   read/                      base num
#   write/                     base num read
#   dom/  bind/  stream/       base num read write   (front doors: never each other)
#
# The public headers ("tyjson.h", <tyjson/...>) are open to every layer: the
# binding reaches the DOM only through them. Prints each violation as
# FILE:LINE and exits 1 when there is one.
set -u
src="${1:?usage: check_layers.sh SRC_DIR}"
cd "$src" || exit 2

allowed() {
    case "$1" in
    base) echo "base" ;;
    num) echo "base num" ;;
    read) echo "base num read" ;;
    write) echo "base num read write" ;;
    dom | bind | stream) echo "base num read write $1" ;;
    *) echo "" ;;
    esac
}

bad=0
for f in $(find . -type f \( -name '*.c' -o -name '*.h' \) | sed 's|^\./||' | sort); do
    layer="${f%%/*}"
    if [ "$layer" = "$f" ]; then
        echo "$f: not in a layer folder (base num read write dom bind stream)"
        bad=1
        continue
    fi
    ok="$(allowed "$layer")"
    if [ -z "$ok" ]; then
        echo "$f: unknown layer '$layer'"
        bad=1
        continue
    fi
    # quoted includes only: system headers and <tyjson/...> are always open
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
        sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' > "${TMPDIR:-/tmp}/layers.$$"
    while read -r line inc; do
        case "$inc" in
        tyjson.h | tyjson/*) continue ;;
        esac
        to="${inc%%/*}"
        if [ "$to" = "$inc" ]; then
            echo "$f:$line: includes \"$inc\" without its layer (write \"<layer>/$inc\")"
            bad=1
            continue
        fi
        case " $ok " in
        *" $to "*) ;;
        *) echo "$f:$line: layer $layer includes \"$inc\" (allowed: $ok)"; bad=1 ;;
        esac
    done < "${TMPDIR:-/tmp}/layers.$$"
    rm -f "${TMPDIR:-/tmp}/layers.$$"
done
[ "$bad" = 0 ] && echo "layers: $(find . -type f \( -name '*.c' -o -name '*.h' \) | wc -l) files follow the rule"
exit "$bad"
