"""`zarr-conformance adapters new NAME --lang python|js`: the folder of a new adapter that runs at
once. Every operation refuses with the protocol's Unsupported until it is written, and adapter.toml
declares that refusal, so the first run over the corpus records `unsupported`, never `errored`;
each operation filled in then turns its records into verdicts."""

from __future__ import annotations

import re
from pathlib import Path

from ..resources import checkout_root

LANGUAGES = ("python", "js")
NAME = re.compile(r"^[a-z0-9][a-z0-9._-]*$")  # adapter-toml.json's pattern for `name`

# The answer every unwritten operation gives; adapter.toml's first [[errors]] entry declares it.
TODO_PREFIX = "not implemented yet: "


class SkeletonError(Exception):
    """The skeleton cannot be written (a bad name, an existing folder)."""


def default_parent() -> Path:
    """Where `adapters new` puts the folder without --dir: the checkout's adapters/ (so that
    `--impl NAME` finds it), else the current directory (an installed package's own folder is no
    place for it; run it by path)."""
    root = checkout_root()
    return root / "adapters" if root is not None else Path.cwd()


def write_skeleton(name: str, lang: str, parent: Path) -> Path:
    """Write the adapter folder `parent/name`; returns it."""
    if not NAME.match(name):
        raise SkeletonError(
            f"adapter name {name!r}: lowercase letters, digits, '.', '_' and '-', starting with a "
            "letter or digit (it is the folder's name and --impl's)"
        )
    if lang not in LANGUAGES:
        raise SkeletonError(f"--lang {lang!r}: one of {', '.join(LANGUAGES)}")
    folder = parent / name
    if folder.exists() and any(folder.iterdir()):
        raise SkeletonError(f"{folder} exists and is not empty: nothing written")
    files = {
        "adapter.toml": _adapter_toml(name, lang),
        "known-failures.toml": KNOWN_FAILURES.replace("NAME", name),
    }
    if lang == "python":
        files["adapter.py"] = PYTHON_ADAPTER.replace("NAME", name)
    else:
        files["harness.mjs"] = JS_ADAPTER.replace("NAME", name)
    folder.mkdir(parents=True, exist_ok=True)
    for file, text in files.items():
        (folder / file).write_text(text, "utf-8")
    return folder


def _adapter_toml(name: str, lang: str) -> str:
    transport = PYTHON_TRANSPORT if lang == "python" else JS_TRANSPORT
    return ADAPTER_TOML.replace("TRANSPORT", transport.strip("\n")).replace("NAME", name)


ADAPTER_TOML = """\
# The adapter NAME: what it is, how the harness starts it, what it declares (adapters/README.md,
# "adapter.toml"; checked against conformance/harness/schemas/adapter-toml.json).
name = "NAME"  # must equal the folder's name
description = "TODO: the implementation, its version and the public calls the adapter makes"

TRANSPORT

# What the adapter declares it supports (vocabulary: conformance/corpus/capabilities.py; an unknown
# name is an error). Start with the minimum and add a capability once the cases needing it pass.
#
# A case that needs a format, data type, codec, feature, store or node kind NOT declared here
# still runs in a default `zarr-conformance run` and in the report, as a probe ("probe": true in
# its record): a clean refusal is `unsupported`, a pass is `passed` ("probe passed: the adapter
# could declare ..."), and otherwise it is judged as any record: wrong data is `wrong-data`, a
# crash or hang `errored` (which fails that run), an accepted invalid store `failed`. The gate
# (./dev test, `run --no-probe`) leaves probes out: an undeclared capability never fails the gate.
# Op capabilities (op:read, op:write, op:update, op:list, op:zom, ...) are never probed: a case
# needing an undeclared op is skipped as `unsupported`.
capabilities = ["format:v3", "op:read", "store:directory"]

# What the implementation's exceptions mean (adapters/README.md, "Errors"): first match wins.
# This entry declares the skeleton's own answer for an operation not written yet, so that a first
# run records `unsupported` instead of `errored` ("undeclared unsupported answer"). Remove it when
# the last TODO is gone: every Unsupported the adapter keeps needs an entry with its own reason.
[[errors]]
type = "Unsupported"
message = "^TODO_PREFIX"
category = "unsupported"
reason = "the NAME adapter does not implement this operation yet"

# Examples (uncomment and adapt):
# [[errors]]
# type = "ValueError"                  # class name, or module.ClassName
# raised_in = "^mypackage\\\\."          # the raising function's module.qualname
# phase = "metadata"                   # what the adapter marked with adapter_api.phase / phase
# category = "metadata"                # metadata | codec | chunk-data | io | unsupported | crash
""".replace("TODO_PREFIX", TODO_PREFIX)

PYTHON_TRANSPORT = """
# transport "python": the harness runs `python -m conformance.harness.serve <this folder>` (the
# shared protocol loop) in a venv of the exact pins below and calls the class Adapter of adapter.py.
transport = "python"
module = "adapter.py"
class = "Adapter"

# Exact pins, the newest release the package index offers (`pip index versions PKG`); numpy too.
# Empty: the adapter runs in the caller's environment.
requirements = []
# python_version = "3.12"              # the Python its venv is made with (default: the caller's)
"""

JS_TRANSPORT = """
# transport "command": the harness runs this command in a folder holding this folder's files, the
# shared JS modules (protocol.mjs: the protocol loop; npy.mjs, timer.mjs) and node_modules.
transport = "command"
command = ["node", "harness.mjs"]

# Exact npm pins, the newest release (`npm view PKG version`): "pkg@1.2.3".
npm = []
"""

