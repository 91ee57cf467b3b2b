from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .login_throttle import ThrottledLoginView

urlpatterns = [
    path("accounts/signup/", views.signup_view, name="signup"),
    path("accounts/login/", ThrottledLoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]
