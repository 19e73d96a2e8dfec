"""decode/encode: every supported type, validation errors with JSON paths,
and every scenario file decoded into dataclasses equal to a reference
built from json.loads."""
import dataclasses
import datetime
import decimal
import enum
import json
import keyword
import os
import typing
import unittest

import shared
import tyjson


class Role(enum.Enum):
    ADMIN = "admin"
    USER = "user"


@dataclasses.dataclass
class Author:
    name: str
    age: int
    email: typing.Optional[str] = None


@dataclasses.dataclass
class Photo:
    id: int
    title: str
    author: Author
    taken: datetime.datetime
    day: datetime.date
    price: decimal.Decimal
    role: Role
    kind: typing.Literal["jpeg", "png"]
    tags: typing.List[str] = dataclasses.field(default_factory=list)
    extra: typing.Dict[str, float] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class Album:
    name: str
    photos: list[Photo]


class Point(typing.TypedDict):
    x: int
    y: int


class Opt(typing.TypedDict, total=False):
    z: int


def photo(i, **over):
    p = {"id": i, "title": "t%d" % i, "author": {"name": "a", "age": 30 + i},
         "taken": "2024-01-02T03:04:05+00:00", "day": "2024-01-02", "price": 12.5,
         "role": "user", "kind": "png", "tags": ["x"], "extra": {"w": 1}}
    p.update(over)
    return p


class TestDecode(unittest.TestCase):
    def test_album(self):
        doc = json.dumps({"name": "al", "photos": [photo(i) for i in range(20)]})
        al = tyjson.decode(doc, type=Album)
        self.assertEqual(len(al.photos), 20)
        p = al.photos[3]
        self.assertEqual(p.author, Author("a", 33))
        self.assertEqual(p.taken, datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc))
        self.assertEqual(p.day, datetime.date(2024, 1, 2))
        self.assertEqual(p.price, decimal.Decimal("12.5"))
        self.assertIs(p.role, Role.USER)
        self.assertEqual(p.extra, {"w": 1.0})
        self.assertIs(type(p.extra["w"]), float)
        # encode writes the same types back: a round trip
        self.assertEqual(tyjson.decode(tyjson.encode(al), type=Album), al)

    def error(self, doc, t, **kw):
        with self.assertRaises(tyjson.ValidationError) as cm:
            tyjson.decode(json.dumps(doc), type=t, **kw)
        return cm.exception

    def test_error_paths(self):
        photos = [photo(i) for i in range(20)]
        photos[17]["author"]["age"] = "old"
        e = self.error({"name": "al", "photos": photos}, Album)
        self.assertEqual(e.path, "$.photos[17].author.age")
        self.assertEqual(e.msg, "expected an integer, found string")
        self.assertEqual(str(e), "expected an integer, found string at $.photos[17].author.age")
        self.assertIsInstance(e, ValueError)
        photos[17] = photo(17)
        del photos[2]["author"]["name"]
        e = self.error({"name": "al", "photos": photos}, Album)
        self.assertEqual(e.path, "$.photos[2].author")
        self.assertIn("missing required field 'name'", e.msg)
        e = self.error({"a b": {"c": "x"}}, typing.Dict[str, typing.Dict[str, int]])
        self.assertEqual(e.path, '$["a b"].c')

    def test_scalar_checks(self):
        for doc, t in ((True, int), (1.5, int), (1, str), ("x", float), (None, int), (1, bool),
                       ("bad", datetime.date), ("2024-13-01", datetime.datetime), ("ADMIN", Role),
                       ("gif", typing.Literal["jpeg", "png"]), (True, typing.Literal[1]),
                       ([1], dict), ({}, list), ("x", decimal.Decimal)):
            with self.subTest(doc=doc, t=t):
                e = self.error(doc, t)
                self.assertEqual(e.path, "$")
        self.assertEqual(tyjson.decode("3", type=float), 3.0)
        self.assertEqual(tyjson.decode("null", type=typing.Optional[int]), None)
        self.assertEqual(tyjson.decode("[1, \"a\", null]", type=list[typing.Union[int, str, None]]), [1, "a", None])
        self.assertEqual(tyjson.decode("123456789012345678901234567890", type=decimal.Decimal),
                         decimal.Decimal("123456789012345678901234567890"))
        e = self.error([1, "a", 2.5], list[typing.Union[int, str]])
        self.assertEqual(e.path, "$[2]")
        self.assertIn("int or str", e.msg)

    def test_typeddict(self):
        self.assertEqual(tyjson.decode('{"x": 1, "y": 2, "q": 0}', type=Point), {"x": 1, "y": 2})
        self.assertIn("missing required field 'y'", self.error({"x": 1}, Point).msg)
        self.assertEqual(tyjson.decode("{}", type=Opt), {})

    def test_forbid_unknown(self):
        self.assertEqual(tyjson.decode('{"name": "n", "age": 1, "zz": 0}', type=Author), Author("n", 1))
        e = self.error({"name": "n", "age": 1, "zz": 0}, Author, forbid_unknown=True)
        self.assertIn("unknown key 'zz'", e.msg)

    def test_unsupported_type(self):
        with self.assertRaises(TypeError):
            tyjson.decode("{}", type=typing.Dict[int, int])
        with self.assertRaises(TypeError):
            tyjson.decode("1", type=complex)

    def test_invalid_json(self):
        with self.assertRaises(tyjson.JSONDecodeError):
            tyjson.decode("[1,", type=list[int])

    def test_iter_lines_typed(self):
        data = b"".join(json.dumps({"name": "n%d" % i, "age": i}).encode() + b"\n" for i in range(1000))
        got = list(tyjson.iter_lines(data, type=Author, threads=2))
        self.assertEqual(got, [Author("n%d" % i, i) for i in range(1000)])
        with self.assertRaises(tyjson.ValidationError) as cm:
            list(tyjson.iter_lines(b'{"name": "a", "age": 1}\n{"name": 2, "age": 1}\n', type=Author))
        self.assertEqual(cm.exception.path, "$.name")


