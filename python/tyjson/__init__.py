"""tyjson: fast JSON for Python over the tyjson C library.

loads(s)          JSON text (str, bytes, bytearray, memoryview) -> Python objects
dumps(obj)        Python objects -> UTF-8 JSON text as bytes
dumps_str(obj)    the same text as str
validate(s)       True when loads would accept s
iter_lines(src)   NDJSON records, parsed on worker threads off the GIL
decode(s, type=T) typed decoding, checked, errors naming the JSON path
encode(obj)       JSON text of such typed values
JSONDecodeError   invalid input (a ValueError, with msg, pos, lineno, colno)
"""
from ._errors import JSONDecodeError, JSONEncodeError
from ._tyjson import validate, loads, dumps, dumps_str, have_threads
from ._lines import iter_lines
from ._typed import decode, encode, ValidationError

__all__ = ["validate", "loads", "dumps", "dumps_str", "iter_lines", "decode", "encode", "ValidationError", "JSONDecodeError", "JSONEncodeError"]
