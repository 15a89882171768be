"""The table: an evening, its games, who sits where, and the deals entered, corrected and
restored (the phone at the table)."""
