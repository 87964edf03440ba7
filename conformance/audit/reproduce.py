"""From a result record to a standalone script that shows the implementation's behaviour through
its own public API (`zarr-conformance reproduce`).

Each adapter folder holds templates, `reproduce/read.<ext>.tmpl` (read and reject cases) and
`reproduce/write.<ext>.tmpl` (ext `py` or `mjs`), written against the implementation alone. A
template names two places the script is filled in: `{{case}}` (the case as a literal: store
path, node, format, expectation or write request, with absolute paths to the case's files) and
`{{> check}}` (the judge of the language, conformance/audit/check.py or check.mjs, pasted whole);
`{{> ../other/reproduce/read.py.tmpl}}` pastes another template (an adapter that drives another
one's library differently configured). The script printed carries a header naming the record,
its verdict and how to install the implementation and run it.

Which script a record gets: a read, reject or write test runs its case; a pair test (cross,
roundtrip, property) runs the side the verdict blames, alone, on the stored case: the writer's
write script on the write request, or the reader's read script on the store the writer wrote
(kept by the run: a cross test's under <cache>/failures/cross/, a property's example folder),
expecting the writer's input. Where the run kept no store the reader's script needs the writer's
to make it first (`Target.store_from`)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.corpus.case import Case
from conformance.harness.config import AdapterConfig
from conformance.model import PAIR_KINDS, Outcome, Record, Side, TestKind

HERE = Path(__file__).resolve().parent
SCRIPTS = ("read", "write")  # read: read and reject cases
LANGUAGES = {"py": "python", "mjs": "node"}
_INCLUDE = re.compile(r"^[ \t]*\{\{>\s*(\S+)\s*\}\}[ \t]*$", re.M)
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")


class NotReproducible(Exception):
    """No script can show this record's behaviour (the message says why)."""


@dataclass
class Target:
    """What a reproducer runs: one implementation, one script, one case."""

    impl: str  # the adapter (or NAME@VERSION column) whose script runs
    script: str  # "read" or "write"
    case: dict[str, Any]  # the script's CASE
    source: Case | None = None  # the corpus case a write is judged against afterwards
    pair: bool = False  # a pair test's side: judged as the pair test judges it
    store_from: tuple[str, Case] | None = None  # (writer, write case) that must make the store
    notes: list[str] = field(default_factory=list)


# ---- which record --------------------------------------------------------------------------------


def find_record(
    records: list[Record],
    case: str,
    impl: str,
    test: str | None = None,
    store_kind: str | None = None,
    writer: str | None = None,
    reader: str | None = None,
) -> Record:
    """The one record of `case` about `impl` (the blamed side; a passed pair record is about its
    reader); `writer`, `reader`: the sides of a pair record. Several (test kinds, store kinds,
    pairs): the non-pass one if it is alone, else a LookupError listing them so that --test,
    --store-kind, --writer and --reader can choose."""
    found = [
        r
        for r in records
        if r.case == case
        and r.impl == impl
        and (test is None or r.test.value == test)
        and (store_kind is None or r.store.kind.value == store_kind)
        and (writer is None or r.writer == writer)
        and (reader is None or r.reader == reader)
    ]
    if not found:
        about = [r for r in records if r.case == case]
        hint = (
            "; records of this case are about " + ", ".join(sorted({r.impl for r in about}))
            if about
            else "; no record of this case in the results"
        )
        raise LookupError(f"no record of case {case!r} about {impl!r}{hint}")
    failing = [r for r in found if r.outcome is not Outcome.PASSED]
    if len(found) == 1 or len(failing) == 1:
        return failing[0] if failing else found[0]
    listed = "\n".join(
        f"  --test {r.test.value} --store-kind {r.store.kind.value}"
        + (f" --writer {r.writer} --reader {r.reader}" if r.is_pair else "")
        + f": {r.outcome.value}"
        for r in found
    )
    raise LookupError(
        f"{len(found)} records of case {case!r} about {impl!r}; choose one:\n{listed}"
    )


