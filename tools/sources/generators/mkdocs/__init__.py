"""MkDocs (and Material): mkdocs.yml read into a site profile; Markdown read with its extensions.

detect.py (mkdocs.yml), config.py (INHERIT, plugin and extension lists), nav.py (nav,
literate-nav), profile.py (the `Site`), rules.py (`MkDocsRules`), syntax.py and keys.py (what the
extensions change in the text), snippets.py (snippets, includes), extensions.py (the line
rewriter), reader.py (the reader). Slugs: Python-Markdown's toc rule (tools/sources/slugs.py).
"""

from tools.sources.generator import Generator
from tools.sources.generators.mkdocs.detect import config_files
from tools.sources.generators.mkdocs.profile import mkdocs_site
from tools.sources.generators.mkdocs.reader import read_mkdocs
from tools.sources.generators.mkdocs.rules import MkDocsRules

GENERATOR = Generator(
    name="mkdocs",
    profile=mkdocs_site,
    rules=MkDocsRules,
    config_files=config_files,
    readers={"mkdocs": read_mkdocs},
)
