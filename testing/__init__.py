"""What the tests and the benches share: servers on free ports, scripted fakes, the browser, scenarios.

Import-safe (no pytest, nothing started at import), so a bench (`python -m bench.X`) uses the same
servers and fakes as the test that checks the same thing, without importing a test module:
- servers.py: `langgraph dev` and Aegra (on PostgreSQL + Redis) from the checkout on free ports;
- fake_openai.py: a scripted OpenAI-compatible model over HTTP (model_answers.py: its answers);
- live_site.py: an llms.txt site with ETags, on loopback;
- browser.py: Debian's headless chromium over CDP;
- model_failures.py: every way the scripted model fails, and what a reader may be shown;
- markup.py: generator markup that must not survive into the index or an answer.
"""
