"""The pytest plugin that turns conformance/suite into tests of adapters over the corpus.

    pytest --pyargs conformance.suite --impl zarr-python --impl tensorstore --results out.jsonl

Registered through the `pytest11` entry point, so it is loaded in every pytest session of an
environment where zarr-conformance is installed: it only adds options and acts on tests marked
`@pytest.mark.conformance(<test kind>)`; other test suites are not affected.

Parametrisation: adapters x cases (ordered writer/reader pairs for cross and property tests;
property tests also replay every saved property failure of the corpus, `<format>/found/*`).
conformance.harness.plan decides per test whether it runs, runs as a probe (a capability the
adapter does not declare) or is skipped as `unsupported`, and which known failure applies (an
xfail, so that plain pytest runs show it as such). Every test ends as one results record, built on
the worker (attached to the report) and written by the process that sees all reports (the xdist
controller, or the only process).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import time
import warnings
from pathlib import Path

import pytest

from .outcomes import Observation, observe, skip_reason
from .plan import Plan, plan_cross, plan_found, plan_property, plan_single
from .properties import PROPERTIES, example_settings, is_found, property_id
from .records import (
    OPT_IN_TESTS,
    PAIR_TESTS,
    TESTS,
    ResultsWriter,
    gates,
    make_record,
    new_run_id,
    summary_table,
)
from .remote import remote_kinds
from .session import Options, SuiteSession, TestContext, case_needs, missing
from .transport import DEFAULT_TIMEOUT
from .verdicts import Subject, conclude, record_of

SESSION = pytest.StashKey[SuiteSession]()
CONTEXT = pytest.StashKey[TestContext]()
RECORD_PROPERTY = "zarr_conformance_record"


class ImplVersionWarning(UserWarning):
    """An adapter runs another version of its implementation than adapter.toml pins."""


def register_hypothesis_profiles() -> None:
    """`--hypothesis-profile ci`: kept for old command lines; the suite's property tests are
    deterministic by default now (conformance.suite.test_properties: fixed seed and examples)."""
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "ci",
        max_examples=100,
        deadline=None,
        derandomize=True,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _size(text: str) -> int:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*", text.lower())
    if not match:
        raise pytest.UsageError(
            f"--adapter-memory: cannot read {text!r} (e.g. 4GiB, 512MiB, 0 = no cap)"
        )
    return int(float(match.group(1)) * 1024 ** " kmgt".index(match.group(2) or " "))


def pytest_addoption(parser) -> None:
    group = parser.getgroup("zarr-conformance", "Zarr conformance suite (conformance/suite)")
    group.addoption(
        "--impl",
        action="append",
        default=[],
        metavar="NAME",
        help="adapter to test, by name (adapters/<name>) or folder path; repeatable (default: reference)",
    )
    group.addoption("--results", metavar="FILE", help="write the JSONL results stream here")
    group.addoption(
        "--adapter-timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds per adapter request before it counts as hung (default {DEFAULT_TIMEOUT:g})",
    )
    group.addoption(
        "--adapter-memory",
        default="4GiB",
        metavar="SIZE",
        help="memory cap of each adapter and its whole process tree (RLIMIT_DATA per process plus a PSS watchdog over the tree; default 4GiB, 0 = none)",
    )
    # Not --fixtures: pytest itself owns that option (it lists fixtures).
    group.addoption(
        "--corpus",
        metavar="DIR",
        help="corpus root (default: <repo>/fixtures or $ZARR_CONFORMANCE_FIXTURES)",
    )
    group.addoption(
        "--kinds",
        metavar="LIST",
        default=",".join(TESTS),
        help=f"comma-separated test kinds to run (default all: {','.join(TESTS)}; also "
        f"{','.join(OPT_IN_TESTS)}: the hostile area and faults, not gating)",
    )
    group.addoption(
        "--cases",
        action="append",
        default=[],
        metavar="GLOB",
        help="only cases whose id matches this glob; repeatable",
    )
    group.addoption(
        "--in-process",
        action="store_true",
        help="import adapters without requirements into the test process (faster, no isolation)",
    )
    group.addoption(
        "--no-probe",
        action="store_true",
        help="skip read/reject/write/zom cases needing a capability the adapter does not declare "
        "(default: run them as probes)",
    )
    group.addoption(
        "--run-id", default=None, help="id shared by every record of this run (default: generated)"
    )
    group.addoption(
        "--impl-env",
        choices=("pinned", "current"),
        default="pinned",
        help="pinned (default): each adapter runs in a venv of adapter.toml's exact pins; current: "
        "python adapters run in this interpreter, testing the implementation installed here "
        "(your own build), with the adapter's known failures. NAME@VERSION in --impl runs "
        "another version of the implementation in its own venv instead",
    )
    group.addoption(
        "--hypothesis-explore",
        action="store_true",
        help="property tests draw fresh random examples (default: a fixed seed, the same examples "
        "every run) and save every new shrunk failure as corpus cases <format>/found/* that "
        "later runs replay",
    )
    group.addoption(
        "--property-examples",
        type=int,
        default=None,
        metavar="N",
        help="examples per property and writer/reader pair (default 100)",
    )
    group.addoption(
        "--property-no-shrink",
        action="store_true",
        help="record a failing property example as drawn, without shrinking it first",
    )
    group.addoption(
        "--store-kinds",
        metavar="LIST",
        default=None,
        help="remote store kinds read (and s3 and icechunk write) cases also run over, for "
        "adapters declaring store:<kind>: servers on 127.0.0.1 started by the session, and "
        "Icechunk repositories made by a helper in a Python 3.12 venv of its own (default "
        "http,s3,icechunk where this environment has what they need, else one line says why "
        "not; with --impl-env current an adapter also needs its remote_packages, and icechunk, "
        "here; '' = none)",
    )
    group.addoption(
        "--adapter-overrides",
        action="append",
        default=[],
        metavar="FILE",
        help="a TOML file of changes to the installed adapters' known failures and error rules "
        "(drop fixed entries, add or replace entries, error rules tried first): for the build "
        "under test, kept in its own repository (docs/ci.md); repeatable",
    )
    group.addoption(
        "--corpus-version",
        metavar="VERSION",
        default=None,
        help="stop unless the corpus's VERSION file says this version (1.2.0), or one within it (1.2, 1)",
    )


@pytest.hookimpl(tryfirst=True)  # before hypothesis's plugin loads the profile
def pytest_configure(config) -> None:
    # hypothesis is imported only when asked for: importing it slows down every pytest start.
    if getattr(config.option, "hypothesis_profile", None) == "ci":
        register_hypothesis_profiles()
    config.addinivalue_line(
        "markers", "conformance(test): a conformance suite test of that kind (read, reject, ...)"
    )
    config.addinivalue_line(
        "markers", "conformance_empty: placeholder of an empty parameter set (deselected)"
    )
    _use_imported_suite(config)
    kinds = tuple(k.strip() for k in config.getoption("kinds").split(",") if k.strip())
    bad = [k for k in kinds if k not in TESTS + OPT_IN_TESTS]
    if bad:
        raise pytest.UsageError(
            f"--kinds: unknown test kind(s) {', '.join(bad)}; known: {', '.join(TESTS)}"
        )
    memory = _size(config.getoption("adapter_memory"))
    store_kinds, store_notes = _store_kinds(config.getoption("store_kinds"))
    options = Options(
        impls=config.getoption("impl") or ["reference"],
        results=Path(config.getoption("results")) if config.getoption("results") else None,
        timeout=config.getoption("adapter_timeout"),
        memory_limit=memory or None,
        fixtures=Path(config.getoption("corpus")) if config.getoption("corpus") else None,
        kinds=kinds,
        cases=tuple(config.getoption("cases")),
        in_process=config.getoption("in_process"),
        run_id=config.getoption("run_id") or new_run_id(),
        probe=not config.getoption("no_probe"),
        impl_env=config.getoption("impl_env"),
        explore=config.getoption("hypothesis_explore"),
        examples=config.getoption("property_examples"),
        shrink=not config.getoption("property_no_shrink"),
        store_kinds=store_kinds,
        store_notes=store_notes,
        overrides=tuple(Path(p) for p in config.getoption("adapter_overrides")),
    )
    if options.examples is not None and options.examples < 1:
        raise pytest.UsageError("--property-examples: at least 1")
    _check_corpus_version(config.getoption("corpus_version"), options.fixtures)
    left_out = _leave_out_unbuildable(config, options)
    config.stash[SESSION] = SuiteSession(options)
    if config.getoption("impl") or options.impl_env != "pinned":
        config.stash[SESSION].adapters  # noqa: B018 - loading them: an unknown or invalid adapter is a usage error, right away
    left_out += _settle_icechunk(config, options, config.stash[SESSION])
    if not hasattr(config, "workerinput"):  # the process that writes records
        sink = RecordSink(config, options)
        sink.notes[:0] = left_out
        config.pluginmanager.register(sink, "zarr-conformance-records")
        for note in sink.notes:
            config.issue_config_time_warning(ImplVersionWarning(note), stacklevel=2)


LEFT_OUT = "zarr_conformance_left_out"  # xdist workerinput: adapters the controller left out


def _leave_out_unbuildable(config, options: Options) -> list[str]:
    """Make the selected adapters' environments now, on the process that writes records (the
    xdist controller, or the only process), and leave out every adapter that is unavailable or
    whose environment cannot be made (a version row pip refuses): no records, one line each
    (returned). xdist workers leave out what the controller did (pytest_configure_node)."""
    if hasattr(config, "workerinput"):
        gone = set(config.workerinput.get(LEFT_OUT, ()))
        options.impls = [name for name in options.impls if name not in gone]
        return []
    if not config.getoption("impl"):  # the reference: nothing to make (and every pytest session
        return []  # of this environment loads the plugin: keep the others cheap)
    from .envs import Selection, provision_all

    asked = list(options.impls)
    selection = provision_all(Selection(list(asked), {}, []), options.impl_env)
    options.impls = selection.names
    config.stash[LEFT_OUT_KEY] = [name for name in asked if name not in selection.names]
    return selection.notes()


LEFT_OUT_KEY = pytest.StashKey[list]()


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """pytest-xdist, on the controller: tell each worker which adapters were left out, and what
    the controller settled about the store kinds (_settle_icechunk)."""
    node.workerinput[LEFT_OUT] = node.config.stash.get(LEFT_OUT_KEY, [])
    settled = node.config.stash.get(STORES_KEY, None)
    if settled is not None:
        node.workerinput[STORES] = settled


STORES = "zarr_conformance_stores"  # xdist workerinput: the store kinds and refusals of the run
STORES_KEY = pytest.StashKey[dict]()


def _settle_icechunk(config, options: Options, session: SuiteSession) -> list[str]:
    """On the process that writes records, when icechunk is a store kind of the run and a selected
    adapter declares store:icechunk: make the environment of Icechunk's helper (or leave the kind
    out, saying why) and ask Icechunk which of the v3 read and write cases it cannot hold: they
    do not run over icechunk, for any adapter (conformance.harness.icechunk_store). Workers take
    the controller's answer. Returns the lines to print."""
    if hasattr(config, "workerinput"):
        settled = config.workerinput.get(STORES)
        if settled is not None:
            options.store_kinds = tuple(settled["kinds"])
            options.store_refusals = settled["refusals"]
        return []
    if "icechunk" not in options.store_kinds or not config.getoption("impl"):
        return []
    tests = [t for t in ("read", "write") if t in options.kinds]
    if not tests or not any("store:icechunk" in c.capabilities for c in session.adapters.values()):
        return []
    from .icechunk_store import IcechunkError, provision

    why = provision()
    cases = [c for t in tests for c in session.cases(t) if "icechunk" in remote_kinds(t, c)]
    if why is None:
        try:
            options.store_refusals["icechunk"] = session.icechunk.refusals(cases)
        except IcechunkError as exc:
            why = str(exc)
    if why is not None:
        options.store_kinds = tuple(k for k in options.store_kinds if k != "icechunk")
        options.store_notes["icechunk"] = why
        return []
    config.stash[STORES_KEY] = {
        "kinds": list(options.store_kinds),
        "refusals": options.store_refusals,
    }
    refused = options.store_refusals["icechunk"]
    if not refused:
        return []
    return [
        f"icechunk: {len(refused)} of {len(cases)} v3 read and write cases do not run over "
        "icechunk, for any adapter: Icechunk cannot hold their stores (which and why: "
        "store_refusals in the results' .meta.json)"
    ]


