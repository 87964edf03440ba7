"""The upstream bug reports behind `issue = "unreported"` known failures.

Every report reports/upstream/<impl>/<slug>.md holds exactly one reproducer, a fenced block tagged
```` ```python reproduce ```` or ```` ```js reproduce ````. <impl> is the adapter whose environment
runs it: Python in the adapter's own venv (the caller's interpreter for adapters without
requirements, such as the reference), JS as an ES module written next to the adapter's
`node_modules`, so that bare imports ("zarrita") resolve. While the bug exists the reproducer ends
with an uncaught AssertionError; one that exits 0 means the bug is fixed upstream, one that dies of
anything else is broken.

A report of a bug some release fixed (every known failure naming it has a `versions` range that
excludes the pinned release) runs against the newest release inside that range instead, in that
release's own venv and Python (a version row's environment: conformance.harness.variants), so that
it still shows the bug as it was.

The bookkeeping tests check that every "unreported" known failure names an existing report, that
every report is named by a known failure, and that each report names the version it runs against.

Each report is one test (one child process), so pytest-xdist spreads them over its workers; with
`--dist loadgroup` the reports of one adapter stay on one worker."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from conformance.harness import envs
from conformance.harness.config import all_adapters, find_adapter
from conformance.resources import REPO_ROOT

REPORTS = REPO_ROOT / "reports" / "upstream"
BLOCK = re.compile(r"^```(python|js) reproduce[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
ANY_BLOCK = re.compile(r"^```[^\n`]*\breproduce\b", re.M)
TIMEOUT = 180  # seconds for one reproducer (a first run may still be importing a large library)


def report_files() -> list[Path]:
    return sorted(REPORTS.glob("*/*.md"))


def report_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def reproducer(path: Path) -> tuple[str, str]:
    """(language, code) of the report's single reproduce block."""
    text = path.read_text("utf-8")
    blocks = BLOCK.findall(text)
    tagged = ANY_BLOCK.findall(text)
    assert len(blocks) == 1 and len(tagged) == 1, (
        f"{report_id(path)}: needs exactly one ```python reproduce or ```js reproduce block, "
        f"found {len(tagged)} reproduce block(s), {len(blocks)} of them well-formed"
    )
    return blocks[0]


def adapter_of(path: Path):
    try:
        return find_adapter(path.parent.name)
    except Exception as exc:
        pytest.fail(
            f"{report_id(path)}: the folder {path.parent.name!r} must be the name of an adapter: {exc}"
        )


def pinned_version(config) -> str | None:
    """The version of the adapter's first pin, its implementation ("zarr==3.1.6", "zarrita@0.7.5")."""
    pins = [*config.npm, *config.requirements] if config.npm else list(config.requirements)
    if not pins:
        return None
    first = pins[0]
    return first.rsplit("@", 1)[1] if config.npm else re.split(r"==", first, maxsplit=1)[1]


def reproducing(config, report: Path) -> tuple:
    """(the adapter config, the implementation version) a report's reproducer runs with: the
    pinned release, or for a bug fixed since, the newest release inside the range of the known
    failures naming the report (their `versions`)."""
    from conformance.harness import interpreters
    from conformance.harness.variants import at_version, main_package

    rel = report.relative_to(REPO_ROOT).as_posix()
    entries = [k for k in config.known_failures if k.report == rel]
    pinned = pinned_version(config)
    if pinned is None or not entries or any(k.holds_for(pinned) for k in entries):
        return config, pinned
    package = main_package(config)[0]
    python = envs.base_python(config)
    inside = [
        v for v in interpreters.releases(package, python) if any(k.holds_for(v) for k in entries)
    ]
    assert inside, (
        f"{report_id(report)}: the package index has no release its known failures hold for"
    )
    return at_version(config, inside[0]), inside[0]


def final_exception(stderr: str, language: str) -> str | None:
    """The class name of the exception that ended the process, from its report on stderr."""
    lines = stderr.splitlines()
    if language == "python":
        starts = [
            i
            for i, line in enumerate(lines)
            if line.startswith("Traceback (most recent call last):")
        ]
        if starts:
            for line in lines[starts[-1] + 1 :]:
                if line and not line[0].isspace():
                    return re.split(r"[:\s]", line, maxsplit=1)[0].rsplit(".", 1)[-1]
        return None
    # node prints the throwing source line, a caret, then the error's stack ("Name [CODE]: message").
    for line in lines:
        m = re.match(r"^(?:Uncaught )?([A-Za-z_$][\w$]*)(?: \[[A-Z0-9_]+\])?(?::|$)", line)
        if m and (m.group(1).endswith(("Error", "Exception")) or m.group(1) == "Error"):
            return m.group(1)
    return None


