"""Hugo, read from its built site (`public/`): its pages run shortcodes and templates at build time."""

from tools.sources.generator import Generator
from tools.sources.generators.hugo.detect import config_files, is_hugo_build
from tools.sources.generators.hugo.profile import hugo_site
from tools.sources.generators.hugo.reader import read_hugo
from tools.sources.generators.hugo.rules import HugoRules

GENERATOR = Generator(
    name="hugo",
    profile=hugo_site,
    rules=HugoRules,
    config_files=config_files,
    detect=is_hugo_build,
    readers={"hugo": read_hugo},
)
