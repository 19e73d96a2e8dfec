"""iter_lines: records in order from bytes, paths and files, on 1 and 2
threads; bad lines raise with their line number; early close stops."""
import io
import json
import os
import tempfile
import sys
import threading
import unittest

import tyjson

RECORDS = [{"id": i, "name": "n%d" % i, "tags": ["a", "b"][: i % 3], "big": 2**65 + i} for i in range(5000)]
DATA = b"".join(json.dumps(r).encode() + b"\n" for r in RECORDS)


class TestIterLines(unittest.TestCase):
    def test_bytes_in_order(self):
        for threads in (1, 2, 3):
            with self.subTest(threads=threads):
                self.assertEqual(list(tyjson.iter_lines(DATA, threads=threads, batch=100)), RECORDS)

    def test_records_share_their_keys(self):
        # one key cache for the whole run: every record's "name" key is the
        # same str object (memory for a million records holds each key once)
        recs = list(tyjson.iter_lines(DATA, threads=2, batch=100))
        first = [k for k in recs[0] if k == "name"][0]
        self.assertTrue(all([k for k in r if k == "name"][0] is first for r in recs))

    def test_sources(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "r.ndjson")
            with open(p, "wb") as f:
                f.write(DATA)
            self.assertEqual(list(tyjson.iter_lines(p, threads=2)), RECORDS)
            import pathlib
            self.assertEqual(list(tyjson.iter_lines(pathlib.Path(p))), RECORDS)
            with open(p, "rb") as f:
                self.assertEqual(list(tyjson.iter_lines(f, threads=2)), RECORDS)
        self.assertEqual(list(tyjson.iter_lines(io.BytesIO(DATA))), RECORDS)
        self.assertEqual(list(tyjson.iter_lines(memoryview(DATA), threads=2)), RECORDS)
        with self.assertRaises(FileNotFoundError):
            list(tyjson.iter_lines("/nonexistent/x.ndjson"))
        with self.assertRaises(TypeError):
            list(tyjson.iter_lines(io.StringIO("1\n")))
        with self.assertRaises(ValueError):
            list(tyjson.iter_lines(b"1\n", threads=0))

    def test_blank_lines_crlf_no_final_newline(self):
        self.assertEqual(list(tyjson.iter_lines(b'1\r\n\n  \n{"a":2}\r\n[3]')), [1, {"a": 2}, [3]])
        self.assertEqual(list(tyjson.iter_lines(b"")), [])

    def test_bad_line(self):
        for threads in (1, 2):
            got = []
            src = b'1\n2\n\n[x\n4\n'
            with self.assertRaises(tyjson.JSONDecodeError) as cm:
                for r in tyjson.iter_lines(src, threads=threads):
                    got.append(r)
            e = cm.exception
            self.assertEqual(got, [1, 2])
            self.assertEqual((e.lineno, e.colno, e.pos), (4, 2, 6))
            self.assertEqual(e.doc, b"[x")

    def test_nan_option(self):
        with self.assertRaises(tyjson.JSONDecodeError):
            list(tyjson.iter_lines(b"NaN\n"))
        self.assertEqual(repr(list(tyjson.iter_lines(b"NaN\n", allow_nan=True))), "[nan]")

    def test_early_close_stops_reader(self):
        g = tyjson.iter_lines(DATA * 10, threads=2, batch=10)
        self.assertEqual(next(g), RECORDS[0])
        self.assertTrue(any(t.name == "tyjson-iter-lines" for t in threading.enumerate()))
        g.close()
        self.assertFalse(any(t.name == "tyjson-iter-lines" for t in threading.enumerate()))

    def test_file_read_error(self):
        class Bad(io.RawIOBase):
            def readinto(self, b):
                raise OSError("disk on fire")
        with self.assertRaises(OSError) as cm:
            list(tyjson.iter_lines(Bad()))
        self.assertIn("disk on fire", str(cm.exception))



# Every kind of value the workers' flat form carries (python/src/flat.c),
# as escapes and as raw UTF-8, checked against json.loads line by line on
# both paths: threads=1 converts the documents directly, threads>1 through
# the flat form made on the workers.
KINDS = [
    "", "a", "ascii only, longer than eight bytes", "\u00e9", "caf\u00e9", "\u00ff\u00e0 latin-1 \u00a0",
    "\u4e2d", "\u4e2d\u6587 text \u00e9", "\u0100", "\uffff", "\ue000", "\U0001f600", "a\U0001f600b\u4e2d\u00e9",
    "\U0010ffff", "x" * 100 + "\u00e9" * 50 + "\u4e2d" * 30 + "\U0001f600" * 7,
    "esc \" \\ / \b \f \n \r \t \u0001 \u001f",
]
NUMS = [0, 1, -1, 255, 256, -5, -6, 2**31, 2**53 + 1, 2**63 - 1, -2**63, 2**63, 2**64 - 1, 2**64, -2**63 - 1,
        2**200, -(2**200), 0.0, -0.0, 0.1, 1.5e300, -2.5e-300, 5e-324, 1.7976931348623157e308]


