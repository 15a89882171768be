"""The counter page's form: count one side's pile, its bouts and what the contract makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext_lazy as _

from scorekeeper.scoring.cards import (
    CARD_VALUES,
    DECK_SIZE,
    CardCount,
    PairCount,
    other_pile,
    pile_points,
)
from scorekeeper.scoring.errors import ScoringError
from scorekeeper.screens.counter.cards import CARD_CHOICES, CardCounting
from scorekeeper.screens.counter.counting import (
    ATTACK,
    ATTACK_POINTS_TOO_FEW,
    BOUT_CHOICES,
    BOUT_LEFT_OVER,
    BOUTS_BY_PILE,
    BOUTS_ROOM,
    CARDS,
    CONTRACTS,
    DEFENCE_POINTS_TOO_FEW,
    DEFENSE,
    MODE_FIELDS,
    MODES,
    NOT_POSSIBLE,
    PAIRS,
    SIDES,
    TOO_MANY_IN_PILE,
    CountResult,
    contract_outcome,
    count_field,
    show_points,
)
from scorekeeper.screens.counter.pairs import LEFTOVERS, PairCounting
from scorekeeper.server.wording import labelled


class CounterForm(PairCounting, CardCounting):
    """Count one side's pile; every field is optional, an empty form is a pile of 0."""

    side = forms.ChoiceField(
        label=_("Whose pile do you hold?"), choices=SIDES, widget=forms.RadioSelect
    )
    mode = forms.ChoiceField(label=_("How do you count?"), choices=MODES, widget=forms.RadioSelect)

    fives = count_field(_("Piles of 5"), _("A bout or a king on a low card"))
    fours = count_field(_("Piles of 4"), _("A queen on a low card"))
    threes = count_field(_("Piles of 3"), _("A knight on a low card"))
    twos = count_field(_("Piles of 2"), _("A jack on a low card"))
    ones = count_field(_("Piles of 1"), _("Two low cards"))
    leftover = forms.ChoiceField(
        label=_("A single card left over"), choices=LEFTOVERS, required=False
    )

    bouts = count_field(_("Bouts"), _("The Petit, the 21, the Excuse"))
    kings = count_field(_("Kings"))
    queens = count_field(_("Queens"))
    knights = count_field(_("Knights"))
    jacks = count_field(_("Jacks"))
    lows = count_field(_("Low cards"), _("Trumps 2 to 20, suit cards 1 to 10"))

    card = forms.MultipleChoiceField(
        label=_("The cards in the pile"),
        required=False,
        choices=CARD_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": _("%(value)s is not a card of the deck.")},
    )

    attack_bouts = forms.ChoiceField(
        label=_("Bouts held by the attack"),
        help_text=_("Counting card by card, leave it unset: the pile tells."),
        choices=BOUT_CHOICES,
        required=False,
        widget=forms.RadioSelect,
    )
    contract = forms.ChoiceField(
        label=_("Contract (optional)"), choices=CONTRACTS, required=False, widget=forms.RadioSelect
    )

    def __init__(self, data: Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        data = data.copy() if data is not None else {}  # type: ignore[union-attr]
        # The side and the way of counting always have a value: a bad one means the default.
        if data.get("side") not in {ATTACK, DEFENSE}:
            data["side"] = ATTACK
        if data.get("mode") not in MODE_FIELDS:
            data["mode"] = PAIRS
        super().__init__(data, **kwargs)
        self.active_mode: str = str(data["mode"])
        self.count_result: CountResult | None = None
        self.suggest_cards = False
        self._pile_is_empty = False
        for name, field in self.fields.items():
            field.widget.attrs.setdefault("aria-describedby", f"id_{name}-errors")

    # Every way of counting keeps its fields in the page; only the chosen one is read.
    def inactive_fields(self) -> tuple[str, ...]:
        return tuple(
            name
            for mode, names in MODE_FIELDS.items()
            if mode != self.active_mode
            for name in names
        )

    def full_clean(self) -> None:
        super().full_clean()
        if not hasattr(self, "_errors") or self._errors is None:
            return
        for name in self.inactive_fields():
            self._errors.pop(name, None)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        active = MODE_FIELDS[self.active_mode]
        if any(name in self.errors for name in active):
            return cleaned
        side = cleaned.get("side") or ATTACK
        count = self._count(cleaned)
        if count is None:
            return cleaned
        try:
            pile = pile_points(count)
            attack = pile if side == ATTACK else other_pile(pile)
        except ScoringError as error:
            self._scoring_error(error)
            return cleaned
        result = CountResult(
            side=side,
            mode=self.active_mode,
            pile_points=pile,
            pile_cards=count.cards(),
            attack_points=attack,
        )
        self.count_result = result
        # Nothing counted yet: the bouts chosen (or brought from a deal form) wait for the pile.
        self._pile_is_empty = count.cards() == 0
        bouts, found = self._attack_bouts(cleaned, side, count)
        if bouts is None:
            return cleaned
        result = replace(result, attack_bouts=bouts, bouts_found=found)
        self.count_result = result
        contract = cleaned.get("contract") or None
        try:
            self.count_result = contract_outcome(result, contract)
        except ScoringError as error:
            self._bouts_error(error, result, bouts)
        return cleaned

    def _count(self, cleaned: Mapping[str, Any]) -> CardCount | PairCount | None:
        """The pile as the scoring package counts it, or None after adding the errors."""
        if self.active_mode == PAIRS:
            return self.pair_count(cleaned)
        if self.active_mode == CARDS:
            count = self.card_count(cleaned)
        else:
            count = self.tapped_count(cleaned)
        if count.cards() > DECK_SIZE:
            self.add_error(None, TOO_MANY_IN_PILE % {"n": count.cards(), "limit": DECK_SIZE})
        return None if self._count_has_errors() else count

    def _count_has_errors(self) -> bool:
        names = (*MODE_FIELDS[self.active_mode], NON_FIELD_ERRORS)
        return any(name in self.errors for name in names)

    def _attack_bouts(
        self, cleaned: Mapping[str, Any], side: str, count: CardCount | PairCount
    ) -> tuple[int | None, bool]:
        """The attack's bouts and whether the pile told them; adds the errors it finds."""
        given_text = cleaned.get("attack_bouts")
        given = int(given_text) if given_text not in (None, "") else None
        if isinstance(count, CardCount):
            found = count.bouts if side == ATTACK else 3 - count.bouts
            if self.active_mode == CARDS and given is not None:
                if cleaned.get("bouts") is None:
                    return given, False  # the pile's bouts are not counted yet
                if given != found:
                    self._bouts_problem(BOUTS_BY_PILE % {"pile": count.bouts, "attack": found})
                    return None, False
            return found, True
        if given is None:
            return None, False
        in_pile = given if side == ATTACK else 3 - given
        room = count.fives + (1 if count.leftover == "bout" else 0)
        if in_pile > room:
            self._bouts_problem(BOUTS_ROOM % {"pile": in_pile, "room": room})
            return None, False
        if count.leftover == "bout" and in_pile == 0:
            self._bouts_problem(BOUT_LEFT_OVER)
            return None, False
        return given, False

    def _bouts_error(self, error: ScoringError, result: CountResult, bouts: int) -> None:
        if error.field != "points":
            self._scoring_error(error)
            return
        # The scoring package found the points cannot hold the bouts on one side.
        if result.attack_points < CARD_VALUES["bout"] * bouts:
            message = ATTACK_POINTS_TOO_FEW % {
                "points": show_points(result.attack_points),
                "bouts": bouts,
            }
        else:
            message = DEFENCE_POINTS_TOO_FEW % {
                "points": show_points(other_pile(result.attack_points)),
                "bouts": 3 - bouts,
            }
        self._bouts_problem(message)

    def _bouts_problem(self, message: str) -> None:
        """The pile and the attack's bouts disagree (not an error before anything is counted)."""
        if not self._pile_is_empty:
            self.add_error("attack_bouts", message)

    def _scoring_error(self, error: ScoringError) -> None:
        """A check only the scoring package made: shown on its field, or on the form."""
        field = error.field if error.field in self.fields else None
        if field in self.inactive_fields():
            field = None
        self.add_error(field, NOT_POSSIBLE % {"detail": error.message})

    # What the template needs.
    @property
    def result(self) -> CountResult | None:
        """The count, when it is valid (possibly without the bouts, so without a target)."""
        if not self.is_valid():
            return None
        return self.count_result

    def first_error(self) -> str:
        """The first problem, for the summary bar: "Kings: Too many…"."""
        for name, errors in self.errors.items():
            if not errors:
                continue
            if name == NON_FIELD_ERRORS:
                return str(errors[0])
            return labelled(self.fields[name].label, errors[0])
        return ""
