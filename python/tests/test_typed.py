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


# -- recursive types --------------------------------------------------------

@dataclasses.dataclass
class Node:
    value: int
    children: list["Node"] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Tree:
    name: str
    branches: list["Branch"]


@dataclasses.dataclass
class Branch:
    weight: float
    tree: typing.Optional[Tree] = None


class Cell(typing.TypedDict):
    head: int
    tail: typing.Optional["Cell"]


@dataclasses.dataclass
class Loose:
    value: int
    next: "Missing"  # noqa: F821 - never defined


def _chain(n):
    node = Node(n)
    for i in range(n - 1, -1, -1):
        node = Node(i, [node])
    return node


class TestRecursive(unittest.TestCase):
    def error(self, doc, t):
        with self.assertRaises(tyjson.ValidationError) as cm:
            tyjson.decode(json.dumps(doc), type=t)
        return cm.exception

    def test_self_referring_dataclass(self):
        doc = {"value": 1, "children": [{"value": 2}, {"value": 3, "children": [{"value": 4, "children": []}]}]}
        n = tyjson.decode(json.dumps(doc), type=Node)
        self.assertEqual(n, Node(1, [Node(2), Node(3, [Node(4)])]))
        self.assertEqual(tyjson.decode(tyjson.encode(n), type=Node), n)
        # 200 levels deep: the plan is one converter, not one per level
        deep = _chain(200)
        self.assertEqual(tyjson.decode(tyjson.encode(deep), type=Node), deep)
        # as deep as the parser accepts: 511 Nodes of an object and an array
        # each, 1022 levels, beyond Python's recursion limit
        text = '{"value": 1, "children": [' * 511 + '{"value": 0}' + ']}' * 511
        n, node = 0, tyjson.decode(text, type=Node)
        while node.children:
            n, node = n + 1, node.children[0]
        self.assertEqual(n, 511)
        self.assertEqual(tyjson.decode("[{\"value\": 5}]", type=list[Node]), [Node(5)])
        doc["children"][1]["children"][0]["value"] = "x"
        e = self.error(doc, Node)
        self.assertEqual(e.path, "$.children[1].children[0].value")
        self.assertEqual(e.msg, "expected an integer, found string")

    def test_the_plan_refers_to_itself(self):
        # compiling Node makes one converter that its children's list plan
        # calls: the cached list[Node] plan holds exactly Node's plan
        from tyjson import _typed
        plan = _typed._plan(Node)
        (item,) = _typed._plan(list[Node]).parts
        self.assertIs(item, plan)
        self.assertEqual(plan.kind, "fields")

    def test_mutual_recursion(self):
        doc = {"name": "oak", "branches": [{"weight": 1, "tree": {"name": "twig", "branches": []}},
                                           {"weight": 2.5}]}
        t = tyjson.decode(json.dumps(doc), type=Tree)
        self.assertEqual(t, Tree("oak", [Branch(1.0, Tree("twig", [])), Branch(2.5)]))
        self.assertEqual(tyjson.decode(tyjson.encode(t), type=Tree), t)
        # entering from the other class compiles the same cycle
        b = tyjson.decode('{"weight": 3, "tree": {"name": "x", "branches": [{"weight": 4}]}}', type=Branch)
        self.assertEqual(b, Branch(3.0, Tree("x", [Branch(4.0)])))
        doc["branches"][0]["tree"]["branches"] = [{"weight": "heavy"}]
        e = self.error(doc, Tree)
        self.assertEqual(e.path, "$.branches[0].tree.branches[0].weight")
        self.assertEqual(e.msg, "expected a number, found string")

    def test_recursive_typeddict(self):
        doc = {"head": 1, "tail": {"head": 2, "tail": {"head": 3, "tail": None}}}
        self.assertEqual(tyjson.decode(json.dumps(doc), type=Cell), doc)
        doc["tail"]["tail"]["tail"] = {"head": 4}
        e = self.error(doc, Cell)
        self.assertEqual(e.path, "$.tail.tail.tail")
        self.assertIn("missing required field 'tail' of Cell", e.msg)

    def test_local_self_reference(self):
        # a class defined in a function knows its own name in its annotations
        @dataclasses.dataclass
        class Local:
            v: int
            nxt: typing.Optional["Local"] = None
        got = tyjson.decode('{"v": 1, "nxt": {"v": 2, "nxt": null}}', type=Local)
        self.assertEqual(got, Local(1, Local(2)))

    def test_unresolvable_forward_reference(self):
        for _ in range(2):  # nothing half-built is cached by the failure
            with self.assertRaises(TypeError) as cm:
                tyjson.decode('{"value": 1}', type=Loose)
            self.assertIn("Missing", str(cm.exception))
        with self.assertRaises(TypeError):
            tyjson.decode("{}", type="Node")

    def test_failed_compile_leaves_no_plan(self):
        @dataclasses.dataclass
        class Bad:
            v: int
            kids: list["Bad"]
            z: complex
        for _ in range(2):
            with self.assertRaises(TypeError):
                tyjson.decode('{"v": 1, "kids": []}', type=list[Bad])
            with self.assertRaises(TypeError):
                tyjson.decode('{"v": 1, "kids": []}', type=Bad)
        from tyjson import _typed
        self.assertFalse(any(Bad in (k[0], *typing.get_args(k[0])) for k in _typed._PLANS))

    def test_threads_compile_concurrently(self):
        import threading

        @dataclasses.dataclass
        class A:
            b: list["B"]

        @dataclasses.dataclass
        class B:
            a: typing.Optional[A] = None
        # resolvable only from the module namespace of this test: publish them
        globals()["A"], globals()["B"] = A, B
        try:
            doc = '{"b": [{"a": {"b": []}}, {}]}'
            want = A([B(A([])), B()])
            out, errs = [], []

            def run():
                try:
                    out.append(tyjson.decode(doc, type=A))
                except Exception as e:  # pragma: no cover - reported below
                    errs.append(e)
            ts = [threading.Thread(target=run) for _ in range(8)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            self.assertEqual(errs, [])
            self.assertEqual(out, [want] * 8)
        finally:
            del globals()["A"], globals()["B"]

    def test_optional_reports_the_member_error(self):
        e = self.error({"name": "n", "age": 1, "email": 5}, Author)
        self.assertEqual(e.path, "$.email")
        self.assertEqual(e.msg, "expected a string, found integer")
        e = self.error({"weight": 1, "tree": {"name": "t", "branches": [{"weight": None}]}}, Branch)
        self.assertEqual(e.path, "$.tree.branches[0].weight")
        self.assertEqual(e.msg, "expected a number, found null")
        e = self.error([None, {"v": 1}], list[typing.Optional[Point]])
        self.assertEqual(e.path, "$[1]")
        self.assertIn("missing required field 'x' of Point", e.msg)
        e = self.error([1, "s"], list[int | None])
        self.assertEqual((e.path, e.msg), ("$[1]", "expected an integer, found string"))
        # a wider union keeps the summary of its members
        e = self.error([{}], list[typing.Union[int, str, None]])
        self.assertEqual(e.msg, "expected null or int or str, found object")


# -- every scenario, into dataclasses inferred from its shape ---------------

def _ident(k):
    return k.isidentifier() and not keyword.iskeyword(k)


@dataclasses.dataclass
class Pair:
    a: int
    b: float = 0.0


@dataclasses.dataclass
class Mixed:
    u: typing.Union[int, str, Pair]
    lit: typing.Literal["x", 2] = "x"
    d: typing.Dict[str, Pair] = dataclasses.field(default_factory=dict)
    many: typing.List[typing.Optional[Pair]] = dataclasses.field(default_factory=list)


class TestPlanOverDocument(unittest.TestCase):
    """decode runs the plan over the parsed document (python/src/typed.c);
    decoder_for runs the same plan over loads' values. Both must give the
    same value, or the same error, on every input."""

    DOCS = [
        # repeated keys: loads keeps the last value, so only it is checked
        ('{"a": "bad", "a": 1}', Pair),
        ('{"a": 1, "a": "bad"}', Pair),
        ('{"a": 1, "b": "x", "a": "y"}', Pair),
        ('{"a": 1, "b": 2, "a": 3}', Pair),
        ('{"a": 1, "zz": 1, "zz": 2}', Pair),
        ('[{"a": "bad", "a": 2}, {"a": 3}]', typing.List[Pair]),
        ('{"k": {"a": 1, "a": "no"}, "k": {"a": 2}}', typing.Dict[str, Pair]),
        ('{"k": {"a": 1}, "k": {"a": "no"}}', typing.Dict[str, Pair]),
        ('{"u": {"a": "x", "a": 5}}', Mixed),
        # numbers into float and int: exact, big, raw
        ('{"a": 1, "b": 9007199254740993}', Pair),
        ('{"a": 1, "b": 18446744073709551615}', Pair),
        ('{"a": 1, "b": -9223372036854775808}', Pair),
        ('{"a": 1, "b": 1e400}', Pair),
        ('{"a": 123456789012345678901234567890, "b": 1.5}', Pair),
        ('{"a": 1.0}', Pair),
        ('{"a": 1e2}', Pair),
        ('{"a": 1, "b": 123456789012345678901234567890}', Pair),
        # unions, literals, optional members, nested paths
        ('{"u": 5}', Mixed),
        ('{"u": "s", "lit": 2}', Mixed),
        ('{"u": {"a": 1}, "lit": "y"}', Mixed),
        ('{"u": [1]}', Mixed),
        ('{"u": 1, "d": {"p q": {"a": "z"}}}', Mixed),
        ('{"u": 1, "many": [null, {"a": 1}, {"b": 2}]}', Mixed),
        ('{"u": 1, "many": [null, {"a": 1}, 7]}', Mixed),
        ('{"u": true}', Mixed),
        ('[1, 2, "3"]', typing.List[int]),
        ('{"x": [1.5, 2]}', typing.Dict[str, typing.List[float]]),
        ('null', typing.Optional[Pair]),
        ('"2024-01-02"', datetime.date),
        ('12.5', decimal.Decimal),
        ('{"x": 1, "y": 2, "y": 3}', Point),
        ('{"x": 1}', Point),
    ]

    def outcome(self, fn):
        try:
            return ("ok", fn())
        except tyjson.ValidationError as e:
            return ("error", e.msg, e.path)

    def test_same_as_over_loads(self):
        from tyjson import _typed
        for text, t in self.DOCS:
            for forbid in (False, True):
                with self.subTest(text=text, t=t, forbid_unknown=forbid):
                    over_doc = self.outcome(lambda: tyjson.decode(text, type=t, forbid_unknown=forbid))
                    over_loads = self.outcome(lambda: _typed.decoder_for(t, forbid)(json.loads(text)))
                    self.assertEqual(over_doc, over_loads)

    def test_repeated_key_last_wins(self):
        self.assertEqual(tyjson.decode('{"a": "bad", "a": 1}', type=Pair), Pair(1))
        with self.assertRaises(tyjson.ValidationError) as cm:
            tyjson.decode('{"a": 1, "a": "bad"}', type=Pair)
        self.assertEqual((cm.exception.msg, cm.exception.path), ("expected an integer, found string", "$.a"))

    def test_int_to_float_is_exact(self):
        self.assertEqual(tyjson.decode('{"a": 0, "b": 9007199254740993}', type=Pair).b, float(9007199254740993))
        self.assertEqual(tyjson.decode('{"a": 0, "b": 18446744073709551615}', type=Pair).b, float(2**64 - 1))
        b = tyjson.decode('{"a": 0, "b": 123456789012345678901234567890}', type=Pair).b
        self.assertIs(type(b), float)
        self.assertEqual(b, float(123456789012345678901234567890))
        with self.assertRaises(OverflowError):  # as float(int) raises
            tyjson.decode('{"a": 0, "b": 1%s}' % ("0" * 400), type=Pair)

    def test_field_names_need_not_be_interned(self):
        # make_dataclass with names built at run time (not interned)
        names = ["".join(["fi", "eld", str(i)]) for i in range(3)]
        C = dataclasses.make_dataclass("C", [(n, int) for n in names])
        doc = json.dumps({n: i for i, n in enumerate(names)})
        self.assertEqual(tyjson.decode(doc, type=C), C(0, 1, 2))

    def test_plan_cycles_are_collected(self):
        # a recursive type's plan refers to itself: the cyclic collector
        # must see through plans (tp_traverse) and break them (tp_clear)
        import gc
        from tyjson import _tyjson
        gc.collect()
        p = _tyjson._plan("fields", None, "Loop", False)
        opt = _tyjson._plan("optional", p)
        p.set_fields((("nxt", opt),), ())
        self.assertIn(opt, gc.get_referents(p))
        self.assertIn(p, gc.get_referents(opt))
        self.assertEqual(p({"nxt": {"nxt": None}}), {"nxt": {"nxt": None}})
        del p, opt
        self.assertGreaterEqual(gc.collect(), 2)

    def test_unfinished_plan_refuses_to_run(self):
        from tyjson import _tyjson
        p = _tyjson._plan("fields", None, "Half", False)
        with self.assertRaises(RuntimeError):
            p({})
        with self.assertRaises(RuntimeError):
            _tyjson._decode_plan("{}", p)
        p.set_fields((), ())
        self.assertEqual(_tyjson._decode_plan("{}", p), {})
        with self.assertRaises(ValueError):
            p.set_fields((), ())  # only once


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
