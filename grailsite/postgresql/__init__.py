"""Django's PostgreSQL backend with a cheaper check of pooled connections (see base.py)."""
