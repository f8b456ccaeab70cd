"""The mintlify generator."""
