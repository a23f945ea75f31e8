"""Rules transcribed from vllm/config/ec_manager_config.py."""
