"""The Mermaid diagrams in README.md match the compiled graphs (`make diagrams` refreshes them)."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import REPO_ROOT


def test_readme_diagrams_match_the_code() -> None:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DOCS_AGENT_", "OPENAI_", "AUTH_"))
    }
    # A fresh interpreter with the default configuration: the same one `make diagrams` uses.
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.path.insert(0, 'scripts'); from diagrams import refresh; sys.stdout.write(refresh(open('README.md').read()))",
        ],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    readme = (REPO_ROOT / "README.md").read_text()
    assert "<!-- diagram:docs_agent -->" in readme
    assert out == readme, "README diagrams are stale: run `make diagrams`"
