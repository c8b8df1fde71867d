// clearance console: live pending asks over Server-Sent Events, answers posted with fetch.
// No build step; without this script the forms still work as plain posts.
(function () {
  "use strict";
  var csrfMeta = document.querySelector('meta[name="csrf"]');
  var asks = document.getElementById("asks");
  var live = document.getElementById("live");
  var count = document.getElementById("count");
  var flash = document.getElementById("flash");
  var onward = document.getElementById("continue");
  if (onward && window.location.hash) {
    onward.setAttribute("href", onward.getAttribute("href") + window.location.hash);
  }

  function say(text, bad) {
    if (!flash) return;
    flash.textContent = text;
    flash.className = bad ? "flash bad" : "flash";
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    // getAttribute: a button named "action" shadows form.action
    var method = (form.getAttribute("method") || "get").toLowerCase();
    if (!csrfMeta || method !== "post") return;
    event.preventDefault();
    var choice = event.submitter ? event.submitter.value : "";
    if (choice === "always" && !window.confirm(
        "Allow this pattern from now on, in every session, by writing it to the chosen config file?\n\n" +
        event.submitter.textContent)) {
      return;
    }
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) {
      data.set(event.submitter.name, event.submitter.value);
    }
    fetch(form.getAttribute("action"), {
      method: "POST",
      body: new URLSearchParams(data),
      credentials: "same-origin",
      headers: { "X-CSRF-Token": csrfMeta.content, "Accept": "application/json" },
    }).then(function (response) {
      return response.json().then(function (body) { return [response.ok, body]; });
    }).then(function (result) {
      say(result[1].message || "", !result[0]);
      if (result[0] && result[1].reload) window.location.reload();
    }).catch(function () { say("The console could not reach clearance serve.", true); });
  });

  if (!asks || !window.EventSource) return;
  var source = new EventSource("/events");
  source.addEventListener("asks", function (event) {
    var body = JSON.parse(event.data);
    asks.innerHTML = body.html;  // rendered and escaped by the server
    if (count) count.textContent = String(body.count);
    if (live) live.textContent = "Live: new asks appear by themselves.";
    document.title = (body.count ? "(" + body.count + ") " : "") + "Pending asks · clearance";
    if (window.location.hash) {
      var target = document.getElementById(window.location.hash.slice(1));
      if (target) target.classList.add("target");
    }
  });
  source.onerror = function () {
    if (live) live.textContent = "Disconnected from clearance serve; retrying…";
  };
})();
