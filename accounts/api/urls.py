from django.urls import path

from .views import TokenView

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="api-token"),
]