def _store_kinds(text: str | None) -> tuple[tuple[str, ...], dict[str, str]]:
    """The remote store kinds of this run, and why each asked for (or, by default, wanted) is
    left out: the harness side needs the reference's URL store and moto (remote.unavailable).
    Adapters without their own remote packages (--impl-env current) lose theirs in variants."""
    from .remote import REMOTE_KINDS, unavailable

    asked = text is not None
    if text is None:
        text = ",".join(REMOTE_KINDS)
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    bad = [k for k in kinds if k not in REMOTE_KINDS]
    if bad:
        raise pytest.UsageError(
            f"--store-kinds: unknown remote store kind(s) {', '.join(bad)}; known: "
            f"{', '.join(REMOTE_KINDS)} (directory and zip cases always run)"
        )
    missing = unavailable(kinds)
    if asked:
        for kind, why in missing.items():
            warnings.warn(
                f"zarr-conformance: no {kind} store kind in this run: {why}", stacklevel=2
            )
    return tuple(k for k in kinds if k not in missing), missing


def _check_corpus_version(wanted: str | None, fixtures: Path | None) -> None:
    if not wanted:
        return
    from conformance.corpus import default_root
    from conformance.resources import corpus_version, version_matches

    root = fixtures or default_root()
    have = corpus_version(root)
    if not version_matches(have, wanted):
        raise pytest.UsageError(
            f"--corpus-version {wanted}: the corpus at {root} is "
            f"{'version ' + have if have else 'unversioned (no VERSION file)'}"
        )


