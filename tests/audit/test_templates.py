"""Every adapter's reproducer templates render into a script its language accepts, and every
adapter has the templates its operations need (read for op:read, write for op:write)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conformance.audit.reproduce import (
    NotReproducible,
    Target,
    case_value,
    corpus_case,
    render,
    template_path,
)
from conformance.corpus.case import default_root
from conformance.harness.config import all_adapters

ADAPTERS = all_adapters()
# one case of each kind, from the corpus itself
SAMPLES = {
    "read": "v3/fill/float32-double-rounding",
    "reject": "v3/fill/reject-bool-1",
    "write": "v3/fill/write-negative-nan-hex",
}


def test_every_adapter_is_covered():
    missing = []
    for config in ADAPTERS:
        for op in ("read", "write"):
            if f"op:{op}" not in config.capabilities:
                continue
            try:
                template_path(config, op)
            except NotReproducible:
                missing.append(f"{config.name}: {op}")
    assert not missing, f"adapters without a template for an operation they declare: {missing}"


@pytest.mark.parametrize("kind", sorted(SAMPLES))
@pytest.mark.parametrize("config", ADAPTERS, ids=lambda c: c.name)
def test_templates_render_to_valid_scripts(config, kind, tmp_path):
    script = "write" if kind == "write" else "read"
    try:
        template = template_path(config, script)
    except NotReproducible:
        pytest.skip(f"{config.name} has no {script} template")
    case = corpus_case(default_root(), SAMPLES[kind])
    text = render(template, Target(config.name, script, case_value(case)).case)
    assert "{{" not in text, "a placeholder or include was left unfilled"
    if config.name != "reference":  # the reference is conformance.reference: the one exception
        assert "import conformance" not in text and "from conformance" not in text
    assert "CASE = " in text and (
        "run_read(" in text or "run_write(" in text or "runRead(" in text or "runWrite(" in text
    )
    if template.name.endswith(".py.tmpl"):
        compile(text, f"{config.name}-{kind}.py", "exec")
        return
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH")
    path = tmp_path / "script.mjs"
    path.write_text(text)
    proc = subprocess.run([node, "--check", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_a_broken_template_fails_to_render(tmp_path):
    """The render check above can fail: an unknown placeholder and a missing include are errors."""
    folder = tmp_path / "reproduce"
    folder.mkdir()
    (folder / "read.py.tmpl").write_text("{{case}}\n{{ store }}\n")
    with pytest.raises(ValueError, match="unknown placeholder"):
        render(folder / "read.py.tmpl", {"id": "x"})
    (folder / "read.py.tmpl").write_text("{{> ../nowhere.py.tmpl}}\n")
    with pytest.raises(ValueError, match="not found"):
        render(folder / "read.py.tmpl", {"id": "x"})
