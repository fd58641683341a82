/* The claims ledger's table (book/_ext/claims_ledger.py): every claim of the build, read from
 * window.BAI_LEDGER (_static/claims_ledger_data.js, the rows of the dataset data/claims.json),
 * filtered by paper, verdict, reading, rule kind and text, sorted by a column, shown a page at
 * a time. Each claim's row has the id claim-<id> (bai.publish.claim_anchor): a link
 * ledger.html#claim-<id> opens the page that holds the claim, with its rows beneath unfolded.
 * No network, no library: the page works offline and from a folder opened without a server. */
(function () {
  "use strict";

  var PAGE_SIZES = [25, 50, 100, 250];
  var COLUMNS = [
    {key: "paper", title: "paper"},
    {key: "claim", title: "claim (deciding row)"},
    {key: "paper_value", title: "paper value (source)"},
    {key: "ours", title: "ours"},
    {key: "verdict", title: "verdict"},
    {key: "resolution", title: "resolution"},
    {key: "reason", title: "reason"}
  ];

  function anchor(id) {
    // bai.publish.claim_anchor: characters outside [A-Za-z0-9.-] as _xx (UTF-8 bytes in hex)
    var out = "claim-";
    for (var i = 0; i < id.length; i++) {
      var c = id.charAt(i);
      if (/[A-Za-z0-9.\-]/.test(c)) { out += c; continue; }
      var bytes = unescape(encodeURIComponent(c));
      out += "_";
      for (var j = 0; j < bytes.length; j++) {
        var h = bytes.charCodeAt(j).toString(16);
        out += (h.length < 2 ? "0" : "") + h;
      }
    }
    return out;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function fmt(x, digits) {
    if (x === null || x === undefined || x === "") return "\u2014";
    if (typeof x !== "number") return String(x);
    digits = digits || 4;
    if (!isFinite(x)) return String(x);
    if (Number.isInteger(x) && Math.abs(x) < 1e15) return x.toLocaleString("en-US");
    if (Math.abs(x) >= Math.pow(10, digits)) return Math.round(x).toLocaleString("en-US");
    return String(Number(x.toPrecision(digits)));
  }

  function ours(r) {
    if (r.ours === null || r.ours === undefined) return "\u2014";
    if (r.se !== null && r.se !== undefined) return fmt(r.ours) + " \u00b1 " + fmt(r.se, 2);
    if (r.failures !== null && r.failures !== undefined && r.runs)
      return fmt(r.ours) + " (" + r.failures + "/" + r.runs + ")";
    return fmt(r.ours);
  }

  function paperValue(r) {
    if (r.paper_value === null || r.paper_value === undefined) return "\u2014";
    return fmt(r.paper_value) + (r.paper_locator ? " (" + r.paper_locator + ")" : "");
  }

  function slug(v) { return String(v || "").replace(/\W+/g, "-").replace(/^-|-$/g, ""); }

  function verdictNode(v) { return el("span", "claims-verdict-" + slug(v), v); }

  function link(text, href) {
    if (!href) return document.createTextNode(text);
    var a = el("a", "reference internal", text);
    a.href = href;
    return a;
  }

  function group(data) {
    var order = {}, claims = [], byKey = {};
    (data.chapters || []).forEach(function (c, i) { order[c.chapter] = i; });
    data.rows.forEach(function (r, i) {
      var key = r.chapter + "\u0000" + r.claim_id;
      var c = byKey[key];
      if (!c) {
        c = byKey[key] = {key: key, chapter: r.chapter, paper: r.paper, id: r.claim_id,
                          verdict: r.claim_verdict || r.verdict, role: r.claim_role,
                          rows: [], first: i, anchor: anchor(r.claim_id),
                          chapterOrder: order[r.chapter] === undefined ? 1e6 : order[r.chapter]};
        claims.push(c);
      }
      c.rows.push(r);
    });
    claims.forEach(function (c) {
      c.head = c.rows.filter(function (r) { return r.deciding; })[0] || c.rows[0];
      c.readings = {};
      c.rows.forEach(function (r) {
        if (r.reading) c.readings[r.reading] = true;
        if (r.claim_reading) c.readings[r.claim_reading] = true;
      });
      c.text = c.rows.map(function (r) {
        return [r.claim_id, r.row_id, r.statement, r.label, r.reason, r.causes].join(" ");
      }).join(" ").toLowerCase();
    });
    return claims;
  }

  function options(select, values, all) {
    select.appendChild(new Option(all, ""));
    values.forEach(function (v) { select.appendChild(new Option(v, v)); });
  }

  function unique(list) {
    var seen = {}, out = [];
    list.forEach(function (v) { if (v && !seen[v]) { seen[v] = true; out.push(v); } });
    return out;
  }

  function start() {
    var root = document.getElementById("claims-ledger-app");
    if (!root) return;
    var status = root.querySelector(".claims-app-status");
    var data = window.BAI_LEDGER;
    if (!data || !data.rows) {
      if (status) status.textContent = "The claims of this build did not load " +
        "(_static/claims_ledger_data.js is missing): read data/claims.csv instead.";
      return;
    }
    var base = root.getAttribute("data-root") || "";
    var claims = group(data);
    var verdictOrder = (data.paper_verdicts || []).concat(data.check_verdicts || []);
    var state = {paper: "", verdict: "", reading: "", rule: "", kind: "", text: "",
                 sort: "book", dir: 1, page: 0, size: 50, open: {}};

    // -- controls ---------------------------------------------------------------------------
    var controls = el("div", "claims-app-controls");
    function control(label, node) {
      var wrap = el("label", "claims-app-control");
      wrap.appendChild(el("span", "", label));
      wrap.appendChild(node);
      controls.appendChild(wrap);
      return node;
    }
    var papers = unique(claims.slice().sort(function (a, b) {
      return a.chapterOrder - b.chapterOrder;
    }).map(function (c) { return c.paper; }));
    var sPaper = control("paper", el("select", "claims-filter-paper"));
    options(sPaper, papers, "every paper");
    var present = unique(claims.map(function (c) { return c.verdict; }));
    var sVerdict = control("verdict", el("select", "claims-filter-verdict"));
    options(sVerdict, verdictOrder.filter(function (v) { return present.indexOf(v) >= 0; })
      .concat(present.filter(function (v) { return verdictOrder.indexOf(v) < 0; })),
      "every verdict");
    var sReading = control("reading", el("select", "claims-filter-reading"));
    var readings = {};
    claims.forEach(function (c) { Object.keys(c.readings).forEach(function (r) { readings[r] = 1; }); });
    options(sReading, Object.keys(readings).sort(), "every reading");
    var sRule = control("rule kind", el("select", "claims-filter-rule"));
    options(sRule, unique(claims.map(function (c) { return c.head.rule_kind; })).sort(),
            "every rule");
    var sKind = control("kind", el("select", "claims-filter-kind"));
    sKind.appendChild(new Option("paper claims and checks", ""));
    sKind.appendChild(new Option("paper claims", "reproduction"));
    sKind.appendChild(new Option("consistency checks", "check"));
    var sText = control("text", el("input", "claims-filter-text"));
    sText.type = "search";
    sText.placeholder = "id, words, label…";
    var sSize = control("per page", el("select", "claims-filter-size"));
    PAGE_SIZES.forEach(function (n) { sSize.appendChild(new Option(String(n), String(n))); });
    sSize.value = String(state.size);

    var summary = el("p", "claims-app-count");
    var pager = el("div", "claims-app-pager");
    var table = el("table", "claims-ledger claims-ledger-claims table");
    var thead = el("thead"), tbody = el("tbody");
    table.appendChild(thead);
    table.appendChild(tbody);
    var headRow = el("tr");
    COLUMNS.forEach(function (col) {
      var th = el("th", "claims-sortable");
      var b = el("button", "claims-sort", col.title);
      b.type = "button";
      b.setAttribute("data-sort", col.key);
      b.addEventListener("click", function () {
        if (state.sort === col.key) state.dir = -state.dir; else { state.sort = col.key; state.dir = 1; }
        state.page = 0;
        render();
      });
      th.appendChild(b);
      headRow.appendChild(th);
    });
    thead.appendChild(headRow);
    var wrap = el("div", "claims-app-table");
    wrap.appendChild(table);
    root.innerHTML = "";
    root.appendChild(controls);
    root.appendChild(summary);
    root.appendChild(pager);
    root.appendChild(wrap);
    var pagerBottom = el("div", "claims-app-pager");
    root.appendChild(pagerBottom);

    [sPaper, sVerdict, sReading, sRule, sKind, sSize].forEach(function (s) {
      s.addEventListener("change", function () { read(); state.page = 0; render(); });
    });
    sText.addEventListener("input", function () { read(); state.page = 0; render(); });

    function read() {
      state.paper = sPaper.value; state.verdict = sVerdict.value; state.reading = sReading.value;
      state.rule = sRule.value; state.kind = sKind.value; state.text = sText.value.trim().toLowerCase();
      state.size = parseInt(sSize.value, 10) || 50;
    }

    function matches(c) {
      if (state.paper && c.paper !== state.paper) return false;
      if (state.verdict && c.verdict !== state.verdict) return false;
      if (state.reading && !c.readings[state.reading]) return false;
      if (state.rule && c.head.rule_kind !== state.rule) return false;
      if (state.kind && c.role !== state.kind) return false;
      if (state.text && c.text.indexOf(state.text) < 0) return false;
      return true;
    }

    function sortKey(c) {
      var h = c.head;
      switch (state.sort) {
        case "paper": return [c.chapterOrder, c.first];
        case "claim": return [c.id];
        case "paper_value": return [h.paper_value === null ? Infinity : h.paper_value];
        case "ours": return [h.ours === null ? Infinity : h.ours];
        case "verdict": var k = verdictOrder.indexOf(c.verdict); return [k < 0 ? 99 : k, c.first];
        case "resolution": return [h.resolution === null ? Infinity : h.resolution];
        case "reason": return [h.reason || "\uffff"];
        default: return [c.chapterOrder, c.first];
      }
    }

    function compare(a, b) {
      var ka = sortKey(a), kb = sortKey(b);
      for (var i = 0; i < ka.length; i++) {
        if (ka[i] < kb[i]) return -state.dir;
        if (ka[i] > kb[i]) return state.dir;
      }
      return a.first - b.first;
    }

    function visible() { return claims.filter(matches).sort(compare); }

    function claimRow(c) {
      var h = c.head, tr = el("tr", "claims-row");
      tr.id = c.anchor;
      var chapterUrl = h.url ? base + h.url.split("#")[0] : "";
      var td = el("td");
      td.appendChild(link(c.chapter, chapterUrl));
      tr.appendChild(td);
      td = el("td", "claims-claim");
      td.appendChild(el("p", "", h.statement));
      var idp = el("p", "");
      var a = el("a", "claims-permalink");
      a.href = "#" + c.anchor;
      a.title = "permalink to this claim";
      a.appendChild(el("code", "claim-id", c.id));
      idp.appendChild(a);
      if (c.role === "check") idp.appendChild(el("span", "claims-role-check", " consistency check"));
      td.appendChild(idp);
      if (h.label) td.appendChild(el("p", "claims-deciding", "deciding row: " + h.label));
      var rule = [h.rule, h.detects].filter(Boolean).join("; ");
      if (rule) td.appendChild(el("p", "claims-rule", "rule: " + rule));
      tr.appendChild(td);
      td = el("td");
      td.appendChild(el("p", "", paperValue(h)));
      if (h.source) td.appendChild(el("p", "claims-source", h.source));
      tr.appendChild(td);
      td = el("td");
      td.appendChild(el("p", "", ours(h)));
      if (h.reading) td.appendChild(el("p", "claims-rule", "reading: " + h.reading));
      tr.appendChild(td);
      td = el("td");
      td.appendChild(verdictNode(c.verdict));
      tr.appendChild(td);
      td = el("td", "", h.resolution === null || h.resolution === undefined ? "\u2014" :
              fmt(100 * h.resolution, 3) + " %");
      tr.appendChild(td);
      td = el("td");
      var reason = h.reason || ((c.verdict === "not reproduced" || c.verdict === "fails") ?
        data.missing_reason : "");
      if (reason) td.appendChild(link(reason, h.url ? base + h.url : ""));
      if (!h.reason && reason) td.firstChild.className = "claims-missing-reason";
      if (c.rows.length > 1) {
        var b = el("button", "claims-beneath-toggle",
                   (state.open[c.key] ? "hide " : "show ") + (c.rows.length - 1) + " row(s) beneath");
        b.type = "button";
        b.setAttribute("aria-expanded", state.open[c.key] ? "true" : "false");
        b.addEventListener("click", function () { state.open[c.key] = !state.open[c.key]; render(); });
        td.appendChild(b);
      }
      tr.appendChild(td);
      return tr;
    }

    function subRow(c, r) {
      var tr = el("tr", "claims-sub-row");
      tr.appendChild(el("td"));
      var td = el("td");
      td.appendChild(el("p", "claims-beneath-label", "\u21b3 " + r.role + (r.label ? ": " + r.label : "") +
                        (r.reading && r.role !== "printed" ? " (reading: " + r.reading + ")" : "")));
      var rule = [r.rule, r.detects].filter(Boolean).join("; ");
      if (rule) td.appendChild(el("p", "claims-rule", "rule: " + rule));
      tr.appendChild(td);
      tr.appendChild(el("td", "", paperValue(r)));
      tr.appendChild(el("td", "", ours(r)));
      td = el("td");
      td.appendChild(verdictNode(r.verdict));
      tr.appendChild(td);
      tr.appendChild(el("td", "", r.resolution === null || r.resolution === undefined ? "\u2014" :
                        fmt(100 * r.resolution, 3) + " %"));
      tr.appendChild(el("td", "", r.reason || ""));
      return tr;
    }

    function pagerInto(node, n, pages) {
      node.innerHTML = "";
      var prev = el("button", "claims-page-prev", "\u2190 previous");
      prev.type = "button";
      prev.disabled = state.page <= 0;
      prev.addEventListener("click", function () { state.page--; render(); });
      var next = el("button", "claims-page-next", "next \u2192");
      next.type = "button";
      next.disabled = state.page >= pages - 1;
      next.addEventListener("click", function () { state.page++; render(); });
      node.appendChild(prev);
      node.appendChild(el("span", "claims-page-where", " page " + (pages ? state.page + 1 : 0) +
                          " of " + pages + " "));
      node.appendChild(next);
    }

    function render() {
      var list = visible();
      var pages = Math.max(1, Math.ceil(list.length / state.size));
      state.page = Math.min(Math.max(0, state.page), pages - 1);
      var shown = list.slice(state.page * state.size, (state.page + 1) * state.size);
      tbody.innerHTML = "";
      shown.forEach(function (c) {
        tbody.appendChild(claimRow(c));
        if (state.open[c.key]) c.rows.slice(1).forEach(function (r) { tbody.appendChild(subRow(c, r)); });
      });
      var counts = {};
      list.forEach(function (c) { counts[c.verdict] = (counts[c.verdict] || 0) + 1; });
      summary.textContent = list.length + " of " + claims.length + " claims" +
        (list.length ? " (" + Object.keys(counts).map(function (v) { return counts[v] + " " + v; }).join(", ") + ")" : "") +
        (list.length ? "; showing " + (state.page * state.size + 1) + "\u2013" +
         (state.page * state.size + shown.length) : "") + ".";
      pagerInto(pager, list.length, pages);
      pagerInto(pagerBottom, list.length, pages);
      thead.querySelectorAll("button.claims-sort").forEach(function (b) {
        var on = b.getAttribute("data-sort") === state.sort;
        b.parentNode.setAttribute("aria-sort", on ? (state.dir > 0 ? "ascending" : "descending") : "none");
        b.classList.toggle("claims-sorted", on);
      });
    }

    function goTo(hash) {
      if (!hash || hash.indexOf("#claim-") !== 0) return false;
      var target = hash.slice(1);
      var c = claims.filter(function (x) { return x.anchor === target; })[0];
      if (!c) return false;
      if (!matches(c)) {   // show it whatever the filters were
        sPaper.value = sVerdict.value = sReading.value = sRule.value = sKind.value = "";
        sText.value = "";
        read();
      }
      var list = visible();
      state.page = Math.floor(list.indexOf(c) / state.size);
      state.open[c.key] = true;
      render();
      var row = document.getElementById(target);
      if (row) {
        root.querySelectorAll("tr.claims-target").forEach(function (r) { r.classList.remove("claims-target"); });
        row.classList.add("claims-target");
        row.scrollIntoView({block: "start"});
      }
      return true;
    }

    render();
    goTo(window.location.hash);
    window.addEventListener("hashchange", function () { goTo(window.location.hash); });
    root.setAttribute("data-ready", "true");
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