def _use_imported_suite(config) -> None:
    """`pytest <checkout>/conformance/suite` while another copy of the package is the one imported
    (a wheel in site-packages, a tox environment): collect the imported package's suite instead, so
    pytest does not stop at "import file mismatch" (the plugin and the tests must be one copy)."""
    from conformance.resources import PACKAGE_DIR

    mine = PACKAGE_DIR / "suite"  # found without importing it: the harness does not import tests
    args = list(config.args)
    changed = False
    for i, arg in enumerate(args):
        path_text, sep, rest = arg.partition("::")
        path = Path(path_text)
        if not path.is_absolute():
            path = Path(config.invocation_params.dir) / path
        if not path.exists():
            continue
        path = path.resolve()
        parts = path.parts
        for j in range(len(parts) - 1, 0, -1):
            if (
                parts[j - 1 : j + 1] == ("conformance", "suite")
                and (Path(*parts[: j + 1]) / "__init__.py").is_file()
            ):
                suite = Path(*parts[: j + 1])
                if suite != mine:
                    target = mine.joinpath(*parts[j + 1 :])
                    if target.exists():
                        args[i] = str(target) + sep + rest
                        changed = True
                break
    if changed:
        config.args[:] = args


def pytest_unconfigure(config) -> None:
    session = config.stash.get(SESSION, None)
    if session is not None:
        session.close()


