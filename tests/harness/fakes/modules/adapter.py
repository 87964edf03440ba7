"""Reports which modules the child process has loaded (the serve side must stay light: stdlib,
numpy and the adapter's own dependencies, nothing of the harness's caller environment)."""

import sys


class Adapter:
    def describe(self, request):
        return {
            "name": "modules",
            "version": "0",
            "versions": {},
            "capabilities": sorted({m.split(".")[0] for m in sys.modules}),
            "settings": {"all": sorted(sys.modules)},
        }
