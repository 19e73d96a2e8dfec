"""Runs every ```python block of docs/python.md: its examples hold."""
import os
import re
import sys
import types
import unittest

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "python.md")


class TestDocs(unittest.TestCase):
    def test_examples(self):
        with open(DOC, encoding="utf-8") as f:
            text = f.read()
        blocks = re.findall(r"```python\n(.*?)```", text, re.S)
        self.assertGreaterEqual(len(blocks), 6)
        for i, code in enumerate(blocks):
            if "tyjson.dask" in code:
                try:
                    import dask.bag  # noqa: F401
                    import pandas  # noqa: F401
                except ImportError:
                    continue
            # each block runs as a module of its own (in sys.modules, as
            # an imported module would be: typing resolves the string
            # annotations of its classes in it)
            name = "docs_example_%d" % i
            mod = types.ModuleType(name)
            sys.modules[name] = mod
            try:
                with self.subTest(block=i):
                    exec(compile(code, "%s block %d" % (DOC, i), "exec"), mod.__dict__)
            finally:
                del sys.modules[name]


if __name__ == "__main__":
    unittest.main()
