#!/bin/bash
# cli.sh TYJSON_BINARY - the "Command line" block of README.md, line for
# line, on small files made here. Prints each command, its output and its
# exit status (compared with expected/cli.txt by ctest).
set -u
bin=${1:?usage: cli.sh TYJSON_BINARY}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
tyjson() { "$bin" "$@"; }

printf '{"users":[{"name":"Ann","age":31},{"name":"Bob","age":27}],"ok":true}\n' > file.json
printf '{"a": [1, 2,\n  3]}\n' > in.json
printf '{"id":1}\n{"id":2}\n{"id":3,}\n' > big.ndjson     # the third line is invalid
printf '{"name":"app","tags":["a","b"],"debug":true}\n' > old.json
printf '{"name":"app","tags":["a","b","c"],"port":8080}\n' > new.json
printf '{"debug":null,"port":9090}\n' > overrides.json

run() { echo "\$ $1"; eval "$1" 2>&1; echo "[exit $?]"; }
run 'tyjson validate file.json          # exit 0 valid, 1 invalid, 2 usage/I/O error'
run 'tyjson pretty --indent 4 file.json'
run 'tyjson minify < in.json > out.json'
run 'cat out.json'
run 'tyjson stats file.json'
run 'tyjson get -r /users/0/name file.json       # a string without quotes (like jq -r)'
run 'tyjson get /a/b --default none file.json    # or --quiet: print nothing, exit 1'
run 'tyjson get /a/b --quiet file.json'
run 'tyjson validate --lines --max-errors 10 big.ndjson'
run 'tyjson diff old.json new.json > changes.json   # a JSON Patch (RFC 6902)'
run 'cat changes.json'
run 'tyjson patch old.json changes.json          # all or nothing; exit 1 names the failing operation'
run 'tyjson merge old.json overrides.json        # JSON Merge Patch (RFC 7396)'
run 'tyjson get --help                           # each command has its own help'
