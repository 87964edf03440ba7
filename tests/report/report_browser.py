"""What the browser tests of the report use: Debian's chromium driven by playwright, axe-core for
accessibility and the Nu HTML Checker (vnu.jar, run by Java) for validity. The two npm packages
are installed once into the shared cache, like adapters' npm folders (only the npm registry is
contacted, and only the first time)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Pinned: a new axe-core release can add rules, a new checker can judge differently.
NPM_TOOLS = ("axe-core@4.14.1", "vnu-jar@26.9.27")


def ensure_chromium() -> str:
    if not os.path.exists(CHROMIUM) and shutil.which("apt-get") and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "chromium"],
            env=env,
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=900,
        )
    if not os.path.exists(CHROMIUM):
        pytest.fail(
            "chromium is not installed and could not be installed (apt-get install chromium)"
        )
    return CHROMIUM


def node_tools() -> Path:
    """node_modules holding axe-core and vnu-jar (installed into the cache on first use)."""
    from conformance.harness.envs import ProvisioningError, ensure_npm

    if shutil.which("npm") is None:
        pytest.fail(
            "npm is not on PATH: the report's browser tests need it for axe-core and vnu-jar"
        )
    try:
        return ensure_npm(SimpleNamespace(name="report-tests", npm=NPM_TOOLS))  # type: ignore[arg-type]
    except ProvisioningError as error:
        pytest.fail(f"could not install {', '.join(NPM_TOOLS)} from npm: {error}")


def axe_script(modules: Path) -> Path:
    return modules / "axe-core" / "axe.min.js"


def validate_html(modules: Path, folder: Path) -> list[str]:
    """The Nu HTML Checker's errors for every .html file under `folder` (empty: all valid)."""
    java = shutil.which("java")
    if java is None:
        pytest.fail(
            "java is not installed: the Nu HTML Checker needs it (apt-get install default-jre-headless)"
        )
    jar = modules / "vnu-jar" / "build" / "dist" / "vnu.jar"
    proc = subprocess.run(
        [java, "-Xss8m", "-jar", str(jar), "--errors-only", "--skip-non-html", str(folder)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    return [line for line in proc.stderr.splitlines() if line.strip()]
