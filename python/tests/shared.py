"""Where the shared test data (../shared of the repository) is.

Tests that need it skip when it is absent, unless TYJSON_REQUIRE_SHARED=1
(CI) makes its absence a failure, as for the C tests.
"""
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.environ.get("TYJSON_SHARED_DIR") or os.path.join(HERE, "..", "..", "..", "shared")


def path(*parts):
    """The path of parts under the shared directory; skips (or fails) the
    calling test when it does not exist."""
    p = os.path.join(DIR, *parts)
    if not os.path.exists(p):
        if os.environ.get("TYJSON_REQUIRE_SHARED") == "1":
            raise AssertionError("shared test data missing: %s" % p)
        raise unittest.SkipTest("shared test data absent: %s" % p)
    return p


def json_files(*parts):
    """Sorted paths of the .json files under the shared directory parts."""
    root = path(*parts)
    out = []
    for d, _, names in os.walk(root):
        out.extend(os.path.join(d, n) for n in names if n.endswith(".json"))
    return sorted(out)
