"""Broken on purpose (tests/bench): the reference, except that its bench operation returns
altered data from every read and writes altered data (one value off by one ulp). The benchmark
must report every such figure as wrong-data, never as a speed."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from conformance.harness.config import ADAPTERS_DIR
from conformance.harness.serve import load_adapter_class

Reference = load_adapter_class(ADAPTERS_DIR / "reference")


def nudge(array: np.ndarray) -> np.ndarray:
    array = np.array(array)
    flat = array.reshape(-1)
    flat[flat.size // 2] = np.nextafter(flat[flat.size // 2], np.float32(np.inf))
    return array


class Adapter(Reference):
    def bench(self, request: dict) -> dict:
        if request["operation"] == "write":
            fd, path = tempfile.mkstemp(suffix=".npy")
            os.close(fd)
            try:
                np.save(path, nudge(np.load(request["data"])))
                return super().bench(dict(request, data=path))
            finally:
                os.unlink(path)
        response = super().bench(request)
        np.save(response["data"], nudge(np.load(response["data"])))
        return response
