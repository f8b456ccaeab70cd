// docs-agent chat page: vanilla JS, no build step. Talks only to this server's own API:
// threads, runs/stream (SSE: messages + custom + values), thread state, and /chat/api/*.
"use strict";
(function () {
  const I18N = {
    en: { title: "Ask the docs", threads: "Conversations", new: "New", signin: "Sign in", token: "Access token", save: "Save", question: "Your question", placeholder: "Ask a question about the product…", send: "Send", thinking: "Working…", up: "Helpful", down: "Not helpful", comment: "What was wrong or missing? (optional)", sendComment: "Send feedback", thanks: "Thanks for the feedback.", error: "Something went wrong:", guest: "Guest", signedIn: "Signed in as", limit: "Too many requests; try again later.", untitled: "(untitled)", noThreads: "No conversations yet.", sources: "Sources" },
    pl: { title: "Zapytaj dokumentację", threads: "Rozmowy", new: "Nowa", signin: "Zaloguj", token: "Token dostępu", save: "Zapisz", question: "Twoje pytanie", placeholder: "Zadaj pytanie o produkt…", send: "Wyślij", thinking: "Pracuję…", up: "Pomocne", down: "Niepomocne", comment: "Co było nie tak lub czego brakowało? (opcjonalnie)", sendComment: "Wyślij opinię", thanks: "Dziękujemy za opinię.", error: "Coś poszło nie tak:", guest: "Gość", signedIn: "Zalogowano jako", limit: "Zbyt wiele zapytań; spróbuj później.", untitled: "(bez tytułu)", noThreads: "Brak rozmów.", sources: "Źródła" },
    de: { title: "Frag die Doku", threads: "Unterhaltungen", new: "Neu", signin: "Anmelden", token: "Zugangstoken", save: "Speichern", question: "Deine Frage", placeholder: "Stelle eine Frage zum Produkt…", send: "Senden", thinking: "Arbeite…", up: "Hilfreich", down: "Nicht hilfreich", comment: "Was war falsch oder fehlte? (optional)", sendComment: "Feedback senden", thanks: "Danke für das Feedback.", error: "Etwas ist schiefgelaufen:", guest: "Gast", signedIn: "Angemeldet als", limit: "Zu viele Anfragen; später erneut versuchen.", untitled: "(ohne Titel)", noThreads: "Noch keine Unterhaltungen.", sources: "Quellen" },
    ru: { title: "Спросите документацию", threads: "Беседы", new: "Новая", signin: "Войти", token: "Токен доступа", save: "Сохранить", question: "Ваш вопрос", placeholder: "Задайте вопрос о продукте…", send: "Отправить", thinking: "Работаю…", up: "Полезно", down: "Бесполезно", comment: "Что было неверно или чего не хватило? (необязательно)", sendComment: "Отправить отзыв", thanks: "Спасибо за отзыв.", error: "Что-то пошло не так:", guest: "Гость", signedIn: "Вы вошли как", limit: "Слишком много запросов; попробуйте позже.", untitled: "(без названия)", noThreads: "Бесед пока нет.", sources: "Источники" },
    es: { title: "Pregunta a la documentación", threads: "Conversaciones", new: "Nueva", signin: "Iniciar sesión", token: "Token de acceso", save: "Guardar", question: "Tu pregunta", placeholder: "Haz una pregunta sobre el producto…", send: "Enviar", thinking: "Trabajando…", up: "Útil", down: "No útil", comment: "¿Qué estaba mal o faltaba? (opcional)", sendComment: "Enviar opinión", thanks: "Gracias por tu opinión.", error: "Algo salió mal:", guest: "Invitado", signedIn: "Sesión iniciada como", limit: "Demasiadas solicitudes; inténtalo más tarde.", untitled: "(sin título)", noThreads: "Aún no hay conversaciones.", sources: "Fuentes" },
  };
  const params = new URLSearchParams(location.search);
  const pick = (params.get("lang") || navigator.language || "en").toLowerCase().slice(0, 2);
  const lang = I18N[pick] ? pick : "en";
  const T = I18N[lang];
  const graph = /^[\w-]{1,64}$/.test(params.get("graph") || "") ? params.get("graph") : "docs_agent";
  const $ = (id) => document.getElementById(id);
  const store = {
    get: (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set: (k, v) => { try { v == null ? localStorage.removeItem(k) : localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  };
  const state = { threadId: null, busy: false, me: null, lastRunId: null, answers: 0 };
  window.docsAgentChat = state; // read by the browser tests and handy in the console

  document.documentElement.lang = lang;
  document.documentElement.dataset.theme = params.get("theme") === "dark" ? "dark" : "light";
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = T[el.dataset.i18n]; });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = T[el.dataset.i18nPlaceholder]; });
  document.title = T.title;

  // --- identity: a saved token, else a guest token when the server offers guest mode ---------
  async function guestToken(fresh) {
    const saved = JSON.parse(store.get("da-guest") || "null");
    if (!fresh && saved && saved.exp > Date.now() + 60000) return saved.token;
    const r = await fetch("/chat/api/guest", { method: "POST" });
    if (!r.ok) throw new Error(r.status === 429 ? T.limit : "guest " + r.status);
    const g = await r.json();
    store.set("da-guest", JSON.stringify({ token: g.token, exp: Date.now() + g.expires_in * 1000 }));
    return g.token;
  }
  let config = { guests: false };
  async function authHeader(fresh) {
    const token = store.get("da-token") || (config.guests ? await guestToken(fresh) : "");
    return token ? { Authorization: "Bearer " + token } : {};
  }
  async function api(path, opts, retried) {
    const o = Object.assign({}, opts || {});
    o.headers = Object.assign({ "Content-Type": "application/json" }, await authHeader(retried), o.headers || {});
    const r = await fetch(path, o);
    if (r.status === 401 && !retried && !store.get("da-token") && config.guests) return api(path, opts, true);
    if (r.status === 429) throw new Error(T.limit);
    return r;
  }
  async function json(path, opts) {
    const r = await api(path, opts);
    if (!r.ok) throw new Error(r.status + " " + (await r.text()).slice(0, 200));
    return r.json();
  }

  // --- rendering: escaped text, then a small Markdown subset; only http(s) links --------------
  const esc = (s) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  function inline(s) {
    const codes = [];
    s = s.replace(/`([^`\n]+)`/g, (m, c) => { codes.push(c); return "\u0000" + (codes.length - 1) + "\u0000"; });
    s = esc(s);
    s = s.replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)/g, (m, t, u) => '<a href="' + u + '" target="_blank" rel="noopener noreferrer">' + t + "</a>");
    s = s.replace(/(^|[\s(])(https?:\/\/[^\s<)]+[^\s<).,;:])/g, (m, p, u) => p + '<a href="' + u + '" target="_blank" rel="noopener noreferrer">' + u + "</a>");
    s = s.replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>");
    s = s.replace(/(^|\s)_([^_\n]+)_(?=[\s.,;:]|$)/g, "$1<em>$2</em>");
    return s.replace(/\u0000(\d+)\u0000/g, (m, i) => {
      const c = esc(codes[+i]);
      return /^[\w./-]+:\d+(-\d+)?$/.test(codes[+i]) ? '<span class="cite" title="' + c + '">' + c + "</span>" : "<code>" + c + "</code>";
    });
  }
  // A GFM table (rows of "| a | b |", its "|---|" rule dropped) as an HTML table, header first.
  function table(rows) {
    const cells = (row) => row.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => inline(c.trim()));
    const body = rows.filter((r) => !/^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/.test(r)).map(cells);
    if (!body.length) return "";
    const head = "<tr>" + body[0].map((c) => "<th>" + c + "</th>").join("") + "</tr>";
    const rest = body.slice(1).map((r) => "<tr>" + r.map((c) => "<td>" + c + "</td>").join("") + "</tr>").join("");
    return '<div class="table"><table><thead>' + head + "</thead><tbody>" + rest + "</tbody></table></div>";
  }
  function markdown(text) {
    const out = [];
    // Quoted passages ("> " lines, as the offline model quotes) are flattened so their code fences parse.
    const parts = String(text || "").replace(/^>[ \t]?/gm, "").split(/^[ \t]*```[^\n]*\n?/m);
    parts.forEach((part, i) => {
      if (i % 2 === 1) { out.push("<pre><code>" + esc(part.replace(/\n$/, "")) + "</code></pre>"); return; }
      let list = null;
      let rows = null;
      part.split("\n").forEach((line) => {
        if (/^\s*\|.*\|\s*$/.test(line)) {
          if (list) { out.push("<ul>" + list.join("") + "</ul>"); list = null; }
          (rows = rows || []).push(line);
          return;
        }
        if (rows) { out.push(table(rows)); rows = null; }
        const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
        if (item) { if (!list) { list = []; } list.push("<li>" + inline(item[1]) + "</li>"); return; }
        if (list) { out.push("<ul>" + list.join("") + "</ul>"); list = null; }
        const h = /^#{1,6}\s+(.*)$/.exec(line);
        if (h) out.push("<p><strong>" + inline(h[1]) + "</strong></p>");
        else if (line.trim()) out.push("<p>" + inline(line.replace(/^>\s?/, "")) + "</p>");
      });
      if (list) out.push("<ul>" + list.join("") + "</ul>");
      if (rows) out.push(table(rows));
    });
    return out.join("");
  }
  state.markdown = markdown; // the renderer, for the browser tests
  function textOf(msg) {
    const c = msg && msg.content;
    if (typeof c === "string") return c;
    return Array.isArray(c) ? c.map((b) => (typeof b === "string" ? b : b.text || "")).join("") : "";
  }
  const log = $("log");
  function bubble(cls) {
    const el = document.createElement("div");
    el.className = "msg " + cls;
    log.appendChild(el);
    return el;
  }
  function addUser(text) {
    const el = bubble("user");
    el.textContent = text;
    el.scrollIntoView({ block: "end" });
  }

  // --- feedback: one vote per answer, changeable, with an optional comment ---------------------
  function votes(el, messageId, runId) {
    const box = document.createElement("div");
    box.className = "votes";
    const saved = JSON.parse(store.get("da-votes") || "{}");
    const buttons = {};
    const form = document.createElement("div");
    const area = document.createElement("textarea");
    area.maxLength = 2000;
    area.rows = 2;
    area.setAttribute("aria-label", T.comment);
    area.placeholder = T.comment;
    const send = document.createElement("button");
    send.type = "button";
    send.textContent = T.sendComment;
    form.hidden = true;
    form.append(area, send);
    async function cast(vote, comment) {
      await json("/chat/api/feedback", { method: "POST", body: JSON.stringify({ thread_id: state.threadId, message_id: messageId, run_id: runId || null, vote, comment: comment || "" }) });
      saved[messageId] = vote;
      store.set("da-votes", JSON.stringify(Object.assign(JSON.parse(store.get("da-votes") || "{}"), { [messageId]: vote })));
      Object.entries(buttons).forEach(([v, b]) => b.setAttribute("aria-pressed", String(v === vote)));
      el.dataset.vote = vote;
    }
    ["up", "down"].forEach((vote) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "vote-" + vote;
      b.textContent = (vote === "up" ? "▲ " : "▼ ") + T[vote];
      b.setAttribute("aria-pressed", String(saved[messageId] === vote));
      b.addEventListener("click", async () => {
        try { await cast(vote, ""); form.hidden = false; form.dataset.vote = vote; area.focus(); status(""); }
        catch (e) { status(T.error + " " + e.message); }
      });
      buttons[vote] = b;
      box.appendChild(b);
    });
    send.addEventListener("click", async () => {
      try { await cast(form.dataset.vote, area.value.trim()); form.hidden = true; status(T.thanks); el.dataset.commented = "true"; }
      catch (e) { status(T.error + " " + e.message); }
    });
    box.appendChild(form);
    el.appendChild(box);
  }
  function suggestions(el, items) {
    if (!items || !items.length) return;
    const box = document.createElement("div");
    box.className = "suggests";
    items.forEach((s) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = s.label || s.prompt;
      b.addEventListener("click", () => ask(s.prompt));
      box.appendChild(b);
    });
    el.appendChild(box);
  }
  function finishAnswer(el, msg, runId) {
    el.dataset.messageId = msg.id || "";
    el.dataset.runId = runId || "";
    const body = el.querySelector(".body");
    body.innerHTML = markdown(textOf(msg));
    const extra = (msg.additional_kwargs || {}).suggests;
    if (msg.id) votes(el, msg.id, runId);
    return extra;
  }
  const statusEl = $("status");
  function status(text) { statusEl.textContent = text; }

  // --- one question: create the thread if needed, stream the run, render as it comes ----------
  async function ensureThread() {
    if (state.threadId) return state.threadId;
    const t = await json("/threads", { method: "POST", body: JSON.stringify({ metadata: { user_id: state.me, graph_id: graph } }) });
    state.threadId = t.thread_id;
    return state.threadId;
  }
  async function* sse(response) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
      let cut;
      while ((cut = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        let event = "message";
        const data = [];
        block.split("\n").forEach((line) => {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        });
        if (data.length) { try { yield [event, JSON.parse(data.join("\n"))]; } catch (e) { /* keep-alive or partial */ } }
      }
    }
  }
  async function ask(question) {
    question = (question || "").trim();
    if (!question || state.busy) return;
    state.busy = true;
    $("send").disabled = true;
    document.querySelectorAll(".suggests").forEach((s) => s.remove());
    addUser(question);
    const el = bubble("bot");
    el.setAttribute("aria-busy", "true");
    const progress = document.createElement("ul");
    progress.className = "progress";
    const body = document.createElement("div");
    body.className = "body";
    el.append(progress, body);
    status(T.thinking);
    let chunks = 0, runId = null, final = null, answerId = null;
    try {
      const threadId = await ensureThread();
      const r = await api("/threads/" + threadId + "/runs/stream", {
        method: "POST",
        body: JSON.stringify({ assistant_id: graph, input: { messages: [{ role: "user", content: question }] }, stream_mode: ["messages", "custom", "values"], stream_subgraphs: true, metadata: { user_id: state.me } }),
      });
      if (!r.ok) throw new Error(r.status + " " + (await r.text()).slice(0, 200));
      for await (const [event, data] of sse(r)) {
        if (event === "metadata" && data.run_id) { runId = data.run_id; state.lastRunId = runId; }
        else if (event.startsWith("messages/partial") && !event.includes("|")) {
          const msg = (data || []).find((m) => (m.type === "ai" || m.type === "AIMessageChunk") && !(m.tool_calls || []).length);
          const text = msg && textOf(msg);
          if (text) {
            if (answerId && msg.id !== answerId) { chunks = 0; }
            answerId = msg.id;
            chunks += 1;
            el.dataset.chunks = String(chunks);
            body.innerHTML = markdown(text);
            el.scrollIntoView({ block: "end" });
          }
        } else if (event.startsWith("custom")) {
          const fb = data && data.name === "tool_feedback" && data.data && data.data.feedback;
          if (fb) { const li = document.createElement("li"); li.textContent = fb; progress.appendChild(li); }
        } else if (event === "values") { final = data; }
        else if (event === "error") { throw new Error((data && (data.message || data.error)) || "run failed"); }
      }
      const messages = (final && final.messages) || [];
      const last = messages[messages.length - 1];
      if (last && (last.type === "ai" || last.type === "AIMessageChunk")) {
        const items = finishAnswer(el, last, runId);
        suggestions(el, items);
      }
      state.answers += 1;
      status("");
      loadThreads();
    } catch (e) {
      status(T.error + " " + e.message);
      el.dataset.error = e.message;
    } finally {
      el.removeAttribute("aria-busy");
      state.busy = false;
      $("send").disabled = false;
    }
  }

  // --- the user's own threads: search by owner metadata, reopen from the thread's state -------
  async function loadThreads() {
    const list = $("threads");
    let threads = [];
    try {
      threads = await json("/threads/search", { method: "POST", body: JSON.stringify({ metadata: { user_id: state.me }, limit: 20, sort_by: "updated_at", sort_order: "desc" }) });
    } catch (e) { list.textContent = T.error + " " + e.message; return; }
    list.textContent = "";
    if (!threads.length) { const li = document.createElement("li"); li.className = "muted"; li.textContent = T.noThreads; list.appendChild(li); }
    threads.forEach((t) => {
      const first = ((t.values || {}).messages || []).find((m) => m.type === "human");
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.threadId = t.thread_id;
      b.textContent = (first && textOf(first).slice(0, 80)) || T.untitled;
      b.setAttribute("aria-current", String(t.thread_id === state.threadId));
      b.addEventListener("click", () => openThread(t.thread_id));
      li.appendChild(b);
      list.appendChild(li);
    });
  }
  async function openThread(id) {
    const s = await json("/threads/" + id + "/state");
    state.threadId = id;
    log.textContent = "";
    const messages = (s.values || {}).messages || [];
    messages.forEach((m, i) => {
      if (m.type === "human") addUser(textOf(m));
      else if ((m.type === "ai" || m.type === "AIMessageChunk") && !(m.tool_calls || []).length && textOf(m)) {
        const el = bubble("bot");
        const body = document.createElement("div");
        body.className = "body";
        el.appendChild(body);
        const items = finishAnswer(el, m, null);
        if (i === messages.length - 1) suggestions(el, items);
      }
    });
    closeSidebar();
    loadThreads();
    $("question").focus();
  }

  // --- wiring ---------------------------------------------------------------------------------
  const sidebar = $("sidebar"), toggle = $("toggle-threads");
  function closeSidebar() { sidebar.classList.remove("open"); toggle.setAttribute("aria-expanded", "false"); }
  toggle.addEventListener("click", () => {
    const open = !sidebar.classList.contains("open");
    sidebar.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
    if (open) { const first = sidebar.querySelector("button"); if (first) first.focus(); }
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeSidebar(); });
  $("ask").addEventListener("submit", (e) => { e.preventDefault(); const q = $("question"); const v = q.value; q.value = ""; ask(v); });
  $("question").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); $("ask").requestSubmit(); }
  });
  $("new-thread").addEventListener("click", () => { state.threadId = null; log.textContent = ""; closeSidebar(); loadThreads(); $("question").focus(); });
  $("save-token").addEventListener("click", () => { store.set("da-token", $("token").value.trim() || null); $("token").value = ""; start(); });

  async function start() {
    try {
      config = await (await fetch("/chat/api/config")).json();
      const me = await json("/chat/api/whoami");
      if (me.dev) {
        // Dev mode trusts metadata.user_id as sent: one random id per browser keeps its threads apart.
        let local = store.get("da-local-user");
        if (!local) { local = "browser-" + Math.random().toString(36).slice(2, 12); store.set("da-local-user", local); }
        state.me = local;
      } else state.me = me.identity;
      $("who").textContent = me.guest ? T.guest : T.signedIn + " " + me.identity;
      state.ready = true;
      await loadThreads();
    } catch (e) { status(T.error + " " + e.message); }
  }
  start();
})();
