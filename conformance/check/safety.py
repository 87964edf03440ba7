"""What must be refused before any implementation opens a stranger's store.

The reference reads untrusted stores within its limits and never leaves them; implementations are
held by the harness (memory and time caps, killed trees) but not confined. So before any of them
opens the store:

- a codec that executes code on decode (numcodecs' Pickle, and the like) anywhere in its metadata,
  consolidated metadata included: decoding it would run the store's code in an implementation;
- in a directory: a FIFO, socket or device (a reader blocks on it or reads without end), or a
  symbolic link that leads out of the store, nowhere, or round in a loop (a reader follows it);
- in a zip: a member named with '..', an absolute path or a backslash, or flagged as a link.

`problems(...)` returns what it found, in words; an empty list lets the check go on.
"""

from __future__ import annotations

import os
import re
import stat
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from conformance.reference.stores import Store

# Codec names or ids that run code held in the chunk (pickle and its relatives).
CODE_EXECUTING = re.compile(r"pickle|dill|marshal|joblib", re.IGNORECASE)
MAX_EXAMPLES = 5
# Documents that can name codecs, per format (the consolidated ones hold other nodes' documents).
DOCUMENTS = {"v3": ("zarr.json",), "v2": (".zarray", ".zmetadata"), "v1": ("meta",)}


def problems(store: Store, location: Path | None, nodes: Iterable[tuple[str, str]]) -> list[str]:
    """Why implementations must not open the store; `nodes`: (format, path) of every node the
    reference found, `location`: the local directory or zip file, if it is one."""
    found = code_executing_codecs(store, nodes)
    if location is not None and location.is_dir():
        found += unsafe_entries(location)
    elif location is not None and zipfile.is_zipfile(location):
        found += unsafe_members(location)
    return found


def code_executing_codecs(store: Store, nodes: Iterable[tuple[str, str]]) -> list[str]:
    from conformance.reference import jsonio
    from conformance.reference.errors import ZarrError

    out: list[str] = []
    seen: set[str] = set()
    keys = [""] + [path for _, path in nodes]  # the root's consolidated metadata too
    formats = {fmt for fmt, _ in nodes} or set(DOCUMENTS)
    for path in keys:
        for fmt in formats:
            for name in DOCUMENTS.get(fmt, ()):
                key = f"{path}/{name}" if path else name
                if key in seen:
                    continue
                seen.add(key)
                try:
                    raw = store.get(key)
                    document = None if raw is None else jsonio.loads(raw, key)
                except ZarrError:
                    continue  # unreadable: no implementation gets a codec out of it either
                for codec in _codecs(document):
                    out.append(f"{key} names the code-executing codec {codec!r}")
    return out[:MAX_EXAMPLES]


def _codecs(value: Any, depth: int = 0) -> Iterator[str]:
    """Every codec name or id in a metadata document, attributes left out."""
    if depth > 64:
        return
    if isinstance(value, dict):
        for member in ("name", "id"):
            name = value.get(member)
            if isinstance(name, str) and CODE_EXECUTING.search(name):
                yield name
        for key, item in value.items():
            if key != "attributes" and not str(key).endswith(".zattrs"):
                yield from _codecs(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _codecs(item, depth + 1)


def unsafe_entries(root: Path) -> list[str]:
    out: list[str] = []
    real_root = os.path.realpath(root)
    for folder, dirs, files in os.walk(root):  # never follows links into folders
        for name in dirs + files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                target = os.path.realpath(path)
                if not os.path.exists(target):
                    out.append(f"{rel} is a symbolic link that leads nowhere (or in a loop)")
                elif os.path.commonpath([real_root, target]) != real_root:
                    out.append(f"{rel} is a symbolic link that leads out of the store")
                elif os.path.isdir(target) and real_root.startswith(target):
                    out.append(f"{rel} is a symbolic link to a folder holding it (a loop)")
            elif not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                out.append(f"{rel} is a special file (FIFO, socket or device)")
            if len(out) >= MAX_EXAMPLES:
                return out
    return out


def unsafe_members(archive: Path) -> list[str]:
    out: list[str] = []
    try:
        with zipfile.ZipFile(archive) as zf:
            members = zf.infolist()
    except (zipfile.BadZipFile, OSError):
        return []  # the reference's validation says why it cannot be read
    for info in members:
        name = info.filename
        parts = name.split("/")
        if name.startswith("/") or "\\" in name or ".." in parts:
            out.append(f"the zip member {name!r} names a path outside the archive")
        elif stat.S_ISLNK(info.external_attr >> 16):
            out.append(f"the zip member {name!r} is a symbolic link")
        if len(out) >= MAX_EXAMPLES:
            break
    return out
