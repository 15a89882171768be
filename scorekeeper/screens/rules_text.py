"""The house rules in words: each rule's name, choices and meaning, and the short line
("House rules: classic multipliers, misère 10") the deal form and the sheet show."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorekeeper.scoring.rules import FFT_RULES, RULE_KEYS, HouseRules

#: Each rule's name, as a page heading or a form label.
RULE_NAMES: dict[str, Promise] = {
    "multipliers": _("Contract multipliers"),
    "poignees": _("Poignées"),
    "poignee_multiplied": _("Poignée and contract"),
    "petit_au_bout": _("Petit au bout"),
    "misere": _("Misère"),
}

#: What each rule decides, in one sentence.
RULE_EXPLAINED: dict[str, Promise] = {
    "multipliers": _(
        "How many times its contract counts a deal's value: the FFT goes 1, 2, 4 and 6 from "
        "the petite to the garde contre, the classic count 1, 2, 3 and 4."
    ),
    "poignees": _(
        "What a poignée of trumps shown adds to the deal: a simple, double or triple poignée "
        "is worth 20, 30 and 40 by the FFT, or 20, 40 and 60."
    ),
    "poignee_multiplied": _(
        "Whether a poignée counts as many times as the contract, like the rest of the deal; "
        "either way it goes to the side that wins the deal."
    ),
    "petit_au_bout": _(
        "Who gets the 10 points (times the contract) of the Petit led to the last trick: the "
        "side that took that trick (FFT), or the side that wins the deal, as with a poignée."
    ),
    "misere": _(
        "A player dealt no trump (or no trump and no honour) may announce a misère: each "
        "other player at the table pays that player these points, whoever wins the deal, "
        "never multiplied."
    ),
}

#: Each rule's choices (the sheet's value, its label), the FFT's first.
RULE_CHOICES: dict[str, list[tuple[object, Promise]]] = {
    "multipliers": [("fft", _("FFT: 1, 2, 4, 6")), ("classic", _("Classic: 1, 2, 3, 4"))],
    "poignees": [("20-30-40", _("FFT: 20, 30, 40")), ("20-40-60", _("20, 40, 60"))],
    "poignee_multiplied": [
        (False, _("FFT: not multiplied")),
        (True, _("Multiplied by the contract")),
    ],
    "petit_au_bout": [
        ("last_trick", _("FFT: the side that took the last trick")),
        ("deal_winner", _("The side that wins the deal")),
    ],
    "misere": [(0, _("FFT: no misère")), (10, _("10 points")), (20, _("20 points"))],
}


def choice_label(rule: str, value: object) -> str:
    for option, label in RULE_CHOICES[rule]:
        if type(option) is type(value) and option == value:
            return str(label)
    return str(value)


def _part(rule: str, value: object) -> str:
    if rule == "multipliers":
        return gettext("classic multipliers")
    if rule == "poignees":
        return gettext("poignées %(values)s") % {"values": value}
    if rule == "poignee_multiplied":
        return gettext("poignées multiplied")
    if rule == "petit_au_bout":
        return gettext("petit au bout to the deal's winner")
    return gettext("misère %(points)s") % {"points": value}


def rules_line(rules: HouseRules) -> str:
    """ "FFT rules", or "House rules: " and what differs from them, in the sheet's order."""
    if rules == FFT_RULES:
        return gettext("FFT rules")
    data = rules.to_data()
    parts = [_part(rule, data[rule]) for rule in RULE_KEYS if rule in data]
    return gettext("House rules: %(rules)s") % {"rules": ", ".join(parts)}
