"""tyjson.dask.read_ndjson on a distributed.LocalCluster of 2 worker
processes on the loopback interface: the same records as a sequential
read, for every block size, plain and typed, and as a dataframe."""
import dataclasses
import json
import os
import tempfile
import unittest

import tyjson

try:
    import dask
    import distributed
    import tyjson.dask as tdask
except ImportError as e:  # python3-dask / python3-distributed not installed
    dask = None
    MISSING = str(e)

HERE = os.path.dirname(os.path.abspath(__file__))


@dataclasses.dataclass
class Event:
    id: int
    user: str
    score: float


def records(n):
    return [{"id": i, "user": "u%d" % (i % 7), "score": i / 4} for i in range(n)]


@unittest.skipIf(dask is None, "dask/distributed absent")
class TestDask(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # the worker processes import tyjson (and this module, for Event)
        # through PYTHONPATH, which they inherit
        os.environ["PYTHONPATH"] = os.pathsep.join(
            [HERE] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
        cls.tmp = tempfile.TemporaryDirectory()
        cls.paths = []
        for f in range(3):
            p = os.path.join(cls.tmp.name, "part%d.ndjson" % f)
            with open(p, "w") as fh:
                for r in records(2000 + f * 333):
                    fh.write(json.dumps(r) + ("\r\n" if f == 1 else "\n"))
                if f == 2:
                    fh.write('{"id": -1, "user": "last", "score": 0}')  # no final newline
            cls.paths.append(p)
        cls.cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                               host="127.0.0.1", dashboard_address=None,
                                               silence_logs=40)
        cls.client = distributed.Client(cls.cluster)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        cls.tmp.cleanup()

    def sequential(self, type=None):
        out = []
        for p in self.paths:
            out.extend(tyjson.iter_lines(p, type=type))
        return out

    def test_same_as_sequential(self):
        ref = self.sequential()
        self.assertEqual(len(ref), 2000 + 2333 + 2666 + 1)
        for bs in (None, 1000, 4096, 65536, 10**9):
            with self.subTest(blocksize=bs):
                bag = tdask.read_ndjson(self.paths, blocksize=bs)
                self.assertEqual(bag.compute(), ref)
        self.assertEqual(tdask.read_ndjson(os.path.join(self.tmp.name, "*.ndjson"), blocksize=5000).count().compute(),
                         len(ref))
        # both workers took part: wait for the second to (re)join first, which
        # under the ASan build can take longer than the computations above
        self.client.wait_for_workers(2, timeout=180)
        self.assertEqual(len(self.client.scheduler_info()["workers"]), 2)

    def test_typed_and_dataframe(self):
        bag = tdask.read_ndjson(self.paths[:2], type=Event, blocksize=8192)
        got = bag.compute()
        self.assertEqual(got, self.sequential(type=Event)[:len(got)])
        self.assertIsInstance(got[0], Event)
        df = tdask.to_dataframe(bag).compute()
        self.assertEqual(list(df.columns), ["id", "user", "score"])
        self.assertEqual(len(df), 2000 + 2333)
        self.assertAlmostEqual(df["score"].sum(), sum(r["score"] for r in records(2000) + records(2333)))

    def test_bad_line_fails_the_task(self):
        p = os.path.join(self.tmp.name, "bad.ndjson")
        with open(p, "w") as fh:
            fh.write('{"id": 1}\n{"id": \n')
        with self.assertRaises(ValueError):
            tdask.read_ndjson(p).compute()
        os.remove(p)
        with self.assertRaises(FileNotFoundError):
            tdask.read_ndjson(p)


if __name__ == "__main__":
    unittest.main()
