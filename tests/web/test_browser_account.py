"""A person with an account, in the real Chromium against a real server: sign up, play,
sign in on a second browser and take the running game up there (my games), find it on
their profile page (/@/NAME) with its filters, see the name link there from a guest's
lobby, and sign out; change the password, which signs the other browser out and says
what each action ends; an unknown player's page says so. Passkeys with Chromium's virtual
authenticator (a platform one that keeps resident keys and verifies its user): register
one, sign out, sign in with it, no name or password asked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.clients.serverproc import stop
from tests.server.test_process import start_server

from .browser import Browser, Page, act, browser, expect, my_turn, new_page, page_errors, screenshot

__all__ = ["browser"]  # a fixture
PASSWORD = "correct horse battery"
CHEAP = ("--password-time-cost", "1", "--password-memory-kib", "64")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A server at http://localhost:PORT, its public URL (passkeys need a name, not an
    address, as their relying party)."""
    process, address = start_server(tmp_path / "games.sqlite3", "--public-url",
                                    lambda port: f"http://localhost:{port}", *CHEAP)
    yield {"process": process, "url": address.replace("127.0.0.1", "localhost")}
    stop(process)


def sign_up(page: Page, name: str) -> None:
    """Register from the lobby, back to it once registered; then to the account's page."""
    page.click("#account")
    page.click('a[href="#/register"]')
    # the sign-in form is replaced by the register form: fill the new one only
    page.wait_for_selector('.account-form[aria-label="Register"]')
    fill_account_form(page, name, landing="**/#/")
    expect(page.locator("#account")).to_have_text(f"Signed in as {name}")
    expect(page.locator("form.create input[name=name]")).to_have_value(name)
    page.click("#account")
    page.wait_for_url("**/#/account")


def sign_in(page: Page, name: str) -> None:
    page.click("#account")
    fill_account_form(page, name)
    expect(page.locator("#account")).to_have_text(f"Signed in as {name}")


def fill_account_form(page: Page, name: str, landing: str = "**/#/account") -> None:
    """Sign in (to the account's page) or register (back to the page before: `landing`)."""
    page.fill(".account-form input[name=name]", name)
    page.fill(".account-form input[name=password]", PASSWORD)
    page.click(".account-form button[type=submit]")
    page.wait_for_url(landing)


def create_with_a_bot(page: Page) -> str:
    """Create a table from the lobby's form, whose name field is the account's."""
    page.goto(page.url.split("#")[0] + "#/")
    page.wait_for_selector("form.create")
    page.select_option("form.create select[name=kingdom]", "First Game")
    page.select_option("form.create select[name=seat-1]", "big_money")
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/#/game/*")
    return page.url.rsplit("/", 1)[1]


def test_sign_up_play_resume_on_another_browser_and_find_it_on_the_profile(
        browser: Browser, server: dict[str, Any]) -> None:
    url = server["url"]
    first = new_page(browser, url)
    expect(first.locator("#account")).to_have_text("Sign in")
    sign_up(first, "Ada")
    first.goto(f"{url}/#/")
    name = first.locator("form.create input[name=name]")
    expect(name).to_have_value("Ada")
    assert name.get_attribute("readonly") is not None
    game = create_with_a_bot(first)
    for _ in range(3):
        assert my_turn(first)
        act(first)

    # a second browser signs in to the same account and takes the game up from my games
    second = new_page(browser, url, locale="pl-PL")
    second.click("#account")
    second.fill(".account-form input[name=name]", "Ada")
    second.fill(".account-form input[name=password]", "not the password")
    second.click(".account-form button[type=submit]")
    expect(second.locator(".account-form .refused")).to_have_text(
        "⚠ Nie ma konta o tej nazwie i haśle.")  # a typed refusal in the page's language
    second.fill(".account-form input[name=password]", PASSWORD)
    second.click(".account-form button[type=submit]")
    expect(second.locator("#account")).to_have_text("Zalogowano jako Ada")
    row = second.locator(f'.my-games [data-game="{game}"]')
    expect(row).to_contain_text("trwające")
    row.locator("button.resume-here").click()
    second.wait_for_url(f"**/#/game/{game}")
    assert my_turn(second)
    expect(first.locator("#status")).to_contain_text("another window")  # its seat moved

    # the profile lists the running game; a guest's lobby links the name to it
    guest = new_page(browser, url)
    guest.fill("form.create input[name=name]", "ADA")  # a guest may not take it
    guest.click("form.create button[type=submit]")
    expect(guest.locator("form.create .refused")).to_have_text(
        "⚠ This name (or one that looks like it) is a registered player's: choose another, "
        "or sign in as them.")
    guest.locator(f'.game-row[data-game="{game}"] a.player').click()
    guest.wait_for_url("**/@/Ada")
    running = guest.locator(f'.profile-games [data-game="{game}"]')
    expect(running).to_contain_text("running")
    assert running.locator("a.button").get_attribute("href") == f"/#/watch/{game}"
    guest.select_option(".filters select[name=state]", "ended")
    expect(guest.locator(".profile-games")).to_contain_text("No games.")
    guest.select_option(".filters select[name=state]", "")
    guest.select_option(".filters select[name=players]", "3")
    expect(guest.locator(".profile-games")).to_contain_text("No games.")
    guest.select_option(".filters select[name=players]", "2")
    expect(running).to_be_visible()

    # the game ends; the profile links its replay
    second.click('[data-key="resign"]')
    second.click('[data-key="resign-sure"]')
    second.wait_for_selector("#end")
    second.goto(f"{url}/#/account")
    second.click('a[href="/@/Ada"]')
    second.wait_for_url("**/@/Ada")
    second.select_option(".filters select[name=state]", "ended")
    ended = second.locator(f'.profile-games [data-game="{game}"]')
    assert ended.locator("a.button").get_attribute("href") == f"/#/replay/{game}"
    screenshot(second, "profile")
    ended.locator("a.button").click()
    second.wait_for_selector(".replay-controls")  # (drawn once loaded: wait before leaving)

    # signing out everywhere signs the first browser out too
    second.goto(f"{url}/#/account")
    second.click('button:text-is("Wyloguj się wszędzie")')
    expect(second.locator("#account")).to_have_text("Zaloguj się")
    first.goto(f"{url}/#/account")
    first.reload()
    expect(first.locator("#account")).to_have_text("Sign in")

    for page in (first, second, guest):
        assert page_errors(page) == []


