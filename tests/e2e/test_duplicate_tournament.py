"""A duplicate tournament in the browser, from its creation to its printed results: 24
players at 6 tables of 4, over 6 rounds of 1 deal and 6 cases (issue 39's "Done when").

The organiser creates it (duplicate, match points), pastes the 24 players, seats round 1,
prints the case labels; each round, the 6 table phones (browser contexts without an
account, kept from round to round) open the links their cards' QR codes decode to, and
enter their case, prefilled with the card's; in round 3 table 6 has not played when the
organiser closes the round: asked first, he closes it anyway and adds the table's deal
himself. No player holds a case twice, and the printed results rank the 24 players as
the scoring package does.
"""

from __future__ import annotations

import base64
import re
from decimal import Decimal

import pytest
import zxingcpp
from playwright.sync_api import Browser, Locator, Page, expect

from scorekeeper.models import Deal, Tournament, TournamentTable
from scorekeeper.scoring.duplicate import HeldScore, duplicate_ranking
from scorekeeper.scoring.tarot import TarotDeal, score_deal
from tests.e2e.conftest import PHONE
from tests.e2e.deal_taps import tap_bid
from tests.e2e.test_setting_up_a_tournament import organiser_page
from tests.factories import make_club, make_user

expect.set_options(timeout=15_000)
pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = [f"Joueur {chr(ord('A') + i)}" for i in range(24)]
TABLES = ROUNDS = 6
SHORT_ROUND, SHORT_TABLE = 3, 6


def _decoded_link(page: Page, svg: Locator) -> str:
    """The link zxing-cpp reads in a screenshot of a table card's QR code (its pixels come
    back from the page as one base64 string: a list of numbers takes a second to cross)."""
    png = base64.b64encode(svg.screenshot()).decode()
    width, height, gray = page.evaluate(
        """async (png) => {
          const image = new Image();
          image.src = 'data:image/png;base64,' + png;
          await image.decode();
          const canvas = document.createElement('canvas');
          canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
          const context = canvas.getContext('2d');
          context.drawImage(image, 0, 0);
          const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
          let gray = '';
          for (let i = 0; i < rgba.length; i += 4) {
            gray += String.fromCharCode(((rgba[i] + rgba[i + 1] + rgba[i + 2]) / 3) | 0);
          }
          return [canvas.width, canvas.height, btoa(gray)];
        }""",
        png,
    )
    image = memoryview(base64.b64decode(gray)).cast("B", (height, width))
    (barcode,) = zxingcpp.read_barcodes(image)
    return barcode.text


def _phone(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True)
    context.set_default_timeout(15_000)
    return context.new_page()


class Played:
    """What the tables made of the cases: each player's cases, each seat's score."""

    def __init__(self) -> None:
        self.cases: dict[str, set[int]] = {}
        self.scores: list[HeldScore] = []

    def fill(self, form: Locator, table: TournamentTable, case: int) -> None:
        """Fill the deal of ``case`` at ``table``: each case is played 6 times, not all alike."""
        seated = [seat.player.name for seat in table.game.seats.order_by("position")]
        taker, points = seated[(case + table.number) % 4], 30 + (7 * case + 5 * table.number) % 31
        tap_bid(form, taker, "Garde")
        bouts = form.get_by_role("group", name="Bouts in the attack's tricks", exact=True)
        bouts.get_by_label("2", exact=True).tap()
        form.get_by_label("Points", exact=True).fill(str(points))
        deal = TarotDeal(
            seated=tuple(seated), taker=taker, contract="garde", bouts=2, points=Decimal(points)
        )
        scores = score_deal(deal)
        for seat, name in enumerate(seated, start=1):
            assert case not in self.cases.setdefault(name, set())  # no one holds a case twice
            self.cases[name].add(case)
            self.scores.append(HeldScore(case, seat, table.number, name, scores[name]))


