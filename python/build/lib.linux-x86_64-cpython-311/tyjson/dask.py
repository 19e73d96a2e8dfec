"""NDJSON files as a dask.bag, parsed by tyjson on the workers.

    import tyjson.dask
    bag = tyjson.dask.read_ndjson("logs/*.ndjson", type=Event, blocksize=64 << 20)
    bag.filter(lambda e: e.level == "error").count().compute()
    df = tyjson.dask.to_dataframe(bag)            # needs pandas

Each file is cut into blocks of about `blocksize` bytes; a block owns the
lines that start in it, so every line is read exactly once and the bag holds
the records in file order, the same as a sequential read. Needs dask (the
Debian package python3-dask); runs on whatever scheduler dask is given,
such as a distributed.LocalCluster.
"""
import dataclasses
import glob
import os

import dask
import dask.bag

from ._lines import iter_lines


def _block_lines(path, start, end):
    # the lines that start in [start, end): those after the first newline
    # at or past start - 1 (a block at 0 starts at a line), through the line
    # that holds byte end - 1
    with open(path, "rb") as f:
        if start > 0:
            f.seek(start - 1)
            f.readline()  # the rest of the line the previous block owns
        pos = f.tell()
        if pos >= end:
            return b""
        data = f.read(end - pos)
        if data and not data.endswith(b"\n"):
            data += f.readline()
        return data


def _read_block(path, start, end, type, threads):
    data = _block_lines(path, start, end)
    try:
        return list(iter_lines(data, type=type, threads=threads))
    except ValueError as e:
        # the block's line numbers are relative to it: say where it starts
        if hasattr(e, "add_note"):
            e.add_note("in %s, block starting at byte %d" % (path, start))
        raise


def _expand(paths):
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out = []
    for p in paths:
        p = os.fspath(p)
        hits = sorted(glob.glob(p)) if any(c in p for c in "*?[") else [p]
        if not hits:
            raise FileNotFoundError(p)
        out.extend(hits)
    return out


def read_ndjson(paths, type=None, blocksize=64 * 1024 * 1024, threads=1):
    """A dask.bag of the records of the NDJSON files `paths` (a path, a glob
    pattern or a list of them), each block parsed with tyjson.iter_lines
    (type=None: plain objects; a type: typed records as tyjson.decode builds
    them; threads: parsing threads per block). blocksize=None gives one
    partition per file."""
    if blocksize is not None and blocksize < 1:
        raise ValueError("blocksize must be positive or None")
    parts = []
    for p in _expand(paths):
        size = os.path.getsize(p)
        step = (size or 1) if blocksize is None else blocksize
        for start in range(0, max(size, 1), step):
            parts.append(dask.delayed(_read_block, pure=True)(p, start, min(start + step, size), type, threads))
    return dask.bag.from_delayed(parts)


def _as_dict(rec):
    if dataclasses.is_dataclass(rec) and not isinstance(rec, type):
        return dataclasses.asdict(rec)
    return rec


def to_dataframe(bag, meta=None):
    """The bag's records as a dask.dataframe (needs pandas): dict records
    as they are, dataclass records through dataclasses.asdict."""
    import dask.dataframe  # noqa: F401  (pandas is needed here only)
    return bag.map(_as_dict).to_dataframe(meta=meta)
