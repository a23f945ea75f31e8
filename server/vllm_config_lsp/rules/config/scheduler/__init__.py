"""Rules transcribed from vllm/config/scheduler.py."""
