"""Processes that use the search end cleanly: no abort at exit, no traceback from a build worker."""

from __future__ import annotations

import logging
import os
import pickle
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT

LOAD_THEN_EXIT = """
import sys, time
from pathlib import Path
from tools.search.embeddings import UseEmbedder

def load(self):  # stands in for the model load: native code that must not be cut off
    time.sleep(0.5)
    Path(sys.argv[1]).write_text("loaded")

UseEmbedder._load = load
UseEmbedder().preload()
"""


def test_the_interpreter_exit_waits_for_a_model_load_in_progress(tmp_path: Path) -> None:
    # A script that searches a built index once returns before the model (loading in the
    # background since the index check) is in. Python ends a daemon thread at exit where it next
    # takes the GIL; ended inside sentencepiece's C++ load, it aborted the process ("terminate
    # called without an active exception", exit code 134) about two runs in three. So the exit
    # waits for the load.
    marker = tmp_path / "loaded"
    done = subprocess.run(
        [sys.executable, "-c", LOAD_THEN_EXIT, str(marker)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert marker.read_text() == "loaded"


def test_a_build_worker_whose_parent_is_gone_exits_quietly() -> None:
    # A server stopped in the middle of an index build closes its end of the workers' pipes.
    proc = subprocess.Popen(
        [sys.executable, "-c", "from tools.search.workers import serve; serve()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the parent stops reading
    for frame in (pickle.dumps((str, str, logging.WARNING)), pickle.dumps([])):
        proc.stdin.write(len(frame).to_bytes(8, "little") + frame)
    proc.stdin.close()
    assert proc.wait(timeout=60) == 0
    stderr = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    assert "Traceback" not in stderr, stderr
