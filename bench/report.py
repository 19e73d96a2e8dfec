#!/usr/bin/env python3
"""bench/report.py - the Markdown report and SVG charts of a benchmark run.

    python3 bench/report.py results/bench-STAMP.json [OUT_DIR]

Reads the JSON the driver writes (tyjson_bench --results DIR) and writes
bench-STAMP.md and bench-STAMP-<group>.svg beside it (or into OUT_DIR).
Standard library only. Ratios: in a row, a library's "x tyjson" is its
median time over tyjson's, so above 1 means tyjson is faster; the headline
takes geometric means of those per group.
"""
import json
import math
import os
import sys

GROUPS = ["kissjson", "photoalbum", "kudos", "boon", "json0", "corpus", "extract", "corpus-avx2", "ndjson",
          "reader"]
TITLES = {
    "kissjson": "KissJson micro-POJOs (a)",
    "photoalbum": "PhotoAlbum, 165 KB POJO graph (b)",
    "kudos": "Kudos (Android): deserialize warm and cold, serialize (c)",
    "boon": "Boon serialize (d)",
    "json0": "JSON0: one round of 1,048,576 messages into one buffer (e)",
    "corpus": "Corpus: DOM parse, walk, write",
    "extract": "Extract: id, text, user.screen_name, retweet_count of every status, the rest skipped",
    "corpus-avx2": "Corpus parse, AVX2 kernels (TYJSON_SIMD=avx2, SIMDJSON_FORCE_IMPLEMENTATION=haswell)",
    "ndjson": "NDJSON: tweet-like records, one per line, 4 fields of each read",
    "reader": "Reader: every token of each file through the library's streaming interface (yyjson: parse + walk)",
}
NO_ALLOC_GROUPS = ("validate", "extract", "corpus-avx2", "ndjson", "reader")  # rows without a memory pass
CORPUS_OPS = ["parse", "parse+walk", "write-min", "write-pretty"]
PALETTE = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd",
           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
ALLOC_KINDS = [  # (title, metric of the first value, of the second, first is bytes)
    ("allocations per operation in steady state: calls / bytes requested",
     "alloc_calls_steady", "alloc_bytes_steady", False),
    ("allocations of the first operation on a fresh state: calls / bytes requested",
     "alloc_calls_first", "alloc_bytes_first", False),
    ("peak bytes live during one operation (blocks it requested): first / steady state",
     "alloc_peak_first", "alloc_peak_steady", True),
]

def c_round(v):
    """C's (long long)(v +- 0.5), as the driver rounds memory values."""
    return int(v - 0.5) if v < 0 else int(v + 0.5)

def fmt_num(v):
    return "%.0f" % v if v >= 1000 else "%.1f" % v if v >= 100 else "%.2f" % v if v >= 10 else "%.3f" % v

def unit_label(u):
    return "\u00b5s" if u == "us" else u

