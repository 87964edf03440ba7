"""Throughput benchmarks: implementations side by side in one run, with physical baselines."""
