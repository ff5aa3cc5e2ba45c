#!/usr/bin/env python3
"""The demo apps in headless Chromium, used as a person would: add items with Enter, open a
sub-list three levels deep, reorder, delete with cascade, undo and redo with the keyboard,
search projects, add a bug with a screenshot, watch a second window update live, and see a
change made by the command line in another process appear. Saves a screenshot of each app.

    python3 Tests/Scripts/browser_test.py                 # screenshots to docs/screenshots/

Needs Debian's `chromium` and `chromium-driver` and Python's `selenium`; the driver is
`/usr/bin/chromedriver`, so nothing is fetched online. Exits 0 when every step passed.
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, str(Path(__file__).resolve().parent))
from demo_server import ROOT, DemoServer, find_binary  # noqa: E402

WAIT = 20  # seconds: a loaded CI machine runs a debug build


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1100,760", "--lang=en-US"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Steps:
    def __init__(self, driver, server, screenshots):
        self.driver, self.server, self.screenshots = driver, server, screenshots
        self.windows = {}

    # Reading the page -------------------------------------------------------------------------
    def wait(self, condition, what):
        try:
            return WebDriverWait(self.driver, WAIT, ignored_exceptions=[StaleElementReferenceException]).until(lambda _: condition())
        except Exception as error:
            raise AssertionError("timed out waiting until %s (%s); page %s shows: %s" % (what, type(error).__name__, self.driver.current_url, self.row_titles()))

    def row_titles(self):
        """The rows' titles; read again when the page changes under the reading."""
        for _ in range(50):
            try:
                return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, ".rows > li.row [data-field=title], .rows > li.row [data-field=name]")]
            except StaleElementReferenceException:
                time.sleep(0.05)
        return []

    def wait_for_rows(self, expected, what):
        self.wait(lambda: self.row_titles() == expected, "%s: the rows read %s" % (what, expected))

    def live(self):
        """Waits until the page's event stream has delivered its first reset."""
        self.wait(lambda: self.driver.find_element(By.CSS_SELECTOR, "[data-live]").get_attribute("data-live-state") == "open", "the page is live")

    def row(self, title):
        for row in self.driver.find_elements(By.CSS_SELECTOR, ".rows > li.row"):
            if row.find_element(By.CSS_SELECTOR, "[data-field=title], [data-field=name]").text == title:
                return row
        raise AssertionError("no row titled %r among %s" % (title, self.row_titles()))

    def open(self, title):
        self.row(title).find_element(By.CSS_SELECTOR, "a.open").click()
        self.wait(lambda: self.driver.find_element(By.ID, "title").text == title, "the page of %r opens" % title)
        self.live()

    def add(self, field, text):
        box = self.driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(text + Keys.ENTER)

    def keys(self, *keys, shift=False):
        self.driver.find_element(By.ID, "title").click()
        chain = ActionChains(self.driver).key_down(Keys.CONTROL)
        if shift:
            chain = chain.key_down(Keys.SHIFT)
        chain = chain.send_keys(*keys)
        if shift:
            chain = chain.key_up(Keys.SHIFT)
        chain.key_up(Keys.CONTROL).perform()

    def store_count(self, titles):
        marks = ",".join("?" * len(titles))
        return self.server.query("SELECT COUNT(*) FROM ZITEM WHERE ZTITLE IN (%s)" % marks, titles)[0][0]

    def step(self, text):
        print("· " + text, flush=True)

    # The nested lists ----------------------------------------------------------------------------
    def lists(self):
        driver = self.driver
        driver.get(self.server.url + "/lists")
        self.live()
        self.windows["first"] = driver.current_window_handle
        self.wait_for_rows(["Groceries", "Work", "Books"], "the sample lists")

        self.step("add an item with Enter")
        self.add("new-title", "Trip")
        self.wait_for_rows(["Groceries", "Work", "Books", "Trip"], "Trip is added")
        assert driver.find_element(By.ID, "new-title").get_attribute("value") == "", "the add field is emptied"

        self.step("open a sub-list three levels deep")
        self.open("Trip")
        self.add("new-title", "Day 1")
        self.wait_for_rows(["Day 1"], "Day 1 is added")
        self.open("Day 1")
        self.add("new-title", "Morning")
        self.wait_for_rows(["Morning"], "Morning is added")
        self.open("Morning")
        for title in ("Coffee", "Walk", "Museum"):
            self.add("new-title", title)
            self.wait(lambda: title in self.row_titles(), "%s is added" % title)
        self.wait_for_rows(["Coffee", "Walk", "Museum"], "three items three levels down")
        crumbs = driver.find_element(By.ID, "breadcrumb").text
        assert crumbs == "Lists › Trip › Day 1 › Morning", "breadcrumb reads %r" % crumbs

        self.step("reorder: Museum up, focus stays on its button")
        self.row("Museum").find_element(By.CSS_SELECTOR, "form.move-up button").click()
        self.wait_for_rows(["Coffee", "Museum", "Walk"], "Museum moved up")
        self.wait(lambda: self.focused_row() == "Museum", "focus stays in Museum's row")
        assert "Move" in driver.find_element(By.ID, "undo").text, "the undo button names the move"
        driver.save_screenshot(str(self.screenshots / "lists.png"))

        self.step("delete with cascade")
        driver.find_element(By.CSS_SELECTOR, "#breadcrumb a").click()
        self.wait(lambda: driver.find_element(By.ID, "title").text == "Lists", "back on the root list")
        self.live()
        nested = ["Day 1", "Morning", "Coffee", "Walk", "Museum"]
        assert self.store_count(nested) == 5
        self.row("Trip").find_element(By.CSS_SELECTOR, "button.delete").click()
        self.wait_for_rows(["Groceries", "Work", "Books"], "Trip is deleted")
        self.wait(lambda: self.store_count(nested) == 0, "Trip's sub-items are deleted with it in the store")
        undo = driver.find_element(By.ID, "undo").text
        assert undo.startswith("Undo") and "Delete" in undo, "the undo button names the delete: %r" % undo

        self.step("undo with Ctrl+Z, redo with Ctrl+Shift+Z")
        self.keys("z")
        self.wait_for_rows(["Groceries", "Work", "Books", "Trip"], "the delete is undone")
        self.wait(lambda: self.store_count(nested) == 5, "Trip's sub-items are back in the store")
        self.keys("z", shift=True)
        self.wait_for_rows(["Groceries", "Work", "Books"], "the delete is redone")
        self.keys("z")
        self.wait_for_rows(["Groceries", "Work", "Books", "Trip"], "the delete is undone again")

        self.step("a second window updates live")
        driver.switch_to.new_window("window")
        driver.get(self.server.url + "/lists")
        self.live()
        self.windows["second"] = driver.current_window_handle
        driver.execute_script("window.notReloaded = true;")
        driver.switch_to.window(self.windows["first"])
        self.add("new-title", "Shared")
        driver.switch_to.window(self.windows["second"])
        self.wait_for_rows(["Groceries", "Work", "Books", "Trip", "Shared"], "the second window shows Shared")
        assert driver.execute_script("return window.notReloaded === true;"), "the second window was updated without a reload"

        self.step("a change by the command line in another process appears")
        self.server.cli("lists", "add", "From the command line")
        self.wait(lambda: "From the command line" in self.row_titles(), "the CLI's item appears in the second window")
        driver.switch_to.window(self.windows["first"])
        self.wait(lambda: "From the command line" in self.row_titles(), "the CLI's item appears in the first window")

        self.step("the server restarts: the page says so, then shows what changed meanwhile")
        self.check_console()
        self.server.stop()
        self.wait(lambda: "Reconnecting" in driver.find_element(By.ID, "status").text, "the page says it is reconnecting")
        self.server.cli("lists", "add", "While the server was down")
        self.server.start(port=self.server.port)
        self.wait(lambda: "While the server was down" in self.row_titles(), "the page shows the change made while the server was down")
        self.live()
        self.add("new-title", "After the restart")
        self.wait(lambda: "After the restart" in self.row_titles(), "the page works after the restart")
        # While the server was down the streams failed; after, the new server refused them
        # (it does not know the old session), and each page reloaded.
        self.check_console(expected=("/events?", "ERR_CONNECTION_REFUSED"))

    def focused_row(self):
        return self.driver.execute_script(
            "const row = document.activeElement && document.activeElement.closest('.row');"
            "return row ? row.querySelector('[data-field=title]').textContent : null;")

    # The bug tracker ---------------------------------------------------------------------------------
    def bugs(self):
        driver = self.driver
        driver.find_element(By.LINK_TEXT, "Bugs").click()
        self.wait(lambda: driver.find_element(By.ID, "title").text == "Projects", "the projects page opens")
        self.live()

        self.step("add projects")
        for name, url in (("OpenCoreData", "https://github.com/opencoredata/opencoredata"),
                          ("Hummingbird", "https://github.com/hummingbird-project/hummingbird"),
                          ("Example", "https://example.org")):
            driver.find_element(By.ID, "new-name").send_keys(name)
            self.add("new-url", url)
            self.wait(lambda: name in self.row_titles(), "%s is added" % name)
        sections = [e.get_attribute("data-section") for e in driver.find_elements(By.CSS_SELECTOR, "#sections > [data-section]")]
        assert sections == ["example.org", "github.com"], "sections by host: %s" % sections

        self.step("search projects")
        self.add("q", "humm")
        self.wait(lambda: "q=humm" in driver.current_url, "the search runs")
        self.wait_for_rows(["Hummingbird"], "only Hummingbird matches")
        driver.find_element(By.ID, "clear-search").click()
        self.wait(lambda: len(self.row_titles()) == 3, "all projects are shown again")
        self.live()

        self.step("add a bug with a screenshot")
        self.open("OpenCoreData")
        picture = Path(tempfile.mkdtemp(prefix="ocd-browser-")) / "screenshot.png"
        self.driver.save_screenshot(str(picture))
        driver.find_element(By.ID, "new-title").send_keys("Rows jump when sorting")
        driver.find_element(By.ID, "new-details").send_keys("Seen on the projects page.")
        driver.find_element(By.ID, "new-screenshot").send_keys(str(picture))
        driver.find_element(By.CSS_SELECTOR, "#add-bug button[type=submit]").click()
        self.wait_for_rows(["Rows jump when sorting"], "the bug is added")
        image = self.wait(lambda: driver.find_element(By.CSS_SELECTOR, "li.bug img"), "the bug shows its screenshot")
        self.wait(lambda: driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0;", image), "the screenshot loads")
        self.add("new-title", "Search ignores accents")
        self.wait_for_rows(["Search ignores accents", "Rows jump when sorting"], "bugs newest first")
        self.wait(lambda: driver.find_element(By.CSS_SELECTOR, "#project-info .count").text == "2 bugs", "the project's bug count follows its rows")
        driver.execute_script("window.scrollTo(0, 0);")
        driver.save_screenshot(str(self.screenshots / "projects.png"))

    def check_console(self, expected=()):
        """Fails on any error in any window's console since the last check (a refused script,
        a CSP violation, a failed request) but those naming one of `expected`."""
        current = self.driver.current_window_handle
        errors = []
        for handle in self.driver.window_handles:
            self.driver.switch_to.window(handle)
            errors += [entry["message"] for entry in self.driver.get_log("browser")
                       if entry["level"] == "SEVERE" and not any(text in entry["message"] for text in expected)]
        self.driver.switch_to.window(current)
        assert not errors, "the browser's console shows errors: %s" % errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="the opencoredata-demo binary (default: the newest build)")
    parser.add_argument("--screenshots", default=str(ROOT / "docs" / "screenshots"), help="where to save lists.png and projects.png")
    arguments = parser.parse_args()
    screenshots = Path(arguments.screenshots)
    screenshots.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    with DemoServer(find_binary(arguments.binary)) as server:
        driver = browser()
        try:
            steps = Steps(driver, server, screenshots)
            steps.lists()
            steps.bugs()
            steps.check_console()
        finally:
            driver.quit()
    print("browser test passed in %.1f s; screenshots in %s" % (time.monotonic() - started, screenshots))
    return 0


if __name__ == "__main__":
    sys.exit(main())