class Run:
    """The results of one run: tasks (rows) in order, cells per contender."""

    def __init__(self, doc):
        self.doc = doc
        self.conts = [c["name"] for c in doc["contenders"]]
        self.tasks = []
        index = {}
        for r in doc["results"]:
            key = (r["group"], r["item"], r["op"])
            if key not in index:
                index[key] = len(self.tasks)
                self.tasks.append({"group": r["group"], "item": r["item"], "op": r["op"], "unit": r["unit"],
                                   "bytes": r["bytes_per_op"], "cold": r["cold"], "cells": {}})
            self.tasks[index[key]]["cells"][r["contender"]] = r
        self.mem = doc.get("memory", [])

    def ok(self, t, c):
        return c in t["cells"] and t["cells"][c]["ok"]

    def med(self, t, c):
        return t["cells"][c]["median_s"]

    def shown(self, t, sec):
        """The value of a cell: MB/s, ms or us."""
        if t["unit"] == "MB/s":
            return t["bytes"] / sec / 1e6 if t["bytes"] > 0 else 0
        return sec * 1e3 if t["unit"] == "ms" else sec * 1e6

    def best(self, t, peers_only):
        """The fastest contender of a row (the first of equals), or None; peers_only leaves out tyjson
        and the hand-written reference writer (which is no peer)."""
        cands = [c for c in self.conts if self.ok(t, c) and not (peers_only and c in ("tyjson", "handwritten", "tyjson-writer"))]
        return min(cands, key=lambda c: self.med(t, c)) if cands else None

    def speedup(self, t, peer):
        """Peer's time over tyjson's (> 1: tyjson faster), 0 when unknown."""
        if peer is None or not self.ok(t, "tyjson") or not self.ok(t, peer):
            return 0
        return self.med(t, peer) / self.med(t, "tyjson")

    def rows(self, group, op=None):
        return [t for t in self.tasks if t["group"] == group and (op is None or t["op"] == op)]

    def task(self, group, item, op):
        for t in self.tasks:
            if (t["group"], t["item"], t["op"]) == (group, item, op):
                return t
        return None

    def validate_parse_row(self, item):
        """The parse row a validate row is compared with: the validate group's
        own, else the corpus group's (results of older runs)."""
        p = self.task("validate", item, "parse")
        return p if p is not None else self.task("corpus", item, "parse")

    def validate_rows(self):
        return self.rows("validate", "validate")

    def validate_gain(self, v):
        """tyjson's parse time over its validate time for a validate row (> 1:
        validating is faster), 0 when either is unknown."""
        p = self.validate_parse_row(v["item"])
        if p is None or not self.ok(p, "tyjson") or not self.ok(v, "tyjson"):
            return 0
        return self.med(p, "tyjson") / self.med(v, "tyjson")

    def mem_find(self, metric, cont, item, group=None, op=None):
        for r in self.mem:
            if r["metric"] == metric and r["contender"] == cont and r["item"] == item and \
                    (group is None or (r.get("group", "") == group and r.get("op", "") == op)):
                return r
        return None

def geo_mean(values):
    logs = [math.log(v) for v in values if v > 0]
    return math.exp(sum(logs) / len(logs)) if logs else None

def md_row(first, cells):
    return "| %s |%s\n" % (first, "".join(" %s |" % c for c in cells))

def ratio(x):
    return "%.2f" % x if x > 0 else "-"

def table_head(first, names, extra=()):
    cols = list(names) + list(extra)
    return "%s%s\n|---|%s\n" % ("| %s |" % first if first else "| |", "".join(" %s |" % n for n in cols),
                                  "---:|" * len(cols))

def md_group(run, g):
    rows = run.rows(g)
    if not rows:
        return ""
    out = ["\n### %s\n\n%s per operation (median); (x) = its time / tyjson's; **bold** = fastest\n\n"
           % (TITLES[g], unit_label(rows[0]["unit"]))]
    out.append(table_head("", run.conts, ("ty/best", "ty/yy", "ty/sj")))
    for t in rows:
        best, cells = run.best(t, False), []
        for c in run.conts:
            if not run.ok(t, c):
                cells.append("n/a")
                continue
            mark = "**" if c == best else ""
            cells.append("%s%s%s" % (mark, fmt_num(run.shown(t, run.med(t, c))), mark))
            if c != "tyjson" and run.ok(t, "tyjson"):
                cells[-1] += " (%.2f)" % run.speedup(t, c)
        cells += [ratio(run.speedup(t, peer)) for peer in (run.best(t, True), "yyjson", "simdjson")]
        out.append(md_row("%s %s" % (t["item"], t["op"]), cells))
    return "".join(out)

def md_validate(run):
    rows = run.validate_rows()
    if not rows:
        return ""
    out = ["\n### Validate only (structure + UTF-8, no document)\n\n`tyjson_validate` against tyjson's own DOM "
           "parse of the same file and simdjson's DOM parse (simdjson has no validate-only API; its parse is the "
           "closest), MB/s (median); validate/sj = simdjson's parse time over tyjson's validate time\n\n",
           table_head("file", ("validate", "parse", "validate/parse", "simdjson parse", "validate/sj"))]

    def mbs(t, c):
        return fmt_num(run.shown(t, run.med(t, c))) if t and run.ok(t, c) else "n/a"
    vs_sj = []
    for t in rows:
        p = run.validate_parse_row(t["item"])
        vs_sj.append(run.speedup(t, "simdjson"))
        out.append(md_row(t["item"], [mbs(t, "tyjson"), mbs(p, "tyjson"), ratio(run.validate_gain(t)),
                                      mbs(t, "simdjson"), ratio(vs_sj[-1])]))
    m, ms = geo_mean([run.validate_gain(t) for t in rows]), geo_mean(vs_sj)
    if m is not None or ms is not None:
        out.append(md_row("geometric mean", ["", "", ratio(m or 0), "", ratio(ms or 0)]))
    return "".join(out)

