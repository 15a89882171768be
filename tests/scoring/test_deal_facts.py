"""DealFacts built from a deal scored by the rules: what the club figures read of it."""

from __future__ import annotations

from scorekeeper.scoring.deal_facts import DealFacts
from scorekeeper.scoring.tarot import TarotDeal, deal_outcome
from tests.scoring.hand_season import passed

FIVE = ("A", "B", "C", "D", "E")


def test_a_deal_scored_by_the_rules_gives_its_facts() -> None:
    deal = TarotDeal(
        seated=FIVE,
        taker="A",
        contract="garde",
        bouts=2,
        points=45,
        partner="C",
        petit_au_bout="attack",
    )
    outcome = deal_outcome(deal)
    facts = DealFacts.scored(deal, outcome, deal_id=7, evening_id=2)
    assert (facts.deal_id, facts.evening_id, facts.ordinal) == (7, 2, 7)
    assert facts.attack == ("A", "C")
    assert facts.defenders == ("B", "D", "E")
    assert facts.scores == outcome.scores
    assert (facts.made, facts.contract, facts.bouts) == (outcome.made, "garde", 2)
    assert (facts.petit_au_bout, facts.chelem) == ("attack", "")


def test_a_taker_who_called_himself_plays_alone_in_the_facts() -> None:
    deal = TarotDeal(seated=FIVE, taker="A", contract="petite", bouts=1, points=60, partner="A")
    facts = DealFacts.scored(deal, deal_outcome(deal), deal_id=1, evening_id=1)
    assert facts.partner is None
    assert facts.attack == ("A",)
    assert sum(facts.scores.values()) == 0


def test_a_passed_deal_scores_nothing_and_is_marked_passed() -> None:
    facts = passed(3, 1, FIVE[:4])
    assert facts.passed and facts.made is None
    assert not facts.played and facts.attack == ()
    assert facts.scores == {"A": 0, "B": 0, "C": 0, "D": 0}
