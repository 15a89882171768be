"""The rules, pure Python: French Tarot, house rules, l'escopette, paper deals, seating,
ratings and the club figures' fold. Imports no Django and nothing else of the app."""
