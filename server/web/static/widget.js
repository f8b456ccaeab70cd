// docs-agent widget: <script src="https://HOST/chat/widget.js" data-server="https://HOST"
//   data-graph="docs_agent" data-theme="light|dark" data-lang="en" async></script>
// Adds a floating button that opens the chat page of that server in a panel (an iframe: the
// chat's token and requests stay on the server's origin; the page allows only the origins in
// DOCS_AGENT_WEB_ORIGINS to frame it). Styles live in a shadow root, so the site's CSS and the
// widget's never mix.
"use strict";
(function () {
  const script = document.currentScript;
  if (!script || window.__docsAgentWidget) return;
  window.__docsAgentWidget = true;
  const data = script.dataset;
  const server = (data.server || new URL(script.src).origin).replace(/\/+$/, "");
  const theme = data.theme === "dark" ? "dark" : "light";
  const query = new URLSearchParams({ embed: "1", graph: data.graph || "docs_agent", theme });
  if (data.lang) query.set("lang", data.lang);
  const label = data.label || "Ask the docs";

  const host = document.createElement("div");
  host.id = "docs-agent-widget";
  const root = host.attachShadow({ mode: "open" });
  const dark = theme === "dark";
  root.innerHTML =
    "<style>" +
    ":host{all:initial}" +
    ".fab{position:fixed;right:20px;bottom:20px;z-index:2147483646;border:0;border-radius:999px;padding:12px 18px;font:600 15px system-ui,sans-serif;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);background:" + (dark ? "#7ea6ff;color:#111" : "#2357d9;color:#fff") + "}" +
    ".fab:focus-visible,.close:focus-visible{outline:3px solid #f5a623;outline-offset:2px}" +
    ".panel{position:fixed;right:20px;bottom:80px;z-index:2147483647;width:min(420px,calc(100vw - 24px));height:min(640px,calc(100vh - 110px));border-radius:12px;overflow:hidden;box-shadow:0 8px 30px rgba(0,0,0,.3);background:" + (dark ? "#111418" : "#fff") + ";display:flex;flex-direction:column}" +
    ".panel[hidden]{display:none}" +
    ".bar{display:flex;justify-content:flex-end;padding:4px}" +
    ".close{border:0;background:transparent;font:20px system-ui;cursor:pointer;color:" + (dark ? "#e8ebef" : "#1b1f24") + "}" +
    "iframe{border:0;flex:1;width:100%}" +
    "@media (max-width:520px){.panel{right:0;bottom:0;width:100vw;height:100vh;border-radius:0}}" +
    "</style>" +
    '<div class="panel" role="dialog" aria-modal="false" hidden><div class="bar"><button class="close" type="button" aria-label="Close">×</button></div></div>' +
    '<button class="fab" type="button" aria-expanded="false"></button>';
  const fab = root.querySelector(".fab");
  const panel = root.querySelector(".panel");
  fab.textContent = label;
  panel.setAttribute("aria-label", label);
  let frame = null;
  function open(show) {
    if (show && !frame) {
      frame = document.createElement("iframe");
      frame.title = label;
      frame.src = server + "/chat?" + query.toString();
      frame.setAttribute("allow", "clipboard-write");
      panel.appendChild(frame);
    }
    panel.hidden = !show;
    fab.setAttribute("aria-expanded", String(show));
    if (show) frame.focus(); else fab.focus();
  }
  fab.addEventListener("click", () => open(panel.hidden));
  root.querySelector(".close").addEventListener("click", () => open(false));
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !panel.hidden) open(false); });
  (document.body || document.documentElement).appendChild(host);
})();
