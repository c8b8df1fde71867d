"""A real Chromium (Debian ``chromium`` + ``chromium-driver``, driven by Selenium) uses the console.

It logs in with the one-time URL, sees two asks arrive live (Server-Sent Events, no reload),
approves one for the session — the real child process waiting on it runs — denies the other with
a reason the child reads, and revokes the grant the first answer recorded. Screenshots at a
phone and a desktop width go to ``$CLEARANCE_TEST_ARTIFACTS`` (default ``build/test-artifacts``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from servicekit import Running, ask_child, child_answer, review_log

webdriver = pytest.importorskip("selenium.webdriver")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
ARTIFACTS = Path(
    os.environ.get("CLEARANCE_TEST_ARTIFACTS")
    or Path(__file__).resolve().parents[2] / "build" / "test-artifacts"
)

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="Chromium and chromium-driver are not installed (.ci/run installs them)",
)


@pytest.fixture
def browser():  # type: ignore[no-untyped-def]
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM or ""
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--no-first-run", "--window-size=1280,900"):  # fmt: skip
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER or ""), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def wait_for(driver, css: str, count: int = 1, timeout: float = 30):  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(
        lambda d: (found := d.find_elements(By.CSS_SELECTOR, css)) and len(found) >= count and found
    )


def test_a_browser_approves_denies_and_revokes(browser, running: Running, world) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.get(running.login_url)
    wait_for(browser, "#live")
    WebDriverWait(browser, 30).until(lambda d: "Live" in d.find_element(By.ID, "live").text)
    # The asks arrive while the page is open: pushed, not polled.
    approve = ask_child(running, running.directory, "mkdir -p build/out")
    deny = ask_child(running, running.directory, "npm publish --tag next")
    cards = wait_for(browser, "article.ask", 2)
    assert len(cards) == 2
    text = browser.find_element(By.ID, "asks").text
    assert "mkdir -p build/out" in text and "npm publish --tag next" in text
    assert "child-session" in text  # provenance: the requester's session
    here = f"{os.uname().nodename} (this machine)"
    assert here in text  # and the machine it runs on
    browser.save_screenshot(str(ARTIFACTS / "console-desktop.png"))
    browser.set_window_size(390, 1400)
    browser.save_screenshot(str(ARTIFACTS / "console-phone.png"))
    browser.set_window_size(1280, 900)

    def card(command: str):  # type: ignore[no-untyped-def]
        for element in browser.find_elements(By.CSS_SELECTOR, "article.ask"):
            if command in element.find_element(By.CSS_SELECTOR, "pre.command").text:
                return element
        raise AssertionError(f"no card for {command}")

    card("mkdir").find_element(By.CSS_SELECTOR, "button[value=session]").click()
    approved = child_answer(approve)
    assert approved["permissionDecision"] == "allow", approved
    WebDriverWait(browser, 30).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.ask")) == 1
    )
    denying = card("npm publish")
    denying.find_element(By.NAME, "reason").send_keys("releases go through CI")
    denying.find_element(By.CSS_SELECTOR, "button[value=deny]").click()
    denied = child_answer(deny)
    assert denied["permissionDecision"] == "deny"
    assert "releases go through CI" in denied["permissionDecisionReason"]
    WebDriverWait(browser, 30).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "article.ask"))

    browser.get(running.base + "/grants")
    grants = browser.find_element(By.ID, "grants").text
    assert "mkdir" in grants, grants
    browser.save_screenshot(str(ARTIFACTS / "console-grants.png"))
    browser.find_element(By.CSS_SELECTOR, "#grants button").click()
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    # The page reloads: the element read may be the old page's, detached meanwhile (stale, or
    # Chromium's "Node with given id does not belong to the document"); read again.
    stale = [StaleElementReferenceException, WebDriverException]
    WebDriverWait(browser, 30, ignored_exceptions=stale).until(
        lambda d: "No grant." in d.find_element(By.ID, "grants").text
    )
    events = [r["event"] for r in review_log(world.state)]
    assert "console.grant_revoked" in events
    browser.get(running.base + "/decisions")
    table = browser.find_element(By.TAG_NAME, "table").text
    assert "console.answered" in table and here in table
    browser.save_screenshot(str(ARTIFACTS / "console-decisions.png"))
