"""Rules about the YAML file itself and how `load_config_file` turns it into argv
(vllm/utils/argparse_utils.py): syntax, duplicate keys, dropped `false`, dotted keys,
unknown flags."""
