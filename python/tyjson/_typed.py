"""Typed decoding: decode(data, type=T) and encode(obj).

A type is compiled once (cached per type) into a plan: nested converter
functions that check and build the value from what the C parser produced
(tyjson.loads), so validation happens as the result is built and an error
names the JSON path of the offending value, with the C binding's rule:
`$`, `.key` for identifier keys, `["odd key"]` otherwise, `[17]` for
indexes - `$.photos[17].author.age`.
"""
import dataclasses
import datetime
import decimal
import enum
import functools
import re
import threading
import types
import typing

from . import _tyjson

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class ValidationError(ValueError):
    """A value that does not fit the type: msg, and path (such as
    `$.photos[17].author.age`); str() is "msg at path"."""

    def __init__(self, msg, path):
        ValueError.__init__(self, "%s at %s" % (msg, path))
        self.msg = msg
        self.path = path

    def __reduce__(self):
        return self.__class__, (self.msg, self.path)


class _Fail(Exception):
    # unwinds through the plan, each container adding its segment on the
    # way out, so that the path costs nothing while decoding succeeds
    def __init__(self, msg):
        Exception.__init__(self, msg)
        self.msg = msg
        self.parts = []


def _key_segment(k):
    if _IDENT.match(k):
        return "." + k
    out = []
    for c in k:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 0x20:
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    return '["' + "".join(out) + '"]'


def _kind(v):
    if v is None:
        return "null"
    if v is True or v is False:
        return "bool"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def _fail(expected, v):
    raise _Fail("expected %s, found %s" % (expected, _kind(v)))


# The nodes of a plan are made in C (_tyjson._plan, python/src/typed.c),
# which runs them over the parsed document; the rarer leaves are Python
# functions of the value loads makes ("call" nodes), below.
_P_INT = _tyjson._plan("int")
_P_FLOAT = _tyjson._plan("float")
_P_STR = _tyjson._plan("str")
_P_BOOL = _tyjson._plan("bool")
_P_NONE = _tyjson._plan("none")
_P_ANY = _tyjson._plan("any")


def _iso_conv(cls, what):
    """A converter from ISO 8601 text to cls (datetime.datetime or .date)."""
    def conv(v):
        if type(v) is str:
            try:
                return cls.fromisoformat(v)
            except ValueError:
                raise _Fail("expected an ISO 8601 %s, found %r" % (what, v)) from None
        _fail("a %s string" % what, v)
    return conv


_conv_datetime = _iso_conv(datetime.datetime, "date-time")
_conv_date = _iso_conv(datetime.date, "date")


def _conv_decimal(v):
    # ints are exact at any size; a float is its shortest round-trip text,
    # the JSON text's value whenever that had at most 15 significant digits
    t = type(v)
    if t is int:
        return decimal.Decimal(v)
    if t is float:
        return decimal.Decimal(repr(v))
    if t is str:
        try:
            return decimal.Decimal(v)
        except decimal.InvalidOperation:
            raise _Fail("expected a decimal number, found %r" % v) from None
    _fail("a number", v)


_SIMPLE = {int: _P_INT, float: _P_FLOAT, str: _P_STR, bool: _P_BOOL,
           type(None): _P_NONE, None: _P_NONE, typing.Any: _P_ANY, object: _P_ANY,
           datetime.datetime: _tyjson._plan("call", _conv_datetime),
           datetime.date: _tyjson._plan("call", _conv_date),
           decimal.Decimal: _tyjson._plan("call", _conv_decimal)}


def _list_plan(item):
    return _tyjson._plan("list", item)


def _dict_plan(val):
    return _tyjson._plan("dict", val)


def _literal_plan(values):
    def conv(v):
        for lit in values:
            if v == lit and type(v) is type(lit):
                return v
        raise _Fail("expected one of %s, found %r" % (", ".join(repr(x) for x in values), v))
    return _tyjson._plan("call", conv)


def _enum_plan(cls):
    def conv(v):
        try:
            return cls(v)
        except ValueError:
            raise _Fail("expected one of %s, found %r" % (", ".join(repr(m.value) for m in cls), v)) from None
    return _tyjson._plan("call", conv)


def _fields_plan(cls, hints, required, make_cls, forbid_unknown):
    # The plan exists (and is registered as the plan under construction)
    # before its fields are compiled, so that a field referring back to cls -
    # directly (children: list["Node"]) or through other classes (Tree and
    # Branch) - compiles to this very plan. It builds make_cls(**fields), or
    # the dict of fields when make_cls is None (a TypedDict), once every
    # required field is there.
    p = _tyjson._plan("fields", make_cls, cls.__name__, forbid_unknown)
    _state().building[(cls, forbid_unknown)] = p
    fields = tuple((name, _plan(t, forbid_unknown)) for name, t in hints.items())
    p.set_fields(fields, tuple(required))
    return p


def _hints(cls):
    # string annotations (forward references) are resolved in the module of
    # cls, with cls's own name known too, so that a class defined inside a
    # function can still refer to itself
    try:
        return typing.get_type_hints(cls, localns={cls.__name__: cls})
    except NameError as e:
        raise TypeError("tyjson.decode cannot resolve a type annotation of %s: %s"
                        % (cls.__qualname__, e)) from None


