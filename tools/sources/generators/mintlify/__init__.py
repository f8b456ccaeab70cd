"""Mintlify: docs.json / mint.json; its `navigation` lists the pages, read by the Markdown / MDX reader."""

from tools.sources.generator import Generator
from tools.sources.generators.mintlify.detect import config_files
from tools.sources.generators.mintlify.profile import mintlify_site
from tools.sources.generators.mintlify.rules import MintlifyRules

GENERATOR = Generator(
    name="mintlify",
    profile=mintlify_site,
    rules=MintlifyRules,
    config_files=config_files,
)
