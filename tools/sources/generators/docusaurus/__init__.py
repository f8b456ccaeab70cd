"""Docusaurus: docusaurus.config.* read as text (never run); doc routes, versions, sidebars, its MDX loader.

detect.py (the config, beside the docs or in a site folder that reads them), jsconfig.py and
config.py (the config's literals), versions.py, sidebar.py, profile.py (the `Site`), rules.py
(`DocusaurusRules`: routes), routes.py (number prefixes), loader.py (what its MDX loader does).
Pages are read by the Markdown / MDX reader; slugs: github-slugger (tools/sources/slugs.py).
"""

from tools.sources.generator import Generator
from tools.sources.generators.docusaurus.detect import config_elsewhere, config_files
from tools.sources.generators.docusaurus.profile import docusaurus_site
from tools.sources.generators.docusaurus.rules import DocusaurusRules

GENERATOR = Generator(
    name="docusaurus",
    profile=docusaurus_site,
    rules=DocusaurusRules,
    config_files=config_files,
    config_elsewhere=config_elsewhere,
)
