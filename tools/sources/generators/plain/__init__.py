"""The plain generator."""
