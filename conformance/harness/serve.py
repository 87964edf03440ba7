"""The child side of the subprocess transport for python adapters:

    python -m conformance.harness.serve adapters/<name>

loads the adapter class named by the folder's adapter.toml and answers newline-delimited JSON
requests on stdin, one response line each on stdout, until `shutdown` or end of input.

Runs inside the adapter's own virtualenv: standard library and numpy only (plus whatever the
adapter itself imports). Anything the adapter or its libraries print to stdout is redirected to
stderr so that it cannot corrupt the protocol stream.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tomllib
from pathlib import Path

from .adapter_api import ProtocolError, error_response, handle


def load_adapter(folder: str | os.PathLike):
    """Instantiate the adapter class of a python-transport adapter folder."""
    return load_adapter_class(folder)()


def load_adapter_class(folder: str | os.PathLike):
    """The adapter class of a python-transport adapter folder (to subclass it, as the broken
    adapters of tests/broken do with the reference)."""
    folder = Path(folder).resolve()
    with open(folder / "adapter.toml", "rb") as f:
        doc = tomllib.load(f)
    module_file = folder / doc.get("module", "adapter.py")
    module_name = f"_zarr_conformance_adapter_{doc.get('name', folder.name).replace('-', '_').replace('.', '_')}"
    if module_name in sys.modules:
        module = sys.modules[module_name]
    else:
        # The adapter may keep helper modules next to its main module.
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
        spec = importlib.util.spec_from_file_location(module_name, module_file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[module_name]
            raise
    return getattr(module, doc.get("class", "Adapter"))


def serve(adapter, stdin, stdout, folder: str | os.PathLike | None = None) -> None:
    """Answer requests until shutdown or end of input; `folder`: the adapter's (error origins)."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise ProtocolError("a request must be a JSON object")
        except (ValueError, ProtocolError) as exc:
            response = error_response(ProtocolError(f"unreadable request: {exc}"))
            response.update(id=-1, elapsed=0.0)
            request = {}
        else:
            response = handle(adapter, request, folder)
        stdout.write(json.dumps(response) + "\n")
        stdout.flush()
        if request.get("op") == "shutdown":
            return


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m conformance.harness.serve <adapter folder>", file=sys.stderr)
        return 2
    # Keep the real stdout for the protocol; everything else printing to fd 1 lands on stderr.
    protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    adapter = load_adapter(argv[0])
    serve(adapter, sys.stdin, protocol_out, argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
