// The one inline script of an exported page (plain ES2019, kept as text: it runs in the reader's browser,
// not here). It reads the page's JSON data and renders the selected request's panes with DOM calls and
// textContent only — never innerHTML — so model and tool text stays text. The page's CSP allows exactly
// this script (by its sha256) and nothing else: no network, no other script.
export const PAGE_SCRIPT = String.raw`(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("session-data").textContent);
  var panes = ["stable", "environment", "messages", "tools", "raw", "diffs", "tokens"];
  var current = { request: 0, pane: "stable" };
  var payloads = [];

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) for (var key in attrs) node.setAttribute(key, attrs[key]);
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function pre(text, cls) { return el("pre", cls ? { class: cls } : null, [text]); }
  function json(value) { return JSON.stringify(value, null, 2); }

  // The log's model: each text and JSON value once, by its sha256 (server/protocol/request-model.ts).
  function blob(hash) { return data.blobs[hash]; }

  // A payload's top-level lists are stored as chains: each list names the one it extends ("after").
  function listItems(hash) {
    var chain = [];
    for (var next = hash, guard = 0; next !== undefined && guard < 100000; guard++) {
      var list = blob(next);
      if (!list || !Array.isArray(list.items)) break;
      chain.unshift(list.items);
      next = typeof list.after === "string" ? list.after : undefined;
    }
    return [].concat.apply([], chain);
  }

  function expandPayload(index) {
    if (payloads[index] !== undefined) return payloads[index];
    var hash = data.requests[index].payload;
    var stored = hash === undefined ? undefined : blob(hash);
    var result = stored && stored.value;
    if (stored && stored.lists && result && typeof result === "object" && !Array.isArray(result)) {
      var copy = {};
      Object.keys(result).forEach(function (key) { copy[key] = result[key]; });
      Object.keys(stored.lists).forEach(function (key) { copy[key] = listItems(stored.lists[key]); });
      result = copy;
    }
    payloads[index] = result;
    return result;
  }

  function messagesOf(request) {
    return request.messages ? request.messages.map(blob) : data.conversation.slice(0, request.historyLength || 0);
  }

  function messageView(message, added) {
    var role = message.role === "tool" ? "tool result · " + message.toolName : message.role;
    var item = el("li", { class: "msg msg-" + message.role + (added ? " added" : ""), "data-testid": "export-pane-message" }, [
      el("div", { class: "msg-role" }, [role + (added ? " · new in this request" : "") + (message.isError ? " · error" : "")]),
    ]);
    if (message.content) item.appendChild(pre(message.content));
    (message.toolCalls || []).forEach(function (call) {
      item.appendChild(pre("→ " + call.name + "(" + JSON.stringify(call.input) + ")", "call"));
    });
    return item;
  }

  function diffView(parts) {
    var box = el("div", { class: "diff" });
    parts.forEach(function (part) {
      if (part[0] === "=") box.appendChild(el("div", { class: "same" }, ["… " + part[1] + " unchanged line(s) …"]));
      else box.appendChild(pre(part[1].replace(/\n$/, "").split("\n").map(function (line) { return part[0] + " " + line; }).join("\n"), part[0] === "+" ? "add" : "del"));
    });
    return box;
  }

  function table(rows) {
    var body = el("tbody");
    rows.forEach(function (row) {
      body.appendChild(el("tr", null, row.map(function (cell) { return el("td", null, [String(cell)]); })));
    });
    return el("table", null, [body]);
  }

  function render(pane, index) {
    var request = data.requests[index];
    var box = el("div", { "data-testid": "export-pane-" + pane, class: "pane-body" });
    if (pane === "stable") {
      box.appendChild(el("p", { class: "note" }, ["sha256 " + request.stableHash + " · " + (blob(request.stable) || "").length + " chars"]));
      box.appendChild(pre(blob(request.stable) || ""));
    } else if (pane === "environment") {
      box.appendChild(el("p", { class: "note" }, ["active skills: " + (request.activeSkills.join(", ") || "none")]));
      box.appendChild(pre(request.environment.map(blob).join("")));
    } else if (pane === "messages") {
      var messages = messagesOf(request);
      var previous = index > 0 ? messagesOf(data.requests[index - 1]).length : 0;
      var list = el("ol", { class: "messages" });
      messages.forEach(function (message, position) { list.appendChild(messageView(message, position >= previous && index > 0)); });
      box.appendChild(el("p", { class: "note" }, [messages.length + " message(s)"]));
      box.appendChild(list);
    } else if (pane === "tools") {
      var tools = request.tools.map(blob).filter(Boolean);
      box.appendChild(el("p", { class: "note" }, [tools.length + " tool(s) visible to the model" +
        (request.registeredNotVisible.length ? "; registered, not visible yet: " + request.registeredNotVisible.join(", ") : "")]));
      tools.forEach(function (tool) {
        box.appendChild(el("details", null, [el("summary", null, [tool.name + " — " + tool.origin + ", " + tool.safety]), pre(tool.description + "\n\n" + json(tool.inputSchema))]));
      });
    } else if (pane === "raw") {
      var payload = expandPayload(index);
      box.appendChild(el("p", { class: "note" }, ["The payload sent to the provider, keys redacted."]));
      box.appendChild(payload === undefined ? el("p", null, ["(no payload recorded)"]) : pre(json(payload)));
    } else if (pane === "diffs") {
      var diff = request.diff;
      if (!diff) box.appendChild(el("p", null, ["First request: nothing to compare with."]));
      else {
        box.appendChild(el("h4", null, ["Stable system"]));
        box.appendChild(diff.stable ? diffView(diff.stable) : el("p", { class: "same" }, ["unchanged (byte-identical)"]));
        box.appendChild(el("h4", null, ["Environment"]));
        box.appendChild(diff.environment ? diffView(diff.environment) : el("p", { class: "same" }, ["unchanged"]));
        box.appendChild(el("h4", null, ["Tools"]));
        box.appendChild(el("p", null, [(diff.toolsAdded.length ? "added: " + diff.toolsAdded.join(", ") + " " : "") +
          (diff.toolsRemoved.length ? "removed: " + diff.toolsRemoved.join(", ") : "") || "unchanged"]));
      }
    } else if (pane === "tokens") {
      if (request.segments) {
        box.appendChild(el("p", { class: "note" }, ["Counted by the server with " + request.tokenizer + " (a tokenizer, not the provider)."]));
        var rows = [["segment", "name", "sha256", "tokens"]].concat(request.segments.map(function (s) { return [s.kind, s.name, s.hash + "…", s.tokens]; }));
        if (!request.messages) {
          var counted = data.conversationTokens.slice(0, request.historyLength || 0);
          rows.push(["message", counted.length + " message(s)", "", counted.reduce(function (sum, t) { return sum + (t || 0); }, 0)]);
        }
        box.appendChild(table(rows));
      } else box.appendChild(el("p", null, ["No token figures in this log (written before they were recorded)."]));
      if (request.eager) box.appendChild(el("p", null, ["Eager disclosure would send " + request.eager.totalTokens + " tokens (stable " + request.eager.stableTokens + ")."]));
      request.usage.forEach(function (usage) {
        var source = usage.source === "estimate" ? "estimate: " + (usage.estimate || "") : "reported by the provider";
        box.appendChild(el("h4", null, ["Usage (" + source + ")"]));
        box.appendChild(table(Object.keys(usage).filter(function (key) { return key !== "source" && key !== "estimate" && key !== "cacheDiagnostics"; }).map(function (key) { return [key, usage[key]]; })));
        var reported = usage.cacheDiagnostics;
        if (reported) {
          box.appendChild(el("h4", { "data-testid": "export-cache-diagnostics" }, ["Cache diagnostics (reported by the provider: " + reported.source + ")"]));
          box.appendChild(table(Object.keys(reported).filter(function (key) { return key !== "source"; }).map(function (key) { return [key, reported[key] === null ? "null" : reported[key]]; })));
        }
      });
      var predicted = request.cache && request.cache.diagnostics;
      if (predicted) {
        box.appendChild(el("h4", null, ["Cache diagnostics (predicted)"]));
        box.appendChild(table([
          ["compared with", predicted.comparedWith === null ? "nothing (first request)" : "request #" + predicted.comparedWith],
          ["divergence", predicted.type === null ? "none" : predicted.type + " (" + predicted.missedInputTokens + " tokens after it)"],
          ["tools added / removed", (predicted.toolsAdded.join(", ") || "—") + " / " + (predicted.toolsRemoved.join(", ") || "—")],
          ["system characters", (predicted.systemCharDelta >= 0 ? "+" : "") + predicted.systemCharDelta],
        ].concat(predicted.announced ? [["announced", predicted.announced]] : [])));
      }
      if (request.cacheCheck) {
        var disagree = request.cacheCheck.verdict === "disagree";
        box.appendChild(el("p", { class: disagree ? "warn" : "same", "data-testid": "export-cache-check" }, [(disagree ? "DISAGREE — " : request.cacheCheck.verdict + " — ") + request.cacheCheck.text]));
      }
      if (request.cache !== undefined) {
        box.appendChild(el("h4", { "data-testid": "export-cache" }, ["Cache (a prediction from the rules table, not a measurement)"]));
        box.appendChild(pre(json(request.cache)));
      }
    }
    return box;
  }

  function show() {
    var request = data.requests[current.request];
    document.querySelectorAll("[data-request]").forEach(function (node) {
      node.classList.toggle("selected", Number(node.getAttribute("data-request")) === (request && request.index));
    });
    panes.forEach(function (pane) {
      var tab = document.querySelector('[data-pane="' + pane + '"]');
      if (tab) tab.setAttribute("aria-selected", String(pane === current.pane));
    });
    var target = document.getElementById("pane");
    while (target.firstChild) target.removeChild(target.firstChild);
    if (!request) { target.appendChild(el("p", null, ["This session has no model request."])); return; }
    target.appendChild(el("h3", { "data-testid": "export-pane-title" }, ["Request #" + request.index + " · iteration " + request.iteration + " · " + request.provider + "/" + request.model]));
    target.appendChild(render(current.pane, current.request));
  }

  document.addEventListener("click", function (event) {
    var node = event.target.closest("[data-request],[data-pane]");
    if (!node) return;
    if (node.hasAttribute("data-pane")) current.pane = node.getAttribute("data-pane");
    else {
      var wanted = Number(node.getAttribute("data-request"));
      data.requests.forEach(function (request, position) { if (request.index === wanted) current.request = position; });
    }
    show();
  });
  show();
})();`;
