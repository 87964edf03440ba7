"""Definitions: every figure's written definition (the same text results.json and README.md
carry), the outcomes, the tiers, the run's facts and the JSON API."""

from __future__ import annotations

from .. import verdicts as v
from ..scores import DEFINITIONS, SCOPE
from .html import join, link, table, tag
from .layout import page

HERE = "about.html"
TIERS = {
    "required": "what the spec demands of every reader or writer of the format",
    "strict": "a document that breaks a MUST a reader could tolerate: refusing is right, accepting is lenient",
    "optional": "a MAY, a SHOULD, something the spec leaves open or its versions disagree on",
    "extension": "zarr-extensions registrations; never required",
    "hostile": "bombs, escaping keys and faults: never counted in conformance",
}


def render(site) -> tuple[str, str]:
    meta = site.meta
    machine = meta.get("machine") or {}
    definitions = [
        join(
            [
                tag("dt", key.replace("_", " "), id=key),
                tag(
                    "dd",
                    DEFINITIONS[key],
                    tag("br"),
                    tag("span", f"Counts: {SCOPE[key]}", class_="small muted")
                    if key in SCOPE
                    else "",
                ),
            ]
        )
        for key in DEFINITIONS
    ]
    outcomes = [
        join([tag("dt", o, id=f"outcome-{o}"), tag("dd", text)]) for o, text in v.OUTCOMES.items()
    ]
    tiers = [join([tag("dt", t), tag("dd", text)]) for t, text in TIERS.items()]
    rows = [
        tag(
            "tr",
            tag("th", n, scope="row"),
            tag("td", site.versions.get(n, "") or "–"),
            tag("td", site.run_date(n)),
            tag("td", site.descriptions.get(v.base_name(n), ""), class_="small"),
        )
        for n in site.names
    ]
    body = join(
        [
            tag("h1", "Definitions and facts"),
            tag("h2", "Figures", id="figures"),
            tag(
                "p",
                "One definition per figure: the pages, the badges, README.md and results.json all show these, computed by one module (conformance/report/scores.py).",
                class_="small muted",
            ),
            tag("dl", *definitions, class_="facts"),
            tag("h2", "Outcomes, worst first", id="outcomes"),
            tag("dl", *outcomes, class_="facts"),
            tag("h2", "Tiers", id="tiers"),
            tag("dl", *tiers, class_="facts"),
            tag(
                "p",
                "Each case's tier and the reason for it are on its page; the policy is in ",
                link(site.repo_link(HERE, "fixtures/README.md") + "#tiers", "fixtures/README.md"),
                ".",
            ),
            tag("h2", "The run", id="run"),
            tag(
                "dl",
                *(
                    join([tag("dt", k), tag("dd", str(val))])
                    for k, val in (
                        ("run", meta.get("run_id", "?")),
                        ("date", meta.get("date", "?")),
                        (
                            "machine",
                            f"{machine.get('cpu', '?')}, {machine.get('cores', '?')} cores, {machine.get('memory_gib', '?')} GiB, {machine.get('os', '?')}, Python {machine.get('python', '?')}",
                        ),
                    )
                ),
                class_="facts",
            ),
            table(
                [
                    tag("th", h, scope="col")
                    for h in ("column", "version", "recorded", "what it is")
                ],
                rows,
                "columns",
            ),
            tag("h2", "The corpus", id="corpus"),
            tag(
                "p",
                f"Version {meta.get('corpus_version', '?')}, {meta.get('cases', '?')} conformance cases. The contract: ",
                link(site.repo_link(HERE, "fixtures/README.md"), "fixtures/README.md"),
                ".",
            ),
            tag("h2", "JSON API", id="api"),
            tag(
                "p",
                "Static JSON beside these pages, versioned by its path (api/v1/; a change of meaning gets a new version): ",
                link("api/v1/index.json", "api/v1/index.json"),
                " (definitions, run facts, every implementation's figures and every case, each with the address of its own file), api/v1/impl/NAME.json (the figures, the known failures and every record that counts for the implementation, without messages) and api/v1/case/CASE.json (the case and every record of it, with messages). Records are rows of the members named in “fields” (those of conformance/harness/schemas/result-record.json a reader needs); a known failure is named “owner/id” and described once under “known_failures”.",
            ),
        ]
    )
    return HERE, page(site, HERE, "Definitions", body)