def md_memory(run):
    out = []
    parses = run.rows("corpus", "parse")
    if parses:
        out.append("\n## Memory\n\nCorpus: KiB a parsed document holds (the bytes requested from `malloc` during "
                   "the parse and still live when it returned, counted in `tyjson_bench_mem`; without it, tyjson's "
                   "`tyjson_doc_get_mem_size` and the counting allocator of the libraries that take one) / MiB of "
                   "peak resident memory of a fresh process that parsed the file, above one that only read it.\n\n"
                   + table_head("file", run.conts))

    def value(item, cont, metric):
        r = run.mem_find(metric, cont, item)
        return c_round(r["value"]) if r else -1
    for t in parses:
        base = value(t["item"], "none", "peak_rss_kib")
        line = "| %s |" % t["item"]
        for c in run.conts:
            held = value(t["item"], c, "doc_mem_size")
            rss = value(t["item"], c, "peak_rss_kib")
            counted = value(t["item"], c, "alloc_held_first")
            if held < 0:
                held = value(t["item"], c, "counted_held")
            if counted >= 0:
                held = counted
            line += " %.0f" % (held / 1024) if held >= 0 else " -"
            line += " / %.1f |" % ((rss - base) / 1024) if rss >= 0 and base >= 0 else " / - |"
        out.append(line + "\n")
    insitu = [c for c in run.conts if any(r["contender"] == c and r.get("op") == "parse-insitu" for r in run.mem)]
    if parses and insitu:
        out.append("\nIn situ (`parse-insitu`, tyjson_read_insitu and YYJSON_READ_INSITU): KiB a document parsed in "
                   "the caller's buffer holds (the buffer not counted) / allocator calls of the parse.\n\n"
                   + table_head("file", insitu))
        for t in parses:
            cells = []
            for c in insitu:
                held = run.mem_find("insitu_held_first", c, t["item"], "corpus", "parse-insitu")
                calls = run.mem_find("insitu_calls_first", c, t["item"], "corpus", "parse-insitu")
                cells.append("%.0f / %.0f" % (held["value"] / 1024, calls["value"]) if held and calls else "-")
            out.append(md_row(t["item"], cells))
    cold = [t for t in run.tasks if t["cold"]]
    base_rss = run.doc["base_rss_kib"]
    if cold:
        out.append("\nCold rows: MiB of peak resident memory of the fresh process that decoded once, above one "
                   "that only generated its input.\n\n" + table_head("row", run.conts))
    for t in cold:
        rss = [t["cells"][c].get("peak_rss_kib", 0) if run.ok(t, c) else 0 for c in run.conts]
        # page granularity: clamp at 0
        out.append(md_row("%s %s" % (t["group"], t["item"]),
                          ["%.1f" % (max(r - base_rss, 0) / 1024) if r and base_rss else "-" for r in rss]))
    return "".join(out)

def md_reader_memory(run):
    rows = [r for r in run.mem if r.get("group") == "reader" and r["contender"] == "tyjson"]
    if not rows:
        return ""
    out = ["\n## Reader memory\n\nPeak resident memory (KiB) of a fresh process that wrote a generated document "
           "to a temporary file (before), then read every token of it through tyjson's pull reader from a `FILE*` "
           "with the default 64 KiB window (after).\n\n| file | before | after read | growth |\n|---|---:|---:|---:|\n"]
    for r in rows:
        base = [b for b in run.mem if b.get("group") == "reader" and b["item"] == r["item"] and b["contender"] == "none"]
        b = c_round(base[0]["value"]) if base else None
        v = c_round(r["value"])
        out.append("| %s | %s | %d | %s |\n" % (r["item"], "%d" % b if b is not None else "-", v,
                                               "%d" % (v - b) if b is not None else "-"))
    return "".join(out)

