"""Standings: score, Buchholz, Sonneborn-Berger for two-player events (byes against a stand-in
opponent); points by place, tablemates' average and tables won for table events."""
from fractions import Fraction as F

import pytest

from games.tournaments.standings import Game, Round, TableRound, swiss_standings, table_standings

# Six players, three rounds, no byes (worked by hand below).
SIX = [
    Round((Game("C", "D", F(0)), Game("F", "A", F(0)), Game("E", "B", F(0)))),
    Round((Game("C", "E", F(1)), Game("A", "B", F(0)), Game("D", "F", F(0)))),
    Round((Game("C", "F", F(1, 2)), Game("B", "D", F(1)), Game("A", "E", F(0)))),
]


def lines(standings):
    return [(s.rank, s.player, s.score, *s.tie_breaks) for s in standings]


def test_a_hand_worked_event_without_byes():
    # Scores: A 1 (beat F), B 3, C 1 1/2 (beat E, drew F), D 1 (beat C), E 1 (beat A),
    # F 1 1/2 (beat D, drew C).
    # Buchholz: A = F 1 1/2 + B 3 + E 1 = 5 1/2; E = B 3 + C 1 1/2 + A 1 = 5 1/2;
    #           D = C 1 1/2 + F 1 1/2 + B 3 = 6; C = D 1 + E 1 + F 1 1/2 = 3 1/2 = F's;
    #           B = E 1 + A 1 + D 1 = 3.
    # Sonneborn-Berger: A beat F (1 1/2); E beat A (1); D beat C (1 1/2); B beat all three (3);
    #           C: E 1 + half of F 1 1/2 = 1 3/4; F: D 1 + half of C 1 1/2 = 1 3/4.
    assert lines(swiss_standings(SIX)) == [
        (1, "B", 3, F(3), F(3)),
        (2, "C", F(3, 2), F(7, 2), F(7, 4)),  # C and F equal on everything: they share second
        (2, "F", F(3, 2), F(7, 2), F(7, 4)),
        (4, "D", 1, F(6), F(3, 2)),  # Buchholz puts D above A and E
        (5, "A", 1, F(11, 2), F(3, 2)),  # Sonneborn-Berger puts A above E
        (6, "E", 1, F(11, 2), F(1)),
    ]


def test_a_hand_worked_event_with_byes():
    rounds = [
        Round((Game("A", "B", F(1)), Game("C", "D", F(1, 2))), bye="E"),
        Round((Game("A", "E", F(1, 2)), Game("B", "C", F(1))), bye="D"),
        Round((Game("D", "A", F(1)), Game("E", "B", F(1))), bye="C"),
    ]
    # Scores: A 1 1/2, B 1, C 1/2 + bye = 1 1/2, D 1/2 + bye + 1 = 2 1/2, E bye + 1/2 + 1 = 2 1/2.
    # Stand-ins (the receiver's score before the round, plus a draw a round after it):
    #   E in round 1: 0 + 1/2 + 1/2 = 1; D in round 2: 1/2 + 1/2 = 1; C in round 3: 1/2.
    # Buchholz: D = C 1 1/2 + stand-in 1 + A 1 1/2 = 4; E = stand-in 1 + A 1 1/2 + B 1 = 3 1/2;
    #           A = B 1 + E 2 1/2 + D 2 1/2 = 6; C = D 2 1/2 + B 1 + stand-in 1/2 = 4;
    #           B = A 1 1/2 + C 1 1/2 + E 2 1/2 = 5 1/2.
    # Sonneborn-Berger (a bye is a win over the stand-in):
    #   D = half of C (3/4) + 1 + A 1 1/2 = 3 1/4; E = 1 + half of A (3/4) + B 1 = 2 3/4;
    #   A = B 1 + half of E (1 1/4) = 2 1/4; C = half of D (1 1/4) + 1/2 = 1 3/4; B = C 1 1/2.
    assert lines(swiss_standings(rounds)) == [
        (1, "D", F(5, 2), F(4), F(13, 4)),
        (2, "E", F(5, 2), F(7, 2), F(11, 4)),
        (3, "A", F(3, 2), F(6), F(9, 4)),
        (4, "C", F(3, 2), F(4), F(7, 4)),
        (5, "B", 1, F(11, 2), F(3, 2)),
    ]


def test_players_without_results_are_listed_last_with_nothing():
    standings = swiss_standings([Round((Game("a", "b", F(1)),))], players=["a", "b", "late"])
    assert lines(standings)[-1] == (3, "late", 0, 0, 0)


def test_a_result_other_than_win_draw_or_loss_is_refused():
    with pytest.raises(ValueError):
        swiss_standings([Round((Game("a", "b", F(2)),))])


def test_table_standings_by_points_then_tablemates_average():
    rounds = [
        TableRound(({"A": 1, "B": 2, "C": 3, "D": 4}, {"E": 1, "F": 2, "G": 2, "H": 4}), size=4),
        TableRound(({"E": 1, "A": 2, "B": 3, "F": 4}, {"C": 1, "G": 2, "D": 3, "H": 3}), size=4),
    ]
    # Points: A 6+4, B 4+2, C 2+6, D 0+1, E 6+6, F 3+0, G 3+4, H 0+1 (D and H tie for third).
    # D's tablemates: A 10, B 6, C 8, then C 8, G 7, H 1: 40 / 6. H's: E 12, F 3, G 7, C 8,
    # G 7, D 1: 38 / 6. So D is above H.
    standings = table_standings(rounds)
    assert [(s.player, s.score) for s in standings] == [
        ("E", 12), ("A", 10), ("C", 8), ("G", 7), ("B", 6), ("F", 3), ("D", 1), ("H", 1)]
    assert standings[-2].tie_breaks[0] == F(40, 6)
    assert standings[-1].tie_breaks[0] == F(38, 6)
    assert [s.rank for s in standings] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_table_standings_then_tables_won():
    rounds = [TableRound(({"A": 1, "B": 2, "C": 3},), size=3),
              TableRound(({"A": 3, "B": 2, "C": 1},), size=3)]
    # Everyone has 4 points and the same tablemates' average; A and C won a table each.
    assert [(s.rank, s.player, s.score, s.tie_breaks[1]) for s in table_standings(rounds)] == [
        (1, "A", 4, 1), (1, "C", 4, 1), (3, "B", 4, 0)]


def test_a_shared_first_place_counts_as_a_table_won():
    standings = table_standings([TableRound(({"A": 1, "B": 1, "C": 3},), size=3)])
    assert {s.player: s.tie_breaks[1] for s in standings} == {"A": 1, "B": 1, "C": 0}


def test_sitting_out_earns_a_tables_average_and_no_tablemates():
    rounds = [TableRound(({"A": 1, "B": 2, "C": 3, "D": 4},), size=4, sitting_out=("E",))]
    standings = {s.player: s for s in table_standings(rounds)}
    assert standings["E"].score == 3
    assert standings["E"].tie_breaks == (0, 0)
