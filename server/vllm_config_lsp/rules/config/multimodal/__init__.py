"""Rules transcribed from vllm/config/multimodal.py."""
