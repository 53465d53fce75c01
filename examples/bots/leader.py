#!/usr/bin/env python3
"""A camelup-bot/1 bot as a standalone program (standard library only; any language works the same way):
read one JSON line per decision, write one JSON action line back.

It bets on the leading camel while that camel's top leg ticket is worth 3 or more, else takes a pyramid ticket.
Run it in a league:  camelup league --players expert,strong,exec:'python3 examples/bots/leader.py'
"""

import json
import sys

for line in sys.stdin:
    request = json.loads(line)
    state, legal = request["state"], request["legal"]
    leader = state["ranking"][0]
    tickets = state["leg_tickets_left"][leader]
    answer = {"type": "pyramid"}
    if tickets and tickets[0] >= 3 and {"type": "leg_bet", "camel": leader} in legal:
        answer = {"type": "leg_bet", "camel": leader}
    print(json.dumps(answer), flush=True)
