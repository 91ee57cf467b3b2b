"""Root URLs. Each app owns its pages (``<app>/urls.py``) and its API (``<app>/api/urls.py``)."""
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from accounts.login_throttle import admin_login_view
from config.api_index import ApiIndexView
from config.media import media_view

api_v1 = [
    path("", ApiIndexView.as_view(), name="api-index"),
    path("", include("catalog.api.urls")),
    path("", include("accounts.api.urls")),
    path("", include("decks.api.urls")),
    path("", include("playtest.api.urls")),
    path("schema/", SpectacularAPIView.as_view(api_version="1"), name="api-schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
]

urlpatterns = [
    # the admin's login, throttled like the site's (accounts/login_throttle.py), before admin.site.urls
    path("admin/login/", admin_login_view, name="admin-login-throttled"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    re_path(r"^media/(?P<path>.+)$", media_view, name="media"),
    path("api/v1/", include(api_v1)),
    path("", include("accounts.urls")),
    path("", include("decks.urls")),
    path("", include("playtest.urls")),
    path("", include("catalog.urls")),
]

# API addresses answer JSON errors, pages the usual HTML ones (config/errors.py).
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
