from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.scoring.cards import DECK_COUNTS, CardCount, PairCount, other_pile
from scorekeeper.scoring.escopette import STAKE_TRUMPS, EscopetteDeal, score_escopette_deal
from scorekeeper.scoring.sheet import parse_sheet, score_sheet, sheet_to_data
from scorekeeper.scoring.tarot import (
    CHELEM_VALUES,
    Contract,
    TarotDeal,
    score_deal,
    totals,
)

NAMES = ("Ana", "Ben", "Chloé", "Dan", "Eve", "Fay")
CONTRACTS = [c.value for c in Contract]

THOROUGH = settings(deadline=None, max_examples=200)


@st.composite
def deal_data(draw: st.DrawFn, players: tuple[str, ...]) -> dict:
    """One tarot deal in its JSON form, for these players."""
    if draw(st.integers(0, 9)) == 0:
        passed: dict = {"passed": True}
        away = draw(st.lists(st.sampled_from(players), unique=True, max_size=len(players) - 3))
        if len(players) - len(away) > 5:
            away = [players[-1]]
        if away:
            passed["sitting_out"] = [p for p in players if p in away]
        return passed
    most_away = len(players) - 3
    least_away = max(0, len(players) - 5)
    away = draw(
        st.lists(st.sampled_from(players), unique=True, min_size=least_away, max_size=most_away)
    )
    seated = [p for p in players if p not in away]
    bouts = draw(st.integers(0, 3))
    halves = draw(st.integers(9 * bouts, 182 - 9 * (3 - bouts)))
    data: dict = {
        "taker": draw(st.sampled_from(seated)),
        "contract": draw(st.sampled_from(CONTRACTS)),
        "bouts": bouts,
        "points": halves // 2 if halves % 2 == 0 else halves / 2,
    }
    if len(seated) == 5:
        data["partner"] = draw(st.sampled_from(seated))
    sides = [s for s in ("attack", "defense") if (s, bouts) not in {("attack", 0), ("defense", 3)}]
    petit = draw(st.none() | st.sampled_from(sides))
    if petit:
        data["petit_au_bout"] = petit
    poignees = draw(st.lists(st.sampled_from(["simple", "double", "triple"]), max_size=len(seated)))
    if poignees:
        data["poignees"] = poignees
    chelem = draw(st.none() | st.sampled_from(list(CHELEM_VALUES)))
    if chelem:
        data["chelem"] = chelem
    if away:
        data["sitting_out"] = [p for p in players if p in away]
    return data


@st.composite
def tarot_sheets(draw: st.DrawFn) -> dict:
    players = tuple(draw(st.permutations(NAMES))[: draw(st.integers(3, 6))])
    deals = draw(st.lists(deal_data(players), max_size=8))
    return {"game": "tarot", "players": list(players), "deals": deals}


@st.composite
def tarot_deals(draw: st.DrawFn) -> TarotDeal[str]:
    sheet = parse_sheet(draw(tarot_sheets()))
    played = [d for d in sheet.deals if isinstance(d, TarotDeal)]
    players = sheet.players
    if not played:
        return TarotDeal(players[:3], players[0], "petite", 2, 41)
    return draw(st.sampled_from(played))


@st.composite
def pairable_piles(draw: st.DrawFn) -> CardCount:
    honours = {
        "bouts": draw(st.integers(0, DECK_COUNTS["bout"])),
        "kings": draw(st.integers(0, DECK_COUNTS["king"])),
        "queens": draw(st.integers(0, DECK_COUNTS["queen"])),
        "knights": draw(st.integers(0, DECK_COUNTS["knight"])),
        "jacks": draw(st.integers(0, DECK_COUNTS["jack"])),
    }
    lows = draw(st.integers(sum(honours.values()), DECK_COUNTS["low"]))
    return CardCount(**honours, lows=lows)


@st.composite
def any_piles(draw: st.DrawFn) -> CardCount:
    return CardCount(
        bouts=draw(st.integers(0, 3)),
        kings=draw(st.integers(0, 4)),
        queens=draw(st.integers(0, 4)),
        knights=draw(st.integers(0, 4)),
        jacks=draw(st.integers(0, 4)),
        lows=draw(st.integers(0, 59)),
    )


@THOROUGH
@given(tarot_deals())
def test_every_deal_sums_to_zero(deal):
    scores = score_deal(deal)
    assert sum(scores.values()) == 0
    assert list(scores) == list(deal.seated)


@THOROUGH
@given(pairable_piles())
def test_pairs_and_card_by_card_always_agree(pile):
    honours = pile.cards() - pile.lows
    spare = pile.lows - honours  # each honour laid on a low card, the rest paired
    pairs = PairCount(
        fives=pile.bouts + pile.kings,
        fours=pile.queens,
        threes=pile.knights,
        twos=pile.jacks,
        ones=spare // 2,
        leftover="low" if spare % 2 else None,
    )
    assert pairs.points() == pile.points()
    assert pairs.cards() == pile.cards()


@THOROUGH
@given(any_piles())
def test_the_two_piles_make_91(pile):
    rest = CardCount(
        bouts=3 - pile.bouts,
        kings=4 - pile.kings,
        queens=4 - pile.queens,
        knights=4 - pile.knights,
        jacks=4 - pile.jacks,
        lows=59 - pile.lows,
    )
    assert pile.points() + rest.points() == 91
    assert other_pile(pile.points()) == rest.points()


@THOROUGH
@given(st.integers(0, 182))
def test_other_pile_gives_back_the_first_pile(halves):
    points = Decimal(halves) / 2
    assert other_pile(other_pile(points)) == points


@THOROUGH
@given(tarot_sheets())
def test_totals_are_the_sum_of_the_deals(data):
    result = score_sheet(parse_sheet(data))
    for player in data["players"]:
        assert result["totals"][player] == sum(deal[player] for deal in result["deals"])
    assert totals(data["players"], result["deals"]) == result["totals"]
    assert sum(result["totals"].values()) == 0


@THOROUGH
@given(tarot_sheets())
def test_sheet_to_data_and_parse_sheet_round_trip(data):
    sheet = parse_sheet(data)
    assert sheet_to_data(sheet) == data
    assert parse_sheet(sheet_to_data(sheet)) == sheet


@THOROUGH
@given(st.lists(st.sampled_from(NAMES[:4]), min_size=9, max_size=9))
def test_every_escopette_deal_hands_out_60(winners):
    deal = EscopetteDeal(dict(zip(STAKE_TRUMPS, winners, strict=True)))
    assert sum(score_escopette_deal(NAMES[:4], deal).values()) == 60
