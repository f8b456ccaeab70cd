"""Antora, read from its built site: its AsciiDoc pages resolve attributes and includes at build time."""

from tools.sources.generator import Generator
from tools.sources.generators.antora.detect import config_files, is_antora_build
from tools.sources.generators.antora.profile import antora_site
from tools.sources.generators.antora.reader import read_antora
from tools.sources.generators.antora.rules import AntoraRules

GENERATOR = Generator(
    name="antora",
    profile=antora_site,
    rules=AntoraRules,
    config_files=config_files,
    detect=is_antora_build,
    readers={"antora": read_antora},
)
