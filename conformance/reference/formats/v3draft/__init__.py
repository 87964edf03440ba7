"""The Zarr v3 *draft* format family ('v3-draft').

Two layouts share this Format and are told apart by the `zarr.json` entry point:

* 'seed-002': zarr-specs d061a83 (Jan 2023) core v3.0 draft with its gzip/blosc/endian codec
  specs and the sharding storage transformer. Read and write.
* 'zarr-python-2': the earlier "protocol" draft that zarr-python 2.11-2.18 writes under
  ZARR_V3_EXPERIMENTAL_API=1 (meta/root, data/root, typestr data types, `compressor`). Read only.

    from conformance.reference import get_format
    fmt = get_format("v3-draft")
    a = fmt.create_array(store, "foo/baz", fmt.array_metadata((4, 4), (2, 2), "int32"))
    fmt.flavour(store)  # 'seed-002'; opened nodes also carry `.flavour`
"""

from __future__ import annotations

from ...stores import Store
from .dtypes import FallbackDataTypeWarning
from .flavours import SEED002, ZP2
from .format import FORMAT, DraftFormat, sharding


def flavour(store: Store) -> str | None:
    """'seed-002', 'zarr-python-2', or None when `store` has no draft entry point."""
    return FORMAT.flavour(store)


__all__ = [
    "FORMAT",
    "SEED002",
    "ZP2",
    "DraftFormat",
    "FallbackDataTypeWarning",
    "flavour",
    "sharding",
]