# ---- parametrisation ------------------------------------------------------------------------------


def pytest_generate_tests(metafunc) -> None:
    marker = metafunc.definition.get_closest_marker("conformance")
    if marker is None:
        return
    test = marker.args[0]
    session: SuiteSession = metafunc.config.stash[SESSION]
    if test == "property" and "case" in metafunc.fixturenames:  # replays of saved property failures
        argnames, params = ["writer", "reader", "case"], []
        if test in session.options.kinds:
            params = _found_params(session)
    elif test == "property":
        argnames, params = ["writer", "reader"], []
        if test in session.options.kinds:
            params = _property_params(session, metafunc.definition.name)
    else:
        single = test != "cross"
        argnames = ["impl", "case", "store_kind"] if single else ["writer", "reader", "case"]
        params = []
        if test in session.options.kinds:
            params = _single_params(session, test) if single else _cross_params(session)
    if not params:  # deselected below (pytest's own empty parameter set would show as a skip)
        params = [
            pytest.param(*[None] * len(argnames), marks=pytest.mark.conformance_empty, id="none")
        ]
    metafunc.parametrize(argnames, params)


def _single_params(session: SuiteSession, test: str):
    """(adapter, case, store kind): each case on its own store (store kind None), and again over
    every remote store kind (conformance.harness.remote) the adapter declares and the store can
    hold; over the remote kinds only declared support runs (no probes: that would double every
    adapter's matrix)."""
    params = []
    for name in session.adapters:
        config = session.config(name)
        for case in opt_in_cases(session, test) if test in OPT_IN_TESTS else session.cases(test):
            kinds = [None] + [
                k
                for k in remote_kinds(test, case)
                if k in session.options.store_kinds
                and case.id not in session.options.store_refusals.get(k, {})
                and not missing(case_needs(test, case, store_kind=k) - set(case.needs), config)
            ]
            for kind in kinds:
                params.append(
                    pytest.param(
                        name,
                        case,
                        kind,
                        marks=_marks(plan_single(session, test, name, case, kind)),
                        id=f"{name}:{case.id}" + (f"@{kind}" if kind else ""),
                    )
                )
    return params