def run_python(config, code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    python = str(envs.adapter_python(config))  # its venv, adapter.toml `python`, or the caller's
    script = tmp_path / "reproduce.py"
    script.write_text(code, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the reproducer stands alone
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(
        [python, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def run_node(config, code: str, slug: str) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH")
    folder = envs.ensure_npm(config).parent  # ESM resolves bare imports from the script's folder
    script = (
        folder / f"_reproduce_{slug}_{uuid.uuid4().hex[:8]}.mjs"
    )  # unique: workers share the folder
    script.write_text(code, encoding="utf-8")
    try:
        return subprocess.run(
            [node, str(script)],
            cwd=folder,
            env=dict(os.environ),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    finally:
        script.unlink(missing_ok=True)


def _params():
    out = []
    for path in report_files():
        out.append(
            pytest.param(path, id=report_id(path), marks=pytest.mark.xdist_group(path.parent.name))
        )
    return out


@pytest.mark.parametrize("report", _params())
def test_reproducer_still_fails(report: Path, tmp_path: Path):
    language, code = reproducer(report)
    config = adapter_of(report)
    wanted = "js" if config.npm else "python"
    assert language == wanted, (
        f"{report_id(report)}: adapter {config.name} runs ```{wanted} reproduce blocks, not {language}"
    )
    try:
        if language == "js":
            proc = run_node(config, code, report.stem)
        else:
            proc = run_python(reproducing(config, report)[0], code, tmp_path)
    except envs.ProvisioningError as exc:
        pytest.skip(f"cannot make the environment of {config.name}: {exc}")
    except subprocess.TimeoutExpired:
        pytest.fail(f"{report_id(report)}: the reproducer is broken: no answer within {TIMEOUT} s")
    tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-25:])
    if proc.returncode == 0:
        pytest.fail(
            f"{report_id(report)}: the bug seems fixed upstream: remove the known failure "
            f"(and this report); the reproducer exited 0\n{tail}"
        )
    name = final_exception(proc.stderr, language)
    if name is None and "AssertionError" in proc.stderr:
        name = "AssertionError"
    if name != "AssertionError":
        pytest.fail(
            f"{report_id(report)}: the reproducer is broken: it ended with {name or 'no exception'} "
            f"(exit {proc.returncode}), not an uncaught AssertionError\n{tail}"
        )


def known_failures_by_report() -> dict[str, list[str]]:
    """report path -> ids of the known-failure entries naming it, over every adapter."""
    named: dict[str, list[str]] = {}
    for config in all_adapters():
        for entry in config.known_failures:
            if entry.report:
                named.setdefault(entry.report, []).append(f"{config.name}:{entry.id}")
    return named


def test_unreported_known_failures_have_reports():
    missing = []
    for config in all_adapters():
        for entry in config.known_failures:
            if entry.issue == "unreported" and not (
                entry.report and (REPO_ROOT / entry.report).is_file()
            ):
                missing.append(f"{config.name}:{entry.id} -> {entry.report}")
    assert not missing, (
        "known failures with issue 'unreported' whose report does not exist:\n  "
        + "\n  ".join(missing)
    )


def test_every_report_is_named_by_a_known_failure():
    named = known_failures_by_report()
    orphans = [
        report_id(p) for p in report_files() if p.relative_to(REPO_ROOT).as_posix() not in named
    ]
    assert not orphans, (
        "reports no known-failure entry names (remove them, or add the entry):\n  "
        + "\n  ".join(orphans)
    )


@pytest.mark.parametrize("report", [pytest.param(p, id=report_id(p)) for p in report_files()])
def test_report_names_the_version_it_runs_against(report: Path):
    config = adapter_of(report)
    version = reproducing(config, report)[1]
    if version is None:
        pytest.skip(f"{config.name} pins no version")
    text = report.read_text("utf-8")
    assert re.search(rf"(?<![\w.]){re.escape(version)}(?![\w]|\.\d)", text), (
        f"{report_id(report)}: does not name the version {version} of {config.name} it runs against"
    )