def not_reproducible(record: Record) -> str | None:
    """Why no reproducer applies to a record (None: one does). A record whose implementation was
    never asked (a capability it lacks, the adapter's own `Unsupported` answer) shows nothing of
    the implementation; zom, hostile and fault tests have no template kind."""
    if record.test in (TestKind.ZOM, TestKind.HOSTILE, TestKind.FAULT):
        return (
            f"test kind {record.test.value} has no reproducer (templates cover read, reject, write)"
        )
    if record.case.split("/")[1:2] == ["update"]:  # the cases with steps (op update) live there
        return "the write templates do not replay a case's update steps"
    if record.outcome is Outcome.UNSUPPORTED:
        refusal = record.refusal
        if refusal is None:
            return "not run: a capability the implementation lacks (nothing was asked of it)"
        if refusal.type == "Unsupported":
            return "the adapter declined before calling the implementation (its own Unsupported)"
    kept = record.example is not None or "/found/" in record.case
    if record.test is TestKind.PROPERTY and record.outcome is not Outcome.PASSED and not kept:
        return "the property failure kept no example (nothing to replay)"
    return None


# ---- the case as the script sees it ---------------------------------------------------------------

_FILES = ("data", "data_json", "undefined", "raw")


def _absolute(spec: dict[str, Any], folder: Path) -> dict[str, Any]:
    return {
        k: (str((folder / v).resolve()) if k in _FILES and isinstance(v, str) else v)
        for k, v in spec.items()
    }


def case_value(case: Case) -> dict[str, Any]:
    """The CASE of a corpus case's own script: read or reject its store, or write its request."""
    value: dict[str, Any] = {
        "id": case.id,
        "kind": case.kind,
        "format": case.format,
        "tier": case.tier,
    }
    if case.kind == "write":
        value["request"] = _absolute(case.expect["request"], case.dir)
        if "must_fail" in case.expect:
            value["must_fail"] = case.expect["must_fail"]
        return value
    value["store"] = str(case.store_path.resolve())
    value["node"] = case.node
    value["expect"] = _absolute(case.expect, case.dir)
    return value


def pair_read_value(write_case: Case, store: Path | str, source: str) -> dict[str, Any]:
    """The CASE of a reader's script in a pair test: read the node the writer wrote in `store`;
    the data and attributes must be the writer's input (what the pair test compares)."""
    request = _absolute(write_case.expect["request"], write_case.dir)
    expect = {
        "node_type": request["node_type"],
        "attributes": request.get("attributes", {}),
        **{
            k: request[k]
            for k in ("data", "data_json", "data_json_bytes", "shape")
            if request.get(k) is not None
        },
    }
    if not (request.get("data") or request.get("data_json")):
        expect.pop("shape", None)
    return {
        "id": write_case.id,
        "kind": "read",
        "format": write_case.format,
        "tier": write_case.tier,
        "store": str(store),
        "node": request.get("path", ""),
        "expect": expect,
        "written_by": source,
    }


def _load_case(folder: Path) -> Case:
    if not (folder / "case.json").is_file():
        raise NotReproducible(f"no case at {folder} (the run's saved example is gone)")
    return Case.from_dir(folder, folder.parent)


def corpus_case(root: Path, case_id: str) -> Case:
    folder = root / case_id
    if not (folder / "case.json").is_file():
        raise NotReproducible(f"case {case_id!r} is not in the corpus at {root}")
    return Case.from_dir(folder, root)


def kept_store(record: Record) -> Path | None:
    """The store the writer of a failed cross or roundtrip test wrote, kept by the run."""
    if record.example is None:
        return None
    store = Path(record.example) / "store"
    return store if store.is_dir() else None


def target_of(record: Record, root: Path) -> Target:
    """Which script shows a record's behaviour, on what."""
    why = not_reproducible(record)
    if why is not None:
        raise NotReproducible(why)
    if record.test not in PAIR_KINDS:
        case = corpus_case(root, record.case)
        script = "write" if record.test is TestKind.WRITE else "read"
        return Target(record.impl, script, case_value(case), source=case)
    side = record.side or (Side.READER if record.outcome is Outcome.PASSED else None)
    if side is None:
        raise NotReproducible("the pair record names no blamed side (blame.side)")
    writer, reader = record.writer or "", record.reader or ""
    if record.test is TestKind.PROPERTY and record.example is not None:
        folder = Path(record.example)
        write_case = _load_case(folder / "write")
        if side is Side.WRITER:
            return Target(writer, "write", case_value(write_case), source=write_case, pair=True)
        if (folder / "read" / "case.json").is_file():
            store = _load_case(folder / "read").store_path
            note = f"the store {writer} wrote for the shrunk example, kept by the run"
            return Target(
                reader, "read", pair_read_value(write_case, store, writer), pair=True, notes=[note]
            )
        return _from_writer(reader, writer, write_case)
    write_case = corpus_case(root, record.case)
    if side is Side.WRITER:
        return Target(writer, "write", case_value(write_case), source=write_case, pair=True)
    kept = kept_store(record)
    if kept is not None:
        store = kept
        note = f"the store {writer} wrote, kept by the run"
        return Target(
            reader, "read", pair_read_value(write_case, store, writer), pair=True, notes=[note]
        )
    return _from_writer(reader, writer, write_case)


