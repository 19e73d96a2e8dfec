"""The shared data: every corpus and scenario file round-trips as json's
result; every JSONTestSuite file is accepted or refused as the C library
decides."""
import json
import os
import unittest

import shared
import tyjson


class TestCorpusRoundTrip(unittest.TestCase):
    def files(self):
        return shared.json_files("corpus") + shared.json_files("scenarios")

    def test_loads_equals_json(self):
        files = self.files()
        self.assertGreater(len(files), 20)
        for p in files:
            with self.subTest(file=os.path.basename(p)):
                with open(p, "rb") as f:
                    data = f.read()
                ref = json.loads(data)
                got = tyjson.loads(data)
                self.assertEqual(got, ref)
                self.assertEqual(tyjson.loads(data.decode("utf-8")), ref)
                # both ways: our text read by json, and by us
                self.assertEqual(json.loads(tyjson.dumps(got)), ref)
                self.assertEqual(tyjson.loads(tyjson.dumps(ref)), ref)
                self.assertEqual(json.loads(tyjson.dumps_str(ref, indent=2, sort_keys=True)), ref)


class TestConformance(unittest.TestCase):
    def test_test_parsing(self):
        root = shared.path("conformance", "test_parsing")
        names = sorted(n for n in os.listdir(root) if n.endswith(".json"))
        self.assertEqual(len(names), 318)
        for n in names:
            with open(os.path.join(root, n), "rb") as f:
                data = f.read()
            with self.subTest(file=n):
                try:
                    got = tyjson.loads(data)
                    accepted = True
                except tyjson.JSONDecodeError as e:
                    accepted = False
                    self.assertTrue(e.msg and e.lineno >= 1 and e.colno >= 1 and 0 <= e.pos <= len(data))
                # the C library's decision, through its validator
                self.assertEqual(accepted, tyjson.validate(data))
                if n.startswith("y_"):
                    self.assertTrue(accepted)
                    self.assertEqual(got, json.loads(data))
                elif n.startswith("n_"):
                    self.assertFalse(accepted)


if __name__ == "__main__":
    unittest.main()
