"""Benchmarks and evaluations (run as scripts or `python -m bench.<name>`)."""
