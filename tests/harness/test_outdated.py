"""`zarr-conformance adapters --outdated`: adapters whose implementation pin is older than the
newest release the package index offers, asked through pip itself (`pip index versions`) of a
local index folder standing for PyPI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conformance.resources import REPO_ROOT


def wheel_index(root: Path, package: str, releases: dict[str, str | None]) -> Path:
    """A PEP 503 simple index in a folder: `package` with these releases (-> Requires-Python)."""
    folder = root / package
    folder.mkdir(parents=True)
    stem = package.replace("-", "_")
    links = []
    for version, requires in releases.items():
        attr = f' data-requires-python="{requires.replace(">", "&gt;")}"' if requires else ""
        name = f"{stem}-{version}-py3-none-any.whl"
        links.append(f'<a href="{name}"{attr}>{name}</a>')
    (folder / "index.html").write_text("<html><body>" + "\n".join(links) + "</body></html>")
    return root


def adapter(root: Path, name: str, pin: str, extra: str = "") -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "adapter.py").write_text("class Adapter:\n    pass\n")
    (folder / "adapter.toml").write_text(
        f'name = "{name}"\ndescription = "d"\ntransport = "python"\n'
        f'requirements = ["{pin}"]\ndefault = false\n{extra}'
    )


def outdated(
    tmp_path: Path, index: Path, adapters: Path, *names: str
) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k != "PYTHONPATH"}
    env.update(
        PIP_CONFIG_FILE=os.devnull,  # no configured extra indexes: only the fake one
        PIP_INDEX_URL=index.as_uri(),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        ZARR_CONFORMANCE_ADAPTERS=str(adapters),
        PYTHONPATH=str(REPO_ROOT),
    )
    return subprocess.run(
        [sys.executable, "-m", "conformance.cli", "adapters", "--outdated", *names],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )


def test_outdated_lists_older_pins_only(tmp_path):
    index = wheel_index(
        tmp_path / "index", "zz-fake-impl", {"1.0.0": None, "1.2.0": None, "9.0.0": ">=3.99"}
    )
    wheel_index(index, "zz-fake-two", {"2.0.0": None, "3.0.0": None})
    adapters = tmp_path / "adapters"
    adapter(adapters, "aa-old", "zz-fake-impl==1.0.0")
    adapter(adapters, "aa-new", "zz-fake-impl==1.2.0")
    adapter(adapters, "aa-series", "zz-fake-two==2.0.0", 'releases = "<3"\n')
    proc = outdated(tmp_path, index, adapters, "aa-old", "aa-new", "aa-series")
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert any(
        line.startswith(
            "aa-old: pins zz-fake-impl 1.0.0, the newest release is 1.2.0 (pip, Python "
        )
        for line in lines
    ), proc.stdout
    # 9.0.0 needs a Python this machine lacks; aa-new is current; aa-series follows "<3"
    assert not any(line.startswith(("aa-new", "aa-series")) for line in lines), proc.stdout
    assert not any("9.0.0" in line for line in lines)
    current = outdated(tmp_path, index, adapters, "aa-new", "aa-series")
    assert current.returncode == 0 and "every adapter pins the newest release" in current.stdout
