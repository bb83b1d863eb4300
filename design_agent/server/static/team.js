/* The sign-in and invite pages of a team's server (`design-agent serve --team`).
 *
 * Both post JSON with the header X-Design-Agent (every state-changing request needs it);
 * the server answers with the session cookie (HttpOnly: this script never sees it), and the
 * page goes to the app. The invite's token is in the link's fragment (#...), which no
 * browser sends to a server: it is read here and posted once.
 */
(function () {
  "use strict";

  function $(id) {
    return document.getElementById(id);
  }

  function post(path, body) {
    return fetch(path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Design-Agent": "1" },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().catch(function () {
        return {};
      }).then(function (data) {
        if (!response.ok) {
          var error = (data && data.error) || {};
          throw new Error(error.message || "HTTP " + response.status);
        }
        return data;
      });
    });
  }

  function problem(message) {
    var box = $("problem");
    box.textContent = message;
    box.hidden = !message;
  }

  function busy(on) {
    $("submit").disabled = on;
  }

  function signIn(event) {
    event.preventDefault();
    problem("");
    busy(true);
    post("/api/v1/session", { name: $("name").value, password: $("password").value })
      .then(function () {
        window.location.replace("/");
      })
      .catch(function (error) {
        busy(false);
        problem(error.message);
      });
  }

  function inviteToken() {
    return decodeURIComponent(window.location.hash.replace(/^#/, ""));
  }

  function checkInvite() {
    var token = inviteToken();
    if (!token) {
      problem("This page needs the whole invite link (it ends with #...).");
      busy(true);
      return;
    }
    post("/api/v1/invite/check", { token: token }).then(function (data) {
      $("welcome").textContent = "Welcome, " + data.name + ": set your password";
    }).catch(function (error) {
      busy(true);
      problem(error.message);
    });
  }

  function acceptInvite(event) {
    event.preventDefault();
    problem("");
    if ($("password").value !== $("again").value) {
      problem("The two passwords are not the same.");
      return;
    }
    busy(true);
    post("/api/v1/invite/accept", { token: inviteToken(), password: $("password").value })
      .then(function () {
        history.replaceState(null, "", "/invite");  // the spent token leaves the address bar
        window.location.replace("/");
      })
      .catch(function (error) {
        busy(false);
        problem(error.message);
      });
  }

  var form = document.querySelector("form[data-form]");
  if (form.getAttribute("data-form") === "sign-in") {
    form.addEventListener("submit", signIn);
  } else {
    form.addEventListener("submit", acceptInvite);
    checkInvite();
  }
  document.body.setAttribute("data-ready", "true");
})();
