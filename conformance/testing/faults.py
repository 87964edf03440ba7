"""Faults and hostile answers for stores under test: HTTP routes (conformance/testing/servers.py)
that fail, truncate or stall a read, a directory store with a truncated chunk, and the servers of
the hostile area's HTTP cases (fixtures/hostile/*/case.json `http`).

    with serve_hostile(case, folder) as url:          # the case's store behind its hostile routes
        URLStore(url)
    with faulted_store(case, "http-500", workdir) as spec:   # a valid corpus case, one chunk failing
        adapter.read(store=spec, ...)

A fault hits one stored chunk (the first in key order) of a valid case; every other key is served
as it is, so an implementation that swallows the fault returns data that differs from the case's
expected data: wrong data. Stalls wait on the server's stop event, so stopping the server ends them.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, fields
from pathlib import Path

from conformance.corpus.case import Case

from .servers import (
    Route,
    answer,
    endless_body,
    gzip_bomb,
    http_server,
    huge_content_length,
    redirect,
)

STALL_SECONDS = 600.0  # longer than any time budget: only a client's own timeout ends it
SAFETY = 2 << 30  # an endless answer stops after this many bytes: a client that never stops fails


def stall(seconds: float = STALL_SECONDS, length: int = 64) -> Route:
    """200 with a Content-Length of `length`, then nothing for `seconds`, then the connection closes."""

    def route(handler, send_body: bool) -> None:
        handler.begin(
            200, {"Content-Type": "application/octet-stream", "Content-Length": str(length)}
        )
        handler.close_connection = True
        handler.server.stopping.wait(seconds)

    return route


def truncated(data: bytes, keep: int) -> Route:
    """A well-formed 200 whose body (and Content-Length) is the first `keep` bytes of `data`: only
    the value's own framing can tell it is short."""
    return answer(200, data[:keep], {"Content-Type": "application/octet-stream"})


def closed_early(data: bytes, keep: int) -> Route:
    """200 declaring all of `data`, then `keep` bytes of it, then the connection is closed."""

    def route(handler, send_body: bool) -> None:
        handler.begin(
            200, {"Content-Type": "application/octet-stream", "Content-Length": str(len(data))}
        )
        handler.close_connection = True
        if send_body:
            handler.send(data[:keep])

    return route


# ---- the hostile area's HTTP cases --------------------------------------------------------------
def hostile_route(name: str, key: str, other_url: str | None) -> Route:
    """The route a hostile case.json names for one key."""
    if name == "endless_body":
        return endless_body(stop_after=SAFETY)
    if name == "huge_content_length":
        return huge_content_length(stop_after=SAFETY)
    if name == "gzip_bomb":
        return gzip_bomb(8 << 30)
    if name == "redirect_other_origin":
        return redirect(f"{other_url}/{key}")
    if name == "stall":
        return stall()
    raise ValueError(f"unknown hostile route {name!r}")


@contextmanager
def serve_hostile(case, folder: Path) -> Iterator[str]:
    """Serve `folder`/store (a materialised copy of an HTTP hostile case) with the case's routes;
    yield the store's URL. `other_origin`: `folder`/outside is served on a second port."""
    spec = case.raw["http"]
    with ExitStack() as stack:
        server = stack.enter_context(http_server(folder / "store"))
        other = (
            stack.enter_context(http_server(folder / "outside")).url
            if spec.get("other_origin")
            else None
        )
        for key, route in spec["routes"].items():
            server.routes[f"/{key}"] = hostile_route(route["route"], key, other)
        yield server.url


# ---- faults on valid cases ----------------------------------------------------------------------
@dataclass(frozen=True)
class Fault:
    name: str
    description: str
    http: bool  # served over HTTP (adapters declaring store:http), else a directory store


FAULTS = {
    f.name: f
    for f in (
        Fault("http-500", "the chunk's GET answers 500 Internal Server Error", True),
        Fault(
            "http-truncated",
            "the chunk's GET answers 200 with only half the bytes (and a matching Content-Length)",
            True,
        ),
        Fault(
            "http-closed-early",
            "the chunk's GET declares its full length, sends half and closes the connection",
            True,
        ),
        Fault(
            "http-stall",
            "the chunk's GET sends headers and then nothing (beyond any timeout)",
            True,
        ),
        Fault(
            "directory-truncated-chunk",
            "the chunk's file in a directory store is cut to half its length",
            False,
        ),
    )
}
# Valid corpus cases the faults are applied to: a compressed v3 array and an uncompressed v2 one
# (where a short chunk is caught only by checking its size), both of several chunks.
BASE_CASES = ("v3/codecs/gzip-level-1", "v2/chunks/multi-digit-keys")


def faulted_key(store: Path) -> str:
    """The chunk a fault hits: the first stored key, in key order, that is not metadata."""
    metadata = {"zarr.json", ".zarray", ".zgroup", ".zattrs", ".zmetadata"}
    keys = sorted(
        p.relative_to(store).as_posix()
        for p in store.rglob("*")
        if p.is_file() and p.name not in metadata
    )
    if not keys:
        raise ValueError(f"{store}: no chunk to fault")
    return keys[0]


def fault_route(fault: str, data: bytes) -> Route:
    half = len(data) // 2
    if fault == "http-500":
        return answer(500, b"internal error\n")
    if fault == "http-truncated":
        return truncated(data, half)
    if fault == "http-closed-early":
        return closed_early(data, half)
    if fault == "http-stall":
        return stall(length=len(data))
    raise ValueError(f"not an HTTP fault: {fault!r}")


@contextmanager
def faulted_store(case, fault: str, workdir: Path) -> Iterator[dict]:
    """A copy of valid `case`'s store in `workdir` with `fault` applied to one chunk; yields the
    read request's `store` object (a URL for HTTP faults, served for the duration)."""
    store = workdir / "store"
    shutil.copytree(case.store_path, store, symlinks=True)
    key = faulted_key(store)
    path = store.joinpath(*key.split("/"))
    if not FAULTS[fault].http:
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
        yield {"kind": "directory", "location": str(store.resolve())}
        return
    with http_server(store) as server:
        server.routes[f"/{key}"] = fault_route(fault, path.read_bytes())
        yield {"kind": "url", "location": server.url}


@dataclass
class FaultCase(Case):
    """A fault applied to a valid corpus case: id `fault/<fault>/<base case id>`."""

    fault: str = ""
    base: Case | None = None

    @property
    def store_kind(self) -> str:
        return "http" if FAULTS[self.fault].http else "directory"


def fault_cases(cases) -> list[FaultCase]:
    """Every fault on every base case found among `cases` (the corpus's), ordered by id."""
    by_id = {c.id: c for c in cases}
    out = []
    for base_id in BASE_CASES:
        base = by_id.get(base_id)
        if base is None:
            continue
        for fault in FAULTS.values():
            kind = "http" if fault.http else "directory"
            members = {f.name: getattr(base, f.name) for f in fields(Case)}
            members.update(
                id=f"fault/{fault.name}/{base.id}",
                kind="fault",
                tier="hostile",
                description=f"{fault.description}: {base.description}",
                needs=frozenset(base.needs - {"store:directory"} | {"op:read", f"store:{kind}"}),
            )
            out.append(FaultCase(**members, fault=fault.name, base=base))
    return sorted(out, key=lambda c: c.id)
