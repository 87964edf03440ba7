"""Reproducers and their audit: a standalone script per non-pass verdict, written from the
adapter's templates (reproduce.py), and a stratified sample of verdicts re-run through those
scripts in each implementation's environment (audit.py). `zarr-conformance reproduce` and
`zarr-conformance audit` (cli.py)."""
