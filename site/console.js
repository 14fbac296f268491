/* xsc site: the console, xsc in the page (issue 29). This file is small and on every page: it
 * adds the Console button, "Try it" buttons on reference pages (the page's interface: new,
 * dump, matrix) and lesson pages (the lesson, and each command the text names), and opens the
 * panel. Only then does it load assets/xsc-bundle.js (make wasm: cli/wasm/wasi.js, xsc.wasm
 * and the catalogue in one script, so file:// works and nothing is fetched from a network).
 * Each line typed runs in one session of the wasm build (cli/wasm/console.c): the same
 * commands as the native program, with 'target sim VERSION' the only target. */
(function () {
  "use strict";
  var root = document.documentElement.getAttribute("data-root") || "";
  var state = { loading: null, wasi: null, panel: null, out: null, input: null, history: [], at: 0,
                names: [], ready: null, queue: [] };
  window.XSC_CONSOLE = state; /* the browser test reads ready (ms) and calls run() */

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text) e.textContent = text;
    return e;
  }
  /* output is gathered while a line runs and shown after it: one layout a line, not one a write */
  var pending = null;
  function print(text, cls) {
    if (pending) { pending.push([text, cls]); return; }
    show([[text, cls]]);
  }
  function show(parts) {
    parts.forEach(function (p) { state.out.appendChild(el("span", p[1] ? { "class": p[1] } : {}, p[0])); });
    state.out.scrollTop = state.out.scrollHeight;
  }

  function panel() {
    if (state.panel) return state.panel;
    var p = el("section", { id: "xsc-console", "aria-label": "xsc console", hidden: "" });
    var bar = el("div", { "class": "xc-bar" });
    bar.appendChild(el("span", { "class": "xc-title" }, "xsc console · simulated kernels only ('target sim VERSION')"));
    var close = el("button", { type: "button", "class": "xc-close", "aria-label": "Close the console" }, "×");
    close.addEventListener("click", function () { p.hidden = true; });
    bar.appendChild(close);
    state.out = el("pre", { "class": "xc-out", "aria-live": "polite" });
    var row = el("div", { "class": "xc-row" });
    row.appendChild(el("span", { "class": "xc-prompt" }, "xsc>"));
    state.input = el("input", { type: "text", "class": "xc-in", "aria-label": "xsc command", autocomplete: "off",
                                spellcheck: "false", placeholder: "help, new clone3, target sim 5.3, call clone3 …" });
    state.input.addEventListener("keydown", key);
    row.appendChild(state.input);
    p.appendChild(bar); p.appendChild(state.out); p.appendChild(row);
    document.body.appendChild(p);
    state.panel = p;
    return p;
  }

  function decode(b64) {
    var s = atob(b64), b = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
    return b;
  }

  /* the bundle's script, then the module: compiled, instantiated, its session started */
  function load() {
    if (state.loading) return state.loading;
    var t0 = performance.now();
    state.loading = new Promise(function (resolve, reject) {
      var s = el("script", { src: root + "assets/xsc-bundle.js" });
      s.onload = resolve;
      s.onerror = function () { reject(new Error("assets/xsc-bundle.js is missing: 'make wasm' builds it (then 'make site')")); };
      document.head.appendChild(s);
    }).then(function () {
      state.timing = { script: performance.now() - t0 };
      return WebAssembly.compile(decode(window.XSC_BUNDLE.wasm));
    }).then(function (module) {
      state.timing.compile = performance.now() - t0 - state.timing.script;
      var files = {}, dec = new TextDecoder(), B = window.XSC_BUNDLE, name;
      /* in bundle.mjs's order: the catalogue cache's key holds the files' inode numbers */
      for (name in B.files) files["top/" + name] = B.files[name];
      for (name in B.cache) files["home/.cache/xsc/" + name] = decode(B.cache[name]);
      var wasi = new window.XscWasi({
        args: ["xsc"], files: files, preopens: window.XscWasi.consolePreopens, env: window.XscWasi.consoleEnv,
        stdout: function (b) { print(dec.decode(b, { stream: true })); },
        stderr: function (b) { print(dec.decode(b, { stream: true }), "xc-err"); }
      });
      return WebAssembly.instantiate(module, wasi.importObject(module)).then(function (inst) {
        wasi.bind(inst);
        var t1 = performance.now(), p = wasi.cstring("/top/data");
        var r = wasi.exports.xsc_console_start(p);
        wasi.exports.xsc_console_free(p);
        if (r !== 0) throw new Error("the catalogue did not load");
        state.names = wasi.readCString(wasi.exports.xsc_console_commands()).split("\n").filter(Boolean);
        state.wasi = wasi;
        state.timing.catalogue = performance.now() - t1;
        state.ready = performance.now() - t0;
        state.readyAt = performance.now();
        print("xsc " + "in WebAssembly: the simulator, the catalogue and the lessons; 'help' lists the commands\n", "xc-note");
      });
    });
    state.loading.catch(function (e) { print(String(e.message || e) + "\n", "xc-err"); });
    return state.loading;
  }

  /* one line through the session: echoed, run, timed */
  function run(line) {
    var w = state.wasi, p = w.cstring(line), t0 = performance.now();
    pending = [["xsc> " + line + "\n", "xc-echo"]];
    var r = w.exports.xsc_console_line(p);
    var ms = performance.now() - t0, parts = pending;
    pending = null;
    w.exports.xsc_console_free(p);
    show(parts);
    return { status: r, ms: ms };
  }
  state.run = run;

  /* opens the panel, then runs lines (an example) once the module is there */
  function open(lines) {
    panel().hidden = false;
    state.input.focus();
    return load().then(function () {
      (lines || []).forEach(run);
      state.input.focus();
    });
  }
  state.open = open;

  function complete() {
    var v = state.input.value;
    if (/\s/.test(v.replace(/^\s+/, ""))) return; /* a command's arguments: left to the user */
    var word = v.trim(), hits = state.names.filter(function (n) { return n.indexOf(word) === 0; });
    if (hits.length === 1) state.input.value = hits[0] + " ";
    else if (hits.length > 1) {
      var common = hits.reduce(function (a, b) { var i = 0; while (i < a.length && a[i] === b[i]) i++; return a.slice(0, i); });
      state.input.value = common;
      print(hits.join("  ") + "\n", "xc-note");
    }
  }

  function key(e) {
    if (e.key === "Enter") {
      var line = state.input.value;
      state.input.value = "";
      if (!state.wasi || !line.trim()) return;
      state.history.push(line);
      state.at = state.history.length;
      run(line);
    } else if (e.key === "Tab") {
      e.preventDefault();
      if (state.wasi) complete();
    } else if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      e.preventDefault();
      state.at = Math.max(0, Math.min(state.history.length, state.at + (e.key === "ArrowUp" ? -1 : 1)));
      state.input.value = state.history[state.at] || "";
    }
  }

  function button(text, lines, cls) {
    var b = el("button", { type: "button", "class": cls || "xc-try" }, text);
    b.addEventListener("click", function () { open(lines); });
    return b;
  }

  /* which page this is, from its path below the site's root */
  function here() {
    var path = decodeURIComponent(location.pathname), m;
    if ((m = /\/reference\/(syscalls|structs)\/([^/]+)\.html$/.exec(path))) return { kind: m[1], name: m[2] };
    if ((m = /\/lessons\/0*(\d+)-[^/]*\.html$/.exec(path))) return { kind: "lesson", name: m[1] };
    return { kind: "other" };
  }

  function hooks() {
    var header = document.querySelector("header.top"), article = document.querySelector("article");
    if (header) header.insertBefore(button("Console", [], "xc-open"), document.getElementById("theme-toggle"));
    var h1 = article && article.querySelector("h1"), pg = here();
    if (!h1) return;
    if (pg.kind === "syscalls") h1.after(button("Try it", ["new " + pg.name, "dump", "matrix " + pg.name]));
    else if (pg.kind === "structs") h1.after(button("Try it", ["new " + pg.name, "dump"]));
    else if (pg.kind === "lesson") {
      h1.after(button("Try it: lesson " + pg.name + " in the console", ["lesson " + pg.name]));
      /* each command the lesson names runs where it stands, as the lesson would have it typed */
      article.querySelectorAll("p code, li code").forEach(function (c) {
        var words = c.textContent.trim().split(/\s+/);
        if (!/^(new|set|size|poke|dump|call|target|show|matrix|expect|lesson|explain|help)$/.test(words[0])) return;
        var b = button("▶", [c.textContent.trim()], "xc-run");
        b.setAttribute("aria-label", "Run " + c.textContent.trim() + " in the console");
        c.after(b);
      });
    }
    if (location.hash === "#console") open([]);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", hooks);
  else hooks();
})();
