import Hummingbird

/// The page's stylesheet and script, compiled into the binary (no resource lookup that breaks
/// when the binary moves, nothing from another origin).
enum PageAssets {
    static func response(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static let stylesheet = """
        :root { color-scheme: light dark; --accent: #2457a6; --muted: #666; --line: #ccc8; }
        * { box-sizing: border-box; }
        body { font: 16px/1.45 system-ui, sans-serif; margin: 0; }
        header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; padding: .5rem 1rem;
          border-bottom: 1px solid var(--line); }
        header nav ul { display: flex; flex-wrap: wrap; gap: .75rem; list-style: none; margin: 0; padding: 0; }
        .brand { font-weight: 700; margin: 0; }
        .account { margin-left: auto; display: flex; gap: .5rem; align-items: center; }
        main { padding: 1rem; max-width: 72rem; }
        main:focus { outline: none; }
        footer { padding: 1rem; color: var(--muted); font-size: .85rem; }
        a { color: var(--accent); }
        a[aria-current] { font-weight: 700; text-decoration: none; }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 1rem; top: .5rem; background: Canvas; padding: .25rem .5rem; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
        ul.tree { list-style: none; padding-left: 1.25rem; }
        .count, .meta { color: var(--muted); font-size: .9rem; }
        form.inline { display: inline; }
        fieldset { border: 1px solid var(--line); margin: 1rem 0; }
        label { display: inline-block; margin: .25rem .75rem .25rem 0; }
        input, select, button, textarea { font: inherit; }
        textarea { width: 100%; }
        button.danger { color: #b00; }
        .notice, .live { background: #ffe9a8; color: #222; padding: .4rem .6rem; }
        .error { color: #b00; font-weight: 600; }
        .reasons { color: var(--muted); font-size: .85rem; margin: .2rem 0 0; }
        .pager { display: flex; gap: 1rem; margin: 1rem 0; }
        .inactive { opacity: .6; }

        """

    /// Enhancements only; every action works without it. It follows the change feed (the page's
    /// own `/ui/events` stream, with the session cookie) and, when another client writes, reads
    /// the current view again and swaps its content in, unless the reader is typing in a form,
    /// in which case it only says that the memory changed. It also ticks every box of a bulk form.
    static let script = """
        "use strict";
        (function () {
          var main = document.getElementById("main");
          var notice = main && main.querySelector(".live");
          function editing() {
            var active = document.activeElement;
            return active && active.form && active.form.method === "post";
          }
          var timer = null;
          function refresh() {
            timer = null;
            if (editing()) {
              notice.textContent = "The memory changed; reload to see it.";
              notice.hidden = false;
              return;
            }
            fetch(location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
              .then(function (answer) { return answer.ok ? answer.text() : null; })
              .then(function (text) {
                if (!text) { return; }
                var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("main");
                if (!fresh) { return; }
                main.replaceChildren.apply(main, Array.prototype.slice.call(fresh.childNodes));
                notice = main.querySelector(".live");
                notice.textContent = "Updated: the memory changed.";
                notice.hidden = false;
                document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
                wire();
              });
          }
          function changed() { if (!timer) { timer = setTimeout(refresh, 250); } }
          if (window.EventSource && document.querySelector("header nav")) {
            var feed = new EventSource("/ui/events");
            feed.addEventListener("factsUpdated", changed);
            feed.addEventListener("topicsUpdated", changed);
            feed.addEventListener("ready", function () { document.body.dataset.following = "true"; });
            // A browser allows six connections to a host; a page kept for going back must not
            // keep its stream open.
            window.addEventListener("pagehide", function () { feed.close(); });
            window.addEventListener("pageshow", function (event) { if (event.persisted) { location.reload(); } });
          }
          function wire() {
            document.querySelectorAll("input[data-select-all]").forEach(function (box) {
              box.parentElement.hidden = false;
              box.addEventListener("change", function () {
                Array.prototype.forEach.call(box.form.elements, function (item) {
                  if (item.name === "id") { item.checked = box.checked; }
                });
              });
            });
          }
          wire();
        })();

        """
}
