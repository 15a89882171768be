from __future__ import annotations

from django.urls import URLPattern, path

from accounts import views

app_name = "accounts"

urlpatterns: list[URLPattern] = [
    path("login/", views.login, name="login"),
    path("login/code/", views.login_code, name="login_code"),
    path("login/link/<slug:token>/", views.login_link, name="login_link"),
    path("welcome/", views.welcome, name="welcome"),
    path("logout/", views.logout, name="logout"),
]
