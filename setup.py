"""Build hook: ship the generated `schemas/` inside the wheel as package data.

The schemas live at the repository root (editors reference them there, see README), but an
installed server must find them without the checkout, so they are copied into
`vllm_config_lsp/schemas/` at build time. Everything else is in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithSchemas(build_py):
    def run(self) -> None:
        super().run()
        source = Path(__file__).parent / "schemas"
        target = Path(self.build_lib) / "vllm_config_lsp" / "schemas"
        target.mkdir(parents=True, exist_ok=True)
        for path in [*source.glob("*.json"), *source.glob("models/*.json"), *source.glob("plugins/*.json")]:
            (target / path.relative_to(source)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / path.relative_to(source))


setup(cmdclass={"build_py": BuildPyWithSchemas})
