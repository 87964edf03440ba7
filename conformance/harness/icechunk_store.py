"""The store kind `icechunk`: v3 cases held in an Icechunk repository (a transactional Zarr v3
store: repositories, branches, commits) on the local file system.

Icechunk 2 needs Python 3.12 and the harness runs on 3.11, so the repositories are made by a helper
process (conformance/harness/icechunk_helper.py) in a venv of its own: exact pins (below), made
by conformance.harness.envs like an adapter's, with the Python 3.12 conformance.harness.interpreters
finds on this machine. It runs under the same isolation as adapters (process tree, memory cap,
stderr to a file: conformance.harness.transport). Per session (one pytest-xdist worker), on first
use:

- a read case's store becomes a repository holding every key of it, committed on branch `main`,
  made once and shared by every adapter and test of the session;
- a write gets an empty repository; after the adapter's write (which must commit: uncommitted
  changes are not the store's content) the keys committed on `main` are copied into the test's
  directory, where the reference judges them as it judges a directory write.

Adapters get `{"kind": "icechunk", "location": "<repository folder>", "branch": "main"}`.

What Icechunk cannot hold is the store's refusal, not the implementation's, and is decided here,
before any adapter runs, the same for all (`refusals`): a case runs over icechunk only if Icechunk
takes every key of its store through IcechunkStore.set and gives each back byte for byte, and lists
exactly those keys (v2 key encodings, `.`-separated keys, keys beyond the array's grid, zero-length
chunks, reserved names: Icechunk refuses them, or holds them other than as set). For a write case
the store is the one the reference writes for it. Cases it refuses do not run over icechunk for
any adapter; the run says how many, and its meta.json says which and why (`store_refusals`).
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
import threading
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conformance.corpus import Case

    from .config import AdapterConfig
    from .transport import SubprocessTransport

StoreSpec = dict[str, Any]

BRANCH = "main"
HELPER_PYTHON = "3.12"
# The helper's venv, exact: the newest Icechunk (2.3.0, Requires-Python >=3.12) and what pip
# resolves for it under Python 3.12 (zarr is its one requirement: IcechunkStore is a zarr Store).
HELPER_REQUIREMENTS = (
    "icechunk==2.3.0",
    "zarr==3.4.2",
    "numcodecs==0.17.1",
    "numpy==2.5.5",
    "google-crc32c==1.9.0",
    "donfig==0.8.1.post1",
    "pyyaml==6.0.4",
    "packaging==26.4",
    "typing-extensions==4.16.0",
    "msgspec==0.22.0",
)
# Seconds a helper request may take (a repository of a few hundred keys takes well under one).
HELPER_TIMEOUT = 300.0


class IcechunkError(RuntimeError):
    """The helper failed (it could not make, read or copy a repository)."""


def helper_config() -> AdapterConfig:
    """The helper's environment, described as envs makes environments."""
    from .config import AdapterConfig

    return AdapterConfig(
        name="icechunk-helper",
        folder=Path(__file__).resolve().parent,
        description="makes Icechunk repositories for the store kind icechunk",
        transport="python",
        requirements=HELPER_REQUIREMENTS,
        python_version=HELPER_PYTHON,
    )


def unavailable() -> str | None:
    """Why this machine cannot run the helper (no Python 3.12), or None."""
    from . import envs

    found = envs.availability(helper_config())
    return None if found.available else f"Icechunk's helper {found.describe()}"


def provision() -> str | None:
    """Make the helper's venv now (once per cache, under a lock); why it cannot be made, or None."""
    from . import envs

    why = unavailable()
    if why is not None:
        return why
    try:
        envs.ensure_venv(helper_config())
    except envs.ProvisioningError as exc:
        return f"the environment of Icechunk's helper cannot be made: {envs.first_error(str(exc))}"
    return None


