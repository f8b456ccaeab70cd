"""The built-in offline model: a deterministic, extractive stand-in for a chat model when no key is set.

`model` plans the tool calls, `passages` turns the read tools' artifacts into ranked passages,
`answer` quotes and cites them, `roles` plays deep_agent's orchestrator and researchers,
`suggestions` writes follow-ups from the cited headings, `language` detects the user's language.
"""
