"""The client's IP address for the sign-in limits: ``REMOTE_ADDR``, or, when that peer is a
trusted proxy (``TRUSTED_PROXIES``), the right-most ``X-Forwarded-For`` address that is not
one (a client's own entries sit further left); without trusted proxies the header is ignored.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(values: Iterable[str]) -> list[Network]:
    """``values`` ("10.0.0.1", "10.0.0.0/8", "::1") as networks; ValueError on a bad one."""
    return [ipaddress.ip_network(value.strip(), strict=False) for value in values]


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def _trusted(address: Any, networks: list[Network]) -> bool:
    return any(address in network for network in networks)


def client_ip(meta: Mapping[str, Any], trusted: Iterable[str]) -> str | None:
    peer = _address(str(meta.get("REMOTE_ADDR") or ""))
    if peer is None:
        return None
    networks = parse_networks(trusted)
    if not networks or not _trusted(peer, networks):
        return str(peer)
    client = peer
    for hop in reversed(str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",")):
        address = _address(hop)
        if address is None:
            break  # garbage: keep the last address a trusted proxy vouched for
        client = address
        if not _trusted(address, networks):
            break
    return str(client)


def through_untrusted_proxy(meta: Mapping[str, Any], trusted: Iterable[str]) -> bool:
    """Whether a proxy on a private or loopback address forwards for a client (the header
    is there) without being named in ``trusted``: its clients all look like the proxy."""
    peer = _address(str(meta.get("REMOTE_ADDR") or ""))
    if peer is None or not meta.get("HTTP_X_FORWARDED_FOR"):
        return False
    return (peer.is_private or peer.is_loopback) and not _trusted(peer, parse_networks(trusted))
