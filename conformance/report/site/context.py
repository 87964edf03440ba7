"""Everything a page is rendered from, gathered once: the records, the run's facts, the corpus's
case documents, the requirement catalogue, the adapters' descriptions, and the indexes and scores
derived from them."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from .. import scores as s
from .. import verdicts as v

FORMATS = ("v3", "v2", "v3-draft", "v1")  # most used first
FILES_LISTED = 40  # store files a case page links to; the rest are counted


def load_cases(fixtures: Path) -> dict[str, dict]:
    """case id -> its case.json, with `files`: the case folder's files (store keys last)."""
    out = {}
    for path in sorted(fixtures.rglob("case.json")):
        folder = path.parent
        if "store" in folder.relative_to(fixtures).parts:
            continue
        doc = json.loads(path.read_text("utf-8"))
        files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
        doc["files"] = [f for f in files if not f.startswith("store/")] + [
            f for f in files if f.startswith("store/")
        ]
        doc["folder"] = folder.relative_to(fixtures.parent).as_posix()
        out[doc["id"]] = doc
    return out


@dataclass
class Site:
    records: list[dict]  # conformance records (hostile and fault ones are in `hostile`)
    meta: dict
    cases: dict[str, dict]
    requirements: dict  # id -> conformance.corpus.requirements.Requirement
    descriptions: dict[str, str]
    parsers: dict[str, str]
    versions: dict[str, str]  # column -> the version of what it tests
    hostile: list[dict] = field(default_factory=list)
    hostile_run: dict | None = None
    bench: dict | None = None
    ranges: dict | None = None
    repo_url: str = "../"  # repository files (fixtures/, adapters/), from the site's root
    site_url: str | None = None  # where the site is published, for badge embed code
    # adapter -> {"release", "why"}: the implementation's current release, which cannot be tested
    current: dict[str, dict[str, str]] = field(default_factory=dict)

    _memo: dict = field(default_factory=dict, repr=False)

    def memo(self, key, make):
        """A value derived once per site (a tally several pages share)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    @cached_property
    def names(self) -> list[str]:
        """Every column: implementations by name, each followed by its version rows, the
        reference last (it is the oracle)."""
        found = {r["impl"] for r in self.records} | {
            r[k] for r in self.records for k in ("writer", "reader") if r.get(k)
        }
        from ..sweep import version_key

        def key(name: str) -> tuple:
            base = v.base_name(name)
            row = name.partition("@")[2]
            return (base == "reference", base, bool(row), version_key(row) if row else ())

        return sorted(found, key=key)

    @cached_property
    def by_impl(self) -> dict[str, list[dict]]:
        return s.by_implementation(self.records)

    @cached_property
    def by_case(self) -> dict[str, list[dict]]:
        """case -> its records, hostile and fault ones included (they have case pages too)."""
        out: dict[str, list[dict]] = defaultdict(list)
        for r in (*self.records, *self.hostile):
            out[r["case"]].append(r)
        return dict(out)

    @cached_property
    def scores(self) -> dict[str, s.Scores]:
        return {name: s.scores(self.by_impl.get(name, [])) for name in self.names}

    @cached_property
    def sweeps(self) -> dict:
        """package -> its columns in release order (conformance.report.sweep)."""
        from ..sweep import sweeps

        return sweeps(self.records)

    @cached_property
    def formats(self) -> list[str]:
        seen = {r.get("format") for r in self.records}
        return [f for f in FORMATS if f in seen] + sorted(
            f for f in seen - set(FORMATS) if isinstance(f, str)
        )

    def repo_link(self, here: str, path: str) -> str:
        """The URL of a repository file (fixtures/..., adapters/..., reports/upstream/...)."""
        if "://" in self.repo_url:
            return self.repo_url.rstrip("/") + "/" + path
        from .paths import rel

        return rel(here, self.repo_url.rstrip("/") + "/" + path if self.repo_url else path)

    def run_date(self, name: str) -> str:
        """The date of the run that recorded the column (version rows may come from another)."""
        for r in self.by_impl.get(name, []):
            if r["impl"] == name and v.run_date(r.get("run_id")):
                return v.run_date(r.get("run_id"))
        return str(self.meta.get("date", ""))

    def single(self, name: str, case_id: str) -> list[dict]:
        """The implementation's own single-test records of a case, own store first."""
        return sorted(
            (
                r
                for r in self.by_case.get(case_id, [])
                if r["impl"] == name and r["test"] in v.SINGLE_TESTS
            ),
            key=lambda r: (not v.own_store(r), v.store_kind(r)),
        )