def fmt_amount(v, is_bytes):
    """Exact below 100,000 (a fractional mean with decimals), else K / M."""
    if is_bytes and v >= 100.0 * 1024 * 1024:
        return "%.0fM" % (v / (1024 * 1024))
    if is_bytes and v >= 100000:
        return "%.0fK" % (v / 1024)
    if v == math.floor(v):
        return "%.0f" % v
    return ("%.2f" if v < 10 else "%.1f") % v

def md_alloc(run):
    if not any(r.get("group") and r["metric"].startswith("alloc_") for r in run.mem):
        return ""
    cfg = run.doc["config"]
    out = ["\n## Allocations per operation\n\nCounted in a separate process (`tyjson_bench_mem`, which interposes "
           "`malloc`, `calloc`, `realloc`, `free` and the aligned variants; C++ `new` included): the calls that "
           "allocate and the bytes they asked for (not what the allocator rounds up to, nor resident pages). An "
           "operation is what the timed loop does (decode + release, encode + release, one JSON0 message; corpus: "
           "parse + free). *First*: the first operation on a freshly created state, after one operation on a "
           "throwaway state so that one-time process setup is not counted. *Steady*: the mean of %d operations "
           "after %d more (corpus: the second parse on the same state). *Peak*: the most bytes live at once among "
           "the blocks requested during one operation. K = KiB.\n"
           % (cfg.get("mem_steady_ops", 20), cfg.get("mem_steady_warmup", 5))]  # (older JSON lacks the keys)
    rows = [t for t in run.tasks if not t["cold"] and t["group"] not in NO_ALLOC_GROUPS and
            (t["group"] != "corpus" or t["op"] == "parse")]
    for title, m1, m2, first_bytes in ALLOC_KINDS:
        out.append("\n%s%s\n\n" % (title[0].upper(), title[1:]) + table_head("", run.conts))
        for t in rows:
            label = "json0 one message serialize" if t["group"] == "json0" else \
                "%s %s %s" % (t["group"], t["item"], t["op"])
            out.append(md_row(label, [alloc_cell(run, t, c, m1, m2, first_bytes) for c in run.conts]))
    return "".join(out)

def alloc_cell(run, t, c, m1, m2, first_bytes):
    """"a / b"; n/a where the timed cell is; "-" where nothing was counted;
    "?" for a value the counter lost track of."""
    a, b = (run.mem_find(m, c, t["item"], t["group"], t["op"]) for m in (m1, m2))
    if not run.ok(t, c):
        return "n/a"
    if not a and not b and not run.mem_find("alloc_calls_create", c, t["item"], t["group"], t["op"]):
        return "-"
    return "%s / %s" % (fmt_amount(a["value"], first_bytes) if a else "?", fmt_amount(b["value"], True) if b else "?")

def md_machine(doc):
    m, cfg = doc["machine"], doc["config"]
    return ("- cpu: %s (%d logical cores; %s)\n- compiler: %s; system: %s %s %s\n"
            "- mode: %s: %d process(es) x %d sample(s) of >= %.0f ms per cell, %d warm-up sample(s), thread CPU "
            "time, contenders interleaved; cold: %d fresh process(es) per cell\n- contenders:%s\n"
            "- simdjson kernel: %s (its run-time choice; the AVX2 pass forces haswell)\n"
            % (m["cpu"], m["logical_cores"], m["cpu_flags"] or "no SIMD flags found", m["compiler"], m["system"],
               m["kernel"], m["arch"], cfg["mode"], cfg["forks"], cfg["samples_per_fork"],
               cfg["sample_seconds"] * 1e3, cfg["warmup_samples"], cfg["cold_processes"],
               ",".join(" %s %s" % (c["name"], c["version"]) for c in doc["contenders"]),
               m.get("simdjson_kernel", "-")))  # (older JSON lacks it)