def _dataclass_plan(cls, forbid_unknown):
    hints = _hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    hints = {f.name: hints[f.name] for f in fields}
    required = [f.name for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    return _fields_plan(cls, hints, required, cls, forbid_unknown)


def _typeddict_plan(cls, forbid_unknown):
    hints = _hints(cls)
    # in declaration order (__required_keys__ is a set): the first missing
    # field reported is the same from run to run
    required = [k for k in hints if k in cls.__required_keys__]
    return _fields_plan(cls, hints, required, None, forbid_unknown)


def _type_name(t):
    return getattr(t, "__name__", None) or repr(t)


# Compiled plans by (type, forbid_unknown). A compilation runs on one thread
# with that thread's table of the classes being compiled (building) and of
# the plans it made (made); they join _PLANS only once the outermost type
# compiled completely, so that a type that fails (a field of an unsupported
# type) leaves no plan behind that holds its half-built converter. Two
# threads compiling the same type at once each make an equal plan; the
# dict's item assignment keeps one.
_PLANS = {}
_tls = threading.local()


def _state():
    st = getattr(_tls, "st", None)
    if st is None:
        st = _tls.st = types.SimpleNamespace(depth=0, building={}, made={})
    return st


def _plan(t, forbid_unknown=False):
    key = (t, forbid_unknown)
    try:
        return _PLANS[key]
    except KeyError:
        pass
    except TypeError:                      # an unhashable typing expression
        raise TypeError("tyjson.decode cannot decode into %r" % (t,)) from None
    st = _state()
    p = st.building.get(key)
    if p is None:
        p = st.made.get(key)
    if p is not None:
        return p
    st.depth += 1
    try:
        p = _compile(t, forbid_unknown)
        st.made[key] = p
    except BaseException:
        if st.depth == 1:
            st.building.clear()
            st.made.clear()
        raise
    finally:
        st.depth -= 1
    if st.depth == 0:
        _PLANS.update(st.made)
        st.building.clear()
        st.made.clear()
    return p


def _compile(t, forbid_unknown):
    simple = _SIMPLE.get(t)
    if simple is not None:
        return simple
    if isinstance(t, str):
        raise TypeError("tyjson.decode cannot resolve the forward reference %r outside a class "
                        "annotation: pass the type itself" % t)
    if t is list or t is typing.List:
        return _list_plan(_P_ANY)
    if t is dict or t is typing.Dict:
        return _dict_plan(_P_ANY)
    origin = typing.get_origin(t)
    args = typing.get_args(t)
    if origin in (list, typing.List):
        return _list_plan(_plan(args[0] if args else typing.Any, forbid_unknown))
    if origin in (dict, typing.Dict):
        if args and args[0] is not str:
            raise TypeError("dict keys must be str in JSON, not %s" % _type_name(args[0]))
        return _dict_plan(_plan(args[1] if args else typing.Any, forbid_unknown))
    if origin is typing.Union or (hasattr(types, "UnionType") and origin is types.UnionType):
        members = [a for a in args if a is not type(None)]
        if len(members) == 1 and len(args) == 2:
            return _optional_plan(_plan(members[0], forbid_unknown))
        # None first: a null never tries the other members
        args = sorted(args, key=lambda a: a is not type(None))
        return _union_plan(tuple(args), forbid_unknown)
    if origin is typing.Literal:
        return _literal_plan(args)
    if isinstance(t, type):
        if issubclass(t, enum.Enum):
            return _enum_plan(t)
        if dataclasses.is_dataclass(t):
            return _dataclass_plan(t, forbid_unknown)
        if typing.is_typeddict(t):
            return _typeddict_plan(t, forbid_unknown)
    raise TypeError("tyjson.decode cannot decode into %r" % (t,))


def _optional_plan(item):
    # Optional[T]: null, or T's value - whose own error (and path) is the
    # error, not a generic "expected T or null"
    return _tyjson._plan("optional", item)


def _union_plan(args, forbid_unknown):
    # the first member that fits; else "expected A or B, found <kind>"
    plans = tuple(_plan(a, forbid_unknown) for a in args)
    names = " or ".join("null" if a is type(None) else _type_name(a) for a in args)
    return _tyjson._plan("union", plans, names)


def _run(plan, value):
    try:
        return plan(value)
    except _Fail as f:
        raise ValidationError(f.msg, "$" + "".join(reversed(f.parts))) from None


def decode(data, type, *, forbid_unknown=False):
    """Parses JSON text `data` and builds a value of `type`, checking it:
    a dataclass, TypedDict, list[T], dict[str, T], Optional/Union, Literal,
    Enum, datetime, date, Decimal, int, float, str, bool, None, Any.
    Invalid JSON raises tyjson.JSONDecodeError; a value that does not fit
    raises tyjson.ValidationError naming its JSON path. forbid_unknown makes
    an object key that is no field of its dataclass/TypedDict an error."""
    plan = _plan(type, forbid_unknown)
    try:
        return _tyjson._decode_plan(data, plan)
    except _Fail as f:
        raise ValidationError(f.msg, "$" + "".join(reversed(f.parts))) from None


_tyjson._typed_setup(_Fail, _key_segment)


def decoder_for(type, forbid_unknown=False):
    """The compiled plan of `type` as a function of one parsed value (as
    loads makes it), raising ValidationError."""
    plan = _plan(type, forbid_unknown)
    return functools.partial(_run, plan)


def encode(obj, **kw):
    """JSON text (bytes) of a value of the types decode builds: dataclasses,
    enums, datetimes, dates, Decimals, TypedDicts (dicts) - dumps writes them
    all natively, so decode(encode(x), type=T) == x."""
    return _tyjson.dumps(obj, **kw)
