// docs-agent chat page: vanilla JS, no build step. Talks only to this server's own API:
// threads, runs/stream (SSE: messages + custom + values), runs/cancel, thread state, /chat/api/*.
// Markdown is rendered by markdown-it (CommonMark + GFM tables) and cleaned by DOMPurify, both
// vendored (static/vendor/README.md); highlight.js is loaded only when an answer shows code.
"use strict";
(function () {
  const I18N = {
    en: { title: "Ask the docs", threads: "Conversations", new: "New", close: "Close", signin: "Sign in", token: "Access token", save: "Save", question: "Your question", placeholder: "Ask a question about the product…", send: "Send", stop: "Stop", thinking: "Working…", writing: "Writing the answer…", up: "Helpful", down: "Not helpful", comment: "What was wrong or missing? (optional)", sendComment: "Send feedback", thanks: "Thanks for the feedback.", error: "Something went wrong:", guest: "Guest", signedIn: "Signed in as", untitled: "(untitled)", noThreads: "No conversations yet.", sources: "Sources", steps: "Steps", retry: "Retry", copy: "Copy", copied: "Copied", welcome: "Ask a question about the product: the answer quotes and links the pages it comes from.", examples: "For example", disclaimer: "Answers are generated from the documentation and can be wrong: check the linked sources.", queued: "Sent when the current answer ends.", stopped: "Stopped. This answer is incomplete.", cut: "The connection to the server was lost before the answer ended. This answer is incomplete.", failed: "The answer could not be finished. Please try again.", offline: "The server cannot be reached. Check your connection, then retry.", limit: "Too many questions right now. You can ask again in {s} s.", limitNow: "You can ask again now.", busyRun: "Another answer of yours is still running. Wait for it to end, then retry.", signinAgain: "Your sign-in is no longer valid. Sign in again.", notStarted: "The server could not start the answer (HTTP {code}). Retry in a moment.", tooLong: "This question is too long. Shorten it and send it again.", notFound: "This conversation is no longer available.", code: "Code" },
    pl: { title: "Zapytaj dokumentację", threads: "Rozmowy", new: "Nowa", close: "Zamknij", signin: "Zaloguj", token: "Token dostępu", save: "Zapisz", question: "Twoje pytanie", placeholder: "Zadaj pytanie o produkt…", send: "Wyślij", stop: "Zatrzymaj", thinking: "Pracuję…", writing: "Piszę odpowiedź…", up: "Pomocne", down: "Niepomocne", comment: "Co było nie tak lub czego brakowało? (opcjonalnie)", sendComment: "Wyślij opinię", thanks: "Dziękujemy za opinię.", error: "Coś poszło nie tak:", guest: "Gość", signedIn: "Zalogowano jako", untitled: "(bez tytułu)", noThreads: "Brak rozmów.", sources: "Źródła", steps: "Kroki", retry: "Ponów", copy: "Kopiuj", copied: "Skopiowano", welcome: "Zadaj pytanie o produkt: odpowiedź cytuje strony, z których pochodzi, i linkuje do nich.", examples: "Na przykład", disclaimer: "Odpowiedzi powstają z dokumentacji i mogą zawierać błędy: sprawdź podane źródła.", queued: "Zostanie wysłane po zakończeniu bieżącej odpowiedzi.", stopped: "Zatrzymano. Ta odpowiedź jest niepełna.", cut: "Połączenie z serwerem zerwało się przed końcem odpowiedzi. Ta odpowiedź jest niepełna.", failed: "Nie udało się dokończyć odpowiedzi. Spróbuj ponownie.", offline: "Nie można połączyć się z serwerem. Sprawdź połączenie i ponów.", limit: "Zbyt wiele pytań naraz. Możesz zapytać ponownie za {s} s.", limitNow: "Możesz już zapytać ponownie.", busyRun: "Inna Twoja odpowiedź wciąż trwa. Poczekaj na jej koniec i ponów.", signinAgain: "Twoje logowanie wygasło. Zaloguj się ponownie.", notStarted: "Serwer nie mógł rozpocząć odpowiedzi (HTTP {code}). Ponów za chwilę.", tooLong: "To pytanie jest za długie. Skróć je i wyślij ponownie.", notFound: "Ta rozmowa nie jest już dostępna.", code: "Kod" },
    de: { title: "Frag die Doku", threads: "Unterhaltungen", new: "Neu", close: "Schließen", signin: "Anmelden", token: "Zugangstoken", save: "Speichern", question: "Deine Frage", placeholder: "Stelle eine Frage zum Produkt…", send: "Senden", stop: "Stopp", thinking: "Arbeite…", writing: "Schreibe die Antwort…", up: "Hilfreich", down: "Nicht hilfreich", comment: "Was war falsch oder fehlte? (optional)", sendComment: "Feedback senden", thanks: "Danke für das Feedback.", error: "Etwas ist schiefgelaufen:", guest: "Gast", signedIn: "Angemeldet als", untitled: "(ohne Titel)", noThreads: "Noch keine Unterhaltungen.", sources: "Quellen", steps: "Schritte", retry: "Erneut versuchen", copy: "Kopieren", copied: "Kopiert", welcome: "Stelle eine Frage zum Produkt: Die Antwort zitiert und verlinkt die Seiten, aus denen sie stammt.", examples: "Zum Beispiel", disclaimer: "Antworten werden aus der Dokumentation erzeugt und können falsch sein: Prüfe die verlinkten Quellen.", queued: "Wird gesendet, sobald die aktuelle Antwort fertig ist.", stopped: "Gestoppt. Diese Antwort ist unvollständig.", cut: "Die Verbindung zum Server brach vor dem Ende der Antwort ab. Diese Antwort ist unvollständig.", failed: "Die Antwort konnte nicht fertiggestellt werden. Bitte versuche es erneut.", offline: "Der Server ist nicht erreichbar. Prüfe deine Verbindung und versuche es erneut.", limit: "Zu viele Fragen auf einmal. Du kannst in {s} s wieder fragen.", limitNow: "Du kannst jetzt wieder fragen.", busyRun: "Eine andere Antwort von dir läuft noch. Warte, bis sie fertig ist, und versuche es erneut.", signinAgain: "Deine Anmeldung ist nicht mehr gültig. Melde dich erneut an.", notStarted: "Der Server konnte die Antwort nicht starten (HTTP {code}). Versuche es gleich erneut.", tooLong: "Diese Frage ist zu lang. Kürze sie und sende sie erneut.", notFound: "Diese Unterhaltung ist nicht mehr verfügbar.", code: "Code" },
    ru: { title: "Спросите документацию", threads: "Беседы", new: "Новая", close: "Закрыть", signin: "Войти", token: "Токен доступа", save: "Сохранить", question: "Ваш вопрос", placeholder: "Задайте вопрос о продукте…", send: "Отправить", stop: "Стоп", thinking: "Работаю…", writing: "Пишу ответ…", up: "Полезно", down: "Бесполезно", comment: "Что было неверно или чего не хватило? (необязательно)", sendComment: "Отправить отзыв", thanks: "Спасибо за отзыв.", error: "Что-то пошло не так:", guest: "Гость", signedIn: "Вы вошли как", untitled: "(без названия)", noThreads: "Бесед пока нет.", sources: "Источники", steps: "Шаги", retry: "Повторить", copy: "Копировать", copied: "Скопировано", welcome: "Задайте вопрос о продукте: ответ цитирует страницы, на которых основан, и ссылается на них.", examples: "Например", disclaimer: "Ответы составляются по документации и могут содержать ошибки: проверяйте указанные источники.", queued: "Будет отправлено, когда закончится текущий ответ.", stopped: "Остановлено. Этот ответ неполный.", cut: "Соединение с сервером прервалось до конца ответа. Этот ответ неполный.", failed: "Не удалось закончить ответ. Попробуйте ещё раз.", offline: "Сервер недоступен. Проверьте соединение и повторите.", limit: "Слишком много вопросов сразу. Спросить снова можно через {s} с.", limitNow: "Теперь можно спросить снова.", busyRun: "Другой ваш ответ ещё готовится. Дождитесь его и повторите.", signinAgain: "Ваш вход больше не действителен. Войдите снова.", notStarted: "Сервер не смог начать ответ (HTTP {code}). Повторите чуть позже.", tooLong: "Вопрос слишком длинный. Сократите его и отправьте снова.", notFound: "Эта беседа больше недоступна.", code: "Код" },
    es: { title: "Pregunta a la documentación", threads: "Conversaciones", new: "Nueva", close: "Cerrar", signin: "Iniciar sesión", token: "Token de acceso", save: "Guardar", question: "Tu pregunta", placeholder: "Haz una pregunta sobre el producto…", send: "Enviar", stop: "Detener", thinking: "Trabajando…", writing: "Escribiendo la respuesta…", up: "Útil", down: "No útil", comment: "¿Qué estaba mal o faltaba? (opcional)", sendComment: "Enviar opinión", thanks: "Gracias por tu opinión.", error: "Algo salió mal:", guest: "Invitado", signedIn: "Sesión iniciada como", untitled: "(sin título)", noThreads: "Aún no hay conversaciones.", sources: "Fuentes", steps: "Pasos", retry: "Reintentar", copy: "Copiar", copied: "Copiado", welcome: "Haz una pregunta sobre el producto: la respuesta cita y enlaza las páginas de las que viene.", examples: "Por ejemplo", disclaimer: "Las respuestas se generan a partir de la documentación y pueden tener errores: revisa las fuentes enlazadas.", queued: "Se enviará cuando termine la respuesta actual.", stopped: "Detenida. Esta respuesta está incompleta.", cut: "Se perdió la conexión con el servidor antes de terminar la respuesta. Esta respuesta está incompleta.", failed: "No se pudo terminar la respuesta. Inténtalo de nuevo.", offline: "No se puede contactar con el servidor. Revisa tu conexión y reintenta.", limit: "Demasiadas preguntas ahora mismo. Podrás preguntar de nuevo en {s} s.", limitNow: "Ya puedes preguntar de nuevo.", busyRun: "Otra respuesta tuya sigue en curso. Espera a que termine y reintenta.", signinAgain: "Tu sesión ya no es válida. Inicia sesión de nuevo.", notStarted: "El servidor no pudo empezar la respuesta (HTTP {code}). Reintenta en un momento.", tooLong: "Esta pregunta es demasiado larga. Acórtala y envíala de nuevo.", notFound: "Esta conversación ya no está disponible.", code: "Código" },
  };
  const params = new URLSearchParams(location.search);
  const pick = (params.get("lang") || navigator.language || "en").toLowerCase().slice(0, 2);
  const lang = I18N[pick] ? pick : "en";
  const T = I18N[lang];
  const fill = (s, vars) => s.replace(/\{(\w+)\}/g, (m, k) => String(vars[k]));
  const graph = /^[\w-]{1,64}$/.test(params.get("graph") || "") ? params.get("graph") : "docs_agent";
  const embed = params.get("embed") === "1";
  // The parent page's origin (C1): postMessage goes only there, and only its messages are read.
  const parentOrigin = (() => {
    try { const o = new URL(params.get("origin") || "").origin; return o === "null" ? null : o; } catch (e) { return null; }
  })();
  const $ = (id) => document.getElementById(id);
  const store = {
    get: (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set: (k, v) => { try { v == null ? localStorage.removeItem(k) : localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  };
  const lastThreadKey = "da-last-thread:" + (parentOrigin || "page");
  const state = { threadId: null, busy: false, me: null, lastRunId: null, answers: 0, queue: [], askedOn: null, embed, run: null, blockedUntil: 0 };
  window.docsAgentChat = state; // read by the browser tests and handy in the console

  // --- look: language, theme (light | dark | auto), accent colour -------------------------------
  document.documentElement.lang = lang;
  const themeParam = params.get("theme");
  const darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  function applyTheme() {
    const dark = themeParam === "dark" || (themeParam === "auto" && darkQuery && darkQuery.matches);
    document.documentElement.dataset.theme = dark ? "dark" : "light";
  }
  applyTheme();
  if (themeParam === "auto" && darkQuery) darkQuery.addEventListener("change", applyTheme);
  const accent = params.get("accent");
  if (accent && accent.length < 64 && window.CSS && CSS.supports("color", accent) && !/url\(|var\(/i.test(accent)) {
    document.documentElement.style.setProperty("--accent", accent);
  }
  if (embed) document.documentElement.classList.add("embed");
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = T[el.dataset.i18n]; });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = T[el.dataset.i18nPlaceholder]; });
  document.querySelectorAll("[data-i18n-label]").forEach((el) => { el.setAttribute("aria-label", T[el.dataset.i18nLabel]); });
  document.title = T.title;

  // --- identity: a saved token, else a guest token when the server offers guest mode ---------
  class HttpError extends Error {
    constructor(status, retryAfter, detail) { super("HTTP " + status); this.status = status; this.retryAfter = retryAfter; this.detail = detail; }
  }
  function retryAfterOf(r) {
    const v = r.headers.get("retry-after");
    if (!v) return null;
    const s = /^\d+$/.test(v.trim()) ? parseInt(v, 10) : Math.ceil((Date.parse(v) - Date.now()) / 1000);
    return Number.isFinite(s) ? Math.max(1, Math.min(s, 24 * 3600)) : null;
  }
  async function guestToken(fresh) {
    const saved = JSON.parse(store.get("da-guest") || "null");
    if (!fresh && saved && saved.exp > Date.now() + 60000) return saved.token;
    const r = await fetch("/chat/api/guest", { method: "POST" });
    if (!r.ok) throw new HttpError(r.status, retryAfterOf(r));
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
    return r;
  }
  async function json(path, opts) {
    const r = await api(path, opts);
    if (!r.ok) throw new HttpError(r.status, retryAfterOf(r));
    return r.json();
  }
  // Every failure in words a reader can act on: never an exception name or a server's raw text.
  function explain(e) {
    if (e instanceof HttpError) {
      if (e.status === 429) return e.retryAfter ? fill(T.limit, { s: e.retryAfter }) : T.busyRun;
      if (e.status === 401 || e.status === 403) return T.signinAgain;
      if (e.status === 404) return T.notFound;
      if (e.status === 413 || e.status === 422) return T.tooLong;
      return fill(T.notStarted, { code: e.status });
    }
    return T.offline; // fetch's TypeError: no connection, server gone
  }

  // --- rendering: markdown-it (no raw HTML) → DOMPurify → links, citations, code blocks --------
  const SAFE_URL = /^(?:https?:|mailto:|\/(?!\/)|#|\.{0,2}\/|[^a-z:]*$)/i;
  // markdown-it and DOMPurify (53 KB gzip) load when the reader starts typing, opens a thread or
  // an answer arrives, not with the page: the widget opened and ready stays light. Until they are
  // here an answer shows as escaped plain text, and is rendered again the moment they are.
  const purifyOptions = { ALLOWED_URI_REGEXP: SAFE_URL, FORBID_TAGS: ["style", "form", "input", "button", "img"], FORBID_ATTR: ["style"] };
  let md = null;
  let rendererLoading = null;
  const pendingRenders = [];
  function loadScript(href) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = href;
      script.onload = resolve;
      script.onerror = () => reject(new Error("could not load " + href));
      document.head.appendChild(script);
    });
  }
  function setupRenderer() {
    md = window.markdownit({ html: false, linkify: true, typographer: false, breaks: false });
    // Images become links to them: the page's CSP loads no image from elsewhere, and a model's
    // image link is more useful than an empty box.
    md.renderer.rules.image = (tokens, idx, options, env, self) => {
      const t = tokens[idx];
      const alt = self.renderInlineAsText(t.children || [], options, env) || t.attrGet("src");
      return '<a href="' + md.utils.escapeHtml(t.attrGet("src") || "") + '">' + md.utils.escapeHtml(alt) + "</a>";
    };
    // Table column alignment comes as style="text-align:…", which the CSP (no inline styles) would
    // drop: it becomes a class instead.
    window.DOMPurify.addHook("uponSanitizeAttribute", (node, data) => {
      if (data.attrName !== "style") return;
      const align = /^text-align:\s*(left|right|center);?$/.exec((data.attrValue || "").trim());
      if (align) node.classList.add("align-" + align[1]);
      data.keepAttr = false;
    });
  }
  function loadRenderer() {
    if (!rendererLoading) {
      const hrefs = [...document.querySelectorAll('link[rel="docs-agent-renderer"]')].map((l) => l.getAttribute("href"));
      rendererLoading = Promise.all(hrefs.map(loadScript)).then(() => {
        setupRenderer();
        state.rendererReady = true;
        pendingRenders.splice(0).forEach((render) => render());
      });
      rendererLoading.catch(() => { rendererLoading = null; }); // asked again at the next need
    }
    return rendererLoading;
  }
  state.loadRenderer = loadRenderer;
  const esc = (t) => t.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  function plainText(text) {
    return String(text || "").split(/\n{2,}/).map((p) => "<p>" + esc(p).replace(/\n/g, "<br>") + "</p>").join("");
  }
  function markdown(text) {
    if (!md) { loadRenderer(); return plainText(text); }
    return window.DOMPurify.sanitize(md.render(String(text || "")), purifyOptions);
  }
  // Render `text` into `body`, then `after()` (links, cards, code blocks) once it is Markdown.
  function renderInto(body, text, after) {
    body.innerHTML = markdown(text);
    if (md) { after(); return; }
    pendingRenders.push(() => { body.innerHTML = markdown(text); after(); });
  }
  state.markdown = markdown; // the renderer, for the browser tests
  const CODE_REF = /^([\w.@~+-]+\/)*[\w.@~+-]+\.\w+:\d+(?:-\d+)?$/; // path:start-end
  const KB_REF = /\bKB[ -]([\w-]{1,64})\b/g;
  function sourceHref(src) {
    return src.url && /^https?:\/\//i.test(src.url) ? src.url : "/chat/source?ref=" + encodeURIComponent(src.ref);
  }
  function shortLabel(url) {
    try {
      const u = new URL(url);
      const parts = u.pathname.split("/").filter(Boolean);
      let last = decodeURIComponent(parts[parts.length - 1] || u.hostname).replace(/\.(html?|md)$/i, "").replace(/[-_]+/g, " ");
      if (u.hash.length > 1) last += " › " + decodeURIComponent(u.hash.slice(1)).replace(/[-_]+/g, " ");
      return last.length > 48 ? last.slice(0, 47) + "…" : last;
    } catch (e) { return url.slice(0, 48); }
  }
  function externalLink(a) {
    if (/^https?:/i.test(a.getAttribute("href") || "")) { a.target = "_blank"; a.rel = "noopener noreferrer"; }
  }
  // The answer's HTML, decorated: links open safely; a bare URL, `path:lines` or "KB id" citation
  // becomes a short link (titled from the source cards when the graph sent them).
  function decorate(root, sources) {
    const byRef = new Map((sources || []).map((s) => [s.ref, s]));
    root.querySelectorAll("a[href]").forEach((a) => {
      externalLink(a);
      const href = a.getAttribute("href");
      if (a.textContent.trim() === href || a.textContent.trim() === href.replace(/^https?:\/\//, "")) {
        const src = byRef.get(href);
        a.dataset.raw = a.textContent;
        a.textContent = src && src.title ? src.title : shortLabel(href);
        a.title = href;
        a.classList.add("cite");
      }
    });
    root.querySelectorAll("code").forEach((c) => {
      if (c.parentElement.tagName === "PRE" || c.closest("a") || !CODE_REF.test(c.textContent.trim())) return;
      const ref = c.textContent.trim();
      const src = byRef.get(ref) || { ref, url: null };
      const a = document.createElement("a");
      a.href = sourceHref(src);
      a.className = "cite code-cite";
      a.title = src.title ? src.title + " (" + ref + ")" : ref;
      externalLink(a);
      c.replaceWith(a);
      a.appendChild(c);
    });
    if (byRef.size) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      const hits = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.parentElement.closest("a, code, pre") && /\bKB[ -]/.test(n.nodeValue)) hits.push(n);
      }
      hits.forEach((n) => {
        const frag = document.createDocumentFragment();
        let at = 0;
        n.nodeValue.replace(KB_REF, (m, id, offset) => {
          const src = byRef.get("KB " + id);
          if (!src) return m;
          frag.append(n.nodeValue.slice(at, offset));
          const a = document.createElement("a");
          a.href = sourceHref(src);
          a.className = "cite";
          a.textContent = m;
          a.title = src.title || m;
          externalLink(a);
          frag.append(a);
          at = offset + m.length;
          return m;
        });
        if (at) { frag.append(n.nodeValue.slice(at)); n.replaceWith(frag); }
      });
    }
    root.querySelectorAll("table").forEach((t) => {
      if (t.parentElement.classList.contains("table")) return;
      const wrap = document.createElement("div");
      wrap.className = "table";
      wrap.tabIndex = 0; // scrollable by keyboard
      t.replaceWith(wrap);
      wrap.appendChild(t);
    });
    root.querySelectorAll("pre").forEach((pre) => {
      pre.tabIndex = 0; // scrollable by keyboard (axe: scrollable-region-focusable)
    });
  }
  // Code blocks, once the answer is complete: a bar with the language and a copy button, and
  // highlighting by highlight.js (loaded on first use, one grammar per language).
  const HL = ["python", "javascript", "typescript", "bash", "shell", "json", "yaml", "xml", "ini", "sql", "dockerfile", "css", "diff", "plaintext"];
  const HL_ALIASES = { py: "python", js: "javascript", jsx: "javascript", ts: "typescript", tsx: "typescript", sh: "bash", zsh: "bash", console: "shell", html: "xml", toml: "ini", yml: "yaml", text: "plaintext", txt: "plaintext", docker: "dockerfile" };
  let hljsCore = null;
  const grammars = {};
  async function highlighter(name) {
    if (!hljsCore) hljsCore = import("/chat/static/vendor/highlight/core.min.js").then((m) => m.default);
    const hljs = await hljsCore;
    if (!grammars[name]) {
      grammars[name] = import("/chat/static/vendor/highlight/languages/" + name + ".min.js").then((m) => hljs.registerLanguage(name, m.default));
    }
    await grammars[name];
    return hljs;
  }
  function codeBlocks(root) {
    root.querySelectorAll("pre > code").forEach((code) => {
      const pre = code.parentElement;
      if (pre.parentElement.classList.contains("code")) return;
      const given = ((/\blanguage-([\w+-]+)/.exec(code.className) || [])[1] || "").toLowerCase();
      const name = HL_ALIASES[given] || given;
      const box = document.createElement("div");
      box.className = "code";
      const bar = document.createElement("div");
      bar.className = "code-bar";
      const label = document.createElement("span");
      label.textContent = given || T.code;
      const copy = document.createElement("button");
      copy.type = "button";
      copy.className = "copy";
      copy.textContent = T.copy;
      copy.setAttribute("aria-label", T.copy + " " + (given || T.code));
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(code.textContent); }
        catch (e) { const r = document.createRange(); r.selectNodeContents(code); const s = getSelection(); s.removeAllRanges(); s.addRange(r); document.execCommand("copy"); }
        copy.textContent = T.copied;
        setTimeout(() => { copy.textContent = T.copy; }, 1500);
      });
      bar.append(label, copy);
      pre.replaceWith(box);
      box.append(bar, pre);
      if (HL.includes(name)) {
        highlighter(name).then((hljs) => { if (!code.dataset.highlighted) hljs.highlightElement(code); box.dataset.highlighted = name; })
          .catch(() => { /* plain code is still code */ });
      }
    });
  }
  // Sources as cards under the answer: the graph's `additional_kwargs.sources` (contract C2), else
  // the citations found in the text (page URLs, `path:lines`).
  function sourcesFromText(root) {
    const seen = new Set();
    const out = [];
    root.querySelectorAll("a[href]").forEach((a) => {
      const href = a.getAttribute("href");
      const code = a.classList.contains("code-cite");
      if (!code && !/^https?:/i.test(href)) return;
      const ref = code ? a.textContent.trim() : href;
      if (seen.has(ref)) return;
      seen.add(ref);
      const title = code ? ref : a.classList.contains("cite") ? a.textContent : a.title || a.textContent;
      out.push({ ref, kind: code ? "code" : "doc", title, section: [], url: code ? null : href });
    });
    return out;
  }
  function sourceCards(el, sources) {
    if (!sources.length) return;
    const box = document.createElement("div");
    box.className = "sources";
    const h = document.createElement("p");
    h.className = "sources-title";
    h.textContent = T.sources;
    const list = document.createElement("ul");
    sources.slice(0, 12).forEach((src) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.className = "source-card";
      a.href = sourceHref(src);
      externalLink(a);
      const title = document.createElement("span");
      title.className = "source-title";
      title.textContent = src.title || src.ref;
      a.appendChild(title);
      const trail = (src.section || []).filter(Boolean);
      const where = document.createElement("span");
      where.className = "source-where";
      let host = src.kind === "kb" ? "KB" : src.kind === "code" ? src.ref : "";
      try { if (src.url) host = new URL(src.url).hostname; } catch (e) { /* keep the kind */ }
      where.textContent = [host, ...trail].filter(Boolean).join(" › ");
      if (where.textContent) a.appendChild(where);
      a.title = src.ref;
      li.appendChild(a);
      list.appendChild(li);
    });
    box.append(h, list);
    el.querySelector(".answer-end").before(box);
  }

  function textOf(msg) {
    const c = msg && msg.content;
    if (typeof c === "string") return c;
    return Array.isArray(c) ? c.map((b) => (typeof b === "string" ? b : b.text || "")).join("") : "";
  }
  const isAi = (m) => m && (m.type === "ai" || m.type === "AIMessageChunk");
  const log = $("log");
  const welcome = $("welcome");
  function showWelcome() { welcome.hidden = log.children.length > 0; }
  function bubble(cls) {
    const el = document.createElement("div");
    el.className = "msg " + cls;
    log.appendChild(el);
    showWelcome();
    return el;
  }
  function addUser(text) {
    const el = bubble("user");
    el.textContent = text;
    stick(true);
    return el;
  }
  // Keep the newest part in view while the reader is at the bottom; never yank them back up.
  let atBottom = true;
  log.addEventListener("scroll", () => { atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40; });
  function stick(force) { if (force || atBottom) { log.scrollTop = log.scrollHeight; atBottom = true; } }
  // A phone turned, a keyboard opened, the widget resized: still at the bottom if we were.
  if (window.ResizeObserver) new ResizeObserver(() => stick()).observe(log);
  function botBubble() {
    const el = bubble("bot");
    const body = document.createElement("div");
    body.className = "body";
    const end = document.createElement("div");
    end.className = "answer-end";
    el.append(body, end);
    return el;
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
    form.className = "comment";
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
        try { await cast(vote, ""); form.hidden = false; form.dataset.vote = vote; area.focus(); status(""); stick(); }
        catch (e) { status(explain(e)); }
      });
      buttons[vote] = b;
      box.appendChild(b);
    });
    send.addEventListener("click", async () => {
      try { await cast(form.dataset.vote, area.value.trim()); form.hidden = true; status(T.thanks); el.dataset.commented = "true"; }
      catch (e) { status(explain(e)); }
    });
    box.appendChild(form);
    el.querySelector(".answer-end").appendChild(box);
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
    // Last in the answer, next to the question box: Shift+Tab from the box reaches them first.
    el.querySelector(".answer-end").after(box);
  }
  // A reader-facing notice on an answer that did not end well: words, a Retry button, and a
  // countdown when the server said when to come back.
  function notice(el, kind, text, retry, retryAfter) {
    el.dataset.state = kind;
    el.classList.add("incomplete");
    const box = document.createElement("div");
    box.className = "notice";
    box.setAttribute("role", "alert");
    const p = document.createElement("span");
    p.textContent = text;
    box.appendChild(p);
    if (retry) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "retry";
      b.textContent = T.retry;
      b.addEventListener("click", retry);
      box.appendChild(b);
      if (retryAfter) countdown(b, retryAfter);
    }
    el.querySelector(".answer-end").before(box);
    stick();
  }
  function countdown(button, seconds) {
    const until = Date.now() + seconds * 1000;
    button.disabled = true;
    const tick = () => {
      const left = Math.ceil((until - Date.now()) / 1000);
      if (left > 0) { button.textContent = T.retry + " (" + left + ")"; button.dataset.countdown = String(left); setTimeout(tick, 250); return; }
      button.textContent = T.retry;
      button.disabled = false;
      delete button.dataset.countdown;
    };
    tick();
  }
  function finishAnswer(el, msg, runId, last) {
    el.dataset.messageId = msg.id || "";
    el.dataset.runId = runId || "";
    const kw = msg.additional_kwargs || {};
    const body = el.querySelector(".body");
    renderInto(body, textOf(msg), () => { decorate(body, kw.sources); codeBlocks(body); });
    const failure = kw.failure;
    if (failure && typeof failure === "object") {
      // The graph ended on a model or engine failure (contract C2): its message, Retry, countdown.
      const retryAfter = Number.isFinite(failure.retry_after_s) && failure.retry_after_s > 0 ? Math.min(failure.retry_after_s, 3600) : null;
      el.dataset.failure = String(failure.kind || "failed");
      const question = el.dataset.question || questionBefore(el);
      notice(el, "failed", String(failure.message || T.failed), question ? () => retryFrom(el, question) : null, retryAfter);
      return null;
    }
    const sources = Array.isArray(kw.sources) && kw.sources.length ? kw.sources : sourcesFromText(body);
    sourceCards(el, sources.filter((s) => s && typeof s.ref === "string"));
    if (msg.id) votes(el, msg.id, runId);
    if (last) suggestions(el, kw.suggests);
    return kw.suggests;
  }
  // One finished answer message as the graph stores it, shown in a new bubble (tests, console).
  state.showAnswer = (msg) => { const el = botBubble(); finishAnswer(el, msg, null, true); return el; };
  function questionBefore(el) {
    const prev = el.previousElementSibling;
    return prev && prev.classList.contains("user") ? prev.textContent : "";
  }
  // Retry a failed or cut answer: drop it and its question from the view, ask the question again.
  function retryFrom(el, question) {
    const prev = el.previousElementSibling;
    if (prev && prev.classList.contains("user")) prev.remove();
    el.remove();
    ask(question);
  }
  const statusEl = $("status");
  function status(text) { statusEl.textContent = text; }

  // --- one question: create the thread if needed, stream the run, render as it comes ----------
  // The conversation's thread, created once (also ahead of time, as the reader types the first
  // question of a new conversation, so the answer does not wait for it).
  let threadPromise = null;
  function ensureThread() {
    if (state.threadId) return Promise.resolve(state.threadId);
    if (!threadPromise) {
      threadPromise = json("/threads", { method: "POST", body: JSON.stringify({ metadata: { user_id: state.me, graph_id: graph } }) })
        .then((t) => {
          if (!state.threadId) { state.threadId = t.thread_id; store.set(lastThreadKey, state.threadId); }
          return state.threadId;
        })
        .finally(() => { threadPromise = null; });
    }
    return threadPromise;
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
  function setBusy(busy) {
    state.busy = busy;
    $("stop").hidden = !busy;
    $("ask").classList.toggle("busy", busy);
  }
  function runMetadata() {
    const meta = { user_id: state.me, client: embed ? "widget" : "page" };
    if (embed && state.askedOn) meta.asked_on = state.askedOn;
    return meta;
  }
  function submitQuestion(text) {
    const question = (text || "").trim();
    if (!question) return;
    if (state.busy) {
      // Kept, shown, and sent when the current answer ends (or is stopped).
      const el = addUser(question);
      el.classList.add("queued");
      const note = document.createElement("span");
      note.className = "queued-note";
      note.textContent = T.queued;
      el.appendChild(note);
      state.queue.push({ question, el });
      return;
    }
    ask(question);
  }
  async function ask(question, userEl) {
    question = (question || "").trim();
    if (!question) return;
    loadRenderer().catch(() => { /* the answer shows as plain text; asked again */ });
    if (state.busy) { submitQuestion(question); return; }
    setBusy(true);
    document.querySelectorAll(".suggests").forEach((s) => s.remove());
    const user = userEl || addUser(question);
    status("");
    const controller = new AbortController();
    const run = { id: null, stopped: false, controller };
    state.run = run;
    let el = null;
    try {
      const threadId = await ensureThread();
      const r = await api("/threads/" + threadId + "/runs/stream", {
        method: "POST",
        signal: controller.signal,
        body: JSON.stringify({ assistant_id: graph, input: { messages: [{ role: "user", content: question }] }, stream_mode: ["messages", "custom"], stream_subgraphs: true, on_disconnect: "cancel", metadata: runMetadata() }),
      });
      if (!r.ok) throw new HttpError(r.status, retryAfterOf(r));
      el = botBubble();
      el.dataset.question = question;
      el.setAttribute("aria-busy", "true");
      const working = document.createElement("div");
      working.className = "working";
      working.setAttribute("role", "status");
      const workingText = document.createElement("span");
      workingText.textContent = T.thinking;
      working.appendChild(workingText);
      el.prepend(working);
      const steps = document.createElement("details");
      steps.className = "steps";
      steps.hidden = true;
      const stepsTitle = document.createElement("summary");
      const progress = document.createElement("ul");
      progress.className = "progress";
      steps.append(stepsTitle, progress);
      working.after(steps);
      const body = el.querySelector(".body");
      stick(true);
      let chunks = 0, final = null, answerId = null, pending = null, errored = false;
      const paint = () => { pending = null; body.innerHTML = markdown(pendingText); decorate(body); stick(); };
      let pendingText = "";
      for await (const [event, data] of sse(r)) {
        if (event === "metadata" && data.run_id) { run.id = data.run_id; state.lastRunId = run.id; }
        else if (event.startsWith("messages/partial") && !event.includes("|")) {
          const msg = (data || []).find((m) => isAi(m) && !(m.tool_calls || []).length);
          const text = msg && textOf(msg);
          if (text) {
            if (answerId && msg.id !== answerId) chunks = 0; // a new model call: its text replaces the last
            answerId = msg.id;
            chunks += 1;
            el.dataset.chunks = String(chunks);
            pendingText = text;
            if (chunks === 1) { workingText.textContent = T.writing; paint(); } // first words at once
            else if (!pending) pending = requestAnimationFrame(paint);
          }
        } else if (event.startsWith("custom")) {
          const fb = data && data.name === "tool_feedback" && data.data && data.data.feedback;
          if (fb) {
            const li = document.createElement("li");
            li.textContent = fb;
            progress.appendChild(li);
            if (!chunks) workingText.textContent = fb;
            steps.hidden = false;
            stepsTitle.textContent = T.steps + " (" + progress.children.length + ")";
          }
        } else if (event === "error") { errored = true; }
      }
      if (pending) { cancelAnimationFrame(pending); paint(); }
      // The answer as the thread keeps it, with what the graph attached after streaming it
      // (suggests, sources, failure). Read once at the end rather than streamed as `values`,
      // which would send the whole state, tool results included, after every step.
      if (!errored) final = (await json("/threads/" + threadId + "/state")).values;
      working.remove();
      const messages = (final && final.messages) || [];
      const last = messages[messages.length - 1];
      const humanAt = messages.map((m) => m.type).lastIndexOf("human");
      const answered = !errored && isAi(last) && !(last.tool_calls || []).length && humanAt >= 0 && messages.length - 1 > humanAt && (textOf(last) || (last.additional_kwargs || {}).failure);
      if (answered) {
        finishAnswer(el, last, run.id, true);
        state.answers += 1;
        el.dataset.state = el.dataset.state || "done";
      } else {
        throw new Error(errored ? "run error event" : "stream ended early");
      }
      stick();
      loadThreads();
    } catch (e) {
      const stoppedByReader = run.stopped;
      if (!el) {
        // Nothing started: no empty bubble. The question goes back into the box.
        user.remove();
        showWelcome();
        const q = $("question");
        if (!q.value.trim()) q.value = question;
        // A limit without Retry-After (not every engine passes the header on) waits 5 s.
        if (e instanceof HttpError && e.status === 429) blockFor(e.retryAfter || 5);
        else status(explain(e));
      } else {
        const w = el.querySelector(".working");
        if (w) w.remove();
        el.querySelector(".body").classList.add("cut");
        const again = () => retryFrom(el, question);
        if (stoppedByReader) notice(el, "stopped", T.stopped, again);
        else if (e instanceof HttpError) notice(el, "interrupted", explain(e), again, e.status === 429 ? e.retryAfter : null);
        else notice(el, "interrupted", e.message === "run error event" ? T.failed : T.cut, again);
      }
    } finally {
      if (el) el.removeAttribute("aria-busy");
      state.run = null;
      setBusy(false);
      const next = state.queue.shift();
      if (next) {
        next.el.classList.remove("queued");
        const n = next.el.querySelector(".queued-note");
        if (n) n.remove();
        if (state.blockedUntil > Date.now()) { next.el.remove(); $("question").value = next.question; }
        else setTimeout(() => ask(next.question, next.el), 0);
      }
    }
  }
  // Stop: cancel the run on the server (runs.cancel), then stop reading.
  async function stop() {
    const run = state.run;
    if (!run || run.stopped) return;
    run.stopped = true;
    try {
      if (run.id && state.threadId) await api("/threads/" + state.threadId + "/runs/" + run.id + "/cancel?wait=0&action=interrupt", { method: "POST" });
    } catch (e) { /* the abort below still disconnects, and on_disconnect=cancel stops the run */ }
    run.controller.abort();
  }
  // A rate limit (HTTP 429 with Retry-After): count down, keep the question, send is back at 0.
  function blockFor(seconds) {
    state.blockedUntil = Date.now() + seconds * 1000;
    const send = $("send");
    send.disabled = true;
    const tick = () => {
      const left = Math.ceil((state.blockedUntil - Date.now()) / 1000);
      if (left > 0) { status(fill(T.limit, { s: left })); statusEl.dataset.countdown = String(left); setTimeout(tick, 250); }
      else { send.disabled = false; status(T.limitNow); delete statusEl.dataset.countdown; }
    };
    tick();
  }

  // --- the user's own threads: search by owner metadata, reopen from the thread's state -------
  async function loadThreads() {
    const list = $("threads");
    let threads = [];
    try {
      threads = await json("/threads/search", { method: "POST", body: JSON.stringify({ metadata: { user_id: state.me }, limit: 20, sort_by: "updated_at", sort_order: "desc" }) });
    } catch (e) { list.textContent = explain(e); return; }
    list.textContent = "";
    if (!threads.length) { const li = document.createElement("li"); li.className = "muted"; li.textContent = T.noThreads; list.appendChild(li); }
    // A thread made ahead of time that never got its question is not a conversation (engines
    // that list threads without their values keep them all).
    const unused = (t) => t.thread_id !== state.threadId && t.values && Array.isArray(t.values.messages) && !t.values.messages.length;
    threads = threads.filter((t) => !unused(t));
    threads.forEach((t) => {
      const first = ((t.values || {}).messages || []).find((m) => m.type === "human");
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.threadId = t.thread_id;
      b.textContent = (first && textOf(first).slice(0, 80)) || T.untitled;
      b.setAttribute("aria-current", String(t.thread_id === state.threadId));
      b.addEventListener("click", () => openThread(t.thread_id).catch((e) => status(explain(e))));
      li.appendChild(b);
      list.appendChild(li);
    });
  }
  async function openThread(id, quiet) {
    loadRenderer().catch(() => { /* plain text until it loads */ });
    const s = await json("/threads/" + id + "/state");
    state.threadId = id;
    store.set(lastThreadKey, id);
    log.textContent = "";
    const messages = (s.values || {}).messages || [];
    messages.forEach((m, i) => {
      if (m.type === "human") addUser(textOf(m));
      else if (isAi(m) && !(m.tool_calls || []).length && (textOf(m) || (m.additional_kwargs || {}).failure)) {
        finishAnswer(botBubble(), m, null, i === messages.length - 1);
      }
    });
    showWelcome();
    closeSidebar();
    if (!quiet) loadThreads();
    stick(true);
    $("question").focus();
  }

  // --- first screen: welcome, example questions, disclaimer (query params > server > defaults) --
  function firstScreen() {
    $("welcome-text").textContent = (params.get("welcome") || "").slice(0, 300) || config.welcome || T.welcome;
    const fromQuery = (params.get("examples") || "").split("|").map((s) => s.trim().slice(0, 200)).filter(Boolean);
    const examples = (fromQuery.length ? fromQuery : config.examples || []).slice(0, 4);
    const list = $("examples");
    list.textContent = "";
    examples.forEach((q) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = q;
      b.addEventListener("click", () => submitQuestion(q));
      li.appendChild(b);
      list.appendChild(li);
    });
    $("examples-title").hidden = !examples.length;
    $("disclaimer").textContent = config.disclaimer || T.disclaimer;
    showWelcome();
  }

  // --- wiring ---------------------------------------------------------------------------------
  const sidebar = $("sidebar"), toggle = $("toggle-threads"), backdrop = $("backdrop");
  const drawerOpen = () => sidebar.classList.contains("open");
  function closeSidebar(refocus) {
    const wasOpen = drawerOpen();
    sidebar.classList.remove("open");
    backdrop.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
    if (wasOpen && refocus) toggle.focus();
  }
  toggle.addEventListener("click", () => {
    const open = !drawerOpen();
    sidebar.classList.toggle("open", open);
    backdrop.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) { const first = sidebar.querySelector("button"); if (first) first.focus(); }
  });
  backdrop.addEventListener("click", () => closeSidebar(true));
  $("close-threads").addEventListener("click", () => closeSidebar(true));
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || e.defaultPrevented) return; // e.g. instant search closed its list
    if (drawerOpen()) { closeSidebar(true); return; }
    const menu = document.querySelector("details[open]");
    if (menu && menu.contains(document.activeElement)) { menu.open = false; return; }
    if (embed && window.parent !== window) window.parent.postMessage({ type: "docs-agent:close" }, parentOrigin || "*");
  });
  $("ask").addEventListener("submit", (e) => {
    e.preventDefault();
    if ($("send").disabled) return;
    const q = $("question");
    const v = q.value;
    q.value = "";
    submitQuestion(v);
  });
  $("question").addEventListener("keydown", (e) => {
    if (e.defaultPrevented) return; // instant search (C4) took this Enter for a result
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); $("ask").requestSubmit(); }
  });
  $("question").addEventListener("input", () => {
    loadRenderer().catch(() => { /* asked again when an answer needs it */ });
    if (state.ready && !state.threadId && !state.busy) ensureThread().catch(() => { /* said when sent */ });
  });
  $("stop").addEventListener("click", stop);
  $("new-thread").addEventListener("click", () => {
    state.threadId = null;
    store.set(lastThreadKey, null);
    log.textContent = "";
    showWelcome();
    closeSidebar();
    loadThreads();
    $("question").focus();
  });
  $("save-token").addEventListener("click", () => { store.set("da-token", $("token").value.trim() || null); $("token").value = ""; start(); });
  // The widget (C1): it says when its panel opens and which docs page the reader is on.
  window.addEventListener("message", (e) => {
    if (!embed || !parentOrigin || e.origin !== parentOrigin || e.source !== window.parent) return;
    const m = e.data;
    if (!m || m.type !== "docs-agent:open") return;
    const url = m.page && typeof m.page.url === "string" ? m.page.url.slice(0, 2000) : null;
    if (url && /^https?:\/\//i.test(url)) state.askedOn = url;
    $("question").focus();
  });

  async function start() {
    try {
      config = await (await fetch("/chat/api/config")).json();
      firstScreen();
      const me = await json("/chat/api/whoami");
      if (me.dev) {
        // Dev mode trusts metadata.user_id as sent: one random id per browser keeps its threads apart.
        let local = store.get("da-local-user");
        if (!local) { local = "browser-" + Math.random().toString(36).slice(2, 12); store.set("da-local-user", local); }
        state.me = local;
      } else state.me = me.identity;
      state.guest = !!me.guest;
      $("who").textContent = me.guest ? T.guest : T.signedIn + " " + me.identity;
      // Guests and the widget never see sign-in controls; `?signin=1` shows them to a team member.
      $("signin").hidden = (embed || me.guest) && params.get("signin") !== "1";
      const last = embed ? store.get(lastThreadKey) : null;
      if (last && !state.threadId) {
        try { await openThread(last, true); } catch (e) { store.set(lastThreadKey, null); }
      }
      state.ready = true;
      await loadThreads();
    } catch (e) { status(explain(e)); }
  }
  firstScreen();
  start();
  if (embed) {
    $("question").focus();
    if (window.parent !== window) window.parent.postMessage({ type: "docs-agent:ready" }, parentOrigin || "*");
  }
})();