def opt_in_cases(session: SuiteSession, test: str) -> list:
    """The cases of an opt-in kind: the hostile area (conformance.corpus.hostile) or faults on
    valid corpus cases (conformance.testing.faults), filtered by --cases."""
    from fnmatch import fnmatchcase

    if test == "hostile":
        from conformance.corpus.hostile import load_cases

        cases = load_cases(session.root)
    else:
        from conformance.testing.faults import fault_cases

        cases = fault_cases(session.all_cases())
    globs = session.options.cases
    return [c for c in cases if not globs or any(fnmatchcase(c.id, g) for g in globs)]


def _cross_params(session: SuiteSession):
    return [
        pytest.param(
            wname,
            rname,
            case,
            marks=_marks(plan_cross(session, wname, rname, case)),
            id=f"{wname}->{rname}:{case.id}",
        )
        for wname, rname in itertools.product(session.adapters, repeat=2)
        for case in session.cases("cross")
    ]


def property_pairs(session: SuiteSession) -> list[tuple[str, str]]:
    """Every ordered pair of selected adapters, and each one with itself and with the reference."""
    names = list(session.adapters)
    pairs = list(itertools.product(names, repeat=2))
    for name in names:
        pairs += [(name, "reference"), ("reference", name)]
    return list(dict.fromkeys(pairs))


def _property_params(session: SuiteSession, function: str):
    case_id = property_id(function)
    return [
        pytest.param(
            wname,
            rname,
            marks=_marks(plan_property(session, case_id, wname, rname)),
            id=f"{wname}->{rname}",
        )
        for wname, rname in property_pairs(session)
    ]


def found_cases(session: SuiteSession) -> list:
    """The saved property failures (write cases of `<format>/found/`) the property tests replay."""
    from fnmatch import fnmatchcase

    globs = session.options.cases
    return [
        c
        for c in session.all_cases()
        if is_found(c)
        and c.kind == "write"
        and (not globs or any(fnmatchcase(c.id, g) for g in globs))
    ]


def _found_params(session: SuiteSession):
    return [
        pytest.param(
            wname,
            rname,
            case,
            marks=_marks(plan_found(session, case, wname, rname)),
            id=f"{wname}->{rname}:{case.id}",
        )
        for wname, rname in property_pairs(session)
        for case in found_cases(session)
    ]


def _marks(plan: Plan) -> list:
    """A test the plan skips is skipped before it starts (its record: `unsupported`). Known
    failures are no xfail marks: which one explains a record depends on what the test observed
    (conformance.harness.verdicts), and the record then decides what pytest shows."""
    return [pytest.mark.skip(reason=plan.skip_reason)] if plan.mode == "skip" else []


def plan_of(item) -> Plan:
    """The plan of a collected suite test (recomputed: plans are a pure function of the session)."""
    session: SuiteSession = item.config.stash[SESSION]
    test = item.get_closest_marker("conformance").args[0]
    params = item.callspec.params
    if test == "property" and "case" in params:
        return plan_found(session, params["case"], params["writer"], params["reader"])
    if test == "property":
        return plan_property(session, _property_case(item), params["writer"], params["reader"])
    if test == "cross":
        return plan_cross(session, params["writer"], params["reader"], params["case"])
    return plan_single(session, test, params["impl"], params["case"], params.get("store_kind"))


def pytest_collection_modifyitems(config, items) -> None:
    """Drop the placeholders of empty parameter sets (deselected test kinds, no cases)."""
    session = config.stash.get(SESSION, None)
    if session is None:
        return
    keep, drop = [], []
    for item in items:
        marker = item.get_closest_marker("conformance")
        if marker is not None and (
            item.get_closest_marker("conformance_empty") is not None
            or marker.args[0] not in session.options.kinds
        ):
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# ---- the per-test context and the record ----------------------------------------------------------


@pytest.fixture
def store_kind():
    """The remote store kind a read, reject or write test runs over (parametrised by
    pytest_generate_tests); None: the case's own store."""
    return None


@pytest.fixture
def harness(request, store_kind):
    """The suite's way to reach adapters (see conformance.harness.session.TestContext)."""
    context = TestContext(
        request.config.stash[SESSION],
        plan_of(request.node),
        request.node.callspec.params.get("case"),
        store_kind,
    )
    request.node.stash[CONTEXT] = context
    yield context
    context.cleanup()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    marker = item.get_closest_marker("conformance")
    if marker is None or report.when == "teardown":
        return report
    if report.when == "setup" and report.passed:
        return report  # the call phase will say how it ended
    record = _record(item, marker.args[0], report, call)
    report.user_properties.append((RECORD_PROPERTY, record))
    _show(report, record, item)
    return report


