"""What the target vLLM release makes of an argv: its catalogue (flags, config classes,
types, choices, bounds, generated from the wheels into `schemas/`), the release a document
targets, `parse_args`' rewriting, argparse, value conversion, pydantic's lax validation, the
resulting `ConfigModel`, and the model's own files read offline.
"""