def test_changing_the_password_signs_the_other_browser_out(
        browser: Browser, server: dict[str, Any]) -> None:
    url = server["url"]
    first = new_page(browser, url)
    sign_up(first, "Cy")
    second = new_page(browser, url, locale="pl-PL")
    second.click("#account")
    fill_account_form(second, "Cy")
    form = second.locator(".change-password")
    expect(form).to_contain_text("tokeny dostępu działają dalej")  # what it ends
    expect(second.locator("#revokes-sign_out_everywhere")).to_contain_text(
        "unieważnia wszystkie tokeny dostępu")
    assert second.locator('button:text-is("Wyloguj się wszędzie")').get_attribute(
        "aria-describedby") == "revokes-sign_out_everywhere"
    form.locator("input[name=old_password]").fill("not the password")
    form.locator("input[name=new_password]").fill("staple battery horse")
    form.locator("button[type=submit]").click()
    # its own words, not the sign-in's "no account has this name and password"
    expect(form.locator(".refused")).to_contain_text("To nie jest twoje obecne hasło")
    form.locator("input[name=old_password]").fill(PASSWORD)
    form.locator("input[name=new_password]").fill("staple battery horse")
    form.locator("button[type=submit]").click()
    expect(form.locator(".changed")).to_have_text(
        "Hasło zmienione; zakończone sesje na innych urządzeniach: 1.")
    expect(second.locator("#account")).to_have_text("Zalogowano jako Cy")  # this one stays
    first.reload()
    expect(first.locator("#account")).to_have_text("Sign in")
    for page in (first, second):
        assert page_errors(page) == []


def test_an_unknown_players_page_says_so_and_delete_asks_first(
        browser: Browser, server: dict[str, Any]) -> None:
    url = server["url"]
    page = new_page(browser, f"{url}/@/Nobody")
    expect(page.locator(".refused")).to_have_text("No such player.")
    page.goto(f"{url}/#/")
    sign_up(page, "Bea")
    page.click(".delete-account button")
    page.click('button:text-is("Cancel")')  # changed its mind: nothing happens
    page.click(".delete-account button")
    page.fill(".delete-account input[name=password]", "wrong password")
    page.click(".delete-account button[type=submit]")
    expect(page.locator(".delete-account .refused")).to_contain_text("this name and password")
    page.fill(".delete-account input[name=password]", PASSWORD)
    page.click(".delete-account button[type=submit]")
    expect(page.locator("#app")).to_contain_text("Your account is deleted.")
    expect(page.locator("#account")).to_have_text("Sign in")
    page.goto(f"{url}/@/Bea")
    expect(page.locator(".refused")).to_have_text("No such player.")
    assert page_errors(page) == []


def virtual_authenticator(page: Page) -> Any:
    """Chromium's virtual authenticator on the page (DevTools' WebAuthn domain)."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    added = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True}})
    return devtools, added["authenticatorId"]


def test_a_passkey_signs_in_without_a_name_or_password(
        browser: Browser, server: dict[str, Any]) -> None:
    page = new_page(browser, server["url"])
    devtools, authenticator = virtual_authenticator(page)
    sign_up(page, "Cyd")
    expect(page.locator(".passkeys")).to_be_visible()
    page.fill(".add-passkey input[name=passkey-name]", "this laptop")
    page.click(".add-passkey button[type=submit]")
    key = page.locator(".passkey")
    expect(key).to_contain_text("this laptop · never used")
    held = devtools.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert [c["isResidentCredential"] for c in held["credentials"]] == [True]

    page.click('button:text-is("Sign out")')
    expect(page.locator("#account")).to_have_text("Sign in")
    page.click("#account")
    page.click(".passkey-sign-in")
    expect(page.locator("#account")).to_have_text("Signed in as Cyd")
    page.wait_for_url("**/#/account")
    expect(key).to_contain_text("last used")
    screenshot(page, "account")
    used = devtools.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert used["credentials"][0]["signCount"] >= 2

    # removed, the authenticator's key signs no one in
    key.locator("button").click()
    expect(key).to_have_count(0)
    page.click('button:text-is("Sign out")')
    page.click("#account")
    page.click(".passkey-sign-in")
    expect(page.locator(".passkey-box .refused")).to_have_text(
        "⚠ The passkey's answer did not check out.")
    expect(page.locator("#account")).to_have_text("Sign in")
    assert page_errors(page) == []
