#!/bin/bash
# check_doc_blocks.sh SOURCE_DIR - every ```c block of README.md and
# docs/binding.md must be an excerpt of one program in examples/: each of
# its lines (leading and trailing blanks aside; blank lines and "..."
# skipped) must be a line of that one program. Every `tyjson ...` line of
# a ```sh block must be run by examples/cli.sh.
set -u
src=${1:?usage: check_doc_blocks.sh SOURCE_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

trim() { sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' | grep -v -x -e '' -e '\.\.\.' ; }

for ex in "$src"/examples/*.c; do
    trim < "$ex" | sort -u > "$tmp/ex.$(basename "$ex" .c)"
done
# Shell blocks: their `tyjson ...` command lines must be lines of
# examples/cli.sh (quoted there as the argument of run).
sed -n "s/^run '\(tyjson .*\)'\$/\1/p" "$src/examples/cli.sh" | trim | sort -u > "$tmp/cli"

failed=0
checked=0
for doc in README.md docs/binding.md; do
    # Split the document's C blocks into files named doc.LINE (the line of the fence).
    awk -v out="$tmp/block" -v doc="$(basename "$doc")" '
        /^```c[[:space:]]*$/ { inblock = 1; name = out "." doc "." NR; printf "" > name; next }
        /^```/ && inblock { inblock = 0; close(name); next }
        inblock { print > name }' "$src/$doc"
    for block in "$tmp"/block."$(basename "$doc")".*; do
        [ -e "$block" ] || continue
        checked=$((checked + 1))
        line=${block##*.}
        trim < "$block" | sort -u > "$block.lines"
        match=""
        best="" best_missing=1000000
        for ex in "$tmp"/ex.*; do
            missing=$(comm -23 "$block.lines" "$ex" | wc -l)
            if [ "$missing" -eq 0 ]; then match=${ex##*/ex.}; break; fi
            if [ "$missing" -lt "$best_missing" ]; then best=$ex best_missing=$missing; fi
        done
        if [ -n "$match" ]; then
            echo "$doc:$line: examples/$match.c"
        else
            failed=$((failed + 1))
            echo "$doc:$line: no example holds this block; closest is examples/${best##*/ex.}.c, which lacks:"
            comm -23 "$block.lines" "$best" | sed 's/^/    /'
        fi
    done
done
for doc in README.md docs/binding.md; do
    awk -v out="$tmp/sh" -v doc="$(basename "$doc")" '
        /^```sh[[:space:]]*$/ { inblock = 1; name = out "." doc "." NR; printf "" > name; next }
        /^```/ && inblock { inblock = 0; close(name); next }
        inblock && /^tyjson / { print > name }' "$src/$doc"
    for block in "$tmp"/sh."$(basename "$doc")".*; do
        [ -s "$block" ] || continue
        checked=$((checked + 1))
        line=${block##*.}
        missing=$(trim < "$block" | sort -u | comm -23 - "$tmp/cli")
        if [ -z "$missing" ]; then
            echo "$doc:$line: examples/cli.sh"
        else
            failed=$((failed + 1))
            echo "$doc:$line: examples/cli.sh does not run:"
            echo "$missing" | sed 's/^/    /'
        fi
    done
done
echo "$checked blocks checked, $failed without an example"
[ "$checked" -gt 0 ] && [ "$failed" -eq 0 ]