def _show(report, record: dict, item) -> None:
    """What pytest shows for a record (runner first: the record decides). A record that fails
    the gate is a failure, in a few lines: the case, what happened, the spec sentence and the
    command that reproduces it; a known failure is an xfail; a declared lack of capability a
    skip; everything else (passed, lenient, declined, type-changed, explained wrong data) a
    pass."""
    outcome = record["outcome"]
    if gates(record):
        report.outcome = "failed"
        report.longrepr = failure_text(record, item)
    elif outcome == "known-failure":
        report.outcome = "skipped"
        report.wasxfail = f"known failure {record['known_failure']['id']}"
    elif outcome == "unsupported":
        if not report.skipped:
            report.outcome = "skipped"
            report.longrepr = ("", 0, record["message"] or "unsupported")
    else:
        report.outcome = "passed"
        report.longrepr = None


def failure_text(record: dict, item) -> str:
    """A failing record in a few lines (not the harness's own traceback)."""
    session: SuiteSession = item.config.stash[SESSION]
    case = item.callspec.params.get("case")
    who = (
        f"{record['writer']} -> {record['reader']} (at fault: {record['impl']})"
        if record.get("writer") and record.get("reader") and record["test"] in PAIR_TESTS
        else record["impl"]
    )
    lines = [
        f"{record['outcome']}: {record['test']} {record['case']} by {who} "
        f"[tier {record.get('tier')}, store {record['store']['kind']}]"
    ]
    message = (record.get("message") or "").strip().splitlines()
    lines += [f"  {line}" for line in message[:4]]
    if len(message) > 4:
        lines.append(f"  ... ({len(message) - 4} more lines in the results file)")
    evidence = (record.get("blame") or {}).get("evidence")
    if evidence:
        lines.append(f"  evidence: {evidence}")
    quote = _quote(case)
    if quote:
        lines.append(f"  spec: {quote}")
    glob = record["case"] if case is not None else "*"
    kinds = "cross" if record["test"] == "roundtrip" else record["test"]
    lines.append(
        f"  re-run: zarr-conformance run --impl {record['impl']} --cases '{glob}' --kinds {kinds}"
    )
    if session.options.results is not None:
        lines.append(
            f"  reproduce: zarr-conformance reproduce {session.options.results} "
            f"{record['case']} --impl {record['impl']}"
        )
    return "\n".join(lines)


def _quote(case) -> str:
    if case is None:
        return ""
    for entry in case.raw.get("citation") or ():
        if entry.get("quote"):
            where = " ".join(x for x in (entry.get("spec", ""), entry.get("section", "")) if x)
            return f'"{entry["quote"]}" ({where})'
    return ""


def _record(item, test: str, report, call) -> dict:
    session: SuiteSession = item.config.stash[SESSION]
    context = item.stash.get(CONTEXT, None)
    plan = plan_of(item)
    params = item.callspec.params
    case = params.get("case")
    case_id = case.id if case is not None else _property_case(item)
    store_kind = params.get("store_kind") or (
        case.store_kind
        if case is not None and test in ("read", "reject", "zom", *OPT_IN_TESTS)
        else "directory"
    )
    subject = Subject(
        test=plan.test,
        case_id=case_id,
        impl=params.get("impl"),
        writer=params.get("writer"),
        reader=params.get("reader"),
        store=store_kind,
    )
    observation = _observation(report, call)
    fields = dict(context.fields) if context else {}
    tier = case.tier if case is not None else fields.pop("tier", None)
    tier = observation.tier or tier  # a pair's reader judged on what the writer wrote
    probed = context.probed if context else ()
    settled, side, evidence = conclude(
        session,
        plan,
        subject,
        observation,
        versions=context.versions if context else {},
        step=context.step if context else None,
        probed=probed,
        tier=tier,
    )
    return record_of(
        session,
        subject,
        settled,
        side,
        evidence,
        requirements=case.requirements if case is not None else fields.pop("requirements", []),
        elapsed=report.duration,
        adapter_elapsed=context.adapter_elapsed if context else None,
        versions=context.versions if context else {},
        tier=tier,
        format=case.format if case is not None else fields.pop("format", None),
        store={"kind": store_kind},
        probe=True if probed else None,
        pair="self"
        if test == "property" and params.get("writer") == params.get("reader")
        else None,
        nodeid=item.nodeid,
        **fields,
    )


