#!/usr/bin/env python3
"""The memory page (`mnemo serve` at /ui) in a real browser: headless Chromium driven by Selenium.

Every view is opened by its URL and checked against the JSON API; every action is done through
the page and checked through the API; the same flows run again with JavaScript disabled; a
hostile fact must render as text; another user's fact id must be a 404; a read-only server
must refuse a forged POST. Every view has its landmarks and a name on every control, and is
used by keyboard alone. With JavaScript on, the page must follow the change feed: a fact
added by another client appears without a reload, and what is typed or focused stays.

axe-core (the `axe.min.js` that the `axe-playwright-python` package ships, injected through
Selenium) runs over every view in the light and the dark colour scheme at 1280 and 390 px and
must find nothing serious or critical; no view may scroll sideways at 390 or 360 px; no view
may log a console error. A refused form must come back with what was typed; every successful
POST must end on a GET address that can be reloaded; a fact's sources must be text.

Usage: page_check.py MNEMO_BINARY [--screenshot PNG] [--phone-screenshots DIR]
Needs Debian's `chromium` and `chromium-driver` and `pip install selenium axe-playwright-python`.
"""

import argparse
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

import axe_playwright_python

from selenium import webdriver
from selenium.common.exceptions import (NoAlertPresentException, StaleElementReferenceException, TimeoutException,
                                        WebDriverException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>"
SECRET = "Zanzibarite passphrase kept in the vault"

FACTS = [
    {"topic": "Technology/iOS Development", "content": "Prefers SwiftUI over UIKit", "type": "preference",
     "importance": "high", "sources": ["conv-014", "<b>chat</b>"]},
    {"topic": "Technology", "content": "Wants to learn Rust this year", "type": "goal", "importance": "low"},
    {"topic": "Health & Fitness/Running", "content": "Runs a marathon every spring", "type": "experience"},
    {"topic": "Family", "content": "Sister lives in Lisbon", "created_at": "2024-03-01T10:00:00Z"},
    {"topic": "Family", "content": "Sister lives in Porto", "created_at": "2025-03-01T10:00:00Z"},
    {"topic": "Home", "content": "Rent is 850 euros a month", "created_at": "2024-01-01T10:00:00Z"},
    {"topic": "Home", "content": "Rent is 950 euros a month", "created_at": "2025-01-01T10:00:00Z"},
    {"topic": "Food", "content": "Drinks green tea every morning"},
    {"topic": "Food", "content": "Bakes sourdough bread on weekends"},
    {"topic": "Private", "content": SECRET},
    {"topic": "Hostile", "content": HOSTILE},
] + [{"topic": "Reading", "content": f"Read book number {n} of the reading list"} for n in range(1, 61)]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """A `mnemo serve` on a free port, with tokens auth."""

    def __init__(self, mnemo, db, tokens, work, ui="on"):
        self.port = free_port()
        self.log = open(os.path.join(work, f"serve-{ui}.log"), "w")
        self.process = subprocess.Popen(
            [mnemo, "serve", "--db", db, "--auth", "tokens", "--tokens-file", tokens, "--port", str(self.port),
             "--ui", ui], stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(100):
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"mnemo serve --ui {ui} did not start")

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def request(self, method, path, token=None, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = dict(headers or {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=body, headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        connection.close()
        return answer.status, data

    def api(self, method, path, body=None, token="tok-alice"):
        status, data = self.request(method, path, token=token, body=body)
        check(200 <= status < 300 or status == 404, f"{method} {path}: {status} {data[:200]!r}")
        return status, (json.loads(data) if data and status != 404 else None)

    def fact(self, fact_id):
        """The fact as the API shows it (inactive ones too), or None."""
        _, page = self.api("GET", "/v1/users/alice/facts?limit=500")
        return next((fact for fact in page["facts"] if fact["id"] == str(fact_id)), None)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            # An event stream's connection may hold a graceful stop until its next heartbeat.
            self.process.kill()
            self.process.wait()


FAILURES = []


def phase(name, started=[time.time()]):
    now = time.time()
    print(f"  {name}: {now - started[0]:.1f} s", flush=True)
    started[0] = now


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print(f"FAIL {message}", flush=True)


def browser(javascript, downloads):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.add_experimental_option("prefs", {
        "download.default_directory": downloads, "download.prompt_for_download": False,
        "profile.managed_default_content_settings.javascript": 1 if javascript else 2,
    })
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    return webdriver.Chrome(options=options, service=service)


def console_errors(driver):
    """The console's errors since the last call (reading the log empties it)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def sign_in(driver, server, token="tok-alice", audited=False):
    driver.get(server.base + "/ui")
    check(driver.current_url.endswith("/ui/login"), "an anonymous visit goes to the sign-in form")
    time.sleep(0.3)
    errors = console_errors(driver)
    check(not errors, f"the sign-in page logs no console error: {errors}")
    check(not driver.find_elements(By.CSS_SELECTOR, "header nav"), "the sign-in page shows no menu")
    if audited:
        for scheme, width in LOOKS:
            look(driver, scheme, width)
            driver.refresh()
            audit(driver, "/ui/login", scheme, width)
        plain_look(driver)
        driver.get(server.base + "/ui/login")
    field = driver.find_element(By.ID, "token")
    check(field.get_attribute("type") == "password", "the token field hides the token")
    field.send_keys(token)
    click_and_load(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/ui/login'] button"))
    check(driver.current_url.endswith("/ui"), "sign-in leads to the topic tree")
    cookie = driver.get_cookie("mnemo_session")
    check(cookie and cookie["httpOnly"] and cookie.get("sameSite") == "Strict", f"session cookie flags: {cookie}")
    return cookie["value"]


def wait_for(driver, condition, message, seconds=10):
    try:
        WebDriverWait(driver, seconds).until(lambda _: condition())
    except Exception:
        check(False, message)


def wait_until_replaced(driver, page):
    """Waits until the next page has replaced `page` (this page's `html` element).

    Selenium's `staleness_of` knows only the stale-element error; Chromium sometimes reports a
    replaced page instead as an inspector error for a node no longer in the document.
    """
    def replaced(_):
        try:
            page.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:
            if "does not belong to the document" in str(error):
                return True
            raise

    WebDriverWait(driver, 10).until(replaced)


def click_and_load(driver, element):
    """Clicks a button that submits a form and waits until the next page has replaced this one."""
    page = driver.find_element(By.TAG_NAME, "html")
    element.click()
    wait_until_replaced(driver, page)


def submit(driver, form_selector, button_selector="button[type=submit]"):
    click_and_load(driver, driver.find_element(By.CSS_SELECTOR, f"{form_selector} {button_selector}"))


def by_content(server):
    _, page = server.api("GET", "/v1/users/alice/facts?limit=500")
    return {fact["content"]: fact for fact in page["facts"]}


def check_views(driver, server, mnemo, db):
    """Each view opened by its URL and compared with the JSON API."""
    _, tree = server.api("GET", "/api/topics")

    def walk(nodes):
        for node in nodes:
            yield node
            yield from walk(node.get("children", []))

    driver.get(server.base + "/ui")
    for node in walk(tree):
        link = driver.find_element(By.CSS_SELECTOR, f"a[href='/ui/topics/{node['id']}']")
        check(link.text == node["name"], f"tree shows topic {node['name']}")
        count = link.find_element(By.XPATH, "following-sibling::span").text
        check(count.startswith(f"{node['fact_count']} fact"), f"tree count of {node['name']}: {count}")

    reading = next(node for node in walk(tree) if node["name"] == "Reading")
    driver.get(server.base + f"/ui/topics/{reading['id']}")
    rows = driver.find_elements(By.CSS_SELECTOR, "tbody tr")
    _, detail = server.api("GET", f"/api/topics/{reading['id']}?limit=50")
    check(len(rows) == 50 == len(detail["facts"]), f"topic view pages 50 of 60: {len(rows)}")
    shown = [row.find_element(By.CSS_SELECTOR, "td a").text for row in rows]
    check(shown == [fact["content"] for fact in detail["facts"]], "topic view lists what the API lists")
    click_and_load(driver, driver.find_element(By.CSS_SELECTOR, "a[rel=next]"))
    check(len(driver.find_elements(By.CSS_SELECTOR, "tbody tr")) == 10, "the next page holds the last 10")

    query = urllib.parse.urlencode({"q": "tea bread", "mode": "text", "type": "fact"})
    driver.get(server.base + "/ui/search?" + query)
    _, api = server.api("GET", "/api/topics/search?" + query + "&limit=50")
    links = driver.find_elements(By.CSS_SELECTOR, "tbody td a")
    check([link.get_attribute("href").rsplit("/", 1)[1] for link in links]
          == [str(hit["id"]) for hit in api["results"]], "search results and their order match the API")
    check(all("BM25" in reason.text for reason in driver.find_elements(By.CSS_SELECTOR, ".reasons")),
          "each text hit says why it ranked")
    check(driver.find_element(By.ID, "q").get_attribute("type") == "search", "the search box is type=search")

    facts = by_content(server)
    swift = facts["Prefers SwiftUI over UIKit"]
    driver.get(server.base + f"/ui/facts/{swift['id']}")
    check(driver.find_element(By.CSS_SELECTOR, ".fact-content").text == swift["content"], "fact view content")
    check(swift["importance"] in driver.page_source, "fact view importance")
    sources = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#main ul.sources li")]
    check(sources == ["conv-014", "<b>chat</b>"], f"the fact's sources are a list of text: {sources}")
    check("MnemoServer" not in driver.page_source, "the fact view shows no debug dump")
    check(driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=merged] p").text
          == "No duplicate was merged into this fact.", "an empty list is a sentence")

    driver.get(server.base + "/ui/stats")
    _, stats = server.api("GET", "/api/topics/stats")
    check(driver.find_element(By.ID, "stat-facts").text == str(stats["facts"]), "stats: facts")
    check(driver.find_element(By.ID, "stat-topics").text == str(stats["topics"]), "stats: topics")

    conflicts = json.loads(subprocess.run([mnemo, "conflicts", "--json", "--db", db, "--namespace", "alice"],
                                          capture_output=True, check=True).stdout)
    driver.get(server.base + "/ui/conflicts")
    check(len(driver.find_elements(By.CSS_SELECTOR, "li.conflict")) == len(conflicts) > 0,
          f"conflicts view lists the {len(conflicts)} conflicts")


def every_view(server):
    """An address of each view, the fact view with its sources and with a conflict."""
    _, tree = server.api("GET", "/api/topics")
    facts = by_content(server)
    reading = next(node for node in tree if node["name"] == "Reading")
    return ["/ui", f"/ui/topics/{reading['id']}", "/ui/search?q=sister+rent+tea",
            f"/ui/facts/{facts['Prefers SwiftUI over UIKit']['id']}", f"/ui/facts/{facts['Sister lives in Porto']['id']}",
            "/ui/conflicts", "/ui/stats", "/ui/undo", "/ui/merge?source=Food&into=Home", "/ui/export", "/ui/erase"]


def check_hostile_and_foreign(driver, server):
    hostile = by_content(server)[HOSTILE]
    driver.get(server.base + f"/ui/facts/{hostile['id']}")
    check(driver.find_element(By.CSS_SELECTOR, ".fact-content").text == HOSTILE, "a hostile fact shows as text")
    try:
        driver.switch_to.alert
        check(False, "a hostile fact ran a script")
    except NoAlertPresentException:
        pass
    _, bob = server.api("GET", "/v1/users/bob/facts", token="tok-bob")
    foreign = bob["facts"][0]["id"]
    driver.get(server.base + f"/ui/facts/{foreign}")
    check(driver.find_element(By.TAG_NAME, "h1").text == "Not Found", "another user's fact is not found")
    check(bob["facts"][0]["content"] not in driver.page_source, "another user's fact shows nothing of it")
    status, _ = server.request("GET", f"/ui/facts/{foreign}",
                               headers={"Cookie": f"mnemo_session={driver.get_cookie('mnemo_session')['value']}"})
    check(status == 404, f"another user's fact id is a 404, not {status}")


def check_accessible(driver, server):
    """Landmarks and a name for every control on every view, and the views used by keyboard alone."""
    _, tree = server.api("GET", "/api/topics")
    facts = by_content(server)
    views = ["/ui", f"/ui/topics/{tree[0]['id']}", "/ui/search?q=tea", f"/ui/facts/{facts['Sister lives in Porto']['id']}",
             "/ui/conflicts", "/ui/stats", "/ui/undo", "/ui/merge", "/ui/erase"]
    for view in views:
        driver.get(server.base + view)
        for landmark in ["header", "nav", "main"]:
            check(len(driver.find_elements(By.TAG_NAME, landmark)) == 1, f"{view} has one <{landmark}>")
        controls = driver.find_elements(By.CSS_SELECTOR, "input:not([type=hidden]), select, textarea, button, a[href]")
        unnamed = [control.get_attribute("outerHTML")[:80] for control in controls
                   if control.is_displayed() and not control.accessible_name.strip()]
        check(controls and not unnamed, f"{view}: every control has an accessible name: {unnamed}")

    # By keyboard alone: Tab to the first topic of the tree and open it with Enter; Tab to the
    # search view, type in its box and press Enter.
    driver.get(server.base + "/ui")
    first = f"/ui/topics/{tree[0]['id']}"
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    for _ in range(40):
        if (driver.switch_to.active_element.get_attribute("href") or "").endswith(first):
            break
        driver.switch_to.active_element.send_keys(Keys.TAB)
    focused = driver.switch_to.active_element
    check((focused.get_attribute("href") or "").endswith(first), "Tab reaches the first topic of the tree")
    page = driver.find_element(By.TAG_NAME, "html")
    focused.send_keys(Keys.ENTER)
    wait_until_replaced(driver, page)
    check(driver.current_url.endswith(first), f"Enter opens the focused topic: {driver.current_url}")
    for _ in range(40):
        if (driver.switch_to.active_element.get_attribute("href") or "").endswith("/ui/search"):
            break
        driver.switch_to.active_element.send_keys(Keys.TAB)
    check((driver.switch_to.active_element.get_attribute("href") or "").endswith("/ui/search"),
          f"Tab reaches the link to the search view on {driver.current_url}")
    page = driver.find_element(By.TAG_NAME, "html")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until_replaced(driver, page)
    # Chromium focuses an `autofocus` field when it next renders the page, which may come after
    # the load that Selenium waits for: the box is given a few seconds to get the focus.
    try:
        WebDriverWait(driver, 5).until(lambda _: driver.switch_to.active_element.get_attribute("id") == "q")
    except TimeoutException:
        focus = driver.execute_script("var e = document.activeElement; return e.tagName + '#' + e.id")
        check(False, f"the search view opened by keyboard has its box focused ({driver.current_url}: {focus})")
    boxes = driver.find_elements(By.ID, "q")
    if not boxes:
        return  # not on the search view: said above; the rest of the run goes on
    page = driver.find_element(By.TAG_NAME, "html")
    boxes[0].send_keys("sourdough", Keys.ENTER)
    wait_until_replaced(driver, page)
    check("Bakes sourdough bread on weekends" in driver.find_element(By.TAG_NAME, "main").text,
          "a search typed and sent by keyboard finds the fact")


def check_actions(driver, server, javascript, downloads, mnemo, db):
    label = "with JavaScript" if javascript else "without JavaScript"
    facts = by_content(server)

    tea = facts["Drinks green tea every morning"] if javascript else facts["Bakes sourdough bread on weekends"]
    driver.get(server.base + f"/ui/facts/{tea['id']}")
    content = driver.find_element(By.ID, "e-content")
    content.clear()
    content.send_keys(tea["content"] + " (edited)")
    driver.find_element(By.CSS_SELECTOR, "#e-importance option[value=high]").click()
    submit(driver, f"form[action='/ui/facts/{tea['id']}/edit']")
    on_get_page(driver, f"/ui/facts/{tea['id']}", f"edit {label}")
    edited = server.fact(tea["id"])
    check(edited["content"] == tea["content"] + " (edited)" and edited["importance"] == "high",
          f"edit {label}: {edited}")

    submit(driver, f"form[action='/ui/facts/{tea['id']}/delete']")
    on_get_page(driver, f"/ui/undo?deleted={tea['id']}", f"delete {label}")
    check(server.fact(tea["id"]) is None, f"delete {label} hides the fact from the API")
    click_and_load(driver, driver.find_element(By.CSS_SELECTOR, ".notice form button"))
    on_get_page(driver, "/ui/undo?undone=", f"undo {label}")
    check(server.fact(tea["id"]) is not None, f"undo {label} brings the fact back")

    driver.get(server.base + "/ui/conflicts")
    keep = "newer" if javascript else "both"
    conflict = driver.find_element(By.CSS_SELECTOR, "li.conflict")
    older_id = conflict.find_elements(By.CSS_SELECTOR, "ul a")[0].text.lstrip("#")
    click_and_load(driver, conflict.find_element(By.CSS_SELECTOR, f"input[name=keep][value={keep}] + button"))
    on_get_page(driver, "/ui/conflicts", f"resolve {label}")
    older = server.fact(older_id)
    check(older["is_active"] == (keep == "both"), f"resolve a conflict ({keep}) {label}: {older}")
    flash = driver.find_element(By.CSS_SELECTOR, ".flash").text
    check(flash.startswith("Kept") and f"#{older_id}" in flash, f"resolving says what happened {label}: {flash}")

    # Bulk export: every Reading fact on a search page, compared with `mnemo export`.
    driver.get(server.base + "/ui/search?topic=Reading")
    select_all = driver.find_element(By.CSS_SELECTOR, "input[data-select-all]")
    check(select_all.is_displayed() == javascript, f"the select-all box shows only with JavaScript ({label})")
    if javascript:
        select_all.click()
    else:
        for box in driver.find_elements(By.CSS_SELECTOR, "input[name=id]"):
            box.click()
    ids = {box.get_attribute("value") for box in driver.find_elements(By.CSS_SELECTOR, "input[name=id]:checked")}
    for old in os.listdir(downloads):
        os.remove(os.path.join(downloads, old))
    driver.find_element(By.CSS_SELECTOR, "button[formaction='/ui/export']").click()
    exported = wait_for_download(downloads)
    reference = subprocess.run([mnemo, "export", "--db", db, "--namespace", "alice"], capture_output=True,
                               check=True).stdout.decode().splitlines()
    wanted = [line for line in reference if str(json.loads(line)["id"]) in ids]
    check(len(ids) == 50 and exported == wanted, f"bulk export {label} equals mnemo export's lines")

    # Erase for good, typed confirmation, receipt; then no byte of it in the files.
    if javascript:
        secret = facts[SECRET]
        driver.get(server.base + f"/ui/facts/{secret['id']}")
        driver.find_element(By.ID, "erase-confirm").send_keys("erase")
        submit(driver, f"form[action='/ui/facts/{secret['id']}/erase']")
        on_get_page(driver, "/ui/receipts/", "erase")
        check(driver.find_element(By.TAG_NAME, "h1").text == "Erased", "erase shows the receipt")
        ids = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "ul.ids li")]
        check(ids == [f"#{secret['id']}"], f"the receipt lists the erased ids: {ids}")
        page = driver.find_element(By.TAG_NAME, "html")
        driver.refresh()
        wait_until_replaced(driver, page)
        check(driver.find_element(By.TAG_NAME, "h1").text == "Erased", "a reload of the receipt shows it again")
        check(server.fact(secret["id"]) is None, "an erased fact is gone from the API")
        for suffix in ["", "-wal", "-shm"]:
            path = db + suffix
            if os.path.exists(path):
                with open(path, "rb") as handle:
                    data = handle.read()
                check(b"Zanzibarite" not in data, f"the erased fact's text is not in {os.path.basename(path)}")


def on_get_page(driver, expected, action):
    """After a POST: the browser is on the GET address of the result (post/redirect/get)."""
    path = driver.current_url.split("://", 1)[1].split("/", 1)[1]
    check(("/" + path).startswith(expected), f"{action} ends on GET {expected}, not /{path}")


def check_merge(driver, server):
    """A merge through its preview: the facts that move are listed, there is a way back, and the
    merge ends on the target topic, which says what it did."""
    _, tree = server.api("GET", "/api/topics")
    food = next(node for node in tree if node["name"] == "Food")
    driver.get(server.base + f"/ui/topics/{food['id']}")
    driver.find_element(By.ID, "merge-target").send_keys("Kitchen")
    submit(driver, "form[action='/ui/merge']")
    moving = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "ul.moving li a")]
    check(len(moving) == food["fact_count"], f"the merge preview lists the {food['fact_count']} facts: {moving}")
    cancel = driver.find_element(By.PARTIAL_LINK_TEXT, "Cancel")
    check(cancel.get_attribute("href").endswith(f"/ui/topics/{food['id']}"), "the preview's cancel leads back")
    check("0 duplicates" not in driver.find_element(By.ID, "main").text, "no 'merge 0 duplicates'")
    submit(driver, "form[action='/ui/merge']")
    on_get_page(driver, "/ui/topics/", "merge")
    flash = driver.find_element(By.CSS_SELECTOR, ".flash").text
    check(flash.startswith(f"Moved {food['fact_count']} facts from Food into Kitchen"), f"the merge says: {flash}")


def check_refused_forms(driver, server, javascript):
    """A refused form comes back as itself, with what was typed and the error beside the field."""
    facts = by_content(server)
    fact = facts["Runs a marathon every spring"]
    driver.get(server.base + f"/ui/facts/{fact['id']}")
    content = driver.find_element(By.ID, "e-content")
    content.clear()
    content.send_keys("Runs two marathons every spring")
    expires = driver.find_element(By.ID, "e-expires")
    expires.clear()
    expires.send_keys("next tuesday")
    submit(driver, f"form[action='/ui/facts/{fact['id']}/edit']")
    check(driver.find_element(By.ID, "e-content").get_attribute("value") == "Runs two marathons every spring",
          "a refused edit keeps the typed content")
    check(driver.find_element(By.ID, "e-expires").get_attribute("value") == "next tuesday",
          "a refused edit keeps the typed expiry")
    check(driver.find_element(By.ID, "e-expires").get_attribute("aria-invalid") == "true"
          and driver.find_element(By.ID, "e-expires-error").is_displayed(), "the error stands beside the expiry")
    check(server.fact(fact["id"])["content"] == fact["content"], "a refused edit changes nothing")
    if javascript:  # axe-core runs in the page
        console_errors(driver)
        for scheme, width in LOOKS:
            look(driver, scheme, width)
            audit(driver, "the refused edit", scheme, width, console=False)
        plain_look(driver)

    driver.find_element(By.ID, "erase-confirm").send_keys("erse")
    submit(driver, f"form[action='/ui/facts/{fact['id']}/erase']")
    check(driver.find_element(By.ID, "erase-confirm").get_attribute("value") == "erse"
          and driver.find_element(By.ID, "erase-confirm-error").is_displayed(),
          "a wrong erase word comes back beside its field")
    check(server.fact(fact["id"]) is not None, "a wrong erase word erases nothing")

    driver.get(server.base + "/ui/search?q=sourdough&mode=text")
    submit(driver, "form#bulk", "button[value=delete]")
    check(driver.find_element(By.ID, "q").get_attribute("value") == "sourdough"
          and driver.find_element(By.ID, "bulk-ids-error").is_displayed(),
          "'Delete selected' with nothing ticked comes back as the search, with its error")

    # An address that only takes a form, opened with GET: a page with the page's headers.
    driver.get(server.base + f"/ui/facts/{fact['id']}/erase")
    check(driver.current_url.endswith(f"/ui/facts/{fact['id']}"), "GET of a form's address shows its view")
    status, body = server.request("GET", "/ui/no-such-view",
                                  headers={"Cookie": f"mnemo_session={driver.get_cookie('mnemo_session')['value']}"})
    check(status == 404 and body.startswith(b"<!doctype html>"), f"an unknown /ui address is an HTML 404: {status}")


def check_live_keeps_typing(driver, server):
    """A change from elsewhere updates the view but keeps what is typed and what has focus."""
    driver.get(server.base + "/ui/search?q=tea&mode=text")
    wait_for(driver, lambda: driver.execute_script("return document.body.dataset.following") == "true",
             "the search view follows the change feed")
    box = driver.find_element(By.ID, "q")
    box.clear()
    box.send_keys("sourdough bre")
    refreshed = int(driver.execute_script("return document.body.dataset.refreshed || 0"))
    server.api("POST", "/v1/facts/extract",
               {"user_id": "alice", "extracted": [{"content": "Drinks peppermint tea after dinner", "category": "food"}]})
    wait_for(driver, lambda: int(driver.execute_script("return document.body.dataset.refreshed || 0")) > refreshed,
             "the search view updates after a change")
    check(driver.find_element(By.ID, "q").get_attribute("value") == "sourdough bre",
          "a live update keeps the typed query")
    check(driver.switch_to.active_element.get_attribute("id") == "q", "a live update keeps the focus in the box")
    check("Drinks peppermint tea after dinner" in driver.find_element(By.ID, "main").text,
          "the rest of the view is updated")
    link = driver.find_element(By.CSS_SELECTOR, "tbody td a")
    href = link.get_attribute("href")
    driver.execute_script("arguments[0].focus()", link)
    refreshed = int(driver.execute_script("return document.body.dataset.refreshed || 0"))
    server.api("POST", "/v1/facts/extract",
               {"user_id": "alice", "extracted": [{"content": "Drinks rooibos tea on Sundays", "category": "food"}]})
    wait_for(driver, lambda: int(driver.execute_script("return document.body.dataset.refreshed || 0")) > refreshed,
             "the search view updates again")
    check(driver.switch_to.active_element.get_attribute("href") == href, "a live update keeps a focused link")


AXE = open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js")).read()
LOOKS = [(scheme, width) for scheme in ["light", "dark"] for width in [1280, 390, 360]]


def look(driver, scheme, width, height=None):
    """Emulates a colour scheme and a window width (a phone's below 400 px)."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height or (900 if width > 400 else 844), "deviceScaleFactor": 1,
                            "mobile": width < 400})


def plain_look(driver):
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def audit(driver, view, scheme, width, console=True):
    """The page now shown: no sideways scroll; at 1280 and 390 px, axe-core finds nothing serious
    or critical; no console error (`console` is off for a page sent with an error status, which
    Chromium logs as a failed load)."""
    overflow = driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    check(overflow <= 0, f"{view} at {width} px ({scheme}) scrolls sideways by {overflow} px")
    if width != 360:
        driver.execute_script(AXE)
        result = driver.execute_async_script(
            "var done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(function (r) { done(r.violations); })"
            ".catch(function (e) { done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]); });")
        serious = [f"{v['id']} ({v['impact']}): {v['help']}: " + "; ".join(str(node["target"]) for node in v["nodes"][:3])
                   for v in result if v["impact"] in ("serious", "critical")]
        check(not serious, f"axe on {view} at {width} px ({scheme}): {serious}")
    errors = console_errors(driver)
    check(not console or not errors, f"{view} at {width} px ({scheme}) logs console errors: {errors}")


def check_every_look(driver, server, views):
    """Every view in every look (light and dark; 1280, 390 and 360 px)."""
    console_errors(driver)
    for scheme, width in LOOKS:
        look(driver, scheme, width)
        for view in views:
            driver.get(server.base + view)
            audit(driver, view, scheme, width)
    plain_look(driver)


def wait_for_download(downloads, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        names = [name for name in os.listdir(downloads) if name.endswith(".jsonl")]
        if names:
            with open(os.path.join(downloads, names[0])) as handle:
                return handle.read().splitlines()
        time.sleep(0.1)
    check(False, "the export was not downloaded")
    return []


def check_live(driver, server):
    """Another client writes; the page follows the feed and shows it without a reload."""
    _, tree = server.api("GET", "/api/topics")
    food = next(node for node in tree if node["name"] == "Food")
    driver.get(server.base + f"/ui/topics/{food['id']}")
    wait_for(driver, lambda: driver.execute_script("return document.body.dataset.following") == "true",
             "the page follows the change feed")
    server.api("POST", "/v1/facts/extract",
               {"user_id": "alice", "extracted": [{"content": "Grows basil on the balcony", "category": "food"}]})
    wait_for(driver, lambda: "Grows basil on the balcony" in driver.find_element(By.ID, "main").text,
             "a fact another client added appears without a reload")


def check_read_only(mnemo, db, tokens, work, downloads):
    server = Server(mnemo, db, tokens, work, ui="read-only")
    driver = browser(False, downloads)
    try:
        cookie = sign_in(driver, server)
        facts = by_content(server)
        fact = facts["Runs a marathon every spring"]
        driver.get(server.base + f"/ui/facts/{fact['id']}")
        check(not driver.find_elements(By.CSS_SELECTOR, f"form[action^='/ui/facts/{fact['id']}/']"),
              "read-only shows no action buttons")
        csrf = driver.find_element(By.CSS_SELECTOR, "input[name=csrf]").get_attribute("value")
        status, _ = server.request(
            "POST", f"/ui/facts/{fact['id']}/delete", body=f"csrf={csrf}",
            headers={"Cookie": f"mnemo_session={cookie}", "Content-Type": "application/x-www-form-urlencoded"})
        check(status == 403, f"read-only refuses a forged POST: {status}")
        check(server.fact(fact["id"]) is not None, "the forged POST changed nothing")
    finally:
        driver.quit()
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mnemo")
    parser.add_argument("--screenshot")
    parser.add_argument("--phone-screenshots", help="where to write the search and fact views at 390 px, light and dark")
    arguments = parser.parse_args()
    mnemo = os.path.abspath(arguments.mnemo)
    work = tempfile.mkdtemp(prefix="page-check-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    db = os.path.join(work, "kb.sqlite")
    for user, facts in [("alice", FACTS), ("bob", [{"topic": "Music", "content": "Plays the cello"}])]:
        path = os.path.join(work, f"{user}.jsonl")
        with open(path, "w") as handle:
            handle.writelines(json.dumps(fact) + "\n" for fact in facts)
        subprocess.run([mnemo, "ingest", path, "--db", db, "--namespace", user], check=True,
                       stdout=subprocess.DEVNULL)
    tokens = os.path.join(work, "tokens.txt")
    with open(tokens, "w") as handle:
        handle.write("tok-alice alice\ntok-bob bob\n")
    started = time.time()
    server = Server(mnemo, db, tokens, work)
    try:
        for javascript in [True, False]:
            driver = browser(javascript, downloads)
            try:
                phase("browser started")
                sign_in(driver, server, audited=javascript)
                check_views(driver, server, mnemo, db)
                phase("views")
                check_hostile_and_foreign(driver, server)
                check_accessible(driver, server)
                phase("accessibility")
                if javascript:
                    check_every_look(driver, server, every_view(server))
                    phase("axe-core, widths and console in every look")
                    check_live(driver, server)
                    check_live_keeps_typing(driver, server)
                    phase("live")
                check_refused_forms(driver, server, javascript)
                phase("refused forms")
                check_actions(driver, server, javascript, downloads, mnemo, db)
                if javascript:
                    check_merge(driver, server)
                phase("actions")
                if javascript and arguments.screenshot:
                    driver.get(server.base + "/ui/search?q=sister+rent+tea")
                    driver.set_window_size(1100, 820)
                    driver.save_screenshot(arguments.screenshot)
                if javascript and arguments.phone_screenshots:
                    fact = by_content(server)["Prefers SwiftUI over UIKit"]
                    for name, view, height in [("search", "/ui/search?q=sister+rent+tea", 1300),
                                               ("fact", f"/ui/facts/{fact['id']}", 1500)]:
                        for scheme in ["light", "dark"]:
                            look(driver, scheme, 390, height)
                            driver.get(server.base + view)
                            driver.save_screenshot(
                                os.path.join(arguments.phone_screenshots, f"memory-page-phone-{name}-{scheme}.png"))
                    plain_look(driver)
            finally:
                driver.quit()
    finally:
        server.stop()
    check_read_only(mnemo, db, tokens, work, downloads)
    shutil.rmtree(work, ignore_errors=True)
    print(f"page check: {len(FAILURES)} failures in {time.time() - started:.1f} s")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
