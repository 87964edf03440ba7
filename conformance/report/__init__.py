"""The published compatibility report: everything here is derived from recorded JSONL results
(conformance/harness/records.py); nothing re-runs an implementation."""
