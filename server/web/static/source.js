// docs-agent source viewer: /chat/source?ref=<a citation as written in an answer>.
// Fetches /chat/api/source with the token the chat page keeps on this origin (or a guest
// token when the server offers guest mode) and shows the cited section, article or code lines.
// Page and article HTML comes rendered and escaped by the server (markdown-it, raw HTML off);
// code lines and every other string go into text nodes.
"use strict";
(function () {
  const I18N = {
    en: { doc: "Documentation", kb: "Support article", code: "Code", open: "Open on the site", whole: "Whole page", chat: "Back to the chat", loading: "Loading…", lines: "Lines {a}–{b} of {n}", cutLines: "Only the first {a} cited lines are shown.", cutPage: "The page is cut here; open it on the site or read it in parts.", signin: "Sign in on the chat page to open sources.", missing: "This source is not available.", failed: "The source could not be loaded:" },
    pl: { doc: "Dokumentacja", kb: "Artykuł pomocy", code: "Kod", open: "Otwórz na stronie", whole: "Cała strona", chat: "Wróć do czatu", loading: "Wczytywanie…", lines: "Wiersze {a}–{b} z {n}", cutLines: "Pokazano tylko pierwsze {a} cytowanych wierszy.", cutPage: "Strona jest tu ucięta; otwórz ją na stronie lub czytaj częściami.", signin: "Zaloguj się na stronie czatu, aby otwierać źródła.", missing: "To źródło jest niedostępne.", failed: "Nie udało się wczytać źródła:" },
    de: { doc: "Dokumentation", kb: "Hilfeartikel", code: "Code", open: "Auf der Website öffnen", whole: "Ganze Seite", chat: "Zurück zum Chat", loading: "Wird geladen…", lines: "Zeilen {a}–{b} von {n}", cutLines: "Nur die ersten {a} zitierten Zeilen werden gezeigt.", cutPage: "Die Seite ist hier abgeschnitten; öffne sie auf der Website.", signin: "Melde dich auf der Chat-Seite an, um Quellen zu öffnen.", missing: "Diese Quelle ist nicht verfügbar.", failed: "Die Quelle konnte nicht geladen werden:" },
    ru: { doc: "Документация", kb: "Статья поддержки", code: "Код", open: "Открыть на сайте", whole: "Вся страница", chat: "Назад в чат", loading: "Загрузка…", lines: "Строки {a}–{b} из {n}", cutLines: "Показаны только первые {a} цитируемых строк.", cutPage: "Страница здесь обрезана; откройте её на сайте.", signin: "Войдите на странице чата, чтобы открывать источники.", missing: "Этот источник недоступен.", failed: "Не удалось загрузить источник:" },
    es: { doc: "Documentación", kb: "Artículo de ayuda", code: "Código", open: "Abrir en el sitio", whole: "Página completa", chat: "Volver al chat", loading: "Cargando…", lines: "Líneas {a}–{b} de {n}", cutLines: "Solo se muestran las primeras {a} líneas citadas.", cutPage: "La página se corta aquí; ábrela en el sitio.", signin: "Inicia sesión en la página del chat para abrir fuentes.", missing: "Esta fuente no está disponible.", failed: "No se pudo cargar la fuente:" },
  };
  const params = new URLSearchParams(location.search);
  const pick = (params.get("lang") || navigator.language || "en").toLowerCase().slice(0, 2);
  const T = I18N[pick] || I18N.en;
  const fill = (s, v) => s.replace(/\{(\w)\}/g, (m, k) => String(v[k]));
  const theme = params.get("theme");
  const dark = theme === "dark" || (theme !== "light" && window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
  document.documentElement.lang = I18N[pick] ? pick : "en";
  const main = document.getElementById("source");
  const status = document.getElementById("status");
  const store = {
    get: (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set: (k, v) => { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  };
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; };

  // The chat page's token on this origin, else its guest token, else a new guest (guest mode).
  async function token() {
    const own = store.get("da-token");
    if (own) return own;
    try { const g = JSON.parse(store.get("da-guest") || "null"); if (g && g.exp > Date.now() + 60000) return g.token; } catch (e) { /* unreadable: a new one */ }
    const config = await (await fetch("/chat/api/config")).json();
    if (!config.guests) return "";
    const r = await fetch("/chat/api/guest", { method: "POST" });
    if (!r.ok) return "";
    const g = await r.json();
    store.set("da-guest", JSON.stringify({ token: g.token, exp: Date.now() + g.expires_in * 1000 }));
    return g.token;
  }

  function fail(text) {
    main.removeAttribute("aria-busy");
    status.textContent = "";
    const p = el("p", "error", text);
    p.setAttribute("role", "alert");
    main.appendChild(p);
  }

  function show(s) {
    main.textContent = "";
    main.appendChild(el("p", "kind", T[s.kind] || ""));
    main.appendChild(el("h1", null, s.title || s.ref));
    if (s.section && s.section.length) {
      const trail = el("ol", "trail");
      trail.setAttribute("aria-label", T[s.kind] || "");
      s.section.forEach((h) => trail.appendChild(el("li", null, h)));
      main.appendChild(trail);
    }
    const links = el("p", "links");
    if (s.url && /^https?:\/\//i.test(s.url)) {
      const a = el("a", null, T.open);
      a.href = s.url;
      a.rel = "noopener noreferrer";
      links.appendChild(a);
    }
    if (s.section_only) {
      const a = el("a", null, T.whole);
      a.href = "/chat/source?" + new URLSearchParams({ ref: s.ref.split("#")[0], lang: pick }).toString();
      links.appendChild(a);
    }
    const back = el("a", null, T.chat);
    back.href = "/chat";
    links.appendChild(back);
    main.appendChild(links);
    main.appendChild(el("p", "ref", s.ref));
    if (s.kind === "code") {
      main.appendChild(el("p", "note", fill(T.lines, { a: s.start, b: s.end, n: s.total })));
      const pre = el("pre", "code");
      pre.tabIndex = 0; // scrollable by keyboard
      pre.setAttribute("aria-label", s.title);
      let first = null;
      s.lines.forEach((line) => {
        const row = el("span", "line" + (line.n >= s.start && line.n <= s.end ? " cited" : ""));
        row.appendChild(el("span", "n", String(line.n)));
        row.appendChild(el("span", "t", line.text));
        row.appendChild(document.createTextNode("\n"));
        pre.appendChild(row);
        if (!first && line.n === s.start) first = row;
      });
      main.appendChild(pre);
      if (s.truncated) main.appendChild(el("p", "note", fill(T.cutLines, { a: s.end - s.start + 1 })));
      if (first) first.scrollIntoView({ block: "center" });
    } else {
      const body = el("div", "body");
      body.innerHTML = s.html || ""; // rendered by the server with raw HTML escaped
      body.querySelectorAll("pre").forEach((p) => { p.tabIndex = 0; });
      main.appendChild(body);
      if (s.truncated) main.appendChild(el("p", "note", T.cutPage));
    }
    document.title = (s.title || s.ref) + " — " + (T[s.kind] || "");
    main.removeAttribute("aria-busy");
    window.docsAgentSource = s; // read by the browser tests
  }

  async function start() {
    const ref = params.get("ref") || "";
    status.textContent = T.loading;
    try {
      const t = await token();
      if (!t && !(await (await fetch("/chat/api/whoami")).ok)) { fail(T.signin); return; }
      const r = await fetch("/chat/api/source?" + new URLSearchParams({ ref }).toString(), { headers: t ? { Authorization: "Bearer " + t } : {} });
      if (r.status === 401) { fail(T.signin); return; }
      if (r.status === 404 || r.status === 400) { fail(T.missing); return; }
      if (!r.ok) { let d = ""; try { d = (await r.json()).detail || ""; } catch (e) { /* not JSON */ } fail(T.failed + " " + (d || r.status)); return; }
      show(await r.json());
    } catch (e) { fail(T.failed + " " + e.message); }
  }
  start();
})();
