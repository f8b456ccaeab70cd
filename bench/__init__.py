"""Benchmarks and evaluations: run from the repository root as `python -m bench.<name>`.

What they share is bench/harness.py (timing, baselines in the same run, tables) and
bench/corpora.py (the corpora, described by their folders); servers and fakes come from
testing/, the same ones the tests use. No bench imports a test module or edits `sys.path`.
"""
