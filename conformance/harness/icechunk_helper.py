"""The Icechunk side of the `icechunk` store kind: a process the harness runs in a venv of its own
(Python 3.12 and exact pins: conformance.harness.icechunk_store), because Icechunk 2 needs a newer
Python than the harness's. It makes repositories on the local file system from case stores, empty
ones for writes, and copies a branch's committed keys into a directory:

    python -m conformance.harness.icechunk_helper

Newline-delimited JSON on stdin and stdout, framed as adapters' are (`id`, `ok`, `elapsed`; op
`shutdown` ends it):

    {"op": "describe"}                          -> {"versions": {"icechunk": ..., "zarr": ...}}
    {"op": "holds", "store": DIR}               -> {"refused": null | "why"}
    {"op": "make", "store": DIR, "repo": REPO}  -> {"refused": null | "why", "snapshot": id}
    {"op": "create", "repo": REPO}              -> {"snapshot": id}
    {"op": "export", "repo": REPO, "branch": B, "into": DIR} -> {"keys": n, "skipped": [...]}

`make` sets every key of the folder DIR through a writable session's store, commits it on `main`,
then reads each key back from the commit byte for byte and compares the listing with the folder's
keys; `holds` does the same into a repository in memory, to ask whether Icechunk can hold DIR. Only Icechunk and
zarr's buffer type are used: the keys go through IcechunkStore.set / get / list, the store layer
every Zarr implementation writes through.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
import time
from typing import Any

BRANCH = "main"

# Icechunk and zarr are imported where they are used: the harness imports this module's name
# without them (its own environment has neither).


@functools.cache
def prototype() -> Any:
    from zarr.core.buffer import default_buffer_prototype

    return default_buffer_prototype()


def keys_of(folder: str) -> list[str]:
    """The keys of a directory store: metadata documents first, shallowest first (Icechunk takes a
    chunk only below an array it knows), then every other key in sorted order."""
    keys = []
    for where, _, files in os.walk(folder):
        for name in files:
            rel = os.path.relpath(os.path.join(where, name), folder)
            keys.append(rel.replace(os.sep, "/"))
    documents = sorted((k for k in keys if k.rsplit("/", 1)[-1] == "zarr.json"), key=_depth)
    return documents + sorted(k for k in keys if k.rsplit("/", 1)[-1] != "zarr.json")


def _depth(key: str) -> tuple[int, str]:
    return key.count("/"), key


def read_key(folder: str, key: str) -> bytes:
    with open(os.path.join(folder, *key.split("/")), "rb") as f:
        return f.read()


def first_line(exc: BaseException) -> str:
    """Icechunk's message without the span trace it appends."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"


async def fill(store: Any, folder: str) -> str | None:
    """Set every key of `folder` into the store; why Icechunk refused one, or None."""
    for key in keys_of(folder):
        try:
            await store.set(key, prototype().buffer.from_bytes(read_key(folder, key)))
        except Exception as exc:
            return f"Icechunk refuses to set {key!r}: {first_line(exc)}"
    return None


async def compare(store: Any, folder: str) -> str | None:
    """Does the store hold exactly the folder's keys, byte for byte? Why not, or None."""
    keys = keys_of(folder)
    for key in keys:
        held = await store.get(key, prototype())
        stored = read_key(folder, key)
        if held is None:
            return f"Icechunk accepted {key!r} ({len(stored)} bytes) but does not hold it"
        if held.to_bytes() != stored:
            return f"Icechunk holds other bytes under {key!r} than were set"
    listed = sorted([key async for key in store.list()])
    if listed != sorted(keys):
        extra = sorted(set(listed) - set(keys))
        lost = sorted(set(keys) - set(listed))
        return f"Icechunk lists other keys than were set: {extra} more, {lost} fewer"
    return None


def storage(repo: str) -> Any:
    import icechunk

    return icechunk.local_filesystem_storage(repo)


def holds(folder: str) -> dict:
    """make() into a repository in memory."""
    import icechunk

    return commit_folder(icechunk.Repository.create(icechunk.in_memory_storage()), folder)


def make(folder: str, repo: str) -> dict:
    import icechunk

    return commit_folder(icechunk.Repository.create(storage(repo)), folder)


def commit_folder(repository: Any, folder: str) -> dict:
    """Set every key of `folder`, commit on main, and compare what the commit holds with the
    folder (a commit can drop what the session held: a chunk key beyond the array's grid)."""
    session = repository.writable_session(BRANCH)
    why = asyncio.run(fill(session.store, folder))
    if why is not None:
        return {"refused": why, "snapshot": None}
    snapshot = session.commit("the case's store, every key as stored")
    committed = repository.readonly_session(branch=BRANCH)
    return {"refused": asyncio.run(compare(committed.store, folder)), "snapshot": snapshot}


def create(repo: str) -> dict:
    import icechunk

    repository = icechunk.Repository.create(storage(repo))
    return {"snapshot": repository.lookup_branch(BRANCH)}


async def copy_out(store: Any, into: str) -> tuple[int, list[str]]:
    count, skipped = 0, []
    for key in sorted([key async for key in store.list()]):
        parts = key.split("/")
        if any(p in ("", ".", "..") for p in parts):
            skipped.append(key)  # no directory can hold it: the judge sees it missing
            continue
        held = await store.get(key, prototype())
        if held is None:
            continue
        target = os.path.join(into, *parts)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(held.to_bytes())
        count += 1
    return count, skipped


def export(repo: str, branch: str, into: str) -> dict:
    """Every key committed on `branch`, as files under `into` (uncommitted changes are lost with
    the writer's session: a write that did not commit leaves nothing)."""
    import icechunk

    repository = icechunk.Repository.open(storage(repo))
    session = repository.readonly_session(branch=branch)
    os.makedirs(into, exist_ok=True)
    count, skipped = asyncio.run(copy_out(session.store, into))
    return {"keys": count, "skipped": skipped}


def describe() -> dict:
    from importlib.metadata import version

    import icechunk

    return {"versions": {"icechunk": icechunk.__version__, "zarr": version("zarr")}}


OPS = {
    "describe": lambda r: describe(),
    "holds": lambda r: holds(r["store"]),
    "make": lambda r: make(r["store"], r["repo"]),
    "create": lambda r: create(r["repo"]),
    "export": lambda r: export(r["repo"], r.get("branch", BRANCH), r["into"]),
}


def answer(request: dict) -> dict:
    start = time.perf_counter()
    op = request.get("op")
    try:
        if op == "shutdown":
            body: dict = {}
        elif op in OPS:
            body = OPS[op](request)
        else:
            raise ValueError(f"unknown op {op!r}")
        response = {"ok": True, **body}
    except Exception as exc:
        response = {"ok": False, "error": {"type": type(exc).__name__, "message": str(exc)}}
    response.update(id=request.get("id"), elapsed=time.perf_counter() - start)
    return response


def main() -> int:
    # The protocol keeps fd 1; anything a library prints goes to stderr.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    # Icechunk warns on every local repository that its commits are not safe under concurrency:
    # each repository here has one writer.
    import icechunk

    icechunk.set_logs_filter("error")
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as exc:
            request = {"id": -1, "op": f"unreadable request: {exc}"}
        out.write(json.dumps(answer(request)) + "\n")
        out.flush()
        if request.get("op") == "shutdown":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