def _from_writer(reader: str, writer: str, write_case: Case) -> Target:
    """A reader's script on a store the run did not keep: the writer's script makes it first."""
    placeholder = f"store-written-by-{writer}"
    return Target(
        reader,
        "read",
        pair_read_value(write_case, placeholder, writer),
        pair=True,
        store_from=(writer, write_case),
        notes=[f"the run kept no store: {writer}'s write script makes it first"],
    )


# ---- templates ------------------------------------------------------------------------------------


def template_path(config: AdapterConfig, script: str) -> Path:
    """The adapter's template for a script kind (read serves read and reject cases)."""
    if script not in SCRIPTS:
        raise ValueError(f"script kind {script!r} (read or write)")
    folder = config.folder / "reproduce"
    for ext in LANGUAGES:
        path = folder / f"{script}.{ext}.tmpl"
        if path.is_file():
            return path
    raise NotReproducible(
        f"adapter {config.name} has no {script} template ({folder}/{script}.py.tmpl or "
        f"{script}.mjs.tmpl; adapters/README.md, 'Reproducers')"
    )


def language_of(template: Path) -> str:
    """ "py" or "mjs", from `<script>.<ext>.tmpl`."""
    return template.name.split(".")[-2]


def _literal(value: Any, language: str) -> str:
    """A JSON value as a literal of the script's language, type for type (1 stays 1, 1.0 1.0;
    in JavaScript an integer beyond 2^53 becomes a BigInt literal, which a Number cannot hold)."""
    return _js(value, 0) if language == "mjs" else _py(value, 0)


