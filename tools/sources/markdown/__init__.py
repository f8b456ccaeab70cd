"""The Markdown / MDX core every Markdown-based generator builds on: front matter, prose, MDX imports, the parser."""
