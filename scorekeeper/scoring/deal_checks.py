"""The checks of rules.md §5 on each field of a tarot deal (each a coded ScoringError naming
the field), and the names a field may take."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from decimal import Decimal

from scorekeeper.scoring.cards import CARD_VALUES, DECK_TOTAL
from scorekeeper.scoring.errors import ScoringError, distinct_players, show_points, to_points
from scorekeeper.scoring.rules import POIGNEE_TABLES, HouseRules

BOUT = CARD_VALUES["bout"]
SEATED_MIN, SEATED_MAX = 3, 5
#: The poignées a deal may list (their values depend on the rules).
POIGNEE_NAMES = tuple(POIGNEE_TABLES["20-30-40"])
#: The chelem term C, seen from the attack.
CHELEM_VALUES: dict[str, int] = {
    "announced": 400,
    "unannounced": 200,
    "announced_failed": -200,
    "defense": -200,
}
#: The sides that can take the petit au bout, and the sign a of its bonus (FFT rule).
PETIT_AU_BOUT_SIGN: dict[str, int] = {"attack": 1, "defense": -1}


def one_of(options: Iterable[str]) -> str:
    return ", ".join(options)


def check_bouts(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError.coded(
            "bouts",
            "bouts_not_whole",
            "%(value)s is not a whole number of bouts",
            value=repr(value),
        )
    if value not in range(4):
        raise ScoringError.coded(
            "bouts", "bouts_range", "%(value)s is not between 0 and 3", value=value
        )
    return value


def check_seated(value: object) -> tuple[Hashable, ...]:
    seated = distinct_players(value, "seated")
    if not SEATED_MIN <= len(seated) <= SEATED_MAX:
        raise seated_count_error(len(seated))
    return seated


def seated_count_error(count: object) -> ScoringError:
    return ScoringError.coded(
        "seated", "seated_count", "%(count)s players seated: a deal needs 3 to 5", count=count
    )


def not_seated(field: str, name: object) -> ScoringError:
    return ScoringError.coded(field, "not_seated", "%(name)s is not seated", name=name)


def card_points(value: object) -> Decimal:
    points = to_points(value)
    if points > DECK_TOTAL:
        raise ScoringError.coded(
            "points", "points_over", "%(points)s is more than 91", points=show_points(points)
        )
    if points < 0:
        raise ScoringError.coded(
            "points", "points_under", "%(points)s is less than 0", points=show_points(points)
        )
    return points


def check_partner(partner: object, seated: tuple[Hashable, ...]) -> None:
    if len(seated) == 5:
        if partner is None:
            raise ScoringError.coded(
                "partner",
                "partner_missing",
                "with 5 players seated, name the called partner (or the taker, if alone)",
            )
        if partner not in seated:
            raise not_seated("partner", partner)
    elif partner is not None:
        raise ScoringError.coded(
            "partner",
            "partner_not_five",
            "no partner is called with %(count)s players seated, only with 5",
            count=len(seated),
        )


def check_petit_au_bout(petit: object, bouts: int) -> None:
    if petit is None:
        return
    if not isinstance(petit, str) or petit not in PETIT_AU_BOUT_SIGN:
        raise ScoringError.coded(
            "petit_au_bout",
            "not_side",
            "%(value)s is not a side (%(options)s)",
            value=repr(petit),
            options=one_of(PETIT_AU_BOUT_SIGN),
        )
    if petit == "attack" and bouts == 0:
        raise ScoringError.coded(
            "petit_au_bout",
            "petit_attack_no_bout",
            "the attack took the petit au bout, so it holds at least 1 bout",
        )
    if petit == "defense" and bouts == 3:
        raise ScoringError.coded(
            "petit_au_bout",
            "petit_defence_three_bouts",
            "the defence took the petit au bout, so the attack cannot hold 3 bouts",
        )


def checked_poignees(poignees: object, seated_count: int) -> tuple[str, ...]:
    if not isinstance(poignees, tuple | list):
        raise ScoringError.coded(
            "poignees",
            "not_poignee_list",
            "%(value)s is not a list of poignées",
            value=repr(poignees),
        )
    for poignee in poignees:
        if not isinstance(poignee, str) or poignee not in POIGNEE_NAMES:
            raise ScoringError.coded(
                "poignees",
                "not_poignee",
                "%(value)s is not a poignée (%(options)s)",
                value=repr(poignee),
                options=one_of(POIGNEE_NAMES),
            )
    if len(poignees) > seated_count:
        raise ScoringError.coded(
            "poignees",
            "too_many_poignees",
            "%(count)s poignées with %(seated)s players seated: at most one each",
            count=len(poignees),
            seated=seated_count,
        )
    return tuple(poignees)


def check_chelem(chelem: object) -> None:
    if chelem is not None and (not isinstance(chelem, str) or chelem not in CHELEM_VALUES):
        raise ScoringError.coded(
            "chelem",
            "not_chelem",
            "%(value)s is not a chelem (%(options)s)",
            value=repr(chelem),
            options=one_of(CHELEM_VALUES),
        )


def checked_miseres(
    miseres: object, seated: tuple[Hashable, ...], rules: HouseRules
) -> tuple[Hashable, ...]:
    announcers = distinct_players(miseres, "miseres")
    if not announcers:
        return ()
    if rules.misere == 0:
        raise ScoringError.coded(
            "miseres",
            "misere_off",
            "these rules score no misère (the rules' misere is 0, not 10 or 20)",
        )
    for player in announcers:
        if player not in seated:
            raise not_seated("miseres", player)
    return announcers


def check_bouts_fit(bouts: int, points: Decimal) -> None:
    attack_needs = BOUT * bouts
    if points < attack_needs:
        raise ScoringError.coded(
            "points",
            "attack_bouts",
            "%(points)s points cannot hold %(bouts)s bouts (bouts are worth %(needs)s)",
            points=show_points(points),
            bouts=bouts,
            needs=show_points(attack_needs),
        )
    defence = DECK_TOTAL - points
    defence_needs = BOUT * (3 - bouts)
    if defence < defence_needs:
        raise ScoringError.coded(
            "points",
            "defence_bouts",
            "with %(points)s points to the attack, the defence's %(defence)s cannot hold "
            "the other %(bouts)s bouts (worth %(needs)s)",
            points=show_points(points),
            defence=show_points(defence),
            bouts=3 - bouts,
            needs=show_points(defence_needs),
        )
