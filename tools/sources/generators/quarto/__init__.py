"""Quarto, read from its built site (`_site/`): its pages run code cells and includes at build time."""

from tools.sources.generator import Generator
from tools.sources.generators.quarto.detect import config_files, is_quarto_build
from tools.sources.generators.quarto.profile import quarto_site
from tools.sources.generators.quarto.reader import read_quarto
from tools.sources.generators.quarto.rules import QuartoRules

GENERATOR = Generator(
    name="quarto",
    profile=quarto_site,
    rules=QuartoRules,
    config_files=config_files,
    detect=is_quarto_build,
    readers={"quarto": read_quarto},
)
