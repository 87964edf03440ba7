"""The requirement catalogue (conformance/requirements.md, shipped with the package): its one parser."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..resources import CATALOGUE

_LINE = re.compile(r"^- `([A-Z0-9]+(?:-[A-Z0-9]+)+)` \[([^\]]+)\] (.*)$")
FAMILIES = ("V1", "V2", "V3", "V3DRAFT", "ZOM")


@dataclass(frozen=True)
class Requirement:
    id: str
    level: str
    text: str
    test: str

    @property
    def family(self) -> str:
        head = self.id.split("-")[0]
        return "V3" if head == "V3HIST" else head

    @property
    def testable(self) -> bool:
        """A black-box test exists: the test column is not 'none' or purely informational."""
        return not re.match(r"\s*(none|informational)\b", self.test, re.I)


@cache
def load_requirements(path: str | None = None) -> dict[str, Requirement]:
    text = Path(path or CATALOGUE).read_text("utf-8")
    out = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if m:
            rid, level, rest = m.groups()
            test = rest.split("*Test:*", 1)[1].strip() if "*Test:*" in rest else ""
            out[rid] = Requirement(rid, level, rest, test)
    return out
