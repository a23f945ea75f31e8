"""The language server: documents, settings, transport and editor features around
`engine.lint`. No rule logic lives here; features read findings and the `ConfigModel`.
"""
