/* xsc site: the theme toggle and the search box. No network: the index is a script file
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

  function search(q) {
    var data = window.XSC_SEARCH || [];
    q = q.trim().toLowerCase();
    if (!q) return [];
    var hits = [];
    for (var i = 0; i < data.length; i++) {
      var name = data[i][0].toLowerCase(), score;
      if (name === q) score = 0;
      else if (name.indexOf(q) === 0) score = 1;
      else if (name.indexOf(q) > 0) score = 2;
      else if (data[i][2].toLowerCase().indexOf(q) >= 0) score = 3;
      else continue;
      hits.push([score, name.length, i]);
    }
    hits.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1] || a[2] - b[2]; });
    return hits.slice(0, 30).map(function (h) { return data[h[2]]; });
  }

  function setup() {
    var btn = document.getElementById("theme-toggle");
    if (btn) btn.addEventListener("click", function () {
      var next = effective() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      store(next);
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
