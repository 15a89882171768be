"""Clubs and joining: a club's members and players, invitations, join links and archives."""
