/* xsc site: the theme toggle, the menu button of a narrow screen and the search box (names
 * first, then the words of each section). No network: the index is a script file
 * (search-index.js) loaded beside this one, so it works from file:// too. */
(function () {
  "use strict";
  var root = document.documentElement;
  var KEY = "xsc-theme";
  function stored() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  function store(v) { try { localStorage.setItem(KEY, v); } catch (e) { /* file:// may refuse */ } }
  var t = stored();
  if (t === "dark" || t === "light") root.setAttribute("data-theme", t);

  function effective() {
    var a = root.getAttribute("data-theme");
    if (a === "dark" || a === "light") return a;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }

  var lowered = null; /* the sections' text in lower case, made on the first search */
  function search(q) {
    var data = window.XSC_SEARCH || [];
    q = q.trim().toLowerCase();
    if (!q) return [];
    if (!lowered) lowered = data.map(function (d) { return d[4] ? d[4].toLowerCase() : ""; });
    var hits = [];
    for (var i = 0; i < data.length; i++) {
      var name = data[i][0].toLowerCase(), score, text = data[i][1] === "Text";
      if (!text && name === q) score = 0;
      else if (!text && name.indexOf(q) === 0) score = 1;
      else if (!text && name.indexOf(q) > 0) score = 2;
      else if (!text && data[i][2].toLowerCase().indexOf(q) >= 0) score = 3;
      else if (text && lowered[i].indexOf(q) >= 0) score = 4; /* the words of the page itself */
      else continue;
      /* equals rank by the shorter name, then the shorter page title: RESOLVE_CACHED on
       * openat2's page before IORING_OP_OPENAT2's */
      hits.push([score, text ? 0 : name.length, data[i][2].length, i]);
    }
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]; });
    return hits.slice(0, 30).map(function (h) { return data[h[3]]; });
  }

  function setup() {
    var btn = document.getElementById("theme-toggle");
    if (btn) btn.addEventListener("click", function () {
      var next = effective() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      store(next);
    });
    var menu = document.getElementById("menu-toggle");
    if (menu) menu.addEventListener("click", function () {
      var open = document.body.classList.toggle("menu-open");
      menu.setAttribute("aria-expanded", open ? "true" : "false");
    });
    var box = document.getElementById("search"), list = document.getElementById("search-results");
    if (!box || !list) return;
    var base = root.getAttribute("data-root") || "";
    function show() {
      var res = search(box.value);
      while (list.firstChild) list.removeChild(list.firstChild);
      res.forEach(function (r) {
        var li = document.createElement("li"), a = document.createElement("a"), k = document.createElement("span");
        a.href = base + r[3];
        a.textContent = r[0];
        k.className = "kind";
        k.textContent = r[1] + (r[1] === "Page" || r[0] === r[2] ? "" : " · " + r[2]);
        a.appendChild(k);
        if (r[4]) { /* where the words are: a few of them around the match */
          var at = r[4].toLowerCase().indexOf(box.value.trim().toLowerCase()), s = document.createElement("span");
          s.className = "snippet";
          s.textContent = (at > 40 ? "…" : "") + r[4].slice(Math.max(0, at - 40), at + 80) + "…";
          a.appendChild(s);
        }
        li.appendChild(a);
        list.appendChild(li);
      });
      list.hidden = res.length === 0;
    }
    box.addEventListener("input", show);
    box.addEventListener("keydown", function (e) {
      if (e.key === "Enter") {
        var first = list.querySelector("a");
        if (first) window.location.href = first.href;
      } else if (e.key === "Escape") {
        box.value = "";
        show();
      }
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "/" && document.activeElement !== box) { e.preventDefault(); box.focus(); }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
  window.xscSearch = search;
})();
