"""The golden fixture corpus: case format, loader, verdicts and the deterministic generator."""

from .case import Case, WriteRequest, default_root, load_cases

__all__ = ["Case", "WriteRequest", "default_root", "load_cases"]
