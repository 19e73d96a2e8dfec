"""loads/dumps/dumps_str: the json module's semantics, the native types,
the options and the errors."""
import dataclasses
import datetime
import decimal
import enum
import gc
import json
import math
import pickle
import unittest
import uuid

import tyjson


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class MyStr(str):
    pass


class MyInt(int):
    pass


class MyFloat(float):
    pass


class MyDict(dict):
    pass


@dataclasses.dataclass
class Point:
    x: int
    y: float
    tag: str = "p"


@dataclasses.dataclass
class Shape:
    name: str
    points: list


class TestLoads(unittest.TestCase):
    def test_values(self):
        doc = '{"a": [1, -2, 2.5, "x", true, false, null], "b": {}, "c": []}'
        self.assertEqual(tyjson.loads(doc), json.loads(doc))

    def test_input_kinds(self):
        for src in ('[1, "\u00e9"]', '[1, "\u00e9"]'.encode(), bytearray('[1, "\u00e9"]'.encode()),
                    memoryview('[1, "\u00e9"]'.encode())):
            self.assertEqual(tyjson.loads(src), [1, "\u00e9"])
        self.assertEqual(tyjson.loads(MyStr("[1]")), [1])
        with self.assertRaises(TypeError):
            tyjson.loads(12)

    def test_big_ints_exact(self):
        for n in (2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63, -2**63 - 1, 10**40, -10**40):
            self.assertEqual(tyjson.loads(str(n)), n)
            self.assertIs(type(tyjson.loads(str(n))), int)
            self.assertEqual(tyjson.dumps(n), str(n).encode())
            self.assertEqual(tyjson.loads(tyjson.dumps([n])), [n])

    def test_floats(self):
        for f in (0.1, 1e300, -0.0, 5e-324, 1.7976931348623157e308, 123.456, 50.0):
            out = tyjson.loads(tyjson.dumps(f))
            self.assertEqual(out, f)
            self.assertEqual(math.copysign(1, out), math.copysign(1, f))
        self.assertEqual(tyjson.dumps(0.1), b"0.1")
        self.assertEqual(tyjson.dumps(50.0), b"50.0")
        self.assertEqual(tyjson.loads("1e400"), float("inf"))  # as json.loads
        self.assertEqual(tyjson.loads("-1e400"), float("-inf"))
        self.assertIs(type(tyjson.loads("1.0")), float)

    def test_nan_only_by_option(self):
        for text in ("NaN", "Infinity", "-Infinity"):
            with self.assertRaises(tyjson.JSONDecodeError):
                tyjson.loads(text)
            self.assertEqual(repr(tyjson.loads(text, allow_nan=True)), repr(json.loads(text)))
        for f in (float("nan"), float("inf"), float("-inf")):
            with self.assertRaises(ValueError):
                tyjson.dumps(f)
            self.assertEqual(tyjson.dumps_str(f, allow_nan=True), json.dumps(f))

    def test_repeated_keys(self):
        # many distinct keys (more than the key cache's slots, colliding),
        # long and non-ASCII ones, repeated across records
        keys = ["k%d" % i for i in range(500)] + ["x" * 40, "\u00e9t\u00e9", "", "a\u0000b"]
        recs = [{k: i for k in keys} for i in range(3)]
        text = json.dumps(recs)
        self.assertEqual(tyjson.loads(text), recs)
        got = tyjson.loads('[{"name": 1}, {"name": 2}]')
        # a short key repeated in one call is one str object
        self.assertIs(next(iter(got[0])), next(iter(got[1])))

    def test_duplicate_key_last_wins(self):
        self.assertEqual(tyjson.loads('{"a": 1, "a": 2}'), {"a": 2})

    def test_lone_surrogate_escape_refused(self):
        # unlike json (which returns a str holding a lone surrogate), a lone
        # surrogate escape is an error, as in the C library
        with self.assertRaises(tyjson.JSONDecodeError) as cm:
            tyjson.loads('["\\ud800"]')
        self.assertIn("low surrogate", cm.exception.msg)

    def test_relaxed_options(self):
        self.assertEqual(tyjson.loads("[1, // one\n 2,]", allow_comments=True, allow_trailing_commas=True), [1, 2])
        with self.assertRaises(tyjson.JSONDecodeError):
            tyjson.loads("[1,]")

    def test_validate(self):
        self.assertTrue(tyjson.validate(b"[1]"))
        self.assertFalse(tyjson.validate(b"[1"))
        self.assertFalse(tyjson.validate("NaN"))
        self.assertTrue(tyjson.validate("NaN", allow_nan=True))


    def test_collector_paused_while_converting(self):
        # 30,000 lists: the collector would start about 40 times while they
        # are made; loads pauses it and leaves its state as it found it
        text = b"[" + b",".join(b'[1,{"a":[2]}]' for _ in range(10000)) + b"]"
        starts = []
        cb = lambda phase, info: starts.append(phase) if phase == "start" else None
        gc.collect()
        gc.callbacks.append(cb)
        try:
            doc = tyjson.loads(text)
        finally:
            gc.callbacks.remove(cb)
        self.assertEqual(len(doc), 10000)
        self.assertEqual(doc[9999], [1, {"a": [2]}])
        self.assertEqual(starts, [])
        self.assertTrue(gc.isenabled())
        gc.disable()
        try:
            tyjson.loads(text)
            self.assertFalse(gc.isenabled())
        finally:
            gc.enable()
        # a document that fails to convert (an int too long for Python's
        # limit, where it has one) also leaves the collector enabled
        try:
            tyjson.loads(b"[" + b"1" * 5000 + b"]")
        except ValueError:
            pass
        self.assertTrue(gc.isenabled())


