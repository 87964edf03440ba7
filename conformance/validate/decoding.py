"""Decoding an array's stored chunks on every core, in order, within a memory bound.

The codec libraries (libzstd, blosc, zlib) and file reads release the GIL, so a few threads
decode chunks side by side. Results come back in the order the chunks were given, so a walk
reports its findings in the same order as a serial one. Each worker holds one chunk at a time
and keeps only whether it decoded, so the memory a walk holds is bounded by the number of
workers: as many as the reference uses (ZARR_CONFORMANCE_THREADS; for a remote store at least
REMOTE_WORKERS, as reading is mostly waiting there), but no more than fit in
DECODE_MEMORY at twice the chunk's decoded size (its stored and decoded bytes), and one for
chunks too large for that. The workers are daemon threads: a decode stuck in a stalled network
read must not keep the process alive after the time budget gave up on the walk.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import Future
from typing import Any, TypeVar

from conformance.reference.array import _threads

DECODE_MEMORY = 64 << 20  # what the chunks being decoded at once may take
QUEUE_PER_WORKER = 2  # chunks handed out ahead of the one being reported, per worker
REMOTE_WORKERS = 8  # requests in flight at once from a remote store (HTTP, S3)

Item = TypeVar("Item")
Result = TypeVar("Result")


def workers_for(chunk_bytes: int, remote: bool = False) -> int:
    """How many chunks of `chunk_bytes` (decoded) may be decoded at once; from a remote store
    at least REMOTE_WORKERS, which mostly wait for the network."""
    threads = max(_threads(), REMOTE_WORKERS) if remote else _threads()
    return max(1, min(threads, DECODE_MEMORY // max(2 * chunk_bytes, 1)))


Outcome = tuple[Item, Result | None, BaseException | None]


def in_order(
    func: Callable[[Item], Result], items: Iterable[Item], workers: int
) -> Generator[Outcome[Item, Result], None, None]:
    """(item, func(item), None) or (item, None, the exception it raised), in the order of
    `items`, computed by `workers` threads at most QUEUE_PER_WORKER * workers items ahead.
    Closing the iterator early cancels what has not started."""
    if workers <= 1:
        for item in items:
            try:
                yield item, func(item), None
            except Exception as exc:
                yield item, None, exc
        return
    jobs: queue.SimpleQueue[tuple[Future[Result], Item] | None] = queue.SimpleQueue()

    def work() -> None:
        while (job := jobs.get()) is not None:
            future, item = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(func(item))
            except BaseException as exc:  # handed to the reader, which decides
                future.set_exception(exc)

    threads = [
        threading.Thread(target=work, name="zarr-validate-decode", daemon=True)
        for _ in range(workers)
    ]
    for thread in threads:
        thread.start()
    pending: deque[tuple[Item, Future[Result]]] = deque()
    try:
        for item in items:
            future: Future[Result] = Future()
            jobs.put((future, item))
            pending.append((item, future))
            if len(pending) >= QUEUE_PER_WORKER * workers:
                yield _outcome(*pending.popleft())
        while pending:
            yield _outcome(*pending.popleft())
    finally:
        for _, future in pending:
            future.cancel()
        for _ in threads:
            jobs.put(None)


def _outcome(item: Item, future: Future[Any]) -> tuple[Item, Any, BaseException | None]:
    error = future.exception()  # waits for it
    return item, (None if error is not None else future.result()), error
