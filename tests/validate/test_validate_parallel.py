"""Chunks decoded on several threads (conformance/validate/decoding.py): results in the order of
the chunks, the same findings as a serial walk, and no more chunks in flight than memory allows."""

from __future__ import annotations

import io
import threading
import time

import numpy as np
import pytest

from conformance.reference import DirectoryStore, get_format
from conformance.validate import decoding, validate


def test_results_come_back_in_order_whatever_finishes_first():
    def slow_for_small(n):
        time.sleep(0.01 * (5 - n % 5))  # later items finish first
        if n == 7:
            raise ValueError("seven")
        return n * n

    results = list(decoding.in_order(slow_for_small, range(12), workers=3))
    assert [item for item, _, _ in results] == list(range(12))
    assert [r for n, r, e in results if n != 7] == [n * n for n in range(12) if n != 7]
    (error,) = [e for _, _, e in results if e is not None]
    assert isinstance(error, ValueError) and str(error) == "seven"


def test_no_more_items_in_flight_than_the_queue_allows():
    started, lock = [], threading.Lock()
    release = threading.Event()

    def record(n):
        with lock:
            started.append(n)
        release.wait(5)
        return n

    results = decoding.in_order(record, range(100), workers=2)
    consumer = threading.Thread(target=lambda: [next(results)])
    consumer.start()
    time.sleep(0.3)
    # the reader waits for item 0: at most QUEUE_PER_WORKER * workers items were handed out
    assert len(started) <= 2 and max(started) < decoding.QUEUE_PER_WORKER * 2
    release.set()
    consumer.join(5)
    results.close()  # cancels what has not started


def test_workers_are_bounded_by_the_chunk_size(monkeypatch):
    monkeypatch.setenv("ZARR_CONFORMANCE_THREADS", "8")
    assert decoding.workers_for(1 << 20) == 8
    assert decoding.workers_for(16 << 20) == 2
    assert decoding.workers_for(1 << 30) == 1  # one huge chunk at a time, as before


def corrupt_store(path):
    """A 4 x 4 grid of zstd chunks, three of them corrupt in different ways."""
    store = DirectoryStore(path)
    document = {
        "zarr_format": 3,
        "node_type": "array",
        "shape": [64, 64],
        "data_type": "int32",
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [16, 16]}},
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
        "fill_value": 0,
        "codecs": [
            {"name": "bytes", "configuration": {"endian": "little"}},
            {"name": "zstd", "configuration": {"level": 1}},
        ],
    }
    array = get_format("v3").create_array(store, "", document, {})
    array.write(None, np.arange(64 * 64, dtype="<i4").reshape(64, 64))
    store.close()
    (path / "c" / "0" / "3").write_bytes(b"not zstd at all")
    (path / "c" / "2" / "1").write_bytes((path / "c" / "2" / "1").read_bytes()[:-7])
    (path / "c" / "3" / "3").write_bytes(b"")
    return path


@pytest.mark.parametrize("threads", ["1", "4"])
def test_parallel_and_serial_walks_report_alike(tmp_path, monkeypatch, threads):
    store = corrupt_store(tmp_path / "store")
    monkeypatch.setenv("ZARR_CONFORMANCE_THREADS", "1")
    serial = io.StringIO()
    validate(str(store), out=serial, as_json=True)
    monkeypatch.setenv("ZARR_CONFORMANCE_THREADS", threads)
    parallel = io.StringIO()
    result = validate(str(store), out=parallel, as_json=True)
    assert result.exit_code == 1 and result.sink.tally.chunks == 16

    def findings(text):
        return [line for line in text.splitlines() if '"type": "finding"' in line]

    assert findings(parallel.getvalue()) == findings(serial.getvalue())
    assert len(findings(serial.getvalue())) == 1  # one finding shared by the three chunks
    assert '"count": 3' in findings(serial.getvalue())[0]
