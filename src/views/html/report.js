/* report.js — index.html's tables: sortable, filterable, paged; every
 * value comes from the JSON in the page or from index-traces.js and is
 * put into the page as text, never as markup. */
"use strict";
(function () {
  var data = JSON.parse(document.getElementById("da-data").textContent);
  var PAGE = 200;

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function bushPage(gen, name) {
    return "gen-" + Number(gen) + "-bushes.html#bush-" + encodeURIComponent(name);
  }
  /* A trace's panel: #trace-T, or #trace-T-K for the K-th of that number. */
  function tracePage(gen, id, k) {
    return "gen-" + Number(gen) + "-bushes.html#trace-" + Number(id) + (k > 1 ? "-" + Number(k) : "");
  }

  /* A source line's page, only in the form the source view writes
   * ("source-3.html#L29"): text from the dump never becomes a URL. */
  function sourcePage(v) {
    return typeof v === "string" && /^source-[0-9]+\.html#L[0-9]+$/.test(v) ? v : null;
  }

  /* A table over rows (arrays).  cols: {name, num, text, link(row) -> href}.
   * opts: {filter: input element, filterCol,
   * paged, sort: [col, dir]}. */
  function Table(id, cols, rows, opts) {
    var table = document.getElementById(id);
    var tbody = el("tbody"), thead = el("thead"), tr = el("tr");
    var self = { rows: rows, shown: rows, page: 0, col: -1, dir: 1 };
    cols.forEach(function (c, i) {
      var th = el("th", c.name, c.num ? "num" : "");
      th.addEventListener("click", function () { self.sortBy(i, self.col === i ? -self.dir : (c.num ? -1 : 1)); });
      tr.appendChild(th);
    });
    thead.appendChild(tr);
    table.textContent = "";
    table.appendChild(thead);
    table.appendChild(tbody);
    var pager = opts.paged ? el("div", null, "pager") : null;
    if (pager) table.parentNode.insertBefore(pager, table);

    function key(row, i) {
      var v = row[i];
      if (cols[i].num) return v === null || v === "" ? -Infinity : Number(v);
      return v === null ? "" : String(v);
    }
    self.sortBy = function (i, dir) {
      self.col = i;
      self.dir = dir;
      self.rows.sort(function (a, b) {
        var x = key(a, i), y = key(b, i);
        return x < y ? -dir : x > y ? dir : 0;
      });
      Array.prototype.forEach.call(thead.rows[0].cells, function (th, k) {
        if (k === i) th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
        else th.removeAttribute("aria-sort");
      });
      self.refilter();
    };
    self.refilter = function () {
      var f = opts.filter ? opts.filter.value.toLowerCase() : "";
      self.shown = !f ? self.rows : self.rows.filter(function (r) {
        return String(r[opts.filterCol]).toLowerCase().indexOf(f) >= 0;
      });
      self.page = 0;
      self.render();
    };
    self.render = function () {
      var from = opts.paged ? self.page * PAGE : 0;
      var to = opts.paged ? Math.min(from + PAGE, self.shown.length) : self.shown.length;
      var frag = document.createDocumentFragment();
      for (var r = from; r < to; r++) {
        var row = self.shown[r], line = el("tr");
        cols.forEach(function (c, i) {
          var text = row[i];
          var td = el("td", null, c.num ? "num" : (c.text ? "text" : ""));
          var href = c.link ? c.link(row) : null;
          if (href) { var a = el("a", text); a.href = href; td.appendChild(a); }
          else td.textContent = text === null || text === undefined ? "" : String(text);
          line.appendChild(td);
        });
        frag.appendChild(line);
      }
      tbody.textContent = "";
      tbody.appendChild(frag);
      if (pager) {
        pager.textContent = "";
        var pages = Math.max(1, Math.ceil(self.shown.length / PAGE));
        var prev = el("button", "previous"), next = el("button", "next");
        prev.disabled = self.page === 0;
        next.disabled = self.page + 1 >= pages;
        prev.addEventListener("click", function () { self.page--; self.render(); });
        next.addEventListener("click", function () { self.page++; self.render(); });
        pager.appendChild(prev);
        pager.appendChild(next);
        pager.appendChild(el("span", "page " + (self.page + 1) + " of " + pages + " (" +
          self.shown.length + " of " + self.rows.length + " rows)"));
      }
    };
    if (opts.filter) opts.filter.addEventListener("input", self.refilter);
    if (opts.sort) self.sortBy(opts.sort[0], opts.sort[1]);
    else self.refilter();
    return self;
  }

  /* Overview cards. */
  var cards = document.getElementById("cards");
  data.cards.forEach(function (c) {
    var d = el("div", null, "card");
    d.appendChild(el("b", c[1]));
    d.appendChild(el("span", c[0]));
    cards.appendChild(d);
  });

  /* Run-level diagnoses: flush causes, storms, explosions, chains. */
  var diag = document.getElementById("diagnoses");
  (data.diagnoses.length ? data.diagnoses : ["none: no flushes, side-trace explosions or long chains"])
    .forEach(function (d) { diag.appendChild(el("li", d.replace(/\n$/, ""))); });

  Table("links", [{ name: "ends with" }, { name: "traces", num: true }], data.links, {});

  /* Generations timeline: traces (dark) and aborts (red) per generation. */
  (function () {
    var NS = "http://www.w3.org/2000/svg", W = 1000, H = 140, gens = data.gens;
    var max = 1;
    gens.forEach(function (g) { max = Math.max(max, g[1], g[6]); });
    var svg = document.getElementById("timeline");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    var w = Math.min(W / Math.max(1, gens.length), 40);
    gens.forEach(function (g, i) {
      [[g[1], "#444", 0], [g[6], "#c0392b", 0.5]].forEach(function (bar) {
        var r = document.createElementNS(NS, "rect"), h = bar[0] / max * (H - 10);
        r.setAttribute("x", i * w + bar[2] * w);
        r.setAttribute("width", Math.max(w / 2 - 0.5, 0.5));
        r.setAttribute("y", H - h);
        r.setAttribute("height", h);
        r.setAttribute("fill", bar[1]);
        var t = document.createElementNS(NS, "title");
        t.textContent = "generation " + g[0] + ": " + g[1] + " traces, " + g[6] + " aborts";
        r.appendChild(t);
        svg.appendChild(r);
      });
    });
  })();
  Table("gens", [{ name: "gen", num: true }, { name: "traces", num: true }, { name: "root", num: true },
    { name: "side", num: true }, { name: "stitched", num: true }, { name: "orphan", num: true },
    { name: "aborts", num: true },
    { name: "exits", num: true }, { name: "bushes", num: true, link: function (r) { return "gen-" + r[0] + "-bushes.html"; } },
    { name: "incomplete", num: true }], data.gens, { paged: true });

  /* Aborts: the reasons table is summed from the sites that pass the
   * file filter, so both tables answer for the same files. */
  var fileFilter = document.getElementById("abort-filter");
  /* A site's reason: [reason, count, normal reason, error, the last
   * attempt's failed bytecode line, its dump line]; advice: [normal
   * reason, what it means and what to try]. */
  var siteCols = [{ name: "file", text: true }, { name: "line", num: true, link: function (r) { return sourcePage(r[7]); } },
    { name: "aborts", num: true }, { name: "reasons", text: true },
    { name: "failed at (last attempt of the top reason)", text: true,
      link: function (r) { return r[5] ? "gen-" + Number(r[5]) + "-bushes.html#abort-" + Number(r[6]) : null; } }];
  var advice = {};
  (data.advice || []).forEach(function (a) { advice["\u0000" + a[0]] = a[1]; });
  function reasonRows() {
    var f = fileFilter.value.toLowerCase(), by = {}, normal = {}, out = [];
    data.sites.forEach(function (s) {
      if (f && String(s[0]).toLowerCase().indexOf(f) < 0) return;
      s[3].forEach(function (rc) {
        var k = "\u0000" + rc[0];
        by[k] = (by[k] || 0) + rc[1];
        normal[k] = rc[2];
      });
    });
    Object.keys(by).forEach(function (k) {
      out.push([k.slice(1), by[k], normal[k], advice["\u0000" + normal[k]] || ""]);
    });
    return out;
  }
  var siteRows = data.sites.map(function (s) {
    var total = 0, top = null, names = s[3].map(function (rc) {
      total += rc[1];
      if (!top || rc[1] > top[1]) top = rc;
      return rc[0] + " (" + rc[1] + ")";
    });
    var failed = top ? (top[4] !== null ? top[4] + ", " : "") + "dump line " + top[5] : "";
    return [s[0], s[1], total, names.join("; "), failed, top ? top[6] : null, top ? top[5] : null, s[4]];
  });
  var reasons = Table("reasons", [{ name: "reason", text: true }, { name: "aborts", num: true },
    { name: "normal reason", text: true }, { name: "what it means, what to try", text: true }],
    reasonRows(), { sort: [1, -1] });
  fileFilter.addEventListener("input", function () {
    reasons.rows = reasonRows();
    reasons.sortBy(reasons.col, reasons.dir);
  });
  Table("sites", siteCols, siteRows, { filter: fileFilter, filterCol: 0, paged: true, sort: [2, -1] });

  Table("exits", [{ name: "gen", num: true }, { name: "trace", num: true, link: function (r) { return tracePage(r[0], r[1], 1); } },
    { name: "exit", num: true },
    { name: "taken", num: true }, { name: "side trace", num: true },
    { name: "trace starts at", text: true, link: function (r) { return sourcePage(r[6]); } }],
    data.exits, { sort: [3, -1] });
  Table("blacklist", [{ name: "gen", num: true }, { name: "where", text: true, link: function (r) { return sourcePage(r[6]); } },
    { name: "attempts", num: true }, { name: "last reason", text: true }, { name: "afterwards" },
    { name: "parent starts at", text: true, link: function (r) { return sourcePage(r[7]); } }],
    data.blacklist, {});
  Table("bushes", [{ name: "gen", num: true }, { name: "bush", link: function (r) { return bushPage(r[0], r[1]); } },
    { name: "traces", num: true }, { name: "mcode bytes", num: true },
    { name: "root starts at", text: true, link: function (r) { return sourcePage(r[5]); } }],
    data.bushes, { sort: [2, -1] });

  /* With --profile: the profiled lines, JIT failures first. */
  if (data.profile) {
    var pr = data.profile, total = pr.total || 1;
    document.getElementById("profile-section").hidden = false;
    document.getElementById("profile-about").textContent = "Profile " + pr.path + ": " +
      (pr.percent ? "percentages only" : pr.total + " samples") + ". Lines where traces aborted " +
      "or were blacklisted come first, by interpreted samples; shares are of all samples.";
    var notes = document.getElementById("profile-notes");
    if (pr.unmatched) notes.appendChild(el("li", pr.unmatched + " of " + pr.lines +
      " profile lines are in files the dump never names."));
    if (pr.thresholded) notes.appendChild(el("li", "The profile looks cut at -jp's 3% threshold: " +
      "record it with -jp=lvrm0i1 to see every line."));
    if (!pr.states) notes.appendChild(el("li", "The profile has no VM states: record it with " +
      "-jp=lvrm0i1 or -jp=Gvl to see interpreted time."));
    var share = function (v) { return v === null ? null : (100 * v / total).toFixed(1); };
    var rows = pr.rows.map(function (r) {
      return [r[0], r[1], share(r[2]), share(r[3]), share(r[4]), share(r[5]), share(r[6]), share(r[7]),
        r[8], r[9], r[10], r[11], r[12]];
    });
    Table("profile", [{ name: "file", text: true },
      { name: "line", num: true, link: function (r) { return sourcePage(r[12]); } }, { name: "% samples", num: true },
      { name: "% interpreted", num: true }, { name: "% compiled", num: true }, { name: "% C", num: true },
      { name: "% GC", num: true }, { name: "% JIT", num: true }, { name: "aborts", num: true },
      { name: "top abort reason", text: true }, { name: "traces started", num: true },
      { name: "blacklisted", num: true }], rows,
      { filter: document.getElementById("profile-filter"), filterCol: 0, paged: true });
    if (pr.flamegraph) {    /* only then is there a file to load */
      document.querySelector("#flamegraph img").src = "flamegraph.svg";
      document.getElementById("flamegraph").hidden = false;
    }
  }

  /* Traces: index-traces.js defines DA_TRACES (absent when no trace
   * compiled). */
  var traces = typeof DA_TRACES === "undefined" ? [] : DA_TRACES;
  Table("traces", [{ name: "gen", num: true }, { name: "id", num: true, link: function (r) { return tracePage(r[0], r[1], r[13]); } },
    { name: "parent", num: true },
    { name: "exit", num: true }, { name: "file", text: true }, { name: "line", num: true }, { name: "link", text: true }, { name: "bytecodes", num: true },
    { name: "IR", num: true }, { name: "snapshots", num: true }, { name: "mcode bytes", num: true },
    { name: "exits taken", num: true }, { name: "bush", link: function (r) { return bushPage(r[0], r[12]); } }],
    traces, { filter: document.getElementById("trace-filter"), filterCol: 4, paged: true });
  requestAnimationFrame(function () { performance.mark("rendered"); document.body.dataset.rendered = "1"; });
})();
