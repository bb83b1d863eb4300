/* A safe markdown renderer for model output, which is untrusted.
 *
 * Nothing here ever parses HTML: the input is treated as plain text and every
 * piece of it reaches the page through document.createTextNode or
 * setAttribute on an element this file chose (p, h1-h6, ul, ol, li, em,
 * strong, del, code, pre, table, blockquote, hr, a, button). That is the
 * escaping: "<script>" becomes the characters < s c r i p t >, never an element.
 * Links are kept only for http:, https: and mailto: and open with
 * rel="noopener noreferrer"; anything else (javascript:, data:, ...) shows
 * as its text. A citation such as [test_plan.md > Procedure] becomes a button
 * the page opens in the guide panel.
 *
 * The subset is what models write: ATX headings, paragraphs, (nested) bullet
 * and ordered lists, emphasis, strong, strikethrough, inline code, fenced
 * code, pipe tables, blockquotes, horizontal rules and links. An unclosed
 * fence renders as code so far, so a streamed answer re-renders cleanly.
 */
(function () {
  "use strict";

  var SAFE_SCHEMES = { "http:": true, "https:": true, "mailto:": true };
  var FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
  var HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
  var RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
  var QUOTE = /^ {0,3}> ?(.*)$/;
  var ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
  var TABLE_RULE = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
  var CITATION = /^([\w./-]+\.(?:md|yaml)) > ([^\[\]]+)$/;

  function el(tag, children) {
    var node = document.createElement(tag);
    (children || []).forEach(function (child) {
      node.appendChild(child);
    });
    return node;
  }

  function text(value) {
    return document.createTextNode(value);
  }

  function blank(line) {
    return /^\s*$/.test(line);
  }

  function startsBlock(line, next) {
    return (
      FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) ||
      ITEM.test(line) || isTableStart(line, next)
    );
  }

  function isTableStart(line, next) {
    return line.indexOf("|") >= 0 && next !== undefined && TABLE_RULE.test(next) &&
      next.indexOf("-") >= 0;
  }

  /* ---- blocks ------------------------------------------------------------------------- */

  function parseBlocks(lines) {
    var out = [];
    var i = 0;
    while (i < lines.length) {
      var line = lines[i];
      if (blank(line)) {
        i += 1;
      } else if (FENCE.test(line)) {
        i = fencedCode(lines, i, out);
      } else if (HEADING.test(line)) {
        var h = HEADING.exec(line);
        out.push(el("h" + h[1].length, inline(h[2] || "")));
        i += 1;
      } else if (RULE.test(line)) {
        out.push(el("hr"));
        i += 1;
      } else if (QUOTE.test(line)) {
        i = blockquote(lines, i, out);
      } else if (ITEM.test(line)) {
        i = list(lines, i, out);
      } else if (isTableStart(line, lines[i + 1])) {
        i = table(lines, i, out);
      } else {
        i = paragraph(lines, i, out);
      }
    }
    return out;
  }

  function fencedCode(lines, i, out) {
    var open = FENCE.exec(lines[i]);
    var marker = open[1];
    var body = [];
    var j = i + 1;
    while (j < lines.length) {
      var close = lines[j].trim();
      if (close.charAt(0) === marker.charAt(0) && close.length >= marker.length &&
          close.split(marker.charAt(0)).join("") === "") {
        j += 1;
        break;
      }
      body.push(lines[j]);
      j += 1;
    }
    var code = el("code", [text(body.join("\n"))]);
    if (open[2]) code.setAttribute("data-lang", open[2]);
    out.push(el("pre", [code]));
    return j;
  }

  function blockquote(lines, i, out) {
    var inner = [];
    while (i < lines.length && QUOTE.test(lines[i])) {
      inner.push(QUOTE.exec(lines[i])[1]);
      i += 1;
    }
    out.push(el("blockquote", parseBlocks(inner)));
    return i;
  }

  function paragraph(lines, i, out) {
    var parts = [lines[i].trim()];
    i += 1;
    while (i < lines.length && !blank(lines[i]) && !startsBlock(lines[i], lines[i + 1])) {
      parts.push(lines[i].trim());
      i += 1;
    }
    out.push(el("p", inline(parts.join("\n"))));
    return i;
  }

  function splitRow(line) {
    var row = line.trim();
    if (row.charAt(0) === "|") row = row.slice(1);
    if (row.charAt(row.length - 1) === "|" && row.charAt(row.length - 2) !== "\\") {
      row = row.slice(0, -1);
    }
    var cells = [];
    var cell = "";
    for (var k = 0; k < row.length; k += 1) {
      var c = row.charAt(k);
      if (c === "\\" && row.charAt(k + 1) === "|") {
        cell += "|";
        k += 1;
      } else if (c === "|") {
        cells.push(cell.trim());
        cell = "";
      } else {
        cell += c;
      }
    }
    cells.push(cell.trim());
    return cells;
  }

  function table(lines, i, out) {
    var head = splitRow(lines[i]);
    var aligns = splitRow(lines[i + 1]).map(function (spec) {
      var left = spec.charAt(0) === ":";
      var right = spec.charAt(spec.length - 1) === ":";
      return left && right ? "center" : right ? "right" : left ? "left" : "";
    });
    var headRow = el("tr", head.map(function (cell, n) {
      return alignCell(el("th", inline(cell)), aligns[n]);
    }));
    var body = [];
    i += 2;
    while (i < lines.length && !blank(lines[i]) && lines[i].indexOf("|") >= 0) {
      var cells = splitRow(lines[i]);
      body.push(el("tr", head.map(function (_, n) {
        return alignCell(el("td", inline(cells[n] || "")), aligns[n]);
      })));
      i += 1;
    }
    var wrap = el("div", [el("table", [el("thead", [headRow]), el("tbody", body)])]);
    wrap.className = "table-wrap";
    out.push(wrap);
    return i;
  }

  function alignCell(cell, align) {
    if (align) cell.className = "align-" + align;
    return cell;
  }

  /* Lists: items by indentation; a deeper item opens a list inside the previous item;
   * an indented plain line continues the item above it. */
  function list(lines, i, out) {
    var items = [];
    while (i < lines.length) {
      var line = lines[i];
      var m = ITEM.exec(line);
      if (m) {
        items.push({ indent: width(m[1]), ordered: /\d/.test(m[2]), start: parseInt(m[2], 10),
          lines: [m[3]] });
        i += 1;
      } else if (!blank(line) && /^[ \t]+\S/.test(line) && items.length) {
        items[items.length - 1].lines.push(line.trim());
        i += 1;
      } else if (blank(line) && i + 1 < lines.length && items.length &&
                 (ITEM.test(lines[i + 1]) || /^[ \t]{2,}\S/.test(lines[i + 1]))) {
        i += 1;
      } else {
        break;
      }
    }
    var pos = { n: 0 };
    while (pos.n < items.length) out.push(buildList(items, pos, items[pos.n].indent));
    return i;
  }

  function buildList(items, pos, indent) {
    var first = items[pos.n];
    var node = el(first.ordered ? "ol" : "ul");
    if (first.ordered && first.start !== 1 && !isNaN(first.start)) {
      node.setAttribute("start", String(first.start));
    }
    var li = null;
    while (pos.n < items.length) {
      var item = items[pos.n];
      if (item.indent < indent || (li === null && item.indent > indent)) break;
      if (item.indent > indent) {
        li.appendChild(buildList(items, pos, item.indent));
        continue;
      }
      if (item.ordered !== first.ordered) break;
      li = el("li", inline(item.lines.join("\n")));
      node.appendChild(li);
      pos.n += 1;
    }
    return node;
  }

  function width(indent) {
    return indent.replace(/\t/g, "    ").length;
  }

  /* ---- inline ------------------------------------------------------------------------- */

  function inline(source) {
    var nodes = [];
    var buffer = "";
    function flush() {
      if (buffer) nodes.push(text(buffer));
      buffer = "";
    }
    var i = 0;
    while (i < source.length) {
      var found = inlineAt(source, i);
      if (found) {
        flush();
        nodes.push(found.node);
        i = found.end;
      } else if (source.charAt(i) === "\\" && /[\\`*_{}\[\]()#+\-.!|~<>]/.test(source.charAt(i + 1))) {
        buffer += source.charAt(i + 1);
        i += 2;
      } else if (source.charAt(i) === "\n") {
        if (/ {2}$/.test(buffer)) {
          buffer = buffer.replace(/ +$/, "");
          flush();
          nodes.push(el("br"));
        } else {
          buffer += " ";
        }
        i += 1;
      } else {
        buffer += source.charAt(i);
        i += 1;
      }
    }
    flush();
    return nodes;
  }

  function inlineAt(s, i) {
    var c = s.charAt(i);
    if (c === "`") return codeSpan(s, i);
    if (c === "[") return bracket(s, i);
    if (c === "<") return autolink(s, i);
    if (s.substr(i, 2) === "~~") return delimited(s, i, "~~", "del");
    if (s.substr(i, 2) === "**" || s.substr(i, 2) === "__") {
      return delimited(s, i, s.substr(i, 2), "strong");
    }
    if (c === "*" || c === "_") return delimited(s, i, c, "em");
    return null;
  }

  function codeSpan(s, i) {
    var run = /^`+/.exec(s.slice(i))[0];
    var close = s.indexOf(run, i + run.length);
    if (close < 0) return null;
    var body = s.slice(i + run.length, close).replace(/\n/g, " ");
    if (/^ .* $/.test(body)) body = body.slice(1, -1);
    return { node: el("code", [text(body)]), end: close + run.length };
  }

  /* A delimiter run opens when followed by a non-space and (for `_`) not preceded by a
   * letter; it closes when preceded by a non-space and (for `_`) not followed by one, so
   * snake__case and window.__name stay as written. As in CommonMark, a closer pairs with
   * the nearest opener: an earlier one with another opener in between stays text. */
  function opens(s, i, marker) {
    var after = s.charAt(i + marker.length);
    if (s.substr(i, marker.length) !== marker || after === "" || /\s/.test(after)) return false;
    if (marker.length === 1 && (after === marker || s.charAt(i - 1) === marker)) return false;
    return !(marker.charAt(0) === "_" && /\w/.test(s.charAt(i - 1)));
  }

  function closes(s, i, marker) {
    var after = s.charAt(i + marker.length);
    if (s.substr(i, marker.length) !== marker || /\s/.test(s.charAt(i - 1))) return false;
    if (marker.length === 1 && (after === marker || s.charAt(i - 1) === marker)) return false;
    return !(marker.charAt(0) === "_" && /\w/.test(after));
  }

  function delimited(s, i, marker, tag) {
    if (!opens(s, i, marker)) return null;
    var start = i + marker.length;
    var close = start;
    while (close < s.length && !closes(s, close, marker)) close += 1;
    if (close >= s.length || close === start) return null;
    for (var j = start; j < close; j += 1) {
      if (opens(s, j, marker)) return null;
    }
    return { node: el(tag, inline(s.slice(start, close))), end: close + marker.length };
  }

  /* [text](url "title"), or a citation [file.md > Section], or plain text. */
  function bracket(s, i) {
    var close = matching(s, i, "[", "]");
    if (close < 0) return null;
    var label = s.slice(i + 1, close);
    if (s.charAt(close + 1) === "(") {
      var end = matching(s, close + 1, "(", ")");
      if (end < 0) return null;
      var target = parseTarget(s.slice(close + 2, end));
      return { node: link(label, target.url, target.title), end: end + 1 };
    }
    var cite = CITATION.exec(label);
    if (cite) return { node: citation(label, cite[1], cite[2]), end: close + 1 };
    return null;
  }

  function matching(s, i, open, shut) {
    var depth = 0;
    for (var k = i; k < s.length; k += 1) {
      var c = s.charAt(k);
      if (c === "\\") {
        k += 1;
      } else if (c === open) {
        depth += 1;
      } else if (c === shut) {
        depth -= 1;
        if (depth === 0) return k;
      }
    }
    return -1;
  }

  function parseTarget(inside) {
    var m = /^\s*<?([^\s>]*)>?(?:\s+(["'])([\s\S]*)\2)?\s*$/.exec(inside);
    if (!m) return { url: inside.trim(), title: "" };
    return { url: m[1], title: m[3] || "" };
  }

  function safeUrl(url) {
    if (/[\u0000-\u0020\u007f]/.test(url)) return null;
    try {
      var parsed = new URL(url);
      return SAFE_SCHEMES[parsed.protocol] ? parsed.href : null;
    } catch (e) {
      return null;
    }
  }

  function link(label, url, title) {
    var href = safeUrl(url);
    var content = inline(label);
    if (href === null) return el("span", content);
    var a = el("a", content);
    a.setAttribute("href", href);
    a.setAttribute("rel", "noopener noreferrer");
    a.setAttribute("target", "_blank");
    if (title) a.setAttribute("title", title);
    return a;
  }

  function autolink(s, i) {
    var m = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(s.slice(i));
    if (!m) return null;
    var node = link(m[1], m[1], "");
    if (node.tagName !== "A") return null;
    return { node: node, end: i + m[0].length };
  }

  function citation(label, file, section) {
    var button = el("button", [text("[" + label + "]")]);
    button.type = "button";
    button.className = "cite";
    button.setAttribute("data-guide", file.replace(/\.(md|yaml)$/, "").split("/").pop());
    button.setAttribute("data-file", file.split("/").pop());
    button.setAttribute("data-section", section.trim());
    return button;
  }

  /* ---- public ------------------------------------------------------------------------- */

  function render(source) {
    var fragment = document.createDocumentFragment();
    var lines = String(source == null ? "" : source).replace(/\r\n?/g, "\n").split("\n");
    parseBlocks(lines).forEach(function (node) {
      fragment.appendChild(node);
    });
    return fragment;
  }

  function renderInto(target, source) {
    target.replaceChildren(render(source));
  }

  window.DAMarkdown = { render: render, renderInto: renderInto, safeUrl: safeUrl };
})();
