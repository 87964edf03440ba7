"""The harness: the adapter contract, its two transports, adapter environments, the pytest plugin
and the `run` command. Modules that a child process imports (adapter_api, serve) use only the
standard library and numpy; keep this package's __init__ free of imports for that reason."""
