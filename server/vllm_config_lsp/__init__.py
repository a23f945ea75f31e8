"""vllm-config-lsp: checks `vllm serve --config` files with vLLM's own rules, without vLLM.

Importing the package first gives `dataclasses` the store of its compiled methods
(`code_cache`), before any module here defines one.
"""

from vllm_config_lsp import code_cache

__version__ = "0.1.0"

code_cache.install_dataclasses()
