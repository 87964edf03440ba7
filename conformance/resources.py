"""Where the data the suite runs on lives: the golden corpus (fixtures/), the adapter folders
(adapters/) and the cache (adapter environments, saved property failures).

From a checkout (the package sits beside pyproject.toml, fixtures/ and adapters/) they are the
checkout's folders and `<checkout>/.cache`. From an installed wheel (pip install from a git URL or
a wheel file, no checkout around) they are the copies the build bundled into the package
(`conformance/_data/fixtures`, `conformance/_data/adapters`: setup.py) and the per-user cache
`$XDG_CACHE_HOME/zarr-conformance` (default `~/.cache/zarr-conformance`). The environment
variables `ZARR_CONFORMANCE_FIXTURES`, `ZARR_CONFORMANCE_ADAPTERS` and `ZARR_CONFORMANCE_CACHE`
(and the `--corpus` option) override them as before.

The corpus carries its version in `<corpus>/VERSION` (semver, fixtures/README.md); results record
it (`corpus_version` in `<results>.meta.json`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
# The folder the package sits in: the checkout's root when run from one (checkout_root() says
# whether it is); the only place that counts parent folders of the package.
REPO_ROOT = PACKAGE_DIR.parent
# The requirement catalogue ships inside the package; conformance.corpus.requirements parses it.
CATALOGUE = PACKAGE_DIR / "requirements.md"
BUNDLED = PACKAGE_DIR / "_data"  # filled by setup.py's build step; absent in a checkout
SEMVER = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?")


def checkout_root() -> Path | None:
    """The source checkout this package is imported from, or None (an installed wheel)."""
    root = REPO_ROOT
    if (
        (root / "pyproject.toml").is_file()
        and (root / "fixtures").is_dir()
        and (root / "adapters").is_dir()
    ):
        return root
    return None


def _data(name: str) -> Path:
    root = checkout_root()
    if root is not None:
        return root / name
    if (BUNDLED / name).is_dir():
        return BUNDLED / name
    return REPO_ROOT / name  # neither: where a checkout would have it (error messages name it)


def fixtures_dir() -> Path:
    """The corpus shipped with this package (without the ZARR_CONFORMANCE_FIXTURES override)."""
    return _data("fixtures")


def adapters_dir() -> Path:
    """The adapter folders shipped with this package."""
    return _data("adapters")


def default_cache() -> Path:
    """The cache root when ZARR_CONFORMANCE_CACHE is not set."""
    root = checkout_root()
    if root is not None:
        return root / ".cache"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "zarr-conformance"


def corpus_version(root: str | os.PathLike | None = None) -> str | None:
    """The semver version of the corpus at `root` (its VERSION file), or None when it has none."""
    if root is None:
        from conformance.corpus.case import default_root

        root = default_root()
    path = Path(root) / "VERSION"
    try:
        text = path.read_text("utf-8").strip()
    except OSError:
        return None
    return text or None


def is_bundled(path: str | os.PathLike) -> bool:
    """Is `path` inside the installed package (a place no run should write to)?"""
    try:
        Path(path).resolve().relative_to(PACKAGE_DIR)
    except ValueError:
        return False
    return True


def corpus_label(root: str | os.PathLike) -> str:
    """How a run's results name its corpus: the bundled or the checkout's corpus by a path
    relative to the package or the checkout (an absolute path is this machine's, not the run's);
    any other corpus by its path as given."""
    path = Path(root).resolve()
    for base, prefix in ((PACKAGE_DIR, "conformance"), (checkout_root(), None)):
        if base is None:
            continue
        try:
            relative = path.relative_to(base.resolve())
        except ValueError:
            continue
        return f"{prefix}/{relative}" if prefix else str(relative)
    return str(root)


def version_matches(have: str | None, wanted: str) -> bool:
    """`1.2.0` matches `1.2.0`, `1.2` and `1`; nothing matches a corpus without a version."""
    if not have:
        return False
    wanted = wanted.strip().removeprefix("v")
    return have == wanted or have.startswith(wanted + ".") or have.startswith(wanted + "-")