def _observation(report, call) -> Observation:
    """What the test showed, from the pytest report that ends it (setup not passed, or call)."""
    if report.skipped:
        longrepr = report.longrepr
        text = (
            longrepr[2]
            if isinstance(longrepr, tuple) and len(longrepr) == 3
            else str(longrepr or "")
        )
        return Observation("unsupported", skip_reason(text))
    if report.passed:
        return Observation("passed")
    if call.excinfo is None:
        return Observation("crashed", str(report.longrepr or ""))
    observation = observe(call.excinfo.value)
    if report.when != "call":  # a fixture broke: never the implementation's answer
        observation.behaviour = "crashed"
    return observation


def _property_case(item) -> str:
    return property_id(item.originalname)


# ---- writing records and the summary (controller side) -----------------------------------------


class RecordSink:
    """Receives every report (from workers too, under xdist), writes the records, prints the summary,
    and writes the run's facts beside the results (`<results>.meta.json`, run_meta())."""

    def __init__(self, config, options: Options):
        self.config = config
        self.options = options
        self.records: list[dict] = []
        self.writer = ResultsWriter(options.results) if options.results else None
        self.started = time.monotonic()
        self.started_at = time.gmtime()
        self._variants = None
        # Warnings about versions: only where a run asks for another environment or version (this
        # plugin is loaded in every pytest session of the environment: keep the others cheap).
        other = options.impl_env != "pinned" or any("@" in name for name in options.impls)
        self.notes = [v.note for v in self.variants if v.note] if other else []
        self.notes += [v.stores_note for v in self.variants if v.stores_note] if other else []
        self.notes += [
            f"no {kind} store kind in this run: {why}" for kind, why in options.store_notes.items()
        ]

    @property
    def variants(self) -> list:
        if self._variants is None:
            self._variants = adapter_variants(self.options)
        return self._variants

    def pytest_runtest_logreport(self, report) -> None:
        record = next(
            (value for key, value in report.user_properties if key == RECORD_PROPERTY), None
        )
        if record is None and report.failed and report.when not in ("setup", "call", "teardown"):
            record = _orphan_record(report, self.options)  # a worker died in the middle of a test
        if record is None:
            return
        record = dict(record, run_id=self.options.run_id)
        if hasattr(report, "node") and getattr(report.node, "gateway", None) is not None:
            record["worker"] = report.node.gateway.id
        self.records.append(record)
        if self.writer is not None:
            self.writer.write(record)

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if not self.records:
            return
        terminalreporter.section("zarr-conformance")
        terminalreporter.write_line(summary_table(self.records, time.monotonic() - self.started))
        for warning in stale_known_failures(self.config.stash[SESSION]):
            terminalreporter.write_line(f"warning: {warning}", yellow=True)
        for note in self.notes:
            terminalreporter.write_line(f"warning: {note}", yellow=True)
        for line in self.tested_lines():
            terminalreporter.write_line(line)
        if self.writer is not None:
            terminalreporter.write_line(
                f"results: {self.writer.path} ({self.writer.count} records)"
            )

    def pytest_unconfigure(self, config) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                write_meta(meta_path(self.writer.path), self.run_meta())
            except OSError as exc:
                warnings.warn(
                    f"zarr-conformance: cannot write {meta_path(self.writer.path)}: {exc}",
                    stacklevel=1,  # this hook: the caller is pytest itself
                )

    def found_versions(self) -> dict[str, dict]:
        """Per adapter (column), the versions its describe() reported in this run's records."""
        out: dict[str, dict] = {}
        for record in self.records:
            for name, versions in (record.get("versions") or {}).items():
                out.setdefault(name, {}).update(versions)
        return out

    def tested_lines(self) -> list[str]:
        """What was tested, where it is not the pinned environment: `tested: zarr-python = zarr 3.2.0 ...`."""
        found = self.found_versions()
        lines = []
        for v in self.variants:
            if v.env == "pinned" or v.package is None:
                continue
            got = found.get(v.name, {}).get(v.package) or v.version
            where = "this environment" if v.env == "current" else "its own venv"
            if v.env != "current" and v.python:
                where += f" (Python {v.python})"
            lines.append(
                f"tested: {v.name} = {v.package} {got} from {where} (adapter pin: {v.pinned})"
            )
        if self.options.overrides:
            from . import overrides
            from .config import AdapterConfigError

            try:
                found = overrides.load(self.options.overrides)
            except AdapterConfigError:  # the session reported it as a usage error
                found = {}
            lines += [f"adapter overrides: {line}" for line in overrides.describe(found)]
        return lines

    def run_meta(self) -> dict:
        """The run's facts: what a report shows beside the matrix (conformance.report reads it)."""
        from conformance import __version__
        from conformance.corpus import default_root
        from conformance.resources import corpus_label, corpus_version

        session: SuiteSession = self.config.stash[SESSION]
        root = Path(self.options.fixtures) if self.options.fixtures else default_root()
        try:
            cases = len(session.all_cases())
        except (pytest.UsageError, OSError, ValueError):
            cases = None
        found = self.found_versions()
        adapters = {}
        for v in self.variants:
            adapters[v.name] = {**v.as_meta(), "versions": found.get(v.name, {})}
        for name, versions in found.items():  # partners (the reference in property pairs)
            adapters.setdefault(name, {"versions": versions})
        return {
            "run_id": self.options.run_id,
            "date": time.strftime("%Y-%m-%d", self.started_at),
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", self.started_at),
            "elapsed": round(time.monotonic() - self.started, 3),
            "zarr_conformance": __version__,
            "corpus": corpus_label(root),
            "corpus_version": corpus_version(root) or "unversioned",
            "cases": cases,
            "impls": list(self.options.impls),
            "impl_env": self.options.impl_env,
            "adapters": adapters,
            "properties": property_settings(self.options),
            "kinds": list(self.options.kinds),
            "adapter_overrides": [str(p) for p in self.options.overrides],
            "case_globs": list(self.options.cases),
            "store_kinds": list(self.options.store_kinds),
            "store_refusals": self.options.store_refusals,
            "records": len(self.records),
            "machine": _machine(),
        }


