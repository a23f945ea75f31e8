"""Text → positioned trees: the only layer that reads document syntax.

YAML composed by PyYAML's safe loader with exact offsets (and re-composed piece by piece on
a keystroke), every character of a loaded scalar mapped back to the text, JSON parsed with
positions inside those strings, and the value trees the layers above read. Nothing here
knows about vLLM except the number spellings its parsers accept (`human_numbers`).
"""