class IcechunkStores:
    """The repositories of one session and the helper process that makes them (started on first
    use, stopped by close())."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self._helper: SubprocessTransport | None = None
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._made: dict[Path, Path] = {}  # a case's store -> its repository

    # ---- the helper ----------------------------------------------------------------------------
    def request(self, op: str, **fields: Any) -> dict:
        from . import envs
        from .client import child_env
        from .transport import AdapterErrored, SubprocessTransport

        with self._lock:
            if self._helper is None:
                self.folder.mkdir(parents=True, exist_ok=True)
                python = envs.ensure_venv(helper_config())
                self._helper = SubprocessTransport(
                    [str(python), "-m", "conformance.harness.icechunk_helper"],
                    env=child_env(own_venv=True),
                    log_path=self.folder / "helper.log",
                )
            try:
                response = self._helper.request(
                    {"id": next(self._ids), "op": op, **fields}, timeout=HELPER_TIMEOUT
                )
            except AdapterErrored as exc:
                raise IcechunkError(f"Icechunk's helper failed ({op}): {exc}") from None
        if not response.get("ok"):
            error = response.get("error") or {}
            raise IcechunkError(
                f"Icechunk's helper could not {op}: {error.get('type')}: {error.get('message')}"
            )
        return response

    def versions(self) -> dict[str, str]:
        return dict(self.request("describe").get("versions") or {})

    # ---- which cases Icechunk holds --------------------------------------------------------------
    def refusals(self, cases: Iterable[Case]) -> dict[str, str]:
        """Per case Icechunk cannot hold, why (its own refusal, or what it holds instead)."""
        out: dict[str, str] = {}
        with tempfile.TemporaryDirectory(prefix="icechunk-holds-", dir=self._scratch()) as tmp:
            for case in cases:
                store = case.store_path if case.kind != "write" else written(case, Path(tmp))
                if store is None:
                    continue  # the reference cannot write it: nothing to ask; the case runs
                why = self.request("holds", store=str(store)).get("refused")
                if why:
                    out[case.id] = why
        return out

    def _scratch(self) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder

    # ---- store specs (as conformance.harness.remote.RemoteStores gives them) ---------------------
    def read_spec(self, kind: str, store: Path) -> StoreSpec:
        """A repository holding the store `store`, committed on main; made once per session."""
        store = Path(store).resolve()
        repo = self._made.get(store)
        if repo is None:
            repo = self.folder / "read" / uuid.uuid4().hex
            made = self.request("make", store=str(store), repo=str(repo))
            if made.get("refused"):
                shutil.rmtree(repo, ignore_errors=True)
                raise IcechunkError(f"Icechunk cannot hold the store {store}: {made['refused']}")
            self._made[store] = repo
        return spec_of(repo)

    def write_spec(self, kind: str) -> StoreSpec:
        """An empty repository to write into."""
        repo = self.folder / "write" / uuid.uuid4().hex
        self.request("create", repo=str(repo))
        return spec_of(repo)

    def download(self, spec: StoreSpec, directory: Path) -> int:
        """Copy every key committed on the spec's branch into `directory`; the number of keys."""
        out = self.request(
            "export", repo=spec["location"], branch=spec.get("branch", BRANCH), into=str(directory)
        )
        return int(out.get("keys", 0))

    def close(self) -> None:
        with self._lock:
            if self._helper is not None:
                self._helper.close()
                self._helper = None
        self._made.clear()
        shutil.rmtree(self.folder, ignore_errors=True)


def spec_of(repo: Path) -> StoreSpec:
    return {"kind": "icechunk", "location": str(repo), "branch": BRANCH}


def written(case: Case, parent: Path) -> Path | None:
    """The store the reference writes for write case `case` (its steps applied), in a new folder
    under `parent`; None when the reference refuses it (then nothing tells what the store holds)."""
    from .adapter_api import save_data
    from .config import find_adapter
    from .serve import load_adapter

    request = case.expect["request"]
    folder = Path(tempfile.mkdtemp(dir=parent)) / "store"
    folder.mkdir()
    store = {"kind": "directory", "location": str(folder)}
    data = None
    if request.get("data_json"):
        data = save_data(folder.parent / "input.npy", case.write_request().data)
    elif request.get("data"):
        data = str((case.dir / request["data"]).resolve())
    reference = load_adapter(find_adapter("reference").folder)
    try:
        reference.write(
            {
                "store": store,
                "format": case.format,
                "node_type": request["node_type"],
                "path": request.get("path", ""),
                "metadata": request.get("metadata"),
                "attributes": request.get("attributes", {}),
                "data": data,
            }
        )
        steps = [
            {**step, "data": str((case.dir / step["data"]).resolve())}
            if step["op"] == "write"
            else step
            for step in request.get("steps", ())
        ]
        if steps:
            reference.update(
                {
                    "store": store,
                    "format": case.format,
                    "path": request.get("path", ""),
                    "steps": steps,
                }
            )
    except Exception:
        return None
    return folder
