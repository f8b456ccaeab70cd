"""The memory section: the per-user memory tools (tools/memory.py) and the prompt's memory block.

`DOCS_AGENT_MEMORY` (default on) switches `save_memory` / `list_memories` / `delete_memory` and the
memories block of the system prompt (graphs/middleware/memory_prompt.py) together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from settings.dotenv import configured_env
from settings.values import Reader


@dataclass(frozen=True)
class MemorySettings:
    """Whether the memory tools and prompt block are on."""

    enabled: bool = True

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> MemorySettings:
        """Parse the section from `env` (default: the environment as the server sees it)."""
        return cls.read(Reader(configured_env() if env is None else env))

    @classmethod
    def read(cls, reader: Reader) -> MemorySettings:
        """`DOCS_AGENT_MEMORY`, a flag of the one vocabulary."""
        return cls(enabled=reader.flag("DOCS_AGENT_MEMORY", True))
