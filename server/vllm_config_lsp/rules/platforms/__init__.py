"""Checks the target hardware decides (`# vllm-config: gpu=… count=…`, `--gpu`, a manifest's
GPU resources): vLLM's platform code (`vllm/platforms/cuda.py`, `rocm.py`, `interface.py`,
the attention backend selection) and the config checks that ask `current_platform`. Without
a target they say nothing. They cannot be proven on the CPU oracle; each has CLI tests with
a failing and a passing fixture instead (tests/rules/test_platform_rules.py)."""
