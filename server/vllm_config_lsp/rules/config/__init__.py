"""Rules transcribed from the config classes in vllm/config/, one subpackage per file."""
