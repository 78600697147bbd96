"""Pure game rules: no Django, no I/O, no clocks.

Each game is a package here implementing the contract in ``base.py``; the shell in
``games/`` stores, pushes and times. A test fails if anything here imports django.
"""
