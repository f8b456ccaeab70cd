"""Sphinx's directives for a plain docutils parse, one module per kind, all named in registry.py."""
