"""The deployment: compose and `make prod` share these files (prod.py says how)."""
