"""Leg scoring and end-of-race scoring, with their breakdowns (decisions 6 and 7)."""

from companion.rules import EDITION_2014, EDITION_2018, FinishCard, LegTicket, score_leg, score_race

RANKING = ("green", "yellow", "red", "blue", "purple")


def test_rulebook_leg_scoring_example_gives_martina_nine():
    # Green leads, yellow second. Martina: green 5, green 2, yellow, blue (another camel), two pyramid
    # tickets: 5 + 2 + 1 − 1 + 1 + 1 = 9.
    tickets = [
        LegTicket("green", 5, "Martina"),
        LegTicket("green", 3, "Tom"),
        LegTicket("green", 2, "Martina"),
        LegTicket("yellow", 5, "Martina"),
        LegTicket("blue", 5, "Martina"),
    ]
    scoring = score_leg(
        EDITION_2018, 1, ["Martina", "Tom"], [3, 3], RANKING, tickets, ["Martina", "Tom", "Martina"], []
    )
    martina = scoring.score_of("Martina")
    assert [reward.amount for reward in martina.rewards] == [5, 2, 1, -1, 1, 1]
    assert martina.explain() == "5 + 2 + 1 − 1 + 1 + 1 = 9"
    assert (martina.before, martina.after) == (3, 12)
    assert scoring.score_of("Tom").after == 3 + 3 + 1
    assert martina.rewards[0].describe() == "green leg ticket 5 (green first): +5"


def test_leg_net_is_applied_once_so_a_loss_before_a_win_is_not_floored():
    # Decision 6: with 0 EP, −1 then +5 gives 4 (not 5, as paying card by card with a floor would).
    tickets = [LegTicket("red", 5, "Ann"), LegTicket("green", 5, "Ann")]
    scoring = score_leg(EDITION_2018, 2, ["Ann", "Bob"], [0, 0], RANKING, tickets, [], [])
    assert scoring.score_of("Ann").after == 4


def test_leg_money_never_goes_below_zero():
    tickets = [LegTicket(camel, 5, "Ann") for camel in ("red", "blue", "purple")]
    scoring = score_leg(EDITION_2018, 1, ["Ann", "Bob"], [1, 3], RANKING, tickets, [], [])
    ann = scoring.score_of("Ann")
    assert (ann.net, ann.after) == (-3, 0)


def test_partner_adds_the_best_single_reward_of_the_partner():
    tickets = [LegTicket("green", 5, "Bob"), LegTicket("yellow", 5, "Bob"), LegTicket("red", 5, "Ann")]
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    scoring = score_leg(EDITION_2018, 1, players, [3] * 6, RANKING, tickets, ["Cy"], [("Ann", "Bob")])
    ann, bob = scoring.score_of("Ann"), scoring.score_of("Bob")
    assert [r.source for r in ann.rewards] == ["leg_ticket", "partner"]
    assert ann.rewards[-1].amount == 5 and ann.rewards[-1].copied.camel == "green"
    assert ann.after == 3 - 1 + 5
    # Bob's partner only had a negative ticket: Bob is not obliged to copy it.
    assert [r.source for r in bob.rewards] == ["leg_ticket", "leg_ticket"]
    assert bob.after == 3 + 5 + 1
    assert "from partner Bob" in ann.rewards[-1].describe()


def test_a_partner_with_no_tickets_gives_nothing_to_copy():
    scoring = score_leg(EDITION_2018, 1, ["Ann", "Bob"], [3, 3], RANKING, [], ["Ann"], [("Ann", "Bob")])
    # Ann's partner Bob has no ticket to copy; Bob copies Ann's pyramid ticket.
    assert scoring.score_of("Ann").explain() == "1 = 1"
    assert scoring.score_of("Bob").explain() == "1 = 1"
    assert [r.source for r in scoring.score_of("Bob").rewards] == ["partner"]


def test_2014_leg_tickets_pay_five_three_two():
    ranking = ("orange", "blue", "green", "yellow", "white")
    tickets = [LegTicket("orange", v, "Ann") for v in EDITION_2014.leg_ticket_values]
    scoring = score_leg(EDITION_2014, 1, ["Ann", "Bob"], [3, 3], ranking, tickets, [], [])
    assert scoring.score_of("Ann").after == 3 + 5 + 3 + 2


def test_end_of_race_pays_right_cards_eight_five_three_two_then_one():
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]
    winner_pile = [FinishCard(p, "green") for p in players[:6]]
    scoring = score_race(EDITION_2018, players, [0] * 7, RANKING, winner_pile, [])
    assert [payout.amount for payout in scoring.payouts] == [8, 5, 3, 2, 1, 1]
    assert [payout.nth_right for payout in scoring.payouts] == [1, 2, 3, 4, 5, 6]
    assert scoring.winners == ("Ann",)


def test_wrong_cards_cost_one_do_not_count_as_right_and_never_go_below_zero():
    winner_pile = [FinishCard("Ann", "red"), FinishCard("Bob", "green"), FinishCard("Cy", "green")]
    loser_pile = [FinishCard("Ann", "green"), FinishCard("Bob", "purple")]
    scoring = score_race(EDITION_2018, ["Ann", "Bob", "Cy"], [0, 2, 1], RANKING, winner_pile, loser_pile)
    assert scoring.winner == "green" and scoring.loser == "purple"
    amounts = [(p.pile, p.owner, p.amount, p.after) for p in scoring.payouts]
    assert amounts == [
        ("winner", "Ann", -1, 0),
        ("winner", "Bob", 8, 10),
        ("winner", "Cy", 5, 6),
        ("loser", "Ann", -1, 0),
        ("loser", "Bob", 8, 18),
    ]
    assert dict(scoring.final_money) == {"Ann": 0, "Bob": 18, "Cy": 6}


def test_winner_pile_is_paid_before_loser_pile_card_by_card():
    # Ann starts at 0: a wrong winner card costs nothing, her right loser card then pays 8.
    # Paying the loser pile first would have left her at 7.
    scoring = score_race(
        EDITION_2018, ["Ann", "Bob"], [0, 5], RANKING, [FinishCard("Ann", "red")], [FinishCard("Ann", "purple")]
    )
    assert dict(scoring.final_money)["Ann"] == 8


def test_tied_players_share_the_win():
    scoring = score_race(EDITION_2018, ["Ann", "Bob", "Cy"], [7, 7, 3], RANKING, [], [])
    assert scoring.winners == ("Ann", "Bob")