class TestErrors(unittest.TestCase):
    def err(self, src):
        with self.assertRaises(tyjson.JSONDecodeError) as cm:
            tyjson.loads(src)
        return cm.exception

    def test_attributes(self):
        e = self.err('[1,\n 2 x]')
        self.assertIsInstance(e, ValueError)
        self.assertEqual((e.pos, e.lineno, e.colno), (7, 2, 4))
        self.assertEqual(e.code, "E_UNEXPECTED_CHAR")
        self.assertIn("found 'x'", e.msg)
        self.assertEqual(str(e), "%s: line 2 column 4 (char 7)" % e.msg)
        self.assertEqual(e.doc, '[1,\n 2 x]')

    def test_pos_counts_characters_for_str(self):
        src = '["\u00e9\u00e9\u20ac", x]'
        e = self.err(src)
        self.assertEqual(src[e.pos], "x")
        self.assertEqual(e.colno, e.pos + 1)
        eb = self.err(src.encode())
        self.assertEqual(src.encode()[eb.pos:eb.pos + 1], b"x")
        self.assertEqual(eb.pos, e.pos + 4)  # 2 + 3 bytes for 3 characters

    def test_same_place_as_json(self):
        for src in ('{"a": 1,}', '[1, 2', 'tru', '{"a" 1}', '\n\n  [1 2]'):
            e = self.err(src)
            with self.assertRaises(json.JSONDecodeError) as cm:
                json.loads(src)
            j = cm.exception
            self.assertLessEqual(abs(e.pos - j.pos), 1, src)
            self.assertEqual(e.lineno, j.lineno, src)

    def test_empty(self):
        e = self.err("")
        self.assertEqual((e.pos, e.lineno, e.colno), (0, 1, 1))

    def test_pickles(self):
        e = self.err("[")
        e2 = pickle.loads(pickle.dumps(e))
        self.assertEqual((e2.msg, e2.pos, e2.lineno, e2.colno, e2.code), (e.msg, e.pos, e.lineno, e.colno, e.code))


