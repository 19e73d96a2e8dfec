#!/usr/bin/env bash
# bench/run.sh - build and run the tyjson benchmark against its peers.
# `make bench` calls this. See docs/benchmarks.md.
#
#   bench/run.sh [--quick] [--corpus DIR] [--yyjson DIR] [--build-dir DIR]
#                [--results DIR] [--no-install] [--groups LIST] [-- DRIVER-OPTIONS...]
#
# Steps:
#  1. As root, installs the Debian packages of the peers that are missing
#     (apt-get update only when one is). Otherwise says what is missing.
#  2. Configures a Release build in build-bench/ with -DTYJSON_BUILD_BENCH=ON
#     and builds the driver. yyjson is not a Debian package: it is used when
#     --yyjson DIR, $TYJSON_BENCH_YYJSON_DIR or ../peers/yyjson-install
#     (next to the repository) holds an install prefix of it; nothing here
#     downloads or builds it.
#  3. Runs the driver: the scenarios (inputs generated, no files needed),
#     then the corpus: --corpus DIR, else ../shared/corpus when it exists,
#     else small generated documents (and it says where the standard corpus
#     files come from). CSV and JSON go to results/; exits 1 only when a
#     library that is present gives a wrong result.
#  4. Renders the Markdown report and SVG charts from the JSON with
#     bench/report.py (python3).
#  5. The Python part, when the build directory has the module on.
#  6. The CLI memory part (group "cli", in a full run too): the tyjson tool
#     on one generated 1 GiB document (16 MiB with --quick), from a file and
#     from a pipe, peak RSS and MB/s (bench/cli_rss.py, bench/rss_run.c).
#     --quick: one short round of everything, every adapter checked (CI).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
quick=0
corpus=""
yyjson_dir="${TYJSON_BENCH_YYJSON_DIR:-}"
build_dir="$root/build-bench"
results="$root/results"
install=1
driver_args=()
groups=""

usage() {
  sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --corpus) corpus="${2:?--corpus needs a directory}"; shift ;;
    --yyjson) yyjson_dir="${2:?--yyjson needs a directory}"; shift ;;
    --build-dir) build_dir="${2:?--build-dir needs a directory}"; shift ;;
    --results) results="${2:?--results needs a directory}"; shift ;;
    --no-install) install=0 ;;
    --groups) groups="${2:?--groups needs a list}"; shift ;; # the driver's --groups
    -h|--help) usage; exit 0 ;;
    --) shift; driver_args=("$@"); break ;;
    *) echo "bench/run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

# "cli" is this script's group (step 6), the others the driver's; a run of
# --groups cli alone runs neither the driver nor the Python part.
run_cli=1
driver_groups="$groups"
if [ -n "$groups" ]; then
  run_cli=0
  driver_groups=""
  IFS=, read -r -a group_list <<<"$groups"
  for g in "${group_list[@]}"; do
    if [ "$g" = cli ]; then run_cli=1; else driver_groups="${driver_groups:+$driver_groups,}$g"; fi
  done
fi
run_driver=1
[ -n "$groups" ] && [ -z "$driver_groups" ] && run_driver=0

# --- 1. peer packages ---------------------------------------------------------
packages=(libcjson-dev libjansson-dev libjson-c-dev libyajl-dev rapidjson-dev libsimdjson-dev pkg-config)
# the Python part's peers (Debian's: orjson is not packaged, pydantic is 1.x)
packages+=(python3-dev python3-ujson python3-simplejson python3-pydantic)
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$install" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "bench: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "bench: missing peer packages (those peers are skipped): ${missing[*]}"
    echo "       as root: apt-get install ${missing[*]}"
  fi
fi

# --- 2. configure and build ---------------------------------------------------
if [ -z "$yyjson_dir" ] && [ -f "$root/../peers/yyjson-install/include/yyjson.h" ]; then
  yyjson_dir="$(cd "$root/../peers/yyjson-install" && pwd)"
fi
cmake_args=(-S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DTYJSON_BUILD_BENCH=ON
            -DTYJSON_BUILD_TESTS=OFF -DTYJSON_BUILD_TOOLS=ON -DTYJSON_BUILD_SHARED=OFF)
# The Python module (step 5) for Debian's Python, whose packages hold the
# Python peers; without its headers CMake says so and leaves the module out.
[ -x /usr/bin/python3 ] && cmake_args+=(-DTYJSON_BUILD_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3)
# (without it CMake still tries pkg-config, and says when yyjson is skipped)
[ -n "$yyjson_dir" ] && cmake_args+=("-DTYJSON_BENCH_YYJSON_DIR=$yyjson_dir")
mkdir -p "$build_dir"
cmake "${cmake_args[@]}" >"$build_dir/bench-configure.log" 2>&1 || {
  cat "$build_dir/bench-configure.log" >&2; exit 1; }