# -- every scenario, into dataclasses inferred from its shape ---------------

def _ident(k):
    return k.isidentifier() and not keyword.iskeyword(k)


class _Shape:
    """Infers a type for a json.loads value: objects with identifier keys
    become dataclasses, others dict[str, Any]; arrays list[T] of the merged
    element type."""

    def __init__(self):
        self.n = 0

    def infer(self, v):
        if isinstance(v, bool):
            return bool
        if isinstance(v, int):
            return int
        if isinstance(v, float):
            return float
        if isinstance(v, str):
            return str
        if v is None:
            return type(None)
        if isinstance(v, list):
            if not v or any(self.infer_simple(e) != self.infer_simple(v[0]) for e in v):
                return list[typing.Any]
            return list[self.infer(v[0])]
        if v and all(_ident(k) for k in v):
            self.n += 1
            return dataclasses.make_dataclass("S%d" % self.n, [(k, self.infer(e)) for k, e in v.items()])
        return dict[str, typing.Any]

    def infer_simple(self, v):
        # two elements share a type when their JSON kinds and keys agree
        if isinstance(v, dict):
            return ("obj", tuple(v))
        if isinstance(v, list):
            return ("arr",)
        return type(v)


_HINTS = {}


def build(t, v):
    """The reference: the value built by hand from json.loads's result."""
    if dataclasses.is_dataclass(t):
        hints = _HINTS.get(t) or _HINTS.setdefault(t, typing.get_type_hints(t))
        return t(**{k: build(hints[k], e) for k, e in v.items()})
    if typing.get_origin(t) is list:
        (item,) = typing.get_args(t)
        return [build(item, e) for e in v]
    if t is float:
        return float(v)
    return v


class TestScenarios(unittest.TestCase):
    def test_every_scenario(self):
        files = shared.json_files("scenarios")
        self.assertGreater(len(files), 10)
        for p in files:
            with self.subTest(file=os.path.relpath(p, shared.DIR)):
                with open(p, "rb") as f:
                    data = f.read()
                ref_raw = json.loads(data)
                t = _Shape().infer(ref_raw)
                ref = build(t, ref_raw)
                self.assertEqual(tyjson.decode(data, type=t), ref)


if __name__ == "__main__":
    unittest.main()
