"""The harness side of the contract: one client per adapter (per worker), which starts the adapter
with the right transport and environment, validates every response against the schemas, keeps
the describe() answer and adds up the time the adapter reports for its own work."""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from ..resources import PACKAGE_DIR, REPO_ROOT
from . import envs
from .config import AdapterConfig, find_adapter
from .isolation import disk_temp_dir
from .schemas import response_problems
from .transport import (
    DEFAULT_MEMORY_LIMIT,
    DEFAULT_TIMEOUT,
    AdapterErrored,
    InProcessTransport,
    SubprocessTransport,
)


@dataclass
class Response:
    ok: bool
    body: dict
    unsupported: bool = False
    elapsed: float = 0.0  # the adapter's own seconds
    op: str = ""  # the request's op (a write test's failure may be its update's)

    @property
    def error_type(self) -> str:
        return (self.body.get("error") or {}).get("type", "")

    @property
    def error_message(self) -> str:
        return (self.body.get("error") or {}).get("message", "")

    @property
    def reason(self) -> str | None:
        return (self.body.get("error") or {}).get("reason")

    def describe_error(self) -> str:
        reason = f" [{self.reason}]" if self.reason else ""
        return f"{self.error_type}{reason}: {self.error_message}"


@dataclass
class Description:
    name: str
    version: str
    versions: dict[str, str]
    capabilities: frozenset[str]  # effective: adapter.toml narrowed by describe()
    settings: dict = field(default_factory=dict)


# What a child imports of this package (adapter_api finds the package through resources).
CHILD_MODULES = (
    "__init__.py",
    "resources.py",
    "harness/__init__.py",
    "harness/adapter_api.py",
    "harness/serve.py",
    "harness/icechunk_helper.py",  # Icechunk's helper (conformance.harness.icechunk_store)
)


def child_import_root(own_venv: bool) -> Path:
    """The folder to put first on a child's PYTHONPATH so that it imports `conformance`. A source
    checkout's root is safe anywhere; an installed package's parent is site-packages, which must
    not leak into an adapter's own venv, so those children get a folder holding only the modules
    a child needs (see adapters/README.md)."""
    if not own_venv or (REPO_ROOT / "pyproject.toml").is_file():
        return REPO_ROOT
    shim = envs.cache_root() / "child-path"
    for rel in CHILD_MODULES:
        target = shim / "conformance" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        source = (PACKAGE_DIR / rel).read_bytes()
        if not target.is_file() or target.read_bytes() != source:
            target.write_bytes(source)
    return shim


def child_env(extra: dict | None = None, own_venv: bool = False) -> dict:
    """The caller's environment (PYTHONPATH, ZARR_*, ...), with `conformance` importable first."""
    env = dict(os.environ)
    root = str(child_import_root(own_venv))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    env.update(extra or {})
    return env


def make_transport(
    config: AdapterConfig,
    *,
    in_process: bool = False,
    memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
    log_dir: Path | None = None,
):
    log_path = (log_dir / f"{config.name}-{os.getpid()}.log") if log_dir else None
    envs.require_available(config)  # Debian packages, interpreter, program: envs.Unavailable
    if config.transport == "python":
        if in_process and not config.own_interpreter:
            return InProcessTransport(config.folder)
        python = envs.adapter_python(config)
        return SubprocessTransport(
            [str(python), "-m", "conformance.harness.serve", str(config.folder)],
            cwd=config.folder,
            env=child_env(own_venv=config.own_interpreter),
            memory_limit=memory_limit,
            log_path=log_path,
        )
    extra = {"ZARR_CONFORMANCE_ADAPTER_DIR": str(config.folder)}
    cwd, before = config.folder, None
    if config.npm or envs.runs_node(config):
        # JS: run from the staged folder (the adapter's files, the shared protocol.mjs, its
        # node_modules), made again before each start so that edits reach the next one.
        node_modules = envs.ensure_npm(config)
        extra["NODE_PATH"] = str(node_modules)
        cwd = node_modules.parent
        before = partial(envs.stage_command_folder, config)

    return SubprocessTransport(
        list(config.command),
        cwd=cwd,
        env=child_env(extra),
        memory_limit=memory_limit,
        log_path=log_path,
        before_start=before,
    )


