"""Card effects: one small function per card, registered in `cards.py`.

An effect runs after the card's "+" bonuses. It returns None, or a generator
(a flow) when it must stop for a player's decision.
"""
