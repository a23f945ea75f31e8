"""Rules transcribed from vllm/config/engram.py."""