def test_a_duplicate_tournament_of_24_players_from_creation_to_printed_results(
    live_server, browser: Browser
) -> None:
    owner = make_user("ana@example.com")
    club, _players = make_club(owner, players=[])
    organiser = organiser_page(browser, live_server, owner, PHONE)
    organiser.goto(f"{live_server.url}/clubs/{club.pk}/tournaments/")
    organiser.get_by_label("Rounds").fill(str(ROUNDS))
    organiser.get_by_label("Deals per round").fill("1")
    organiser.get_by_label("Duplicate: each deal is dealt once", exact=False).check()
    organiser.get_by_label("Match points", exact=False).check()
    organiser.get_by_role("button", name="Create the tournament").tap()
    expect(organiser).to_have_url(re.compile(r"/players/$"))
    organiser.get_by_label("Guests, one a line").fill("\n".join(PLAYERS))
    organiser.get_by_role("button", name="Register").tap()
    expect(organiser.locator(".lead")).to_contain_text("24 players present")
    tournament = Tournament.objects.get()
    assert (tournament.kind, tournament.method, tournament.rounds) == (
        "duplicate",
        "match_points",
        ROUNDS,
    )

    # The case labels, printed before round 1: one per case, each going to one table in
    # each of the 6 rounds.
    cases_url = f"{live_server.url}/tournaments/{tournament.pk}/cases/"
    organiser.goto(cases_url)
    labels = organiser.locator(".case-label")
    expect(labels).to_have_count(6)
    expect(labels.first.locator(".case-places li")).to_have_count(ROUNDS)
    expect(labels.first).to_contain_text("seat 1: N")

    phones = [_phone(browser) for _table in range(TABLES)]
    played = Played()
    for number in range(1, ROUNDS + 1):
        organiser.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
        start = "Seat the first round" if number == 1 else "Start the next round"
        organiser.get_by_role("button", name=start).tap()
        expect(organiser).to_have_url(re.compile(rf"/rounds/{number}/cards/$"))
        for table, phone in enumerate(phones, start=1):
            card = organiser.locator(f"#table-{table}")
            case = int(re.search(r"Case (\d+)", card.locator(".cases").inner_text()).group(1))
            link = _decoded_link(organiser, card.locator(".table-card-qr svg"))
            if number == SHORT_ROUND and table == SHORT_TABLE:
                short_case, short_link = case, link
                continue  # this table is late: the organiser closes the round before it saves
            phone.goto(link)
            form = phone.locator(".deal-entry form.deal-form")
            field = form.get_by_label("Case", exact=True)
            expect(field).to_have_value(str(case))  # the next case of its card, prefilled
            token = link.rstrip("/").rsplit("/", 1)[1]
            played.fill(form, TournamentTable.objects.get(token=token), case)
            if number == 1 and table == 1:  # a case typed by number, one not of this table
                field.fill(str(case % 6 + 1))
                form.get_by_role("button", name="Save the deal").tap()
                expect(form.locator(".case-field .errorlist")).to_contain_text(
                    "is not played at this table"
                )
                form = phone.locator(".deal-entry form.deal-form")
                form.get_by_label("Case", exact=True).fill(str(case))
            form.get_by_role("button", name="Save the deal").tap()
            expect(phone.locator(".deal-entry .messages")).to_contain_text("Deal 1 saved.")

        organiser.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
        progress = organiser.locator(f"#round-{number}")
        progress.get_by_role("button", name=f"Close round {number}").tap()
        if number == SHORT_ROUND:
            expect(organiser.locator(".round-short")).to_contain_text(
                f"Table {SHORT_TABLE}: 0 of 1 deals, 1 missing"
            )
            organiser.get_by_role("button", name=f"Close round {number} anyway").tap()
            expect(organiser.locator(".messages")).to_contain_text(f"Round {number} is closed.")
            # The late table's phone is told the round is closed.
            phones[SHORT_TABLE - 1].goto(short_link)
            expect(phones[SHORT_TABLE - 1].locator(".lead")).to_contain_text(
                f"Round {number} is closed: this table's link scores no more."
            )
            row = organiser.locator(f"#round-{number} li[data-table='{SHORT_TABLE}']")
            row.get_by_role("link", name="Add a missing deal").tap()
            add = organiser.locator("form.deal-form")
            expect(add.get_by_label("Case", exact=True)).to_have_value(str(short_case))
            late = TournamentTable.objects.get(round__number=number, number=SHORT_TABLE)
            played.fill(add, late, short_case)
            add.get_by_role("button", name="Add the deal").tap()
            expect(organiser.locator(".messages")).to_contain_text("Deal 1 added.")
        else:
            expect(organiser.locator(".messages")).to_contain_text(f"Round {number} is closed.")

    # Every player held every case once; every deal carries its case.
    assert len(played.cases) == 24
    assert all(cases == set(range(1, 7)) for cases in played.cases.values())
    deals = Deal.objects.filter(game__tournament_table__round__tournament=tournament)
    assert deals.count() == 36 and not deals.filter(case_number=None).exists()
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.FINISHED

    # The printed results: the 24 players ranked by match points, as the scoring package
    # ranks what the tables played.
    organiser.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    organiser.get_by_role("link", name="Results, printable").tap()
    rows = organiser.locator("table.ranking tbody tr")
    expect(rows).to_have_count(24)
    shown = rows.evaluate_all(
        """rows => rows.map(row => [row.querySelector('.rank').innerText,
          row.querySelector('th').innerText, row.querySelector('.total').innerText])"""
    )
    lines, _compared = duplicate_ranking(played.scores, method="match_points")
    assert [
        (int(rank), name.strip(), Decimal(figure.strip().rstrip("%").replace(",", ".")))
        for rank, name, figure in shown
    ] == [(line.rank, line.player, line.figure) for line in lines]
    for page in [organiser, *phones]:
        page.context.close()
