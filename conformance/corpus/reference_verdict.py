"""Run one case against the reference implementation, in-process, and judge it.

Used by the corpus self-tests (the reference must pass every case) and by `corpus check`-style
tooling; the harness's reference adapter answers the same questions through the protocol.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from .case import Case
from .judge import ReadResult, judge_read, judge_reject, judge_write


def open_case_node(case: Case):
    from conformance.reference import get_format, open_store

    store = open_store(case.store_path)
    fmt = get_format(case.format)
    return store, fmt.open_node(store, fmt.normalize_path(case.node))


def reference_verdict(case: Case) -> list[str]:
    """Failure messages of the reference on `case` (empty: it passes)."""
    from conformance.reference.errors import ZarrError

    if case.kind == "read":
        store, node = open_case_node(case)
        with store:
            if node.kind == "group":
                return judge_read(
                    case, ReadResult("group", node.metadata, node.attrs, members=node.children())
                )
            return judge_read(
                case, ReadResult("array", node.metadata, node.attrs, data=node.read())
            )
    if case.kind == "reject":
        try:
            store, node = open_case_node(case)
            with store:
                if node.kind == "array":  # a read-stage fault shows only when the chunks are read
                    node.read()
        except ZarrError as exc:
            return judge_reject(case, True, str(exc), exc.reason)
        return judge_reject(case, False)
    if case.kind == "write":
        return reference_write(case)
    if case.kind == "zom":
        from .corpus_judge import judge_zom_case

        return judge_zom_case(case)
    raise ValueError(case.kind)


def reference_write(case: Case) -> list[str]:
    from conformance.reference import get_format, open_store
    from conformance.reference.errors import ZarrError

    from .judge import judge_refused_write

    req = case.write_request()
    fmt = get_format(case.format)
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / ("store.zip" if case.store_kind == "zip" else "store")
        store = open_store(target, mode="w")
        if case.expect.get("must_fail"):
            try:
                path = fmt.normalize_path(req.path)
                if req.node_type == "group":
                    fmt.create_group(store, path, req.attributes)
                else:
                    fmt.create_array(store, path, req.metadata, req.attributes)
            except ZarrError as exc:
                return judge_refused_write(case, True, str(exc), exc.reason)
            finally:
                store.close()
            return judge_refused_write(case, False)
        try:
            path = fmt.normalize_path(req.path)
            if req.node_type == "group":
                fmt.create_group(store, path, req.attributes)
            else:
                array = fmt.create_array(store, path, req.metadata, req.attributes)
                if req.data is not None:
                    array.write(None, req.data)
                apply_steps(case, fmt, store, path)
        finally:
            store.close()
        return judge_write(case, target)


def apply_steps(case: Case, fmt, store, path: str) -> None:
    """A write case's steps (regions written, resizes), as the reference adapter applies them."""
    import numpy as np

    from .updates import selection

    for step in case.write_request().steps:
        if step["op"] == "resize":
            fmt.resize_array(store, path, step["shape"])
        else:
            values = np.load(case.dir / step["data"], allow_pickle=False)
            fmt.open_array(store, path).write(selection(step["region"]), values)
