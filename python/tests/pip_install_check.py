"""Builds the package with `pip install --no-build-isolation --no-index
./python` (setuptools only, offline) into the directory argv[1], then runs
test_core.py against that copy. pip builds in the tree it is given (build/,
*.egg-info), so it is given a copy of the package and the C sources under
argv[1]: the source tree stays as it was (it may be read-only). Exits 77 (skipped) without pip/setuptools.
Not a unittest module itself (its name does not start with test_)."""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)


def main():
    target = sys.argv[1]
    import importlib.util
    for mod in ("pip", "setuptools"):
        if importlib.util.find_spec(mod) is None:
            print("skipped: no %s (Debian: python3-pip, python3-setuptools)" % mod)
            return 77
    shutil.rmtree(target, ignore_errors=True)
    before = sorted(os.listdir(PKG))
    tree = target + "-src"
    shutil.rmtree(tree, ignore_errors=True)
    root = os.path.dirname(PKG)
    skip = shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    for part in ("python", "src", "include"):
        shutil.copytree(os.path.join(root, part), os.path.join(tree, part), ignore=skip)
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-index",
                    "--no-deps", "--quiet", "--target", target, os.path.join(tree, "python")],
                   check=True)
    after = sorted(os.listdir(PKG))
    if after != before:
        print("pip changed the source tree %s: %s -> %s" % (PKG, before, after))
        return 1
    env = dict(os.environ, PYTHONPATH=target)
    code = ("import tyjson, sys; assert tyjson.__file__.startswith(%r), tyjson.__file__; "
            "import unittest; sys.path.insert(0, %r); import test_core; "
            "r = unittest.TextTestRunner(verbosity=1).run(unittest.defaultTestLoader.loadTestsFromModule(test_core)); "
            "sys.exit(0 if r.wasSuccessful() else 1)" % (target, HERE))
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=HERE).returncode


if __name__ == "__main__":
    sys.exit(main())
