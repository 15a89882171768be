"""One canonical form for an e-mail address, before it identifies an account.

NFKC, then lower case; invisible and control characters refused; the domain through IDNA
2008 (UTS 46, non-transitional: ``straße.test`` stays itself, an A-label typed by hand is the
same account); mail goes to ``mail_address()``, the domain's ASCII form.
"""

from __future__ import annotations

import unicodedata

import idna

REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


class UnusableAddress(ValueError):
    """An address that cannot be put in one canonical form."""


def _ascii_domain(domain: str) -> str:
    try:
        return idna.encode(domain, uts46=True, transitional=False).decode("ascii")
    except (idna.IDNAError, UnicodeError) as error:
        raise UnusableAddress(f"domain {domain!r}: {error}") from None


def canonical_email(email: str) -> str:
    """The stored form of ``email``; raises ``UnusableAddress`` when there is none."""
    text = unicodedata.normalize("NFKC", email.strip())
    for character in text:
        if unicodedata.category(character) in REFUSED_CATEGORIES or character.isspace():
            raise UnusableAddress(f"invisible or control character U+{ord(character):04X}")
    local, at, domain = text.rpartition("@")
    if not at or not local or not domain:
        raise UnusableAddress("no local part or no domain")
    ascii_domain = _ascii_domain(domain.removesuffix("."))
    try:
        unicode_domain = idna.decode(ascii_domain)
    except (idna.IDNAError, UnicodeError) as error:
        raise UnusableAddress(f"domain {domain!r}: {error}") from None
    return f"{local.lower()}@{unicode_domain}"


def mail_address(email: str) -> str:
    """``email`` (already canonical) with its domain in ASCII, for the mail's envelope."""
    local, _at, domain = email.rpartition("@")
    return f"{local}@{_ascii_domain(domain)}"
