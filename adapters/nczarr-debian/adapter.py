"""Adapter for NCZarr as Debian ships it: netCDF-C 4.9.0 (libnetcdf19) through Debian's
python3-netcdf4 1.6.2 and Debian's /usr/bin/python3. No codec plugins: Debian's libnetcdf19
installs none and HDF5_PLUGIN_PATH is not set, so NCZarr has no Zarr compressor available.

The adapter is the nczarr-netcdf4 adapter (loaded from the sibling folder of the same checkout),
under this name: the two columns differ in the build of netCDF-C, not in how it is driven."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def _load_nczarr_adapter():
    name = "zarr_conformance_adapter_nczarr_netcdf4"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parent.parent / "nczarr-netcdf4" / "adapter.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Adapter(_load_nczarr_adapter().Adapter):
    name = "nczarr-debian"
