"""Builds tyjson for the Python that runs this (setuptools only, offline).

The extension compiles the C library's own sources (../src) together with
the binding (src/), so nothing has to be installed first:

    python3 -m pip install --no-build-isolation --no-index ./python
"""
import glob
import os
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def rel(*parts):
    return os.path.relpath(os.path.join(*parts), HERE)


lib_sources = sorted(glob.glob(os.path.join(ROOT, "src", "**", "*.c"), recursive=True))
if not lib_sources:
    sys.exit("tyjson: the C library's sources (../src) are missing; build from the repository")

define_macros = []
libraries = []
if os.name == "posix":
    define_macros.append(("TYJSON_HAVE_PTHREADS", "1"))
    libraries = ["m", "pthread"]

ext = Extension(
    "tyjson._tyjson",
    sources=[rel(p) for p in sorted(glob.glob(os.path.join(HERE, "src", "*.c")))]
    + [rel(p) for p in lib_sources],
    include_dirs=[rel(ROOT, "include"), rel(ROOT, "src")],
    define_macros=define_macros,
    libraries=libraries,
    extra_compile_args=["-std=c11", "-O2", "-fvisibility=hidden"] if os.name == "posix" else [],
)

setup(
    name="tyjson",
    version="0.1.0",
    description="Fast JSON for Python over the tyjson C library",
    packages=["tyjson"],
    ext_modules=[ext],
    python_requires=">=3.9",
)
