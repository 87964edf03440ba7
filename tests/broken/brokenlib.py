"""Shared by the miniature broken implementations: the reference adapter, and two ways to bend it
that do not depend on the reference's internals:

- BentReader reads through a private copy of the store whose metadata documents `bend` rewrote
  (the implementation misunderstands a member);
- BentWriter lets the reference write, then `spoil` rewrites the written store (the implementation
  writes something else than the spec says).

The rest patch one reference function, which is safe because every adapter runs in its own
process (never run these with --in-process: the patch would reach the judge).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from conformance.harness.config import ADAPTERS_DIR
from conformance.harness.serve import load_adapter_class

Reference = load_adapter_class(ADAPTERS_DIR / "reference")

METADATA_NAMES = {"zarr.json", ".zarray", ".zgroup", ".zattrs", ".zmetadata", "meta", "attrs"}


def is_metadata_key(key: str) -> bool:
    name = key.rsplit("/", 1)[-1]
    return name in METADATA_NAMES or name.endswith((".array.json", ".group.json"))


def copy_store(spec: dict, target: Path) -> Path:
    """A directory copy of the store a request names (zip stores are unpacked)."""
    if spec["kind"] == "zip":
        with zipfile.ZipFile(spec["location"]) as zf:
            zf.extractall(target)
    else:
        shutil.copytree(spec["location"], target, symlinks=True)
    return target


def metadata_documents(root: Path):
    """(path, key, parsed JSON object) of every metadata document under root (unparsable ones are
    skipped: they belong to reject cases and stay as they are)."""
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            path = Path(dirpath) / name
            key = path.relative_to(root).as_posix()
            if not is_metadata_key(key):
                continue
            try:
                doc = json.loads(path.read_bytes())
            except ValueError:
                continue
            if isinstance(doc, dict):
                yield path, key, doc


def rewrite_metadata(root: Path, bend) -> None:
    for path, key, doc in list(metadata_documents(root)):
        before = json.dumps(doc, sort_keys=True)
        bent = bend(key, json.loads(before))
        if bent is not None and json.dumps(bent, sort_keys=True) != before:
            path.write_text(json.dumps(bent))


class BentReader(Reference):
    def bend(self, key: str, doc: dict) -> dict | None:
        raise NotImplementedError

    def read(self, request: dict) -> dict:
        with tempfile.TemporaryDirectory() as tmp:
            root = copy_store(request["store"], Path(tmp) / "store")
            rewrite_metadata(root, self.bend)
            return super().read(dict(request, store={"kind": "directory", "location": str(root)}))


class BentWriter(Reference):
    def spoil(self, root: Path, request: dict) -> None:
        raise NotImplementedError

    def write(self, request: dict) -> dict:
        response = super().write(request)
        self.spoil(Path(request["store"]["location"]), request)
        return response


def array_kind(doc: dict) -> str | None:
    """'v3', 'v2' or 'v1' for an array metadata document, else None."""
    if doc.get("zarr_format") == 3 and doc.get("node_type") == "array":
        return "v3"
    if doc.get("zarr_format") == 2 and "chunks" in doc:
        return "v2"
    if doc.get("zarr_format") == 1 and "chunks" in doc:
        return "v1"
    return None


def bend_codecs(codecs: list, bend_config) -> list:
    """A copy of a v3 codec list with `bend_config(name, config)` applied to every codec's
    configuration (a mutable copy), nested sharding codecs included."""
    out = []
    for codec in codecs:
        codec = dict(codec)
        config = dict(codec.get("configuration") or {})
        bend_config(codec.get("name"), config)
        if codec.get("name") == "sharding_indexed":
            config["codecs"] = bend_codecs(config.get("codecs", []), bend_config)
        if config:
            codec["configuration"] = config
        out.append(codec)
    return out
