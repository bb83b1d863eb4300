/* The page of `design-agent serve`: projects, the conversation streamed over SSE and kept
 * as a record, its tree, the footer, citations, decisions, files, search, provider switch
 * and brief upload.
 *
 * It talks only to this server's /api/v1 (the cookie set by the token URL authenticates
 * every call and the EventSource). Model output goes through DAMarkdown, which never
 * parses HTML; every other server string enters the page as textContent.
 *
 * The conversation shown is the server's record: after each turn, and on a reload or a
 * project switch, the page draws the path the conversation is on again from
 * /conversation (requests, answers, and every exchange: a decision said in words, a
 * project created and its questions, a reply to a question), with the question still open
 * as buttons. A click on such a button sends the same words a person would type.
 */
(function () {
  "use strict";

  var I18N = window.DAI18n;
  var t = I18N.t;
  var tn = I18N.tn;
  var TURN_KEY = "design-agent.turn.";
  var THEME_KEY = "design-agent.theme";
  var EVENT_KINDS = [
    "preferences", "context", "intent", "task", "choice", "persona", "guides", "prompt",
    "decision_proposed", "question", "validation", "saved", "action", "finished", "tier",
    "text", "usage", "failure", "done", "working", "work_done", "end",
  ];
  var state = {
    projects: [], projectId: null, language: "en", turn: null, providers: [], provider: null,
    follow: true, talk: null, rows: [], pending: null, drawn: 0, ended: 0, sending: 0,
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

  /* ---- language and theme ------------------------------------------------------------- */

  /* The user's setting, else the browser's language: never the last message's. */
  function uiLanguage(setting) {
    if (setting === "en" || setting === "es") return setting;
    var browser = String(navigator.language || "en").toLowerCase();
    return browser.indexOf("es") === 0 ? "es" : "en";
  }

  function setLanguage(language) {
    state.language = language === "es" ? "es" : "en";
    I18N.setLanguage(state.language);
    I18N.apply(document);
    document.documentElement.lang = state.language;
    renderProjects();
    renderProviders();
  }

  /* The words a reply is sent in: the conversation's language when known, else the page's. */
  function talkLanguage() {
    return state.talk || state.language;
  }

  function inTalk(key, vars) {
    I18N.setLanguage(talkLanguage());
    var text = t(key, vars);
    I18N.setLanguage(state.language);
    return text;
  }

  function darkNow() {
    var chosen = document.documentElement.getAttribute("data-theme");
    if (chosen) return chosen === "dark";
    return !!(window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  }

  function initTheme() {
    var saved = null;
    try {
      saved = localStorage.getItem(THEME_KEY);
    } catch (e) {
      saved = null;
    }
    if (saved === "dark" || saved === "light") {
      document.documentElement.setAttribute("data-theme", saved);
    }
    $("toggle-theme").setAttribute("aria-pressed", String(darkNow()));
  }

  function toggleTheme() {
    var next = darkNow() ? "light" : "dark";
    document.documentElement.setAttribute("data-theme", next);
    localStorage.setItem(THEME_KEY, next);
    $("toggle-theme").setAttribute("aria-pressed", String(next === "dark"));
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
    $("project-title").title = current ? current.name : "";
    document.title = (current ? current.name + " · " : "") + "design-agent";
  }

  function projectItem(project) {
    var item = make("li", "project");
    item.setAttribute("data-project-id", project.id);
    var name = button(project.name, "project-name", function () {
      selectProject(project.id);
    });
    name.title = project.name;
    if (String(project.id) === String(state.projectId)) name.setAttribute("aria-current", "true");
    var count = make("span", "count", project.turns === undefined ? "" : project.turns);
    count.title = tn("turns_count", project.turns);
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
    if (String(id) !== String(state.projectId)) {
      clearLog();
      state.talk = null;
    }
    state.projectId = id;
    renderProjects();
    api("POST", projectPath(id, "/activate")).catch(fail);
    if (!$("panel-members").hidden) loadMembers();
    return Promise.all([loadConversation(), loadDecisions(), loadFiles(), refreshTree()])
      .then(reattach);
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
      if (event.key === "Escape") {
        event.stopPropagation();
        finish(false);
      }
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
      return tn("count_" + key, counts[key]);
    });
    return t("delete_counts", { counts: parts.join(", ") || "0" });
  }

  function pickProject() {
    var active = state.projects.filter(function (p) {
      return p.active;
    })[0] || state.projects[0];
    if (state.projectId === null && active) return selectProject(active.id);
    if (!active) {
      clearLog();
      showWelcome();
    }
    return null;
  }

  /* ---- the conversation: the record ---------------------------------------------------- */

  function clearLog() {
    $("log").replaceChildren();
  }

  /* The path the conversation is on, as the server keeps it, drawn again; `stay`: where
   * the reader is (after a turn), else at its end. */
  function loadConversation(stay) {
    var id = state.projectId;
    if (id === null) return Promise.resolve();
    var path = projectPath(id, "/conversation?limit=200&lang=" + state.language);
    return api("GET", path).then(function (data) {
      // A request on its way (sent, its turn not yet followed) keeps the log as it is: the
      // record drawn now would take its bubbles away from the stream about to fill them.
      if (String(id) !== String(state.projectId) || state.sending) return;
      if (state.turn && !state.turn.ended) return;
      var top = $("log").scrollTop;
      drawConversation(data, stay === true && !state.follow);
      if (stay === true && !state.follow) {
        $("log").scrollTop = top;
        state.lastTop = top;
      }
    }).catch(fail);
  }

  function drawConversation(data, stay) {
    state.rows = data.turns || [];
    state.pending = data.pending || null;
    clearLog();
    var lastAnswer = state.rows.filter(function (row) {
      return row.id === data.last_answer;
    })[0] || null;
    var view = null;
    state.rows.forEach(function (row, index) {
      view = row.role === "user" ? showRequest(row, index) : showReply(row, row === lastAnswer);
    });
    if (!state.rows.length) showEmptyProject();
    if (state.pending && view && view.notes) showPending(view, state.pending);
    scrollDown(!stay);
    state.drawn += 1; // how many times the record was drawn (tests wait on it)
  }

  function showRequest(row, index) {
    var bubble = addUser(row.message || "");
    if (state.team && row.author) bubble.prepend(make("div", "author", row.author));
    bubble.setAttribute("data-turn", row.id);
    bubble.setAttribute("data-number", row.number);
    var parent = index > 0 ? state.rows[index - 1] : null;
    var tools = make("div", "msg-tools");
    if (parent && !row.exchange) tools.appendChild(editButton(bubble, row, parent));
    if (row.siblings && row.siblings.length) tools.appendChild(siblingNav(row));
    if (tools.children.length) bubble.appendChild(tools);
    return { root: bubble };
  }

  function showReply(row, isLast) {
    var view = addAgent();
    view.root.setAttribute("data-turn", row.id);
    view.root.setAttribute("data-number", row.number);
    view.root.setAttribute("data-status", row.status || "complete");
    view.root.classList.add("done");
    view.text = row.message || "";
    if (row.exchange) {
      showExchange(view, row);
    } else {
      renderText(view);
      showEvidence(view, (row.validation || {}).evidence);
      showReview(view, row.validation);
      view.footer.replaceChildren(storedFooter(row));
      view.footer.appendChild(answerTools(view, isLast));
      if (row.status === "cancelled" || row.status === "failed") {
        note(view, t("status_" + row.status), row.status === "cancelled" ? "cancelled" : "error");
      }
    }
    if (row.siblings && row.siblings.length) view.footer.appendChild(siblingNav(row));
    return view;
  }

  /* design-agent's own reply to a meta-request: its words as they were said (plain text),
   * a choice's options, a report's download link. */
  function showExchange(view, row) {
    view.root.classList.add("exchange");
    var kept = row.validation || {};
    if (row.exchange === "choice" && kept.options) {
      view.body.appendChild(make("p", "choice-question", kept.question || ""));
      view.body.appendChild(choiceButtons(kept.options, false));
      return;
    }
    view.body.appendChild(make("div", "reply-text", view.text));
    var data = kept.data || {};
    if (data.url) view.notes.appendChild(reportLink(data));
  }

  function showEmptyProject() {
    $("log").appendChild(examples("empty_title", "empty_text", ["example_1", "example_2",
      "example_4"]));
  }

  function showWelcome() {
    $("log").appendChild(examples("welcome_title", "welcome_text", ["example_3", "example_1",
      "example_2"]));
  }

  /* A first screen: what design-agent does, and requests to start from, in the page's
   * language; a click sends one. */
  function examples(title, text, keys) {
    var box = make("section", "welcome");
    box.setAttribute("aria-labelledby", "welcome-title");
    var heading = make("h2", "", t(title));
    heading.id = "welcome-title";
    box.append(heading, make("p", "", t(text)));
    var list = make("ul", "examples");
    keys.forEach(function (key) {
      var item = make("li");
      item.appendChild(button(t(key), "example", function () {
        send(t(key));
      }));
      list.appendChild(item);
    });
    box.appendChild(list);
    return box;
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
    log.querySelectorAll(".welcome").forEach(function (box) {
      box.remove();
    });
    log.appendChild(node);
    scrollDown(false);
  }

  /* Follow the stream while the reader is at the end; once they scroll up, stay where they
   * are and offer a "jump to latest" button. */
  function scrollDown(force) {
    var log = $("log");
    if (force) state.follow = true;
    if (state.follow) log.scrollTop = log.scrollHeight;
    state.lastTop = log.scrollTop;
    $("jump").hidden = state.follow;
  }

  /* The page itself only ever scrolls down (to the end): a move up is the reader's. */
  function wireScroll() {
    var log = $("log");
    state.lastTop = 0;
    // A wheel or a finger moving up says so before the view moves: a render in between
    // must not pull the reader back to the end.
    function leave(up) {
      if (!up) return;
      state.follow = false;
      state.leftAt = Date.now();
      $("jump").hidden = false;
    }
    log.addEventListener("wheel", function (event) {
      leave(event.deltaY < 0);
    }, { passive: true });
    log.addEventListener("touchstart", function (event) {
      state.touchY = event.touches[0].clientY;
    }, { passive: true });
    log.addEventListener("touchmove", function (event) {
      leave(event.touches[0].clientY > state.touchY + 10);
    }, { passive: true });
    log.addEventListener("scroll", function () {
      var atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
      if (atEnd && Date.now() - (state.leftAt || 0) > 400) {
        state.follow = true;
      } else if (log.scrollTop < state.lastTop - 2) {
        state.follow = false;
      }
      state.lastTop = log.scrollTop;
      $("jump").hidden = state.follow;
    });
    $("jump").addEventListener("click", function () {
      scrollDown(true);
      $("message").focus();
    });
  }

  function renderText(view) {
    view.timer = null;
    view.renders += 1;
    window.DAMarkdown.renderInto(view.body, view.text);
    // A code block or a table that scrolls sideways can be reached and scrolled by keyboard.
    view.body.querySelectorAll("pre, .table-wrap").forEach(function (node) {
      node.tabIndex = 0;
    });
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

  /* ---- edit and resend, other versions of a turn -------------------------------------- */

  function editButton(bubble, row, parent) {
    var edit = button(t("edit"), "tool edit", function () {
      startEdit(bubble, row, parent);
    });
    edit.setAttribute("aria-label", t("edit_label"));
    return edit;
  }

  /* The request edited is sent again from the turn before it: a new branch beside it. */
  function startEdit(bubble, row, parent) {
    var box = make("div", "edit-box");
    var input = make("textarea", "edit-input");
    input.value = row.message || "";
    input.setAttribute("aria-label", t("edit_label"));
    var go = button(t("edit_send"), "primary", function () {
      var text = input.value.trim();
      if (text) send(text, { start: String(parent.number) });
    });
    var stop = button(t("cancel"), "", function () {
      box.remove();
      bubble.querySelector(".msg-text").hidden = false;
    });
    box.append(input, make("div", "edit-actions"));
    box.lastChild.append(stop, go);
    bubble.querySelector(".msg-text").hidden = true;
    bubble.appendChild(box);
    grow(input);
    input.addEventListener("input", function () {
      grow(input);
    });
    input.focus();
  }

  /* "‹ 2 of 3 ›": the other requests sent from the same turn, or the other answers to the
   * same request; each opens its line at the latest turn it reached. */
  function siblingNav(row) {
    var nav = make("span", "versions");
    var index = row.siblings.map(function (s) {
      return s.id;
    }).indexOf(row.id);
    var count = row.siblings.length;
    var prev = button("‹", "tool", function () {
      gotoTurn(row.siblings[index - 1].tip);
    });
    prev.setAttribute("aria-label", t("branch_prev"));
    prev.disabled = index <= 0;
    var next = button("›", "tool", function () {
      gotoTurn(row.siblings[index + 1].tip);
    });
    next.setAttribute("aria-label", t("branch_next"));
    next.disabled = index >= count - 1;
    nav.append(prev, make("span", "version-of", t("branch_of", { index: index + 1, count: count })),
      next);
    return nav;
  }

  /* ---- sending ------------------------------------------------------------------------ */

  function ensureProject() {
    if (state.projectId !== null) return Promise.resolve(state.projectId);
    return createProject(t("default_project")).then(function () {
      state.madeToSend = state.projectId;
      return state.projectId;
    });
  }

  /* The project made only to send a first message that created another ("create a project
   * called Ledgerly") goes again, when nothing was said in it. */
  function dropUnused() {
    var made = state.madeToSend;
    state.madeToSend = null;
    var left = state.projects.filter(function (p) {
      return String(p.id) === String(made) && !p.turns && !p.files && !p.decisions;
    })[0];
    if (!left || String(left.id) === String(state.projectId)) return Promise.resolve();
    return api("POST", projectPath(left.id, "/delete-preview")).then(function (preview) {
      var path = projectPath(left.id, "?confirm=" + encodeURIComponent(preview.confirm));
      return api("DELETE", path);
    }).then(loadProjects).catch(function () {
      return null; // kept: something was added meanwhile
    });
  }

  /* `options.start`: the turn number a request is sent from (an edited request). */
  function send(message, options) {
    var text = String(message || "").trim();
    if (!text) return;
    if (state.turn && String(state.turn.projectId) === String(state.projectId)) {
      toast(t("busy"), "error");
      return;
    }
    $("message").value = "";
    grow($("message"));
    closeQuestions();
    var body = { message: text };
    if (options && options.start) body.start = options.start;
    ensureProject().then(function (projectId) {
      var asked = addUser(text);
      var view = addAgent();
      view.status.textContent = t("working");
      scrollDown(true);
      state.sending += 1;
      return api("POST", projectPath(projectId, "/turns"), body).then(function (turn) {
        state.sending -= 1;
        follow(turn.turn_id, projectId, view, 0);
      }).catch(function (error) {
        state.sending -= 1;
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

  /* A question is answered once: its buttons go when anything else is said. */
  function closeQuestions() {
    document.querySelectorAll("#log .asks button").forEach(function (b) {
      b.disabled = true;
    });
  }

  /* ---- following a turn's events ------------------------------------------------------ */

  function follow(turnId, projectId, view, after) {
    var url = "/api/v1/turns/" + encodeURIComponent(turnId) + "/events";
    var source = new EventSource(after ? url + "?after=" + after : url);
    state.turn = { id: turnId, projectId: projectId, source: source, view: view, ended: false };
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
    task: function (view, data) {
      view.matched = data;
      view.status.textContent = data.name;
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
    action: showAction,
    question: function (view, data) {
      note(view, t("question", { question: data.question }), "question");
      $("message").focus();
    },
    choice: function (view, data) {
      view.notes.appendChild(make("p", "choice-question", data.question));
      view.notes.appendChild(choiceButtons(data.options || [], true));
    },
    working: showWorking,
    failure: function (view, data) {
      note(view, data.message, "error");
    },
    finished: finish,
    end: endTurn,
  };

  /* What an action said: a proposal, a comparison, a report, a yes/no question, or words. */
  function showAction(view, data) {
    var done = data.data || {};
    if (String(data.action).indexOf("projects.") === 0) view.movedProject = true;
    if (data.action === "decisions.propose" && done.proposed) {
      view.notes.appendChild(proposalBox(data.message, done.proposed, true));
    } else if (data.action === "conversation.compare" && done.texts) {
      view.compared = true;
      view.notes.appendChild(compareView(done));
    } else {
      note(view, data.message, "action");
      if (done.url) view.notes.appendChild(reportLink(done));
      if (data.needs_confirmation) view.notes.appendChild(yesNo());
    }
    if (data.asks || data.needs_confirmation) $("message").focus();
  }

  function finish(view, data) {
    state.talk = data.language === "es" ? "es" : "en";
    // A meta request's text is its action messages, already shown as notes; a choice's
    // question is shown once, with its options.
    var meta = data.action && !data.task && !view.text;
    if (data.text && !meta && data.status !== "needs_choice") view.text = data.text;
    clearTimeout(view.timer);
    renderText(view);
    view.status.textContent = [data.task_name, data.agent_role].filter(Boolean).join(" · ");
    showEvidence(view, data.evidence);
    showReview(view, data.validation);
    if (data.task) {
      view.footer.replaceChildren(liveFooter(data, view.matched));
      view.footer.appendChild(answerTools(view, true));
    }
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
      turn.ended = true;
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
      return view.movedProject ? followActiveProject() : afterTurn(view);
    }).catch(fail).then(function () {
      state.ended += 1; // turns ended and drawn again (tests wait on it)
    });
  }

  /* The record after a turn: drawn again from the server (a comparison stays side by side
   * until a choice is made; a turn stopped or failed stays as it ended, with why), with
   * the decisions, files and tree. */
  function afterTurn(view) {
    var ended = view.root && view.root.getAttribute("data-status");
    var keep = view.compared || ended === "cancelled" || ended === "failed";
    var redraw = keep ? Promise.resolve() : loadConversation(true);
    return Promise.all([redraw, loadDecisions(), loadFiles(), refreshTree()]);
  }

  /* A turn that created, switched or renamed projects ("switch to Checkout") moves the
   * page to the project that is now active, as the shell does. */
  function followActiveProject() {
    var active = state.projects.filter(function (p) {
      return p.active;
    })[0];
    if (active && String(active.id) !== String(state.projectId)) {
      return selectProject(active.id).then(dropUnused);
    }
    return afterTurn({});
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
   * its message (once: the record may hold it already), then every event from the start
   * (?after=0 replays them in order). */
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
      var last = $("log").lastElementChild;
      var saved = last && last.classList.contains("user") &&
        last.querySelector(".msg-text").textContent === turn.message;
      if (!saved) addUser(turn.message);
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
    if (!state.turn) return false;
    var path = "/api/v1/turns/" + encodeURIComponent(state.turn.id) + "/cancel";
    api("POST", path).then(function () {
      toast(t("cancelling"));
    }).catch(fail);
    return true;
  }

  /* ---- questions as buttons: a click says what a person would type -------------------- */

  function asks(className) {
    var box = make("div", "asks " + (className || ""));
    box.setAttribute("role", "group");
    return box;
  }

  function reply(words) {
    return function () {
      send(words);
    };
  }

  function choiceButtons(options, live) {
    var box = asks("choice");
    options.forEach(function (option) {
      var pick = button(option.number + ". " + option.name, "choice-option", reply(String(option.number)));
      pick.disabled = !live;
      box.appendChild(pick);
    });
    return box;
  }

  function yesNo() {
    var box = asks("confirm");
    box.append(button(t("yes"), "primary", reply(inTalk("yes_word"))),
      button(t("no"), "", reply(inTalk("no_word"))));
    return box;
  }

  /* Decisions an answer proposed: offered once, as buttons that say "yes", "2" or "no". */
  function proposalBox(question, proposed, live) {
    var box = make("div", "note proposal");
    box.appendChild(make("strong", "", t("proposed_decision")));
    var list = make("ol", "proposed");
    proposed.forEach(function (d) {
      var item = make("li");
      item.appendChild(make("span", "decision-text", d.decision));
      if (d.rationale) item.appendChild(make("span", "rationale", " (" + d.rationale + ")"));
      list.appendChild(item);
    });
    box.appendChild(list);
    var buttons = asks("proposal-actions");
    buttons.appendChild(button(proposed.length > 1 ? t("keep_all") : t("record_decision"),
      "primary", reply(inTalk("yes_word"))));
    if (proposed.length > 1) {
      proposed.forEach(function (d, i) {
        buttons.appendChild(button(t("keep_one", { number: i + 1 }), "", reply(String(i + 1))));
      });
    }
    buttons.appendChild(button(t("not_now"), "", reply(inTalk("no_word"))));
    buttons.querySelectorAll("button").forEach(function (b) {
      b.disabled = !live;
    });
    box.appendChild(buttons);
    box.title = question || "";
    return box;
  }

  /* Two providers' answers side by side; keeping one sends "2 because <reason>". */
  function compareView(done) {
    var box = make("div", "compare");
    var sides = make("div", "compare-sides");
    (done.providers || []).forEach(function (provider, i) {
      var side = make("section", "compare-side");
      var id = "compare-" + (done.answers ? done.answers[i] : i);
      var heading = make("h3", "", t("compare_title", { number: i + 1, provider: provider }));
      heading.id = id;
      side.setAttribute("aria-labelledby", id);
      var body = make("div", "markdown");
      window.DAMarkdown.renderInto(body, (done.texts || [])[i] || "");
      body.querySelectorAll("pre, .table-wrap").forEach(function (node) {
        node.tabIndex = 0;
      });
      var check = make("div", "footer compare-evidence", (done.checks || [])[i] || "");
      check.style.whiteSpace = "pre-line"; /* the evidence check, one line each */
      side.append(heading, body, check, make("div", "footer", (done.footers || [])[i] || ""));
      side.appendChild(keepForm(i + 1));
      sides.appendChild(side);
    });
    box.appendChild(sides);
    return box;
  }

  function keepForm(number) {
    var form = asks("keep");
    var label = make("label", "", t("keep_reason"));
    var input = make("input", "keep-reason");
    input.id = "keep-reason-" + number + "-" + Date.now();
    label.htmlFor = input.id;
    var keep = button(t("keep_this"), "primary", function () {
      var reason = input.value.trim();
      send(reason ? inTalk("keep_phrase", { number: number, reason: reason }) : String(number));
    });
    form.append(label, input, keep);
    return form;
  }

  function reportLink(data) {
    var link = make("a", "download", t("download_report", { format: String(data.format).toUpperCase() }));
    link.href = String(data.url);
    if (data.filename) link.setAttribute("download", data.filename);
    return link;
  }

  /* The question still open after a reload, under the last reply. */
  function showPending(view, pending) {
    if (pending.kind === "decision_proposal") {
      view.notes.appendChild(proposalBox(pending.question, pending.decisions || [], true));
    } else if (pending.kind === "compare_choice") {
      var box = asks("keep-choice");
      (pending.providers || []).forEach(function (provider, i) {
        box.appendChild(button(t("compare_title", { number: i + 1, provider: provider }), "",
          reply(String(i + 1))));
      });
      view.notes.appendChild(box);
    } else if (pending.kind === "choice") {
      view.notes.querySelectorAll(".asks button").forEach(function (b) {
        b.disabled = false;
      });
      view.body.querySelectorAll(".asks button").forEach(function (b) {
        b.disabled = false;
      });
    } else if (pending.choices === 0) {
      view.notes.appendChild(yesNo());
    }
  }

  /* ---- the footer: plain words -------------------------------------------------------- */

  function confidence(matched) {
    if (!matched) return "";
    var word = matched.reason === "chosen by you" ? t("band_chosen") : t("band_" + matched.band,
      {}, matched.band);
    return t("footer_method", { confidence: word });
  }

  function liveFooter(finished, matched) {
    var usage = finished.usage || {};
    var parts = [
      ["method", finished.task_name || finished.task],
      ["persona", finished.agent_role],
      ["confidence", confidence(matched)],
      ["provider", providerText(finished.provider, finished.model)],
      ["tokens", tokensText((usage.input_tokens || 0) + (usage.output_tokens || 0),
        usage.cost_usd)],
    ];
    parts = parts.concat(checklistParts(finished.validation));
    if (finished.status !== "complete") parts.push(["status", t("status_" + finished.status,
      {}, finished.status)]);
    return footerLine(parts);
  }

  function storedFooter(turn) {
    var kept = turn.validation || {};
    var parts = [
      ["method", turn.task_name || turn.task_id], ["persona", turn.agent_role || turn.agent_id],
      ["confidence", kept.band ? confidence({ band: kept.band, reason: kept.reason }) : ""],
      ["provider", providerText(turn.provider, turn.model)],
      ["tokens", tokensText(turn.tokens || 0, turn.cost)],
    ];
    parts = parts.concat(checklistParts(turn.validation));
    if (turn.status && turn.status !== "complete") {
      parts.push(["status", t("status_" + turn.status, {}, turn.status)]);
    }
    return footerLine(parts);
  }

  function providerText(provider, model) {
    var name = [provider, model].filter(Boolean).join("/");
    return name ? t("footer_by", { provider: name }) : "";
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
    var parts = [["checklist", t("footer_checklist", { passed: passed, total: assessed.length })]];
    var skipped = validation.items.length - assessed.length;
    if (skipped) parts.push(["skipped", tn("footer_not_assessed", skipped)]);
    if (validation.model_review === "unavailable") parts.push(["review", t("review_unavailable")]);
    return parts;
  }

  /* The review's failed items under the answer (issue 26): what is wrong, one line each,
   * in the answer's language as the review wrote it. */
  function showReview(view, validation) {
    if (!validation || !validation.items) return;
    var failed = validation.items.filter(function (item) {
      return item.assessed !== false && !item.passed;
    });
    if (!failed.length) return;
    var box = make("section", "review-failed");
    box.setAttribute("aria-label", t("review_heading"));
    box.appendChild(make("h3", null, t("review_heading")));
    var list = make("ul");
    failed.forEach(function (item) {
      list.appendChild(make("li", null, item.detail || item.label));
    });
    box.appendChild(list);
    view.root.insertBefore(box, view.footer);
  }

  /* A research answer's quotes as checked against the sources (issue 29): each verified
   * quote in the source's own words with who and when, what was re-pointed or removed, the
   * counts computed per theme, and the coverage. */
  function showEvidence(view, report) {
    if (!report || !report.quotes || !report.quotes.length) return;
    var box = make("section", "evidence-check");
    box.setAttribute("aria-label", t("evidence_check"));
    box.appendChild(make("h3", null, t("evidence_check")));
    var list = make("ul");
    report.quotes.forEach(function (quote) {
      list.appendChild(make("li", "quote-" + quote.status, evidenceLine(quote)));
    });
    box.appendChild(list);
    var themes = make("ul", "evidence-themes");
    (report.themes || []).forEach(function (theme) {
      var text = theme.interpretation
        ? t("evidence_interpretation", { theme: theme.theme })
        : t("evidence_theme", { theme: theme.theme, count: theme.count, total: theme.total,
          people: theme.participants.join(", ") });
      themes.appendChild(make("li", null, text));
    });
    if (themes.childNodes.length) box.appendChild(themes);
    if (report.coverage) {
      box.appendChild(make("p", "evidence-coverage", t("evidence_coverage", {
        cited: report.coverage.cited.join(", ") || "-",
        missing: report.coverage.not_cited.join(", ") || "-",
      })));
    }
    view.notes.appendChild(box);
  }

  function evidenceLine(quote) {
    var who = [quote.participant, quote.when].filter(Boolean).join(", ");
    var values = { text: quote.text, quote: quote.quote, who: who, segment: quote.segment,
      cited: quote.cited || "-", reason: quote.reason };
    return t(quote.status === "check" ? "evidence_check_line" : "evidence_" + quote.status, values);
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

  /* Copy (the answer's Markdown); on the latest answer, try it again with another provider
   * or compare two side by side, said as a person would say it. */
  function answerTools(view, isLast) {
    var tools = make("div", "msg-tools answer-tools");
    var copy = button(t("copy"), "tool copy", function () {
      copyText(view.text);
    });
    copy.setAttribute("aria-label", t("copy_label"));
    tools.appendChild(copy);
    if (isLast) {
      tools.appendChild(providerPicker("retry_with", "retry_phrase", "retry"));
      tools.appendChild(providerPicker("compare_with", "compare_phrase", "compare"));
    }
    return tools;
  }

  function copyText(text) {
    var done = function () {
      toast(t("copied"));
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, fail);
      return;
    }
    var area = make("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand("copy");
    area.remove();
    done();
  }

  function providerPicker(labelKey, phraseKey, name) {
    var select = make("select", "tool " + name);
    select.setAttribute("aria-label", t(labelKey));
    var first = make("option", "", t(labelKey));
    first.value = "";
    select.appendChild(first);
    state.providers.filter(function (p) {
      return p.installed !== false;
    }).forEach(function (p) {
      var option = make("option", "", p.display_name || p.name);
      option.value = p.name;
      select.appendChild(option);
    });
    select.addEventListener("change", function () {
      if (select.value) send(inTalk(phraseKey, { provider: select.value }));
      select.value = "";
    });
    return select;
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
      var body = window.DAMarkdown.render(part.markdown || "");
      box.appendChild(body);
      box.querySelectorAll("pre, .table-wrap").forEach(function (node) {
        node.tabIndex = 0;
      });
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

  /* ---- the tree ----------------------------------------------------------------------- */

  function refreshTree() {
    if ($("panel-tree").hidden) return Promise.resolve();
    return loadTree();
  }

  function loadTree() {
    var id = state.projectId;
    var box = $("tree");
    if (id === null) {
      box.replaceChildren(make("p", "hint", t("tree_empty")));
      return Promise.resolve();
    }
    return api("GET", projectPath(id, "/tree")).then(function (data) {
      if (String(id) !== String(state.projectId)) return;
      var nodes = (data.tree && data.tree.nodes) || [];
      box.replaceChildren(nodes.length ? treeLine(data.tree, data.current) :
        make("p", "hint", t("tree_empty")));
    }).catch(fail);
  }

  /* One line of turns; a branch is a nested list beside the turn it forks from. */
  function treeLine(line, current) {
    var list = make("ul", "tree-line");
    (line.nodes || []).forEach(function (node) {
      var item = make("li", "tree-node");
      var row = make("div", "tree-row");
      var label = node.number + " · " + t("role_" + node.role) + ": " + node.text;
      var go = button(label, "tree-goto", function () {
        gotoTurn(node.number);
      });
      go.title = t("tree_goto", { number: node.number });
      if (node.id === current) {
        go.setAttribute("aria-current", "step");
        go.appendChild(make("span", "tree-here", " ◀ " + t("tree_here")));
      }
      var fork = button("⑂", "tool tree-fork", function () {
        forkAt(node.number);
      });
      fork.setAttribute("aria-label", t("tree_fork", { number: node.number }));
      row.append(go, fork);
      if (node.branches && node.branches.length) {
        row.appendChild(make("span", "tree-branches", "(" + node.branches.join(", ") + ")"));
      }
      item.appendChild(row);
      (node.forks || []).forEach(function (forked) {
        item.appendChild(treeLine(forked, current));
      });
      list.appendChild(item);
    });
    return list;
  }

  /* As the shell's /goto: the next message continues from that turn. */
  function gotoTurn(number) {
    return moveTo("/goto", { target: String(number) });
  }

  /* As the shell's /fork: a new branch from that turn, where the next message goes. */
  function forkAt(number) {
    return moveTo("/fork", { turn: number });
  }

  function moveTo(path, body) {
    if (state.projectId === null) return Promise.resolve();
    return api("POST", projectPath(state.projectId, path), body).then(function (done) {
      toast(done.message || t("tree_moved", { number: body.target || body.turn }));
      return Promise.all([loadConversation(), loadDecisions(), refreshTree()]);
    }).catch(fail);
  }

  /* ---- files -------------------------------------------------------------------------- */

  function loadFiles() {
    var id = state.projectId;
    if (id === null) return Promise.resolve();
    return api("GET", projectPath(id, "/files")).then(function (data) {
      if (String(id) !== String(state.projectId)) return;
      var list = $("file-list");
      list.replaceChildren();
      (data.files || []).forEach(function (file) {
        var item = make("li", "file");
        item.appendChild(make("strong", "file-name", file.filename));
        item.appendChild(make("small", "file-facts", t("file_line", {
          type: t("type_" + file.file_type, {}, file.file_type), chars: file.chars,
          date: String(file.uploaded_at || "").slice(0, 10),
        })));
        list.appendChild(item);
      });
      if (!list.children.length) list.appendChild(make("li", "hint", t("no_files")));
      $("tab-files").textContent = t("files") + " (" + (data.files || []).length + ")";
    }).catch(fail);
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
    box.prepend(make("p", "hint", tn("results_count", count)));
  }

  function resultItem(hit, project) {
    var item = make("div", "result");
    var title = make("div", "result-title", hit.title || hit.kind || "");
    var snippet = make("div", "result-snippet", hit.snippet || hit.text || "");
    item.append(title, snippet);
    var target = findProject(project.id !== undefined ? project : { id: hit.project_id });
    var elsewhere = target && String(target.id) !== String(state.projectId);
    if (hit.kind === "turn" && hit.number && target) {
      item.appendChild(button(t("open_turn", { number: hit.number }), "link open-turn", function () {
        openTurn(target, hit);
      }));
    } else if (elsewhere) {
      item.appendChild(button(t("open_project", { name: target.name }), "link", function () {
        selectProject(target.id);
      }));
    }
    return item;
  }

  /* A hit's turn, in its project: shown where it is on the conversation's path, or the
   * conversation moves to it (as /goto) when it is on another branch. */
  function openTurn(project, hit) {
    var ready = String(project.id) === String(state.projectId) ? Promise.resolve() :
      selectProject(project.id);
    ready.then(function () {
      if (document.querySelector('#log [data-turn="' + Number(hit.id) + '"]')) return null;
      return gotoTurn(hit.number);
    }).then(function () {
      var found = document.querySelector('#log [data-turn="' + Number(hit.id) + '"]');
      if (!found) return;
      state.follow = false;
      found.classList.add("found");
      found.scrollIntoView({ block: "center" });
      $("jump").hidden = false;
      closeSideOnPhone();
    }).catch(fail);
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
    clearTimeout(uploadFiles.timer);
    return ensureProject().then(function next() {
      var file = queue.shift();
      if (!file) return Promise.all([loadProjects(), loadFiles()]).then(uploadsDone);
      return uploadOne(file).then(next, function (error) {
        fail(error);
        return next();
      });
    });
  }

  /* The bar says how the last upload went, then goes away. */
  function uploadsDone() {
    uploadFiles.timer = setTimeout(function () {
      $("upload").hidden = true;
    }, 3000);
  }

  /* XMLHttpRequest, not fetch: only it reports upload progress. */
  function uploadOne(file, said) {
    var box = $("upload");
    box.hidden = false;
    $("upload-name").textContent = file.name;
    $("upload-progress").value = 0;
    $("upload-result").textContent = t("uploading");
    var evidence = isEvidence(file.name);
    return new Promise(function (resolve, reject) {
      var form = new FormData();
      form.append("file", file, file.name);
      if (!evidence) form.append("type", "brief");
      Object.keys(said || {}).forEach(function (key) {
        form.append(key, said[key]);
      });
      var request = new XMLHttpRequest();
      request.open("POST", projectPath(state.projectId, evidence ? "/evidence" : "/files"));
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
    } else if (request.status === 409 && data && data.question) {
      askAboutUpload(file, data.question).then(resolve, reject);
    } else {
      var error = apiError(request.status, data);
      $("upload-result").textContent = error.message;
      reject(error);
    }
  }

  /* A research file that one thing said makes readable (which speaker moderates, which
     column holds the text, whether an unlabelled transcript is one person's notes) is
     asked about here, as a conversation asks it; the answer sends the file again, and
     "cancel" stores nothing. */
  function askAboutUpload(file, question) {
    var result = $("upload-result");
    result.textContent = t("evidence_ask_" + question.ask, { name: question.source });
    var choices = make("span", "upload-question");
    choices.setAttribute("role", "group");
    choices.setAttribute("aria-label", result.textContent);
    result.appendChild(document.createTextNode(" "));
    result.appendChild(choices);
    return new Promise(function (resolve, reject) {
      function answer(fields) {
        choices.remove();
        uploadOne(file, fields).then(resolve, reject);
      }
      var options = question.ask === "labels" ? [] : question.options || [];
      options.forEach(function (option) {
        var fields = question.ask === "columns" ? { map: "text=" + option } : { moderator: option };
        choices.appendChild(button(option, "upload-choice", function () { answer(fields); }));
      });
      if (question.ask === "moderator") {
        choices.appendChild(button(t("evidence_no_moderator"), "upload-choice", function () {
          answer({ moderator: "none" });
        }));
      }
      if (question.ask === "labels") {
        choices.appendChild(button(t("evidence_as_notes"), "upload-choice", function () {
          answer({ notes: "yes" });
        }));
      }
      choices.appendChild(button(t("cancel"), "upload-choice", function () {
        choices.remove();
        result.textContent = t("evidence_not_added", { name: question.source });
        resolve(null);
      }));
      choices.firstChild.focus();
    });
  }

  /* Transcripts, notes and exports go in as research evidence (issue 29): caption files,
     Word transcripts and CSV exports always; a text, markdown or PDF file is a brief unless
     its name says it is a transcript or notes of an interview. */
  function isEvidence(name) {
    var lower = name.toLowerCase();
    if (/\.(vtt|srt|csv|docx)$/.test(lower)) return true;
    return /(transcript|interview|entrevista|transcripci|notes|notas)/.test(lower);
  }

  function uploadText(file, data) {
    if (data.session) {
      var session = data.session;
      var key = data.duplicate ? "evidence_duplicate" : "evidence_uploaded";
      return t(key, { name: session.source, code: session.code, segments: session.segments });
    }
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

  var PANELS = ["decisions", "tree", "files", "guide", "search", "methods", "members"];

  function showSide(panel) {
    PANELS.forEach(function (name) {
      $("panel-" + name).hidden = name !== panel;
      $("tab-" + name).setAttribute("aria-selected", String(name === panel));
    });
    document.body.classList.add("side-open");
    closeDrawers();
    if (panel === "tree") loadTree();
    if (panel === "files") loadFiles();
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

  function closeSideOnPhone() {
    if (window.innerWidth < 1100) document.body.classList.remove("side-open");
  }

  function closeDrawers() {
    document.body.classList.remove("projects-open");
    $("toggle-projects").setAttribute("aria-expanded", "false");
  }

  function wireLayout() {
    $("toggle-projects").addEventListener("click", function () {
      var open = document.body.classList.toggle("projects-open");
      this.setAttribute("aria-expanded", String(open));
      if (open) closeSideOnPhone(); // one drawer at a time on a narrow screen
    });
    $("toggle-decisions").addEventListener("click", function () {
      showSide("decisions");
    });
    $("toggle-theme").addEventListener("click", toggleTheme);
    $("close-side").addEventListener("click", function () {
      document.body.classList.remove("side-open");
    });
    document.querySelectorAll(".tabs [data-panel]").forEach(function (tab) {
      tab.addEventListener("click", function () {
        showSide(tab.getAttribute("data-panel"));
      });
    });
    // Escape stops a streaming answer; otherwise it closes an open drawer.
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || document.querySelector("dialog[open]")) return;
      var drawer = document.body.classList.contains("projects-open") ||
        (document.body.classList.contains("side-open") && window.innerWidth < 1100);
      if (!drawer && state.turn && cancelTurn()) return;
      closeDrawers();
      document.body.classList.remove("side-open");
    });
  }

  /* The message box grows with its text, up to a third of the window. */
  function grow(area) {
    area.style.height = "auto";
    var most = Math.max(80, Math.round(window.innerHeight / 3));
    area.style.height = Math.min(area.scrollHeight + 2, most) + "px";
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
    $("message").addEventListener("input", function () {
      grow(this);
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
    initTheme();
    I18N.apply(document);
    wireLayout();
    wireComposer();
    wirePanels();
    wireDrop();
    wireScroll();
    api("GET", "/api/v1/status").then(function (status) {
      showPerson(status);
      setLanguage(uiLanguage(status.language));
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

  window.DAApp = { state: state, send: send, openGuide: openGuide, gotoTurn: gotoTurn };
  start();
})();
