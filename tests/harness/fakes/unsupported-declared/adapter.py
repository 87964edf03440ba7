"""unsupported-answer, with its `unsupported` answer declared in adapter.toml [[errors]]."""

from pathlib import Path

from conformance.harness.serve import load_adapter_class

Adapter = load_adapter_class(Path(__file__).resolve().parents[1] / "unsupported-answer")
