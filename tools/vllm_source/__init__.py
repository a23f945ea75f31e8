"""Static (``ast``-only) readers of a vLLM wheel, used by ``tools/generate_schemas.py``.

vLLM is never imported: importing it needs torch, CUDA and plugins, and would make the
schema depend on the machine that generated it. Everything here reads the ``.py`` files
straight out of the wheel zip and interprets the small subset of Python that vLLM uses to
declare its config dataclasses and register its argparse options.
"""
