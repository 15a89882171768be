"""The counter page: full and htmx requests, the round trip with a deal form, no 500 ever."""

from __future__ import annotations

import re
from decimal import Decimal
from urllib.parse import parse_qs, urlencode, urlsplit

from django.http import QueryDict
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.screens.counter.views import (
    clear_url,
    counter_data,
    deal_parameters,
    safe_return_url,
    use_result_url,
)

URL = "/counter/"
PAIRS = "fives=5&fours=2&threes=2&twos=1&ones=6&leftover=low&attack_bouts=2"
FROM_DEAL = "return=/some/local/path/&deal-taker=3&deal-contract=garde&deal-poignee=simple"


def summary(html: str) -> str:
    match = re.search(r'<div id="counter-summary".*?</div>', html, re.S)
    assert match, "no summary"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0))).strip()


def errors_next_to(html: str, field: str) -> str:
    match = re.search(rf'<div class="field-errors" id="id_{field}-errors"[^>]*>(.*?)</div>', html)
    assert match, f"no error slot for {field}"
    return re.sub(r"<[^>]+>", " ", match.group(1)).strip()


def use_link(html: str) -> str | None:
    match = re.search(r'<a class="button button-primary use-result" href="([^"]+)"', html)
    return match.group(1).replace("&amp;", "&") if match else None


# The page.


