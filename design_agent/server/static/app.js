/* The page of `design-agent serve`: projects, the conversation streamed over SSE, the
 * footer, citations, decisions, search, provider switch and brief upload.
 *
 * It talks only to this server's /api/v1 (the cookie set by the token URL authenticates
 * every call and the EventSource). Model output goes through DAMarkdown, which never
 * parses HTML; every other server string enters the page as textContent.
 */
(function () {
  "use strict";

  var t = window.DAI18n.t;
  var TURN_KEY = "design-agent.turn.";
  var EVENT_KINDS = [
    "preferences", "context", "intent", "task", "choice", "persona", "guides", "prompt",
    "decision_proposed", "question", "validation", "saved", "action", "finished", "tier",
    "text", "usage", "failure", "done", "working", "work_done", "end",
  ];
  var state = {
    projects: [], projectId: null, language: "en", turn: null, providers: [], provider: null,
    team: false, person: null,
  };

  function $(id) {
    return document.getElementById(id);
  }

  function make(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function button(label, className, onClick) {
    var node = make("button", className, label);
    node.type = "button";
    node.addEventListener("click", onClick);
    return node;
  }

  /* ---- the API ------------------------------------------------------------------------ */

  /* Every request says it is this page's (a team's server refuses a state-changing request
   * without it: another site cannot send the header without a CORS preflight). */
  function api(method, path, body) {
    var options = {
      method: method, credentials: "same-origin", headers: { "X-Design-Agent": "1" },
    };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(path, options).then(function (response) {
      if (response.status === 204) return null;
      return response.json().catch(function () {
        return null;
      }).then(function (data) {
        if (!response.ok) throw apiError(response.status, data);
        return data;
      });
    });
  }

  function apiError(status, data) {
    var detail = (data && data.error) || {};
    var error = new Error(detail.message || t("error_http", { status: status }));
    error.status = status;
    error.code = detail.code;
    error.data = data;
    return error;
  }

  function projectPath(id, rest) {
    return "/api/v1/projects/" + encodeURIComponent(id) + (rest || "");
  }

  function toast(message, kind) {
    var box = $("toast");
    box.textContent = message;
    box.className = "toast " + (kind || "info");
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () {
      box.hidden = true;
    }, kind === "error" ? 8000 : 4000);
  }

  function fail(error) {
    toast(error.message || String(error), "error");
  }

  /* ---- language ----------------------------------------------------------------------- */

  function setLanguage(language) {
    var lang = language === "es" ? "es" : language === "en" ? "en" : null;
    if (!lang || lang === state.language) return;
    state.language = lang;
    window.DAI18n.setLanguage(lang);
    window.DAI18n.apply(document);
    document.documentElement.lang = lang;
    renderProjects();
    renderProviders();
  }

  /* ---- projects ----------------------------------------------------------------------- */

  function loadProjects() {
    return api("GET", "/api/v1/projects").then(function (data) {
      state.projects = data.projects || [];
      renderProjects();
      return state.projects;
    });
  }

  function currentProject() {
    return state.projects.filter(function (p) {
      return String(p.id) === String(state.projectId);
    })[0] || null;
  }

  function renderProjects() {
    var list = $("project-list");
    list.replaceChildren();
    state.projects.forEach(function (project) {
      list.appendChild(projectItem(project));
    });
    if (!state.projects.length) list.appendChild(make("li", "empty", t("no_projects")));
    var current = currentProject();
    $("project-title").textContent = current ? current.name : "";
    document.title = (current ? current.name + " · " : "") + "design-agent";
  }

  function projectItem(project) {
    var item = make("li", "project");
    item.setAttribute("data-project-id", project.id);
    var name = button(project.name, "project-name", function () {
      selectProject(project.id);
    });
    if (String(project.id) === String(state.projectId)) name.setAttribute("aria-current", "true");
    var count = make("span", "count", project.turns === undefined ? "" : project.turns);
    count.title = t("turns_count", { count: project.turns });
    var rename = button("✎", "icon-button rename", function () {
      startRename(item, project);
    });
    rename.setAttribute("aria-label", t("rename_project", { name: project.name }));
    var remove = button("✕", "icon-button delete", function () {
      deleteProject(project);
    });
    remove.setAttribute("aria-label", t("delete_project", { name: project.name }));
    item.append(name, count, rename, remove);
    return item;
  }

  function selectProject(id) {
    closeDrawers();
    if (state.turn && String(state.turn.projectId) !== String(id)) detachTurn();
    if (String(id) !== String(state.projectId)) clearLog();
    state.projectId = id;
    renderProjects();
    api("POST", projectPath(id, "/activate")).catch(fail);
    if (!$("panel-members").hidden) loadMembers();
    return Promise.all([loadHistory(), loadDecisions()]).then(reattach);
  }

  function createProject(name) {
    return api("POST", "/api/v1/projects", { name: name }).then(function (project) {
      return loadProjects().then(function () {
        return selectProject(project.id);
      });
    });
  }

  function startRename(item, project) {
    var input = make("input", "rename-input");
    input.value = project.name;
    input.setAttribute("aria-label", t("rename_project", { name: project.name }));
    item.replaceChildren(input);
    input.focus();
    input.select();
    var done = false;
    function finish(save) {
      if (done) return;
      done = true;
      var name = input.value.trim();
      if (!save || !name || name === project.name) return renderProjects();
      api("PATCH", projectPath(project.id), { name: name }).then(loadProjects).catch(function (e) {
        fail(e);
        renderProjects();
      });
    }
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") finish(true);
      if (event.key === "Escape") finish(false);
    });
    input.addEventListener("blur", function () {
      finish(true);
    });
  }

  /* The counted confirmation: the dialog names what goes; the fingerprint of those counts
   * goes back with DELETE, and a 409 (counts changed meanwhile) shows the new counts. */
  function deleteProject(project) {
    api("POST", projectPath(project.id, "/delete-preview")).then(function (preview) {
      confirmDelete(project, preview);
    }).catch(fail);
  }

  function confirmDelete(project, preview) {
    var dialog = $("delete-dialog");
    $("delete-title").textContent = t("delete_title", { name: project.name });
    $("delete-counts").textContent = describeCounts(preview.counts || {});
    dialog.onclose = function () {
      if (dialog.returnValue !== "delete") return;
      var path = projectPath(project.id, "?confirm=" + encodeURIComponent(preview.confirm));
      api("DELETE", path).then(function () {
        toast(t("deleted", { name: project.name }));
        if (String(project.id) === String(state.projectId)) state.projectId = null;
        return loadProjects().then(pickProject);
      }).catch(function (error) {
        var fresh = error.data && (error.data.preview || error.data);
        if (error.status === 409 && fresh && fresh.confirm) {
          toast(error.message, "error");
          return confirmDelete(project, fresh);
        }
        fail(error);
      });
    };
    dialog.returnValue = "";
    dialog.showModal();
  }

  function describeCounts(counts) {
    var parts = Object.keys(counts).map(function (key) {
      return t("count_" + key, { count: counts[key] }, key + ": " + counts[key]);
    });
    return t("delete_counts", { counts: parts.join(", ") || "0" });
  }

  function pickProject() {
    var active = state.projects.filter(function (p) {
      return p.active;
    })[0] || state.projects[0];
    if (state.projectId === null && active) return selectProject(active.id);
    if (!active) clearLog();
    return null;
  }

  /* ---- the conversation --------------------------------------------------------------- */

  function clearLog() {
    $("log").replaceChildren();
  }

  function loadHistory() {
    var id = state.projectId;
    return api("GET", projectPath(id, "/history?limit=50&lang=" + (state.language || "en"))).then(function (data) {
      if (String(id) !== String(state.projectId)) return;
      clearLog();
      var turns = Array.isArray(data) ? data : data.turns || [];
      turns.forEach(showStoredTurn);
      if (!turns.length) $("log").appendChild(make("p", "hint", t("empty_conversation")));
      scrollDown(true);
    }).catch(fail);
  }

  function showStoredTurn(turn) {
    var text = turn.message || turn.text || "";
    if (turn.role === "user") {
      var bubble = addUser(text);
      if (state.team && turn.author) bubble.prepend(make("div", "author", turn.author));
      return bubble;
    }
    var view = addAgent();
    view.text = text;
    renderText(view);
    view.footer.replaceChildren(storedFooter(turn));
    view.root.classList.add("done");
  }

  function addUser(text) {
    var bubble = make("div", "msg user");
    bubble.appendChild(make("div", "msg-text", text));
    appendToLog(bubble);
    return bubble;
  }

  function addAgent() {
    var root = make("div", "msg agent");
    var view = {
      root: root, status: make("div", "msg-status"), body: make("div", "markdown"),
      notes: make("div", "notes"), footer: make("div", "footer"), text: "", matched: null,
      timer: null, seq: 0, renders: 0, working: null,
    };
    root.append(view.status, view.body, view.notes, view.footer);
    appendToLog(root);
    return view;
  }

  function appendToLog(node) {
    var log = $("log");
    var hint = log.querySelector(".hint");
    if (hint) hint.remove();
    log.appendChild(node);
    scrollDown(true);
  }

  function scrollDown(force) {
    var log = $("log");
    var near = log.scrollHeight - log.scrollTop - log.clientHeight < 120;
    if (force || near) log.scrollTop = log.scrollHeight;
  }

  function renderText(view) {
    view.timer = null;
    view.renders += 1;
    window.DAMarkdown.renderInto(view.body, view.text);
    scrollDown(false);
  }

  /* Streamed text re-renders at most every 50 ms, so a fast stream does not redraw per token. */
  function scheduleRender(view) {
    if (view.timer === null) view.timer = setTimeout(renderText, 50, view);
  }

  function note(view, text, className) {
    var node = make("div", "note " + (className || ""), text);
    view.notes.appendChild(node);
    scrollDown(false);
    return node;
  }

  function ensureProject() {
    if (state.projectId !== null) return Promise.resolve(state.projectId);
    return createProject(t("default_project")).then(function () {
      return state.projectId;
    });
  }

  function send(message) {
    var text = message.trim();
    if (!text) return;
    if (state.turn && String(state.turn.projectId) === String(state.projectId)) {
      toast(t("busy"), "error");
      return;
    }
    $("message").value = "";
    ensureProject().then(function (projectId) {
      var asked = addUser(text);
      var view = addAgent();
      view.status.textContent = t("working");
      return api("POST", projectPath(projectId, "/turns"), { message: text }).then(function (turn) {
        follow(turn.turn_id, projectId, view, 0);
      }).catch(function (error) {
        asked.remove();
        view.root.remove();
        if (error.status === 409 && error.data && error.data.running_turn_id) {
          toast(t("busy"), "error");
          return resume(error.data.running_turn_id);
        }
        throw error;
      });
    }).catch(fail);
  }

  /* ---- following a turn's events ------------------------------------------------------ */

  function follow(turnId, projectId, view, after) {
    var url = "/api/v1/turns/" + encodeURIComponent(turnId) + "/events";
    var source = new EventSource(after ? url + "?after=" + after : url);
    state.turn = { id: turnId, projectId: projectId, source: source, view: view };
    localStorage.setItem(TURN_KEY + projectId, turnId);
    view.root.setAttribute("data-turn-id", turnId);
    view.root.classList.add("running");
    $("log").setAttribute("aria-busy", "true");
    showRunning();
    EVENT_KINDS.forEach(function (kind) {
      source.addEventListener(kind, function (message) {
        if (message.lastEventId) view.seq = Number(message.lastEventId) || view.seq;
        handle(view, kind, JSON.parse(message.data));
      });
    });
    // EventSource reconnects by itself (sending Last-Event-ID); a closed source means the
    // server refused it, so ask the turn's status and say so.
    source.onerror = function () {
      if (source.readyState === EventSource.CLOSED) lostStream(turnId, view);
    };
  }

  function handle(view, kind, data) {
    // A wait on the model (`working`) lasts until the next event, whatever it is.
    if (kind !== "working") stopWorking(view);
    var handler = HANDLERS[kind];
    if (handler) handler(view, data);
  }

  /* The status line of a wait on a model's side call (choosing the method, reading a
   * reply): the page's own words for a known kind of wait, else the server's label. */
  function showWorking(view, data) {
    stopWorking(view);
    var line = make("div", "msg-working");
    line.setAttribute("role", "status");
    line.setAttribute("data-work", data.work || "");
    var spinner = make("span", "spinner");
    spinner.setAttribute("aria-hidden", "true");
    line.append(spinner, make("span", "working-label",
      t("work_" + data.work, {}, data.label || t("working"))));
    view.working = line;
    view.root.insertBefore(line, view.body);
    scrollDown(false);
  }

  function stopWorking(view) {
    if (view.working) view.working.remove();
    view.working = null;
  }

  var HANDLERS = {
    preferences: function (view, data) {
      setLanguage(data.language);
    },
    intent: function (view, data) {
      setLanguage(data.language);
    },
    task: function (view, data) {
      view.matched = data;
      view.status.textContent = data.name + " · " + data.band + " " + Math.round(data.score);
    },
    persona: function (view, data) {
      view.status.textContent += " · " + data.role;
    },
    tier: function (view, data) {
      view.tier = data;
    },
    text: function (view, data) {
      view.text += data.text;
      scheduleRender(view);
    },
    action: function (view, data) {
      note(view, data.message, "action");
      if (String(data.action).indexOf("projects.") === 0) view.movedProject = true;
      if (data.asks || data.needs_confirmation) $("message").focus();
    },
    question: function (view, data) {
      note(view, t("question", { question: data.question }), "question");
      $("message").focus();
    },
    choice: showChoice,
    working: showWorking,
    decision_proposed: showProposal,
    failure: function (view, data) {
      note(view, data.message, "error");
    },
    finished: finish,
    end: endTurn,
  };

  function showChoice(view, data) {
    var box = make("div", "choice");
    box.appendChild(make("p", "choice-question", data.question));
    (data.options || []).forEach(function (option) {
      box.appendChild(button(option.number + ". " + option.name, "choice-option", function () {
        box.querySelectorAll("button").forEach(function (b) {
          b.disabled = true;
        });
        send(String(option.number));
      }));
    });
    view.notes.appendChild(box);
  }

  function showProposal(view, data) {
    var box = make("div", "note proposal");
    box.appendChild(make("strong", "", t("proposed_decision")));
    box.appendChild(make("p", "decision-text", data.decision));
    if (data.rationale) box.appendChild(make("p", "rationale", data.rationale));
    var save = button(t("record_decision"), "", function () {
      save.disabled = true;
      recordDecision(data.decision, data.rationale || "").catch(function (e) {
        save.disabled = false;
        fail(e);
      });
    });
    box.appendChild(save);
    view.notes.appendChild(box);
  }

  function finish(view, data) {
    setLanguage(data.language);
    // A meta request's text is its action messages, already shown as notes.
    if (data.text && !(data.action && !data.task && !view.text)) view.text = data.text;
    clearTimeout(view.timer);
    renderText(view);
    view.status.textContent = [data.task_name, data.agent_role].filter(Boolean).join(" · ");
    if (data.task) view.footer.replaceChildren(liveFooter(data, view.matched));
    // The citations as buttons, unless the answer's own text already shows them.
    if (data.citations && data.citations.length && !view.body.querySelector(".cite")) {
      view.notes.appendChild(sources(data.citations));
    }
    view.finished = data;
    scrollDown(false);
  }

  function endTurn(view, data) {
    stopWorking(view);
    var turn = state.turn;
    if (turn && turn.view === view) {
      turn.source.close();
      localStorage.removeItem(TURN_KEY + turn.projectId);
      state.turn = null;
    }
    view.root.classList.remove("running");
    view.root.classList.add("done");
    view.root.setAttribute("data-status", data.status || "");
    if (view.timer !== null) renderText(view);
    if (data.status === "cancelled" || data.status === "failed") {
      note(view, statusText(data), data.status === "cancelled" ? "cancelled" : "error");
    }
    if (!view.finished) view.status.textContent = "";
    $("log").setAttribute("aria-busy", "false");
    showRunning();
    loadProjects().then(function () {
      return view.movedProject ? followActiveProject() : loadDecisions();
    }).catch(fail);
  }

  /* A turn that created, switched or renamed projects ("switch to Checkout") moves the
   * page to the project that is now active, as the shell does. */
  function followActiveProject() {
    var active = state.projects.filter(function (p) {
      return p.active;
    })[0];
    if (active && String(active.id) !== String(state.projectId)) return selectProject(active.id);
    return loadDecisions();
  }

  function statusText(data) {
    var label = t("status_" + data.status, {}, data.status);
    return data.error && data.error !== data.status ? label + ": " + data.error : label;
  }

  function lostStream(turnId, view) {
    api("GET", "/api/v1/turns/" + encodeURIComponent(turnId)).then(function (turn) {
      endTurn(view, turn);
    }).catch(function (error) {
      endTurn(view, { status: "failed", error: error.message });
    });
  }

  function detachTurn() {
    // The turn goes on on the server; coming back to its project reattaches to it.
    state.turn.source.close();
    state.turn = null;
    showRunning();
  }

  /* After a reload (or coming back to a project), a turn still running is shown again:
   * its message, then every event from the start (?after=0 replays them in order). */
  function reattach() {
    var projectId = state.projectId;
    var turnId = localStorage.getItem(TURN_KEY + projectId);
    if (!turnId || state.turn) return null;
    return api("GET", "/api/v1/turns/" + encodeURIComponent(turnId)).then(function (turn) {
      if (turn.status !== "running") {
        localStorage.removeItem(TURN_KEY + projectId);
        return null;
      }
      return resume(turnId, turn);
    }).catch(function () {
      localStorage.removeItem(TURN_KEY + projectId);
    });
  }

  function resume(turnId, known) {
    var status = known ? Promise.resolve(known) : api("GET", "/api/v1/turns/" + turnId);
    return status.then(function (turn) {
      if (String(turn.project_id) !== String(state.projectId) || state.turn) return;
      addUser(turn.message);
      var view = addAgent();
      view.status.textContent = t("working");
      follow(turnId, turn.project_id, view, 0);
    });
  }

  function showRunning() {
    var running = !!state.turn && String(state.turn.projectId) === String(state.projectId);
    $("cancel").hidden = !running;
    $("send").disabled = running;
  }

  function cancelTurn() {
    if (!state.turn) return;
    var path = "/api/v1/turns/" + encodeURIComponent(state.turn.id) + "/cancel";
    api("POST", path).then(function () {
      toast(t("cancelling"));
    }).catch(fail);
  }

  /* ---- the footer and citations ------------------------------------------------------- */

  function liveFooter(finished, matched) {
    var usage = finished.usage || {};
    var parts = [
      ["method", finished.task_name || finished.task],
      ["persona", finished.agent_role],
      ["band", matched ? matched.band + " " + Math.round(matched.score) : ""],
      ["provider", [finished.provider, finished.model].filter(Boolean).join("/")],
      ["tokens", tokensText((usage.input_tokens || 0) + (usage.output_tokens || 0),
        usage.cost_usd)],
    ];
    parts = parts.concat(checklistParts(finished.validation));
    if (finished.status !== "complete") parts.push(["status", t("status_" + finished.status,
      {}, finished.status)]);
    return footerLine(parts);
  }

  function storedFooter(turn) {
    var parts = [
      ["method", turn.task_name || turn.task_id], ["persona", turn.agent_role || turn.agent_id],
      ["provider", [turn.provider, turn.model].filter(Boolean).join("/")],
      ["tokens", tokensText(turn.tokens || 0, turn.cost)],
    ];
    parts = parts.concat(checklistParts(turn.validation));
    if (turn.status && turn.status !== "complete") {
      parts.push(["status", t("status_" + turn.status, {}, turn.status)]);
    }
    return footerLine(parts);
  }

  function tokensText(tokens, cost) {
    if (!tokens) return "";
    return t("footer_tokens", { tokens: tokens }) + (cost ? " $" + Number(cost).toFixed(4) : "");
  }

  function checklistParts(validation) {
    if (!validation || !validation.items) return [];
    var assessed = validation.items.filter(function (item) {
      return item.assessed !== false;
    });
    var passed = assessed.filter(function (item) {
      return item.passed;
    }).length;
    var parts = [["checklist", t("footer_checklist", { score: passed + "/" + assessed.length })]];
    var skipped = validation.items.length - assessed.length;
    if (skipped) parts.push(["skipped", t("footer_not_assessed", { count: skipped })]);
    return parts;
  }

  function footerLine(parts) {
    var line = make("div", "footer-line");
    parts.filter(function (part) {
      return part[1];
    }).forEach(function (part, index) {
      if (index) line.appendChild(make("span", "sep", " · "));
      var span = make("span", "part", part[1]);
      span.setAttribute("data-part", part[0]);
      line.appendChild(span);
    });
    return line;
  }

  function sources(citations) {
    var box = make("div", "sources");
    box.appendChild(make("span", "sources-label", t("sources")));
    citations.forEach(function (citation) {
      var fragment = window.DAMarkdown.render(citation);
      var cite = fragment.querySelector(".cite");
      box.appendChild(cite || make("span", "", citation));
    });
    return box;
  }

  function openGuide(guide, section) {
    showSide("guide");
    var panel = $("guide");
    panel.replaceChildren(make("p", "hint", t("loading")));
    fetchGuide(guide, state.language).then(function (data) {
      var index = sectionIndex(data, section);
      // A citation of an English heading that the Spanish guide words differently opens
      // the English guide, where that section is.
      if (index < 0 && state.language !== "en") {
        return fetchGuide(guide, "en").then(function (english) {
          highlight(showGuide(panel, english, guide)[sectionIndex(english, section)]);
        });
      }
      highlight(showGuide(panel, data, guide)[index]);
      return null;
    }).catch(function (error) {
      panel.replaceChildren(make("p", "error", error.message));
    });
  }

  function fetchGuide(guide, language) {
    return api("GET", "/api/v1/guides/" + encodeURIComponent(guide) + "?lang=" + language);
  }

  function showGuide(panel, data, guide) {
    panel.replaceChildren(make("h2", "", data.title || guide));
    return (data.sections || []).map(function (part) {
      var box = make("section", "guide-section");
      box.appendChild(make("h3", "", part.title));
      box.appendChild(window.DAMarkdown.render(part.markdown || ""));
      panel.appendChild(box);
      return box;
    });
  }

  function sectionIndex(data, section) {
    var sections = data.sections || [];
    for (var i = 0; i < sections.length; i += 1) {
      if (matchesSection(sections[i], section)) return i;
    }
    return -1;
  }

  function highlight(box) {
    if (!box) return;
    box.classList.add("highlight");
    box.scrollIntoView({ block: "start" });
  }

  function matchesSection(part, section) {
    var wanted = String(section || "").trim().toLowerCase();
    return !!wanted && (String(part.title).toLowerCase() === wanted ||
      String(part.anchor).toLowerCase() === wanted.replace(/\s+/g, "-"));
  }

  /* ---- decisions ---------------------------------------------------------------------- */

  function loadDecisions() {
    var id = state.projectId;
    if (id === null) return Promise.resolve();
    return api("GET", projectPath(id, "/decisions")).then(function (data) {
      if (String(id) !== String(state.projectId)) return;
      var list = $("decision-list");
      list.replaceChildren();
      (data.decisions || []).forEach(function (d) {
        var item = make("li", "decision");
        item.appendChild(make("strong", "decision-text", d.decision));
        if (d.rationale) item.appendChild(make("p", "rationale", d.rationale));
        var when = d.created || d.timestamp;
        var said = when ? String(when).slice(0, 10) : "";
        if (d.author) said += (said ? " · " : "") + t("by_person", { name: d.author });
        if (said) item.appendChild(make("small", "when", said));
        list.appendChild(item);
      });
      if (!list.children.length) list.appendChild(make("li", "hint", t("no_decisions")));
    }).catch(fail);
  }

  function recordDecision(decision, rationale) {
    return ensureProject().then(function (id) {
      return api("POST", projectPath(id, "/decisions"), {
        decision: decision, rationale: rationale,
      });
    }).then(function () {
      toast(t("decision_recorded"));
      return loadDecisions();
    });
  }

  /* ---- search ------------------------------------------------------------------------- */

  function search(query) {
    var q = query.trim();
    if (!q) return;
    var scope = $("search-scope").value;
    var path = "/api/v1/search?q=" + encodeURIComponent(q);
    if (scope === "project" && state.projectId !== null) {
      path += "&project=" + encodeURIComponent(state.projectId);
    } else {
      path += "&all=1";
    }
    showSide("search");
    api("GET", path).then(showResults).catch(fail);
  }

  /* Results come as groups per project ({project, hits}) or as flat hits. */
  function showResults(data) {
    var box = $("search-results");
    box.replaceChildren();
    var found = data.results || data;
    var groups = Array.isArray(found) ? found : found.groups || [];
    var count = 0;
    groups.forEach(function (group) {
      var hits = group.hits || [group];
      var project = group.project || {};
      box.appendChild(make("h3", "", project.name || group.project_name || ""));
      hits.forEach(function (hit) {
        count += 1;
        box.appendChild(resultItem(hit, project));
      });
    });
    box.prepend(make("p", "hint", t("results_count", { count: count })));
  }

  function resultItem(hit, project) {
    var item = make("div", "result");
    var title = make("div", "result-title", hit.title || hit.kind || "");
    var snippet = make("div", "result-snippet", hit.snippet || hit.text || "");
    item.append(title, snippet);
    var target = findProject(project.id !== undefined ? project : { id: hit.project_id });
    if (target && String(target.id) !== String(state.projectId)) {
      item.appendChild(button(t("open_project", { name: target.name }), "link", function () {
        selectProject(target.id);
      }));
    }
    return item;
  }

  function findProject(ref) {
    return state.projects.filter(function (p) {
      return String(p.id) === String(ref.id) || (ref.name && p.name === ref.name);
    })[0] || null;
  }

  /* ---- methods: bundled and the team's own; what of the home's files was left out ------ */

  function loadMethods() {
    return api("GET", "/api/v1/methods?lang=" + encodeURIComponent(state.language))
      .then(showMethods);
  }

  function showMethods(data) {
    var warnings = $("left-out");
    warnings.replaceChildren();
    (data.left_out || []).forEach(function (line) {
      warnings.appendChild(make("p", "warning", line));
    });
    var list = $("method-list");
    list.replaceChildren();
    var methods = data.methods || [];
    var team = methods.filter(function (m) {
      return m.team;
    });
    list.appendChild(make("li", "hint", t("methods_count", {
      count: methods.length, team: team.length,
    })));
    team.concat(methods.filter(function (m) {
      return !m.team;
    })).forEach(function (method) {
      list.appendChild(methodItem(method));
    });
    return data;
  }

  function methodItem(method) {
    var item = make("li", "method" + (method.team ? " team" : ""));
    item.setAttribute("data-method", method.id);
    var title = button(method.name, "link method-name", function () {
      if (method.guides && method.guides.length) openGuide(method.guides[0], "");
    });
    item.appendChild(title);
    if (method.team) {
      var label = method.replaces_bundled ? t("team_replaces") : t("team_method");
      item.appendChild(make("span", "badge team-badge", label));
    }
    item.appendChild(make("small", "method-persona", method.persona));
    return item;
  }

  /* Said once when the page opens: a broken entry of the home's own files was left out. */
  function warnLeftOut() {
    return api("GET", "/api/v1/methods?lang=" + encodeURIComponent(state.language))
      .then(function (data) {
        if (data.left_out && data.left_out.length) toast(data.left_out[0]);
      }).catch(fail);
  }

  /* ---- providers ---------------------------------------------------------------------- */

  function loadProviders() {
    return api("GET", "/api/v1/providers").then(function (data) {
      state.providers = data.providers || [];
      var active = state.providers.filter(function (p) {
        return p.active;
      })[0];
      state.provider = active ? active.name : null;
      renderProviders();
    }).catch(fail);
  }

  function renderProviders() {
    var select = $("provider");
    select.replaceChildren();
    state.providers.forEach(function (provider) {
      var label = provider.name + (provider.installed === false ? " (" + t("not_installed") + ")" : "");
      var option = make("option", "", label);
      option.value = provider.name;
      option.selected = provider.name === state.provider;
      select.appendChild(option);
    });
  }

  function useProvider(name) {
    api("POST", "/api/v1/providers/use", { name: name }).then(function (data) {
      state.provider = name;
      toast(t("provider_now", { name: name }) + (data && data.note ? " (" + data.note + ")" : ""));
      return loadProviders();
    }).catch(function (error) {
      fail(error);
      renderProviders();
    });
  }

  /* ---- brief upload ------------------------------------------------------------------- */

  function uploadFiles(files) {
    var queue = Array.prototype.slice.call(files || []);
    if (!queue.length) return Promise.resolve();
    return ensureProject().then(function next() {
      var file = queue.shift();
      if (!file) return loadProjects();
      return uploadOne(file).then(next, function (error) {
        fail(error);
        return next();
      });
    });
  }

  /* XMLHttpRequest, not fetch: only it reports upload progress. */
  function uploadOne(file) {
    var box = $("upload");
    box.hidden = false;
    $("upload-name").textContent = file.name;
    $("upload-progress").value = 0;
    $("upload-result").textContent = t("uploading");
    return new Promise(function (resolve, reject) {
      var form = new FormData();
      form.append("file", file, file.name);
      form.append("type", "brief");
      var request = new XMLHttpRequest();
      request.open("POST", projectPath(state.projectId, "/files"));
      request.setRequestHeader("X-Design-Agent", "1");
      request.upload.onprogress = function (event) {
        if (event.lengthComputable) $("upload-progress").value = (100 * event.loaded) / event.total;
      };
      request.onload = function () {
        uploaded(request, file, resolve, reject);
      };
      request.onerror = function () {
        reject(new Error(t("upload_failed", { name: file.name })));
      };
      request.send(form);
    });
  }

  function uploaded(request, file, resolve, reject) {
    var data = null;
    try {
      data = JSON.parse(request.responseText);
    } catch (e) {
      data = null;
    }
    if (request.status >= 200 && request.status < 300) {
      $("upload-progress").value = 100;
      $("upload-result").textContent = uploadText(file, data || {});
      resolve(data);
    } else {
      var error = apiError(request.status, data);
      $("upload-result").textContent = error.message;
      reject(error);
    }
  }

  function uploadText(file, data) {
    var stored = data.file || {};
    var name = stored.name || stored.filename || file.name;
    var text = t(data.duplicate ? "upload_duplicate" : "uploaded", { name: name });
    return data.truncated ? text + " " + t("upload_truncated") : text;
  }

  function wireDrop() {
    var zone = $("conversation");
    var depth = 0;
    function hasFiles(event) {
      return event.dataTransfer && Array.prototype.indexOf.call(event.dataTransfer.types || [],
        "Files") >= 0;
    }
    zone.addEventListener("dragenter", function (event) {
      if (!hasFiles(event)) return;
      depth += 1;
      $("drop-hint").hidden = false;
    });
    zone.addEventListener("dragover", function (event) {
      if (hasFiles(event)) event.preventDefault();
    });
    zone.addEventListener("dragleave", function () {
      depth = Math.max(0, depth - 1);
      if (!depth) $("drop-hint").hidden = true;
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      depth = 0;
      $("drop-hint").hidden = true;
      uploadFiles(event.dataTransfer.files);
    });
  }

  /* ---- layout: drawers at narrow widths, the side panel's tabs ------------------------ */

  function showSide(panel) {
    ["decisions", "guide", "search", "methods", "members"].forEach(function (name) {
      $("panel-" + name).hidden = name !== panel;
      $("tab-" + name).setAttribute("aria-selected", String(name === panel));
    });
    document.body.classList.add("side-open");
    if (panel === "methods") loadMethods().catch(fail);
    if (panel === "members") loadMembers();
  }

  /* ---- a team: who you are, the project's members ------------------------------------- */

  function showPerson(status) {
    state.team = !!status.team;
    state.person = status.person || null;
    if (!state.team || !state.person) return;
    $("person").textContent = state.person.name;
    $("person").hidden = false;
    $("sign-out").hidden = false;
    $("tab-members").hidden = false;
  }

  function myRole() {
    if (state.person && state.person.is_admin) return "admin";
    var project = currentProject();
    return (project && project.role) || null;
  }

  function loadMembers() {
    var id = state.projectId;
    if (!state.team || id === null) return Promise.resolve();
    var owner = myRole() === "owner" || myRole() === "admin";
    $("share").hidden = !owner;
    return api("GET", projectPath(id, "/members")).then(function (data) {
      if (String(id) !== String(state.projectId)) return;
      var list = $("member-list");
      list.replaceChildren();
      (data.members || []).forEach(function (m) {
        var item = make("li", "member");
        item.appendChild(make("strong", "member-name", m.name));
        item.appendChild(make("span", "member-role", t("role_" + m.role)));
        if (owner && (!state.person || m.name !== state.person.name)) {
          item.appendChild(button(t("remove_member"), "link", function () {
            api("DELETE", projectPath(id, "/members/" + encodeURIComponent(m.name)))
              .then(loadMembers).catch(fail);
          }));
        }
        list.appendChild(item);
      });
      if (!list.children.length) list.appendChild(make("li", "hint", t("no_members")));
    }).catch(fail);
  }

  function shareProject(name, role) {
    var path = projectPath(state.projectId, "/members/" + encodeURIComponent(name));
    return api("PUT", path, { role: role }).then(function (member) {
      toast(t("shared", { name: member.name, role: t("role_" + member.role) }));
      return loadMembers();
    });
  }

  function signOut() {
    api("DELETE", "/api/v1/session").then(function () {
      window.location.replace("/");
    }).catch(fail);
  }

  function closeDrawers() {
    document.body.classList.remove("projects-open");
    $("toggle-projects").setAttribute("aria-expanded", "false");
  }

  function wireLayout() {
    $("toggle-projects").addEventListener("click", function () {
      var open = document.body.classList.toggle("projects-open");
      this.setAttribute("aria-expanded", String(open));
    });
    $("toggle-decisions").addEventListener("click", function () {
      showSide("decisions");
    });
    $("close-side").addEventListener("click", function () {
      document.body.classList.remove("side-open");
    });
    document.querySelectorAll(".tabs [data-panel]").forEach(function (tab) {
      tab.addEventListener("click", function () {
        showSide(tab.getAttribute("data-panel"));
      });
    });
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape") return;
      closeDrawers();
      document.body.classList.remove("side-open");
    });
  }

  function wireComposer() {
    $("composer").addEventListener("submit", function (event) {
      event.preventDefault();
      send($("message").value);
    });
    $("message").addEventListener("keydown", function (event) {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        send($("message").value);
      }
    });
    $("cancel").addEventListener("click", cancelTurn);
    $("brief-input").addEventListener("change", function () {
      var input = this;
      uploadFiles(input.files).then(function () {
        input.value = "";
      });
    });
  }

  function wirePanels() {
    $("share").addEventListener("submit", function (event) {
      event.preventDefault();
      shareProject($("share-name").value.trim(), $("share-role").value).then(function () {
        $("share-name").value = "";
      }).catch(fail);
    });
    $("sign-out").addEventListener("click", signOut);
    $("new-project").addEventListener("submit", function (event) {
      event.preventDefault();
      var input = $("new-project-name");
      createProject(input.value.trim()).then(function () {
        input.value = "";
      }).catch(fail);
    });
    $("new-decision").addEventListener("submit", function (event) {
      event.preventDefault();
      recordDecision($("decision-text").value.trim(), $("decision-rationale").value.trim())
        .then(function () {
          $("decision-text").value = "";
          $("decision-rationale").value = "";
        }).catch(fail);
    });
    $("search-form").addEventListener("submit", function (event) {
      event.preventDefault();
      search($("search-input").value);
    });
    $("provider").addEventListener("change", function () {
      useProvider(this.value);
    });
    document.addEventListener("click", function (event) {
      var cite = event.target.closest ? event.target.closest("button.cite") : null;
      if (cite) openGuide(cite.getAttribute("data-file"), cite.getAttribute("data-section"));
    });
  }

  function start() {
    window.DAI18n.apply(document);
    wireLayout();
    wireComposer();
    wirePanels();
    wireDrop();
    api("GET", "/api/v1/status").then(function (status) {
      showPerson(status);
      setLanguage(status.language);
      if (status.active_project) state.projectId = status.active_project.id;
      return Promise.all([loadProjects(), loadProviders(), warnLeftOut()]);
    }).then(function () {
      if (state.projectId !== null && currentProject()) return selectProject(state.projectId);
      state.projectId = null;
      return pickProject();
    }).then(function () {
      document.body.setAttribute("data-ready", "true");
    }).catch(fail);
  }

  window.DAApp = { state: state, send: send, openGuide: openGuide };
  start();
})();
