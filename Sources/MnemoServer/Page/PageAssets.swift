import Hummingbird

/// The page's stylesheet and script, compiled into the binary (no resource lookup that breaks
/// when the binary moves, nothing from another origin).
enum PageAssets {
    static func response(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=3600"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The look: a plain, light data browser in the manner of Datasette and pgweb (a header band
    /// with the memory's name, tables with a shaded head and hairline rows, monospace ids) with
    /// the OpenMemory dashboard's small badges for a fact's type and importance. Colours pass
    /// WCAG AA (4.5:1 for text, 3:1 for the focus ring and borders of controls) in both the light
    /// and the dark scheme. Below 40rem, a table of facts becomes one block a row, each value
    /// labelled, so that no view scrolls sideways on a phone.
    static let stylesheet = """
        :root { color-scheme: light dark; --bg: #ffffff; --text: #1b1b1b; --accent: #1d4f91; --muted: #595959;
          --line: #d4d4d4; --control: #767676; --band: #f3f5f8; --button: #f6f6f6; --danger: #a40000;
          --badge: #e8eef7; --notice: #fff4c2; --notice-text: #1b1b1b; --mark: #ffe066; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #121212; --text: #e8e8e8; --accent: #8ab4f8; --muted: #b3b3b3; --line: #3d3d3d;
            --control: #8f8f8f; --band: #1d2128; --button: #2a2a2a; --danger: #ff9b9b; --badge: #253047;
            --notice: #3a3210; --notice-text: #f5ecc4; --mark: #6b5800; }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: var(--bg); color: var(--text); }
        header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .5rem 1rem;
          background: var(--band); border-bottom: 1px solid var(--line); }
        header nav ul { display: flex; flex-wrap: wrap; gap: .25rem .5rem; list-style: none; margin: 0; padding: 0; }
        header nav a { display: inline-block; padding: .25rem .4rem; min-height: 1.75rem; }
        .brand { font-weight: 700; margin: 0; }
        .brand a { color: var(--text); text-decoration: none; }
        .account { margin-left: auto; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
        main { padding: 1rem; max-width: 72rem; }
        main:focus { outline: none; }
        h1 { font-size: 1.6rem; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
        h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
        footer { padding: 1rem; color: var(--muted); font-size: .85rem; border-top: 1px solid var(--line); }
        a { color: var(--accent); }
        a[aria-current] { font-weight: 700; text-decoration: none; border-bottom: 2px solid var(--accent); }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .skip { position: absolute; left: -999px; }
        .skip:focus { left: 1rem; top: .5rem; background: var(--bg); padding: .25rem .5rem; z-index: 1; }
        .vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        p, li, dd { overflow-wrap: anywhere; }
        td { overflow-wrap: break-word; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; vertical-align: top; padding: .4rem .5rem; border-bottom: 1px solid var(--line); }
        thead th { background: var(--band); font-weight: 600; }
        caption { text-align: left; padding: .25rem 0; }
        td.select { width: 2.5rem; }
        ul.tree { list-style: none; padding-left: 1.25rem; }
        ul.tree a, ul.sources li, ul.moving li { line-height: 1.9; }
        .count, .meta, .hint { color: var(--muted); font-size: .9rem; }
        .hint { margin: .2rem 0 0; }
        .badge { display: inline-block; padding: 0 .45rem; border-radius: .6rem; background: var(--badge);
          font-size: .85rem; }
        code, kbd, .ids { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
        kbd { border: 1px solid var(--control); border-radius: 3px; padding: 0 .25rem; }
        mark { background: var(--mark); color: var(--text); }
        form.inline { display: inline; }
        fieldset { border: 1px solid var(--line); margin: .75rem 0; padding: .5rem .75rem; }
        label { margin: 0; }
        .field { display: inline-flex; flex-wrap: wrap; align-items: center; gap: .35rem; margin: .25rem 1rem .25rem 0;
          max-width: 100%; }
        .field input, .field select { min-width: 0; max-width: 100%; }
        .query { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; }
        .query input { flex: 1 1 12rem; min-width: 0; }
        form.fields, dl.fields { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .5rem 1rem;
          align-items: start; }
        dl.fields dt { font-weight: 600; }
        dl.fields dd { margin: 0; }
        form.fields label { padding-top: .35rem; }
        .actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .5rem 0; }
        form.bulk, form.erase { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .5rem 0; }
        input, select, button, textarea { font: inherit; color: var(--text); background: var(--bg);
          border: 1px solid var(--control); border-radius: 4px; min-height: 2rem; padding: .2rem .4rem; max-width: 100%; }
        textarea { width: 100%; }
        input[type=checkbox] { width: 1.5rem; height: 1.5rem; min-height: 0; margin: 0; accent-color: var(--accent); }
        button, a.button { background: var(--button); cursor: pointer; padding: .3rem .75rem; }
        a.button { display: inline-block; border: 1px solid var(--control); border-radius: 4px; color: var(--text);
          text-decoration: none; }
        button.danger { color: var(--danger); border-color: var(--danger); font-weight: 600; }
        .notice, .live { background: var(--notice); color: var(--notice-text); padding: .5rem .75rem;
          border-left: 4px solid var(--accent); margin: 0 0 .75rem; }
        .error { color: var(--danger); font-weight: 600; margin: .25rem 0; }
        [aria-invalid=true] { border: 2px solid var(--danger); }
        .reasons { color: var(--muted); font-size: .85rem; margin: .2rem 0 0; }
        .pager { display: flex; flex-wrap: wrap; gap: 1rem; margin: 1rem 0; align-items: center; }
        .pager a { display: inline-block; padding: .25rem 0; }
        .inactive td { color: var(--muted); }
        ul.conflicts { list-style: none; padding: 0; }
        li.conflict { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; margin: 0 0 .75rem; }
        ul.ids { display: flex; flex-wrap: wrap; gap: .25rem .75rem; list-style: none; padding: 0; margin: .25rem 0 0; }
        @media (max-width: 40rem) {
          header { padding: .5rem; }
          main { padding: .75rem .5rem; }
          .account { margin-left: 0; }
          table.rows thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
          table.rows, table.rows tbody, table.rows tr, table.rows td { display: block; width: auto; }
          table.rows tr { border-bottom: 1px solid var(--line); padding: .5rem 0; position: relative; }
          table.rows td { border: 0; padding: .1rem 0; overflow-wrap: anywhere; }
          table.rows td.select { float: right; width: auto; padding-left: .5rem; }
          table.rows td[data-label]:not([data-label=Content])::before { content: attr(data-label) ": ";
            color: var(--muted); font-size: .9rem; }
          form.fields, dl.fields { grid-template-columns: minmax(0, 1fr); gap: .25rem; }
          form.fields label { padding-top: .5rem; }
          dl.fields dd { margin-bottom: .35rem; }
        }

        """

    /// Enhancements only; every action works without it. It follows the change feed (the page's
    /// own `/ui/events` stream, with the session cookie, on the views of a signed-in page) and,
    /// when another client writes, reads the current view again and updates it in place, keeping
    /// every element that has focus or that the reader typed in or ticked (and what holds them):
    /// a change never takes away what is being typed. It also ticks every box of a bulk form.
    static let script = """
        "use strict";
        (function () {
          var main = document.getElementById("main");
          // What the reader typed in or ticked is theirs: a refresh keeps it.
          function typed(event) {
            if (event.target && event.target.form) { event.target.setAttribute("data-typed", "true"); }
          }
          document.addEventListener("input", typed);
          document.addEventListener("change", typed);
          function kept(node) {
            var active = document.activeElement;
            return (active && active !== document.body && node.contains(active)) ||
              node.matches("[data-typed]") || node.querySelector("[data-typed]") !== null;
          }
          function keys(nodes) {
            var seen = {};
            return nodes.map(function (node) {
              var name = node.id ? "#" + node.id : node.getAttribute("data-key") ? "=" + node.getAttribute("data-key") : node.tagName;
              seen[name] = (seen[name] || 0) + 1;
              return name + "/" + seen[name];
            });
          }
          var saved = 0;
          // Brings `old` up to `fresh` without ever taking a kept element out of the document:
          // the nodes around it are replaced, it stays where it is (and keeps its focus).
          function update(old, fresh) {
            if (/^(INPUT|TEXTAREA|SELECT|BUTTON|A|OPTION)$/.test(old.tagName) || old.tagName !== fresh.tagName) {
              saved += 1;
              return;
            }
            var oldChildren = Array.prototype.slice.call(old.children);
            var oldKeys = keys(oldChildren);
            var keep = {};
            oldChildren.forEach(function (child, index) { if (kept(child)) { keep[oldKeys[index]] = child; } });
            Array.prototype.slice.call(old.childNodes).forEach(function (child) {
              if (child.nodeType !== 1 || !kept(child)) { child.remove(); }
            });
            var freshChildren = Array.prototype.slice.call(fresh.children);
            var freshKeys = keys(freshChildren);
            var cursor = null;
            Array.prototype.slice.call(fresh.childNodes).forEach(function (child) {
              var index = freshChildren.indexOf(child);
              var match = index >= 0 ? keep[freshKeys[index]] : null;
              if (match) {
                update(match, child);
                delete keep[freshKeys[index]];
                cursor = match;
                return;
              }
              if (cursor) { cursor.after(child); } else { old.prepend(child); }
              cursor = child;
            });
            Object.keys(keep).forEach(function () { saved += 1; });
          }
          var timer = null;
          function refresh() {
            timer = null;
            fetch(location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
              .then(function (answer) { return answer.ok ? answer.text() : null; })
              .then(function (text) {
                if (!text) { return; }
                var fresh = new DOMParser().parseFromString(text, "text/html").getElementById("main");
                if (!fresh) { return; }
                saved = 0;
                update(main, fresh);
                var notice = document.getElementById("live");
                notice.textContent = saved > 0
                  ? "Updated: the memory changed. What you were typing or had selected is kept as it was."
                  : "Updated: the memory changed.";
                notice.hidden = false;
                document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
                wire();
              });
          }
          function changed() { if (!timer) { timer = setTimeout(refresh, 250); } }
          if (window.EventSource && document.body.dataset.follow === "true") {
            var feed = new EventSource("/ui/events");
            feed.addEventListener("factsUpdated", changed);
            feed.addEventListener("topicsUpdated", changed);
            feed.addEventListener("ready", function () { document.body.dataset.following = "true"; });
            // A browser allows six connections to a host; a page kept for going back must not
            // keep its stream open.
            window.addEventListener("pagehide", function () { feed.close(); });
            window.addEventListener("pageshow", function (event) { if (event.persisted) { location.reload(); } });
          }
          // A form's `id` property would be its fields named "id": its attribute is read instead.
          function wire() {
            document.querySelectorAll("input[data-select-all]:not([data-wired])").forEach(function (box) {
              box.setAttribute("data-wired", "true");
              box.parentElement.hidden = false;
              box.addEventListener("change", function () {
                Array.prototype.forEach.call(document.querySelectorAll("input[name=id][form=" + box.form.getAttribute("id") + "]"),
                  function (item) { item.checked = box.checked; item.setAttribute("data-typed", "true"); });
              });
            });
            document.querySelectorAll("button[formaction='/ui/export']:not([data-wired])").forEach(function (button) {
              button.setAttribute("data-wired", "true");
              button.addEventListener("click", function () {
                var count = document.querySelectorAll("input[name=id][form=" + button.form.getAttribute("id") + "]:checked").length;
                if (count === 0) { return; }
                var notice = document.getElementById("live");
                notice.textContent = "Downloading " + count + (count === 1 ? " fact" : " facts") + " as JSONL.";
                notice.hidden = false;
              });
            });
          }
          wire();
        })();

        """

    /// The page's icon (a browser asks for one; without it, `/favicon.ico` would be a 401).
    static let icon = """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" \
        fill="#1d4f91"/><path d="M3 12V4h2l3 4 3-4h2v8h-2V7l-3 4-3-4v5z" fill="#fff"/></svg>

        """
}