def meta_path(results: Path) -> Path:
    """`results/x.jsonl` -> `results/x.meta.json` (where conformance.report looks for it)."""
    return Path(results).with_suffix(".meta.json")


def write_meta(path: Path, meta: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(meta, indent=2, sort_keys=True, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _machine() -> dict:
    try:
        from conformance.bench.machine import machine_facts

        return machine_facts()
    except Exception as exc:  # facts are a courtesy: never fail a run over them
        return {"error": f"{type(exc).__name__}: {exc}"}


def adapter_variants(options: Options) -> list:
    """How each selected adapter runs (conformance.harness.variants); invalid names are left to the
    session, which reports them as usage errors."""
    from .config import AdapterConfigError
    from .variants import resolve

    out = []
    for name in options.impls:
        try:
            out.append(resolve(name, options.impl_env)[1])
        except AdapterConfigError:
            continue
    return out


def property_settings(options: Options) -> dict:
    """How the property tests draw their examples in this run."""
    from hypothesis import __version__ as hypothesis_version

    return {**example_settings(options), "hypothesis": hypothesis_version}


def _orphan_record(report, options: Options) -> dict | None:
    match = re.search(r"::test_(\w+?)(?:_\w+)?\[(.+)\]$", report.nodeid)
    if not match:
        return None
    kind = match.group(1) if match.group(1) in TESTS + OPT_IN_TESTS else "property"
    who, _, case = match.group(2).partition(":")
    case, _, store_kind = case.partition("@")  # a test over a remote store kind: case@http
    writer, _, reader = who.partition("->")
    if kind == "cross" and writer == reader:
        kind = "roundtrip"
    return make_record(
        run_id=options.run_id,
        test=kind,
        case=case or "?",
        impl=reader or writer,
        writer=writer if reader else None,
        reader=reader or None,
        outcome="errored",
        message=f"the test process died: {str(report.longrepr)[:1000]}",
        store={"kind": store_kind} if store_kind else None,
        nodeid=report.nodeid,
    )


def stale_known_failures(session: SuiteSession) -> list[str]:
    """Known-failure entries that match no case of the corpus (nor any property): stale data."""
    try:
        ids = [c.id for c in session.all_cases()]
    except (pytest.UsageError, OSError, ValueError):  # no corpus, or one being regenerated
        return []
    ids += list(PROPERTIES)
    out = []
    for config in session.adapters.values():
        for entry in config.known_failures + config.fixed_failures:
            for pattern in entry.cases:
                if not any(_glob_hits(pattern, i) for i in ids):
                    out.append(
                        f"{config.name}: known failure {entry.id} case {pattern!r} matches no case"
                    )
    return out


def _glob_hits(pattern: str, case_id: str) -> bool:
    from fnmatch import fnmatchcase

    return case_id == pattern or fnmatchcase(case_id, pattern)
