#!/bin/sh
# check_statics.sh SRC_DIR - no two source files of the library define a
# file-local function of the same name, so a stack trace, a profile or a
# grep names one place. Prints each name defined in several files; exits 1
# when there is one.
set -u
src="${1:?usage: check_statics.sh SRC_DIR}"
cd "$src" || exit 2
defs="$(grep -rhoE '^(static|TYJSON__FORCEINLINE|static inline)[^(=;]*[^a-z_0-9][a-z_0-9]+\(' --include='*.c' . |
    sed -E 's/.*[^a-z_0-9]([a-z_0-9]+)\($/\1/' | sort -u)"
bad=0
for n in $defs; do
    files="$(grep -rlE "^(static|TYJSON__FORCEINLINE)[^(=;]*[^a-z_0-9]$n\(" --include='*.c' . | sort)"
    if [ "$(printf '%s\n' "$files" | wc -l)" -gt 1 ]; then
        echo "static $n defined in:" $files
        bad=1
    fi
done
[ "$bad" = 0 ] && echo "statics: $(printf '%s\n' "$defs" | wc -l) file-local function names, each in one file"
exit "$bad"
