"""R6 Rotation: who leads the next bout after a successful defence (R6.1), also with teams, and
after a take (R6.2), and who defends it (R6.3)."""

from __future__ import annotations

from helpers import D24, hands, legal, play, position

from durak import Beat, Lead, Rules, Take

R3P = Rules(players=3, deck_size=24)
R4P = Rules(players=4, deck_size=24, hand_size=4)


# ---------------------------------------------------------------------------------------------
# R6.1 after a successful defence
# ---------------------------------------------------------------------------------------------


def test_R6_1_defender_leads_after_a_successful_defence() -> None:
    s = position(R3P, ["9c Ac", "Tc Kd", "Qd Ks"], stock="Ah")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.table == ()
    assert (s.attacker, s.defender) == (1, 2)
    assert {a.player for a in legal(s)} == {1}
    assert all(isinstance(a, Lead) for a in legal(s))


def test_R6_1_two_players_roles_swap_after_a_successful_defence() -> None:
    s = position(D24, ["9c Ac", "Tc Kd"], stock="Ah")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert (s.attacker, s.defender) == (1, 0)


def test_R6_1_defender_out_next_active_player_clockwise_leads() -> None:
    # Stock empty: the defender beats with his last card and is out.
    s = position(R3P, ["9c Kd Ks", "Tc", "Qd Qs Ah"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.places == (None, 1, None)
    assert s.result is None
    assert (s.attacker, s.defender) == (2, 0)


def test_R6_1_team_defender_who_beats_leads_against_his_next_opponent() -> None:
    # R10.2: teams {0, 2} and {1, 3}; the defender's next opponent is seat 2.
    pairs = D24.replace(players=4, teams=[[0, 2], [1, 3]])
    state = position(pairs, ["9c Ac", "Tc Jh", "Qd Kd", "Qs Ks"], trump="h")
    state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert (state.attacker, state.defender) == (1, 2)


# ---------------------------------------------------------------------------------------------
# R6.2 after a take
# ---------------------------------------------------------------------------------------------


def test_R6_2_after_a_take_the_player_after_the_defender_leads() -> None:
    s = position(R3P, ["9c Ac", "Tc Kd", "Qd Ks"], stock="Ah")
    s = play(s, Lead(0, "9c"), Take(1))
    assert s.table == ()
    assert s.hands[1] == hands("9c Tc Kd")[0]
    assert (s.attacker, s.defender) == (2, 0)


def test_R6_2_after_a_take_with_two_players_the_same_attacker_leads_again() -> None:
    s = position(D24, ["9c Ac", "Tc Kd"], stock="Ah")
    s = play(s, Lead(0, "9c"), Take(1))
    assert (s.attacker, s.defender) == (0, 1)
    s = position(D24, ["9c Ac", "Tc Kd"], stock="Ah", attacker=1)
    s = play(s, Lead(1, "Tc"), Take(0))
    assert (s.attacker, s.defender) == (1, 0)


def test_R6_2_after_a_take_skips_players_who_are_out() -> None:
    # Seat 2 is out (no cards, empty stock): after seat 1 takes, seat 3 leads against seat 0.
    s = position(R4P, ["9c Ac", "Tc Kd", "", "Qd Ks"], trump="h")
    s = play(s, Lead(0, "9c"), Take(1))
    assert (s.attacker, s.defender) == (3, 0)


def test_R6_2_after_a_take_rotation_skips_an_attacker_who_went_out() -> None:
    # Stock empty: seat 0 leads his last card and is out when seat 1's take ends the bout.
    s = position(R3P, ["9c", "Tc Kd", "Qd Ks"], trump="h")
    s = play(s, Lead(0, "9c"), Take(1))
    assert s.places == (1, None, None)
    assert s.hands == hands("", "9c Tc Kd", "Qd Ks")
    assert (s.attacker, s.defender) == (2, 1)


# ---------------------------------------------------------------------------------------------
# R6.3 the new defender
# ---------------------------------------------------------------------------------------------


def test_R6_3_new_defender_is_the_next_active_player_after_the_new_attacker() -> None:
    # Seat 2 is out: seat 1 defends successfully and leads against seat 3.
    s = position(R4P, ["9c Ac", "Tc Kd", "", "Qd Ks"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert (s.attacker, s.defender) == (1, 3)
