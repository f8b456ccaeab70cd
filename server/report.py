"""Deprecated alias: the answers report is a command, `python -m commands.report` (`make report`).

Kept so scripts that call `python -m server.report` keep working; server/ holds the server only.
"""

from __future__ import annotations

import sys

if __name__ == "__main__":
    from commands.report import main

    print("note: `python -m server.report` is now `python -m commands.report`", file=sys.stderr)
    raise SystemExit(main(sys.argv[1:]))