KNOWN_FAILURES = """\
# Real bugs of NAME, one entry per bug (adapters/README.md, "known-failures.toml"). Draft entries
# from a run: `zarr-conformance known-failures draft RESULTS --impl NAME`, then give each its
# evidence (the upstream issue, or a ready-to-file report under reports/upstream/NAME/).
#
# [[known_failures]]
# id = "transpose-inverted"            # slug, unique in this file
# cases = ["v3/codecs/transpose-*"]    # case ids or globs
# test = "read"                        # read | reject | write | cross | roundtrip | property | zom
# reason = "the transpose order is applied inverted on read"
# issue = "https://github.com/OWNER/REPO/issues/123"   # or "unreported" with `report`
# observed = ["^wrong data: "]         # regexes on the record's message
"""

PYTHON_ADAPTER = '''\
"""The NAME adapter: TODO say which implementation it drives and through which public calls.

The harness calls these methods with the request dict (adapters/README.md, "Transport python" and
the protocol) and adds id, ok and elapsed to the dict they return. Until an operation is written
it raises Unsupported("not implemented yet: ..."), which adapter.toml declares: a run records it
as `unsupported`. Let the implementation's own exceptions through (the harness judges them with
adapter.toml [[errors]]); wrap each call into it in `with phase("metadata"):` or `phase("data")`.
"""

from __future__ import annotations

from typing import Any

# adapter_api also has what the operations need: phase (mark each call into the implementation),
# verbatim_path (a request's node path), save_data / load_data (the array files), api_dtype,
# api_fill_value (the read answer's `api` member), region_index (update steps).
from conformance.harness.adapter_api import Unsupported

Request = dict[str, Any]


class Adapter:
    def describe(self, request: Request) -> dict[str, Any]:
        # TODO: the implementation's version, e.g. importlib.metadata.version("PACKAGE").
        return {"name": "NAME", "version": "unknown", "versions": {}}

    def read(self, request: Request) -> dict[str, Any]:
        # request: store {"kind": "directory" | "zip", "location": absolute path}, format ("v2",
        # "v3"), node (the path, "" for the root), output (the .npy file for the data).
        # TODO: open verbatim_path(request["node"], request["format"]) with the implementation
        # and answer, for an array:
        #   with phase("metadata"): array = ...open...
        #   with phase("data"): data = array[...]
        #   {"node_type": "array", "metadata": <the stored document, or None>,
        #    "attributes": {...}, "api": {"shape": [...], ...}, "shape": list(data.shape),
        #    "dtype": data.dtype.str, "data": save_data(request["output"], data)}
        # and for a group: {"node_type": "group", "attributes": {...}, "members": {name: kind}}
        raise Unsupported("not implemented yet: read")

    def write(self, request: Request) -> dict[str, Any]:
        # request: store (an empty directory), format, node_type, path, metadata (the array
        # document to create, without attributes), attributes, data (an .npy file, or None).
        # Declare op:write in adapter.toml once written; answer {}.
        raise Unsupported("not implemented yet: write")

    def update(self, request: Request) -> dict[str, Any]:
        # request: store, format, path, steps: [{"op": "write", "region": [...], "data": ...},
        # {"op": "resize", "shape": [...]}]: regions written into the array write() created
        # (adapter_api.region_index, load_data). Declare op:update once written.
        raise Unsupported("not implemented yet: update")

    def list(self, request: Request) -> dict[str, Any]:
        # request: store, format, node. Answer {"nodes": {"": "group", "a/b": "array", ...}}
        # (paths from the store root). Declare op:list once written.
        raise Unsupported("not implemented yet: list")
'''

JS_ADAPTER = """\
// The NAME adapter: TODO say which implementation it drives and through which public calls.
//
// protocol.mjs (shared by the JS adapters, staged beside this file by the harness) reads the
// requests, calls the handler of each op and writes the responses (adapters/README.md, the
// protocol); a handler returns the response's members. Until an operation is written it throws
// Unsupported("not implemented yet: ..."), which adapter.toml declares: a run records it as
// `unsupported`. Let the implementation's own errors through: adapter.toml [[errors]] judges them.
import { Unsupported, packageVersion, serve } from "./protocol.mjs";
// import { readNpy, writeNpy } from "./npy.mjs";   // the harness's array files

function describe() {
  // TODO: the implementation's npm package
  return { name: "NAME", version: packageVersion("PACKAGE"), versions: { node: process.versions.node } };
}

// req: store {kind: "directory" | "zip", location}, format ("v2", "v3"), node ("" is the root),
// output (the .npy file for the data). An array: {node_type: "array", metadata, attributes, api,
// data: <the .npy written>, shape, dtype}; a group: {node_type: "group", attributes, members}.
async function read(req) {
  throw new Unsupported("not implemented yet: read");
}

// req: store (an empty directory), format, node_type, path, metadata, attributes, data (.npy).
// Declare op:write in adapter.toml once written; return {}.
async function write(req) {
  throw new Unsupported("not implemented yet: write");
}

// req: store, format, path, steps (regions written into the array write() created, resizes).
async function update(req) {
  throw new Unsupported("not implemented yet: update");
}

// req: store, format, node. Return {nodes: {"": "group", "a/b": "array", ...}}.
async function list(req) {
  throw new Unsupported("not implemented yet: list");
}

await serve({ describe, read, write, update, list }, { name: "NAME" });
"""
