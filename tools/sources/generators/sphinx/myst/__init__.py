"""MyST Markdown pages of a Sphinx site (myst-parser / myst-nb)."""
