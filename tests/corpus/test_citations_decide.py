"""Citations at the sentence that decides the case: a requirement may hold several sentences (one
per member), a reject case says which member or property it `tests`, and `corpus check` refuses a
cited reject case whose citations do not name it. Before, V3-BLOSC-001 quoted only the `cname`
sentence and the clevel and blocksize cases cited it."""

from __future__ import annotations

import copy

from conformance.corpus import default_root, load_cases
from conformance.corpus.checks import all_problems, cited_member_problems
from conformance.corpus.citations import citations_for, names

CASES = {c.id: c for c in load_cases(default_root())}


def _variant(case_id: str, **changes):
    case = copy.copy(CASES[case_id])
    raw = copy.deepcopy(case.raw)
    for key, value in changes.items():
        if value is None:
            raw.pop(key, None)
        else:
            raw[key] = value
    case.raw = raw
    return case


def test_every_cited_reject_case_names_what_it_tests():
    assert cited_member_problems(list(CASES.values())) == []


def test_a_cited_reject_case_without_tests_is_refused():
    case = _variant("v3/codecs/reject-blosc-clevel-10", tests=None)
    problems = all_problems([case], None)["tested members"]
    assert problems and "`tests`" in problems[0]


def test_a_clevel_case_citing_the_cname_sentence_is_refused():
    cname = citations_for(["V3-BLOSC-001"], tests="cname")
    assert len(cname) == 1 and "cname" in cname[0]["quote"]
    case = _variant("v3/codecs/reject-blosc-clevel-10", citation=cname)
    assert case.raw["tests"] == "clevel"
    problems = cited_member_problems([case])
    assert problems and "'clevel'" in problems[0]
    noted = _variant(case.id, citation=cname, citation_note="a reason why no sentence can")
    assert cited_member_problems([noted]) == []


def test_a_requirement_of_several_sentences_gives_each_case_its_member():
    for member in ("cname", "clevel", "blocksize"):
        (entry,) = citations_for(["V3-BLOSC-001"], tests=member)
        assert names(entry["quote"], member)
    assert len(citations_for(["V3-BLOSC-001"])) == 3  # a read case rests on all of them
    # unkeyed sentences stay; of the keyed ones, the member's
    quotes = [c["quote"] for c in citations_for(["V2-META-001"], tests="dtype")]
    assert quotes[0].startswith("The following keys MUST be present") and len(quotes) == 2
    assert quotes[1].startswith("dtype ")


def test_the_corpus_cases_cite_their_members_sentence():
    for case_id, member in (
        ("v3/codecs/reject-blosc-clevel-10", "clevel"),
        ("v3/codecs/reject-blosc-blocksize-missing", "blocksize"),
        ("v3/codecs/reject-blosc-cname-lzma", "cname"),
    ):
        quotes = [c["quote"] for c in CASES[case_id].raw["citation"]]
        assert all(q.startswith(f"{member}:") for q in quotes), (case_id, quotes)


def test_names_reads_member_names_as_written():
    assert names("clevel: An integer from 0 to 9", "clevel")
    assert not names("clevel: An integer from 0 to 9", "level")
    assert names("Provides an element value", "x") is False
    assert names("fill_value", "fill value") and names("The fill value is", "fill_value")
    assert names("exactly one ``array -> bytes`` codec", "array -> bytes")


def test_a_negative_blosc_blocksize_is_not_strict():
    # "blocksize: An integer giving the size in bytes of blocks ...": the text sets no range
    case = CASES["v3/codecs/reject-blosc-blocksize-negative"]
    assert (case.tier, case.raw["question"]) == ("optional", "spec-silent")
