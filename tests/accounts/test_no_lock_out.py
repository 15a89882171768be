"""Nobody can lock a chosen address out of sign-in.

A stranger asking for codes for someone else's address neither voids the code pending in
that person's browser nor stops them from using it; the limit per IP counts the client
behind a proxy only when the proxy is named in TRUSTED_PROXIES.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client, override_settings

from accounts.client_ip import client_ip
from accounts.models import LoginCode

pytestmark = pytest.mark.django_db

VICTIM = "ana@example.com"


def ask(client: Client, email: str = VICTIM, **extra: str):
    return client.post("/login/", {"email": email}, HTTP_ACCEPT_LANGUAGE="en", **extra)


def last_code() -> str:
    return re.search(r"\b(\d{6})\b", mail.outbox[-1].body).group(1)


def last_link() -> str:
    link = re.search(r"https?://\S+/login/link/\S+", mail.outbox[-1].body).group(0)
    return link.split("://testserver", 1)[1]


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_a_stranger_asking_for_codes_does_not_void_the_pending_code() -> None:
    victim = Client(REMOTE_ADDR="192.0.2.1")
    assert ask(victim).status_code == 302
    code = last_code()
    for number in range(6):  # up to the address's limit and past it
        ask(Client(REMOTE_ADDR=f"198.51.100.{number + 1}"))
    response = victim.post("/login/code/", {"code": code})
    assert response.status_code == 302
    assert signed_in(victim)


def test_a_stranger_filling_the_limit_with_wrong_codes_leaves_every_mailed_link_working() -> None:
    stranger = Client(REMOTE_ADDR="198.51.100.7")  # one browser, one IP: 30 requests
    links = []
    for _round in range(5):
        assert ask(stranger).status_code == 302
        links.append(last_link())
        code = last_code()
        for _wrong in range(5):
            stranger.post("/login/code/", {"code": f"{(int(code) + 1) % 1_000_000:06d}"})
    victim = Client(REMOTE_ADDR="192.0.2.1")
    refused = ask(victim)
    assert refused.status_code == 429
    assert "A sign-in link mailed to this address in the last hour still works" in refused.text
    for link in links:  # each of the five links the victim received still signs in
        assert Client().get(link).status_code == 200
    phone = Client()
    assert phone.post(links[0]).status_code == 302
    assert signed_in(phone)


def test_a_refusal_mentions_no_link_when_none_was_mailed_in_the_hour() -> None:
    for number in range(5):
        ask(Client(REMOTE_ADDR=f"198.51.100.{number + 1}"))
    for link_row in LoginCode.objects.all():
        link_row.used_at = link_row.created_at
        link_row.save()
    refused = ask(Client(REMOTE_ADDR="192.0.2.1"))
    assert refused.status_code == 429
    assert "still works" not in refused.text


def test_the_link_of_the_victims_mail_still_works_after_a_strangers_requests() -> None:
    assert ask(Client(REMOTE_ADDR="192.0.2.1")).status_code == 302
    link = last_link()
    for number in range(5):
        ask(Client(REMOTE_ADDR=f"198.51.100.{number + 1}"))
    phone = Client()
    assert phone.post(link).status_code == 302
    assert signed_in(phone)


def test_a_browser_holding_a_valid_code_is_sent_to_it_when_the_address_limit_is_full() -> None:
    victim = Client(REMOTE_ADDR="192.0.2.1")
    ask(victim)
    code = last_code()
    for number in range(4):
        ask(Client(REMOTE_ADDR=f"198.51.100.{number + 1}"))
    assert ask(Client(REMOTE_ADDR="198.51.100.9")).status_code == 429  # the limit is full
    again = ask(victim)  # "send me the code again"
    assert again.status_code == 302
    assert again["Location"] == "/login/code/"
    page = victim.get("/login/code/", HTTP_ACCEPT_LANGUAGE="en")
    assert "The code sent earlier still works" in page.text
    assert victim.post("/login/code/", {"code": code}).status_code == 302
    assert signed_in(victim)


def test_the_limit_still_stops_mail_flooding_and_nothing_is_voided_by_a_refusal() -> None:
    for number in range(8):
        ask(Client(REMOTE_ADDR=f"198.51.100.{number + 1}"))
    assert len(mail.outbox) == 5
    assert LoginCode.objects.filter(voided_at=None).count() == 5


def test_signing_in_stops_every_other_pending_code_of_the_address() -> None:
    victim = Client(REMOTE_ADDR="192.0.2.1")
    ask(victim)
    code = last_code()
    ask(Client(REMOTE_ADDR="198.51.100.1"))
    strangers_link = last_link()
    assert victim.post("/login/code/", {"code": code}).status_code == 302
    assert Client().post(strangers_link).status_code == 410


def test_the_same_browser_asking_again_replaces_its_own_code() -> None:
    browser = Client(REMOTE_ADDR="192.0.2.1")
    ask(browser)
    first = last_code()
    ask(browser)
    if last_code() == first:
        pytest.skip("the two random codes are equal")
    assert browser.post("/login/code/", {"code": first}).status_code == 400
    assert LoginCode.objects.filter(code_voided_at=None).count() == 1


# --- The client's address behind a proxy ----------------------------------------------------


def test_x_forwarded_for_is_ignored_without_trusted_proxies() -> None:
    meta = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    assert client_ip(meta, []) == "10.0.0.1"
    assert client_ip(meta, ["10.0.0.2"]) == "10.0.0.1"


def test_behind_a_trusted_proxy_the_client_is_the_right_most_untrusted_hop() -> None:
    trusted = ["10.0.0.0/8", "::1"]
    meta = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.5"}
    assert client_ip(meta, trusted) == "203.0.113.5"
    # What the client wrote itself sits to the left and is not believed.
    spoofed = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 203.0.113.5"}
    assert client_ip(spoofed, trusted) == "203.0.113.5"
    chain = {"REMOTE_ADDR": "::1", "HTTP_X_FORWARDED_FOR": "203.0.113.5, 10.1.2.3"}
    assert client_ip(chain, trusted) == "203.0.113.5"
    garbage = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "not-an-ip"}
    assert client_ip(garbage, trusted) == "10.0.0.1"
    assert client_ip({"REMOTE_ADDR": "10.0.0.1"}, trusted) == "10.0.0.1"


def test_without_trusted_proxies_everyone_behind_the_proxy_shares_one_limit() -> None:
    for number in range(20):
        ask(Client(REMOTE_ADDR="10.0.0.1"), f"p{number}@example.com",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{number + 1}")  # fmt: skip
    refused = ask(Client(REMOTE_ADDR="10.0.0.1"), "late@example.com",
                  HTTP_X_FORWARDED_FOR="203.0.113.200")  # fmt: skip
    assert refused.status_code == 429


@override_settings(TRUSTED_PROXIES=["10.0.0.1"])
def test_behind_a_trusted_proxy_each_client_has_its_own_limit() -> None:
    for number in range(25):
        response = ask(
            Client(REMOTE_ADDR="10.0.0.1"),
            f"p{number}@example.com",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{number + 1}",
        )
        assert response.status_code == 302
    for number in range(20):
        ask(Client(REMOTE_ADDR="10.0.0.1"), f"q{number}@example.com",
            HTTP_X_FORWARDED_FOR="198.51.100.7")  # fmt: skip
    refused = ask(Client(REMOTE_ADDR="10.0.0.1"), "r@example.com",
                  HTTP_X_FORWARDED_FOR="198.51.100.7")  # fmt: skip
    assert refused.status_code == 429
