"""The property tests as the harness sees them (conformance/suite/test_properties.py runs them):
the ids their records carry, the format each one checks, how a run draws their examples, and where
saved failures live and which of them a run replays. They live here, not in the suite, because
planning, parametrisation and records need them without importing the tests."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .envs import cache_root

if TYPE_CHECKING:
    from conformance.corpus import Case

# Property tests are recorded like cases, under these ids (known failures can name them).
PROPERTY_FORMATS = {"property/roundtrip-v3": "v3", "property/roundtrip-v2": "v2"}
PROPERTIES = tuple(PROPERTY_FORMATS)

# Examples per property and pair, and the seed they are drawn with (deterministic mode).
EXAMPLES = 100
PROPERTY_SEED = 20250601


def property_id(function_name: str) -> str:
    """`test_property_roundtrip_v3` -> `property/roundtrip-v3`."""
    name = function_name.removeprefix("test_property_").replace("_", "-")
    return f"property/{name}"


def example_settings(options: object) -> dict[str, Any]:
    """How property examples are drawn in this run: `mode` deterministic (fixed seed and number),
    explore (fresh random examples) or `profile NAME` (a hypothesis profile other than default/ci
    chosen with --hypothesis-profile decides for itself)."""
    from hypothesis import settings

    profile = settings.get_current_profile_name()
    examples = getattr(options, "examples", None)
    shrink = {"shrink": getattr(options, "shrink", True)}
    if getattr(options, "explore", False):
        return {"mode": "explore", "seed": None, "examples": examples or EXAMPLES, **shrink}
    if profile not in ("default", "ci"):
        return {
            "mode": f"profile {profile}",
            "seed": None,
            "examples": examples or settings().max_examples,  # the profile's own
            **shrink,
        }
    return {
        "mode": "deterministic",
        "seed": PROPERTY_SEED,
        "examples": examples or EXAMPLES,
        **shrink,
    }


def is_found(case: Case) -> bool:
    """A saved property failure (conformance.suite.failures): replayed by the property tests."""
    return bool(case.provenance and case.provenance.get("property"))


def found_root(corpus_root: str | os.PathLike[str] | None = None) -> Path:
    """The corpus root explore mode saves new failures into: `$ZARR_CONFORMANCE_FOUND`, else the
    corpus being run when it is writable (a checkout's fixtures/), else the cache corpus."""
    from conformance.resources import is_bundled

    env = os.environ.get("ZARR_CONFORMANCE_FOUND")
    if env:
        return Path(env)
    if corpus_root is None:
        from conformance.corpus import default_root

        corpus_root = default_root()
    root = Path(corpus_root)
    if root.is_dir() and not is_bundled(root) and os.access(root, os.W_OK):
        return root
    return cache_root() / "corpus"


def extra_found_cases(corpus_root: str | os.PathLike[str], explicit: bool = False) -> list[Case]:
    """Saved failures kept outside the corpus being run (the cache corpus, or
    $ZARR_CONFORMANCE_FOUND): part of every run over the default corpus (`explicit`: the run names
    its corpus, then only $ZARR_CONFORMANCE_FOUND adds to it)."""
    if explicit and not os.environ.get("ZARR_CONFORMANCE_FOUND"):
        return []
    extra = found_root(corpus_root)
    root = Path(corpus_root)
    if not extra.is_dir() or extra.resolve() == root.resolve():
        return []
    from conformance.corpus import load_cases

    return [
        c for c in load_cases(extra) if is_found(c) and not (root / c.id / "case.json").is_file()
    ]
