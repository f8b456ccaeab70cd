"""The mkdocs generator."""
