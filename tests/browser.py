"""A real headless browser for the tests that open the HTML files (Debian's chromium and its
driver, which `.ci/run` installs when they are missing; Selenium drives them).

`open_page(path)` loads a file with no network and returns the driver; the tests read the DOM,
click, and save screenshots under `tests/screenshots/` (not kept in git).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

SHOTS = Path(__file__).parent / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture
def browser():
    """A headless chromium, closed after the test; the test fails (not skips) if there is none."""
    assert CHROMIUM and DRIVER, "chromium and chromedriver are needed: .ci/run installs them"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1280,900", "--proxy-server=127.0.0.1:9"):  # no network
        opts.add_argument(a)
    opts.binary_location = CHROMIUM
    d = webdriver.Chrome(service=Service(DRIVER), options=opts)
    try:
        yield d
    finally:
        d.quit()


def open_page(driver, path: Path):
    driver.get(Path(path).resolve().as_uri())
    return driver


def screenshot(driver, name: str) -> Path:
    """Save the window as tests/screenshots/NAME.png and return the path."""
    SHOTS.mkdir(exist_ok=True)
    p = SHOTS / f"{name}.png"
    driver.save_screenshot(str(p))
    return p
