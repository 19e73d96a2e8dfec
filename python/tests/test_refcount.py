"""Reference counting and memory: 100k calls of each entry point leave no
references and no Python memory behind (sys.getrefcount, tracemalloc)."""
import dataclasses
import decimal
import gc
import sys
import tracemalloc
import unittest
import uuid

import tyjson

CALLS = 100_000


@dataclasses.dataclass
class Rec:
    id: int
    name: str


DOC = '{"id": 12345678901234567890123, "name": "x\u00e9", "vals": [1, 2.5, true, null], "o": {"k": "v"}}'
OBJ = {"id": 2**70, "name": "x\u00e9", "vals": [1, 2.5, True, None], "rec": Rec(1, "r"),
       "d": decimal.Decimal("1.5"), "u": uuid.UUID(int=7), 3: "int key"}


# 20 records, each with a string of every width, big and small numbers
LINES = b"".join(b'{"id": %d, "name": "x\\u00e9\\u4e2d%d", "s": "\\ud83d\\ude00\\u00ff", "vals": [1, 2.5, true, null, %d],'
                 b' "o": {"k": "v", "big": 123456789012345678901234567890}}\n' % (i, i, 2**64 - i)
                 for i in range(20))


def held(n, fn):
    """Python-allocated bytes still held after n calls of fn (after a warm-up)."""
    for _ in range(1000):
        fn()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(n):
        fn()
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return after - before


@dataclasses.dataclass
class Pt:
    x: int
    tags: list[str]
    w: float = 0.0


TYPED_DOC = '[{"x": 1, "tags": ["a", "b\u00e9"], "w": 2}, {"x": 12345678901234567890123, "tags": []}]'


def fail_decode():
    try:
        tyjson.decode('[{"x": 1, "tags": ["a", 7]}]', type=list[Pt])
    except tyjson.ValidationError:
        pass


def fail_loads():
    try:
        tyjson.loads(b'{"a": [1, 2, x]}')
    except tyjson.JSONDecodeError:
        pass


def fail_dumps():
    try:
        tyjson.dumps([1, {"a": object()}])
    except TypeError:
        pass


class TestNoLeaks(unittest.TestCase):
    def check(self, fn):
        # 100k calls; a leak of one small object per call would be > 1 MB
        self.assertLess(held(CALLS, fn), 64 * 1024)

    def test_loads(self):
        self.check(lambda: tyjson.loads(DOC))

    def test_loads_bytes(self):
        self.check(lambda: tyjson.loads(DOC.encode()))

    def test_loads_error(self):
        self.check(fail_loads)

    def test_dumps(self):
        self.check(lambda: tyjson.dumps(OBJ))

    def test_dumps_str_options(self):
        self.check(lambda: tyjson.dumps_str(OBJ, indent=2, default=str))

    def test_dumps_error(self):
        self.check(fail_dumps)

    def test_validate(self):
        self.check(lambda: tyjson.validate(DOC))

    def test_decode(self):
        self.check(lambda: tyjson.decode(TYPED_DOC, type=list[Pt]))

    def test_decode_error(self):
        self.check(fail_decode)

    def test_decode_repeated_key_retry(self):
        # a failure inside an object that repeats a key is redone over
        # loads' value (python/src/typed.c): both walks release everything
        self.check(lambda: tyjson.decode('[{"x": "bad", "x": 1, "tags": ["a"]}]', type=list[Pt]))

    def test_decoder_for_python_values(self):
        from tyjson import _typed
        conv = _typed.decoder_for(list[Pt])
        val = tyjson.loads(TYPED_DOC)
        self.check(lambda: conv(val))

    def test_typed_refcounts(self):
        from tyjson import _typed
        src = TYPED_DOC.encode()
        val = tyjson.loads(TYPED_DOC)
        conv = _typed.decoder_for(list[Pt])
        before = [sys.getrefcount(x) for x in (src, val, val[0], val[0]["tags"], Pt)]
        for _ in range(CALLS // 10):
            tyjson.decode(src, type=list[Pt])
            conv(val)
            fail_decode()
        after = [sys.getrefcount(x) for x in (src, val, val[0], val[0]["tags"], Pt)]
        self.assertEqual(before, after)
        r = tyjson.decode(src, type=list[Pt])
        self.assertEqual(sys.getrefcount(r), 2)
        self.assertEqual(sys.getrefcount(r[0]), 2)

    def test_refcounts_of_arguments(self):
        src = DOC.encode()
        # built at run time: not an interned string that other code shares
        key = "".join(["refcount", "-key"])
        inner = [1, 2]
        obj = {key: inner, "r": Rec(1, key)}
        hook = str
        before = [sys.getrefcount(x) for x in (src, key, inner, obj, hook)]
        for _ in range(CALLS):
            tyjson.loads(src)
            tyjson.dumps(obj, default=hook)
            tyjson.dumps(obj, sort_keys=False)
        after = [sys.getrefcount(x) for x in (src, key, inner, obj, hook)]
        self.assertEqual(before, after)

    def test_iter_lines(self):
        # both conversion paths: one thread, and the workers' flat form
        for threads in (1, 2):
            with self.subTest(threads=threads):
                self.assertLess(held(2000, lambda: list(tyjson.iter_lines(LINES, threads=threads))), 64 * 1024)

    def test_iter_lines_error(self):
        def fail_lines():
            try:
                list(tyjson.iter_lines(LINES + b"[1,\n" + LINES, threads=2))
            except tyjson.JSONDecodeError:
                pass
        self.assertLess(held(2000, fail_lines), 64 * 1024)

    def test_iter_lines_result_refcounts(self):
        for threads in (1, 2):
            recs = list(tyjson.iter_lines(LINES, threads=threads))
            self.assertEqual(sys.getrefcount(recs[0]), 2)
            self.assertEqual(sys.getrefcount(recs[0]["vals"]), 2)
            self.assertEqual(sys.getrefcount(recs[0]["name"]), 2)

    def test_result_refcounts(self):
        r = tyjson.loads(DOC)
        # one reference: ours (getrefcount adds its argument's)
        self.assertEqual(sys.getrefcount(r), 2)
        self.assertEqual(sys.getrefcount(r["vals"]), 2)
        b = tyjson.dumps(OBJ)
        self.assertEqual(sys.getrefcount(b), 2)


if __name__ == "__main__":
    unittest.main()
