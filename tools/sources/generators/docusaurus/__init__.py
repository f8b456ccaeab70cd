"""The docusaurus generator."""