class TestDumps(unittest.TestCase):
    def same(self, obj, **kw):
        self.assertEqual(json.loads(tyjson.dumps(obj, **kw)), json.loads(json.dumps(obj, **kw)))

    def test_basic(self):
        self.assertEqual(tyjson.dumps({"a": [1, 2.5, True, None, "x"]}), b'{"a":[1,2.5,true,null,"x"]}')
        self.assertEqual(tyjson.dumps_str([1, "\u00e9"]), '[1,"\u00e9"]')
        self.assertIsInstance(tyjson.dumps(1), bytes)
        self.assertIsInstance(tyjson.dumps_str(1), str)
        self.assertEqual(tyjson.dumps((1, 2)), b"[1,2]")
        self.assertEqual(tyjson.dumps('a"\n\u0001'), json.dumps('a"\n\u0001').encode())

    def test_ensure_ascii(self):
        self.assertEqual(tyjson.dumps_str("\u00e9\U0001F600", ensure_ascii=True), json.dumps("\u00e9\U0001F600"))

    def test_key_rules(self):
        d = {"s": 1, 2: 2, 1.5: 3, True: 4, None: 5, False: 6}
        self.assertEqual(tyjson.loads(tyjson.dumps(d)), json.loads(json.dumps(d)))
        with self.assertRaises(TypeError):
            tyjson.dumps({(1, 2): 1})
        self.assertEqual(tyjson.dumps({(1, 2): 1, "a": 2}, skipkeys=True), b'{"a":2}')
        self.assertEqual(tyjson.dumps({MyStr("k"): 1, Level.HIGH: 2}), b'{"k":1,"3":2}')
        self.assertEqual(tyjson.dumps({2**70: 1}), b'{"%d":1}' % 2**70)

    def test_subclasses(self):
        self.assertEqual(tyjson.dumps([MyStr("a"), MyInt(5), MyFloat(1.5), MyDict(a=1)]), b'["a",5,1.5,{"a":1}]')

    def test_sort_keys_and_indent(self):
        d = {"b": 1, "a": {"d": [1, 2], "c": None}}
        self.assertEqual(tyjson.dumps_str(d, sort_keys=True, indent=4), json.dumps(d, sort_keys=True, indent=4))
        self.assertEqual(tyjson.dumps(d, sort_keys=True), b'{"a":{"c":null,"d":[1,2]},"b":1}')
        with self.assertRaises(TypeError):
            tyjson.dumps({"a": 1, 2: 1}, sort_keys=True)  # as json: keys must compare
        with self.assertRaises(ValueError):
            tyjson.dumps(d, indent=0)

    def test_native_types(self):
        u = uuid.UUID("12345678-1234-5678-1234-567812345678")
        obj = {
            "dt": datetime.datetime(2024, 5, 6, 7, 8, 9, 123000, tzinfo=datetime.timezone.utc),
            "d": datetime.date(2024, 5, 6),
            "t": datetime.time(7, 8, 9),
            "u": u,
            "e": Color.RED,
            "ie": Level.HIGH,
            "dec": decimal.Decimal("12345678901234567890.000000000000000001"),
            "p": Point(1, 2.5),
        }
        self.assertEqual(tyjson.loads(tyjson.dumps(obj)), {
            "dt": "2024-05-06T07:08:09.123000+00:00",
            "d": "2024-05-06",
            "t": "07:08:09",
            "u": str(u),
            "e": "red",
            "ie": 3,
            "dec": 12345678901234567890.000000000000000001,
            "p": {"x": 1, "y": 2.5, "tag": "p"},
        })
        self.assertIn(b'"dec":12345678901234567890.000000000000000001', tyjson.dumps(obj))
        self.assertEqual(tyjson.dumps(Shape("s", [Point(0, 0.5, "a")])),
                         b'{"name":"s","points":[{"x":0,"y":0.5,"tag":"a"}]}')
        with self.assertRaises(TypeError):
            tyjson.dumps(Point)  # the class itself is not an instance

    def test_decimal_special(self):
        with self.assertRaises(ValueError):
            tyjson.dumps(decimal.Decimal("NaN"))
        self.assertEqual(tyjson.dumps(decimal.Decimal("-Infinity"), allow_nan=True), b"-Infinity")
        self.assertEqual(tyjson.dumps(decimal.Decimal("1E+2")), b"1E+2")

    def test_default_hook(self):
        class Thing:
            def __init__(self, v):
                self.v = v
        self.assertEqual(tyjson.dumps([Thing(3)], default=lambda o: {"v": o.v}), b'[{"v":3}]')
        with self.assertRaises(TypeError) as cm:
            tyjson.dumps(Thing(1))
        self.assertIn("Thing", str(cm.exception))
        self.assertIsInstance(cm.exception, tyjson.JSONEncodeError)
        with self.assertRaises(ZeroDivisionError):
            tyjson.dumps(Thing(1), default=lambda o: 1 / 0)
        with self.assertRaises(RecursionError):
            tyjson.dumps(Thing(1), default=lambda o: Thing(o))
        # a hook that itself calls dumps (the nested call gets its own writer)
        self.assertEqual(tyjson.dumps([Thing(2)], default=lambda o: tyjson.dumps_str(o.v)), b'["2"]')

    def test_circular(self):
        a = []
        a.append(a)
        with self.assertRaises(ValueError):
            tyjson.dumps(a)
        d = {}
        d["d"] = d
        with self.assertRaises(ValueError):
            tyjson.dumps(d)
        # the writer is usable again afterwards
        self.assertEqual(tyjson.dumps([1]), b"[1]")

    def test_lone_surrogate_refused(self):
        with self.assertRaises(UnicodeEncodeError):
            tyjson.dumps("\ud800")

    def test_same_as_json(self):
        self.same({"a": [1, {"b": [None, True, 1.25e-7, -3]}], "c": "\u2028 \x7f"})


if __name__ == "__main__":
    unittest.main()
