"""What replaced a removed vLLM environment variable, where the code does not say it
(hand-written; empty unless a release note or the code is cited for each entry).

The generator finds most replacements itself (`vllm_source.environ.config_fields`: a
config class that read the variable into a field, with a deprecation warning that names
the field's flag). An entry here adds to, or overrides, what the generator found:
`flag` (the serve flag that took its place), `note` (what became of it), `source` (where
that is said).
"""

from __future__ import annotations

REPLACEMENTS: dict[str, dict[str, str]] = {}
