"""iter_lines: records in order from bytes, paths and files, on 1 and 2
threads; bad lines raise with their line number; early close stops."""
import io
import json
import os
import tempfile
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


if __name__ == "__main__":
    unittest.main()
