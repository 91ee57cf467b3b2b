// Polls the job's API while it runs and updates the progress bar; reloads when it ends.
(function () {
  var box = document.getElementById("progress");
  if (!box) return;
  var url = box.getAttribute("data-api");
  var bar = box.querySelector("progress");
  var text = box.querySelector("[data-progress-text]");
  var status = document.querySelector("[data-status]");
  function tick() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (job) {
        bar.value = job.progress;
        bar.max = job.games;
        text.textContent = job.progress.toLocaleString() + " / " + job.games.toLocaleString() + " (" + job.percent + "%)";
        if (status) status.textContent = status.getAttribute("data-label-" + job.status) || job.status;
        var partial = box.querySelector("[data-partial]");
        if (partial && job.partial) {
          var p = job.partial;
          // The sentences come translated from the page (data-format*), with {rate} {n} {t} to fill in.
          var fmt = partial.getAttribute("data-format") || "So far: {rate} wins over {n} games";
          var fmtMean = partial.getAttribute("data-format-mean") || "mean turn of win {t}";
          partial.textContent = fmt.replace("{rate}", (100 * p.win_rate).toFixed(1) + "%").replace("{n}", p.games.toLocaleString()) +
            (p.mean_turn_of_win ? ", " + fmtMean.replace("{t}", p.mean_turn_of_win.toFixed(2)) : "") + ".";
        }
        if (job.status === "queued" || job.status === "running") {
          setTimeout(tick, 1000);
        } else {
          window.location.reload();
        }
      })
      .catch(function () { setTimeout(tick, 3000); });
  }
  setTimeout(tick, 500);
})();