def _js(value: Any, depth: int) -> str:
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(str(k))}: {_js(v, depth + 1)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + f"\n{pad}}}"
    if isinstance(value, (list, tuple)):
        text = "[" + ", ".join(_js(v, depth + 1) for v in value) + "]"
        if len(text) <= 80:
            return text
        return "[\n" + "\n".join(f"{inner}{_js(v, depth + 1)}," for v in value) + f"\n{pad}]"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return f"{value}n"
    if isinstance(value, float) and not math.isfinite(value):
        return {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}[repr(value)]
    return json.dumps(value, ensure_ascii=False)


def _py(value: Any, depth: int) -> str:
    pad, inner = "    " * depth, "    " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{inner}{_py(k, depth + 1)}: {_py(v, depth + 1)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + f"\n{pad}}}"
    if isinstance(value, (list, tuple)):
        text = "[" + ", ".join(_py(v, depth + 1) for v in value) + "]"
        if len(text) <= 80:
            return text
        return "[\n" + "\n".join(f"{inner}{_py(v, depth + 1)}," for v in value) + f"\n{pad}]"
    if isinstance(value, float) and not math.isfinite(value):
        return f'float("{value}")'
    if value is None or isinstance(value, (bool, int, float, str)):
        return repr(value)
    raise TypeError(f"not a JSON value: {value!r}")


def render(template: Path, case: dict[str, Any], header: str = "") -> str:
    """The script: the template with its includes pasted, `{{case}}` filled and the header on top."""
    language = language_of(template)
    text = _expand(template, language, seen=())

    def fill(match: re.Match[str]) -> str:
        if match.group(1) != "case":
            raise ValueError(f"{template}: unknown placeholder {match.group(0)!r}")
        keyword = "const" if language == "mjs" else ""
        literal = _literal(case, language)
        return f"{keyword} CASE = {literal};" if keyword else f"CASE = {literal}"

    body = _PLACEHOLDER.sub(fill, text)
    return header + body if header else body


def _expand(template: Path, language: str, seen: tuple[Path, ...]) -> str:
    if template in seen:
        raise ValueError(f"{template}: includes itself ({' -> '.join(map(str, seen))})")
    text = template.read_text("utf-8")

    def include(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "check":
            return judge_source(language)
        path = (template.parent / name).resolve()
        if not path.is_file():
            raise ValueError(f"{template}: included file {name!r} not found")
        return _expand(path, language, (*seen, template))

    return _INCLUDE.sub(include, text)


def judge_source(language: str) -> str:
    """The judge pasted into every script of a language, less its module docstring."""
    source = (HERE / f"check.{language}").read_text("utf-8")
    if language == "py" and source.startswith('"""'):
        source = source[source.index('"""', 3) + 3 :].lstrip("\n")
    banner = "# " if language == "py" else "// "
    line = f"{banner}---- the judge (zarr-conformance: conformance/audit/check.{language}) ----"
    end = f"{banner}---- end of the judge ----"
    return f"{line}\n{source.rstrip()}\n{end}"


# ---- the header ------------------------------------------------------------------------------------


def install_lines(config: AdapterConfig, impl_env: str = "pinned") -> list[str]:
    """How to get the implementation and run the script (never this machine's cached paths)."""
    language = "mjs" if config.transport == "command" else "py"
    if config.npm:
        return [
            f"npm install --no-save {' '.join(config.npm)}   # in the script's folder",
            "node THIS_SCRIPT.mjs",
        ]
    if language == "mjs":
        return ["node THIS_SCRIPT.mjs"]
    if impl_env == "current" and config.requirements:
        return ["python THIS_SCRIPT.py   # in the environment whose build was tested"]
    if config.requirements:
        return [
            "python3 -m venv venv",
            f"venv/bin/pip install {' '.join(config.requirements)}",
            "venv/bin/python THIS_SCRIPT.py",
        ]
    if config.python is not None:
        lines = [f"apt-get install {' '.join(config.debian)}"] if config.debian else []
        return [*lines, f"{config.python} THIS_SCRIPT.py"]
    return [
        "pip install zarr-conformance   # the reference implementation",
        "python THIS_SCRIPT.py",
    ]


def header(
    record: Record | None,
    config: AdapterConfig,
    target: Target,
    language: str,
    impl_env: str = "pinned",
) -> str:
    mark = "#" if language == "py" else "//"
    lines = ["Reproducer of a zarr-conformance verdict (zarr-conformance reproduce)."]
    if record is not None:
        pair = f" ({record.writer} -> {record.reader})" if record.is_pair else ""
        lines.append(
            f"record: {record.test.value} {record.case}{pair}, store {record.store.kind.value}"
        )
        side = f", blamed side {record.side.value}" if record.is_pair and record.side else ""
        lines.append(f"verdict about {record.impl}: {record.outcome.value}{side}")
        first = (record.message or "").strip().splitlines()[:3]
        lines += [f"  {line[:160]}" for line in first]
        if record.known_failure is not None:
            known = record.known_failure
            lines.append(f"known failure: {known.id} ({known.report or known.issue})")
        versions = record.versions.get(target.impl) or record.versions.get(record.impl) or {}
        if versions:
            lines.append(
                "implementation: " + ", ".join(f"{k} {v}" for k, v in sorted(versions.items()))
            )
        if record.store.kind.value in ("http", "s3", "icechunk"):
            how = (
                "held it in an Icechunk repository"
                if record.store.kind.value == "icechunk"
                else "served that folder"
            )
            lines.append(
                f"recorded over {record.store.kind.value}: this script reads the same store from "
                f"its folder (the run {how})"
            )
    else:
        lines.append(f"no record: {target.script} case {target.case['id']} with {target.impl}")
    lines += target.notes
    lines.append(f"{target.script} script of adapter {config.name}; run it with:")
    lines += [f"    {line}" for line in install_lines(config, impl_env)]
    if target.script == "write":
        lines.append(
            "It writes into the folder given as its argument (else a new temporary one) and "
            "prints what the store holds; `zarr-conformance validate FOLDER` judges it."
        )
    lines.append(
        "It prints what the implementation did; its last line is machine-readable; exit "
        "status 0: as the case expects."
    )
    if language == "mjs":
        return "\n".join(f"{mark} {line}".rstrip() for line in lines) + "\n\n"
    return (
        "#!/usr/bin/env python3\n" + "\n".join(f"{mark} {line}".rstrip() for line in lines) + "\n\n"
    )


def script_text(
    target: Target, config: AdapterConfig, record: Record | None, impl_env: str = "pinned"
) -> tuple[str, str]:
    """(the script, its language: "py" or "mjs")."""
    template = template_path(config, target.script)
    language = language_of(template)
    case = dict(target.case)
    if config.reason_codes and case["kind"] in ("reject", "write"):
        case["reason_codes"] = True  # its errors carry reason codes: a refusal must give the case's
    return render(template, case, header(record, config, target, language, impl_env)), language
