"""zarr-conformance: a conformance suite and golden corpus for the Zarr storage format."""

__version__ = "0.1.0"
