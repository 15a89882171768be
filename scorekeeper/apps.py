from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScorekeeperConfig(AppConfig):
    name = "scorekeeper"
    verbose_name = _("Scorekeeper")

    def ready(self) -> None:
        # accounts hands over at sign-in through Django's signal: it imports nothing of ours.
        from django.contrib.auth.signals import user_logged_in

        from scorekeeper.server import checks  # noqa: F401  (registers the system checks)
        from scorekeeper.services import invitations_accept

        def accept_invitations(sender: object, user: object, **kwargs: object) -> None:
            invitations_accept(user=user)

        user_logged_in.connect(
            accept_invitations, weak=False, dispatch_uid="scorekeeper-invitations"
        )
