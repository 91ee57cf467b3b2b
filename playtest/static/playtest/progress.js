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
        if (status) status.textContent = job.status;
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
