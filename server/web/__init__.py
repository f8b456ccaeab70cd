"""The chat page and docs-site widget served by the LangGraph server (`http.app`): see app.py."""