def flat_records():
    recs = []
    for i, s in enumerate(KINDS):
        recs.append({"s": s, s: i, "list": [s, s[::-1]], "nested": {"k": {"k2": [[s], {"deep": s}]}}})
    recs.append({"nums": NUMS, "lit": [True, False, None], "empty": [{}, [], ""]})
    recs.append([[[[[[[[1]]]]]]], {"a": {"b": {"c": {"d": [None]}}}}])
    recs.append(["top", "level", 1, 2.5])
    recs.append("just a string \u00e9\u4e2d")
    recs.append(2**100)
    recs.append(None)
    # keys: longer than the key cache holds, not ASCII, repeated (the last wins)
    recs.append({"k" * 41: 1, "k" * 40: 2, "\u00e9\u00e9": 3, "\u4e2d": 4, "\U0001f600": 5, "": 6})
    recs.append({("key%d" % j): j for j in range(100)})  # a dict made at its size at once
    return recs


FLAT = flat_records()


class TestConversions(unittest.TestCase):
    def lines_of(self, recs, ensure_ascii):
        return b"".join(json.dumps(r, ensure_ascii=ensure_ascii).encode() + b"\n" for r in recs)

    def test_every_kind_on_both_paths(self):
        for ensure_ascii in (True, False):
            data = self.lines_of(FLAT, ensure_ascii)
            want = [json.loads(l) for l in data.splitlines()]
            self.assertEqual(want, FLAT)
            for threads in (1, 2, 3):
                with self.subTest(ensure_ascii=ensure_ascii, threads=threads):
                    got = list(tyjson.iter_lines(data, threads=threads, batch=7))
                    self.assertEqual(got, want)
                    # the same types too: ints stay ints, floats floats (== says 1 == 1.0)
                    self.assertEqual(repr(got), repr(want))

    def test_strings_are_canonical(self):
        # a str made from its code points must be what Python makes itself:
        # the narrowest kind, equal hash, usable as a dict key for the same text
        data = self.lines_of([[s] for s in KINDS], False)
        for threads in (1, 2):
            for (s,), want in zip(tyjson.iter_lines(data, threads=threads), KINDS):
                self.assertEqual(s, want)
                self.assertEqual(hash(s), hash(want))
                self.assertEqual(len(s), len(want))
                self.assertEqual(sys.getsizeof(s), sys.getsizeof(want))
                self.assertIn(s, {want: 1})

    def test_raw_numbers(self):
        data = b'[1e400, -1e400, 123456789012345678901234567890, -98765432109876543210, 1.5]\n'
        for threads in (1, 2):
            (got,) = list(tyjson.iter_lines(data, threads=threads))
            self.assertEqual(got, [float("inf"), float("-inf"), 123456789012345678901234567890,
                                   -98765432109876543210, 1.5])
            self.assertIsInstance(got[2], int)

    def test_many_records_share_keys_on_workers(self):
        # enough records for several batches on each worker; the key cache
        # serves keys across batches and records
        recs = [{"user": {"screen_name": "u%d" % (i % 7), "profile_background_image_url_https": "h\u00e9",
                          "followers": i}, "text": "t\u4e2d%d" % i, "id": 2**63 + i} for i in range(20000)]
        data = self.lines_of(recs, False)
        got = list(tyjson.iter_lines(data, threads=2))
        self.assertEqual(got, recs)
        first = [k for k in got[0]["user"] if k == "screen_name"][0]
        self.assertTrue(all([k for k in r["user"] if k == "screen_name"][0] is first for r in got))

    def test_deep_nesting(self):
        depth = 900
        data = b"[" * depth + b"]" * depth + b"\n"
        for threads in (1, 2):
            (got,) = list(tyjson.iter_lines(data, threads=threads))
            for _ in range(depth - 1):
                self.assertEqual(len(got), 1)
                got = got[0]
            self.assertEqual(got, [])

    def test_bad_line_after_flat_records(self):
        data = self.lines_of(FLAT, False) + b'{"x": [1, 2,]}\n' + self.lines_of(FLAT, True)
        got = []
        with self.assertRaises(tyjson.JSONDecodeError) as cm:
            for r in tyjson.iter_lines(data, threads=2, batch=3):
                got.append(r)
        self.assertEqual(got, FLAT)
        self.assertEqual(cm.exception.lineno, len(FLAT) + 1)

if __name__ == "__main__":
    unittest.main()
