"""deep_agent through a real `langgraph dev` with stream_subgraphs=True, on the offline model."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from langgraph_sdk import get_client

from graphs.citations import CitationChecker
from settings.sources import SourceSettings
from tools import load_sources

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

LANES = ("docs_researcher", "kb_researcher", "code_researcher")


def _lane(event: str) -> str | None:
    for segment in event.split("|")[1:]:
        if segment.split(":", 1)[0] in LANES:
            return segment.split(":", 1)[0]
    return None


async def test_researchers_stream_in_their_own_namespaces_and_citations_verify(
    server_url: str, tmp_path: Path
) -> None:
    client = get_client(url=server_url)
    thread = await client.threads.create(metadata={"user_id": f"deep-{uuid.uuid4().hex[:6]}"})
    lanes: dict[str, set[str]] = {lane: set() for lane in LANES}
    root_tokens: list[str] = []
    values: dict = {}
    async for part in client.runs.stream(
        thread["thread_id"],
        "deep_agent",
        input={
            "messages": [
                {"role": "user", "content": "Why does `langgraph dev` pick a random port?"}
            ]
        },
        stream_mode=["messages-tuple", "updates", "custom", "values"],
        stream_subgraphs=True,
    ):
        event = part.event
        if event == "error":
            pytest.fail(f"run failed: {part.data}")
        lane = _lane(event)
        if lane:
            lanes[lane].add(event.split("|", 1)[0])
        elif event == "messages":
            chunk, meta = part.data
            if (
                meta.get("langgraph_node") == "model"
                and isinstance(chunk.get("content"), str)
                and chunk["content"]
            ):
                root_tokens.append(chunk["content"])
        elif event == "values":
            values = part.data

    # Each researcher emitted updates, custom progress and tokens/tool-call chunks in its own namespace.
    for lane, modes in lanes.items():
        assert {"updates", "custom", "messages"} <= modes, (lane, modes)
    # The answer's tokens came from the root graph, in many events.
    assert len(root_tokens) > 10
    answer = values["messages"][-1]["content"]
    assert answer.startswith("_This is an extractive answer")
    # The reports are internal: not in what `values` streams, but in the thread's state.
    assert "citation_check" not in values and "context_economy" not in values
    state = (await client.threads.get_state(thread["thread_id"]))["values"]
    check = state["citation_check"]
    assert check["checked"] > 0 and check["invalid"] == 0, check["details"]
    # An independent pass over the same sources verifies every citation in the final answer.
    settings = SourceSettings.from_env({"DOCS_AGENT_INDEX_DIR": str(tmp_path / "index")})
    _, again = CitationChecker(load_sources(settings)).check(answer)
    assert again.checked > 0 and again.invalid == 0