def test_the_counter_is_public_and_reads_that_the_attack_has_0_points(client: Client) -> None:
    response = client.get(URL, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "The attack has 0 points." in summary(response.text)
    assert "<html" in response.text
    assert "scorekeeper/counter.css" in response.text
    assert "HX-Request" in response["Vary"]


def test_the_page_is_french_by_default(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 200
    assert 'lang="fr"' in response.text


def test_only_get_and_head(client: Client) -> None:
    assert client.head(URL).status_code == 200
    assert client.post(URL, {"fives": "1"}).status_code == 405


def test_a_full_request_counts_and_shows_the_result(client: Client) -> None:
    response = client.get(f"{URL}?{PAIRS}&contract=garde", HTTP_ACCEPT_LANGUAGE="en")
    text = summary(response.text)
    assert "The attack has 47.5 points." in text
    assert "Target 41:" in text and "made by 7" in text
    assert "Made by 7 points" in response.text
    assert "+192" in response.text and "−64" in response.text
    # The form keeps what was typed.
    assert 'name="fives" value="5"' in response.text
    assert re.search(
        r'value="2"[^>]*name="attack_bouts"|name="attack_bouts" value="2"[^>]*checked',
        response.text,
    )


def test_an_htmx_request_gets_the_result_and_the_updates_beside_it(client: Client) -> None:
    response = client.get(f"{URL}?{PAIRS}", HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "<html" not in response.text
    assert response.text.lstrip().startswith('<section id="counter-result"')
    assert "HX-Request" in response["Vary"]
    assert re.search(r'<div id="counter-summary"[^>]* hx-swap-oob="true"', response.text)
    assert 'id="id_fives-errors" hx-swap-oob="true"' in response.text
    assert "The attack has 47.5 points." in summary(response.text)
    # The form's inputs are not sent again (they would lose what is being typed).
    assert 'name="fives"' not in response.text


def test_htmx_restoring_history_gets_the_full_page(client: Client) -> None:
    response = client.get(
        f"{URL}?{PAIRS}", HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    )
    assert "<html" in response.text
    assert "hx-swap-oob" not in response.text


def test_errors_show_next_to_their_fields_in_full_and_htmx_requests(client: Client) -> None:
    query = f"{URL}?mode=cards&kings=5&lows=3"
    for extra in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.get(query, HTTP_ACCEPT_LANGUAGE="en", **extra)
        assert response.status_code == 200
        assert errors_next_to(response.text, "kings") == "Too many: the deck holds only 4."
        assert errors_next_to(response.text, "lows") == ""
        assert "Check the count" in summary(response.text)
        assert "Kings: Too many" in summary(response.text)


def test_more_honours_than_low_cards_offers_to_count_card_by_card(client: Client) -> None:
    response = client.get(f"{URL}?leftover=honours", HTTP_ACCEPT_LANGUAGE="en")
    assert "the pair method cannot pair them all" in errors_next_to(response.text, "leftover")
    assert re.search(r'<label class="button button-small suggest" for="id_mode_1">', response.text)


def test_decimal_points_follow_the_language(client: Client) -> None:
    english = client.get(f"{URL}?{PAIRS}", HTTP_ACCEPT_LANGUAGE="en")
    french = client.get(f"{URL}?{PAIRS}", HTTP_ACCEPT_LANGUAGE="fr")
    assert "47.5" in summary(english.text)
    assert "47,5" in summary(french.text)
    assert "47.5" not in summary(french.text)


def test_russian_renders(client: Client) -> None:
    response = client.get(f"{URL}?{PAIRS}&contract=petite", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    assert 'lang="ru"' in response.text


# The round trip with a deal form.


def test_the_deal_forms_fields_and_return_address_are_kept_in_hidden_inputs(
    client: Client,
) -> None:
    response = client.get(f"{URL}?{FROM_DEAL}&deal-sitting_out=4&deal-sitting_out=7")
    for name, value in [
        ("return", "/some/local/path/"),
        ("deal-taker", "3"),
        ("deal-contract", "garde"),
        ("deal-poignee", "simple"),
        ("deal-sitting_out", "4"),
        ("deal-sitting_out", "7"),
    ]:
        assert f'<input type="hidden" name="{name}" value="{value}">' in response.text


def test_the_contract_and_bouts_come_from_the_deal_form(client: Client) -> None:
    response = client.get(f"{URL}?{FROM_DEAL}&deal-bouts=2", HTTP_ACCEPT_LANGUAGE="en")
    assert re.search(r'name="contract" value="garde"[^>]*checked', response.text)
    assert re.search(r'name="attack_bouts" value="2"[^>]*checked', response.text)
    # Once the counter's own choice is there, it wins.
    mine = client.get(f"{URL}?{FROM_DEAL}&deal-bouts=2&contract=petite&attack_bouts=1")
    assert re.search(r'name="contract" value="petite"[^>]*checked', mine.text)
    assert re.search(r'name="attack_bouts" value="1"[^>]*checked', mine.text)
    # Nonsense from the deal form is not taken.
    bad = client.get(f"{URL}?{FROM_DEAL.replace('garde', 'chelem')}&deal-bouts=9")
    assert bad.status_code == 200
    assert not re.search(
        r'name="contract" value="\w+"[^>]*checked', bad.text.replace('name="contract" value=""', "")
    )


def test_use_this_result_goes_back_with_the_count(client: Client) -> None:
    for extra in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.get(f"{URL}?{FROM_DEAL}&{PAIRS}&side=attack", **extra)
        link = use_link(response.text)
        assert link is not None
        parts = urlsplit(link)
        assert parts.path == "/some/local/path/"
        assert parse_qs(parts.query) == {
            "deal-taker": ["3"],
            "deal-contract": ["garde"],
            "deal-poignee": ["simple"],
            "deal-points": ["47.5"],
            "deal-points_for": ["attack"],
            "deal-bouts": ["2"],
        }


def test_counting_the_defence_sends_back_the_attacks_points(client: Client) -> None:
    pairs = PAIRS.replace("attack_bouts=2", "attack_bouts=1")
    response = client.get(f"{URL}?{FROM_DEAL}&deal-points_for=defense&{pairs}&side=defense")
    link = use_link(response.text)
    assert link is not None
    query = parse_qs(urlsplit(link).query)
    assert query["deal-points"] == ["43.5"]
    assert query["deal-points_for"] == ["attack"]
    assert query["deal-bouts"] == ["1"]


def test_no_use_this_result_without_a_return_address_or_a_valid_count(client: Client) -> None:
    assert use_link(client.get(f"{URL}?{PAIRS}").text) is None
    # The bouts are not known yet.
    assert use_link(client.get(f"{URL}?{FROM_DEAL}&fives=5").text) is None
    # The count is wrong.
    assert use_link(client.get(f"{URL}?{FROM_DEAL}&fives=9&attack_bouts=1").text) is None


def test_a_return_address_on_another_site_is_ignored(client: Client) -> None:
    for bad in [
        "https://evil.example/",
        "//evil.example/",
        "javascript:alert(1)",
        "/\\evil.example",
    ]:
        query = urlencode({"return": bad, "deal-taker": "3"})
        response = client.get(f"{URL}?{query}&{PAIRS}")
        assert response.status_code == 200
        assert 'name="return"' not in response.text
        assert "javascript:" not in response.text
        assert use_link(response.text) is None
        # The deal form's fields are still carried.
        assert '<input type="hidden" name="deal-taker" value="3">' in response.text


def test_safe_return_url() -> None:
    assert safe_return_url("/evenings/3/games/1/deals/?x=1") == "/evenings/3/games/1/deals/?x=1"
    assert safe_return_url(" /a/ ") == "/a/"
    for bad in [
        None,
        "",
        "https://evil.example/",
        "//evil.example",
        "\t//evil.example",
        "/\\evil.example",
        "relative/path",
        "javascript:alert(1)",
        "http:///evil",
    ]:
        assert safe_return_url(bad) is None, bad


def test_use_result_url_replaces_the_points_bouts_and_side_and_keeps_the_rest() -> None:
    params = [
        ("deal-taker", "3"),
        ("deal-points", "12"),
        ("deal-sitting_out", "4"),
        ("deal-sitting_out", "7"),
        ("deal-points_for", "defense"),
    ]
    url = use_result_url("/deal/?tab=2&deal-points=1#form", params, Decimal("45.5"), 2)
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path, parts.fragment) == ("", "", "/deal/", "form")
    assert parse_qs(parts.query) == {
        "tab": ["2"],
        "deal-taker": ["3"],
        "deal-points": ["45.5"],
        "deal-sitting_out": ["4", "7"],
        "deal-points_for": ["attack"],
        "deal-bouts": ["2"],
    }
    whole = use_result_url("/deal/", [], Decimal("41.0"), 0)
    assert whole == "/deal/?deal-points=41&deal-points_for=attack&deal-bouts=0"


def test_counter_data_and_clear_url() -> None:
    query = QueryDict("deal-contract=garde_sans&deal-bouts=3&deal-points_for=defense&fives=3")
    data = counter_data(query)
    assert (data["contract"], data["attack_bouts"]) == ("garde_sans", "3")
    # Whose pile is counted is chosen here: the page starts at the attack's 0 points.
    assert "side" not in data
    assert deal_parameters(query) == [
        ("deal-contract", "garde_sans"),
        ("deal-bouts", "3"),
        ("deal-points_for", "defense"),
    ]
    url = clear_url(data, "/back/", deal_parameters(query))
    assert "fives" not in url
    assert parse_qs(urlsplit(url).query)["return"] == ["/back/"]
    assert clear_url(QueryDict(), None, []) == "/counter/"


# Never a 500.

KEYS = st.sampled_from(
    [
        "side",
        "mode",
        "fives",
        "fours",
        "threes",
        "twos",
        "ones",
        "leftover",
        "bouts",
        "kings",
        "queens",
        "knights",
        "jacks",
        "lows",
        "card",
        "attack_bouts",
        "contract",
        "return",
        "deal-bouts",
        "deal-contract",
        "deal-points_for",
        "deal-points",
        "deal-taker",
    ]
) | st.text(min_size=0, max_size=12)
TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=30)
VALUES = (
    st.sampled_from(
        [
            "",
            "0",
            "1",
            "2",
            "3",
            "7",
            "-1",
            "59",
            "60",
            "999",
            "1000",
            "1e3",
            "nan",
            "4.5",
            "pairs",
            "cards",
            "tap",
            "attack",
            "defense",
            "garde",
            "honours",
            "bout",
            "low",
            "t1",
            "t21",
            "ex",
            "hk",
            "t22",
            "/ok/",
            "//evil.example",
            "https://x.example/",
        ]
    )
    | st.integers(min_value=-(10**30), max_value=10**30).map(str)
    | TEXT
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    query=st.lists(st.tuples(KEYS, VALUES), max_size=25),
    htmx=st.booleans(),
    language=st.sampled_from(["fr", "en", "ru"]),
)
def test_any_query_string_gets_a_page(
    query: list[tuple[str, str]], htmx: bool, language: str
) -> None:
    client = Client()
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.get(f"{URL}?{urlencode(query)}", HTTP_ACCEPT_LANGUAGE=language, **extra)
    assert response.status_code == 200
