"""Forms for starting an evening and changing who is at the table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import Game, Player
from scorekeeper.screens.input_fields import PlaceField, RuleDateField

SEATS = 6


class GameStartForm(forms.Form):
    """Who sits where, who deals first, and which game: French Tarot or L'escopette."""

    kind = forms.ChoiceField(
        label=_("Game"),
        choices=Game.Kind.choices,
        initial=Game.Kind.TAROT,
        required=False,
        widget=forms.RadioSelect,
    )
    target = forms.TypedChoiceField(
        label=_("L'escopette: played to"),
        choices=[(50, _("50 points")), (100, _("100 points"))],
        coerce=int,
        initial=50,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
    )
    five_mode = forms.ChoiceField(
        label=_("With five players"),
        choices=Game.FiveMode.choices,
        initial=Game.FiveMode.FIVE,
        widget=forms.RadioSelect,
    )
    first_dealer = forms.TypedChoiceField(
        label=_("First dealer"),
        coerce=int,
        widget=forms.RadioSelect,
        help_text=_("The deal then passes to the next player in seat order."),
    )

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = list(players)
        if "date" in self.fields:
            self.initial.setdefault("date", timezone.localdate())
        choices = [("", "—")] + [(p.pk, p.name) for p in self.players]
        for seat in range(1, SEATS + 1):
            self.fields[f"seat_{seat}"] = forms.TypedChoiceField(
                label=_("Seat %(number)s") % {"number": seat},
                choices=choices,
                coerce=int,
                required=False,
                empty_value=None,
            )
        self.fields["first_dealer"].choices = [(seat, str(seat)) for seat in range(1, SEATS + 1)]
        self.fields["first_dealer"].initial = 1

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(1, SEATS + 1)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["kind"] = data.get("kind") or Game.Kind.TAROT
        chosen: list[tuple[int, Player]] = []
        by_id = {p.pk: p for p in self.players}
        seen: set[int] = set()
        for seat in range(1, SEATS + 1):
            player_id = data.get(f"seat_{seat}")
            if player_id is None:
                continue
            if player_id in seen:
                self.add_error(f"seat_{seat}", _("This player already has a seat."))
                continue
            seen.add(player_id)
            chosen.append((seat, by_id[player_id]))
        if not 3 <= len(chosen) <= 6:
            raise forms.ValidationError(_("Choose 3 to 6 players, one per seat."))
        dealer_seat = data.get("first_dealer")
        dealer = next((player for seat, player in chosen if seat == dealer_seat), None)
        if dealer is None:
            self.add_error("first_dealer", _("The first dealer's seat is empty."))
        data["players"] = [player for _seat, player in chosen]
        data["dealer"] = dealer
        if data.get("kind") == Game.Kind.ESCOPETTE:
            if len(chosen) != 4:
                raise forms.ValidationError(_("L'escopette is played by exactly 4 players."))
            if data.get("target") not in (50, 100):
                self.add_error("target", _("Choose a target of 50 or 100."))
        return data


class EveningStartForm(GameStartForm):
    date = RuleDateField(label=_("Date"))
    place = PlaceField(label=_("Place"))

    field_order = ["date", "place"]


class SeatJoinForm(forms.Form):
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    after = forms.TypedChoiceField(
        label=_("Sits after"), coerce=int, required=False, empty_value=None
    )

    def __init__(
        self, *args: Any, absent: Sequence[Player], present: Sequence[Player], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.absent = list(absent)
        self.present = list(present)
        self.fields["player"].choices = [(p.pk, p.name) for p in self.absent]
        self.fields["after"].choices = [("", _("the last seat"))] + [
            (p.pk, p.name) for p in self.present
        ]

    def chosen(self) -> tuple[Player, Player | None]:
        player = next(p for p in self.absent if p.pk == self.cleaned_data["player"])
        after_id = self.cleaned_data.get("after")
        after = next((p for p in self.present if p.pk == after_id), None)
        return player, after
