"""Rules transcribed from vllm/config/kv_transfer.py."""
