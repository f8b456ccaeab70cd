// docs-agent widget: one tag on a docs site (docs/web.md lists every data-* attribute):
// <script src="https://HOST/chat/widget.js" async data-position="right" data-accent="#0b6e4f"
//   data-lang="de" data-theme="auto" data-welcome="…" data-examples="How do I …?|Why …?"></script>
// A button opens the chat page of that server in a panel (an iframe: tokens and requests stay on
// the server's origin). ⌘K / Ctrl+K and `/` open it with the cursor in the question box, Escape
// closes it and focus goes back where it was; an open panel reopens on the site's next page
// (sessionStorage). The button moves up over a fixed bar at the bottom (a cookie banner). On a
// site not in DOCS_AGENT_WEB_ORIGINS there is no button, and the console says why.
// Styles live in a shadow root, so the site's CSS and the widget's never mix. Messages with the
// page follow contract C1 (docs-agent:open / :ready / :close), each side checking the origin.
"use strict";
(function () {
  const script = document.currentScript;
  if (!script || window.__docsAgentWidget) return;
  window.__docsAgentWidget = true;
  const d = script.dataset;
  const server = (d.server || new URL(script.src).origin).replace(/\/+$/, "");
  const serverOrigin = new URL(server).origin;
  const STRINGS = {
    en: ["Ask the docs", "Close"],
    pl: ["Zapytaj dokumentację", "Zamknij"],
    de: ["Frag die Doku", "Schließen"],
    ru: ["Спросите документацию", "Закрыть"],
    es: ["Pregunta a la documentación", "Cerrar"],
  };
  const lang = (d.lang || document.documentElement.lang || navigator.language || "en").toLowerCase().slice(0, 2);
  const T = STRINGS[lang] || STRINGS.en;
  const label = d.label || T[0];
  const left = d.position === "left";
  const px = (v, def) => (/^\d{1,4}$/.test(v || "") ? +v : def);
  const offsetX = px(d.offsetX, 20);
  const offsetY = px(d.offsetY, 20);
  const keys = d.shortcuts || "all"; // all | ctrl-k | off
  const OPEN_KEY = "docs-agent-widget:open";

  function hostDark() {
    const b = document.body, h = document.documentElement;
    if ((b && b.getAttribute("data-md-color-scheme") === "slate") || h.classList.contains("dark") || h.dataset.theme === "dark") return true;
    return !!(window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches);
  }
  const theme = d.theme === "dark" || d.theme === "light" ? d.theme : hostDark() ? "dark" : "light";
  const dark = theme === "dark";
  const accent = d.accent && window.CSS && CSS.supports("color", d.accent) ? d.accent : dark ? "#7ea6ff" : "#2357d9";

  const query = new URLSearchParams({ embed: "1", graph: /^[\w-]{1,64}$/.test(d.graph || "") ? d.graph : "docs_agent", theme, lang, origin: location.origin });
  if (d.accent) query.set("accent", accent);
  if (d.welcome) query.set("welcome", d.welcome.slice(0, 500));
  if (d.examples) query.set("examples", d.examples.split("|").map((s) => s.trim()).filter(Boolean).slice(0, 4).join("|"));

  const session = {
    get: () => { try { return sessionStorage.getItem(OPEN_KEY) === "1"; } catch (e) { return false; } },
    set: (on) => { try { on ? sessionStorage.setItem(OPEN_KEY, "1") : sessionStorage.removeItem(OPEN_KEY); } catch (e) { /* storage off */ } },
  };

  function build() {
    const host = document.createElement("div");
    host.id = "docs-agent-widget";
    const root = host.attachShadow({ mode: "open" });
    const side = left ? "left" : "right";
    root.innerHTML =
      "<style>:host{all:initial}" +
      ".fab{position:fixed;" + side + ":" + offsetX + "px;bottom:var(--da-bottom);z-index:2147483646;border:0;border-radius:999px;padding:12px 18px;font:600 15px/1.2 system-ui,sans-serif;cursor:pointer;box-shadow:0 4px 14px rgba(0,0,0,.25);background:var(--da-accent);color:var(--da-on)}" +
      ".fab kbd{font:12px ui-monospace,monospace;margin-left:8px;opacity:.85}" +
      ":focus-visible{outline:3px solid #f5a623;outline-offset:2px}" +
      ".panel{position:fixed;" + side + ":" + offsetX + "px;bottom:calc(var(--da-bottom) + 58px);z-index:2147483647;width:min(420px,calc(100vw - 24px));height:min(680px,calc(100vh - var(--da-bottom) - 82px));border-radius:12px;overflow:hidden;box-shadow:0 8px 30px rgba(0,0,0,.3);background:" + (dark ? "#111418" : "#fff") + "}" +
      ".panel[hidden]{display:none}" +
      ".close{position:absolute;top:6px;right:6px;width:32px;height:32px;border:0;border-radius:8px;font:22px/1 system-ui,sans-serif;cursor:pointer;background:" + (dark ? "#222831;color:#e8ebef" : "#eef0f3;color:#1b1f24") + "}" +
      "iframe{border:0;width:100%;height:100%;display:block}" +
      "@media (max-width:520px){.panel{left:0;right:0;bottom:0;width:100vw;height:100%;border-radius:0}.fab kbd{display:none}}" +
      "</style>" +
      '<div class="panel" role="dialog" aria-modal="false" hidden><button class="close" type="button">×</button></div>' +
      '<button class="fab" type="button" aria-expanded="false" aria-haspopup="dialog"></button>';
    return { host, root };
  }

  function start() {
    const { host, root } = build();
    const fab = root.querySelector(".fab");
    const panel = root.querySelector(".panel");
    const close = root.querySelector(".close");
    host.style.setProperty("--da-accent", accent);
    host.style.setProperty("--da-bottom", offsetY + "px");
    fab.textContent = label;
    if (keys !== "off") {
      const kbd = document.createElement("kbd");
      kbd.textContent = /Mac|iP/.test(navigator.platform) ? "⌘K" : "Ctrl K";
      kbd.setAttribute("aria-hidden", "true");
      fab.appendChild(kbd);
      fab.setAttribute("aria-keyshortcuts", keys === "all" ? "Control+K Meta+K /" : "Control+K Meta+K");
    }
    panel.setAttribute("aria-label", label);
    close.setAttribute("aria-label", T[1]);
    (document.body || document.documentElement).appendChild(host);
    // Text on the accent: black or white, whichever contrasts more (WCAG relative luminance).
    const rgb = (getComputedStyle(fab).backgroundColor.match(/\d+(\.\d+)?/g) || [0, 0, 0]).slice(0, 3).map((c) => { c = c / 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); });
    const lum = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    host.style.setProperty("--da-on", (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) ? "#111" : "#fff");

    let frame = null, loaded = false, before = null;
    const page = () => ({ url: location.href, title: document.title, lang: document.documentElement.lang || lang });
    function tell() { if (frame && loaded) frame.contentWindow.postMessage({ type: "docs-agent:open", page: page() }, serverOrigin); }
    function ensureFrame() {
      if (frame) return;
      frame = document.createElement("iframe");
      frame.title = label;
      frame.src = server + "/chat?" + query.toString();
      frame.setAttribute("allow", "clipboard-write");
      frame.addEventListener("load", () => { loaded = true; if (!panel.hidden) tell(); });
      panel.insertBefore(frame, close);
    }
    function isOpen() { return !panel.hidden; }
    function open() {
      if (!isOpen()) {
        const active = document.activeElement;
        before = active && active !== document.body && active !== host ? active : null;
      }
      ensureFrame();
      panel.hidden = false;
      fab.setAttribute("aria-expanded", "true");
      session.set(true);
      frame.focus();
      tell();
    }
    function shut() {
      if (!isOpen()) return;
      panel.hidden = true;
      fab.setAttribute("aria-expanded", "false");
      session.set(false);
      const back = before && before.isConnected ? before : fab;
      before = null;
      back.focus({ preventScroll: true });
    }
    fab.addEventListener("click", () => (isOpen() ? shut() : open()));
    fab.addEventListener("pointerenter", ensureFrame, { once: true }); // start loading on intent
    fab.addEventListener("focus", ensureFrame, { once: true });
    close.addEventListener("click", shut);
    window.addEventListener("message", (e) => {
      if (e.origin !== serverOrigin || !frame || e.source !== frame.contentWindow) return;
      const type = e.data && e.data.type;
      if (type === "docs-agent:close") shut();
      else if (type === "docs-agent:ready" && isOpen()) tell();
    });
    const typing = (t) => t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
    window.addEventListener("keydown", (e) => {
      if (e.defaultPrevented || e.isComposing) return;
      const k = (e.key || "").toLowerCase();
      const combo = k === "k" && (e.metaKey || e.ctrlKey) && !e.altKey && !e.shiftKey;
      const slash = k === "/" && keys === "all" && !e.metaKey && !e.ctrlKey && !e.altKey && !typing(e.target);
      // Ours before the site's own handlers (a site whose search takes them sets data-shortcuts).
      if (keys !== "off" && (combo || slash)) { e.preventDefault(); e.stopPropagation(); open(); }
      else if (k === "escape" && isOpen()) shut();
    }, true);

    // Never cover a bar fixed at the bottom (a cookie banner, a sticky footer): look at what is
    // under the button's usual place; a fixed or sticky element there that reaches the bottom
    // edge and is bar-sized (not a full-height sidebar) puts the button and panel above it.
    let pending = 0, bottom = "";
    function place() {
      pending = 0;
      // A site that swaps its page without a reload (MkDocs Material's instant navigation) may
      // take the widget out with the old body: put it back.
      if (!host.isConnected) (document.body || document.documentElement).appendChild(host);
      let lift = 0;
      const r = fab.getBoundingClientRect();
      [r.left + 4, r.right - 4].forEach((x) => [innerHeight - offsetY - 2, innerHeight - offsetY - r.height].forEach((y) => {
        document.elementsFromPoint(x, y).forEach((el) => {
          for (let n = el; n && n !== document.body && n !== document.documentElement && n !== host; n = n.parentElement) {
            if (!/fixed|sticky/.test(getComputedStyle(n).position)) continue;
            const b = n.getBoundingClientRect();
            if (b.bottom >= innerHeight - 4 && b.height <= innerHeight * 0.4) lift = Math.max(lift, innerHeight - b.top);
            break;
          }
        });
      }));
      const value = (lift ? lift + 12 : offsetY) + "px";
      if (value !== bottom) host.style.setProperty("--da-bottom", (bottom = value));
    }
    const later = (records) => {
      if (records && records.every && records.every((m) => m.target === host)) return;
      if (!pending) pending = setTimeout(place, 150);
    };
    new MutationObserver(later).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ["style", "class", "hidden"] });
    addEventListener("resize", () => later());
    addEventListener("scroll", () => later(), { passive: true });
    place();
    if (session.get()) open(); // it was open on the previous page: the conversation continues
    window.docsAgentWidget = { open, close: shut, place }; // for the site's own buttons and tests
  }

  fetch(server + "/chat/api/widget?origin=" + encodeURIComponent(location.origin))
    .then((r) => r.json())
    .then((c) => {
      if (c.allowed) start();
      else console.warn("docs-agent widget: " + location.origin + " is not in DOCS_AGENT_WEB_ORIGINS of " + server + ", so no button is shown (add it there and restart the server).");
    })
    .catch(() => console.warn("docs-agent widget: " + server + " did not answer, so no button is shown."));
})();