grep "tyjson bench:" "$build_dir/bench-configure.log" | sed 's/^-- tyjson bench: /bench: /' || true
# TYJSON_BENCH_STRICT=1 (.ci/run sets it where the peers are the installed
# Debian ones): a peer that is installed but whose adapter does not build is
# our bug, not an old peer, so it fails the run instead of being skipped.
if [ "${TYJSON_BENCH_STRICT:-0}" = 1 ] && grep -q "found, but its adapter does not build" "$build_dir/bench-configure.log"; then
  echo "bench: TYJSON_BENCH_STRICT=1 and an installed peer's adapter does not build:" >&2
  grep -A30 "found, but its adapter does not build" "$build_dir/bench-configure.log" | head -60 >&2
  exit 1
fi
targets=()
[ "$run_driver" = 1 ] && targets+=(tyjson_bench)
[ "$run_cli" = 1 ] && targets+=(tyjson_cli tyjson_bench_rss_run)
cmake --build "$build_dir" --target "${targets[@]}" -j2 >"$build_dir/bench-build.log" 2>&1 || {
  tail -50 "$build_dir/bench-build.log" >&2; exit 1; }

# --- 3. run -------------------------------------------------------------------
args=(--results "$results")
[ -n "$driver_groups" ] && args+=(--groups "$driver_groups")
[ "$quick" = 1 ] && args+=(--quick)
if [ -n "$corpus" ]; then
  [ -d "$corpus" ] || { echo "bench/run.sh: no directory $corpus" >&2; exit 2; }
  args+=("$corpus")
elif [ -d "$root/../shared/corpus" ]; then
  args+=("$root/../shared/corpus")
else
  cat <<'EOF'
bench: no corpus directory (give one with --corpus DIR). The standard files
       twitter.json, citm_catalog.json, canada.json, mesh.json, numbers.json,
       github_events.json and twitterescaped.json are in the jsonexamples/
       folder of the simdjson repository on GitHub (simdjson/simdjson; some
       only in its history, before 2021), poet.json in data/json/ of
       ibireme/yyjson_benchmark. The scenarios need no files. Running the
       corpus part on generated documents instead.
EOF
  args+=(--synthetic)
fi
# The driver exits 1 when a present library gives a wrong result (or
# crashes); peers that are missing or too old were skipped above, with why.
status=0
if [ "$run_driver" = 1 ]; then
  "$build_dir/bench/tyjson_bench" "${args[@]}" "${driver_args[@]+"${driver_args[@]}"}" || status=$?
fi

# --- 4. report ------------------------------------------------------------------
# Markdown and SVG from the newest JSON of this run (bench/report.py).
json="$(ls -t "$results"/bench-*.json 2>/dev/null | head -1 || true)"
if [ "$run_driver" = 1 ] && [ -n "$json" ] && [ "$json" -nt "$build_dir/bench-build.log" ]; then
  if command -v python3 >/dev/null 2>&1; then
    python3 "$root/bench/report.py" "$json" || status=1
  else
    echo "bench: python3 not found: no Markdown/SVG report (tools/install_deps.sh installs it)"
  fi
fi
# --- 5. Python part -------------------------------------------------------------
# When the build directory has the Python module on (cmake -DTYJSON_BUILD_PYTHON=ON
# once; the cache keeps it): python/bench/bench_python.py, tyjson.loads/dumps/
# decode/iter_lines against json, ujson, simplejson (orjson, pydantic if present).
if [ "$run_driver" = 1 ] && grep -q '^TYJSON_BUILD_PYTHON:BOOL=ON' "$build_dir/CMakeCache.txt" 2>/dev/null \
   && [ -d "$root/../shared/corpus" ]; then
  py="$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$build_dir/CMakeCache.txt")"
  if cmake --build "$build_dir" --target tyjson_python -j2 >"$build_dir/bench-python-build.log" 2>&1; then
    py_args=(--shared "$root/../shared" --results "$results")
    [ "$quick" = 1 ] && py_args+=(--rounds 1)
    if PYTHONPATH="$build_dir/python" "${py:-python3}" "$root/python/bench/bench_python.py" "${py_args[@]}"; then
      # the same report: the Python tables go into the driver's Markdown too
      py_md="$(ls -t "$results"/python-bench-*.md 2>/dev/null | head -1 || true)"
      if [ -n "$json" ] && [ -f "${json%.json}.md" ] && [ -n "$py_md" ]; then
        { echo; sed -e 's/^## /### /' -e 's/^# tyjson Python benchmark/## Python (the tyjson module)/' "$py_md"; } >>"${json%.json}.md"
      fi
    else
      status=1
    fi
  else
    tail -20 "$build_dir/bench-python-build.log" >&2; status=1
  fi
fi
# --- 6. CLI memory --------------------------------------------------------------
# The document is generated into a temporary directory ($TMPDIR) and deleted
# afterwards; it needs 1 GiB of free space there (16 MiB with --quick).
if [ "$run_cli" = 1 ]; then
  cli_args=(--cli "$build_dir/tyjson" --runner "$build_dir/bench/tyjson_bench_rss_run" --results "$results")
  [ "$quick" = 1 ] && cli_args+=(--quick)
  if command -v python3 >/dev/null 2>&1; then
    python3 "$root/bench/cli_rss.py" "${cli_args[@]}" || status=1
  else
    echo "bench: python3 not found: no CLI memory part (tools/install_deps.sh installs it)"
  fi
fi
exit "$status"
