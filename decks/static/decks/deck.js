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

  bindLiveValidation();
})();
