"""Adapter for zarrs (Rust) through zarrs-python: zarr-python 3 with zarrs' codec pipeline.

zarrs-python is zarr-python with `codec_pipeline.path = "zarrs.ZarrsCodecPipeline"`, so this
adapter is the zarr-python adapter (loaded from the sibling folder, which is part of the same
repository checkout) with that pipeline switched on in strict mode. What is Rust and what is
Python: chunk encoding and decoding (the codec pipeline) run in zarrs; metadata parsing and
validation, the store layer, hierarchy and indexing are zarr-python's. Read responses (`api`,
`attributes`, `members`) therefore come from zarr-python's objects, as in the zarr-python adapter.

Errors are the implementation's own, left to propagate; adapter.toml `[[errors]]` says which of
them are refusals of a feature zarrs-python does not implement (UnsupportedDataTypeError, the
"Non-native byte order not supported" RuntimeError, "unsupported codec ..." / "unsupported data
type ..." from the Rust side). One trap is the adapter's own: zarr-python silently builds its own
BatchedCodecPipeline when zarrs does not support the store (memory, zip, ...), even in strict mode;
every array is checked to really carry a ZarrsCodecPipeline with a Rust implementation, otherwise
the request is answered `Unsupported` (declared in adapter.toml) rather than reporting
zarr-python's result under the zarrs-python name.
"""

from __future__ import annotations

import os

import zarr
import zarrs
from zarrs.pipeline import UnsupportedMetadataError

from conformance.harness.adapter_api import Unsupported, sibling_adapter

_base = sibling_adapter("zarr-python", __file__)

ZARRS_CONFIG = {
    "codec_pipeline.path": "zarrs.ZarrsCodecPipeline",
    "codec_pipeline.strict": True,  # unsupported metadata raises instead of falling back
    "codec_pipeline.validate_checksums": True,
}


class Adapter(_base.Adapter):
    name = "zarrs-python"

    def implementation_versions(self) -> dict:
        versions = super().implementation_versions()
        versions["zarrs-python"] = zarrs.__version__
        return versions

    def describe(self, request: dict | None = None) -> dict:
        out = super().describe()
        out["version"] = zarrs.__version__
        # strict mode on; every array is checked to use the zarrs pipeline
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

    def bench_settings(self) -> dict:
        keys = (
            "codec_pipeline.chunk_concurrent_minimum",
            "codec_pipeline.chunk_concurrent_maximum",
            "codec_pipeline.direct_io",
        )
        # None: zarrs' own default (threading.max_workers None = one rayon thread per core)
        return {
            **super().bench_settings(),
            **ZARRS_CONFIG,
            **{key: zarr.config.get(key, None) for key in keys},
            "cores": os.cpu_count(),
            "pipeline_checked_per_operation": True,
        }

    def bench_watch(self, array):
        """Count the calls into the Rust pipeline during the timed operation: a result that
        zarr-python computed without zarrs must never be reported under the zarrs-python name."""
        self.check_array(array)
        pipeline = array._async_array.codec_pipeline
        counting = _CountingImpl(pipeline.impl)
        pipeline.impl = counting

        def check() -> None:
            pipeline.impl = counting.impl
            if counting.calls == 0:
                raise RuntimeError(
                    "the zarrs codec pipeline was not called during the timed operation"
                )

        return check

    def bench(self, request: dict) -> dict:
        return self._with_cause(super().bench, request)

    def read(self, request: dict) -> dict:
        return self._with_cause(super().read, request)

    def write(self, request: dict) -> dict:
        return self._with_cause(super().write, request)

    def update(self, request: dict) -> dict:
        return self._with_cause(super().update, request)

    @staticmethod
    def _with_cause(method, request: dict) -> dict:
        try:
            return method(request)
        except UnsupportedMetadataError as exc:
            # zarrs-python raises it without a message, `from` the Rust side's TypeError that says
            # what zarrs refused: give it that text. Same exception object, type and traceback.
            if not exc.args and exc.__cause__ is not None:
                exc.args = (str(exc.__cause__),)
            raise


class _CountingImpl:
    """The Rust CodecPipelineImpl with its two entry points counted (bench only)."""

    def __init__(self, impl) -> None:
        self.impl = impl
        self.calls = 0

    def retrieve_chunks_and_apply_index(self, *args, **kwargs):
        self.calls += 1
        return self.impl.retrieve_chunks_and_apply_index(*args, **kwargs)

    def store_chunks_with_indices(self, *args, **kwargs):
        self.calls += 1
        return self.impl.store_chunks_with_indices(*args, **kwargs)
