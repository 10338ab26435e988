// The rule book's search (goconform book): filters the index in search-index.js, which
// defines BOOK_INDEX, by every word of the query, on the page itself: no server, no network.
(function () {
  "use strict";
  var form = document.getElementById("search");
  var box = document.getElementById("q");
  var list = document.getElementById("results");
  var count = document.getElementById("count");
  function run() {
    var words = box.value.toLowerCase().split(/\s+/).filter(function (w) { return w; });
    list.textContent = "";
    if (!words.length) { count.textContent = ""; return; }
    var hits = BOOK_INDEX.filter(function (e) {
      var hay = (e.title + " " + e.id + " " + e.text).toLowerCase();
      return words.every(function (w) { return hay.indexOf(w) >= 0; });
    });
    count.textContent = hits.length + (hits.length === 1 ? " match" : " matches");
    hits.slice(0, 200).forEach(function (e) {
      var li = document.createElement("li");
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = e.kind + " ";
      var a = document.createElement("a");
      a.href = e.url;
      a.textContent = e.title;
      var id = document.createElement("code");
      id.textContent = " " + e.id;
      li.appendChild(kind);
      li.appendChild(a);
      li.appendChild(id);
      list.appendChild(li);
    });
  }
  var q = new URLSearchParams(window.location.search).get("q");
  if (q) { box.value = q; }
  box.addEventListener("input", run);
  form.addEventListener("submit", function (ev) { ev.preventDefault(); run(); });
  run();
})();
