"""Facts about the machine and software a figure was measured with, and how busy it was."""

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


def load_sample() -> dict:
    """How busy the machine is now: the load averages (1, 5, 15 minutes: runnable processes,
    above the core count they wait for a CPU) and, where the kernel has pressure stall
    information, the share of the last 10 s and 60 s in which some runnable task waited for a CPU."""
    out: dict = {}
    try:
        out["load_1min"], out["load_5min"], out["load_15min"] = (
            round(x, 2) for x in os.getloadavg()
        )
    except OSError:
        pass
    try:
        with open("/proc/pressure/cpu") as f:
            some = f.readline().split()
        fields = dict(item.split("=", 1) for item in some[1:])
        out["cpu_pressure_10s"] = float(fields["avg10"]) / 100
        out["cpu_pressure_60s"] = float(fields["avg60"]) / 100
    except (OSError, KeyError, ValueError):
        pass
    return out
