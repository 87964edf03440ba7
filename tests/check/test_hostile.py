"""Every store of the hostile area (fixtures/hostile) held by `validate` and by `check`: the whole
process tree (adapters included) within 1 GiB, 60 s, no traceback, nothing written in or beside
the store, in $TMPDIR or the working directory (conformance/testing/hostile_runs.py).

check runs here with the implementations CI runs; `python -m conformance.testing.hostile_runs`
measures it with every available one."""

from __future__ import annotations

import pytest

from conformance.corpus import hostile
from conformance.testing.hostile_runs import CAP_MIB, CAP_SECONDS, hostile_runs

pytestmark = pytest.mark.slow

READERS = ["--impl", "zarr-python", "--impl", "zarrita-js"]


@pytest.mark.parametrize("case", [c.name for c in hostile.load_cases()])
def test_a_hostile_store_is_held_by_validate_and_check(case, capsys):
    runs = list(hostile_runs(["validate", "check"], READERS, cases=case, timeout=CAP_SECONDS + 30))
    assert [r.command for r in runs] == ["validate", "check"]
    with capsys.disabled():
        for r in runs:
            print(f"\n  {case:34} {r.command:8} {r.peak_mib:6.0f} MiB {r.seconds:5.1f} s", end="")
    for run in runs:
        assert not run.problems, (
            f"{run.command}: {run.problems}\n{run.run.out[-2000:]}{run.run.err[-2000:]}"
        )
        assert run.peak_mib <= CAP_MIB and run.seconds <= CAP_SECONDS


def test_the_probe_measures_the_whole_tree_and_the_time():
    """A grandchild started in a session of its own holds 300 MiB: the peak must count it (the
    hostile runs above would pass unseen otherwise)."""
    import sys

    from conformance.testing.tree_probe import measure_tree

    grandchild = (
        "import time; b = bytearray(300 << 20); b[::4096] = b'x' * len(b[::4096]); time.sleep(1.5)"
    )
    child = (
        "import subprocess, sys; "
        f"subprocess.run([sys.executable, '-c', {grandchild!r}], start_new_session=True)"
    )
    run = measure_tree([sys.executable, "-c", child], timeout=30)
    assert run.code == 0 and run.processes >= 2
    assert 300 <= run.peak_mib < 600 and 1.5 <= run.seconds < 30
