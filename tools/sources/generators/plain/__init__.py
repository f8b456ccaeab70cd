"""No generator recognised: plain Markdown, every Markdown file a page, URLs from the configured rule."""

from tools.sources.generator import Generator
from tools.sources.generators.plain.profile import markdown_site

GENERATOR = Generator(name="markdown", profile=markdown_site)
