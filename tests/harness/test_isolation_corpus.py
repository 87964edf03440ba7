"""`corpus generate` run twice at once into one folder: the second waits for the first (a lock in
the folder), both succeed, and a reader never sees an area half written (each area is swapped
into place in one rename)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from conformance.corpus.generator import LOCK_NAME, exclusive, generate, snapshot

ONLY = "v3/pipeline"  # ~130 cases: enough for a reader to catch a half-written area

GENERATE = "import sys; from pathlib import Path; from conformance.corpus.generator import generate; generate(Path(sys.argv[1]), only=sys.argv[2])"


def case_count(area) -> int:
    return sum(1 for _ in area.rglob("case.json"))


def test_concurrent_generators_wait_and_readers_see_whole_areas(tmp_path):
    root = tmp_path / "fixtures"
    generate(root, only=ONLY)
    expected, whole = snapshot(root), case_count(root / "v3")
    assert whole > 100

    seen, stop = [], threading.Event()

    def reader():
        while not stop.is_set():
            seen.append(case_count(root / "v3"))

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    watcher = threading.Thread(target=reader)
    watcher.start()
    try:
        with exclusive(root):  # a generator already at work: both new ones must wait for it
            procs = [
                subprocess.Popen(
                    [sys.executable, "-c", GENERATE, str(root), ONLY],
                    stderr=subprocess.PIPE,
                    text=True,
                    env=env,
                )
                for _ in range(2)
            ]
            waiting = [p.stderr.readline() for p in procs]  # each says it waits, then blocks
            assert all("waiting for it to finish" in line for line in waiting), waiting
            assert all(p.poll() is None for p in procs)
        for p in procs:
            assert p.wait(timeout=300) == 0, p.stderr.read()[-3000:]
            p.stderr.close()
    finally:
        time.sleep(0.1)
        stop.set()
        watcher.join()
    assert snapshot(root) == expected
    assert set(seen) == {whole}, f"a reader saw {sorted(set(seen))} cases, not {whole}"
    assert not (root / LOCK_NAME).exists()
    assert [p.name for p in tmp_path.iterdir()] == ["fixtures"]  # no staging folder left


def test_gold_cases_survive_and_stale_generated_cases_go(tmp_path):
    root = tmp_path / "fixtures"
    generate(root, only=ONLY)
    gold = root / "v3" / "pipeline" / "gold-kept"
    gold.mkdir()
    (gold / "case.json").write_text('{"provenance": {"writer": "someone"}}')
    stale = root / "v3" / "pipeline" / "no-builder-any-more"
    stale.mkdir()
    (stale / "case.json").write_text("{}")
    generate(root, only=ONLY)
    assert (gold / "case.json").read_text() == '{"provenance": {"writer": "someone"}}'
    assert not stale.exists()
