"""Exceptions of tyjson, shaped like the json module's."""


class JSONDecodeError(ValueError):
    """Invalid JSON text: a ValueError with json.JSONDecodeError's attributes.

    msg    -- the message, quoting what was expected and found
    doc    -- the input that was parsed
    pos    -- where the error is: a character index for str input (as json's),
              a byte offset for bytes-like input
    lineno -- 1-based line
    colno  -- 1-based column (characters for str input, bytes otherwise)
    code   -- the C library's status name, such as "E_UNEXPECTED_CHAR"
    """

    def __init__(self, msg, doc, pos, lineno, colno, code=""):
        errmsg = "%s: line %d column %d (char %d)" % (msg, lineno, colno, pos)
        ValueError.__init__(self, errmsg)
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno
        self.code = code

    def __reduce__(self):
        return self.__class__, (self.msg, self.doc, self.pos, self.lineno, self.colno, self.code)


class JSONEncodeError(TypeError):
    """An object dumps cannot write (no default= hook, or the hook failed)."""
