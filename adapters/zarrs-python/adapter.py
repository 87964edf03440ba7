"""Adapter for zarrs (Rust) through zarrs-python: zarr-python 3 with zarrs' codec pipeline.

zarrs-python is zarr-python with `codec_pipeline.path = "zarrs.ZarrsCodecPipeline"`, so this
adapter is the zarr-python adapter (loaded from the sibling folder, which is part of the same
repository checkout) with that pipeline switched on in strict mode. Two traps are handled:

- zarr-python silently builds its own BatchedCodecPipeline when zarrs does not support the store
  (memory, zip, ...), even in strict mode; every array is checked to really carry a
  ZarrsCodecPipeline with a Rust implementation, otherwise the request is answered `unsupported`.
- zarrs' pipeline refuses some data types (S/U/V/M/m/O/T numpy kinds) with
  UnsupportedDataTypeError; strict mode turns that into an error instead of a fallback, answered
  `unsupported` too, as is its "Non-native byte order not supported" (v2 '>' data types), and so
  is metadata the Rust side refuses as "unsupported ..." (its TypeError
  message); any other refusal of the Rust side is a real failure or rejection, reported as such.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import zarr
import zarrs
from zarrs.pipeline import UnsupportedDataTypeError, UnsupportedMetadataError

from conformance.harness.adapter_api import Unsupported


def _load_zarr_python_adapter():
    name = "zarr_conformance_adapter_zarr_python"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parent.parent / "zarr-python" / "adapter.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_base = _load_zarr_python_adapter()

ZARRS_CONFIG = {
    "codec_pipeline.path": "zarrs.ZarrsCodecPipeline",
    "codec_pipeline.strict": True,  # unsupported metadata raises instead of falling back
    "codec_pipeline.validate_checksums": True,
}


class Adapter(_base.Adapter):
    name = "zarrs"

    def implementation_versions(self) -> dict:
        versions = super().implementation_versions()
        versions["zarrs-python"] = zarrs.__version__
        return versions

    def describe(self, request: dict | None = None) -> dict:
        out = super().describe()
        out["version"] = zarrs.__version__
        # strict mode on; every array is checked to really use the zarrs pipeline
        out["settings"] = dict(ZARRS_CONFIG, pipeline_checked_per_array=True)
        return out

    def configure(self):
        return zarr.config.set(ZARRS_CONFIG)

    def check_array(self, array) -> None:
        pipeline = array._async_array.codec_pipeline
        if not isinstance(pipeline, zarrs.ZarrsCodecPipeline) or pipeline.impl is None:
            raise Unsupported(
                f"zarr-python fell back to {type(pipeline).__name__} for store "
                f"{type(array.store).__name__}: the zarrs codec pipeline is not in use"
            )

    def read(self, request: dict) -> dict:
        return self._guarded(super().read, request)

    def write(self, request: dict) -> dict:
        return self._guarded(super().write, request)

    def _guarded(self, method, request: dict) -> dict:
        try:
            return method(request)
        except RuntimeError as exc:
            if "Non-native byte order not supported" not in str(exc):
                raise
            # zarrs-python decodes only into native-endian arrays; v2 '>' data types are refused
            raise Unsupported(f"zarrs-python: {exc} (v2 big-endian data types)") from exc
        except UnsupportedDataTypeError as exc:
            raise Unsupported("the zarrs codec pipeline does not support this data type "
                              "(zarrs-python refuses numpy kinds S, U, V, M, m, O, T)") from exc
        except UnsupportedMetadataError as exc:
            cause = exc.__cause__
            if "unsupported" in str(cause).lower():  # zarrs itself says it lacks the feature
                raise Unsupported(f"zarrs: {cause}") from exc
            raise UnsupportedMetadataError(f"zarrs rejected the array metadata: {cause}") from exc
