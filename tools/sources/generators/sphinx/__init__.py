"""Sphinx (with MyST): conf.py read with `ast`, pages read with docutils and Sphinx's own rules.

detect.py (conf.py, Read the Docs), build.py (the builder: `html` or `dirhtml`), config.py
(conf.py), profile.py (the `Site`), rules.py (`SphinxRules`), project.py (source files, toctree
navigation, targets), toctree.py, targets.py and xref_scan.py (cross-references), options.py,
nodes.py, ids.py, roles.py, directives/ (the markup), rst.py and render.py (reStructuredText →
Markdown), myst/ (MyST pages), reader.py (the readers). Docutils is imported when a page is read.
"""

from tools.sources.generator import Generator
from tools.sources.generators.sphinx.detect import config_files, named_config
from tools.sources.generators.sphinx.profile import sphinx_site
from tools.sources.generators.sphinx.reader import read_myst, read_rst
from tools.sources.generators.sphinx.rules import SphinxRules

GENERATOR = Generator(
    name="sphinx",
    profile=sphinx_site,
    rules=SphinxRules,
    config_first=named_config,
    config_files=config_files,
    readers={"rst": read_rst, "myst": read_myst},
)
