"""The validate rows of the bench: `zarr-conformance validate` on a large store (default 1 GiB)
of each codec, and over HTTP, against reading the same store with the fastest implementation.

For each codec the reference writes one v3 store of the bench array at --validate-size; then,
interleaved over the repetitions, `validate` runs in a fresh process (`python -m
conformance.bench.validate_rows PATH_OR_URL`, which times the validation alone, wall and CPU, and
reports its peak resident memory) and the reader reads the whole array through its adapter's
`bench` operation in a fresh process, checked bit for bit. The reader is the implementation with
the highest median in the main run's (codec, directory, read) cell among those reading format v3
(over HTTP: among those declaring store:http); the reference's own read is measured beside it
when it is not that reader. The ratio is validate's median wall (CPU) time over the reader's:
below 1, validation is faster than a read. Over HTTP the store is served by the loopback server
of conformance.testing.servers, in the bench's own process, for both.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from . import stats
from .runner import check_read, classify_error, figures, timing_of, write_reference_store
from .workloads import Geometry, array_document, make_data

HTTP_CODEC = "zstd"


class ValidateRows:
    def __init__(self, bench, chosen: list, results: list[dict]):
        self.bench = bench
        self.say = bench.say
        self.options = bench.options
        self.chosen = {config.name: (config, fmt) for config, fmt in chosen}
        self.results = results
        self.geometry = Geometry.for_size(self.options.validate_size_mib)

    def fastest_reader(self, codec: str, over_http: bool = False) -> str | None:
        """The v3 reader with the highest median in the main run's (codec, directory, read) cell."""
        best, rate = None, 0.0
        for entry in self.results:
            name = entry["impl"]
            if (entry["codec"], entry["store"], entry["operation"]) != (codec, "directory", "read"):
                continue
            if entry["status"] != "ok" or entry.get("format") != "v3" or name not in self.chosen:
                continue
            if over_http and "store:http" not in self.chosen[name][0].capabilities:
                continue
            if entry["mb_s"]["median"] > rate:
                best, rate = name, entry["mb_s"]["median"]
        return best

    def run(self) -> dict:
        from conformance.testing.servers import http_server

        opts = self.options
        geometry = self.geometry
        self.say(
            f"validate rows: {geometry.nbytes / 2**20:.0f} MiB stores ({geometry.shape[0]} x "
            f"{geometry.shape[1]} float32), {opts.repeat} repetitions"
        )
        data = make_data(geometry.shape)
        scratch = Path(tempfile.mkdtemp(prefix="zarr-bench-validate-", dir=opts.scratch))
        rows = []
        try:
            self.scratch, self.data = scratch, data
            self.warm = {}
            for codec in opts.codecs:
                small = self.geometry.warmup(codec)
                self.warm[codec] = scratch / f"warm-{codec}"
                write_reference_store(
                    self.warm[codec],
                    "v3",
                    array_document("v3", codec, small),
                    data[: small.shape[0], : small.shape[1]],
                    check=False,
                )
            targets = [(codec, False) for codec in opts.codecs]
            if HTTP_CODEC in opts.codecs:
                targets.append((HTTP_CODEC, True))
            for codec, over_http in targets:
                store = scratch / f"v3-{codec}"
                if not store.exists():
                    self.say(f"validate rows: store {codec} (written by the reference, untimed)")
                    write_reference_store(
                        store, "v3", array_document("v3", codec, geometry), data, check=False
                    )
                    os.sync()
                if over_http:
                    with http_server(scratch) as server:
                        rows.append(self.row(codec, store, f"{server.url}/{store.name}"))
                else:
                    rows.append(self.row(codec, store, None))
                if not over_http and not (codec == HTTP_CODEC and (HTTP_CODEC, True) in targets):
                    shutil.rmtree(store, ignore_errors=True)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return {
            "size_mib": opts.validate_size_mib,
            "shape": list(geometry.shape),
            "bytes": geometry.nbytes,
            "method": __doc__.strip().split("\n\n", 1)[1].replace("\n", " "),
            "rows": rows,
        }

    def row(self, codec: str, store: Path, url: str | None) -> dict:
        where = "http" if url else "directory"
        reader = self.fastest_reader(codec, over_http=url is not None)
        readers = [r for r in (reader, "reference") if r and r in self.chosen]
        readers = list(dict.fromkeys(readers))
        row: dict = {
            "codec": codec,
            "store": where,
            "bytes": self.geometry.nbytes,
            "reader": reader,
        }
        runs: dict[str, list[dict]] = {"validate": [], **{r: [] for r in readers}}
        location = url or str(store)
        for rep in range(self.options.repeat):
            self.say(f"validate rows: rep {rep + 1}/{self.options.repeat} {codec} {where}")
            for name in ["validate", *readers] if rep % 2 == 0 else [*readers, "validate"]:
                run = (
                    time_validate(location, self.options.timeout, str(self.warm[codec]))
                    if name == "validate"
                    else self.time_read(name, codec, store, url)
                )
                runs[name].append(run)
                if run["status"] != "ok":
                    self.say(f"    {name}: {run['status'].upper()}: {run.get('reason', '')[:300]}")
                else:
                    self.say(
                        f"    {name:14} {run['seconds']:8.3f} s  cpu {run.get('cpu_s', 0):8.3f} s"
                        + (f"  peak {run['peak_rss'] / 2**20:.0f} MiB" if "peak_rss" in run else "")
                    )
        row["validate"] = summarize(runs["validate"], self.geometry.nbytes)
        for name in readers:
            row.setdefault("reads", {})[name] = summarize(runs[name], self.geometry.nbytes)
        bad = [r for r in runs["validate"] if r["status"] != "ok"]
        bad += [r for name in readers for r in runs[name] if r["status"] != "ok"]
        if bad:
            row["status"] = bad[0]["status"]
            row["reason"] = bad[0].get("reason", "")
            return row
        row["status"] = "ok"
        if reader:
            read = row["reads"][reader]
            validate = row["validate"]
            row["ratio_wall"] = validate["seconds"]["median"] / read["seconds"]["median"]
            if "cpu_s" in validate and "cpu_s" in read:
                row["ratio_cpu"] = validate["cpu_s"]["median"] / read["cpu_s"]["median"]
            row["within_noise"] = not stats.separated(validate["seconds"], read["seconds"])
        return row

    def time_read(self, name: str, codec: str, store: Path, url: str | None) -> dict:
        """One whole-array read through the adapter's bench operation, in a fresh process."""
        from conformance.harness.client import AdapterClient, make_transport
        from conformance.harness.transport import DEFAULT_MEMORY_LIMIT, AdapterErrored

        config, _ = self.chosen[name]
        output = self.scratch / "validate-read.npy"
        document = array_document("v3", codec, self.geometry)
        location = (
            {"kind": "url", "location": url, "storage_options": {}}
            if url
            else {"kind": "directory", "location": str(store)}
        )
        memory = max(DEFAULT_MEMORY_LIMIT, 6 * self.geometry.nbytes)
        try:
            client = AdapterClient(
                config, make_transport(config, memory_limit=memory), timeout=self.options.timeout
            )
        except Exception as exc:
            return {"status": "errored", "reason": f"cannot start the adapter: {exc}"}
        try:
            # warm-up: one chunk of the same store (imports, thread pools, JIT), untimed
            client.call(
                "bench",
                operation="read",
                format="v3",
                path="",
                metadata=document,
                store=location,
                regions=[self.geometry.chunk_region((0, 0))],
                output=str(output),
            )
            response = client.call(
                "bench",
                operation="read",
                format="v3",
                path="",
                metadata=document,
                store=location,
                regions=None,
                output=str(output),
            )
            if not response.ok:
                status, reason = classify_error(config, response.body)
                return {"status": status, "reason": reason}
            run = timing_of(response.body)
            exact, message = check_read(response.body.get("data"), self.data)
            run["status"] = "ok" if exact else "wrong-data"
            if not exact:
                run["reason"] = message
            return run
        except AdapterErrored as exc:
            return {"status": "errored", "reason": str(exc)[:2000]}
        finally:
            try:
                client.transport.close(timeout=2.0)
            except TypeError:
                client.transport.close()
            output.unlink(missing_ok=True)


