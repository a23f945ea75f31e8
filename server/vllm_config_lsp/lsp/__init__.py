"""The language server: documents, settings, transport and editor features around
`engine.lint`. No rule logic lives here; features read findings and the `ConfigModel`.

Importing the package first gives attrs and cattrs the store of their compiled code
(`code_cache`), before any module here imports lsprotocol's classes.
"""

from vllm_config_lsp import code_cache

code_cache.install_attrs()
