"""Facts about the machine and software a figure was measured with."""

from __future__ import annotations

import os
import platform
from importlib import metadata


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib() -> float | None:
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        return None


def package_versions(names) -> dict[str, str]:
    out = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return out


def machine_facts() -> dict:
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": _memory_gib(),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "packages": package_versions(
            [
                "zarr-conformance",
                "numpy",
                "numcodecs",
                "zarr",
                "crc32c",
                "tensorstore",
                "zarrs",
                "matplotlib",
            ]
        ),
    }
