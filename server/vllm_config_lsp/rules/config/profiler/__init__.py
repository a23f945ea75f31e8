"""Rules transcribed from vllm/config/profiler.py."""
