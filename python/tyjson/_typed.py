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


def _conv_int(v):
    if type(v) is int:
        return v
    _fail("an integer", v)


def _conv_float(v):
    t = type(v)
    if t is float:
        return v
    if t is int:
        return float(v)
    _fail("a number", v)


def _conv_str(v):
    if type(v) is str:
        return v
    _fail("a string", v)


def _conv_bool(v):
    if v is True or v is False:
        return v
    _fail("a bool", v)


def _conv_none(v):
    if v is None:
        return v
    _fail("null", v)


def _conv_any(v):
    return v


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


_SIMPLE = {int: _conv_int, float: _conv_float, str: _conv_str, bool: _conv_bool,
           type(None): _conv_none, None: _conv_none, typing.Any: _conv_any, object: _conv_any,
           datetime.datetime: _conv_datetime, datetime.date: _conv_date,
           decimal.Decimal: _conv_decimal}


def _list_plan(item):
    def conv(v):
        if type(v) is not list:
            _fail("an array", v)
        i = 0
        try:
            out = []
            for i, e in enumerate(v):
                out.append(item(e))
            return out
        except _Fail as f:
            f.parts.append("[%d]" % i)
            raise
    return conv


def _dict_plan(val):
    def conv(v):
        if type(v) is not dict:
            _fail("an object", v)
        k = None
        try:
            out = {}
            for k, e in v.items():
                out[k] = val(e)
            return out
        except _Fail as f:
            f.parts.append(_key_segment(k))
            raise
    return conv


def _literal_plan(values):
    def conv(v):
        for lit in values:
            if v == lit and type(v) is type(lit):
                return v
        raise _Fail("expected one of %s, found %r" % (", ".join(repr(x) for x in values), v))
    return conv


def _enum_plan(cls):
    def conv(v):
        try:
            return cls(v)
        except ValueError:
            raise _Fail("expected one of %s, found %r" % (", ".join(repr(m.value) for m in cls), v)) from None
    return conv


def _fields_plan(cls, hints, required, make, forbid_unknown):
    plans = {name: _plan(t, forbid_unknown) for name, t in hints.items()}
    required = tuple(required)

    def conv(v):
        if type(v) is not dict:
            _fail("an object", v)
        kw = {}
        for k, e in v.items():
            p = plans.get(k)
            if p is None:
                if forbid_unknown:
                    raise _Fail("unknown key %r for %s" % (k, cls.__name__))
                continue
            try:
                kw[k] = p(e)
            except _Fail as f:
                f.parts.append(_key_segment(k))
                raise
        for k in required:
            if k not in kw:
                raise _Fail("missing required field %r of %s" % (k, cls.__name__))
        return make(kw)
    return conv


def _dataclass_plan(cls, forbid_unknown):
    hints = typing.get_type_hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    hints = {f.name: hints[f.name] for f in fields}
    required = [f.name for f in fields
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    return _fields_plan(cls, hints, required, lambda kw: cls(**kw), forbid_unknown)


def _typeddict_plan(cls, forbid_unknown):
    hints = typing.get_type_hints(cls)
    return _fields_plan(cls, hints, cls.__required_keys__, lambda kw: kw, forbid_unknown)


def _type_name(t):
    return getattr(t, "__name__", None) or repr(t)


@functools.lru_cache(maxsize=None)
def _plan(t, forbid_unknown=False):
    simple = _SIMPLE.get(t)
    if simple is not None:
        return simple
    if t is list or t is typing.List:
        return _list_plan(_conv_any)
    if t is dict or t is typing.Dict:
        return _dict_plan(_conv_any)
    origin = typing.get_origin(t)
    args = typing.get_args(t)
    if origin in (list, typing.List):
        return _list_plan(_plan(args[0] if args else typing.Any, forbid_unknown))
    if origin in (dict, typing.Dict):
        if args and args[0] is not str:
            raise TypeError("dict keys must be str in JSON, not %s" % _type_name(args[0]))
        return _dict_plan(_plan(args[1] if args else typing.Any, forbid_unknown))
    if origin is typing.Union or (hasattr(types, "UnionType") and origin is types.UnionType):
        # None first: Optional[T] of a null never tries T
        args = sorted(args, key=lambda a: a is not type(None))
        return _union_plan_cached(tuple(args), forbid_unknown)
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


def _union_plan_cached(args, forbid_unknown):
    plans = [_plan(a, forbid_unknown) for a in args]
    names = " or ".join("null" if a is type(None) else _type_name(a) for a in args)

    def conv(v):
        for p in plans:
            try:
                return p(v)
            except _Fail:
                continue
        raise _Fail("expected %s, found %s" % (names, _kind(v)))
    return conv


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
    return _run(_plan(type, forbid_unknown), _tyjson.loads(data))


def decoder_for(type, forbid_unknown=False):
    """The compiled plan of `type` as a function of one parsed value."""
    plan = _plan(type, forbid_unknown)
    return functools.partial(_run, plan)


def encode(obj, **kw):
    """JSON text (bytes) of a value of the types decode builds: dataclasses,
    enums, datetimes, dates, Decimals, TypedDicts (dicts) - dumps writes them
    all natively, so decode(encode(x), type=T) == x."""
    return _tyjson.dumps(obj, **kw)
