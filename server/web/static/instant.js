// docs-agent instant search (contract C4): the docs' sections appear under the question box as
// the reader types (GET /chat/api/search, debounced, earlier requests aborted). Arrow keys move
// through them, Enter or a click opens the selected section (on the docs site, or in the
// server's viewer when no site is configured); Enter with none selected is the page's: the
// question goes to the assistant. The docs search and the AI answer in one box.
// Everything shown goes into text nodes; the results' links are checked to be http(s) or the
// server's own viewer before they are opened.
"use strict";
(function () {
  const q = document.getElementById("question");
  const form = document.getElementById("ask");
  if (!q || !form) return;
  const STRINGS = {
    en: ["Matching sections", "{n} matching sections", "↑↓ pick a section · Enter asks the assistant"],
    pl: ["Pasujące sekcje", "Pasujące sekcje: {n}", "↑↓ wybierz sekcję · Enter pyta asystenta"],
    de: ["Passende Abschnitte", "{n} passende Abschnitte", "↑↓ Abschnitt wählen · Enter fragt den Assistenten"],
    ru: ["Подходящие разделы", "Подходящих разделов: {n}", "↑↓ выбрать раздел · Enter спрашивает ассистента"],
    es: ["Secciones coincidentes", "{n} secciones coincidentes", "↑↓ elige una sección · Enter pregunta al asistente"],
  };
  const params = new URLSearchParams(location.search);
  const lang = (params.get("lang") || navigator.language || "en").toLowerCase().slice(0, 2);
  const T = STRINGS[lang] || STRINGS.en;
  const embedded = params.get("embed") === "1" && window.top !== window;
  const DEBOUNCE_MS = 40;
  const LIMIT = 6;

  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = "/chat/static/instant.css";
  document.head.appendChild(css);

  const box = document.createElement("div");
  box.className = "da-instant";
  box.hidden = true;
  const list = document.createElement("ul");
  list.id = "da-instant";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", T[0]);
  const hint = document.createElement("p");
  hint.className = "da-hint";
  hint.textContent = T[2];
  hint.setAttribute("aria-hidden", "true");
  const live = document.createElement("p");
  live.className = "da-sr";
  live.setAttribute("role", "status");
  box.append(list, hint);
  form.after(box, live);
  q.setAttribute("aria-autocomplete", "list");
  q.setAttribute("aria-controls", list.id);

  const state = { results: [], active: -1, seq: 0, typedAt: 0, paints: [], blockedUntil: 0 };
  window.docsAgentInstant = state; // read by the browser tests and bench/instant_search.py
  let timer = 0, inflight = null;

  function token() {
    try {
      const own = localStorage.getItem("da-token");
      if (own) return own;
      const g = JSON.parse(localStorage.getItem("da-guest") || "null");
      return g && g.exp > Date.now() ? g.token : "";
    } catch (e) { return ""; }
  }
  function hrefOf(r) {
    if (r.url && /^https?:\/\//i.test(r.url)) return r.url;
    return "/chat/source?" + new URLSearchParams({ ref: r.ref, lang }).toString();
  }
  function marked(text, words) {
    const frag = document.createDocumentFragment();
    if (!words.length) { frag.append(text); return frag; }
    const re = new RegExp("(" + words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|") + ")", "gi");
    text.split(re).forEach((part, i) => {
      if (i % 2) { const m = document.createElement("mark"); m.textContent = part; frag.append(m); } else if (part) frag.append(part);
    });
    return frag;
  }
  function place() {
    const r = form.getBoundingClientRect();
    box.style.left = r.left + 8 + "px";
    box.style.width = Math.max(200, r.width - 16) + "px";
    box.style.bottom = innerHeight - r.top + 4 + "px";
    box.style.maxHeight = Math.max(120, r.top - 12) + "px";
  }
  function hide() {
    box.hidden = true;
    state.results = [];
    state.active = -1;
    q.removeAttribute("aria-activedescendant");
  }
  function select(i) {
    state.active = i;
    [...list.children].forEach((li, n) => li.setAttribute("aria-selected", String(n === i)));
    if (i >= 0) { q.setAttribute("aria-activedescendant", list.children[i].id); list.children[i].scrollIntoView({ block: "nearest" }); }
    else q.removeAttribute("aria-activedescendant");
  }
  function openResult(i) {
    const r = state.results[i];
    if (!r) return;
    const href = hrefOf(r);
    hide();
    // A section of the docs site replaces the site's page (the widget reopens on it); the
    // server's own viewer, or any link from the standalone page, opens beside the chat.
    if (embedded && href === r.url) window.open(href, "_top");
    else window.open(href, "_blank", "noopener");
  }
  function render(results, text) {
    const words = text.toLowerCase().split(/\W+/).filter((w) => w.length > 1);
    list.textContent = "";
    results.forEach((r, i) => {
      const li = document.createElement("li");
      li.id = "da-instant-" + i;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      const title = document.createElement("span");
      title.className = "da-title";
      title.append(marked(r.title, words));
      li.append(title);
      if (r.section && r.section.length) {
        const trail = document.createElement("span");
        trail.className = "da-trail";
        trail.textContent = r.section.join(" › ");
        li.append(trail);
      }
      if (r.snippet) {
        const snip = document.createElement("span");
        snip.className = "da-snippet";
        snip.append(marked(r.snippet, words));
        li.append(snip);
      }
      li.addEventListener("click", () => openResult(i));
      li.addEventListener("mousemove", () => { if (state.active !== i) select(i); });
      list.append(li);
    });
    state.active = -1;
    q.removeAttribute("aria-activedescendant");
    if (!results.length) { hide(); return; }
    place();
    box.hidden = false;
    // As many as fit above the box (no scrolling region without a focusable element in it).
    while (list.children.length > 1 && box.scrollHeight > box.clientHeight) { list.lastChild.remove(); results = results.slice(0, -1); }
    state.results = results;
    live.textContent = T[1].replace("{n}", results.length);
  }
  async function run(seq, text, typedAt) {
    if (inflight) inflight.abort();
    inflight = new AbortController();
    const t = token();
    try {
      const r = await fetch("/chat/api/search?" + new URLSearchParams({ q: text, limit: String(LIMIT) }).toString(), {
        headers: t ? { Authorization: "Bearer " + t } : {},
        signal: inflight.signal,
      });
      if (r.status === 429) { state.blockedUntil = Date.now() + 1000 * (+r.headers.get("Retry-After") || 10); hide(); return; }
      if (!r.ok) { hide(); return; }
      const body = await r.json();
      if (seq !== state.seq || document.activeElement !== q) return; // the reader typed on, or left
      render(body.results || [], text);
      requestAnimationFrame(() => setTimeout(() => state.paints.push({ q: text, ms: performance.now() - typedAt, server_ms: body.took_ms, n: state.results.length }), 0));
    } catch (e) { if (e.name !== "AbortError") hide(); }
  }
  q.addEventListener("input", () => {
    clearTimeout(timer);
    const text = q.value.trim();
    const typedAt = performance.now();
    const seq = ++state.seq;
    if (text.length < 2 || text.length > 200 || Date.now() < state.blockedUntil) { hide(); return; }
    timer = setTimeout(() => run(seq, q.value, typedAt), DEBOUNCE_MS);
  });
  // Capture phase: before the page's own Enter handler on the box (it sends the question).
  document.addEventListener("keydown", (e) => {
    if (e.target !== q || box.hidden || e.isComposing) return;
    const n = state.results.length;
    if (e.key === "ArrowDown") { e.preventDefault(); select((state.active + 1) % n); }
    else if (e.key === "ArrowUp") { e.preventDefault(); select(state.active <= 0 ? n - 1 : state.active - 1); }
    else if (e.key === "Enter" && !e.shiftKey && state.active >= 0) { e.preventDefault(); e.stopPropagation(); openResult(state.active); }
    else if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); hide(); }
  }, true);
  list.addEventListener("mousedown", (e) => e.preventDefault()); // keep the cursor in the box
  form.addEventListener("submit", () => { state.seq++; clearTimeout(timer); if (inflight) inflight.abort(); hide(); }, true);
  q.addEventListener("blur", hide);
  addEventListener("resize", () => { if (!box.hidden) place(); });
})();
