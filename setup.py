"""The one build step pyproject.toml cannot say: bundle the golden corpus (fixtures/) and the
adapter folders (adapters/) into the package as data (conformance/_data/), so that a wheel (or
`pip install git+...`) carries everything a run needs. At run time conformance.resources finds
them there when no checkout is around. Everything else is in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUNDLE = ("fixtures", "adapters")
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "node_modules", ".DS_Store")


class build_py_with_data(build_py):
    def run(self):
        super().run()
        if self.editable_mode:  # an editable install reads the checkout's folders directly
            return
        target = Path(self.build_lib) / "conformance" / "_data"
        for name in BUNDLE:
            source = HERE / name
            if not source.is_dir():
                raise SystemExit(f"setup.py: {source} is missing: cannot bundle the {name} folder")
            shutil.rmtree(target / name, ignore_errors=True)
            shutil.copytree(source, target / name, ignore=SKIP)


setup(cmdclass={"build_py": build_py_with_data})
