"""The html generator."""
