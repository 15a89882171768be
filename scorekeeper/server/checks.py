"""System checks of the deployment. ``scorekeeper.W001``: a proxy (``BEHIND_HTTPS_PROXY``)
that ``TRUSTED_PROXIES`` does not name, so that every visitor shares one IP's sign-in limit."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=False)
def proxy_is_trusted(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    behind_proxy = bool(getattr(settings, "SECURE_PROXY_SSL_HEADER", None))
    if behind_proxy and not getattr(settings, "TRUSTED_PROXIES", []):
        return [
            Warning(
                "Requests come through a proxy (BEHIND_HTTPS_PROXY) that TRUSTED_PROXIES "
                "does not name: every visitor counts as the proxy's address, and the whole "
                "site shares one sign-in limit per IP.",
                hint="Set TRUSTED_PROXIES to the proxy's address, e.g. 127.0.0.1,::1.",
                id="scorekeeper.W001",
            )
        ]
    return []
