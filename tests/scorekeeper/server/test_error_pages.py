"""The error pages never read the request's body: a form Django cannot parse, posted with a
CSRF cookie to an address that matches no page, is a 404, not a 500 (issue 38, item 10)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings

CSRF = "errorpagescsrfsecret000000000000"  # an unmasked CSRF secret: 32 characters

#: Bodies Django refuses to parse, with their Content-Type.
BROKEN = {
    "multipart without a boundary": (b"--XYZ\r\n\r\n", "multipart/form-data"),
    "multipart with an invalid boundary": (b"--\x7f\r\n\r\n", "multipart/form-data; boundary=\x7f"),
    "multipart with too many files": (
        b"".join(
            b'--XYZ\r\nContent-Disposition: form-data; name="f"; filename="f%d.txt"\r\n\r\nx\r\n'
            % number
            for number in range(settings.DATA_UPLOAD_MAX_NUMBER_FILES + 1)
        )
        + b"--XYZ--\r\n",
        "multipart/form-data; boundary=XYZ",
    ),
    "a form not in UTF-8": (b"a=%E9", "application/x-www-form-urlencoded; charset=latin-1"),
}


def post(path: str, body: bytes, content_type: str) -> int:
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies["csrftoken"] = CSRF
    return client.generic("POST", path, body, content_type=content_type).status_code


@pytest.mark.django_db
@pytest.mark.parametrize("broken", BROKEN)
def test_a_broken_form_posted_with_a_csrf_cookie_to_no_page_is_a_404(broken: str) -> None:
    assert post("/no-such-page/", *BROKEN[broken]) == 404


@pytest.mark.django_db
@pytest.mark.parametrize("broken", BROKEN)
def test_a_broken_form_posted_to_a_page_is_refused_with_a_400_or_a_403(broken: str) -> None:
    assert post("/login/", *BROKEN[broken]) in (400, 403)


@pytest.mark.django_db
def test_an_error_page_still_gets_the_csrf_token_its_template_asks_for(tmp_path: Path) -> None:
    (tmp_path / "404.html").write_text("<form>{% csrf_token %}</form>")
    templates = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]
    with override_settings(TEMPLATES=templates):
        client = Client(enforce_csrf_checks=True)
        client.cookies["csrftoken"] = CSRF
        answer = client.get("/no-such-page/")
    assert answer.status_code == 404
    assert b'name="csrfmiddlewaretoken" value="' in answer.content
