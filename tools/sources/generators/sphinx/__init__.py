"""The sphinx generator."""