def time_validate(location: str, timeout: float, warm: str) -> dict:
    """`validate` of a store in a fresh process, after an untimed validation of the small store
    `warm` (imports, as the readers' warm-up): its own timing, verdict and peak memory."""
    command = [sys.executable, "-m", "conformance.bench.validate_rows", location, warm]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "errored", "reason": f"validate took more than {timeout:g} s"}
    try:
        answer = json.loads(proc.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {
            "status": "errored",
            "reason": f"validate exited {proc.returncode}: {proc.stderr[-1000:]}",
        }
    if answer["exit_code"] != 0:
        return {
            "status": "wrong-data",
            "reason": f"validate found the reference's own store invalid: {answer['summary']}",
        }
    run = {"status": "ok", "seconds": answer["seconds"], "peak_rss": answer["peak_rss"]}
    run["cpu"] = answer["cpu"]
    run["cpu_s"] = answer["cpu"]["user"] + answer["cpu"]["system"]
    return run


def summarize(runs: list[dict], nbytes: int) -> dict:
    ok = [r for r in runs if r["status"] == "ok"]
    if not ok:
        return {"runs": 0}
    out = figures([{**r, "load_1min": None} for r in ok], nbytes)
    del out["load_1min"]
    peaks = [r["peak_rss"] for r in ok if "peak_rss" in r]
    if peaks:
        out["peak_rss_mib"] = stats.median(peaks) / 2**20
    return out


def peak_resident() -> int:
    """This process's peak resident bytes: VmHWM, which starts afresh at exec (ru_maxrss also
    counts the forked copy of the parent, here the bench with its arrays)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


def main(argv: list[str]) -> int:
    """Validate the store argv[0] (after the store argv[1], untimed, if given) and print
    {"seconds", "cpu", "exit_code", "summary", "peak_rss"}."""
    import io

    from conformance.harness.adapter_api import OperationTimer
    from conformance.validate import validate
    from conformance.validate.runner import summary_line

    if len(argv) > 1:
        validate(argv[1], out=io.StringIO())  # the warm-up: imports, untimed
    with OperationTimer() as timer:
        result = validate(argv[0], out=io.StringIO())
    peak = peak_resident()
    print(
        json.dumps(
            {
                **timer.result(),
                "exit_code": result.exit_code,
                "summary": summary_line(result),
                "peak_rss": peak,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
