/* report.js — index.html: what to fix first (the profile's shares and the
 * library's findings, each linked to its source line and its failed
 * attempt), then the tables: sortable, filterable, paged; every value
 * comes from the JSON in the page or from index-traces.js and is put into
 * the page as text, never as markup. */
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

  /* A table over rows (arrays).  cols: {name, num, text, link(row) ->
   * href, show(row) -> the text shown (else the row's column), title(row)
   * -> text on hover}.  opts: {filter: input element, filterCol, paged,
   * sort: [col, dir], rowId(row) -> the row's id}. */
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
          var text = c.show ? c.show(row) : row[i];
          var td = el("td", null, c.num ? "num" : (c.text ? "text" : ""));
          var href = c.link ? c.link(row) : null;
          if (href) { var a = el("a", text); a.href = href; td.appendChild(a); }
          else td.textContent = text === null || text === undefined ? "" : String(text);
          var title = c.title ? c.title(row) : null;
          if (title) td.title = title;
          line.appendChild(td);
        });
        var id = opts.rowId ? opts.rowId(row) : null;
        if (id) line.id = id;
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
    /* Show the first row that pred accepts (its page), or return null. */
    self.showRow = function (pred) {
      for (var r = 0; r < self.shown.length; r++) {
        if (!pred(self.shown[r])) continue;
        if (opts.paged) { self.page = Math.floor(r / PAGE); self.render(); }
        return tbody.rows[opts.paged ? r % PAGE : r];
      }
      return null;
    };
    if (opts.filter) opts.filter.addEventListener("input", self.refilter);
    if (opts.sort) self.sortBy(opts.sort[0], opts.sort[1]);
    else self.refilter();
    return self;
  }

  /* ---- reasons: the normal form shown, as the dump wrote it on hover ---- */
  var normalOf = {}, writtenOf = {};
  (data.written || []).forEach(function (w) {
    normalOf["\u0000" + w[0]] = w[1];
    var k = "\u0000" + w[1];
    (writtenOf[k] = writtenOf[k] || []).push(w[0]);
  });
  function normal(raw) { var n = normalOf["\u0000" + raw]; return n === undefined ? raw : n; }
  /* "as the dump wrote it: NYI: bytecode 51", or null when it is the same */
  function writtenTitle(reasons) {
    var out = [];
    reasons.forEach(function (n) {
      (writtenOf["\u0000" + n] || []).forEach(function (w) { if (w !== n && out.indexOf(w) < 0) out.push(w); });
    });
    return out.length ? "as the dump wrote it: " + out.join("; ") : null;
  }
  function reasonSpan(n) {
    var sp = el("span", n), t = writtenTitle([n]);
    if (t) sp.title = t;
    return sp;
  }

  /* ---- the first screen: where the time went, what to fix first ---- */
  var F = data.findings.rows.map(function (r) {
    var o = {};
    data.findings.cols.forEach(function (c, i) { o[c] = r[i]; });
    return o;
  });
  var sh = data.shares;
  function samplesText(v) { return sh && sh.percent ? (v / 100).toFixed(2) + "%" : String(v); }
  function pct(v, t) { return t ? (100 * v / t).toFixed(1) : "0.0"; }
  /* How a finding was charged: by line within its extent, or (a sysprof
   * profile) by function. */
  function basisText(f) {
    return (f.basis === "function" ? "by function, " : "") + "extent from the " + f.extent;
  }
  function place(file, line, end) {
    return file === null ? "" : file + (line !== null ? ":" + line + (end !== null && end > line ? "\u2013" + end : "") : "");
  }
  /* A link to a source line (only in the form the source view writes),
   * else the text alone. */
  function linkOr(text, href) {
    href = sourcePage(href);
    if (!href) return el("span", text);
    var a = el("a", text);
    a.href = href;
    return a;
  }
  function attemptHref(f) {
    return f.dump_line && f.abort_gen ? "gen-" + Number(f.abort_gen) + "-bushes.html#abort-" + Number(f.dump_line) : null;
  }
  var STATES = [["interpreted", "interp"], ["compiled", "compiled"], ["C code", "c"], ["garbage collector", "gc"],
    ["JIT compiler", "jit"]];
  (function () {
    var box = document.getElementById("shares");
    if (!sh) {
      box.appendChild(el("p", "No profile: the findings are ranked by score (the rule's weight \u00d7 count). " +
        "Give --profile with a profile of the same workload (dumpanalyze record, or luajit -jp=Gvli1) to rank them by the time they cost.", "note"));
      return;
    }
    var head = el("p", "Where the time went: ", "shares-head");
    head.appendChild(el("code", sh.path));
    head.appendChild(document.createTextNode(sh.percent ? " (percentages only)" : sh.functions ?
      " (sysprof, " + sh.total + " samples; interpreted time is known per Lua function: the findings are " +
      "charged by function)" : " (" + sh.total + " samples)"));
    box.appendChild(head);
    if (!sh.states) {
      box.appendChild(el("p", "The profile has no VM states: record it with -jp=Gvli1 to see " +
        "interpreted time; the costs below count every sample.", "note"));
      return;
    }
    var bar = el("div", null, "sharebar"), legend = el("ul", null, "legend");
    STATES.forEach(function (st, i) {
      var v = sh.state[i], p = pct(v, sh.total);
      var seg = el("span", null, "seg " + st[1]);
      seg.style.width = (sh.total ? 100 * v / sh.total : 0) + "%";
      seg.title = st[0] + ": " + p + "% (" + samplesText(v) + ")";
      bar.appendChild(seg);
      var li = el("li");
      li.dataset.state = st[0];
      li.appendChild(el("i", null, "sw " + st[1]));
      li.appendChild(document.createTextNode(st[0] + " "));
      /* a profile of percentages: the share alone, to two places */
      li.appendChild(el("b", sh.percent ? samplesText(v) : p + "%"));
      li.appendChild(document.createTextNode((sh.percent ? "" : " " + samplesText(v)) +
        (i === 0 ? " (JIT failures cost only these)" : "")));
      legend.appendChild(li);
    });
    box.appendChild(bar);
    box.appendChild(legend);
    var ch = el("p", null, "charged");
    ch.id = "charged";
    ch.textContent = "Charged to the findings: " + (sh.percent ? "" : samplesText(sh.charged) + " interpreted samples, ") +
      pct(sh.charged, sh.total) + "% of all samples (" + pct(sh.charged, sh.state[0]) + "% of the interpreted)." +
      (sh.unsplit ? " Not charged: " + sh.unsplit + " interpreted samples in functions that hold a failed loop " +
        "of their own (by function, which of their lines ran is unknown; a -jp profile knows)." : "");
    box.appendChild(ch);
  })();

  function row(dl, name, parts) {
    dl.appendChild(el("dt", name));
    var dd = el("dd");
    parts.forEach(function (p) { dd.appendChild(typeof p === "string" ? document.createTextNode(p) : p); });
    dl.appendChild(dd);
    return dd;
  }
  function findingCard(f, same) {
    var li = el("li", null, "finding " + f.level);
    li.id = "finding-" + f.rank;
    li.dataset.rank = f.rank;
    var head = el("div", null, "fhead");
    head.appendChild(el("span", String(f.rank), "rank"));
    var where = linkOr(f.file === null ? "the whole run" : place(f.file, f.line, f.end_line), f.href);
    where.className = "where";
    head.appendChild(where);
    head.appendChild(el("span", f.kind, "kind"));
    var sev = el("span", f.level, "sev " + f.level);
    if (f.why) sev.title = f.rule + " " + f.rule_name + ": " + f.why;
    head.appendChild(sev);
    var cost = el("span", null, "cost");
    if (f.samples !== null && f.basis === "none") {
      cost.appendChild(document.createTextNode("no extent to charge samples to (score " + f.score + ")"));
    } else if (f.samples !== null) {
      cost.appendChild(el("b", f.share.toFixed(2) + "%"));
      cost.appendChild(document.createTextNode(" of the samples \u00b7 " +
        (sh.percent ? (sh.states ? "interpreted" : "all states") : samplesText(f.samples) + " " +
          (sh.states ? "interpreted samples" : "samples")) + " \u00b7 " + basisText(f)));
    } else {
      cost.appendChild(document.createTextNode("score " + f.score));
    }
    head.appendChild(cost);
    li.appendChild(head);
    var dl = el("dl");
    if (f.reason !== null) {
      var why = [reasonSpan(f.reason)];
      if (f.error) why.push(" (" + f.error + ")");
      why.push(" in " + f.reason_attempts + " of " + f.attempts + " aborted attempts");
      if (f.others.length) {
        /* the others with their counts: the main reason is the most
         * severe, not always the most frequent */
        var shown = f.others.slice(0, 3).map(function (x) { return x[1] + " " + x[0]; });
        var o = el("span", " (others: " + shown.join(", ") +
          (f.others.length > 3 ? " and " + (f.others.length - 3) + " more" : "") + ")");
        o.title = f.others.map(function (x) { return x[1] + " " + x[0]; }).join("; ");
        why.push(o);
      }
      if (f.blacklisted) why.push("; likely given up on in " + f.blacklisted + " generation" + (f.blacklisted === 1 ? "" : "s"));
      row(dl, "why", why).className = "why";
    } else if (f.title) {
      row(dl, "what", [f.title]);
    }
    var at = [];
    if (f.at_file !== null && f.reason !== null) at.push("fails at ", linkOr(place(f.at_file, f.at_line, null), f.at_href));
    if (f.cause_file !== null) {
      if (at.length) at.push(" \u00b7 ");
      at.push("cause ", linkOr(place(f.cause_file, f.cause_line, null), f.cause_href));
    }
    if (f.bytecode !== null) {
      if (at.length) at.push(" \u00b7 ");
      at.push(el("code", f.bytecode));
    }
    var ah = attemptHref(f);
    if (ah) {
      at.push(" \u00b7 ");
      var a = el("a", "the failed attempt (dump line " + f.dump_line + ")");
      a.href = ah;
      a.className = "attempt";
      at.push(a);
    }
    if (at.length) row(dl, "where", at).className = "at";
    if (f.advice !== null) row(dl, "fix", [f.advice]).className = "advice";
    if (f.beside) {
      var names = ["compiled", "C", "GC", "JIT"], parts = [];
      f.beside.forEach(function (v, i) { if (v) parts.push(samplesText(v) + " " + names[i]); });
      if (parts.length) row(dl, "beside", [parts.join(", ") + " samples there: not a JIT failure's cost"]);
    }
    if (same.length) {
      var also = [same.length + " more finding" + (same.length === 1 ? "" : "s") + " with this cause: "];
      same.slice(0, 12).forEach(function (g, i) {
        var a = el("a", "#" + g.rank);
        a.href = "#finding-" + g.rank;
        if (i) also.push(", ");
        also.push(a);
      });
      if (same.length > 12) also.push(", \u2026");
      row(dl, "and", also);
    }
    li.appendChild(dl);
    return li;
  }
  var onTop = {};
  (function () {
    var list = document.getElementById("fix-first"), about = document.getElementById("fix-about");
    var listed = F.filter(function (f) { return f.listed; }), shown = listed.slice(0, data.top);
    shown.forEach(function (f) {
      onTop[f.rank] = 1;
      list.appendChild(findingCard(f, F.filter(function (g) { return g.same_cause === f.rank; })));
    });
    if (!F.length) about.textContent = "Nothing to fix: no aborted attempts, hot exits or flushes.";
    else if (!shown.length && F.some(function (f) { return f.level !== "harmless"; }))
      about.textContent = "Nothing charged: " + F.filter(function (f) {
        return f.level !== "harmless"; }).length + " of " + F.length +
        " findings are not usually harmless but none was charged any sample of the profile; all are in the table below.";
    else if (!shown.length) about.textContent = "Nothing costly: " + F.length + " usually harmless finding" +
      (F.length === 1 ? "" : "s") + " in the table below.";
    else about.textContent = shown.length + " of " + F.length + " findings: those not usually harmless, " +
      "not fixed by one above and, with a profile, costing something, as summary.txt lists them; " +
      "every finding is in the table below and in findings.csv.";
  })();

  var findingsTable = Table("findings", [
    { name: "rank", num: true, title: function (r) { return "ID " + r.id + ": " + r.identity; } },
    { name: "where", text: true, show: function (r) { return r.file === null ? "the whole run" : place(r.file, r.line, r.end_line); },
      link: function (r) { return sourcePage(r.href); } },
    { name: "kind" }, { name: "severity", title: function (r) { return r.why; } },
    { name: "reason", text: true, title: function (r) {
      var t = writtenTitle([r.reason].concat(r.others.map(function (o) { return o[0]; })));
      var o = r.others.map(function (x) { return x[1] + " " + x[0]; }).join("; ");
      return [o ? "others: " + o : null, t].filter(Boolean).join("\n") || null;
    } },
    { name: "attempts", num: true },
    { name: "samples", num: true, show: function (r) { return r.samples === null ? "" : samplesText(r.samples); },
      title: function (r) { return basisText(r); } },
    { name: "% samples", num: true, show: function (r) { return r.share === null ? "" : r.share.toFixed(2); } },
    { name: "fails at", text: true, show: function (r) { return r.reason === null ? "" : place(r.at_file, r.at_line, null); },
      link: function (r) { return r.reason === null ? null : sourcePage(r.at_href); } },
    { name: "cause", text: true, show: function (r) { return place(r.cause_file, r.cause_line, null); },
      link: function (r) { return sourcePage(r.cause_href); } },
    { name: "attempt", show: function (r) { return r.dump_line ? "dump line " + r.dump_line : ""; },
      link: attemptHref },
    { name: "advice" }],
    F.map(function (f) {
      /* the row is the finding; the cells read it by name, sort on these */
      var r = [f.rank, f.file, f.kind, f.level, f.reason, f.attempts, f.samples, f.share, f.at_file,
        f.cause_file, f.dump_line, f.advice || f.title];
      Object.keys(f).forEach(function (k) { r[k] = f[k]; });
      return r;
    }),
    { filter: document.getElementById("findings-filter"), filterCol: 1, paged: true,
      rowId: function (r) { return onTop[r.rank] ? null : "finding-" + r.rank; } });
  /* #finding-R: the card on the first screen, else the table's row. */
  function routeFinding() {
    var m = /^#finding-(\d+)$/.exec(location.hash), e;
    if (!m) return;
    e = document.getElementById("finding-" + m[1]) ||
      findingsTable.showRow(function (r) { return r.rank === Number(m[1]); });
    if (!e) return;
    document.querySelectorAll(".target").forEach(function (x) { x.classList.remove("target"); });
    e.classList.add("target");
    e.scrollIntoView({ block: "start" });
  }
  window.addEventListener("hashchange", routeFinding);

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
    { name: "aborts", num: true }, { name: "reasons", text: true, title: function (r) { return writtenTitle(r[8]); } },
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
      /* [normal reason, aborts, what it means, as written] */
      out.push([normal[k], by[k], advice["\u0000" + normal[k]] || "", k.slice(1)]);
    });
    return out;
  }
  /* A site's row: [file, line, aborts, its reasons (normal) with their
   * counts, the failed bytecode of the top one's last attempt, that
   * attempt's generation and dump line, the source link, [normal
   * reasons]]. */
  var siteRows = data.sites.map(function (s) {
    var total = 0, top = null, names = s[3].map(function (rc) {
      total += rc[1];
      if (!top || rc[1] > top[1]) top = rc;
      return rc[2] + " (" + rc[1] + ")";
    });
    var failed = top ? (top[4] !== null ? top[4] + ", " : "") + "dump line " + top[5] : "";
    return [s[0], s[1], total, names.join("; "), failed, top ? top[6] : null, top ? top[5] : null, s[4],
      s[3].map(function (rc) { return rc[2]; })];
  });
  var reasons = Table("reasons", [{ name: "reason", text: true, title: function (r) {
    return r[3] !== r[0] ? "as the dump wrote it: " + r[3] : null; } }, { name: "aborts", num: true },
    { name: "what it means, what to try", text: true }],
    reasonRows(), { sort: [1, -1] });
  fileFilter.addEventListener("input", function () {
    reasons.rows = reasonRows();
    reasons.sortBy(reasons.col, reasons.dir);
  });
  Table("sites", siteCols, siteRows, { filter: fileFilter, filterCol: 0, paged: true, sort: [2, -1] });

  /* Exits by what they cost: those without a side trace (each taking
   * returns to the interpreter), then those that grew one, counted only
   * until it attached. */
  var exitCols = [{ name: "gen", num: true }, { name: "trace", num: true, link: function (r) { return tracePage(r[0], r[1], 1); } },
    { name: "exit", num: true }, { name: "taken", num: true }];
  var startCol = { name: "trace starts at", text: true, link: function (r) { return sourcePage(r[6]); } };
  Table("cold", exitCols.concat([startCol]), data.cold, {});
  Table("exits", exitCols.concat([{ name: "side trace", num: true }, startCol]),
    data.exits.filter(function (r) { return r[4] !== null; }), {});
  if (data.ncold > data.cold.length) document.getElementById("cold-about").textContent +=
    " The " + data.cold.length + " most taken of " + data.ncold + "; gen-N-exits.csv lists them all.";
  if (!data.exits.length) document.getElementById("cold-about").textContent += " The dump has no exit records: run with -jdump=+x.";
  /* Likely blacklisted: the main reason (most attempts), then the last;
   * a row as shown: [gen, where, attempts, main reason, last reason,
   * afterwards, parent starts at, where's and the parent's source
   * lines, the main reason's attempts, the last as written]. */
  Table("blacklist", [{ name: "gen", num: true }, { name: "where", text: true, link: function (r) { return sourcePage(r[7]); } },
    { name: "attempts", num: true },
    { name: "main reason", text: true, show: function (r) { return r[3] + " (" + r[9] + ")"; },
      title: function (r) { return writtenTitle([r[3]]); } },
    { name: "last reason", text: true, title: function (r) { return r[10] !== r[4] ? "as the dump wrote it: " + r[10] : null; } },
    { name: "afterwards" },
    { name: "parent starts at", text: true, link: function (r) { return sourcePage(r[8]); } }],
    data.blacklist.map(function (r) {
      return [r[0], r[1], r[2], r[8], r[10], r[4], r[5], r[6], r[7], r[9], r[3]];
    }), {});
  /* Bushes: the largest; with a sysprof profile also those that took the
   * most samples, ranked by them.  A row of the data: [gen, bush, traces,
   * mcode bytes, root start, its source line(, samples, % of all
   * samples)]; as shown: the source line last. */
  var bushRows = data.bushes.map(function (r) {
    return r.slice(0, 5).concat(r.slice(6), [r[5]]);
  });
  var bushCols = [{ name: "gen", num: true }, { name: "bush", link: function (r) { return bushPage(r[0], r[1]); } },
    { name: "traces", num: true }, { name: "mcode bytes", num: true },
    { name: "root starts at", text: true, link: function (r) { return sourcePage(r[r.length - 1]); } }];
  if (data.bush_time) {
    bushCols.push({ name: "samples", num: true }, { name: "% samples", num: true,
      show: function (r) { return Number(r[6]).toFixed(2); } });
    document.getElementById("bushes-title").textContent = "Bushes by time";
    document.getElementById("bushes-about").textContent = "The bushes that took the most samples of the " +
      "sysprof profile " + data.bush_time.profile + " (" + data.bush_time.samples + " samples; " +
      "profile-bushes.csv has every bush), and the largest, ranked by samples: click a column to rank " +
      "by it. Each links to its generation's page, where it is drawn and each trace has a panel.";
  }
  Table("bushes", bushCols, bushRows, { sort: data.bush_time ? [5, -1] : [2, -1] });

  /* With --profile: the profiled lines, JIT failures first. */
  if (data.profile) {
    var pr = data.profile, total = pr.total || 1;
    document.getElementById("profile-about").textContent = "Profile " + pr.path + ": " +
      (pr.percent ? "percentages only" : pr.total + " samples") + ". Lines where traces aborted " +
      "or were blacklisted come first, by interpreted samples; shares are of all samples.";
    var notes = document.getElementById("profile-notes");
    if (pr.unmatched) notes.appendChild(el("li", pr.unmatched + " of " + pr.lines +
      " profile lines are in files the dump never names."));
    if (pr.thresholded) notes.appendChild(el("li", "The profile looks cut at -jp's 3% threshold: " +
      "record it with -jp=Gvli1 to see every line."));
    if (!pr.states) notes.appendChild(el("li", "The profile has no VM states: record it with " +
      "-jp=Gvli1 to see interpreted time."));
    var share = function (v) { return v === null ? null : (100 * v / total).toFixed(1); };
    var rows = pr.rows.map(function (r) {
      return [r[0], r[1], share(r[2]), share(r[3]), share(r[4]), share(r[5]), share(r[6]), share(r[7]),
        r[8], normal(r[9]), r[10], r[11], r[12], r[9]];
    });
    Table("profile", [{ name: "file", text: true },
      { name: "line", num: true, link: function (r) { return sourcePage(r[12]); } }, { name: "% samples", num: true },
      { name: "% interpreted", num: true }, { name: "% compiled", num: true }, { name: "% C", num: true },
      { name: "% GC", num: true }, { name: "% JIT", num: true }, { name: "aborts", num: true },
      { name: "top abort reason", text: true, title: function (r) {
        return r[13] !== r[9] ? "as the dump wrote it: " + r[13] : null; } }, { name: "traces started", num: true },
      { name: "blacklisted", num: true }], rows,
      { filter: document.getElementById("profile-filter"), filterCol: 0, paged: true });
  }
  /* The flame graphs the run drew (only those: a file to load). */
  (data.flamegraphs || []).forEach(function (g) {
    if (!/^flamegraph[a-z-]*\.svg$/.test(g[0])) return;
    var fig = el("figure", null, "flamegraph"), a = el("a"), img = el("img");
    a.href = g[0];
    img.src = g[0];
    img.alt = "flame graph of " + g[1];
    a.appendChild(img);
    fig.appendChild(a);
    fig.appendChild(el("figcaption", "Flame graph of " + g[1] + ": each frame as wide as its samples; " +
      "frames at lines where traces aborted or were likely blacklisted are marked. Click to open it alone.", "muted"));
    document.getElementById("flamegraphs").appendChild(fig);
  });
  if (data.profile || (data.flamegraphs || []).length) {
    document.getElementById("profile-section").hidden = false;
    document.getElementById("nav-profile").hidden = false;
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
  routeFinding();
  requestAnimationFrame(function () { performance.mark("rendered"); document.body.dataset.rendered = "1"; });
})();
