"""The page of `rikken serve` in a real browser: headless Chromium (Debian's chromium and
chromium-driver, which .ci/run installs) enters a hand, waits for the bid table and checks
the bars and the recommendation against the Python API; a screenshot is kept in reports/."""

from __future__ import annotations

import pathlib
import shutil
import socket
import threading
import time
import urllib.parse

import pytest

from analyser import api

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCREENSHOT = ROOT / "reports" / "web-page.png"
RIK = "♠AHV1098 ♥104 ♦A10 ♣752"
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

pytestmark = pytest.mark.skipif(
    BROWSER is None or DRIVER is None,
    reason="no headless Chromium here: install Debian's chromium and chromium-driver "
    "(.ci/run does it in CI)",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    import uvicorn

    from analyser.web.app import create_app

    port = _free_port()
    config = uvicorn.Config(create_app(jobs=1), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    end = time.monotonic() + 30
    while not srv.started:
        assert time.monotonic() < end, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1150,1500"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def _wait(browser, test, timeout: float = 180):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout, poll_frequency=0.1).until(lambda d: test(d))


def _rows(browser) -> dict[str, float]:
    from selenium.webdriver.common.by import By

    rows = browser.find_elements(By.CSS_SELECTOR, "table.bids tr[data-bid]")
    return {r.get_attribute("data-contract"): float(r.get_attribute("data-p")) for r in rows}


def test_a_player_enters_a_hand_and_gets_the_bid_table(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(server + "/")
    hand = browser.find_element(By.ID, "hand")
    hand.send_keys(RIK, Keys.TAB)  # the grid shows the typed hand
    _wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid button.on")) == 13)
    browser.find_element(By.ID, "deals").send_keys("20")
    browser.find_element(By.ID, "seed").send_keys("1")
    browser.find_element(By.ID, "go").click()
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "table.bids tr[data-bid]"))
    # the misère section follows (a second job): wait for it, then check the page
    _wait(browser, lambda d: d.find_element(By.ID, "misere").is_displayed())

    expected = api.analyse(RIK, seat=1, deals=20, seed=1).to_dict()
    rows = _rows(browser)
    assert rows == {b["contract"]: b["p_make"] for b in expected["bids"]}
    misere_row = browser.find_elements(By.CSS_SELECTOR, 'tr[data-bid="misere"]')
    assert len(misere_row) == 1
    # which figure each headline is, and the double-dummy one beside it, as the JSON says
    by_contract = {b["contract"]: b for b in expected["bids"]}
    for row in browser.find_elements(By.CSS_SELECTOR, "table.bids tr[data-bid]"):
        b = by_contract[row.get_attribute("data-contract")]
        assert row.get_attribute("data-estimate") == b["estimate"]
        assert float(row.get_attribute("data-p-dd")) == b["p_make_dd"]
    # each bar is as long as its P(make), its interval drawn beside it
    for row in browser.find_elements(By.CSS_SELECTOR, "table.bids tr[data-bid]"):
        p = float(row.get_attribute("data-p"))
        bar = row.find_element(By.CSS_SELECTOR, ".bar")
        fill = row.find_element(By.CSS_SELECTOR, ".bar .fill")
        assert abs(fill.size["width"] - p * bar.size["width"]) <= 1.5
        assert row.find_elements(By.CSS_SELECTOR, ".bar .ci")
    rec = browser.find_element(By.ID, "recommendation")
    assert rec.get_attribute("data-bid") == expected["recommended_opening"] == "rik"
    assert "recommended" in browser.find_element(
        By.CSS_SELECTOR, 'tr[data-contract="rik"]'
    ).get_attribute("class")
    assert browser.find_elements(By.CSS_SELECTOR, "svg.hist rect")  # the trick distribution
    # the command line under the table, and the URL that holds the state
    command = browser.find_element(By.ID, "command").text
    assert command == f"rikken analyse '{RIK}' --deals 20 --seed 1"
    query = urllib.parse.parse_qs(urllib.parse.urlparse(browser.current_url).query)
    assert query["hand"] == [RIK] and query["seed"] == ["1"] and query["deals"] == ["20"]
    assert "SJ" in browser.find_element(By.ID, "misere").text or browser.find_elements(
        By.CSS_SELECTOR, "#misere tr[data-card]"
    )
    SCREENSHOT.parent.mkdir(exist_ok=True)
    browser.save_screenshot(str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10_000


def test_opening_a_link_runs_that_analysis_in_english(server, browser):
    from selenium.webdriver.common.by import By

    query = urllib.parse.urlencode({"hand": RIK, "seat": "2", "deals": "20", "seed": "4"})
    browser.get(f"{server}/?{query}&lang=en")
    _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "table.bids tr[data-bid]"))
    expected = api.analyse(RIK, seat=2, deals=20, seed=4, lang="en").to_dict()
    assert _rows(browser) == {b["contract"]: b["p_make"] for b in expected["bids"]}
    assert "Bid" in browser.find_element(By.CSS_SELECTOR, "table.bids th").text


def test_a_refused_hand_is_shown_inline(server, browser):
    from selenium.webdriver.common.by import By

    browser.get(server + "/?" + urllib.parse.urlencode({"hand": "♠AHV"}))
    error = _wait(
        browser, lambda d: d.find_element(By.ID, "error").text and d.find_element(By.ID, "error")
    )
    assert "13" in error.text and "Traceback" not in error.text


def test_the_klaverjas_advisor_is_on_the_same_page(server, browser):
    from selenium.webdriver.common.by import By

    query = urllib.parse.urlencode(
        {"game": "klaverjas", "hand": "♠AB9 ♥A10 ♦H ♣A7", "deals": "2", "seed": "2"}
    )
    browser.get(f"{server}/?{query}")
    rec = _wait(
        browser,
        lambda d: (
            d.find_elements(By.ID, "recommendation") and d.find_element(By.ID, "recommendation")
        ),
    )
    assert rec.get_attribute("data-bid") == "S"


def test_the_stop_button_keeps_the_steps_finished(server, browser):
    from selenium.webdriver.common.by import By

    query = urllib.parse.urlencode({"hand": RIK, "deals": "5000", "seed": "6"})
    browser.get(f"{server}/?{query}")
    # once a step of the sample has finished the status shows the deals done
    _wait(browser, lambda d: "/ ~" in d.find_element(By.ID, "status").text)
    browser.find_element(By.ID, "cancel").click()
    stopped = _wait(
        browser,
        lambda d: (
            d.find_element(By.ID, "stopped").is_displayed() and d.find_element(By.ID, "stopped")
        ),
    )
    assert stopped.text
    rows = _rows(browser)
    assert rows and all(0 <= p <= 1 for p in rows.values())
    assert browser.find_element(By.ID, "go").is_enabled()
