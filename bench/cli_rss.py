#!/usr/bin/env python3
"""CLI memory benchmark: the tyjson command-line tool on one large document
(1 GiB by default, 16 MiB with --quick), from a file and from a pipe.

Generates the document on the fly into a temporary directory (deleted
afterwards), then runs `validate`, `stats`, `get` of a value in the middle,
`get` of a value near the start (get stops reading once it has it) and
`minify` through tyjson_bench_rss_run, which reports each run's peak RSS
(wait4) and wall time. Every result is checked: the exit status, the
counts `stats` prints, the value `get` prints. Writes a Markdown table and
a JSON file to --results and prints the table; exits 1 when a result is
wrong, 0 otherwise (a peak RSS over the 64 MiB target is marked in the
table, and said, but is no wrong result).

  cli_rss.py --cli BUILD/tyjson --runner BUILD/bench/tyjson_bench_rss_run
             [--quick] [--size-mib N] [--results DIR] [--tmp DIR]
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile

RSS_TARGET_MIB = 64

# Every record has the same length (ids of 10 digits from 1e9, names
# zero-padded), so the record count
# for a size, and the record in the middle, are known before writing.
RECORD = ('{"id":%010d,"name":"item-%010d","price":%d.25,"ok":true,"none":null,'
          '"tags":["alpha","b\\u00e9ta","\\"quoted\\""],'
          '"nested":{"x":[1,2,3,-4.5e3],"s":"a line\\nand a tab\\t, caf\\u00e9"}}')
HEAD = '{"meta":{"version":3,"generator":"tyjson bench/cli_rss.py"},"items":[\n'
TAIL = '\n],"end":{"done":true}}\n'


def record(i):
    return RECORD % (1000000000 + i, i, 100 + i % 900)


def generate(path, size):
    rec_len = len(record(0)) + 2  # ",\n" between records
    n = max(1, (size - len(HEAD) - len(TAIL)) // rec_len)
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(HEAD)
        batch = 4096
        for start in range(0, n, batch):
            end = min(n, start + batch)
            text = ",\n".join(record(i) for i in range(start, end))
            if start:
                f.write(",\n")
            f.write(text)
        f.write(TAIL)
    return n, rec_len


def stats_expected(n, size):
    # per record: itself and "nested" are objects; "tags" and "x" arrays;
    # name, 3 tags and s are strings; id, price and the 4 of x numbers
    # (id and 1,2,3 ints; price and -4.5e3 reals); ok a bool, none a null
    return {"documents": 1, "objects": 2 * n + 3, "arrays": 2 * n + 1, "strings": 5 * n + 1,
            "keys": 9 * n + 6, "numbers": 6 * n + 1, "ints": 4 * n + 1, "reals": 2 * n,
            "bools": n + 1, "nulls": n, "max_depth": 5, "bytes": size}


def run(runner, argv, pipe_from=None, out=None):
    cmd = [runner]
    if pipe_from:
        cmd += ["--pipe", pipe_from]
    if out:
        cmd += ["--out", out]
    cmd += ["--"] + argv
    line = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
    return {k: (float(v) if k.endswith("_s") else int(v)) for k, v in (kv.split("=") for kv in line.split())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", required=True, help="the tyjson binary")
    ap.add_argument("--runner", required=True, help="tyjson_bench_rss_run")
    ap.add_argument("--quick", action="store_true", help="a 16 MiB document")
    ap.add_argument("--size-mib", type=int, default=None, help="document size (default 1024)")
    ap.add_argument("--results", default=None, help="directory for cli-rss-*.md and .json")
    ap.add_argument("--tmp", default=None, help="where the document is written (default: the temp dir)")
    a = ap.parse_args()
    size_mib = a.size_mib or (16 if a.quick else 1024)
    size = size_mib << 20

    work = tempfile.mkdtemp(prefix="tyjson-cli-rss-", dir=a.tmp)
    doc = os.path.join(work, "big.json")
    out = os.path.join(work, "out.txt")
    rows, wrong = [], []
    try:
        print("cli-rss: generating a %d MiB document in %s" % (size_mib, work), flush=True)
        n, rec_len = generate(doc, size)
        size = os.path.getsize(doc)
        mid = n // 2
        # get stops at its value: its MB/s is over the bytes up to there
        mid_offset = len(HEAD) + mid * rec_len
        cases = [
            ("validate", ["validate"], None),
            ("stats", ["stats"], "stats"),
            ("get (middle)", ["get", "/items/%d/name" % mid], '"item-%010d"\n' % mid),
            ("get (early)", ["get", "/meta/version"], "3\n"),
            ("minify", ["minify"], None),
        ]
        want_stats = stats_expected(n, size)
        for name, args, want in cases:
            for source in ("file", "pipe"):
                argv = [a.cli] + args + ([doc] if source == "file" else [])
                r = run(a.runner, argv, pipe_from=doc if source == "pipe" else None,
                        out=out if want else None)
                check = "ok"
                if r["status"] != 0:
                    check = "exit status %d" % r["status"]
                elif want == "stats":
                    with open(out, encoding="utf-8") as f:
                        got = dict(line.split(": ", 1) for line in f.read().splitlines())
                    got = {k: int(v) for k, v in got.items()}
                    if got != want_stats:
                        check = "stats %r, expected %r" % (got, want_stats)
                elif want is not None:
                    with open(out, encoding="utf-8") as f:
                        got = f.read()
                    if got != want:
                        check = "printed %r, expected %r" % (got[:80], want)
                if check != "ok":
                    wrong.append("%s from a %s: %s" % (name, source, check))
                early = name == "get (early)"
                done = mid_offset if name == "get (middle)" else size
                cpu = r["user_s"] + r["sys_s"]
                rows.append({"command": name, "input": source, "rss_kib": r["rss_kib"],
                             "wall_s": r["wall_s"], "user_s": r["user_s"], "sys_s": r["sys_s"],
                             "fed_bytes": r["fed_bytes"],
                             "bytes_done": done, "mb_s": None if early else done / 1e6 / r["wall_s"],
                             "mb_s_cpu": None if early or cpu <= 0 else done / 1e6 / cpu, "check": check})
                print("cli-rss: %-13s %-4s  %7.1f MiB  %8.3f s  cpu %.3f+%.3f s%s  %s" % (
                    name, source, r["rss_kib"] / 1024, r["wall_s"], r["user_s"], r["sys_s"],
                    "" if early else "  %7.0f MB/s" % (done / 1e6 / r["wall_s"]), check), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    over = [r for r in rows if r["rss_kib"] > RSS_TARGET_MIB * 1024]
    md = ["## CLI on one %s document: peak RSS and speed" % (
              "%.1f GiB" % (size / 2**30) if size >= 2**30 else "%.0f MiB" % (size / 2**20)),
          "",
          "`tyjson` on one %d-byte document of %d records (%s; %s). Peak RSS is the"
          " command's `ru_maxrss` (wait4), MB/s the document's size (for `get` of the middle value:"
          " the bytes up to it) over the wall time,"
          " CPU its user + system time (wait4; on a busy machine closer to the cost than the wall time)"
          " and MB/s CPU the size over that."
          " From a pipe, bench/rss_run.c writes the file into the command's standard input;"
          " \"read\" is how much of it the command took before it exited. Target: under %d MiB."
          % (size, n, platform.machine(), datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
             RSS_TARGET_MIB),
          "",
          "| command | input | peak RSS (MiB) | wall (s) | MB/s | CPU (s) | MB/s CPU | read | check |",
          "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        read = ("%.1f MiB" % (r["fed_bytes"] / 2**20)) if r["input"] == "pipe" else "-"
        rss = "%.1f" % (r["rss_kib"] / 1024) + (" (over)" if r in over else "")
        md.append("| %s | %s | %s | %.3f | %s | %.3f | %s | %s | %s |" % (
            r["command"], r["input"], rss, r["wall_s"],
            "-" if r["mb_s"] is None else "%.0f" % r["mb_s"], r["user_s"] + r["sys_s"],
            "-" if r["mb_s_cpu"] is None else "%.0f" % r["mb_s_cpu"], read, r["check"]))
    text = "\n".join(md) + "\n"
    print(text)
    if a.results:
        os.makedirs(a.results, exist_ok=True)
        stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d-%H%M%S")
        base = os.path.join(a.results, "cli-rss-%s" % stamp)
        with open(base + ".md", "w", encoding="utf-8") as f:
            f.write(text)
        with open(base + ".json", "w", encoding="utf-8") as f:
            json.dump({"size": size, "records": n, "rss_target_mib": RSS_TARGET_MIB, "rows": rows}, f, indent=1)
        print("cli-rss: wrote %s.md and .json" % base)
    if over:
        print("cli-rss: over the %d MiB target: %s" % (
            RSS_TARGET_MIB, ", ".join("%s (%s)" % (r["command"], r["input"]) for r in over)))
    for w in wrong:
        print("cli-rss: WRONG: %s" % w, file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