def headline_row(run, label, rows):
    line = "| %s |" % label
    for peer in (None, "yyjson", "simdjson"):
        m = geo_mean([run.speedup(t, run.best(t, True) if peer is None else peer) for t in rows])
        line += " %.2f |" % m if m is not None else " - |"
    wins = sum(1 for t in rows if run.best(t, False) == "tyjson" and "tyjson" in run.conts)
    return line + " %d of %d |\n" % (wins, len(rows))

def write_md(run, prefix):
    doc = run.doc
    out = ["# tyjson benchmark, %s\n\n" % doc["date"], md_machine(doc),
           "- total run time: %.0f s\n\n## Headline\n\n" % doc["total_seconds"]]
    table = []
    for g in GROUPS:
        rows = run.rows(g)
        if not rows:
            continue
        table.append(headline_row(run, g, rows))
        if g == "corpus":  # the DOM parse per kernel choice: what issue 12's targets are about
            table.append(headline_row(run, "corpus parse", run.rows(g, "parse")))
    if table:
        out.append("Geometric mean per group of (peer's time / tyjson's time), over the rows where both are "
                   "known: above 1, tyjson is faster.\n\n| group | vs best peer | vs yyjson | vs simdjson "
                   "| rows tyjson wins |\n|---|---:|---:|---:|---:|\n")
        out.extend(table)
    else:  # (only groups without peer rows ran, such as validate: its own line follows)
        out.append("No group with peer rows ran.\n")
    if run.rows("corpus-avx2"):
        out.append("\n`corpus parse`: the DOM parse rows, each library on its run-time kernel (simdjson: %s); "
                   "`corpus-avx2`: the same parses with tyjson and simdjson forced to their AVX2 kernels.\n"
                   % run.doc["machine"].get("simdjson_kernel", "-"))
    gain = geo_mean([run.validate_gain(t) for t in run.validate_rows()])
    if gain is not None:
        out.append("\nValidate only: tyjson_validate is %.2fx tyjson's own parse (geometric mean over %d files).\n"
                   % (gain, len(run.validate_rows())))
    out.append("\n## Results\n")
    for g in GROUPS:
        if not run.rows(g):
            continue
        out.append(md_group(run, g))
        if g == "corpus":
            out.append("\n![parse](%s-corpus-parse.svg)\n![write](%s-corpus-write-min.svg)\n" % (prefix, prefix))
        else:
            out.append("\n![%s](%s-%s.svg)\n" % (g, prefix, g))
    out.append(md_validate(run))  # whenever the validate group ran, with or without the corpus group
    out.append(md_memory(run))
    out.append(md_reader_memory(run))
    out.append(md_alloc(run))
    out.append("\n## Not measured (n/a)\n\n")
    for t in run.tasks:
        if t["group"] == "validate":  # the peers' n/a is by design, said above the table
            continue
        for c in run.conts:
            cell = t["cells"][c]
            if not cell["ok"] and cell.get("note"):
                out.append("- %s, %s %s %s: %s\n" % (c, t["group"], t["item"], t["op"], cell["note"]))
    if doc["notes"]:
        out.append("\n## Notes\n\n")
    out.extend("- %s: %s\n" % (n["key"], n["value"]) for n in doc["notes"])
    return "".join(out)

def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")

