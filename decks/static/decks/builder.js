// Deck builder keyboard use, on top of htmx (every action is a plain form; without this file and
// htmx the page still works, one page load per action).
//
// Finder (#builder-q): Enter adds the top hit ("4 CODE" adds 4), Shift+Enter removes one copy of it,
// ArrowDown moves to the results. In the results and the deck list: ArrowUp/ArrowDown move between
// rows, + and − change the copies, Escape goes back to the finder. Anywhere: / goes to the finder,
// Ctrl+S saves a version, Ctrl+Z (outside text fields) undoes the last change. Focus stays where it was across updates.
(function () {
  "use strict";
  var root = document.getElementById("builder");
  if (!root || !window.htmx) { return; }
  var finder = document.getElementById("builder-q");
  var topForm = document.getElementById("top-form");
  var lastFocus = null;

  function rowOf(el) { return el && el.closest ? el.closest("li.result, li.deck-row") : null; }
  function rowsOf(row) { return Array.prototype.slice.call(row.parentElement.closest(".finder-results, #deck-panel").querySelectorAll("li.result, li.deck-row")); }
  function focusRow(row) {
    if (!row) { return false; }
    var b = row.querySelector("button.plus:not([disabled])") || row.querySelector("button:not([disabled])");
    if (b) { b.focus(); return true; }
    return false;
  }
  function inTextField(el) {
    return el && (el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && /^(text|search|number)$/.test(el.type)));
  }

  var asked = null;  // the query the last Enter sent
  function submitTop(op) {
    asked = finder.value;
    topForm.elements.q.value = finder.value;
    topForm.elements.op.value = op;
    htmx.trigger(topForm, "submit");
  }

  finder.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && !ev.isComposing && !ev.altKey && !ev.ctrlKey && !ev.metaKey) {
      ev.preventDefault();
      if (finder.value.trim()) { submitTop(ev.shiftKey ? "remove" : "add"); }
    } else if (ev.key === "ArrowDown" && !ev.isComposing) {
      var first = document.querySelector("#results li.result");
      if (first) { ev.preventDefault(); focusRow(first); }
    }
  });

  // htmx binds the parts of an answer only when its swap settles (20 ms after it): a click on a
  // button swapped in moments before (a quick key, a quick hand) binds its form first, so the change
  // goes through htmx, never as the no-JavaScript full-page post
  document.addEventListener("click", function (ev) {
    var form = ev.target instanceof Element ? ev.target.closest("form[hx-post]") : null;
    if (form) { htmx.process(form); }
  }, true);

  document.addEventListener("keydown", function (ev) {
    var el = document.activeElement;
    if ((ev.ctrlKey || ev.metaKey) && !ev.altKey && (ev.key === "s" || ev.key === "S")) {
      ev.preventDefault();
      htmx.trigger(document.getElementById("save-form"), "submit");
      return;
    }
    if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && (ev.key === "z" || ev.key === "Z") && !inTextField(el)) {
      var undo = document.getElementById("undo-btn");
      if (undo && !undo.disabled) { ev.preventDefault(); undo.click(); }
      return;
    }
    if (ev.key === "/" && !inTextField(el) && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
      ev.preventDefault();
      finder.focus();
      finder.select();
      return;
    }
    var row = rowOf(el);
    if (!row || ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var button = null;
    if (ev.key === "+" || ev.key === "=" || ev.key === "Add") { button = row.querySelector("button.plus"); }
    else if (ev.key === "-" || ev.key === "_" || ev.key === "−" || ev.key === "Subtract") { button = row.querySelector("button.minus"); }
    if (button) {
      ev.preventDefault();
      if (!button.disabled) { button.click(); }
      return;
    }
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      var rows = rowsOf(row), i = rows.indexOf(row);
      var next = rows[i + (ev.key === "ArrowDown" ? 1 : -1)];
      ev.preventDefault();
      if (next) { focusRow(next); } else if (ev.key === "ArrowUp" && row.matches("li.result")) { finder.focus(); }
    } else if (ev.key === "Escape") {
      ev.preventDefault();
      finder.focus();
      finder.select();
    }
  });

  // A change answers with the results list too: ask for the list the finder shows now (the query
  // typed since the form was drawn, and the page only while the query is the same).
  document.body.addEventListener("htmx:configRequest", function (ev) {
    if (ev.detail.verb !== "post" || ev.detail.parameters.q === undefined) { return; }
    var state = document.getElementById("results-state");
    ev.detail.parameters.q = finder.value;
    ev.detail.parameters.page = state && state.dataset.q === finder.value ? state.dataset.page : "1";
  });

  // Keep the focus where it was when an answer swaps the parts of the page it sat in: noted once per
  // answer, just before its swaps (htmx:beforeSwap comes before the out-of-band ones as well), put
  // back after the last one. An answer that swaps nothing (a refused change) leaves no note behind
  // for the next one to use; while nothing has the focus (a swap just took it) the note not yet
  // used stays.
  function remember(ev) {
    var el = document.activeElement;
    if (!el || el === document.body) { return; }
    lastFocus = null;
    if (!ev.detail.shouldSwap || !el.id) { return; }
    var row = rowOf(el), holder = row ? row.closest("#results, #deck-panel") : null;
    lastFocus = { id: el.id, list: holder ? holder.id : null, index: row ? rowsOf(row).indexOf(row) : -1 };
  }
  document.body.addEventListener("htmx:beforeSwap", remember);
  // (the form that asked may itself have been swapped out, so listen to the swaps, not to it)
  document.body.addEventListener("htmx:oobAfterSwap", function () { setTimeout(restore, 0); });
  document.body.addEventListener("htmx:afterSettle", restore);
  function restore() {
    var el = document.activeElement;
    if (!lastFocus) { return; }
    if (el && el !== document.body && el.isConnected) { lastFocus = null; return; }
    var again = document.getElementById(lastFocus.id), list = lastFocus.list, index = lastFocus.index;
    lastFocus = null;
    if (again && !again.disabled) { again.focus(); return; }
    if (list) {  // the row left the list: its neighbour, else the finder
      var rows = document.querySelectorAll("#" + list + " li.result, #" + list + " li.deck-row");
      if (rows.length && focusRow(rows[Math.min(Math.max(index, 0), rows.length - 1)])) { return; }
    }
    finder.focus();
  }

  // After Enter added the top hit, keep the query selected: the next card is typed over it, Enter
  // again adds one more copy. Not when the player has typed since Enter (a slow answer): selecting
  // then would let the next key replace what was just typed.
  topForm.addEventListener("htmx:afterRequest", function () {
    if (document.activeElement !== finder && document.activeElement !== document.body) { return; }
    finder.focus();
    if (finder.value === asked) { finder.select(); }
  });

  document.body.addEventListener("htmx:sendError", offline);
  document.body.addEventListener("htmx:responseError", offline);
  function offline() {
    var live = document.getElementById("builder-live");
    if (live) { live.textContent = root.dataset.offline || ""; }
  }
})();
