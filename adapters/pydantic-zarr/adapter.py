"""Adapter for pydantic-zarr: ZEP 6 (Zarr Object Models) as pydantic models over zarr-python 3.

pydantic-zarr models hierarchies, not array values, so this adapter answers

- `zom`  {"store", "format", "node"} -> {"model": <GroupSpec / ArraySpec .model_dump(mode="json")>}:
  the implementation's own ZOM of the node (pydantic_zarr.v2 for format v2, .v3 for v3);
- `zom`  {"model", "format"} -> {"valid": bool, "findings": [...]}: whether pydantic-zarr accepts
  the model document (a group if it has `members`, or `node_type` "group" in v3, else an array),
  the findings being its validation errors;
- `list` -> {"nodes": ...}: the flattened model (`to_flat`), so a hierarchy listing comes from
  the model too;
- `read` of a group -> its attributes and members, taken from the model (arrays: `unsupported`,
  pydantic-zarr does not read array values).

Stores are opened by zarr-python (`zarr.open`), whose metadata parser this column therefore shares
(adapter.toml `parser`). Errors are the implementation's own (zarr's, pydantic's), left to
propagate; each `Unsupported` the adapter raises is declared in adapter.toml `[[errors]]`.
"""

from __future__ import annotations

from importlib.metadata import version

import numpy as np
import pydantic
import zarr
from pydantic_zarr import v2 as zom_v2
from pydantic_zarr import v3 as zom_v3
from zarr.storage import LocalStore, ZipStore

from conformance.harness.adapter_api import Unsupported, phase

MODELS = {"v2": (2, zom_v2), "v3": (3, zom_v3)}


def node_path(raw: str | None) -> str:
    return (raw or "").strip("/")


def open_store(spec: dict):
    kind, location = spec.get("kind"), spec.get("location")
    if kind == "directory":
        return LocalStore(location, read_only=True)
    if kind == "zip":
        return ZipStore(location, mode="r")
    raise Unsupported(f"store kind {kind!r}")


def kind_of(spec) -> str:
    return "group" if isinstance(spec, (zom_v2.GroupSpec, zom_v3.GroupSpec)) else "array"


class Adapter:
    def describe(self, request: dict | None = None) -> dict:
        v = version("pydantic-zarr")
        return {
            "name": "pydantic-zarr",
            "version": v,
            "versions": {
                "pydantic-zarr": v,
                "pydantic": version("pydantic"),
                "zarr": zarr.__version__,
                "numpy": np.__version__,
            },
        }

    def _spec(self, request: dict):
        fmt = request.get("format")
        if fmt not in MODELS:
            raise Unsupported(
                f"pydantic-zarr {version('pydantic-zarr')} has no model for format {fmt!r}"
            )
        zarr_format, models = MODELS[fmt]
        store = open_store(request["store"])
        try:
            with phase("metadata"):  # zarr's own parsers: its [[errors]] rule names the phase
                node = zarr.open(
                    store=store,
                    path=node_path(request.get("node")),
                    zarr_format=zarr_format,
                    mode="r",
                )
                # the classmethods, not the module-level from_zarr: in 0.9.2 that one names `zarr`
                # only under TYPE_CHECKING and raises NameError at run time
                model = models.ArraySpec if isinstance(node, zarr.Array) else models.GroupSpec
                return model.from_zarr(node)
        finally:
            store.close()

    def zom(self, request: dict) -> dict:
        if "model" in request:
            return self._judge(request)
        return {"model": self._spec(request).model_dump(mode="json")}

    def _judge(self, request: dict) -> dict:
        fmt = request.get("format")
        if fmt not in MODELS:
            raise Unsupported(
                f"pydantic-zarr {version('pydantic-zarr')} has no model for format {fmt!r}"
            )
        if request.get("schema", "fixed") != "fixed":
            # its models follow Zarr metadata, not the ZEP's original JSON Schema with its defects
            raise Unsupported(
                f"pydantic-zarr judges documents by its own models, not by the {request['schema']} schema"
            )
        models = MODELS[fmt][1]
        document = request["model"]
        is_group = isinstance(document, dict) and (
            "members" in document
            or document.get("node_type") == "group"
            or (fmt == "v2" and "shape" not in document)
        )
        model = models.GroupSpec if is_group else models.ArraySpec
        try:
            model.model_validate(document)
        except pydantic.ValidationError as exc:
            findings = [f"{'/'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
            return {"valid": False, "findings": findings}
        return {"valid": True, "findings": []}

    def list(self, request: dict) -> dict:
        spec = self._spec(request)
        flat = spec.to_flat()  # keys are "/"-prefixed paths relative to the node, which is ""
        base = node_path(request.get("node"))
        return {
            "nodes": {
                "/".join(p for p in (base, path.strip("/")) if p): kind_of(item)
                for path, item in flat.items()
            }
        }

    def read(self, request: dict) -> dict:
        spec = self._spec(request)
        if kind_of(spec) == "array":
            raise Unsupported("pydantic-zarr models metadata only; it does not read array values")
        members = {name: kind_of(child) for name, child in (spec.members or {}).items()}
        return {"node_type": "group", "attributes": dict(spec.attributes), "members": members}