def write_svg(run, title, group, op, relative):
    """Horizontal grouped bars: a row per task, a bar per contender.
    relative: speed relative to tyjson (tyjson = 1); else MB/s."""
    n = len(run.conts)
    label_w, plot_w, bar_h, gap, top, left = 260, 560, 11, 10, 58, 10
    row_h = n * bar_h + gap
    rows = run.rows(group, op)

    def bar(t, c):
        if relative:
            return run.med(t, "tyjson") / run.med(t, c) if run.ok(t, "tyjson") else 0
        return run.shown(t, run.med(t, c))
    maxv = max([bar(t, c) for t in rows for c in run.conts if run.ok(t, c)] or [0])
    if not rows or maxv <= 0:
        return None
    maxv *= 1.08
    height = top + len(rows) * row_h + 40 + (n + 3) // 4 * 18
    width = left + label_w + plot_w + 70
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="Helvetica, Arial, sans-serif" font-size="11">\n' % (width, height, width, height),
           '<rect width="100%%" height="100%%" fill="white"/>\n<text x="%d" y="20" font-size="15" '
           'font-weight="bold">%s</text>\n<text x="%d" y="38" fill="#555">%s</text>\n'
           % (left, esc(title), left, "speed relative to tyjson (tyjson = 1; longer bar = faster); median time per "
              "operation" if relative else "MB/s, median (longer bar = faster)")]
    # about six grid lines at 1, 2 or 5 times a power of ten
    raw = maxv / 6
    mag = math.pow(10, math.floor(math.log10(raw)))
    norm = raw / mag
    step = (1 if norm < 1.5 else 2 if norm < 3 else 5 if norm < 7 else 10) * mag
    bottom = top + len(rows) * row_h - gap + 4
    v = 0.0
    while v <= maxv:
        x = left + label_w + int(v / maxv * plot_w)
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#e4e4e4"/>\n' % (x, top - 6, x, bottom))
        out.append('<text x="%d" y="%d" fill="#777" text-anchor="middle">%g</text>\n' % (x, top - 9, v))
        v += step
    if relative:
        x = left + label_w + int(1.0 / maxv * plot_w)
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333" stroke-dasharray="3,3"/>\n'
                   % (x, top - 6, x, bottom))
    y = top
    for t in rows:
        label = t["item"] if op else "%s %s" % (t["item"], t["op"])
        out.append('<text x="%d" y="%d" text-anchor="end" font-weight="bold">%s</text>\n'
                   % (left + label_w - 8, y + n * bar_h // 2 + 4, esc(label[:95])))
        for i, c in enumerate(run.conts):
            by = y + i * bar_h
            if not run.ok(t, c):
                out.append('<text x="%d" y="%d" fill="#999" font-size="9">n/a</text>\n'
                           % (left + label_w + 3, by + bar_h - 2))
                continue
            v = bar(t, c)
            out.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s %s</title></rect>\n'
                       % (left + label_w, by, v / maxv * plot_w, bar_h - 2, PALETTE[i % 10], esc(c),
                          fmt_num(run.shown(t, run.med(t, c))), unit_label(t["unit"])))
            out.append('<text x="%.1f" y="%d" font-size="9" fill="#333">%s</text>\n'
                       % (left + label_w + v / maxv * plot_w + 3, by + bar_h - 3, fmt_num(v)))
        y += row_h
    y += 14
    for i, c in enumerate(run.doc["contenders"]):
        x, ly = left + label_w + (i % 4) * 140, y + (i // 4) * 18
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>\n' % (x, ly - 10, PALETTE[i % 10]))
        out.append('<text x="%d" y="%d">%s %s</text>\n' % (x + 17, ly, esc(c["name"]), c["version"]))
    out.append("</svg>\n")
    return "".join(out)

def charts(run):
    """(file suffix, title, group, op, relative) of every chart."""
    for g in GROUPS:
        if g != "corpus":
            yield "-%s.svg" % g, TITLES[g], g, None, True
    for op in CORPUS_OPS:
        yield "-corpus-%s.svg" % op.replace("parse+", ""), "Corpus: %s, MB/s per file" % op, "corpus", op, False

def render(json_path, out_dir):
    with open(json_path, encoding="utf-8") as f:
        run = Run(json.load(f))
    prefix = os.path.basename(json_path)[:-len(".json")]
    outputs = [(suffix, write_svg(run, *chart)) for suffix, *chart in charts(run)]
    outputs.append((".md", write_md(run, prefix)))
    for suffix, text in outputs:
        if text:
            path = os.path.join(out_dir, prefix + suffix)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            print("%s %s" % ("report: " if suffix == ".md" else "chart:  ", path))

def main(argv):
    if len(argv) not in (2, 3) or not argv[1].endswith(".json"):
        sys.stderr.write(__doc__)
        return 2
    render(argv[1], argv[2] if len(argv) == 3 else os.path.dirname(argv[1]) or ".")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
