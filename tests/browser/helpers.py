"""What a person does in the browser, as functions the browser tests share."""
from __future__ import annotations

from tests.conftest import PASSWORD


def sign_up(page, live_url: str, username: str, password: str = PASSWORD) -> None:
    page.goto(f"{live_url}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_url}/")


def log_in(page, live_url: str, username: str, password: str = PASSWORD) -> None:
    page.goto(f"{live_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_url}/")


def wait_live(page) -> None:
    """Wait until the game page's websocket is connected."""
    page.wait_for_selector("#conn.up")


def open_game(page, url: str, errors: list, board: str) -> None:
    """Open a game page, collect its script errors in ``errors``, wait for the board
    (``board``: a selector) and the websocket, and mark the document so a reload shows."""
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector(board)
    wait_live(page)
    page.evaluate("window.__sameDocument = true")
