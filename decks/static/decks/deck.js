// Progressive enhancement for the deck pages. Everything works without this file.
(function () {
  "use strict";

  // Create and edit pages: the "Is it legal?" panel for the deck text as it is typed, rendered by the
  // server in the reader's language (the same panel as the deck page).
  function bindLiveValidation() {
    var form = document.getElementById("deck-form");
    var box = document.getElementById("validation");
    if (!form || !box || !form.elements.text || !form.dataset.validateUrl) { return; }
    var token = form.querySelector("input[name=csrfmiddlewaretoken]");
    var timer = null, seq = 0;
    function check() {
      var body = new FormData();
      body.append("game", form.elements.game && !form.elements.game.disabled ? form.elements.game.value : form.dataset.game);
      body.append("text", form.elements.text.value);
      var mine = ++seq;
      fetch(form.dataset.validateUrl, {
        method: "POST", credentials: "same-origin", body: body,
        headers: { "X-CSRFToken": token ? token.value : "" }
      }).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
        if (html === null || mine !== seq) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("validation");
        var old = document.getElementById("validation");
        if (fresh && old) { old.innerHTML = fresh.innerHTML; }  // the live region stays: its news is read out
      }).catch(function () {});
    }
    form.elements.text.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(check, 350); });
    if (form.elements.game) { form.elements.game.addEventListener("change", check); }
    check();
  }

    // keep keyboard users where they were: refocus the same button in the new panel
    if (focusLabel && !document.activeElement.closest("form")) {
      var again = document.querySelector('button[aria-label="' + focusLabel.replace(/"/g, '\\"') + '"]');
      if (again) { again.focus(); }
    }
  }

  function bindBuilder(root) {
    root.querySelectorAll("form.js-builder-op").forEach(function (form) {
      if (form.dataset.bound) { return; }
      form.dataset.bound = "1";
      form.addEventListener("submit", function (ev) {
        ev.preventDefault();
        var button = form.querySelector("button");
        if (button) { button.disabled = true; }
        fetch(form.action, {
          method: "POST", body: new FormData(form), credentials: "same-origin",
          headers: { "X-Requested-With": "fetch" }
        }).then(function (r) { return r.text(); })
          .then(function (html) { swap(html, button ? button.getAttribute("aria-label") : null); })
          .catch(function () { form.submit(); })
          .finally(function () { if (button) { button.disabled = false; } });
      });
    });
  }

  // Edit page: validate the deck text as it is typed, through the public validate API.
  function bindLiveValidation() {
    var form = document.getElementById("deck-form");
    var box = document.getElementById("validation");
    if (!form || !box || !form.elements.text) { return; }
    var token = form.querySelector("input[name=csrfmiddlewaretoken]");
    var timer = null;
    function el(tag, cls, text) { var e = document.createElement(tag); if (cls) { e.className = cls; } if (text) { e.textContent = text; } return e; }
    function render(report) {
      box.innerHTML = "";
      box.appendChild(el("h2", "", "Is it legal?"));
      var s = report.summary || {};
      box.appendChild(el("p", "verdict " + (report.valid ? "ok" : "error"),
        (report.valid ? "✓ Legal deck" : "✗ Not legal: " + report.errors.length + " problem(s)") +
        " (" + (s.main || 0) + "/" + (s.deck_size || "?") + " cards in the main deck)"));
      [["errors", "problems", "error"], ["warnings", "warnings", "warning"]].forEach(function (k) {
        if (!report[k[0]] || !report[k[0]].length) { return; }
        var ul = el("ul", k[1]);
        report[k[0]].forEach(function (p) {
          var li = el("li", k[2]); li.dataset.code = p.code;
          li.appendChild(el("code", "", p.code));
          li.appendChild(document.createTextNode(" " + (p.line ? "line " + p.line + ": " : "") + p.message));
          ul.appendChild(li);
        });
        box.appendChild(ul);
      });
    }
    function check() {
      var game = form.elements.game ? form.elements.game.value : form.dataset.game;
      fetch(form.dataset.validateUrl, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token ? token.value : "" },
        body: JSON.stringify({ game: game || form.dataset.game, text: form.elements.text.value })
      }).then(function (r) { return r.json(); }).then(function (data) { if (data && data.summary) { render(data); } })
        .catch(function () {});
    }
    form.elements.text.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(check, 350); });
    if (form.elements.game) { form.elements.game.addEventListener("change", check); }
    check();
  }

  bindLiveValidation();
})();
