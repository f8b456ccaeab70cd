"""Drive Debian's headless Chromium over the DevTools protocol (CDP), loopback only.

Why not playwright: it downloads its own browser build, which these machines may not do. CDP is
a JSON protocol over one websocket; the few calls the tests need fit in this module (the
`websockets` package the server already depends on carries it).

Chromium is started with every non-loopback host unresolvable and its background services off,
so a test never sends traffic off the machine.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from commands import local_stack

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
# axe-core, vendored for the tests only (tests/fixtures/vendor/README.md): never served.
AXE = (
    Path(__file__).resolve().parents[1]
    / "tests"
    / "fixtures"
    / "vendor"
    / "axe-core"
    / "axe.min.js"
)
# How far (px) the bottom of an element is below the visible part of the scroll box it sits in
# and of the viewport (0: fully visible without scrolling).
BELOW_FOLD = """((sel) => {
  const els = [...document.querySelectorAll(sel)];
  const el = els[els.length - 1];
  if (!el) return null;
  const r = el.getBoundingClientRect();
  let limit = window.innerHeight;
  for (let p = el.parentElement; p; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (/(auto|scroll)/.test(cs.overflowY) && p.scrollHeight > p.clientHeight) {
      limit = Math.min(limit, p.getBoundingClientRect().bottom);
    }
  }
  return Math.max(0, Math.round(r.bottom - limit));
})"""


def chromium_path() -> str | None:
    """The Chromium executable on PATH, None when none is installed."""
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


class Page:
    """One browser tab: evaluate JS, wait for conditions, type, screenshot."""

    def __init__(self, ws_url: str) -> None:
        self._ws = connect(ws_url, max_size=64 * 1024 * 1024, open_timeout=10).__enter__()
        self._id = 0
        self.console: list[str] = []
        self.contexts: dict[str, int] = {}  # frame id -> its main-world JS context
        self.send("Runtime.enable")
        self.send("Page.enable")

    def send(self, method: str, params: dict[str, Any] | None = None, timeout: float = 30) -> Any:
        """One CDP command; returns its result (events that arrive meanwhile are kept or dropped)."""
        self._id += 1
        my_id = self._id
        self._ws.send(json.dumps({"id": my_id, "method": method, "params": params or {}}))
        deadline = time.monotonic() + timeout
        while True:
            raw = self._ws.recv(timeout=max(0.1, deadline - time.monotonic()))
            msg = json.loads(raw)
            if msg.get("method") == "Runtime.executionContextCreated":
                context = msg["params"]["context"]
                aux = context.get("auxData") or {}
                if aux.get("isDefault") and aux.get("frameId"):
                    self.contexts[aux["frameId"]] = context["id"]
            elif msg.get("method") == "Runtime.consoleAPICalled":
                args = msg["params"].get("args") or []
                self.console.append(
                    " ".join(str(a.get("value", a.get("description"))) for a in args)
                )
            elif msg.get("method") == "Runtime.exceptionThrown":
                self.console.append(str(msg["params"]["exceptionDetails"]))
            if msg.get("id") == my_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result")

    def js(self, expression: str, timeout: float = 30) -> Any:
        """Evaluate `expression` in the page (promises awaited) and return its JSON value."""
        result = self.send(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
            timeout=timeout,
        )
        if result.get("exceptionDetails"):
            raise RuntimeError(f"JS error: {result['exceptionDetails']}")
        return result["result"].get("value")

    def child_frames(self) -> list[dict[str, Any]]:
        """The frames inside the page (id, url), e.g. the widget's iframe."""
        tree = self.send("Page.getFrameTree")["frameTree"]
        return [dict(kid["frame"]) for kid in tree.get("childFrames") or []]

    def frame_js(self, frame_id: str, expression: str) -> Any:
        """Evaluate `expression` in a child frame's page world (same-site frames only)."""
        context = self.contexts.get(frame_id)
        if context is None:
            self.js("0")  # let pending context events arrive
            context = self.contexts.get(frame_id)
        if context is None:
            return None
        result = self.send(
            "Runtime.evaluate",
            {
                "expression": expression,
                "contextId": context,
                "returnByValue": True,
                "awaitPromise": True,
            },
        )
        if result.get("exceptionDetails"):
            return None  # the frame navigated: its old context is gone
        return result["result"].get("value")

    def wait(self, expression: str, timeout: float = 90, interval: float = 0.05) -> None:
        """Poll until `expression` is truthy in JS terms (TimeoutError with the console)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            # `!!` in the page: a DOM node comes back as `{}`, which Python would call false.
            if self.js(f"!!({expression})"):
                return
            time.sleep(interval)
        raise TimeoutError(f"waited for {expression!r}; console: {self.console[-10:]}")

    def goto(self, url: str) -> None:
        """Open `url` and wait for the document to load."""
        self.send("Page.navigate", {"url": url})
        self.wait("document.readyState === 'complete'", timeout=30)

    def type_and_enter(self, selector: str, text: str) -> None:
        """Focus a field, insert `text` as typed input, press Enter (real key events)."""
        self.js(f"document.querySelector({json.dumps(selector)}).focus()")
        self.send("Input.insertText", {"text": text})
        for kind in ("keyDown", "keyUp"):
            self.send(
                "Input.dispatchKeyEvent",
                {
                    "type": kind,
                    "key": "Enter",
                    "code": "Enter",
                    "windowsVirtualKeyCode": 13,
                    "text": "\r" if kind == "keyDown" else "",
                },
            )

    def press(self, key: str, code: int, shift: bool = False) -> None:
        """One real key press (down + up) on whatever has the focus."""
        text = "\r" if key == "Enter" else ""  # Enter must carry its character to activate
        for kind in ("keyDown" if text else "rawKeyDown", "keyUp"):
            event = {
                "type": kind,
                "key": key,
                "code": key,
                "windowsVirtualKeyCode": code,
                "modifiers": 8 if shift else 0,
            }
            if text and kind == "keyDown":
                event["text"] = text
            self.send("Input.dispatchKeyEvent", event)

    def click(self, selector: str) -> None:
        """Click the first element matching `selector` (it must exist)."""
        found = self.js(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " if (!e) return false; e.click(); return true; })()"
        )
        if not found:
            raise AssertionError(f"no element {selector!r}")

    def viewport(self, width: int, height: int) -> None:
        """Emulate a window of `width`×`height` CSS px (a phone below 600 px wide)."""
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )

    def below_fold(self, selector: str) -> int | None:
        """Px of the last `selector` element below what the reader sees (None: no such element)."""
        value = self.js(f"{BELOW_FOLD}({json.dumps(selector)})")
        return None if value is None else int(value)

    def axe(self, impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, Any]]:
        """axe-core's violations of those impacts on the page as it is now (rule id, impact, nodes)."""
        if not self.js("!!window.axe"):
            self.send(
                "Runtime.evaluate",
                {"expression": AXE.read_text(), "returnByValue": True},
                timeout=60,
            )
        found = self.js(
            "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v =>"
            " ({id: v.id, impact: v.impact, help: v.help,"
            " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})))",
            timeout=120,
        )
        return [v for v in found or [] if v["impact"] in impacts]

    def screenshot(self, path: Path, width: int = 1200, height: int = 800) -> None:
        """Save a PNG of the viewport at `width`×`height`."""
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )
        time.sleep(0.3)
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        """Close the websocket."""
        self._ws.close()


