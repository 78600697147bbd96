"""Prove the collections: every holding equals the sum of its ledger, and staked antes match."""
from django.core.management.base import BaseCommand, CommandError

from decks.selectors import ledger_discrepancies


class Command(BaseCommand):
    help = "Verify that holdings equal the ledger's sums and held copies equal open ante stakes."

    def handle(self, *args, **options):
        problems = ledger_discrepancies()
        for problem in problems:
            self.stderr.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} discrepancy(ies) found.")
        self.stdout.write("Ledger check passed: every holding equals its ledger.")
