"""Accounts: sign-up, log-in/log-out (Django's views, throttled), API tokens (DRF authtoken).

The User model is Django's own; this app holds no models.
"""