class AdapterClient:
    def __init__(self, config: AdapterConfig, transport, timeout: float = DEFAULT_TIMEOUT):
        self.config = config
        self.transport = transport
        self.timeout = timeout
        self._ids = itertools.count(1)
        self._description: Description | None = None
        self.adapter_elapsed = 0.0  # reset by the caller per test

    @property
    def name(self) -> str:
        return self.config.name

    def call(self, op: str, **fields) -> Response:
        """Send one request; AdapterErrored if the adapter broke the protocol or ran out of memory
        (naming this adapter: in a pair test, the side that crashed)."""
        try:
            return self._call(op, **fields)
        except AdapterErrored as exc:
            exc.impl = self.name
            raise

    def _call(self, op: str, **fields) -> Response:
        message = {"id": next(self._ids), "op": op, **fields}
        body = self.transport.request(message, self.timeout)
        found = response_problems(op, body)
        if found:
            self._reset()
            raise AdapterErrored(f"malformed {op} response: " + "; ".join(found[:5]))
        elapsed = float(body.get("elapsed", 0.0))
        self.adapter_elapsed += elapsed
        if body["ok"] is False and body["error"].get("type") == "MemoryError":
            self._reset()  # its heap is suspect: start afresh
            raise AdapterErrored(f"out of memory: {body['error'].get('message')}")
        if body["ok"] is False and body["error"].get("type") == "ProtocolError":
            raise AdapterErrored(f"the adapter refused the request: {body['error'].get('message')}")
        return Response(
            ok=body["ok"],
            body=body,
            unsupported=bool(body.get("unsupported")),
            elapsed=elapsed,
            op=op,
        )

    def _reset(self) -> None:
        kill = getattr(self.transport, "kill", None)
        if kill is not None:
            kill()

    def describe(self) -> Description:
        if self._description is None:
            response = self.call("describe")
            if not response.ok:
                raise AdapterErrored(f"describe failed: {response.describe_error()}")
            body = response.body
            caps = self.config.capabilities
            if "capabilities" in body:
                caps = caps & frozenset(body["capabilities"])
            self._description = Description(
                name=body["name"],
                version=body.get("version", ""),
                versions=dict(body.get("versions", {})),
                capabilities=caps,
                settings=dict(body.get("settings", {})),
            )
        return self._description

    @property
    def versions(self) -> dict[str, str]:
        d = self._description
        if d is None:
            return {}
        return {
            **d.versions,
            **({d.name: d.version} if d.version and d.name not in d.versions else {}),
        }

    def close(self) -> None:
        self.transport.close()


class AdapterPool:
    """The adapters one worker talks to: started on first use, reused across tests."""

    def __init__(
        self,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
        in_process: bool = False,
        scratch: Path | None = None,
        log_dir: Path | None = None,
    ):
        self.timeout = timeout
        self.memory_limit = memory_limit
        self.in_process = in_process
        self.scratch = Path(scratch or tempfile.mkdtemp(prefix="zarr-conformance-"))
        self.scratch.mkdir(parents=True, exist_ok=True)
        # Adapter stderr goes to disk, never to scratch (which may be /dev/shm, i.e. memory).
        self._own_log_dir = log_dir is None
        self.log_dir = Path(
            log_dir
            or tempfile.mkdtemp(
                prefix="zarr-conformance-logs-", dir=disk_temp_dir(envs.cache_root() / "tmp")
            )
        )
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._clients: dict[str, AdapterClient] = {}
        self._broken: dict[str, str] = {}  # adapters whose environment could not be made
        self._configs: dict[str, AdapterConfig] = {}
        self._counter = itertools.count()

    def config(self, name: str) -> AdapterConfig:
        if name not in self._configs:
            self._configs[name] = find_adapter(name)
        return self._configs[name]

    def register(self, config: AdapterConfig) -> None:
        self._configs[config.name] = config

    def get(self, name: str) -> AdapterClient:
        client = self._clients.get(name)
        if client is None:
            if name in self._broken:
                raise AdapterErrored(self._broken[name])
            config = self.config(name)
            try:
                transport = make_transport(
                    config,
                    in_process=self.in_process,
                    memory_limit=self.memory_limit,
                    log_dir=self.log_dir,
                )
            except envs.ProvisioningError as exc:
                self._broken[name] = f"the environment of {name} cannot be made: {exc}"
                raise AdapterErrored(self._broken[name]) from None
            client = self._clients[name] = AdapterClient(config, transport, self.timeout)
        return client

    def workdir(self) -> Path:
        """A fresh, empty directory for one test's files."""
        path = self.scratch / f"t{next(self._counter)}"
        path.mkdir()
        return path

    def close(self) -> None:
        for client in self._clients.values():
            try:
                client.close()
            except Exception:  # closing is best effort; the processes are killed anyway
                pass
        self._clients.clear()
        if self._own_log_dir:
            shutil.rmtree(self.log_dir, ignore_errors=True)
