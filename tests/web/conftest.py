"""Fixtures for the web tests: services with the web page on a free port, and headless Chromium.

Chromium is Debian's (``apt-get install -y chromium``; ``scripts/setup.sh --with-test-tools``
installs it), driven by Playwright; a missing browser fails the browser tests with the
install command instead of skipping them (the browser is part of what is tested).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.config import config_from_dict
from firmware_bridge.service.app import Service
from tests.fixtures.mosquitto import Mosquitto, mosquitto, mosquitto_session  # noqa: F401 - fixtures

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "web"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
INSTALL_HINT = "chromium is not installed: apt-get install -y chromium (scripts/setup.sh --with-test-tools)"


def merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        out[key] = merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def web_config(tmp_path: Path, board: str = "w1", broker: Mosquitto | None = None,
               extra: dict[str, Any] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "board": {"id": board, "name": f"Table {board}"},
        "game": {"name": "aac", "players": 3, "seed": 11},
        "journal": {"path": str(tmp_path / f"journal-{board}.sqlite")},
        "web": {"enabled": True, "port": 0},
        "mqtt": {"reconnect_min_s": 0.1, "reconnect_max_s": 0.5, "keepalive": 5},
    }
    if broker is not None:
        data["mqtt"].update(host=broker.host, port=broker.port)
    else:
        data["mqtt"]["enabled"] = False
    return merge(data, extra or {})


ServiceFactory = Callable[..., Service]


def url_of(service: Service) -> str:
    """The page's address of a service started with the web page."""
    assert service.web is not None, "the web page is not enabled"
    return service.web.url


@pytest.fixture
def make_service(tmp_path: Path) -> Iterator[ServiceFactory]:
    """Start in-process services (core in a thread) with the web page; stopped at the end of the test."""
    started: list[Service] = []

    def make(config: dict[str, Any] | None = None, **kwargs: Any) -> Service:
        cfg = config_from_dict(config if config is not None else web_config(tmp_path))
        kwargs.setdefault("interpreter_factory", None)
        kwargs.setdefault("table", None)
        service = Service(cfg, **kwargs)
        service.start()
        service.run_in_thread()
        started.append(service)
        return service

    yield make
    for service in started:
        service.stop()
        service.join()


def chromium_path() -> str:
    found = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if found is None:
        pytest.fail(INSTALL_HINT)
    return found


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def reconnecting(message: Any) -> bool:
    """The live stream failing while the board restarts is expected: the page reconnects by itself."""
    return "/api/events" in (message.location or {}).get("url", "")


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """Open a page; console errors and page errors are collected and must stay empty."""
    pages: list[Any] = []

    def open_(url: str, width: int = 1280, height: int = 900, wait: str = "#status h2",
              before: Callable[[Any], None] | None = None) -> Any:
        """``before``: called with the page before it loads (to route its requests)."""
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        if before is not None:
            before(page)
        page.set_default_timeout(15_000)
        page.problems = []
        page.on("console", lambda m: page.problems.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "warning") and not reconnecting(m) else None)
        page.on("pageerror", lambda e: page.problems.append(f"page error: {e}"))
        # (a request still in flight when the test reloads or leaves the page is aborted by the browser)
        page.on("requestfailed", lambda r: page.problems.append(f"request failed: {r.url} {r.failure}")
                if "/api/events" not in r.url and r.failure != "net::ERR_ABORTED" else None)
        page.goto(url)
        if wait:
            page.wait_for_selector(wait)
        pages.append(page)
        return page

    yield open_
    problems = [p for page in pages for p in page.problems]
    for page in pages:
        page.context.close()
    assert not problems, "the page reported problems:\n" + "\n".join(problems)


@pytest.fixture
def artifacts() -> Path:
    """Where screenshots are kept (git-ignored; CI keeps them as artifacts)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
