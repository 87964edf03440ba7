"""Adapter for NCZarr as Debian ships it: netCDF-C 4.9.0 (libnetcdf19) through Debian's
python3-netcdf4 1.6.2 and Debian's /usr/bin/python3. No codec plugins: Debian's libnetcdf19
installs none and HDF5_PLUGIN_PATH is not set, so NCZarr has no Zarr compressor available.

The adapter is the nczarr-netcdf4 adapter (loaded from the sibling folder of the same checkout),
under this name: the two columns differ in the build of netCDF-C, not in how it is driven."""

from __future__ import annotations

from conformance.harness.adapter_api import sibling_adapter


class Adapter(sibling_adapter("nczarr-netcdf4", __file__).Adapter):
    name = "nczarr-debian"
