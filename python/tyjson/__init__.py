"""tyjson: fast JSON for Python over the tyjson C library.

loads(s)          JSON text (str, bytes, bytearray, memoryview) -> Python objects
dumps(obj)        Python objects -> UTF-8 JSON text as bytes
dumps_str(obj)    the same text as str
validate(s)       True when loads would accept s
iter_lines(src)   NDJSON records, parsed on worker threads off the GIL
JSONDecodeError   invalid input (a ValueError, with msg, pos, lineno, colno)
"""
from ._errors import JSONDecodeError, JSONEncodeError
from ._tyjson import validate, loads, dumps, dumps_str, have_threads
from ._lines import iter_lines

__all__ = ["validate", "loads", "dumps", "dumps_str", "iter_lines", "JSONDecodeError", "JSONEncodeError"]
