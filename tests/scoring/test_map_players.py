from __future__ import annotations

from scorekeeper.scoring.escopette import EscopetteDeal
from scorekeeper.scoring.sheet_write import map_players
from scorekeeper.scoring.tarot import PassedDeal, TarotDeal, score_deal

IDS = {"Ana": 1, "Ben": 2, "Chloé": 3, "Dan": 4, "Eve": 5}
NAMES = {v: k for k, v in IDS.items()}


def test_a_deal_keeps_its_scores_when_its_players_are_renamed() -> None:
    deal = TarotDeal(
        seated=tuple(IDS),
        taker="Ana",
        contract="garde",
        bouts=2,
        points="45.5",
        partner="Ben",
        poignees=("simple",),
    )
    by_id = map_players(deal, IDS.__getitem__)
    assert by_id.seated == (1, 2, 3, 4, 5) and (by_id.taker, by_id.partner) == (1, 2)
    assert {NAMES[k]: v for k, v in score_deal(by_id).items()} == score_deal(deal)
    assert map_players(by_id, NAMES.__getitem__) == deal


def test_a_taker_alone_and_a_passed_deal_and_an_escopette_deal_map_too() -> None:
    alone = TarotDeal(
        seated=("Ana", "Ben", "Chloé"), taker="Ana", contract="petite", bouts=1, points=51
    )
    assert map_players(alone, IDS.__getitem__).partner is None
    assert map_players(PassedDeal(seated=("Ana", "Ben", "Chloé")), IDS.__getitem__) == PassedDeal(
        seated=(1, 2, 3)
    )
    stakes = EscopetteDeal(stakes={1: "Ana", 20: "Dan"})
    assert map_players(stakes, IDS.__getitem__).stakes == {1: 1, 20: 4}
