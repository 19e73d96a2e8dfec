"""The Python part of the benchmark: tyjson against json, ujson, simplejson
(and orjson / pydantic when importable) in one process, interleaved,
best of N rounds; ratios in one report.

    python3 python/bench/bench_python.py [--shared DIR] [--rounds N] [--results DIR]

Needs tyjson importable (PYTHONPATH=<build>/python, as bench/run.sh sets).
"""
import argparse
import dataclasses
import datetime
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import tyjson  # noqa: E402
from test_typed import _Shape, build  # noqa: E402  (shape inference of the typed tests)


def peers():
    have, missing = {}, []
    for name in ("ujson", "simplejson", "orjson"):
        try:
            have[name] = __import__(name)
        except ImportError:
            missing.append(name)
    return have, missing


def best(fn, rounds, budget=0.05):
    """Best time of one call over `rounds` rounds of repeated calls."""
    n = 1
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    if one < budget:
        n = max(1, int(budget / max(one, 1e-7)))
    out = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        out = min(out, (time.perf_counter() - t0) / n)
    return out


def bench_many(fns, rounds):
    """Interleaved: each round runs every contender once, so load changes
    hit all alike."""
    res = {k: float("inf") for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            res[k] = min(res[k], best(fn, 1))
    return res


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "..", "shared"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--results", default=None)
    a = ap.parse_args()
    have, missing = peers()
    lines = ["# tyjson Python benchmark", "",
             "Python %s; peers present: json, %s; absent (skipped): %s; pydantic: %s." % (
                 sys.version.split()[0], ", ".join(have) or "-", ", ".join(missing) or "-",
                 "present" if _has("pydantic") else "absent (skipped)"),
             "Times are best of %d interleaved rounds; ratio = peer time / tyjson time (>1: tyjson faster)." % a.rounds, ""]

    files = []
    for d in ("corpus",):
        p = os.path.join(a.shared, d)
        files += [os.path.join(p, n) for n in sorted(os.listdir(p)) if n.endswith(".json")]
    files.append(os.path.join(a.shared, "scenarios", "photoalbum", "photo_album_200.json"))
    for n in ("small", "medium", "large"):
        files.append(os.path.join(a.shared, "scenarios", "kudos", n + ".json"))

    ratios = {"loads": {}, "dumps": {}}
    for op in ("loads", "dumps"):
        names = ["json"] + list(have)
        lines += ["## %s" % op, "", "| file | tyjson µs | " + " | ".join("%s ×" % n for n in names) + " |",
                  "|---|---:|" + "---:|" * len(names)]
        for p in files:
            data = open(p, "rb").read()
            obj = json.loads(data)
            if op == "loads":
                fns = {"tyjson": lambda: tyjson.loads(data), "json": lambda: json.loads(data)}
                for n, m in have.items():
                    fns[n] = (lambda m=m: m.loads(data))
            else:
                fns = {"tyjson": lambda: tyjson.dumps(obj), "json": lambda: json.dumps(obj)}
                for n, m in have.items():
                    fns[n] = (lambda m=m: m.dumps(obj))
            t = bench_many(fns, a.rounds)
            row = "| %s | %.1f |" % (os.path.basename(os.path.dirname(p)) + "/" + os.path.basename(p) if "scenarios" in p else os.path.basename(p), t["tyjson"] * 1e6)
            for n in names:
                r = t[n] / t["tyjson"]
                ratios[op].setdefault(n, []).append(r)
                row += " %.2f |" % r
            lines.append(row)
        lines.append("| **geo-mean** | |" + "".join(" **%.2f** |" % geomean(ratios[op][n]) for n in names))
        lines.append("")

    # typed decoding: tyjson.decode vs json.loads + building the dataclasses,
    # and pydantic when importable (v2: TypeAdapter.validate_json, the
    # issue's reference; v1, what Debian 12 packages: parse_raw_as, which
    # ignores fields starting with "_" and so does less work than we do)
    pyd = _pydantic_route()
    lines += ["## typed decode (into dataclasses)", ""]
    if pyd:
        lines += ["pydantic %s route: `%s`." % (pyd[0], pyd[1]), ""]
    lines += ["| file | tyjson.decode µs | json.loads+construct × |" + (" pydantic ×|" if pyd else ""),
              "|---|---:|---:|" + ("---:|" if pyd else "")]
    for p in files[-4:]:
        data = open(p, "rb").read()
        raw = json.loads(data)
        t_ = _Shape().infer(raw)
        fns = {"tyjson": lambda: tyjson.decode(data, type=t_), "json": lambda: build(t_, json.loads(data))}
        if pyd:
            fns["pydantic"] = pyd[2](t_, data)
        tm = bench_many(fns, a.rounds)
        row = "| %s | %.1f | %.2f |" % (os.path.basename(p), tm["tyjson"] * 1e6, tm["json"] / tm["tyjson"])
        if pyd:
            row += " %.2f |" % (tm["pydantic"] / tm["tyjson"])
        lines.append(row)
    lines.append("")

    # iter_lines on 2 threads against 1
    recs = json.load(open(os.path.join(a.shared, "corpus", "twitter.json"), "rb"))["statuses"]
    nd = b"".join(json.dumps(r).encode() + b"\n" for r in recs) * 40
    tm = bench_many({"1": lambda: sum(1 for _ in tyjson.iter_lines(nd, threads=1)),
                     "2": lambda: sum(1 for _ in tyjson.iter_lines(nd, threads=2)),
                     "json": lambda: [json.loads(l) for l in nd.splitlines()]}, a.rounds)
    lines += ["## iter_lines (%.1f MB of twitter statuses)" % (len(nd) / 1e6), "",
              "| threads=1 ms | threads=2 ms | 2 vs 1 × | json.loads per line × (vs threads=1) |", "|---:|---:|---:|---:|",
              "| %.1f | %.1f | %.2f | %.2f |" % (tm["1"] * 1e3, tm["2"] * 1e3, tm["1"] / tm["2"], tm["json"] / tm["1"]), ""]
    text = "\n".join(lines)
    print(text)
    if a.results:
        os.makedirs(a.results, exist_ok=True)
        stamp = datetime.datetime.utcnow().strftime("%Y%m%d-%H%M%S")
        with open(os.path.join(a.results, "python-bench-%s.md" % stamp), "w") as f:
            f.write(text + "\n")


def _pydantic_route():
    """(version, call, make) for pydantic's typed JSON decode, or None;
    make(type, data) gives the function timed."""
    try:
        import warnings
        import pydantic
    except ImportError:
        return None
    ver = getattr(pydantic, "VERSION", "?")
    if str(ver).startswith("1."):
        def make(t, data):
            with warnings.catch_warnings():  # v1 warns about "_" fields, once per type
                warnings.simplefilter("ignore")
                pydantic.parse_raw_as(t, data)
            return lambda: pydantic.parse_raw_as(t, data)
        return (str(ver), "parse_raw_as(T, data)", make)

    def make(t, data):
        ta = pydantic.TypeAdapter(t)
        return lambda: ta.validate_json(data)
    return (str(ver), "TypeAdapter(T).validate_json(data)", make)


def _has(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


if __name__ == "__main__":
    main()
