"""One-off: add the verdict members the generator gives every case (tier policy, citation,
adjudication, read expectations chunk_shape / fill_value / dimension_names) to the gold case.json
files, which are never regenerated. Only those members change; the stores and the other members
stay as the gold writers left them. Run it again whenever citations.toml, adjudications.toml or
conformance/corpus/gold_verdicts.py change (`zarr-conformance corpus check` says when).

    .venv/bin/python scripts/gold_verdicts.py [FIXTURES]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conformance.corpus.case import default_root
from conformance.corpus.gold_verdicts import apply_gold_updates


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else default_root()
    changed = 0
    for case_json in sorted(root.rglob("case.json")):
        if "store" in case_json.relative_to(root).parts[:-1]:
            continue
        if "provenance" not in json.loads(case_json.read_text("utf-8")):
            continue
        if apply_gold_updates(case_json.parent):
            changed += 1
            print(f"updated {case_json.parent.relative_to(root).as_posix()}")
    print(f"{changed} gold case.json files updated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
