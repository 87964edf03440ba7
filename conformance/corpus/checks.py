"""Checks `corpus check` runs on top of byte-for-byte regeneration: every verdict the corpus asks for
must hold up.

- questions: every case names the question it asks (questions.QUESTIONS), or carries a tier and a
  `tier_reason` of its own: no case is required by default;
- conventions: an accepting case that relies on a convention the corpus tiers as refusable elsewhere
  asks that question (conventions.py);
- citations: every required and strict case carries a `citation`, and a cited reject case says which
  member or property it `tests` and cites a sentence that names it (in its quote or its section
  heading), or says in a `citation_note` why no sentence can; when the spec texts are at hand
  (citations.specs_root) every quote, of cases and of adjudications, occurs in its spec file;
- tiers: cases that ask the same question, or share a requirement ID in the same kind of test,
  carry one tier unless a written `tier_reason` says why not (questions.py holds the policy);
- exact checks: a write case that pins exact documents, members or stored bytes names the cited
  requirements that demand them (`expect.exact_basis`);
- adjudications: every entry of adjudications.toml matches a case;
- gold cases: what the generator would add to a gold case.json (tier, question, tier_reason,
  citation, adjudication, read expectations) is there, so the gold script has been run.

Each function returns a list of problem lines (empty: the check passes).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from .case import Case

EXCLUDED_FROM_TIER_CHECKS = (
    "extension",
)  # the extension tier says which document defines a feature


def citation_problems(cases: list[Case], specs: Path | None) -> list[str]:
    problems = []
    for case in cases:
        citations = case.raw.get("citation") or []
        if case.tier in ("required", "strict") and not citations:
            problems.append(f"{case.id}: a {case.tier} case without a citation")
        for entry in citations:
            missing = [k for k in ("requirement", "spec", "quote") if not entry.get(k)]
            if missing:
                problems.append(f"{case.id}: citation lacks {', '.join(missing)}")
        if specs is not None:
            problems += _quote_problems(case.id, citations, specs)
            adjudication = case.raw.get("adjudication")
            if adjudication:
                problems += _quote_problems(
                    f"{case.id} (adjudication)", [adjudication.get("citation") or {}], specs
                )
    return problems


def cited_member_problems(cases: list[Case]) -> list[str]:
    """Cited reject cases that do not say what they test, or whose citations do not name it."""
    from .citations import names

    problems = []
    for case in cases:
        citations = case.raw.get("citation") or []
        if case.kind != "reject" or not citations:
            continue
        tests = case.raw.get("tests")
        if not tests:
            problems.append(
                f"{case.id}: a cited reject case must say which member or property it tests (`tests`)"
            )
            continue
        named = any(
            names(c.get("quote") or "", tests) or names(c.get("section") or "", tests)
            for c in citations
        )
        if not named and not case.raw.get("citation_note"):
            problems.append(
                f"{case.id}: no cited sentence names {tests!r}, the member it tests: cite the sentence "
                "that decides the case (citations.toml may hold one per member) or say why not in a "
                "citation_note"
            )
    return problems


def _quote_problems(where: str, citations, specs: Path) -> list[str]:
    from .citations import quote_problem

    out = []
    for entry in citations:
        problem = quote_problem(entry, specs)
        if problem:
            out.append(f"{where}: {problem}")
    return out


def question_problems(cases: list[Case]) -> list[str]:
    """Cases without a question (and without a tier_reason of their own), or with an unknown one."""
    from .questions import QUESTIONS

    problems = []
    for case in cases:
        question = case.raw.get("question")
        if question is None:
            if not case.raw.get("tier_reason"):
                problems.append(
                    f"{case.id}: no question and no tier_reason: name the question the case asks in "
                    "its builder row (gold stores: scripts/gold_verdicts.py), or give it a tier and "
                    "a reason of its own"
                )
        elif question not in QUESTIONS:
            problems.append(f"{case.id}: unknown question {question!r} (questions.QUESTIONS)")
    return problems


def tier_problems(cases: list[Case]) -> list[str]:
    """Cases asking one question, or sharing a requirement ID in one kind of test, with different
    tiers and no written reason. A question of questions.QUESTIONS fixes the tier itself: a case
    may differ only with a tier_reason of its own (not the question's)."""
    from .questions import QUESTIONS

    problems = []
    by_question: dict[str, list[Case]] = defaultdict(list)
    by_requirement: dict[tuple[str, str], list[Case]] = defaultdict(list)
    for case in cases:
        if case.tier in EXCLUDED_FROM_TIER_CHECKS:
            continue
        question = case.raw.get("question")
        if question:
            by_question[question].append(case)
        for rid in case.requirements:
            by_requirement[(rid, case.kind)].append(case)
    for question, members in sorted(by_question.items()):
        policy = QUESTIONS.get(question)
        if policy is not None:
            for case in members:
                reason = case.raw.get("tier_reason")
                if case.tier != policy.tier and (not reason or reason == policy.reason):
                    problems.append(
                        f"{case.id}: tier {case.tier} but its question {question!r} is {policy.tier} "
                        "(give the case its own tier_reason, or fix the tier)"
                    )
        else:
            problems += _mixed(f"question {question!r}", members)
    for (rid, kind), members in sorted(by_requirement.items()):
        problems += _mixed(f"requirement {rid} ({kind} cases)", members)
    return problems


def _mixed(group: str, members: list[Case]) -> list[str]:
    """Among the cases without a tier_reason, one tier only."""
    unexplained: dict[str, list[str]] = defaultdict(list)
    for case in members:
        if not case.raw.get("tier_reason"):
            unexplained[case.tier].append(case.id)
    if len(unexplained) <= 1:
        return []
    detail = "; ".join(
        f"{tier}: {', '.join(ids[:4])}{' ...' if len(ids) > 4 else ''}"
        for tier, ids in sorted(unexplained.items())
    )
    return [f"{group}: cases carry different tiers without a tier_reason ({detail})"]


def exact_check_problems(cases: list[Case]) -> list[str]:
    problems = []
    for case in cases:
        if case.kind != "write":
            continue
        exp = case.expect
        pinned = [k for k in ("documents", "document_members", "stored") if exp.get(k)]
        basis = exp.get("exact_basis") or []
        if pinned and not basis:
            problems.append(
                f"{case.id}: exact {', '.join(pinned)} without an exact_basis (a cited sentence demanding them)"
            )
        stray = [rid for rid in basis if rid not in case.requirements]
        if stray:
            problems.append(f"{case.id}: exact_basis {stray} are not requirements of the case")
    return problems


def adjudication_problems(cases: list[Case]) -> list[str]:
    from .adjudications import unused_keys

    return [
        f"adjudications.toml: [{key!r}] matches no case" for key in unused_keys(c.id for c in cases)
    ]


def gold_problems(cases: list[Case]) -> list[str]:
    """Gold cases whose case.json lacks what the generator would give it now."""
    from .gold_verdicts import gold_updates

    problems = []
    for case in cases:
        if case.provenance is None:
            continue
        wanted = gold_updates(case)
        stale = sorted(k for k, v in wanted.items() if _get(case.raw, k) != v)
        if stale:
            problems.append(
                f"{case.id}: gold case.json is stale in {', '.join(stale)} (run scripts/gold_verdicts.py)"
            )
    return problems


def _get(doc: dict, dotted: str):
    value = doc
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return _MISSING
        value = value[part]
    return value


_MISSING = object()


def all_problems(cases: list[Case], specs: Path | None) -> dict[str, list[str]]:
    from .conventions import convention_problems

    return {
        "questions": question_problems(cases),
        "conventions": convention_problems(cases),
        "citations": citation_problems(cases, specs),
        "tested members": cited_member_problems(cases),
        "tiers": tier_problems(cases),
        "exact checks": exact_check_problems(cases),
        "adjudications": adjudication_problems(cases),
        "gold cases": gold_problems(cases),
    }