class Browser:
    """A headless Chromium process; `new_page()` opens isolated tabs (own storage each)."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"

    def new_page(self, url: str = "about:blank") -> Page:
        """A new tab in a fresh browser context, so two pages do not share localStorage."""
        version = httpx.get(self.base + "/json/version", timeout=5).json()
        with connect(version["webSocketDebuggerUrl"], open_timeout=10) as ws:
            ws.send(json.dumps({"id": 1, "method": "Target.createBrowserContext", "params": {}}))
            ctx = _result(ws, 1)["browserContextId"]
            ws.send(
                json.dumps(
                    {
                        "id": 2,
                        "method": "Target.createTarget",
                        "params": {"url": "about:blank", "browserContextId": ctx},
                    }
                )
            )
            target = _result(ws, 2)["targetId"]
        page = Page(f"ws://127.0.0.1:{self.base.rsplit(':', 1)[1]}/devtools/page/{target}")
        if url != "about:blank":
            page.goto(url)
        return page


def _result(ws: Any, wanted: int) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg.get("id") == wanted:
            if "error" in msg:
                raise RuntimeError(str(msg["error"]))
            return dict(msg["result"])


@contextmanager
def chromium(workdir: Path) -> Iterator[Browser]:
    """Start headless Chromium with a private profile; stop it at exit."""
    exe = chromium_path()
    if exe is None:
        raise RuntimeError("no chromium on PATH (.ci/run installs Debian's `chromium`)")
    profile = workdir / "chromium-profile"
    profile.mkdir(parents=True, exist_ok=True)
    (profile / "DevToolsActivePort").unlink(missing_ok=True)  # stale: names a dead port
    cmd = [
        exe,
        "--headless=new",
        "--no-sandbox",  # CI runs as root, where Chromium's sandbox cannot start
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--remote-debugging-port=0",
        "--remote-debugging-address=127.0.0.1",
        f"--user-data-dir={profile}",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-domain-reliability",
        "--disable-client-side-phishing-detection",
        "--metrics-recording-only",
        # Nothing but loopback resolves: the page and its tests never reach the network.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
        "--window-size=1200,800",
        "about:blank",
    ]
    log = (workdir / "chromium.log").open("wb")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not port_file.exists() or not port_file.read_text().strip():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"chromium did not start: {(workdir / 'chromium.log').read_text()[-2000:]}"
                )
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        yield Browser(port)
    finally:
        local_stack.stop_process(proc, timeout=10)
        log.close()
