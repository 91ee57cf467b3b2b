/* Card pictures (progressive enhancement; every page works without this file):
   - an image that fails to load is hidden, and the card's drawn face under it shows instead;
   - hovering or focusing a card link with data-preview shows the card's picture beside it, and
     tapping the small picture link (.peek) toggles it; without JavaScript that link opens the
     card page at its picture. */
(function () {
  "use strict";

  function failed(img) {
    var pic = img.closest("[data-pic]");
    if (!pic || pic.classList.contains("img-failed")) return;
    pic.classList.add("img-failed");
    var face = pic.querySelector("[data-face]");
    if (face) {
      face.removeAttribute("aria-hidden");
      face.setAttribute("role", "img");
      face.setAttribute("aria-label", img.getAttribute("alt") || "");
    }
  }

  function sweep(root) {
    (root || document).querySelectorAll("img.pic-img").forEach(function (img) {
      if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) failed(img);
    });
  }

  document.addEventListener("error", function (e) {
    var t = e.target;
    if (t && t.tagName === "IMG" && t.classList.contains("pic-img")) failed(t);
  }, true);
  sweep();
  document.addEventListener("DOMContentLoaded", function () { sweep(); });

  // -- previews ---------------------------------------------------------------------------------
  var box = null, owner = null, cache = {}, hideTimer = null, pinned = false, quiet = false;

  // Give the focus back to the link that opened the preview without opening it again.
  function refocus(el) {
    quiet = true;
    el.focus();
    quiet = false;
  }

  function ensureBox() {
    if (box) return box;
    box = document.createElement("div");
    box.className = "card-preview";
    box.id = "card-preview";
    box.setAttribute("role", "tooltip");
    box.hidden = true;
    box.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
    box.addEventListener("mouseleave", function () { if (!pinned) scheduleHide(); });
    document.body.appendChild(box);
    return box;
  }

  function place(target) {
    var r = target.getBoundingClientRect(), w = box.offsetWidth, h = box.offsetHeight;
    var vw = document.documentElement.clientWidth, vh = window.innerHeight, gap = 8, left, top;
    if (vw < 600) {
      left = Math.max(gap, (vw - w) / 2);
      top = r.bottom + gap + h <= vh ? r.bottom + gap : Math.max(gap, r.top - gap - h);
    } else {
      left = r.right + gap + w <= vw ? r.right + gap : Math.max(gap, r.left - gap - w);
      top = Math.min(Math.max(gap, r.top - h / 3), vh - h - gap);
    }
    box.style.left = Math.round(left) + "px";
    box.style.top = Math.round(Math.max(gap, top)) + "px";
  }

  function fill(html, target, withClose) {
    ensureBox();
    box.innerHTML = html;
    if (withClose) {
      var close = document.createElement("button");
      close.type = "button";
      close.className = "preview-close";
      var label = box.querySelector("[data-close-label]");
      close.setAttribute("aria-label", label ? label.getAttribute("data-close-label") : "Close");
      close.textContent = "×";
      close.addEventListener("click", function () { hide(); refocus(target); });
      box.insertBefore(close, box.firstChild);
    }
    box.hidden = false;
    sweep(box);
    place(target);
    box.querySelectorAll("img.pic-img").forEach(function (img) {
      if (!img.complete) img.addEventListener("load", function () { if (owner === target) place(target); }, { once: true });
    });
  }

  function urlOf(target) {
    if (target.hasAttribute("data-preview")) return target.getAttribute("data-preview");
    var peek = target.nextElementSibling;
    while (peek && !(peek.matches && peek.matches("a.peek[data-preview]"))) peek = peek.nextElementSibling;
    return peek ? peek.getAttribute("data-preview") : null;
  }

  function show(target, withClose) {
    var url = urlOf(target);
    if (!url) return;
    clearTimeout(hideTimer);
    owner = target;
    target.setAttribute("aria-describedby", "card-preview");
    if (cache[url]) { fill(cache[url], target, withClose); return; }
    fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) { cache[url] = html; if (owner === target) fill(html, target, withClose); })
      .catch(function () { /* the link still leads to the card page */ });
  }

  function hide() {
    if (box) box.hidden = true;
    if (owner) owner.removeAttribute("aria-describedby");
    owner = null;
    pinned = false;
  }

  function scheduleHide() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, 150);
  }

  // A link with data-preview, or a card link followed by its picture link (.peek) in the same cell.
  function previewTarget(el) {
    if (!el || !el.closest) return null;
    var t = el.closest("[data-preview]");
    if (t) return t;
    var a = el.closest("a[href]");
    return a && urlOf(a) ? a : null;
  }

  document.addEventListener("mouseover", function (e) {
    var t = previewTarget(e.target);
    if (t && t !== owner && !pinned && !t.classList.contains("peek")) show(t, false);
  });
  document.addEventListener("mouseout", function (e) {
    var t = previewTarget(e.target);
    if (t && t === owner && !pinned && !(e.relatedTarget && t.contains(e.relatedTarget))) scheduleHide();
  });
  document.addEventListener("focusin", function (e) {
    if (quiet) return;
    var t = previewTarget(e.target);
    if (t && !pinned) show(t, false);
    else if (!pinned && owner && !(box && box.contains(e.target))) scheduleHide();
  });
  document.addEventListener("focusout", function (e) {
    var t = previewTarget(e.target);
    if (t && t === owner && !pinned) scheduleHide();
  });
  document.addEventListener("click", function (e) {
    var peek = e.target.closest ? e.target.closest("a.peek[data-preview]") : null;
    if (peek) {
      if (e.ctrlKey || e.metaKey || e.shiftKey) return;
      e.preventDefault();
      if (owner === peek && pinned) { hide(); return; }
      pinned = true;
      show(peek, true);
      return;
    }
    if (pinned && box && !box.contains(e.target)) hide();
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && owner) { var o = owner; hide(); if (o.classList.contains("peek")) refocus(o); }
  });
  window.addEventListener("scroll", function () { if (!pinned && owner) hide(); }, { passive: true });
})();
